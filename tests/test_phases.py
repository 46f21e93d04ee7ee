"""The rules' phases act: the count (R6, :class:`Count`) and the trick (R13–R19,
:class:`TrickRules`). The engine scores and decides tricks by them, and both open-hand
solvers value positions by them, so a count other than the seed rules' (points for the
last trick, a tile counted otherwise) or a trick won otherwise (a made-up "boss" tile)
gives the values a brute force gives under it — the reference solver, the native search
one world at a time and in a batch. Nothing here needs an option: the phase is handed to
the hand directly, as an option's ``Rules.count`` or ``Rules.trick_rules`` would hand it
(docs/architecture.md, "Where to add…").
"""

from __future__ import annotations

import random

import pytest

from texas42_log.engine import native, search
from texas42_log.engine.count import STANDARD_COUNT, VALUE_LIMIT, Count
from texas42_log.engine.hand import PlayState
from texas42_log.engine.rules import STANDARD, Rules
from texas42_log.engine.seats import SEATS, team_of
from texas42_log.engine.solver import Solver
from texas42_log.engine.tiles import TILES, Tile, tile
from texas42_log.engine.tricks import STANDARD_TRICK_RULES, TrickRules
from texas42_log.engine.trumps import DoublesMode, Trump
from texas42_log.engine.values import goal, makeable

from .test_solver import SETTINGS, _deal, _moves, minimax, play_to

#: Five points more for the last trick: the house rule docs/architecture.md walks.
LAST_TRICK = Count(STANDARD_COUNT.tiles, (1, 1, 1, 1, 1, 1, 6))
#: [6|6] counts 10 and [0|5] nothing; the tricks a point each but the first, worth 3.
TILES_OTHERWISE = Count(
    tuple(
        10 if t == tile(6, 6) else 0 if t == tile(0, 5) else STANDARD_COUNT.tiles[t.index]
        for t in TILES
    ),
    (3, 1, 1, 1, 1, 1, 1),
)
COUNTS = {"last trick": LAST_TRICK, "tiles otherwise": TILES_OTHERWISE}


class BossTrickRules(TrickRules):
    """A made-up trick: [0|0] wins every trick it is played to, trump or not."""

    def win_keys(self, trump: Trump, doubles: DoublesMode) -> dict[int, dict[Tile, int]]:
        boss = tile(0, 0)
        return {
            suit: {**keys, boss: 200} for suit, keys in super().win_keys(trump, doubles).items()
        }


BOSS = BossTrickRules()


def _position(
    seed: str,
    setting: int,
    count: Count,
    tricks_left: int,
    trick_rules: TrickRules = STANDARD_TRICK_RULES,
) -> PlayState:
    rng = random.Random(seed)
    _, rules, contract, trump = SETTINGS[setting]
    st = PlayState(
        rules.with_options(hand_end="all-tricks"),
        contract,
        trump,
        _deal(rng),
        count=count,
        trick_rules=trick_rules,
    )
    return play_to(rng, st, 8 - tricks_left, rng.randrange(st.trick_size))


def test_the_seed_rules_count_42_and_the_rules_hand_it_on() -> None:
    assert STANDARD_COUNT.total == 42 and sum(STANDARD_COUNT.tiles) == 35
    assert Rules().count is STANDARD_COUNT and STANDARD.count == STANDARD_COUNT
    assert LAST_TRICK.total == 47 and TILES_OTHERWISE.total == 42 - 5 + 10 + 2
    assert STANDARD_COUNT.by_value() == (
        (5, sum(1 << tile(a, b).index for a, b in ((0, 5), (1, 4), (2, 3)))),
        (10, 1 << tile(4, 6).index | 1 << tile(5, 5).index),
    )
    assert [LAST_TRICK.from_trick(n) for n in range(1, 9)] == [12, 11, 10, 9, 8, 7, 6, 0]


@pytest.mark.parametrize("name", COUNTS)
def test_the_engine_scores_every_trick_by_the_count(name: str) -> None:
    count = COUNTS[name]
    rng = random.Random(name)
    for setting in range(len(SETTINGS)):
        st = _position(f"{name} {setting}", setting, count, 7)
        st = play_to(rng, st, 7, st.trick_size - 1)
        seat = st.to_play
        assert seat is not None
        t, led = _moves(st)[0]
        st.play(seat, t, led)
        assert st.over
        for trick in st.tricks:
            tiles = sum(count.of_tile(x) for _, x in trick.plays)
            assert trick.points == count.of_trick(trick.number) + tiles, (name, setting)
        # Every trick's points and every played tile (Nel-O's partner sits out: its
        # tiles are never played); the whole count when four seats play.
        played = sum(count.of_tile(x) for x in st.played)
        assert sum(st.points.values()) == sum(count.tricks) + played, (name, setting)
        if len(st.seats) == 4:
            assert sum(st.points.values()) == count.total


