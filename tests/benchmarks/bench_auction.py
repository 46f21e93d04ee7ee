"""The auction's figures (``bench.py --only auction``): the fair makeable table of one
seat, 100 worlds, every trump (and special contract) the rules allow, one core — with
the native solver and the reference; ``Game.hint`` during the auction; the ``sampling``
bot's auction (its calls and declaration) a hand; and a hand's auction verdicts in
``analyze --fair``."""

from __future__ import annotations

import os
import random
import statistics
import time
from collections.abc import Callable


def _median(fn: Callable[[], object], n: int) -> float:
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def auction(quick: bool) -> list[tuple[str, str, str]]:
    from texas42_log import Game, read_match
    from texas42_log.analysis.auction_fair import fair_auction
    from texas42_log.analysis.bidding import legal_bids, seat_worlds
    from texas42_log.bots import SamplingBot, situation
    from texas42_log.engine.presets import PRESETS
    from texas42_log.engine.rules import Rules
    from texas42_log.engine.search import SOLVER_VARIABLE
    from texas42_log.engine.tiles import TILES

    n = 3 if quick else 10
    hands = []
    for seed in range(n):
        tiles = list(TILES)
        random.Random(seed).shuffle(tiles)
        hands.append(frozenset(tiles[:7]))

    def tables(rules: Rules, worlds: int) -> list[float]:
        out = []
        for tiles in hands:
            t0 = time.perf_counter()
            sw = seat_worlds(rules, "A", 0, tiles, worlds=worlds, seed=1)
            sw.table(legal_bids(rules, "D", [], tiles))
            out.append(time.perf_counter() - t0)
        return out

    rows: list[tuple[str, str, str]] = []
    std = tables(Rules(), 100)
    rows.append(
        (
            "fair makeable table, native",
            f"{statistics.median(std):.2f} s",
            f"median of {n} hands (max {max(std):.2f} s): seat A, 100 worlds, 9 trumps × "
            "30–41 and every trick, one core",
        )
    )
    casual = PRESETS["casual"]
    spec = tables(casual, 100)
    rows.append(
        (
            "the same, casual rules",
            f"{statistics.median(spec):.2f} s",
            "Nel-O and the mark bids it needs besides, when the rules allow them",
        )
    )
    before = os.environ.get(SOLVER_VARIABLE)
    os.environ[SOLVER_VARIABLE] = "python"
    try:
        hands[:] = hands[:1]
        ref = tables(Rules(), 20 if quick else 100)
    finally:
        if before is None:
            os.environ.pop(SOLVER_VARIABLE, None)
        else:
            os.environ[SOLVER_VARIABLE] = before
    rows.append(
        (
            "the same, reference solver",
            f"{ref[0]:.2f} s",
            f"one hand, {20 if quick else 100} worlds (TEXAS42_SOLVER=python)",
        )
    )
    game = Game(seed=3)
    hint = _median(lambda: game.hint(worlds=100), 3)
    rows.append(("Game.hint in the auction", f"{hint:.2f} s", "median of 3, 100 worlds"))
    bot_times = []
    for seed in range(n):
        g = Game(seed=seed)
        bot = SamplingBot(seed)
        t0 = time.perf_counter()
        while g.to_act is not None and g.to_act.kind in ("call", "declare"):
            g.push(bot.act(situation(g)))
        bot_times.append(time.perf_counter() - t0)
    rows.append(
        (
            "sampling bot: a hand's auction",
            f"{statistics.median(bot_times):.2f} s",
            f"median of {n}: all four calls and the declaration, 32 worlds, every trump",
        )
    )
    from pathlib import Path

    fixture = (
        Path(__file__).resolve().parents[2] / "fixtures" / "valid" / "seed-worked-example.json"
    )
    match = read_match(fixture.read_bytes())
    t0 = time.perf_counter()
    fair_auction(match, 2, worlds=100)
    rows.append(
        (
            "analyze --fair: a hand's auction",
            f"{time.perf_counter() - t0:.2f} s",
            "four calls and the declaration, 100 worlds, one core",
        )
    )
    return rows
