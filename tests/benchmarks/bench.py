"""The texas42-log benchmark: stage throughput, processes, memory, cold start.

Run from the repository root (not part of the test run):

    .venv/bin/python tests/benchmarks/bench.py            # the full benchmark (a few minutes)
    .venv/bin/python tests/benchmarks/bench.py --quick    # small sizes, a smoke run

It makes its corpora with ``texas42 generate`` in a temporary folder, then
prints one table. Each throughput is the best of three runs on one core.

* stages, one core, in-process: parse (JSON bytes → models), schema (JSON
  Schema, the full path only), replay (check_match), views (every moment of
  every hand, public), full validation (``validate_bytes``), ``json.loads`` of every
  line, and the verdict only (``validate_bytes(models=False)``, ``texas42 validate``'s);
* ``texas42 validate --jobs 1`` and ``--jobs 2`` on a corpus of ~100,000
  hands: wall time, hands/s, speed-up;
* peak memory of the whole process tree while validating a ~1 GB JSON Lines
  corpus with every core (sampled from /proc);
* large and hostile inputs: a 12 MB log valid and with one error, a 50 MB JSON
  Lines line with one and two jobs, a 50 MB input of every other format — time
  and peak memory;
* cold start: ``texas42 validate one-match.json`` in a new process;
* live play through ``Game``; the open-hand solver (``--only open-hand``): a full
  hand's value, a recorded hand's full analysis, the makeable table, node counts
  against the positions of an exhaustive backward induction;
* the fair analysis of a match and of a corpus (``--only fair-corpus``): ``texas42
  analyze --fair`` of the worked example on one core and on two; a 100-match corpus's
  ``--fair --annotate``, hands a second on one core, on two, and on a 2-worker Dask
  ``LocalCluster`` (examples/dask_fair.py), whose lines must equal the local run's;
* the bots (``--only bots``): random-bot matches a second through the arena, on
  one core and on every core; the sampling bot's seconds per decision at its
  default worlds. (Their strength is the arena's own verdict: README.md.)
* the auction (``--only auction``, bench_auction.py): the fair makeable table of a seat,
  native and reference, ``Game.hint`` in the auction, the sampling bot's auction;
* the review board (``--only board``, bench_board.py): a log of 10,000 comments (its
  data's size and time, ``about`` while saves are built, the board's memory); a
  board's start, an observer's views first and cached, a save of one comment, a
  hand's analysis asked as a seat and as the omniscient observer, over the wire;
* the table under load (``--only table``, bench_table.py): 20 ``texas42 table`` processes
  at once, four ``rule`` bots each at ``--bot-delay 0`` — actions a second, the push's
  latency to every page (median, 99th percentile), each table's memory.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
TEXAS42 = [sys.executable, "-m", "texas42_log"]


def best_rate(hands: int, items: list[Any], fn: Callable[[Any], object], repeat: int = 3) -> float:
    best = 0.0
    for _ in range(repeat):
        start = time.perf_counter()
        for item in items:
            fn(item)
        best = max(best, hands / (time.perf_counter() - start))
    return best


def generate(path: Path, matches: int, seed: int) -> None:
    subprocess.run(
        [*TEXAS42, "generate", "-n", str(matches), "--seed", str(seed), "-o", str(path), "--force"],
        check=True,
    )


def count_hands(path: Path) -> tuple[int, int]:
    matches = hands = 0
    with open(path, "rb") as f:
        for line in f:
            matches += 1
            hands += line.count(b'"dealer":')
    return matches, hands


def stages(corpus: Path) -> list[tuple[str, str, str]]:
    from texas42_log.files.validate import _schema_validator, validate_bytes
    from texas42_log.log.check import check_match
    from texas42_log.log.model import Match
    from texas42_log.views.visibility import match_views

    lines = corpus.read_bytes().splitlines()
    docs = [json.loads(x) for x in lines]
    hands = sum(len(d["hands"]) for d in docs)
    models = [Match.model_validate_json(x) for x in lines]
    validator = _schema_validator()
    few = docs[: max(1, len(docs) // 20)]  # jsonschema is slow: a twentieth is plenty
    few_hands = sum(len(d["hands"]) for d in few)
    parse = best_rate(hands, lines, Match.model_validate_json)
    full = best_rate(hands, lines, validate_bytes)
    verdict = best_rate(hands, lines, lambda x: validate_bytes(x, models=False))
    loads = best_rate(hands, lines, json.loads)
    rows = [
        ("parse (JSON → models)", f"{parse:,.0f} hands/s", "pydantic, from bytes"),
        (
            "schema (JSON Schema)",
            f"{best_rate(few_hands, few, lambda d: list(validator.iter_errors(d)), 1):,.0f} "
            "hands/s",
            "full path only",
        ),
        ("replay (check_match)", f"{best_rate(hands, models, check_match):,.0f} hands/s", ""),
        (
            "views (every moment)",
            f"{best_rate(hands, models, lambda m: match_views(m, 'public'), 1):,.0f} hands/s",
            "public observer",
        ),
        (
            "full validation",
            f"{full:,.0f} hands/s",
            f"{parse / full:.2f}× the parse time; target ≥ 20,000, ≤ 3×",
        ),
        ("json.loads of every line", f"{loads:,.0f} hands/s", "the floor: parsing alone"),
        (
            "validation, verdict only",
            f"{verdict:,.0f} hands/s",
            f"texas42 validate's path (log/plain.py); {loads / verdict:.2f}× json.loads, "
            "target ≤ 5×",
        ),
    ]
    return rows


def conversions(corpus: Path) -> list[tuple[str, str, str]]:
    """The text notation both ways, a foreign import, and a whole-corpus convert."""
    from texas42_log.files.formats import read_sources, write_matches
    from texas42_log.files.reader import validate_source
    from texas42_log.log.model import Match
    from texas42_log.log.notation import parse_text, write_text

    lines = corpus.read_bytes().splitlines()
    models = [Match.model_validate_json(x) for x in lines]
    hands = sum(len(m.hands) for m in models)
    texts = [write_text(m) for m in models]
    receipt = (ROOT / "fixtures" / "foreign" / "texas-42" / "verify_player.receipt").read_text()

    def read_text(t: str) -> object:
        return [validate_source(s) for s in read_sources(t, "text")]

    def read_receipt(t: str) -> object:
        return validate_source(read_sources(t, "texas-42-receipt")[0])

    out = corpus.with_suffix(".t42")
    seconds = cli_run(["convert", str(corpus), "-o", str(out), "--force"])
    return [
        (
            "text notation: write",
            f"{best_rate(hands, models, write_text):,.0f} hands/s",
            "models → .t42",
        ),
        (
            "text notation: read",
            f"{best_rate(hands, texts, parse_text):,.0f} hands/s",
            ".t42 → documents",
        ),
        (
            "text notation: read + validate",
            f"{best_rate(hands, texts, read_text):,.0f} hands/s",
            "",
        ),
        (
            "receipt import + validate",
            f"{best_rate(13 * 20, [receipt] * 20, read_receipt):,.0f} hands/s",
            "verify_player (13 hands)",
        ),
        (
            "JSON Lines → JSON Lines",
            f"{best_rate(hands, [models], lambda ms: write_matches(ms, 'jsonl'), 1):,.0f} hands/s",
            "writing only",
        ),
        (
            "texas42 convert (small corpus) → .t42",
            f"{hands / seconds:,.0f} hands/s",
            f"{len(models):,} matches, {seconds:.2f} s, start-up included",
        ),
        *mk5_rows(),
    ]


def mk5_rows() -> list[tuple[str, str, str]]:
    """mk5 share links of whole matches (every layer on): read + validated, and written."""
    import random

    from texas42_log.engine.seats import SEATS
    from texas42_log.engine.tiles import TILE_BY_NAME
    from texas42_log.files.formats import read_sources, write_matches
    from texas42_log.files.reader import validate_source
    from texas42_log.log.foreign.mk5 import mk5_deal
    from texas42_log.log.foreign.mk5_replay import link_rules
    from texas42_log.log.model import Match
    from texas42_log.play.generate import Policy, random_match

    rules, options = link_rules(["n", "p", "S", "v"])

    class Deals(Policy):
        first = 0

        def deal(self, hand_index: int, dealer: str) -> Any:  # type: ignore[override]
            rows = mk5_deal(self.first + hand_index * 1_000_000)
            return {s: [TILE_BY_NAME[t] for t in rows[k]] for k, s in enumerate(SEATS)}

    models = []
    for seed in range(60):
        policy = Deals(random.Random(seed), rules)
        policy.first = seed * 7919
        doc = random_match(seed, rules=rules, preset="mk5", first_dealer="D", policy=policy)
        doc["rules"]["options"] = options
        doc["x-mk5"] = {"deal": "seed", "seed": policy.first, "layers": "n,p,S,v"}
        models.append(Match.model_validate(doc))
    texts = [write_matches([m], "mk5") for m in models]
    # A link whose '~?' reads two ways to its end is refused, as it must be: leave those out.
    readable = []
    for m, t in zip(models, texts, strict=True):
        try:
            read_sources(t, "mk5")
        except ValueError:
            continue
        readable.append((m, t))
    models, texts = [m for m, _ in readable], [t for _, t in readable]
    hands = sum(len(m.hands) for m in models)

    def read(text: str) -> None:
        for src in read_sources(text, "mk5"):
            validate_source(src)

    return [
        (
            "mk5 links: read + validate",
            f"{best_rate(hands, texts, read):,.0f} hands/s",
            f"{len(models)} whole matches, every layer on, "
            f"{sum(len(t) for t in texts) // len(texts):,} characters a link",
        ),
        (
            "mk5 links: write",
            f"{best_rate(hands, models, lambda m: write_matches([m], 'mk5')):,.0f} hands/s",
            "",
        ),
    ]


def cli_run(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(
        [*TEXAS42, *args], check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    return time.perf_counter() - start


def _loads_each(lines: list[bytes]) -> float:
    """Seconds to ``json.loads`` each line, keeping none: as validate keeps none. (Keeping
    every document alive makes the garbage collector walk them all again and again, which
    would slow json.loads several times over and flatter the ratio.)"""
    start = time.perf_counter()
    for line in lines:
        json.loads(line)
    return time.perf_counter() - start


def jobs(corpus: Path) -> list[tuple[str, str, str]]:
    _, hands = count_hands(corpus)
    one = min(cli_run(["validate", str(corpus), "-q", "-j", "1"]) for _ in range(3))
    two = min(cli_run(["validate", str(corpus), "-q", "-j", "2"]) for _ in range(3))
    lines = corpus.read_bytes().splitlines()
    loads = min(_loads_each(lines) for _ in range(3))
    return [
        ("validate --jobs 1", f"{hands / one:,.0f} hands/s", f"{hands:,} hands in {one:.1f} s"),
        (
            "validate -j1 ÷ json.loads",
            f"{one / loads:.1f}×",
            f"json.loads of each line (none kept) {loads:.2f} s, in the same run (target ≤ 5×)",
        ),
        (
            "validate --jobs 2",
            f"{hands / two:,.0f} hands/s",
            f"{two:.1f} s; speed-up {one / two:.2f}× (target ≥ 1.8×)",
        ),
    ]


def _tree_rss_kb(root: int) -> int:
    """Resident memory of ``root`` and all its descendants, from /proc."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/status") as f:
                kb = next((int(line.split()[1]) for line in f if line.startswith("VmRSS:")), 0)
        except (OSError, StopIteration, IndexError, ValueError):
            continue
        parents[int(entry)] = int(fields[1])
        rss[int(entry)] = kb
    tree = {root}
    changed = True
    while changed:
        changed = False
        for pid, ppid in parents.items():
            if ppid in tree and pid not in tree:
                tree.add(pid)
                changed = True
    return sum(rss.get(pid, 0) for pid in tree)


