"""Playing out one hand: tricks, following, the early end and its marks (R13–R23).

Pure: no I/O. :meth:`PlayState.play` is the checked path (it raises
:class:`IllegalAction` and changes nothing, R30); :meth:`PlayState.apply` is the
unchecked one for logs already validated.

Holdings may be partly unknown (a redacted or partly recorded log): each seat
has a set of tiles known to be in its hand and a count of unknown ones. A
renege is reported only when a tile known to be held would have followed.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Final

from .auction import Contract
from .errors import IllegalAction
from .rules import Rules
from .seats import SEATS, TEAMS, Seat, Team, next_seat, other_team, team_of
from .tiles import TOTAL_HAND_POINTS, Tile, count_value
from .trumps import FACTS, TRUMP_SUIT, Trump, suit_name, trick_winner_index

__all__ = ["Trick", "HandResult", "PlayState", "Outcome"]

TRICKS_PER_HAND: Final = 7


class Outcome(enum.StrEnum):
    """How a contract ended (R22, R23)."""

    MADE = "made"
    SET = "set"


@dataclass(slots=True)
class Trick:
    """One trick in play order; ``winner`` is set once it is complete."""

    number: int
    leader: Seat
    plays: list[tuple[Seat, Tile]] = field(default_factory=list)
    winner: Seat | None = None
    points: int = 0


@dataclass(frozen=True, slots=True)
class HandResult:
    """The decided result of a hand (R22, R23)."""

    outcome: Outcome
    points: dict[Team, int]
    marks: dict[Team, int]
    tricks_played: int


class PlayState:
    """The play of one hand after the declaration."""

    __slots__ = (
        "rules",
        "contract",
        "trump",
        "known",
        "unknown",
        "played",
        "tricks",
        "points",
        "tricks_won",
        "result",
        "_table",
        "_bidders",
    )

    def __init__(
        self,
        rules: Rules,
        contract: Contract,
        trump: Trump,
        known: dict[Seat, set[Tile]],
        unknown: dict[Seat, int] | None = None,
    ) -> None:
        self.rules = rules
        self.contract = contract
        self.trump = trump
        self.known = {s: set(known.get(s, ())) for s in SEATS}
        self.unknown = {s: (unknown or {}).get(s, 0) for s in SEATS}
        #: tile → (trick number, seat) for tiles already played.
        self.played: dict[Tile, tuple[int, Seat]] = {}
        # R10, R20: the bidder leads the first trick, with any tile.
        self.tricks: list[Trick] = [Trick(1, contract.bidder)]
        self.points: dict[Team, int] = {t: 0 for t in TEAMS}
        self.tricks_won: dict[Team, int] = {t: 0 for t in TEAMS}
        self.result: HandResult | None = None
        self._table = FACTS[trump]
        self._bidders: Team = team_of(contract.bidder)

    # -- state ---------------------------------------------------------------

    @property
    def current(self) -> Trick:
        return self.tricks[-1]

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def to_play(self) -> Seat | None:
        """R21: clockwise from the trick's leader; None once the hand is over."""
        if self.result is not None:
            return None
        trick = self.current
        return next_seat(trick.leader, len(trick.plays))

    def held(self, seat: Seat) -> set[Tile]:
        """Tiles known to be in ``seat``'s hand now."""
        return self.known[seat]

    def followers(self, seat: Seat) -> list[Tile]:
        """Known tiles of ``seat`` that would follow the current led suit (R15), sorted."""
        trick = self.current
        if not trick.plays:
            return []
        suit = self._table[trick.plays[0][1]].leads
        return sorted(t for t in self.known[seat] if suit in self._table[t].follows)

    def legal_tiles(self, seat: Seat) -> list[Tile]:
        """R16: the known tiles ``seat`` may play now — followers if any, else any tile."""
        return self.followers(seat) or sorted(self.known[seat])

    def context(self, seat: Seat | None = None, t: Tile | None = None) -> dict[str, Any]:
        """The game state for a diagnostic."""
        trick = self.current
        ctx: dict[str, Any] = {"trick": trick.number}
        if trick.plays:
            lead = trick.plays[0][1]
            ctx["led_suit"] = suit_name(self._table[lead].leads)
            ctx["led_by"] = f"{trick.plays[0][0]} {lead}"
        if t is not None:
            ctx["tile"] = str(t)
        if seat is not None:
            ctx["seat"] = seat
        return ctx

    # -- checked and unchecked play ------------------------------------------

    def check(self, seat: Seat, t: Tile) -> None:
        """Raise :class:`IllegalAction` if ``seat`` may not play ``t`` now; change nothing."""
        if self.result is not None:
            r = self.result
            raise IllegalAction(
                "R22",
                f"{seat} plays {t} after the hand was decided: the contract was "
                f"{r.outcome.value} after trick {r.tricks_played} (R22)",
                self.context(seat, t) | {"decided_after_trick": r.tricks_played},
            )
        expected = self.to_play
        trick = self.current
        if seat != expected:
            if trick.number == 1 and not trick.plays:
                raise IllegalAction(
                    "R10",
                    f"{seat} leads trick 1, but the bidder {self.contract.bidder} leads it (R10)",
                    self.context(seat, t) | {"expected_seat": expected},
                )
            if not trick.plays:
                why = f"{trick.leader} won trick {trick.number - 1} and leads trick {trick.number}"
            else:
                why = f"play goes clockwise from the leader {trick.leader}"
            raise IllegalAction(
                "R21",
                f"{seat} plays out of turn; it is {expected}'s turn: {why} (R21)",
                self.context(seat, t) | {"expected_seat": expected},
            )
        if t not in self.known[seat]:
            if t in self.played:
                n, who = self.played[t]
                raise IllegalAction(
                    "R3",
                    f"{seat} plays {t}, which {who} already played in trick {n}; each tile "
                    "is played once, from the hand it was dealt to (R3)",
                    self.context(seat, t),
                )
            for other in SEATS:
                if other != seat and t in self.known[other]:
                    raise IllegalAction(
                        "R3",
                        f"{seat} plays {t}, which was dealt to {other} (R3)",
                        self.context(seat, t),
                    )
            if self.unknown[seat] == 0:
                raise IllegalAction(
                    "R3",
                    f"{seat} plays {t}, which is not in {seat}'s hand (R3)",
                    self.context(seat, t) | {"hand_tiles": [str(x) for x in sorted(self.known[seat])]},
                )
        if trick.plays:
            self._check_follow(seat, t, trick)

    def _check_follow(self, seat: Seat, t: Tile, trick: Trick) -> None:
        table = self._table
        lead = trick.plays[0][1]
        suit = table[lead].leads
        facts = table[t]
        if suit in facts.follows:
            return
        could = self.followers(seat)
        if not could:
            return  # R16: no obligation to trump, any tile may be played.
        ctx = self.context(seat, t) | {"could_follow": [str(x) for x in could]}
        held = ", ".join(str(x) for x in could)
        name = suit_name(suit)
        # Name the most specific rule the player misread (R13–R15); the duty is R16.
        if suit == TRUMP_SUIT:
            rule, why = "R15", "trumps were led and only trumps follow"
        elif facts.trump and t.shows(suit):
            rule, why = "R13", f"{t} is a trump and belongs to the trump suit only, not to {name}"
        elif not lead.is_double and not table[lead].trump and t.shows(lead.low) and lead.low != suit:
            rule, why = "R14", f"{lead} leads {name}, its higher number, not {suit_name(lead.low)}"
        else:
            rule, why = "R16", f"{t} does not follow {name}"
        raise IllegalAction(
            rule,
            f"{seat} reneges with {t} in trick {trick.number}: {name} were led "
            f"({trick.plays[0][0]} {lead}) and {seat} held {held}; {why} "
            f"({rule + ', R16' if rule != 'R16' else 'R16'})",
            ctx,
        )

    def play(self, seat: Seat, t: Tile) -> Trick | None:
        """Checked: validate, then apply. Returns the trick if this play completed it."""
        self.check(seat, t)
        return self.apply(seat, t)

    def apply(self, seat: Seat, t: Tile) -> Trick | None:
        """Unchecked: apply a play known to be legal. Returns the trick if it completed."""
        if t in self.known[seat]:
            self.known[seat].discard(t)
        else:
            self.unknown[seat] -= 1
        trick = self.current
        self.played[t] = (trick.number, seat)
        trick.plays.append((seat, t))
        if len(trick.plays) < 4:
            return None
        return self._complete(trick)

    def _complete(self, trick: Trick) -> Trick:
        tiles = [t for _, t in trick.plays]
        winner = trick.plays[trick_winner_index(tiles, self.trump)][0]
        trick.winner = winner
        # R6: one point for the trick plus the count of its tiles.
        trick.points = 1 + sum(count_value(t) for t in tiles)
        team = team_of(winner)
        self.points[team] += trick.points
        self.tricks_won[team] += 1
        self.result = self._decided(trick.number)
        if self.result is None and trick.number < TRICKS_PER_HAND:
            self.tricks.append(Trick(trick.number + 1, winner))
        return trick

    def _decided(self, tricks_played: int) -> HandResult | None:
        """R22: is the contract proved made or no longer makeable?"""
        bidders = self._bidders
        defenders = other_team(bidders)
        c = self.contract
        if c.all_tricks:
            if self.tricks_won[defenders] > 0:
                outcome = Outcome.SET
            elif self.tricks_won[bidders] == TRICKS_PER_HAND:
                outcome = Outcome.MADE
            else:
                return None
        elif self.points[bidders] >= c.bid:
            outcome = Outcome.MADE
        elif self.points[defenders] > TOTAL_HAND_POINTS - c.bid:
            outcome = Outcome.SET
        else:
            return None
        # R23: the marks go to the bidders only if made, to the defenders only if set.
        gainer = bidders if outcome is Outcome.MADE else defenders
        marks: dict[Team, int] = {t: 0 for t in TEAMS}
        marks[gainer] = c.marks
        return HandResult(outcome, dict(self.points), marks, tricks_played)
