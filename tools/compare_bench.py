"""Compare the benchmark's rows between two checkouts, on this machine, the median of
runs taken in turn (before, after, before, after, …), so that a load on the machine
falls on both alike.

    .venv/bin/python tools/compare_bench.py BEFORE AFTER [--runs 3] [--rows stages,jobs]
    .venv/bin/python tools/compare_bench.py BEFORE AFTER --quick --runs 1   # a glance (CI)

BEFORE and AFTER are checkouts (``git worktree add /tmp/before REV``), each with its
own ``.venv`` installed (``python3 -m venv .venv && .venv/bin/pip install -e '.[test]'``).
The corpora are made once, by AFTER, and read by both. Each run calls the named row
functions of that checkout's own ``tests/benchmarks/bench.py`` in a fresh process.
Prints each row's median before and after and the change, worse rows marked; exits 1
when a row is more than ``--slower`` (default 10 %) worse.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

#: The rows compared by default, with the corpus each takes ("small", "large" or none).
ROWS = {
    "stages": "small",
    "conversions": "small",
    "jobs": "large",
    "cold_start": "small",
    "live_play": None,
}

#: The other row functions (each runs on its own, with no corpus): named with ``--rows``.
OTHER_ROWS = (
    "auction",
    "board",
    "fair",
    "fair_corpus",
    "open_hand",
    "viewer",
    "bots",
    "table",
)

#: The corpora's sizes (matches) and seeds; ``--quick``'s.
SIZES = {"small": (1500, 1), "large": (11_000, 2)}
QUICK_SIZES = {"small": (300, 1), "large": (2_000, 2)}

_RUN = """
import json, sys
from pathlib import Path
sys.path.insert(0, "tests/benchmarks")
sys.path.insert(0, ".")
import importlib, importlib.util
name, corpus, quick = sys.argv[1], sys.argv[2], sys.argv[3] == "quick"
# an older checkout may lack a later module (bench_table): its rows are then missing
names = ("bench", "bench_auction", "bench_board", "bench_table")
modules = [importlib.import_module(m) for m in names if importlib.util.find_spec(m)]
fn = next((getattr(m, name) for m in modules if hasattr(m, name)), None)
rows = [] if fn is None else fn(quick) if corpus == "-" else fn(Path(corpus))
print(json.dumps([list(r) for r in rows]))
"""

_NUMBER = re.compile(r"([0-9][0-9,]*\.?[0-9]*)\s*(hands/s|/s|actions/s|ms|µs|s|MB|×)?")


def value(text: str) -> tuple[float, bool] | None:
    """A row's figure and whether more is better (rates), or None (no figure)."""
    m = _NUMBER.search(text)
    if m is None:
        return None
    number = float(m.group(1).replace(",", ""))
    unit = m.group(2) or ""
    if unit == "×":
        return None  # a ratio of two rows: the rows themselves are compared
    return number, unit.endswith("/s")


def run_rows(tree: Path, name: str, corpus: str, quick: bool = False) -> list[list[str]]:
    out = subprocess.run(
        [
            str(tree / ".venv" / "bin" / "python"),
            "-c",
            _RUN,
            name,
            corpus,
            "quick" if quick else "full",
        ],
        cwd=tree,
        check=True,
        capture_output=True,
        text=True,
    )
    rows: list[list[str]] = json.loads(out.stdout.strip().splitlines()[-1])
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument(
        "--rows",
        default=",".join(ROWS),
        help=f"row functions of bench.py: {', '.join(ROWS)} (the default), {', '.join(OTHER_ROWS)}",
    )
    ap.add_argument("--slower", type=float, default=0.10, help="the worst change allowed")
    ap.add_argument(
        "--quick",
        action="store_true",
        help="small corpora and the rows' quick settings: a glance (CI), not a measure",
    )
    args = ap.parse_args()
    names = [n.strip() for n in args.rows.split(",") if n.strip()]
    unknown = [n for n in names if n not in ROWS and n not in OTHER_ROWS]
    if unknown:
        ap.error(f"no such row function: {', '.join(unknown)} (see --help)")
    figures: dict[tuple[str, str], list[tuple[float, bool]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        corpora = {"small": Path(tmp) / "small.jsonl", "large": Path(tmp) / "large.jsonl"}
        py = str(args.after / ".venv" / "bin" / "python")
        for kind, (n, seed) in (QUICK_SIZES if args.quick else SIZES).items():
            if any(ROWS.get(name) == kind for name in names):
                subprocess.run(
                    [py, "-m", "texas42_log", "generate", "-n", str(n), "--seed", str(seed)]
                    + ["-o", str(corpora[kind]), "--no-progress"],
                    cwd=args.after,
                    check=True,
                )
        for k in range(args.runs):
            for side, tree in (("before", args.before), ("after", args.after)):
                for name in names:
                    kind = ROWS.get(name)
                    corpus = "-" if kind is None else str(corpora[kind])
                    for row, shown, _ in run_rows(tree, name, corpus, args.quick):
                        got = value(shown)
                        if got is not None:
                            figures.setdefault((row, side), []).append(got)
                print(f"run {k + 1}/{args.runs}: {side} done", file=sys.stderr)
    worst = 0.0
    rows = sorted({row for row, _ in figures}, key=list(dict.fromkeys(r for r, _ in figures)).index)
    print(f"{'row':<40} {'before':>14} {'after':>14} {'change':>8}")
    for row in rows:
        if (row, "before") not in figures or (row, "after") not in figures:
            # a row one checkout's benchmark lacks: shown, never compared
            side = "after" if (row, "after") in figures else "before"
            shown = f"{statistics.median(v for v, _ in figures[(row, side)]):>14,.3f}"
            cells = f"{'—':>14} {shown}" if side == "after" else f"{shown} {'—':>14}"
            print(f"{row:<40} {cells} {'':>8}")
            continue
        higher = figures[(row, "after")][0][1]
        before = statistics.median(v for v, _ in figures[(row, "before")])
        after = statistics.median(v for v, _ in figures[(row, "after")])
        if before == 0:
            continue
        change = (after - before) / before if higher else (before - after) / before
        worse = -change
        worst = max(worst, worse)
        mark = "  worse" if worse > args.slower else ""
        print(f"{row:<40} {before:>14,.3f} {after:>14,.3f} {change:>+7.1%}{mark}")
    print(f"(+ is better; medians of {args.runs} runs each, taken in turn)")
    sys.exit(1 if worst > args.slower else 0)


if __name__ == "__main__":
    main()