def run_sampled(cmd: list[str]) -> tuple[float, int]:
    """Run ``cmd``; its wall time and the peak resident memory (KB) of it and its children."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss_kb(proc.pid))
            time.sleep(0.2)

    sampler = threading.Thread(target=sample)
    start = time.perf_counter()
    sampler.start()
    proc.wait()
    done.set()
    sampler.join()
    return time.perf_counter() - start, peak


def memory(corpus: Path, target_bytes: int) -> list[tuple[str, str, str]]:
    big = corpus.with_name("big.jsonl")
    data = corpus.read_bytes()
    with open(big, "wb") as f:
        written = 0
        while written < target_bytes:
            f.write(data)
            written += len(data)
    _, hands = count_hands(big)
    seconds, peak = run_sampled([*TEXAS42, "validate", str(big), "-q"])
    big.unlink()
    return [
        (
            "peak memory, all processes",
            f"{peak / 1024:,.0f} MB",
            f"{written / 1e9:.2f} GB, {hands:,} hands, every core, {seconds:.0f} s "
            f"({hands / seconds:,.0f} hands/s); target < 150 MB",
        )
    ]


def convert_large(corpus: Path) -> list[tuple[str, str, str]]:
    """`texas42 convert` of a whole corpus, which streams: speed and peak memory, and
    its time per hand beside `validate`'s on the same corpus (target: within 2×)."""
    _, hands = count_hands(corpus)
    size_mb = corpus.stat().st_size / 1e6
    rows = []
    check = min(cli_run(["validate", str(corpus), "-q"]) for _ in range(2))
    out = corpus.with_name("side-by-side.t42")
    conv = min(cli_run(["convert", str(corpus), "-o", str(out), "--force"]) for _ in range(2))
    out.unlink()
    rows.append(
        (
            "validate corpus.jsonl (every core)",
            f"{hands / check:,.0f} hands/s",
            f"{1e6 * check / hands:,.0f} µs a hand",
        )
    )
    rows.append(
        (
            "convert corpus.jsonl -o .t42 (every core)",
            f"{hands / conv:,.0f} hands/s",
            f"{1e6 * conv / hands:,.0f} µs a hand: {conv / check:.2f}× validate's (target ≤ 2×)",
        )
    )
    for suffix in (".t42", ".csv"):
        out = corpus.with_name("converted" + suffix)
        seconds, peak = run_sampled([*TEXAS42, "convert", str(corpus), "-o", str(out), "--force"])
        out.unlink()
        rows.append(
            (
                f"texas42 convert corpus.jsonl -o {suffix}",
                f"{hands / seconds:,.0f} hands/s",
                f"{size_mb:,.0f} MB of JSON Lines in {seconds:.1f} s, peak memory "
                f"{peak / 1024:,.0f} MB",
            )
        )
    return rows