@pytest.mark.parametrize("name", COUNTS)
def test_both_solvers_value_by_the_count_as_a_brute_force_does(name: str) -> None:
    """Every setting of the solver tests (18: trumps, Nel-O, Sevens, Plunge, declared
    leads …), positions up to 3 tricks from the end, where the last trick's weight shows."""
    count = COUNTS[name]
    checked = differs = 0
    for setting, (label, *_) in enumerate(SETTINGS):
        for k in range(4):
            st = _position(f"{name} {label} {k}", setting, count, 1 + k % 3)
            expected = minimax(st)
            # The same moment under the seed count: the count must matter to the check.
            seed = _position(f"{name} {label} {k}", setting, STANDARD_COUNT, 1 + k % 3)
            assert seed.played == st.played
            differs += minimax(seed) != expected
            assert Solver(st).value(st) == expected, (name, label, k)
            seat = st.to_play
            assert seat is not None
            values = Solver(st).play_values(st)
            for move, v in values.items():
                child = st.copy()
                child.play(seat, move[0], move[1])
                assert v == minimax(child), (name, label, k, move)
            if native.AVAILABLE:
                fast = native.NativeSolver(st)
                assert fast.value(st) == expected, (name, label, k)
                assert fast.play_values(st) == values, (name, label, k)
                threshold, made = goal(st.contract, total=count.total)
                assert fast.reaches(st, threshold) == (expected >= threshold)
                assert makeable(st.contract, expected, total=count.total) == (
                    (expected >= threshold) == made
                )
            checked += 1
    assert checked == 4 * len(SETTINGS) and differs > len(SETTINGS)


@pytest.mark.skipif(not native.AVAILABLE, reason="the native solver is not built")
@pytest.mark.parametrize("name", COUNTS)
def test_the_batch_of_worlds_values_by_the_count(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The batch entry point (one call, many worlds), native against the reference."""
    count = COUNTS[name]
    for setting, (label, *_) in enumerate(SETTINGS[:6]):
        st = _position(f"batch {name} {label}", setting, count, 3)
        rng = random.Random(label)
        worlds = []
        for _ in range(4):
            pool = [t for s in SEATS if s != st.to_play for t in st.known[s]]
            rng.shuffle(pool)
            w = {s: set(st.known[s]) for s in SEATS}
            for s in SEATS:
                if s != st.to_play:
                    w[s] = {pool.pop() for _ in range(len(st.known[s]))}
            worlds.append(w)
        monkeypatch.setenv("TEXAS42_SOLVER", "native")
        fast, _ = search.values_in_worlds(st, worlds)
        monkeypatch.setenv("TEXAS42_SOLVER", "python")
        slow, _ = search.values_in_worlds(st, worlds)
        assert fast == slow, (name, label)
        bidders = team_of(st.contract.bidder)
        assert all(st.points[bidders] <= v <= count.total for v in fast)


@pytest.mark.parametrize(
    ("tiles", "tricks", "message"),
    [
        ((0,) * 27, (1,) * 7, "28 tiles and 7 tricks"),
        (STANDARD_COUNT.tiles, (1,) * 6, "28 tiles and 7 tricks"),
        (STANDARD_COUNT.tiles, (1, 1, 1, 1, 1, 1, -1), "fewer than 0"),
        (STANDARD_COUNT.tiles, (1, 1, 1, 1, 1, 1, 23), f"past the {VALUE_LIMIT}"),
    ],
)
def test_a_count_the_solvers_cannot_value_is_refused_by_name(
    tiles: tuple[int, ...], tricks: tuple[int, ...], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        Count(tiles, tricks)


def test_the_engine_decides_every_trick_by_the_trick_rules() -> None:
    """The made-up boss wins every trick it is played to; the others as the seed rules say."""
    boss = tile(0, 0)
    seen = 0
    for setting, (label, *_) in enumerate(SETTINGS):
        if SETTINGS[setting][2].special == "sevens":
            continue  # Sevens has its own winner (closest to 7)
        for k in range(6):
            st = _position(f"boss {label} {k}", setting, STANDARD_COUNT, 1, BOSS)
            seed_keys = STANDARD_TRICK_RULES.win_keys(st.trump, st.doubles)
            for trick in st.tricks:
                if trick.winner is None:
                    continue
                assert trick.led is not None
                tiles = [t for _, t in trick.plays]
                seats = [s for s, _ in trick.plays]
                keys = seed_keys[trick.led]  # the seed rules' order: the highest key wins
                by_seed = seats[max(range(len(tiles)), key=lambda i: keys.get(tiles[i], -1))]
                if boss in tiles:
                    assert trick.winner == seats[tiles.index(boss)], (label, k)
                    seen += trick.winner != by_seed
                else:
                    assert trick.winner == by_seed, (label, k)
    assert seen > 5  # the boss changed who won, in many tricks


def test_both_solvers_decide_tricks_by_the_trick_rules_as_a_brute_force_does() -> None:
    checked = differs = 0
    for setting, (label, *_) in enumerate(SETTINGS):
        for k in range(4):
            st = _position(f"boss solve {label} {k}", setting, STANDARD_COUNT, 2 + k % 2, BOSS)
            if not any(tile(0, 0) in st.known[s] for s in SEATS):
                continue  # already played: nothing left to decide by it
            expected = minimax(st)
            seed = _position(f"boss solve {label} {k}", setting, STANDARD_COUNT, 2 + k % 2)
            differs += minimax(seed) != expected
            assert Solver(st).value(st) == expected, (label, k)
            if native.AVAILABLE:
                fast = native.NativeSolver(st)
                assert fast.value(st) == expected, (label, k)
                assert fast.play_values(st) == Solver(st).play_values(st), (label, k)
            checked += 1
    assert checked > 20 and differs > 3
