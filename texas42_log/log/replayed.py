"""The facts of a valid match, hand by hand, as the engine derives them — for
writers that must state what a log leaves implicit (trick winners, points,
marks, the running score): the foreign exporters and the table export.

Pure; raises ``ValueError`` naming the hand when a hand is not legal (callers
validate first).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine.auction import Auction, BidKind, Contract
from ..engine.errors import IllegalAction
from ..engine.hand import HandResult, PlayState, Trick
from ..engine.rules import Rules
from ..engine.seats import SEATS, TEAMS, Seat, Team
from ..engine.tiles import TILE_BY_NAME, Tile
from ..engine.trumps import Trump
from .check import call_args, effective_rules
from .model import Match

__all__ = ["HandFacts", "replay_match"]


@dataclass(slots=True)
class HandFacts:
    """One hand as played: the accepted calls, the contract, trumps, tricks, result, score."""

    index: int
    dealer: Seat
    calls: list[tuple[Seat, BidKind, int | None, str | None]] = field(default_factory=list)
    contract: Contract | None = None
    trump: Trump | None = None
    tricks: list[Trick] = field(default_factory=list)
    result: HandResult | None = None
    #: The match score after this hand (marks, or points under match_goal points).
    score: dict[Team, int] = field(default_factory=dict)
    finished: bool = False


def replay_match(match: Match) -> tuple[Rules, list[HandFacts]]:
    """The effective rules and each hand's facts."""
    rules = effective_rules(match)
    score: dict[Team, int] = {t: 0 for t in TEAMS}
    out: list[HandFacts] = []
    for i, hand in enumerate(match.hands):
        facts = HandFacts(i, hand.dealer)
        known: dict[Seat, set[Tile]] = {s: set() for s in SEATS}
        if hand.deal is not None:
            for s in SEATS:
                known[s].update(TILE_BY_NAME[x] for x in getattr(hand.deal, s) if x is not None)
        plays = [p for p in hand.plays if not p.rejected]
        for p in plays:
            known[p.seat].add(TILE_BY_NAME[p.tile])
        unknown = {s: 7 - len(known[s]) for s in SEATS}
        try:
            auction = Auction(rules, hand.dealer)
            for call in hand.auction:
                if call.rejected:
                    continue
                kind, bid, special = call_args(rules, call)
                auction.call(call.seat, kind, bid, special)
                facts.calls.append((call.seat, kind, bid, special))
            contract = auction.contract() if auction.done else None
            decl = hand.declaration
            if contract is not None and decl is not None:
                if decl.contract is not None:
                    contract = contract.declare(decl.contract)
                    trump = Trump.NO_TRUMP
                else:
                    assert decl.trump is not None
                    trump = Trump(decl.trump)
                facts.contract, facts.trump = contract, trump
                state = PlayState(
                    rules, contract, trump, known, unknown, nello_doubles=decl.doubles
                )
                failed = state.play_many([(p.seat, TILE_BY_NAME[p.tile], p.led) for p in plays])
                if failed is not None:
                    raise failed[1]
                facts.tricks = [t for t in state.tricks if t.plays]
                facts.result = state.result
                facts.finished = state.finished
            elif contract is None and auction.done:
                facts.finished = True
        except IllegalAction as e:
            raise ValueError(f"hand {i + 1} is not legal: {e.message}") from None
        if facts.result is not None:
            gained = facts.result.points if rules.match_goal == "points" else facts.result.marks
            for t in TEAMS:
                score[t] += gained[t]
        facts.score = dict(score)
        out.append(facts)
    return rules, out