def large_inputs(tmp: Path, quick: bool) -> list[tuple[str, str, str]]:
    """Large and hostile inputs, a row each: wall time and peak memory of the command.

    * a ~12 MB log, valid, and the same log with one R8 error (the diagnostic must
      not cost memory in proportion to the document);
    * one 50 MB line in JSON Lines, refused with ``-j 1`` and ``-j 2``;
    * a 50 MB input of every foreign format and of the text notation (a comment,
      a string, a code line), each refused or read."""
    import dataclasses

    from texas42_log.engine.rules import STANDARD
    from texas42_log.log.inert import dumps
    from texas42_log.play.generate import random_match

    rows: list[tuple[str, str, str]] = []
    size = 1_000_000 if quick else 12_000_000
    rules = dataclasses.replace(STANDARD, match_goal_marks=10_000)
    hands = 100
    doc = random_match(7, rules=rules, max_hands=hands)
    while len(dumps(doc, indent=1)) < size:  # a longer match of the same game
        hands = int(hands * size / len(dumps(doc, indent=1)) * 1.05) + 1
        doc = random_match(7, rules=rules, max_hands=hands)
    good = tmp / "big-valid.json"
    good.write_text(dumps(doc, indent=1))
    bad = tmp / "big-one-error.json"
    bad.write_text(good.read_text().replace('"bid": 3', '"bid": 2', 1))
    limit = ["--max-bytes", str(4 * size)]
    for name, path in (("valid", good), ("one R8 error", bad)):
        seconds, peak = run_sampled([*TEXAS42, "validate", str(path), "-q", *limit])
        rows.append(
            (
                f"validate a {path.stat().st_size / 1e6:.0f} MB log, {name}",
                f"{peak / 1024:,.0f} MB",
                f"peak memory; {len(doc['hands']):,} hands in {seconds:.1f} s (target: the error "
                "within 2× of valid)",
            )
        )
    mb = 5 if quick else 50
    body = b"x" * (mb * 1_000_000)
    line = tmp / "long-line.jsonl"
    line.write_bytes(b'{"format": "texas42-log", "x-pad": "' + body + b'"}\n')
    for j in ("1", "2"):
        seconds, peak = run_sampled([*TEXAS42, "validate", str(line), "-j", j])
        rows.append(
            (
                f"a {mb} MB JSON Lines line, -j {j}",
                f"{seconds:.2f} s",
                f"refused; peak memory {peak / 1024:,.0f} MB",
            )
        )
    foreign = {
        "text notation, one comment": (
            "big.t42",
            b'[Format "texas42-log"]\nHand 1: dealer A {' + body + b"}\n",
        ),
        "tricksy bundle, one string": (
            "big.tricksy.json",
            b'{"seats": {}, "config": {}, "events": [], "x": "' + body + b'"}',
        ),
        "plunge code, one line": ("big.plunge", b"v1t3" + b"5" * len(body) + b"\n"),
        "plunge record, one string": (
            "big.plunge.json",
            b'{"schema": "plunge-hand-v2", "code": "' + body + b'"}',
        ),
        "texas-42 receipt, one line": (
            "big.receipt",
            b"rob player self-play verification: PASS\n" + body + b"\n",
        ),
        "JSON log, one string": (
            "big-string.json",
            b'{"format": "texas42-log", "version": "1.0", "x": "' + body + b'"}',
        ),
    }
    for what, (name, data) in foreign.items():
        path = tmp / name
        path.write_bytes(data)
        seconds, peak = run_sampled([*TEXAS42, "validate", str(path)])
        rows.append(
            (
                f"{mb} MB {what}",
                f"{seconds:.2f} s",
                f"peak memory {peak / 1024:,.0f} MB (target < 10 s, < 500 MB)",
            )
        )
        path.unlink()
    return rows


