"""Random legal matches, reproducible from a seed: for tests, demos and benchmarks.

Builds format-v1 documents (plain dicts) by playing the engine's unchecked
path with random legal choices. Every choice goes through a :class:`Policy`
whose methods can be overridden, so that tests and fixtures can force a deal,
an auction, a trump or a line of play and let chance fill in the rest.
"""

from __future__ import annotations

import random
from typing import Any

from .auction import Auction, BidKind, Contract
from .hand import PlayState
from .model import FORMAT_NAME, FORMAT_VERSION
from .rules import STANDARD, Rules
from .seats import SEATS, TEAMS, Seat, Team, next_seat
from .tiles import TILES, Tile
from .trumps import Trump

__all__ = ["Policy", "random_match", "deal_order"]


def deal_order(dealer: Seat) -> list[Seat]:
    """R3: one tile at a time clockwise, starting left of the dealer: 28 seats in order."""
    return [next_seat(dealer, 1 + k % 4) for k in range(28)]


class Policy:
    """The random choices of a generated match. Override a method to force one."""

    def __init__(self, rng: random.Random, rules: Rules) -> None:
        self.rng = rng
        self.rules = rules

    def deal(self, hand_index: int, dealer: Seat) -> dict[Seat, list[Tile]]:
        tiles = list(TILES)
        self.rng.shuffle(tiles)
        hands: dict[Seat, list[Tile]] = {s: [] for s in SEATS}
        for seat, t in zip(deal_order(dealer), tiles, strict=True):
            hands[seat].append(t)
        return hands

    def call(self, hand_index: int, auction: Auction, seat: Seat) -> tuple[BidKind, int | None]:
        """A legal call: mostly passes and modest raises, now and then a mark bid."""
        # The weights are part of what a seed means: changing them changes every
        # generated match, the committed fixtures included.
        rng, r = self.rng, self.rules
        marks = [c[2] for c in auction.calls if c[1] is BidKind.MARKS]
        points = [c[2] for c in auction.calls if c[1] is BidKind.POINTS]
        options: list[tuple[BidKind, int | None]] = [(BidKind.PASS, None)]
        weights = [6 if marks else 5]
        if marks:
            last = marks[-1]
            assert last is not None
            options.append((BidKind.MARKS, last + r.mark_bid_raise))  # R9: exactly one more
            weights.append(1)
        else:
            low = points[-1] + 1 if points and points[-1] is not None else r.min_point_bid
            if low <= r.max_point_bid:  # R8: above the current point bid
                options.append((BidKind.POINTS, rng.randint(low, min(low + 4, r.max_point_bid))))
                weights.append(4)
            options.append((BidKind.MARKS, rng.randint(1, r.max_opening_mark_bid)))
            weights.append(1 if len(options) == 3 else 4)
        return rng.choices(options, weights=weights)[0]

    def trump(self, hand_index: int, contract: Contract, hand: list[Tile]) -> Trump:
        return self.rng.choice(list(Trump))

    def stacks(self, hand_index: int, contract: Contract) -> int:
        return self.rng.choice((1, 2))

    def play(self, hand_index: int, state: PlayState, seat: Seat, legal: list[Tile]) -> Tile:
        return self.rng.choice(legal)


def random_match(
    seed: int | None = None,
    *,
    rules: Rules = STANDARD,
    preset: str = "standard",
    first_dealer: Seat | None = None,
    policy: Policy | None = None,
    max_hands: int | None = None,
    players: dict[str, str] | None = None,
    stated_outcomes: bool = True,
) -> dict[str, Any]:
    """A random legal match as a format-v1 document.

    ``max_hands`` stops early (the document is then ``"status": "unfinished"``).
    """
    rng = random.Random(seed)
    policy = policy or Policy(rng, rules)
    dealer: Seat = first_dealer if first_dealer is not None else rng.choice(SEATS)
    doc: dict[str, Any] = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "rules": {"preset": preset, "options": rules.as_dict()},
    }
    if players:
        doc["players"] = players
    doc["first_dealer"] = dealer
    hands: list[dict[str, Any]] = []
    score: dict[Team, int] = {t: 0 for t in TEAMS}
    status = "complete"
    while max(score.values()) < rules.match_goal_marks:
        if max_hands is not None and len(hands) >= max_hands:
            status = "unfinished"
            break
        hands.append(_random_hand(len(hands), dealer, rules, policy, score, stated_outcomes))
        dealer = next_seat(dealer)
    doc["status"] = status
    doc["hands"] = hands
    if status == "complete" and stated_outcomes:
        winner = max(TEAMS, key=lambda t: score[t])
        doc["result"] = {"winner": winner, "marks": dict(score)}
    return doc


def _random_hand(
    index: int,
    dealer: Seat,
    rules: Rules,
    policy: Policy,
    score: dict[Team, int],
    stated: bool,
) -> dict[str, Any]:
    dealt = policy.deal(index, dealer)
    hand: dict[str, Any] = {
        "dealer": dealer,
        "deal": {s: [str(t) for t in dealt[s]] for s in SEATS},
    }
    auction = Auction(rules, dealer)
    calls: list[dict[str, Any]] = []
    while not auction.done:
        seat = auction.to_call
        assert seat is not None
        kind, bid = policy.call(index, auction, seat)
        auction.call(seat, kind, bid)
        call: dict[str, Any] = {"seat": seat, "call": kind.value}
        if bid is not None:
            call["bid"] = bid
        calls.append(call)
    hand["auction"] = calls
    contract = auction.contract()
    if contract is None:
        if stated:
            hand["outcome"] = {
                "result": "no-contract",
                "marks": {"A+C": 0, "B+D": 0},
                "score": dict(score),
            }
        return hand
    trump = policy.trump(index, contract, dealt[contract.bidder])
    declaration: dict[str, Any] = {"seat": contract.bidder, "trump": trump.value}
    if contract.all_tricks:
        declaration["stacks"] = policy.stacks(index, contract)
    hand["declaration"] = declaration
    state = PlayState(rules, contract, trump, {s: set(dealt[s]) for s in SEATS})
    plays: list[dict[str, str]] = []
    while not state.over:
        seat = state.to_play
        assert seat is not None
        t = policy.play(index, state, seat, state.legal_tiles(seat))
        state.play(seat, t)
        plays.append({"seat": seat, "tile": str(t)})
    hand["plays"] = plays
    result = state.result
    assert result is not None
    for team in TEAMS:
        score[team] += result.marks[team]
    if stated:
        hand["outcome"] = {
            "tricks": [{"winner": tr.winner, "points": tr.points} for tr in state.tricks],
            "points": dict(result.points),
            "result": result.outcome.value,
            "marks": dict(result.marks),
            "score": dict(score),
        }
    return hand
