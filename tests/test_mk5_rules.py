"""The rules of the preset mk5 (docs/conversions.md#mk5): Plunge and Splash bid beside
the auction (special_bids aside), no-trump after them (special_no_trump), Sevens played
closest to 7 (sevens_play closest) — in the auction, the play, the solver and the worlds."""

from __future__ import annotations

import random

import pytest

from texas42_log.engine.auction import Auction, BidKind
from texas42_log.engine.declare import Choice, declaration_problems
from texas42_log.engine.errors import IllegalAction
from texas42_log.engine.hand import PlayState, closest_to_seven
from texas42_log.engine.presets import PRESETS
from texas42_log.engine.seats import SEATS
from texas42_log.engine.tiles import TILE_BY_NAME, TILES
from texas42_log.engine.trumps import Trump

MK5 = PRESETS["mk5"].with_options(plunge=True, splash=True, nello=True, sevens=True)
P, M = BidKind.POINTS, BidKind.MARKS


def _auction(calls: list[tuple[BidKind, int | None, str | None]], rules=MK5) -> Auction:  # type: ignore[no-untyped-def]
    a = Auction(rules, "D")
    for kind, bid, special in calls:
        seat = a.to_call
        assert seat is not None
        a.call(seat, kind, bid, special)  # type: ignore[arg-type]
    return a


def test_a_bid_after_a_plunge_is_judged_against_the_plunge_as_no_points() -> None:
    a = _auction(
        [(P, 35, None), (M, 4, "plunge"), (P, 31, None)]
    )  # 31 after a Plunge: legal, and it loses
    with pytest.raises(IllegalAction, match="after 31 points"):
        a.check("D", M, 4)  # the last bid is 31 points: 1 or 2 marks
    a.call("D", M, 2)
    c = a.contract()
    assert c is not None and (c.bidder, c.special, c.bid) == ("B", "plunge", 4)
    assert c.declarer == "D"
    # any mark bid right after a Plunge; 4 ties the Plunge, which was earlier and wins
    c = _auction(
        [(P, 35, None), (M, 4, "plunge"), (M, 4, None), (BidKind.PASS, None, None)]
    ).contract()
    assert c is not None and (c.bidder, c.special) == ("B", "plunge")


def test_a_splash_may_lose_to_the_mark_bid_before_it() -> None:
    c = _auction(
        [(M, 2, None), (M, 3, None), (M, 3, "splash"), (BidKind.PASS, None, None)]
    ).contract()
    assert c is not None and (c.bidder, c.special, c.bid) == (
        "B",
        None,
        3,
    )  # a tie goes to the earlier bid


def test_the_size_of_a_plunge_and_a_splash_follows_the_highest_so_far() -> None:
    a = _auction([(M, 2, None), (M, 3, None)])
    with pytest.raises(IllegalAction, match="here a Plunge is 4 marks"):
        a.check("C", M, 5, "plunge")
    a = _auction([(M, 2, None), (M, 3, None), (M, 4, None)])
    a.check("D", M, 5, "plunge")  # max(4, 4 + 1)
    with pytest.raises(IllegalAction, match="here a Splash is 3 marks"):
        a.check("D", M, 2, "splash")


def test_marks_after_a_mark_bid_climb_one_at_a_time_to_four() -> None:
    with pytest.raises(IllegalAction, match="must be 2"):
        _auction([(M, 1, None), (M, 3, None)])
    with pytest.raises(IllegalAction, match="1 to 4 marks"):
        _auction([(M, 2, None), (M, 3, None), (M, 4, None), (M, 5, None)])
    with pytest.raises(IllegalAction, match="worth more than the last bid"):
        _auction([(M, 1, None), (P, 41, None)])


def test_the_same_calls_under_casual_are_refused() -> None:
    with pytest.raises(IllegalAction):
        _auction([(P, 35, None), (M, 4, "plunge"), (P, 31, None)], PRESETS["casual"])


def test_no_trump_after_a_plunge_in_mk5_and_not_in_casual() -> None:
    c = _auction(
        [
            (M, 4, "plunge"),
            (BidKind.PASS, None, None),
            (BidKind.PASS, None, None),
            (BidKind.PASS, None, None),
        ]
    ).contract()
    assert c is not None
    ok, _ = declaration_problems(MK5, c, "C", Choice(Trump.NO_TRUMP), 1)
    assert ok == []
    refused, _ = declaration_problems(PRESETS["casual"], c, "C", Choice(Trump.NO_TRUMP), 1)
    assert [p.rule for p in refused] == ["R12"]


def _sevens(hands: dict[str, list[str]]) -> PlayState:
    c = _auction(
        [
            (M, 1, None),
            (BidKind.PASS, None, None),
            (BidKind.PASS, None, None),
            (BidKind.PASS, None, None),
        ]
    ).contract()
    assert c is not None
    return PlayState(
        MK5,
        c.declare("sevens"),
        Trump.NO_TRUMP,
        {s: {TILE_BY_NAME[t] for t in hands[s]} for s in SEATS},
    )


def _deal(seed: int) -> dict[str, list[str]]:
    tiles = [str(t) for t in TILES]
    random.Random(seed).shuffle(tiles)
    return {s: tiles[7 * k : 7 * k + 7] for k, s in enumerate(SEATS)}


def test_sevens_closest_binds_the_leader_and_every_follower() -> None:
    hands = _deal(1)
    state = _sevens(hands)
    lead = closest_to_seven(state.known["A"])
    far = max(state.known["A"], key=lambda t: abs(t.pips - 7))
    if abs(far.pips - 7) > abs(lead[0].pips - 7):
        with pytest.raises(IllegalAction, match="closer to 7") as e:
            state.check("A", far)
        assert e.value.rule == "variant:sevens"
    assert state.legal_tiles("A") == lead
    state.play("A", lead[0])
    assert state.legal_tiles("B") == closest_to_seven(state.known["B"])


def test_the_solver_plays_sevens_closest() -> None:
    from texas42_log.engine.solver import Solver

    for seed in range(5):
        state = _sevens(_deal(seed))
        solver = Solver(state)
        values = solver.play_values(state)
        assert sorted(t for t, _ in values) == closest_to_seven(state.known["A"])


def test_a_world_never_gives_a_seat_a_tile_nearer_7_than_one_it_played() -> None:
    from texas42_log.analysis.worlds import Knowledge, Worlds

    hands = _deal(3)
    state = _sevens(hands)
    plays = []
    while len(plays) < 8 and not state.finished:
        seat = state.to_play
        assert seat is not None
        t = state.legal_tiles(seat)[0]
        plays.append((seat, t, None))
        state.play(seat, t)
    c = state.contract
    know = Knowledge(MK5, "A", c, Trump.NO_TRUMP, None, frozenset(state.known["A"]), tuple(plays))
    worlds = Worlds(know)
    rng = random.Random(0)
    for _ in range(50):
        world = worlds.sample(rng)
        for s in SEATS:
            if s == "A":
                continue
            played = [abs(t.pips - 7) for p, t, _ in plays if p == s]
            if played:
                assert all(abs(t.pips - 7) >= max(played) for t in world[s])