def cold_start(corpus: Path) -> list[tuple[str, str, str]]:
    one = corpus.with_name("one.json")
    one.write_bytes(corpus.read_bytes().splitlines()[0])
    best = min(cli_run(["validate", str(one)]) for _ in range(7))
    env_note = "python -m texas42_log validate one-match.json"
    return [("cold start", f"{best:.2f} s", f"{env_note}; target < 0.3 s")]


def live_play(quick: bool) -> list[tuple[str, str, str]]:
    """Game: random matches played through push (each action checked) with legal_actions
    at every moment; and the cost of a view and a log of the moment."""
    import random as _random
    import time as _time

    from texas42_log import Game

    n = 20 if quick else 200
    start = _time.perf_counter()
    actions = 0
    games = []
    for k in range(n):
        g = Game("standard", seed=k)
        rng = _random.Random(k)
        while g.to_act is not None:
            g.push(rng.choice(g.legal_actions()))
            actions += 1
        games.append(g)
    took = _time.perf_counter() - start
    mid = Game("standard", seed=1)
    rng = _random.Random(1)
    for _ in range(40):
        mid.push(rng.choice(mid.legal_actions()))
    t0 = _time.perf_counter()
    for _ in range(20):
        mid.view("B")
    view_ms = (_time.perf_counter() - t0) / 20 * 1000
    t0 = _time.perf_counter()
    for _ in range(20):
        mid.to_json()
    log_ms = (_time.perf_counter() - t0) / 20 * 1000
    return [
        (
            "Game: random matches",
            f"{n / took:.0f} /s",
            f"{actions / took:,.0f} actions/s, legal_actions() at every one ({n} matches)",
        ),
        ("Game.view mid-match", f"{view_ms:.1f} ms", "hand 2 or so, through the log's view model"),
        (
            "Game.to_json mid-match",
            f"{log_ms:.2f} ms",
            "what texas42 record writes after every entry",
        ),
    ]


