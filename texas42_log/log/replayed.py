"""The facts of a match, hand by hand, as the engine derives them — the one replay
every reader of a finished log shares: the writers that must state what a log
leaves implicit (trick winners, points, marks, the running score: the foreign
exporters and the table export) and the views (each seat's holdings, the score
before a hand, the state after each play).

A deal may be partly known: a seat holds the tiles dealt to it that the log names
and the tiles it plays (proof of holding), and the rest are unknown.

Pure; raises ``ValueError`` naming the hand when a hand is not legal (callers
validate first; the views are given a broken log cut where it breaks:
:func:`texas42_log.log.broken.viewable`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

from ..engine.auction import Auction, BidKind, Contract
from ..engine.errors import IllegalAction
from ..engine.hand import HandResult, PlayState, Trick
from ..engine.rules import Rules
from ..engine.seats import SEATS, TEAMS, Seat, Team
from ..engine.tiles import TILE_BY_NAME, Tile
from ..engine.trumps import Trump
from .check import call_args, effective_rules
from .model import Hand, Match

__all__ = ["HandFacts", "replay_match"]

#: An accepted call: seat, kind, bid (in marks for a mark bid), special.
Call = tuple[Seat, BidKind, int | None, str | None]
#: An accepted play: seat, tile, its index in the hand's ``plays``.
Played = tuple[Seat, Tile, int]


@dataclass(slots=True)
class HandFacts:
    """One hand as played: the accepted calls, the contract, trumps, holdings, plays,
    tricks, result, and the match score before and after it."""

    index: int
    dealer: Seat
    calls: list[Call] = field(default_factory=list)
    #: Each accepted call's index in the hand's ``auction``.
    call_at: list[int] = field(default_factory=list)
    #: Who calls next after each accepted call (None once the auction is over).
    to_call_after: list[Seat | None] = field(default_factory=list)
    #: Who calls next after the recorded calls.
    to_call: Seat | None = None
    #: Whether the auction is over (four calls, or a plunge's end).
    auction_done: bool = False
    contract: Contract | None = None
    trump: Trump | None = None
    #: The declaration's Nel-O doubles and stacks left face up (R27), as written.
    doubles: Literal["high", "low", "own-suit"] | None = None
    stacks: int | None = None
    #: The tiles each seat is known to hold at the start of the hand: those dealt to it
    #: that the log names, and those it plays.
    holdings: dict[Seat, frozenset[Tile]] = field(default_factory=dict)
    #: How many of each seat's seven tiles are unknown.
    unknown: dict[Seat, int] = field(default_factory=dict)
    plays: list[Played] = field(default_factory=list)
    #: Each accepted play's declared suit (None: the one its tile leads).
    led: list[int | None] = field(default_factory=list)
    tricks: list[Trick] = field(default_factory=list)
    result: HandResult | None = None
    #: The match score before and after this hand (marks, or points under match_goal
    #: points).
    score_before: dict[Team, int] = field(default_factory=dict)
    score: dict[Team, int] = field(default_factory=dict)
    finished: bool = False

    def start(self, rules: Rules) -> PlayState:
        """The play state just after the declaration (no tile played); ValueError when
        the hand has no declaration."""
        if self.contract is None or self.trump is None:
            raise ValueError(f"hand {self.index + 1} has no trump declaration")
        known = {s: set(self.holdings[s]) for s in SEATS}
        return PlayState(
            rules, self.contract, self.trump, known, dict(self.unknown), nello_doubles=self.doubles
        )

    def states(self, rules: Rules, upto: int | None = None) -> Iterator[PlayState]:
        """The play state after 0, 1, … ``upto`` (default: every) accepted plays: one
        object advanced in place, so read it before asking for the next."""
        state = self.start(rules)
        last = len(self.plays) if upto is None else min(upto, len(self.plays))
        yield state
        for k in range(last):
            seat, t, _ = self.plays[k]
            try:
                state.play(seat, t, self.led[k])
            except IllegalAction as e:
                raise ValueError(f"hand {self.index + 1} is not legal: {e.message}") from None
            yield state


def replay_match(match: Match, hands: int | None = None) -> tuple[Rules, list[HandFacts]]:
    """The effective rules and the facts of the first ``hands`` hands (default: all)."""
    rules = effective_rules(match)
    score: dict[Team, int] = {t: 0 for t in TEAMS}
    out: list[HandFacts] = []
    for i, hand in enumerate(match.hands[:hands]):
        facts = _replay_hand(rules, i, hand, score)
        score = dict(facts.score)
        out.append(facts)
    return rules, out


def _replay_hand(rules: Rules, i: int, hand: Hand, score_before: dict[Team, int]) -> HandFacts:
    facts = HandFacts(i, hand.dealer, score_before=dict(score_before))
    known: dict[Seat, set[Tile]] = {s: set() for s in SEATS}
    if hand.deal is not None:
        for s in SEATS:
            known[s].update(TILE_BY_NAME[x] for x in getattr(hand.deal, s) if x is not None)
    for j, p in enumerate(hand.plays):
        if not p.rejected:
            t = TILE_BY_NAME[p.tile]
            known[p.seat].add(t)
            facts.plays.append((p.seat, t, j))
            facts.led.append(p.led)
    facts.holdings = {s: frozenset(known[s]) for s in SEATS}
    facts.unknown = {s: 7 - len(known[s]) for s in SEATS}
    try:
        auction = Auction(rules, hand.dealer)
        for j, call in enumerate(hand.auction):
            if call.rejected:
                continue
            kind, bid, special = call_args(rules, call)
            auction.call(call.seat, kind, bid, special)
            facts.calls.append((call.seat, kind, bid, special))
            facts.call_at.append(j)
            facts.to_call_after.append(auction.to_call)
        facts.to_call, facts.auction_done = auction.to_call, auction.done
        contract = auction.contract() if auction.done else None
        facts.contract = contract
        decl = hand.declaration
        if contract is not None and decl is not None:
            if decl.contract is not None:
                facts.contract = contract.declare(decl.contract)
                facts.trump = Trump.NO_TRUMP
            else:
                assert decl.trump is not None
                facts.trump = Trump(decl.trump)
            facts.doubles, facts.stacks = decl.doubles, decl.stacks
            state = facts.start(rules)
            failed = state.play_many(
                [(s, t, led) for (s, t, _), led in zip(facts.plays, facts.led, strict=True)]
            )
            if failed is not None:
                raise failed[1]
            facts.tricks = [t for t in state.tricks if t.plays]
            facts.result = state.result
            facts.finished = state.finished
        elif contract is None and auction.done:
            facts.finished = True
    except IllegalAction as e:
        raise ValueError(f"hand {i + 1} is not legal: {e.message}") from None
    score = dict(score_before)
    if facts.result is not None:
        gained = facts.result.points if rules.match_goal == "points" else facts.result.marks
        for team in TEAMS:
            score[team] += gained[team]
    facts.score = score
    return facts
