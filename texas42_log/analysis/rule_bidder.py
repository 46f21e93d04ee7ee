"""The ``rule`` bidder as a pure function: its hand count, and its call from the legal
calls, the bid to beat and the count (docs/bots.md).

The ``rule`` bot (:mod:`texas42_log.bots.rule`) asks it at the table; the fair analysis
asks it to call the rest of an auction in each world a caller could not tell apart
(:mod:`.continuation`), at about a tenth of a millisecond a call. Pure, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from ..engine.auction import MARK_SIZE, BidKind, BidSpecial
from ..engine.rules import Rules
from ..engine.seats import Seat, partner
from ..engine.tiles import Tile
from ..engine.trumps import Trump

__all__ = [
    "BID_FOR_COUNT",
    "CallKey",
    "suit_strength",
    "hand_count",
    "count_trumps",
    "want",
    "high_bid",
    "call_points",
    "rule_choice",
]

#: The rule bot's bid for a hand count (a count below the least passes).
BID_FOR_COUNT: Final[dict[int, int]] = {6: 30, 7: 32, 8: 34, 9: 42}

#: A call as the engine's auction lists it: (kind, bid, special).
CallKey = tuple[BidKind, int | None, BidSpecial | None]


def suit_strength(tiles: Iterable[Tile], trump: Trump) -> int:
    """The rule bot's count of ``tiles`` with ``trump``: its trumps held, plus one if the
    trump double is among them, plus the other doubles held; doubles as trump, with four or
    more doubles held, the doubles held plus one."""
    tiles = list(tiles)
    doubles = [t for t in tiles if t.is_double]
    if trump is Trump.DOUBLES:
        return len(doubles) + 1 if len(doubles) >= 4 else 0
    n = trump.number
    if n is None:
        return 0
    trumps = [t for t in tiles if t.shows(n)]
    return (
        len(trumps)
        + (1 if any(t.is_double for t in trumps) else 0)
        + sum(1 for t in doubles if not t.shows(n))
    )


def hand_count(tiles: Iterable[Tile], trumps: Sequence[Trump]) -> tuple[int, Trump]:
    """The best count among ``trumps`` and its trump (ties: the higher suit)."""
    tiles = list(tiles)
    best = max(
        trumps, key=lambda t: (suit_strength(tiles, t), t.number if t.number is not None else -1)
    )
    return suit_strength(tiles, best), best


def count_trumps(rules: Rules) -> list[Trump]:
    """The trumps the rule bot counts a hand in: the seven suits, and doubles where the
    rules let doubles be trump."""
    out = [Trump(str(n)) for n in range(7)]
    if rules.doubles_trump:
        out.append(Trump.DOUBLES)
    return out


def want(count: int) -> int:
    """The bid a hand count asks for in points (42: one mark); 0 for a pass."""
    return BID_FOR_COUNT[min(count, 9)] if count >= 6 else 0


def call_points(kind: BidKind | str, bid: int | None) -> int:
    """A call's size in points (a mark is 42); 0 for a pass."""
    if kind == "pass" or bid is None:
        return 0
    return bid * MARK_SIZE if kind == "marks" else bid


def high_bid(calls: Iterable[tuple[Seat, BidKind | str, int | None]]) -> tuple[Seat | None, int]:
    """The seat holding the high bid of ``calls`` and its size in points (a mark is 42)."""
    high: Seat | None = None
    size = 0
    for seat, kind, bid in calls:
        points = call_points(kind, bid)
        if points and points >= size:
            high, size = seat, points
    return high, size


def _lowest(calls: Sequence[CallKey]) -> CallKey:
    bids = [c for c in calls if c[0] is not BidKind.PASS] or list(calls)
    return min(bids, key=lambda c: (c[2] is not None, call_points(c[0], c[1])))


def rule_choice(
    legal: Sequence[CallKey], high: Seat | None, size: int, seat: Seat, count: int
) -> CallKey:
    """The rule bot's call among ``legal`` for a hand count, the high bid being ``size``
    points held by ``high``: it passes over its partner's bid, and when its own bid is not
    above the bid to beat; when it may not pass it makes the lowest legal bid."""
    passing = [c for c in legal if c[0] is BidKind.PASS]
    if not passing:
        return _lowest(legal)
    wanted = want(count)
    if wanted == 0 or wanted <= size or high == partner(seat):
        return passing[0]
    plain = [c for c in legal if c[2] is None and c[0] is not BidKind.PASS]
    exact = [c for c in plain if call_points(c[0], c[1]) == wanted]
    if exact:
        return exact[0]
    below = [c for c in plain if call_points(c[0], c[1]) <= wanted]  # 42 past the point bids
    above = [c for c in plain if call_points(c[0], c[1]) > wanted]
    if below:
        return max(below, key=lambda c: call_points(c[0], c[1]))
    if wanted >= MARK_SIZE and above:
        return min(above, key=lambda c: call_points(c[0], c[1]))
    return passing[0]