def open_hand(quick: bool) -> list[tuple[str, str, str]]:
    """The open-hand solver on a fixed set of random deals, one core: the value of a
    full hand, the full analysis of a recorded hand (every play and its alternatives,
    a hand played to all 7 tricks), the makeable table; node counts beside the times,
    and the positions an exhaustive backward induction of the same deals visits."""
    import random as _random
    import statistics
    import time as _time

    from texas42_log.analysis.open_hand import HandAnalysis, analyze_hand, makeable_table
    from texas42_log.engine.auction import BidKind, Contract
    from texas42_log.engine.hand import PlayState
    from texas42_log.engine.presets import PRESETS
    from texas42_log.engine.rules import STANDARD
    from texas42_log.engine.solver import Solver, count_states
    from texas42_log.engine.tiles import TILES
    from texas42_log.engine.trumps import Trump
    from texas42_log.play.generate import random_match

    n = 6 if quick else 40
    deals = []
    for k in range(n):
        rng = _random.Random(f"bench-open-hand:{k}")
        tiles = list(TILES)
        rng.shuffle(tiles)
        deals.append(
            (
                {s: set(tiles[i * 7 : (i + 1) * 7]) for i, s in enumerate("ABCD")},
                rng.choice(list(Trump)),
            )
        )
    from texas42_log.engine.native import TABLE_BITS, NativeSolver
    from texas42_log.engine.search import open_solver, solver_choice

    # The native search and the reference (as users had it: mypyc-compiled where the
    # build allows), each from a new solver on the same deals, in turn, in one run.
    times: dict[str, list[float]] = {"native": [], "reference": []}
    nodes: dict[str, list[int]] = {"native": [], "reference": []}
    for _ in range(3):
        for deal, trump in deals:
            state = PlayState(STANDARD, Contract("A", BidKind.POINTS, 30), trump, deal)
            for name, kind in (("native", NativeSolver), ("reference", Solver)):
                t0 = _time.perf_counter()
                solver = kind(state)
                solver.value(state)
                times[name].append(_time.perf_counter() - t0)
                nodes[name].append(solver.nodes)
    med = {k: statistics.median(v) for k, v in times.items()}
    rate = {k: sum(nodes[k]) / sum(times[k]) for k in times}
    probe = NativeSolver(
        PlayState(STANDARD, Contract("A", BidKind.POINTS, 30), Trump.SIXES, deals[0][0])
    )
    rows = [
        (
            "open hand: value of a full hand",
            f"{med['native'] * 1000:.2f} ms",
            f"native; median of {n} deals × 3 (p90 {_p90(times['native']) * 1000:.1f} ms); "
            f"median {statistics.median(nodes['native']):,.0f} nodes, {rate['native'] / 1e6:.1f} M "
            "nodes/s",
        ),
        (
            "open hand: the reference beside it",
            f"{med['reference'] * 1000:.1f} ms",
            f"the same deals in the same run: native {med['reference'] / med['native']:.1f}× "
            "sooner a full hand, "
            f"{rate['native'] / rate['reference']:.1f}× the nodes a second (reference "
            f"{rate['reference'] / 1e6:.2f} M nodes/s, median "
            f"{statistics.median(nodes['reference']):,.0f} nodes)",
        ),
        (
            "open hand: transposition table",
            f"{probe.table_bytes / 1024:,.0f} KiB",
            f"2^{TABLE_BITS} entries of 8 bytes a solver, allocated once and reused; the solver "
            "serving: "
            f"{solver_choice()}",
        ),
    ]
    tables, table_nodes = [], []
    for deal, _ in deals:
        t0 = _time.perf_counter()
        _, visited = makeable_table(STANDARD, "A", deal)
        tables.append(_time.perf_counter() - t0)
        table_nodes.append(visited)
    rows.append(
        (
            "open hand: makeable table",
            f"{statistics.median(tables):.2f} s",
            f"9 trump choices, median of {n} deals; median {statistics.median(table_nodes):,.0f} "
            "nodes",
        )
    )
    full, full_nodes, plays = [], [], []
    seed = 0
    rules = PRESETS["texas-42"]
    while len(full) < n:
        doc = random_match(20_000 + seed, rules=rules, preset="texas-42", max_hands=3)
        seed += 1
        for i, hand in enumerate(doc["hands"]):
            if "declaration" in hand and len(full) < n:
                t0 = _time.perf_counter()
                a = analyze_hand(rules, hand, i, table=False)
                full.append(_time.perf_counter() - t0)
                assert isinstance(a, HandAnalysis)
                full_nodes.append(a.nodes)
                plays.append(len(a.plays))
    rows.append(
        (
            "open hand: full analysis of a hand",
            f"{statistics.median(full):.2f} s",
            "every play and its alternatives, all 7 tricks recorded "
            f"({statistics.median(plays):.0f} plays); "
            f"median of {n} hands; median {statistics.median(full_nodes):,.0f} nodes",
        )
    )
    k = 1 if quick else 3
    counted, solved = [], []
    for deal, trump in deals[:k]:
        state = PlayState(STANDARD, Contract("A", BidKind.POINTS, 30), trump, deal)
        counted.append(count_states(state))
        served = open_solver(state)
        served.value(state)
        solved.append(served.nodes)
    rows.append(
        (
            "open hand: exhaustive states",
            f"{statistics.median(counted):,.0f}",
            f"positions a backward induction of the same deal visits (median of {k}); the solver "
            "visits "
            f"{statistics.median(solved):,.0f} "
            f"({statistics.median(solved) / statistics.median(counted):.2%})",
        )
    )
    return rows


