"""Playing out one hand: tricks, following, the early end and its marks (R13–R23).

Rule variants enter through :class:`~texas42_log.engine.rules.Rules` and the contract:
Nel-O (the partner sits out, tricks of 3, the bidder must win none), Plunge and
Splash (the partner declares and leads), Sevens (closest to 7 wins), doubles
placed high, low or in a suit of their own, declared leads, and play to all
7 tricks (the marks are still those of the decision).

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
from functools import cache
from typing import Any, Final

from .auction import Contract
from .count import TRICKS, Count
from .errors import IllegalAction
from .rules import NelloDoubles, Rules
from .seats import SEATS, TEAMS, Seat, Team, other_team, partner, team_of
from .tiles import Tile
from .tricks import TrickRules
from .trumps import TRUMP_SUIT, DoublesMode, TileFacts, Trump, sevens_winner_index, suit_name

__all__ = ["Trick", "HandResult", "PlayState", "Outcome", "closest_to_seven"]

TRICKS_PER_HAND: Final = TRICKS  # the count's (engine/count.py), written once


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
    #: The suit led (R14), or the one the leader declared (option declared_lead).
    led: int | None = None


@dataclass(frozen=True, slots=True)
class HandResult:
    """The decided result of a hand (R22, R23)."""

    outcome: Outcome
    points: dict[Team, int]
    marks: dict[Team, int]
    tricks_played: int


def closest_to_seven(tiles: set[Tile] | frozenset[Tile]) -> list[Tile]:
    """The tiles whose pip total is nearest 7 (Sevens), sorted; empty for no tiles."""
    if not tiles:
        return []
    best = min(abs(t.pips - 7) for t in tiles)
    return sorted(t for t in tiles if abs(t.pips - 7) == best)


@cache
def _rotations(seats: tuple[Seat, ...]) -> dict[Seat, tuple[Seat, ...]]:
    """The playing order from each leader (R21)."""
    n = len(seats)
    return {lead: tuple(seats[(i + k) % n] for k in range(n)) for i, lead in enumerate(seats)}


class PlayState:
    """The play of one hand after the declaration."""

    __slots__ = (
        "rules",
        "count",
        "trick_rules",
        "contract",
        "trump",
        "known",
        "unknown",
        "played",
        "tricks",
        "points",
        "tricks_won",
        "result",
        "finished",
        "seats",
        "doubles",
        "_table",
        "_bidders",
        "_rotation",
        "_win_keys",
        "_closest",
    )

    def __init__(
        self,
        rules: Rules,
        contract: Contract,
        trump: Trump,
        known: dict[Seat, set[Tile]],
        unknown: dict[Seat, int] | None = None,
        *,
        nello_doubles: NelloDoubles | None = None,
        count: Count | None = None,
        trick_rules: TrickRules | None = None,
    ) -> None:
        """``trump`` is ignored for Nel-O and Sevens (no trumps); ``nello_doubles`` is the
        declaration's choice when the rules let the bidder choose; ``count`` what tiles
        and tricks are worth (R6) and ``trick_rules`` who follows and wins (R13–R19): the
        rules' own phases when not given."""
        self.rules = rules
        #: What each trick and tile is worth (R6): the engine scores by it, the solvers
        #: value by it (:mod:`.count`).
        self.count: Count = rules.count if count is None else count
        #: Following and winning a trick (:mod:`.tricks`).
        self.trick_rules: TrickRules = rules.trick_rules if trick_rules is None else trick_rules
        self.contract = contract
        special = contract.special
        if special in ("nello", "sevens"):
            trump = Trump.NO_TRUMP
        self.trump = trump
        self.known = {s: set(known.get(s, ())) for s in SEATS}
        self.unknown = {s: (unknown or {}).get(s, 0) for s in SEATS}
        #: tile → (trick number, seat) for tiles already played.
        self.played: dict[Tile, tuple[int, Seat]] = {}
        #: The seats that play, clockwise: Nel-O's bidder's partner sits out.
        self.seats: tuple[Seat, ...] = (
            tuple(s for s in SEATS if s != partner(contract.bidder))
            if special == "nello"
            else SEATS
        )
        mode: DoublesMode
        if special == "nello":
            choice = nello_doubles or rules.nello_doubles
            if choice == "bidder-chooses" or choice == "own-suit-or-low":
                mode = "own-suit"
            else:
                mode = choice
        elif rules.doubles == "own-suit":
            mode = "own-suit"
        elif trump is Trump.NO_TRUMP:
            mode = rules.no_trump_doubles
        else:
            mode = "high"
        self.doubles: DoublesMode = mode
        # R10, R20: the declarer (the bidder; its partner after a Plunge or Splash)
        # leads the first trick, with any tile.
        self.tricks: list[Trick] = [Trick(1, contract.declarer)]
        self.points: dict[Team, int] = {t: 0 for t in TEAMS}
        self.tricks_won: dict[Team, int] = {t: 0 for t in TEAMS}
        #: The decision (R22), once the won tiles prove it.
        self.result: HandResult | None = None
        #: No more plays: decided (R22), or all 7 tricks played (option hand_end).
        self.finished = False
        # Following and winning (R13–R19) as the rules' trick phase says (:mod:`.tricks`).
        self._table = self.trick_rules.table(trump, mode)
        self._bidders: Team = team_of(contract.bidder)
        # The playing order from each leader (R21), looked up instead of counted.
        self._rotation = _rotations(self.seats)
        self._win_keys = self.trick_rules.win_keys(trump, mode)
        #: Sevens with sevens_play "closest": every play, leads included, is a tile of the
        #: hand as close to 7 as any other.
        self._closest = special == "sevens" and rules.sevens_play == "closest"

    def copy(self) -> PlayState:
        """An independent copy, to try plays on (analysis, tests) without changing this one."""
        nello = self.doubles if self.contract.special == "nello" else None
        other = PlayState(
            self.rules,
            self.contract,
            self.trump,
            self.known,
            self.unknown,
            nello_doubles=nello,
            count=self.count,
            trick_rules=self.trick_rules,
        )
        other.played = dict(self.played)
        other.tricks = [
            Trick(t.number, t.leader, list(t.plays), t.winner, t.points, t.led) for t in self.tricks
        ]
        other.points = dict(self.points)
        other.tricks_won = dict(self.tricks_won)
        other.result = self.result
        other.finished = self.finished
        return other

    # -- state ---------------------------------------------------------------

    @property
    def table(self) -> dict[Tile, TileFacts]:
        """Every tile's facts under this hand's suit system (the rules' trick phase):
        what the solvers, bots and views read instead of :mod:`.trumps`."""
        return self._table

    @property
    def win_keys(self) -> dict[int, dict[Tile, int]]:
        """Per led suit, the order that decides a trick (R17; the rules' trick phase)."""
        return self._win_keys

    def winner_index(self, tiles: list[Tile], led: int) -> int:
        """The position in ``tiles`` (play order, leader first) of the tile that wins a
        trick led in ``led``: the highest of the rules' win keys for that suit (R17; a
        tile absent cannot win), or in Sevens the closest to 7 (seed 004)."""
        if self.contract.special == "sevens":
            return sevens_winner_index(tiles)
        keys = self._win_keys[led]
        best, best_key = 0, keys.get(tiles[0], -1)
        for i in range(1, len(tiles)):
            k = keys.get(tiles[i], -1)
            if k > best_key:
                best, best_key = i, k
        return best

    @property
    def current(self) -> Trick:
        return self.tricks[-1]

    @property
    def over(self) -> bool:
        """No more plays (the decision, or the 7th trick when all tricks are played)."""
        return self.finished

    @property
    def trick_size(self) -> int:
        return len(self.seats)

    @property
    def to_play(self) -> Seat | None:
        """R21: clockwise from the trick's leader (skipping a seat that sits out); None once
        over."""
        if self.finished:
            return None
        trick = self.tricks[-1]
        return self._rotation[trick.leader][len(trick.plays)]

    def held(self, seat: Seat) -> set[Tile]:
        """Tiles known to be in ``seat``'s hand now."""
        return self.known[seat]

    def followers(self, seat: Seat) -> list[Tile]:
        """Known tiles of ``seat`` that would follow the current led suit (R15), sorted."""
        if self._closest:
            return closest_to_seven(self.known[seat])
        trick = self.current
        if not trick.plays:
            return []
        suit = trick.led
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
            assert trick.led is not None
            ctx["led_suit"] = suit_name(trick.led)
            ctx["led_by"] = f"{trick.plays[0][0]} {lead}"
        if t is not None:
            ctx["tile"] = str(t)
        if seat is not None:
            ctx["seat"] = seat
        return ctx

    # -- checked and unchecked play ------------------------------------------

    def check(self, seat: Seat, t: Tile, led: int | None = None) -> None:
        """Raise :class:`IllegalAction` if ``seat`` may not play ``t`` now; change nothing.

        ``led``: the suit a leader declares (option declared_lead)."""
        if self.finished:
            r = self.result
            assert r is not None
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
                who = (
                    "the bidder"
                    if self.contract.declarer == self.contract.bidder
                    else "the bidder's partner"
                )
                raise IllegalAction(
                    "R10",
                    f"{seat} leads trick 1, but {who} {self.contract.declarer} leads it (R10)",
                    self.context(seat, t) | {"expected_seat": expected},
                )
            if seat not in self.seats:
                raise IllegalAction(
                    "variant:nello",
                    f"{seat} plays, but in Nel-O the bidder's partner {seat} sits out; it is "
                    f"{expected}'s turn",
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
                    self.context(seat, t)
                    | {"hand_tiles": [str(x) for x in sorted(self.known[seat])]},
                )
        if self._closest:
            self._check_closest(seat, t, trick)
        if trick.plays:
            if led is not None:
                raise IllegalAction(
                    "variant:declared_lead",
                    f"{seat} declares a led suit but does not lead; only the leader declares one",
                    self.context(seat, t),
                )
            if not self._closest:
                self._check_follow(seat, t, trick)
        elif led is not None:
            self._check_declared_lead(seat, t, led, trick)

    def _check_declared_lead(self, seat: Seat, t: Tile, led: int, trick: Trick) -> None:
        """docs/conversions.md tricksy: a leader may say a non-double, non-trump tile leads its
        lower number."""
        allowed = self.rules.declared_lead
        if allowed == "never" or (allowed == "first-trick" and trick.number != 1):
            raise IllegalAction(
                "variant:declared_lead",
                f"{seat} declares that {t} leads {suit_name(led)}, but these rules allow no "
                f"declared lead{' after trick 1' if allowed == 'first-trick' else ''} "
                f"— declared_lead is {allowed}, and by R14 a lead leads its higher number",
                self.context(seat, t),
            )
        facts = self._table[t]
        if t.is_double or facts.trump or not t.shows(led):
            raise IllegalAction(
                "variant:declared_lead",
                f"{seat} declares that {t} leads {suit_name(led)}; only a non-double, non-trump "
                "tile may be declared, to lead one of its own numbers",
                self.context(seat, t),
            )

    def _check_closest(self, seat: Seat, t: Tile, trick: Trick) -> None:
        """Option sevens_play "closest": a tile known to be held nearer to 7 must be played
        first."""
        best = closest_to_seven(self.known[seat])
        if not best or abs(t.pips - 7) <= abs(best[0].pips - 7):
            return
        held = ", ".join(str(x) for x in best)
        raise IllegalAction(
            "variant:sevens",
            f"{seat} plays {t} ({t.pips} pips, {abs(t.pips - 7)} from 7) in trick {trick.number}, "
            "but held "
            f"{held}, closer to 7; in Sevens every player plays a tile as close to 7 as any in "
            "their "
            "hand (sevens_play is closest)",
            self.context(seat, t) | {"closer": [str(x) for x in best]},
        )

    def _check_follow(self, seat: Seat, t: Tile, trick: Trick) -> None:
        table = self._table
        lead = trick.plays[0][1]
        suit = trick.led
        assert suit is not None
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
        elif (
            suit == lead.high
            and not lead.is_double
            and not table[lead].trump
            and t.shows(lead.low)
            and lead.low != suit
        ):
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

    def play_many(
        self, plays: list[tuple[Seat, Tile, int | None]]
    ) -> tuple[int, IllegalAction] | None:
        """Checked, for a whole recorded hand: play each (seat, tile, led) in turn.

        Returns None if every play was legal, else the index of the first illegal
        one and its :class:`IllegalAction` (that play and the rest are not applied).
        The same checks as :meth:`play`, inlined for the common case: a legal play
        costs a few lookups; any doubt falls back to :meth:`check`, which also
        words the diagnostic.
        """
        known, unknown, played, table = self.known, self.unknown, self.played, self._table
        rotation, tricks = self._rotation, self.tricks
        size = len(self.seats)
        for index, (seat, t, led) in enumerate(plays):
            trick = tricks[-1]
            tplays = trick.plays
            n = len(tplays)
            hand = known[seat]
            ok = (
                led is None
                and not self.finished
                and rotation[trick.leader][n] == seat
                and t in hand
            )
            if ok and self._closest:
                d = abs(t.pips - 7)
                for x in hand:
                    if abs(x.pips - 7) < d:
                        ok = False
                        break
            elif ok and n:
                suit = trick.led
                if suit not in table[t].follows:
                    # R16: a discard is legal only when no known tile would follow.
                    for x in hand:
                        if suit in table[x].follows:
                            ok = False
                            break
            if ok:
                hand.remove(t)
            else:
                try:
                    self.check(seat, t, led)
                except IllegalAction as e:
                    return index, e
                # Legal after all (a declared lead, or a tile of an unknown part of the hand).
                if t in hand:
                    hand.remove(t)
                else:
                    unknown[seat] -= 1
            played[t] = (trick.number, seat)
            if not n:
                trick.led = led if led is not None else table[t].leads
            tplays.append((seat, t))
            if n + 1 == size:
                self._complete(trick)
        return None

    def play(self, seat: Seat, t: Tile, led: int | None = None) -> Trick | None:
        """Checked: validate, then apply. Returns the trick if this play completed it."""
        self.check(seat, t, led)
        return self.apply(seat, t, led)

    def apply(self, seat: Seat, t: Tile, led: int | None = None) -> Trick | None:
        """Unchecked: apply a play known to be legal. Returns the trick if it completed."""
        if t in self.known[seat]:
            self.known[seat].discard(t)
        else:
            self.unknown[seat] -= 1
        trick = self.current
        self.played[t] = (trick.number, seat)
        if not trick.plays:
            trick.led = led if led is not None else self._table[t].leads
        trick.plays.append((seat, t))
        if len(trick.plays) < len(self.seats):
            return None
        return self._complete(trick)

    def _complete(self, trick: Trick) -> Trick:
        plays = trick.plays
        assert trick.led is not None
        winner = plays[self.winner_index([t for _, t in plays], trick.led)][0]
        trick.winner = winner
        # R6: the trick's points (one by the seed rules) plus the count of its tiles.
        tiles = self.count.tiles
        points = self.count.of_trick(trick.number)
        for _, t in plays:
            points += tiles[t.index]
        trick.points = points
        team = team_of(winner)
        self.points[team] += trick.points
        self.tricks_won[team] += 1
        if self.result is None:
            self.result = self._decided(trick.number)
        last = trick.number == TRICKS_PER_HAND
        if self.result is not None and (last or self.rules.hand_end == "when-decided"):
            self.finished = True
            if self.result.tricks_played != trick.number:
                # Played on to the 7th trick: the hand points are the final split.
                r = self.result
                self.result = HandResult(r.outcome, dict(self.points), r.marks, trick.number)
        elif not last:
            self.tricks.append(Trick(trick.number + 1, winner))
        return trick

    def _decided(self, tricks_played: int) -> HandResult | None:
        """R22: is the contract proved made or no longer makeable?"""
        bidders = self._bidders
        defenders = other_team(bidders)
        c = self.contract
        if c.special == "nello":
            # Nel-O (seed 004): the bidder must win no trick.
            if self.tricks_won[bidders] > 0:
                outcome = Outcome.SET
            elif tricks_played == TRICKS_PER_HAND:
                outcome = Outcome.MADE
            else:
                return None
        elif c.all_tricks:
            if self.tricks_won[defenders] > 0:
                outcome = Outcome.SET
            elif self.tricks_won[bidders] == TRICKS_PER_HAND:
                outcome = Outcome.MADE
            else:
                return None
        elif self.points[bidders] >= c.bid:
            outcome = Outcome.MADE
        elif self.points[defenders] > self.count.total - c.bid:
            outcome = Outcome.SET
        else:
            return None
        # R23: the marks go to the bidders only if made, to the defenders only if set.
        gainer = bidders if outcome is Outcome.MADE else defenders
        marks: dict[Team, int] = {t: 0 for t in TEAMS}
        marks[gainer] = c.marks
        return HandResult(outcome, dict(self.points), marks, tricks_played)
