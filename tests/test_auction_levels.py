"""The auction at the plays' speed: one native call settles every level of every world
(``levels_in_worlds``, engine/search.py), and every chance is what the bounded searches
level by level gave before it — over every preset and every row kind (suits, doubles,
no-trump, Nel-O, Sevens, a Plunge or Splash), 300 seats and more; at moments inside a
hand too (points already taken), and on the reference solver."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from texas42_log.analysis import bidding
from texas42_log.analysis.bidding import legal_bids, seat_worlds
from texas42_log.engine import native
from texas42_log.engine.hand import PlayState
from texas42_log.engine.presets import PRESETS
from texas42_log.engine.search import levels_in_worlds, reaches_in_worlds
from texas42_log.engine.seats import SEATS
from texas42_log.engine.tiles import TILES, Tile
from texas42_log.engine.trumps import Trump

native_only = pytest.mark.skipif(not native.AVAILABLE, reason="the native solver is not built")


def _levels_one_by_one(
    template: PlayState, worlds: Sequence[Any], thresholds: Sequence[int]
) -> tuple[list[int], int]:
    """Before the one call: per world, the lowest level, then the highest, then halving,
    each a batch of bounded searches (``reaches_in_worlds``), every world's table fresh."""
    n, top = len(worlds), len(thresholds)
    lo, hi, asked = [0] * n, [top] * n, [0] * n
    while True:
        groups: dict[int, list[int]] = {}
        for w in range(n):
            if lo[w] < hi[w]:
                i = (
                    lo[w]
                    if asked[w] == 0
                    else hi[w] - 1
                    if asked[w] == 1
                    else (lo[w] + hi[w] - 1) // 2
                )
                groups.setdefault(i, []).append(w)
        if not groups:
            return lo, 0
        for i, ws in sorted(groups.items()):
            got, _ = reaches_in_worlds(template, [worlds[w] for w in ws], thresholds[i])
            for w, r in zip(ws, got, strict=True):
                asked[w] += 1
                if r:
                    lo[w] = max(lo[w], i + 1)
                else:
                    hi[w] = min(hi[w], i)


def _tiles(rng: random.Random, doubles: int) -> frozenset[Tile]:
    pool = [t for t in TILES if not t.is_double]
    ds = [t for t in TILES if t.is_double]
    rng.shuffle(pool)
    rng.shuffle(ds)
    return frozenset(ds[:doubles] + pool[: 7 - doubles])


def _table(rules: Any, seat: str, tiles: frozenset[Tile], seed: int) -> dict[Any, Any]:
    sw = seat_worlds(rules, seat, 0, tiles, worlds=4, seed=seed)  # type: ignore[arg-type]
    table = sw.table(legal_bids(rules, "D", [], tiles))
    return {(b.key, r.key): v for b, rows in table.made.items() for r, v in rows.items()}


@native_only
@pytest.mark.slow
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_chance_is_what_the_level_by_level_searches_gave(
    preset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = PRESETS[preset]
    rng = random.Random(preset)
    seats, rows, bids = 0, set(), set()
    for k in range(32):  # 32 seats a preset, ten presets: 320 seats
        tiles = _tiles(rng, [0, 1, 2, 3, 4, 5, 6][k % 7])  # four doubles and more: a Plunge
        seat = SEATS[k % 4]
        now = _table(rules, seat, tiles, k)
        with monkeypatch.context() as m:
            m.setattr(bidding, "_levels", _levels_one_by_one)
            before = _table(rules, seat, tiles, k)
        assert now == before, (preset, k)
        seats += 1
        rows |= {row for _, row in now}
        bids |= {bid.split(" ")[0] for bid, _ in now}
    assert seats == 32
    # every row kind the preset allows was met: suits (doubles, no-trump), its variants
    assert {str(n) for n in range(7)} <= rows, rows
    for option, row in (("nello", "nello"), ("sevens", "sevens")):
        assert (row in rows) == bool(getattr(rules, option)), (option, rows)
    for option in ("plunge", "splash"):
        assert (option in bids) == bool(getattr(rules, option)), (option, bids)


@native_only
def test_levels_inside_a_hand_are_the_bounded_searches_counted() -> None:
    """Moments with points already taken, levels below them, above 42 and repeated."""
    from texas42_log import Game

    checked = 0
    for seed in range(8):
        g = Game("standard", seed=seed)
        rng = random.Random(seed)
        plays = 0
        while g.to_act is not None and (g.to_act.kind != "play" or plays < 6 + seed % 9):
            plays += g.to_act.kind == "play"
            g.push(rng.choice(g.legal_actions()))
        state = g.play_state
        if state is None or state.to_play is None:
            continue
        worlds = [{s: frozenset(state.known[s]) for s in SEATS}]
        levels = [-3, 0, 5, 12, 12, 25, 30, 31, 36, 41, 42, 43, 60]
        got, _ = levels_in_worlds(state, worlds, levels)
        want = [sum(reaches_in_worlds(state, worlds, t)[0][0] for t in levels)]
        assert got == want, (seed, got, want)
        checked += 1
    assert checked >= 5


def test_the_reference_solver_counts_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = PRESETS["standard"]
    tiles = _tiles(random.Random(5), 3)
    by_solver = []
    for solver in ("auto", "python"):
        monkeypatch.setenv("TEXAS42_SOLVER", solver)
        sw = seat_worlds(rules, "B", 0, tiles, worlds=3, seed=2)
        by_solver.append([sw.reached(t, "B") for t in (Trump.SIXES, Trump.DOUBLES)])
    assert by_solver[0] == by_solver[1]


@native_only
@pytest.mark.parametrize(
    ("arg", "said"),
    [
        (None, "levels needs a list"),
        (5, "levels needs a list"),
        ([], "1 to 64 levels"),
        (list(range(65)), "1 to 64 levels"),
        ([30, 29], "ascending"),
        ([10**100000 // 10**99990], "a level"),
        (["30"], "a level"),
        ([2**70], "a level"),
    ],
)
def test_a_malformed_levels_question_is_a_value_error(arg: Any, said: str) -> None:
    from texas42_log import Game
    from texas42_log.engine.native import _position, _prepared

    g = Game("standard", seed=1)
    rng = random.Random(1)
    while g.to_act is not None and g.to_act.kind != "play":
        g.push(rng.choice(g.legal_actions()))
    state = g.play_state
    assert state is not None
    prepared = _prepared(state)
    position = _position(prepared.tables, state)
    hands = [tuple(sum(1 << t.index for t in state.known[s]) for s in SEATS)]
    with pytest.raises(ValueError, match=said):
        prepared.search().solve(native.LEVELS, position, hands, arg, True)


def test_the_row_kinds_met_above_include_doubles_and_no_trump() -> None:
    rules = PRESETS["standard"]
    rows = {r for _, r in _table(rules, "A", _tiles(random.Random(1), 2), 1)}
    assert {"doubles", "no-trump"} <= rows, rows