def fair(quick: bool) -> list[tuple[str, str, str]]:
    """Fair analysis, one core: every play of a recorded hand (all 7 tricks), each from
    its player's own view, at 100 worlds a decision; worlds solved per second, the
    solver's node rate, and the play from which every world is enumerated instead."""
    import statistics

    from texas42_log.analysis.fair import decide
    from texas42_log.analysis.fair_hands import knowledge_at, legal_moves
    from texas42_log.engine.presets import PRESETS
    from texas42_log.log.model import Match
    from texas42_log.play.generate import random_match
    from texas42_log.views.visibility import hand_views

    rules = PRESETS["texas-42"]
    n = 1 if quick else 7
    hands: list[tuple[Match, int]] = []
    seed = 0
    while len(hands) < n:
        match = Match.model_validate(
            random_match(40_000 + seed, rules=rules, preset="texas-42", max_hands=2)
        )
        seed += 1
        for i, hand in enumerate(match.hands):
            if sum(1 for p in hand.plays if not p.rejected) == 28 and len(hands) < n:
                hands.append((match, i))
    times, solved, nodes, spent, enumerated_from = [], 0, 0, 0.0, []
    for match, i in hands:
        views = {s: hand_views(match, s, i) for s in "ABCD"}
        t0 = time.perf_counter()
        first_enumerated = None
        for k, p in enumerate(q for q in match.hands[i].plays if not q.rejected):
            knowledge = knowledge_at(views[p.seat], k, rules)
            if len(legal_moves(knowledge)) == 1:
                continue
            t1 = time.perf_counter()
            d = decide(knowledge, worlds=100, hand=i)
            spent += time.perf_counter() - t1
            solved += d.worlds
            nodes += d.nodes
            if d.enumerated and first_enumerated is None:
                first_enumerated = k + 1
        times.append(time.perf_counter() - t0)
        enumerated_from.append(first_enumerated or 29)
    import random

    from texas42_log.engine.search import solver_choice
    from texas42_log.play.game import Game

    hints: list[float] = []
    for g_seed in range(3 if quick else 12):
        game = Game("standard", seed=g_seed)
        g_rng = random.Random(g_seed)
        while game.play_state is None or game.play_state.to_play is None or game.play_state.played:
            acts = game.legal_actions()
            game.push(g_rng.choice([a for a in acts if str(a) != "pass"] or acts))
        t0 = time.perf_counter()
        game.hint(worlds=100)
        hints.append(time.perf_counter() - t0)
    return [
        (
            "fair: every play of a recorded hand",
            f"{statistics.median(times):.2f} s",
            f"28 plays, each from its player's view, 100 worlds a decision; median of {n} hands "
            f"(min {min(times):.2f} s, max {max(times):.2f} s; target ≤ 1 s); solver: "
            f"{solver_choice()}",
        ),
        (
            "fair: Game.hint at the first lead",
            f"{statistics.median(hints):.2f} s",
            f"100 worlds, 7 plays each; median of {len(hints)} games (min {min(hints):.2f} s, "
            f"max {max(hints):.2f} s; target ≤ 0.3 s)",
        ),
        (
            "fair: worlds solved",
            f"{solved / spent:,.0f} worlds/s",
            "each world: the exact value of every legal play; the solver at "
            f"{nodes / spent / 1e6:.2f} M nodes/s",
        ),
        (
            "fair: every world enumerated from",
            f"play {statistics.median(enumerated_from):.0f}",
            "median: from then on at most 256 worlds agree with the seat's view, so all are used "
            "(exact)",
        ),
    ]


