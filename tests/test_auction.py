"""The auction: R7–R11."""

from __future__ import annotations

import pytest

from texas42_log.engine.auction import Auction, BidKind
from texas42_log.engine.errors import IllegalAction
from texas42_log.engine.rules import STANDARD

P, PTS, M = BidKind.PASS, BidKind.POINTS, BidKind.MARKS


def run(dealer: str, calls: list[tuple[str, BidKind, int | None]]) -> Auction:
    a = Auction(STANDARD, dealer)  # type: ignore[arg-type]
    for seat, kind, bid in calls:
        a.call(seat, kind, bid)  # type: ignore[arg-type]
    return a


def rule_of(dealer: str, calls: list[tuple[str, BidKind, int | None]]) -> str:
    with pytest.raises(IllegalAction) as e:
        run(dealer, calls)
    return e.value.rule


def test_r7_order_starts_left_of_dealer() -> None:
    a = Auction(STANDARD, "D")
    assert a.to_call == "A"
    assert rule_of("D", [("B", P, None)]) == "R7"


def test_r7_exactly_four_calls() -> None:
    a = run("A", [("B", P, None), ("C", P, None), ("D", PTS, 30), ("A", P, None)])
    assert a.done and a.to_call is None
    with pytest.raises(IllegalAction, match="fifth call"):
        a.call("B", P)


def test_r8_point_bids() -> None:
    assert rule_of("A", [("B", PTS, 29)]) == "R8"
    assert rule_of("A", [("B", PTS, 42)]) == "R8"
    assert rule_of("A", [("B", PTS, 31), ("C", PTS, 31)]) == "R8"
    a = run("A", [("B", PTS, 30), ("C", PTS, 41), ("D", P, None), ("A", P, None)])
    c = a.contract()
    assert c is not None and c.bidder == "C" and c.bid == 41 and c.marks == 1


def test_r9_mark_bids() -> None:
    assert rule_of("A", [("B", M, 3)]) == "R9"  # opening at most 2
    assert rule_of("A", [("B", M, 0)]) == "R9"
    assert rule_of("A", [("B", M, 1), ("C", M, 3)]) == "R9"  # later: exactly +1
    assert rule_of("A", [("B", M, 2), ("C", M, 2)]) == "R9"
    assert rule_of("A", [("B", M, 1), ("C", PTS, 41)]) == "R9"  # no point bid after marks
    a = run("A", [("B", PTS, 35), ("C", M, 2), ("D", M, 3), ("A", P, None)])
    c = a.contract()
    assert c is not None and c.bidder == "D" and c.all_tricks and c.marks == 3


def test_r10_highest_bidder_wins_the_auction() -> None:
    a = run("B", [("C", PTS, 30), ("D", PTS, 34), ("A", P, None), ("B", P, None)])
    c = a.contract()
    assert c is not None and c.bidder == "D"


def test_r11_all_pass_no_contract() -> None:
    a = run("C", [("D", P, None), ("A", P, None), ("B", P, None), ("C", P, None)])
    assert a.done and a.contract() is None


def test_an_illegal_call_changes_nothing() -> None:  # R30
    a = run("A", [("B", PTS, 30)])
    with pytest.raises(IllegalAction):
        a.call("C", PTS, 30)
    assert a.to_call == "C" and len(a.calls) == 1
    a.call("C", PTS, 31)
    assert a.high_bid == "31 points"