def fair_corpus(quick: bool) -> list[tuple[str, str, str]]:
    """The fair analysis on every core: the worked example's report, and a corpus's
    annotation on one core, on two and on a 2-worker LocalCluster (the same lines)."""
    import statistics

    from texas42_log.log.inert import dumps
    from texas42_log.play.generate import random_match

    worked = str(ROOT / "fixtures" / "valid" / "seed-worked-example.json")
    rows = []
    for jobs, plays_only in ((1, False), (2, False), (1, True), (2, True)):
        extra = ["--no-auction"] if plays_only else []
        times = [
            cli_run(["analyze", worked, "--fair", "--no-progress", "-j", str(jobs), *extra])
            for _ in range(1 if quick else 3)
        ]
        rows.append(
            (
                f"fair: the worked example, -j {jobs}" + (", --no-auction" if plays_only else ""),
                f"{statistics.median(times):.2f} s",
                "texas42 analyze fixtures/valid/seed-worked-example.json --fair (11 hands, 100 "
                f"worlds a decision{'; the plays only' if plays_only else ', every call too'}), "
                f"median of {len(times)}"
                + ("; target ≤ 6 s on 2 cores" if jobs == 2 and plays_only else ""),
            )
        )
    n = 10 if quick else 100
    worlds = "20" if quick else "100"
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "season.jsonl"
        corpus.write_text(
            "".join(dumps(random_match(70_000 + i, max_hands=2)) + "\n" for i in range(n)),
            "utf-8",
        )
        hands = sum(
            1
            for line in corpus.read_text("utf-8").splitlines()
            for h in json.loads(line)["hands"]
            if h.get("declaration")
        )
        outs = {}
        for jobs in (1, 2):
            out = Path(tmp) / f"out-{jobs}.jsonl"
            t = cli_run(
                ["analyze", str(corpus), "--fair", "--annotate", "--worlds", worlds, "--no-table"]
                + ["--no-auction", "--no-progress", "-j", str(jobs), "-o", str(out)]
            )
            outs[jobs] = out.read_text("utf-8")
            rows.append(
                (
                    f"fair: a {n}-match corpus, -j {jobs}",
                    f"{hands / t:.2f} hands/s",
                    f"{hands} hands with a contract, --fair --annotate --worlds {worlds} "
                    f"--no-table --no-auction: {t:.1f} s",
                )
            )
        sys.path.insert(0, str(ROOT / "examples"))
        import dask_fair
        from dask.distributed import Client, LocalCluster

        start = time.perf_counter()
        with (
            LocalCluster(
                n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
            ) as cluster,
            Client(cluster) as client,
        ):
            up = time.perf_counter()
            got = dask_fair.season(
                [str(corpus)], client, worlds=int(worlds), blocksize="64KiB", auction=False
            )
            t = time.perf_counter() - up
        total = time.perf_counter() - start
        same = "".join(got) == outs[1] == outs[2]
        rows.append(
            (
                f"fair: a {n}-match corpus, LocalCluster",
                f"{hands / t:.2f} hands/s",
                f"2 workers, 1 thread each: {t:.1f} s ({total:.1f} s with the cluster's start); "
                f"lines equal to the local runs': {'yes' if same else 'NO'}",
            )
        )
    return rows


def viewer(quick: bool) -> list[tuple[str, str, str]]:
    """The viewer: a match's page (every moment of every hand, one observer), its
    size, one moment as an SVG picture, and every moment in the terminal's text."""
    import statistics

    from texas42_log.log.model import Match
    from texas42_log.play.generate import random_match
    from texas42_log.views.html import render_html
    from texas42_log.views.svg import render_svg
    from texas42_log.views.text import view_lines
    from texas42_log.views.visibility import match_views

    matches = [Match.model_validate(random_match(300 + k)) for k in range(3 if quick else 20)]
    page_ms: list[float] = []
    sizes: list[int] = []
    moments = 0
    for m in matches:
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            page = render_html(m, "public", "en")
            best = min(best, time.perf_counter() - start)
        page_ms.append(best * 1000)
        sizes.append(len(page.encode("utf-8")))
        moments += sum(len(h) for h in match_views(m, "public"))
    views = [v for m in matches for h in match_views(m, "public") for v in h]
    start = time.perf_counter()
    for v in views:
        render_svg(v, "en")
    svg_ms = (time.perf_counter() - start) * 1000 / len(views)
    start = time.perf_counter()
    for v in views:
        view_lines(v, "en")
    text_us = (time.perf_counter() - start) * 1e6 / len(views)
    hands = sum(len(m.hands) for m in matches)
    return [
        (
            "viewer: HTML page of a match",
            f"{statistics.median(page_ms):,.0f} ms",
            f"median of {len(matches)} random matches ({hands / len(matches):.1f} hands, "
            f"{moments / len(matches):,.0f} "
            f"moments each); page median {statistics.median(sizes) / 1024:,.0f} KiB",
        ),
        (
            "viewer: one moment as SVG",
            f"{svg_ms:.2f} ms",
            f"mean over {len(views):,} moments (render --to svg)",
        ),
        (
            "viewer: one moment as text",
            f"{text_us:,.0f} µs",
            "mean, English (replay, replay --step)",
        ),
    ]


def bots(quick: bool) -> list[tuple[str, str, str]]:
    """The bots: random-bot matches (tables) a second through the arena, on one core
    and on every core; the sampling bot's seconds per decision at its default worlds
    (its seat's bids, declarations and plays in real arena deals against rule)."""
    import statistics

    from texas42_log.bots import SamplingBot, bot_factory
    from texas42_log.bots.arena import play_deal
    from texas42_log.corpus.arena import run_deals
    from texas42_log.corpus.validation import default_jobs

    deals = 50 if quick else 500
    factories = (bot_factory("random"), bot_factory("random"))
    start = time.perf_counter()
    for i in range(deals):
        play_deal(i, factories, ("random", "random"), seed=1)
    one = 2 * deals / (time.perf_counter() - start)
    cores = default_jobs()
    start = time.perf_counter()
    for _ in run_deals(("random", "random"), deals * 2, seed=1, jobs=cores):
        pass
    every = 4 * deals / (time.perf_counter() - start)

    spent: dict[str, list[float]] = {"call": [], "declare": [], "play": []}

    class Timed:
        def __init__(self, seed: int) -> None:
            self.bot = SamplingBot(seed)

        def act(self, s: Any) -> Any:
            t = time.perf_counter()
            answer = self.bot.act(s)
            if len(s.legal) > 1:
                spent[s.kind].append(time.perf_counter() - t)
            return answer

    hands_seen = 2 if quick else 12
    for i in range(hands_seen):
        play_deal(i, (Timed, bot_factory("rule")), ("sampling", "rule"), seed=5)
    every_decision = [x for xs in spent.values() for x in xs]
    # Each deal: two tables, the sampling bot at two seats of each.
    per_hand_seat = sum(every_decision) / (hands_seen * 4)
    return [
        (
            "bots: random-bot matches, one core",
            f"{one:,.0f} matches/s",
            f"one-hand matches (tables) through the arena, {deals} duplicate deals; every decision "
            "from the seat's views",
        ),
        (
            f"bots: random-bot matches, {cores} cores",
            f"{every:,.0f} matches/s",
            f"texas42 arena's pool, {2 * deals} deals",
        ),
        (
            "bots: sampling, a decision",
            f"{statistics.median(every_decision):.3f} s",
            f"median of {len(every_decision)} real choices (more than one legal action) at its "
            "default worlds; "
            f"plays {statistics.median(spent['play']):.3f} s (p90 {_p90(spent['play']):.2f} s), "
            f"bids {statistics.median(spent['call'] or [0]):.2f} s",
        ),
        (
            "bots: sampling, a hand a seat",
            f"{per_hand_seat:.2f} s",
            "every decision of one seat in one hand (bids, declaration, plays), mean of "
            f"{hands_seen * 4} seat-hands "
            "(target ≤ 0.2 s)",
        ),
    ]


def _p90(xs: list[float]) -> float:
    return sorted(xs)[int(0.9 * (len(xs) - 1))] if xs else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--quick", action="store_true", help="small sizes: a smoke run in seconds")
    ap.add_argument(
        "--gb", type=float, default=1.0, help="size of the memory corpus in GB (default 1)"
    )
    ap.add_argument(
        "--only",
        choices=[
            "open-hand",
            "live-play",
            "viewer",
            "fair",
            "fair-corpus",
            "bots",
            "board",
            "auction",
            "table",
        ],
        help="run only these rows",
    )
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    if args.only:
        from tests.benchmarks.bench_auction import auction
        from tests.benchmarks.bench_board import annotate_bulk, board, board_comments
        from tests.benchmarks.bench_table import table

        rows = {
            "open-hand": open_hand,
            "live-play": live_play,
            "viewer": viewer,
            "fair": fair,
            "fair-corpus": fair_corpus,
            "bots": bots,
            "board": lambda quick: board(quick) + board_comments(quick) + annotate_bulk(quick),
            "auction": auction,
            "table": table,
        }[args.only](args.quick)
        _print(rows, args.quick)
        return
    with tempfile.TemporaryDirectory() as tmp:
        small = Path(tmp) / "stages.jsonl"
        generate(small, 60 if args.quick else 1500, seed=1)
        rows = stages(small)
        rows += conversions(small)
        large = Path(tmp) / "large.jsonl"
        generate(large, 200 if args.quick else 11_000, seed=2)
        rows += jobs(large)
        rows += convert_large(large)
        rows += memory(large, int((0.01 if args.quick else args.gb) * 1e9))
        rows += large_inputs(Path(tmp), args.quick)
        rows += cold_start(small)
        rows += live_play(args.quick)
        rows += open_hand(args.quick)
        rows += viewer(args.quick)
        rows += bots(args.quick)
    _print(rows, args.quick)


def _print(rows: list[tuple[str, str, str]], quick: bool) -> None:
    width = max(len(r[0]) for r in rows)
    value = max(len(r[1]) for r in rows)
    cpu = os.cpu_count()
    print(
        f"texas42-log benchmark · Python {sys.version.split()[0]} · {cpu} cores · "
        f"{'quick' if quick else 'full'}"
    )
    for name, v, note in rows:
        print(f"{name:<{width}}  {v:>{value}}  {note}")


if __name__ == "__main__":
    main()
