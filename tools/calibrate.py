"""How honest is the fair makeable table? Its chances beside what happened.

Run: .venv/bin/python tools/calibrate.py [--deals 500] [--seed 2026] [--worlds 100] [--jobs 2]

1. Plays ``texas42 arena sampling-open rule --deals N --seed S --logs DIR`` (duplicate
   deals: each at two tables) — the hands of bots whose play is known and repeatable.
   ``sampling-open`` bids boldly from open-hand worlds, so its contracts span every
   chance from sure to hopeless; the fit made from them is what ``sampling`` bids by.
2. For each hand with a contract (a plain trump declared), the bidder's table from its
   own view (analysis/bidding.py, ``--worlds`` worlds): the chance of the bid it won with
   the trump it declared.
3. Groups the contracts by that chance (0–10 %, …, 90–100 %) beside how often they
   were made as the bots played them, and how often they were makeable with every hand
   open on the real deal (the open-hand value at the first lead).
4. Fits logit(made as played) = a + b · logit(chance) by maximum likelihood (Newton's
   method) — the correction analysis/bidding.py's CORRECTION holds.

Prints the table as Markdown (docs/analysis.md keeps it) and the fit; ``--json OUT`` writes
every contract's numbers.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def one(path: str, worlds: int, seed: int) -> dict[str, object] | None:
    from texas42_log import read_match
    from texas42_log.analysis.auction_fair import plan_auction
    from texas42_log.analysis.bidding import Bid, seat_worlds
    from texas42_log.analysis.open_hand import HandAnalysis, analyze_match_doc
    from texas42_log.log.check import effective_rules
    from texas42_log.log.model import match_json

    match = read_match(Path(path).read_bytes())
    plan = plan_auction(match, 0)
    if plan.contract is None or plan.declaration is None:
        return None
    c = plan.contract
    seat, row = plan.declaration
    if row.special is not None or c.special is not None:
        return None
    rules = effective_rules(match)
    sw = seat_worlds(rules, c.bidder, 0, plan.tiles[c.bidder], worlds=worlds, seed=seed)
    bid = Bid(c.kind, c.bid)
    made_worlds = sw.made(bid, row)
    chance = sum(made_worlds) / len(made_worlds)
    (a,) = analyze_match_doc(rules, match_json(match), plays=False, table=False, only=0)
    assert isinstance(a, HandAnalysis)
    outcome = match.hands[0].outcome
    result = None if outcome is None else outcome.result
    return {
        "log": Path(path).name,
        "bidder": match.players.model_dump().get(c.bidder) if match.players else None,
        "bid": bid.key,
        "trump": row.key,
        "chance": chance,
        "made": result == "made",
        "makeable": a.makeable,
    }


def logit(p: float) -> float:
    p = min(0.995, max(0.005, p))
    return math.log(p / (1 - p))


def sigmoid(z: float) -> float:
    """1 / (1 + exp(−z)), without overflow at either end."""
    if z >= 0:
        return 1 / (1 + math.exp(-z))
    e = math.exp(z)
    return e / (1 + e)


def fit(xs: list[float], ys: list[bool]) -> tuple[float, float] | None:
    """Maximum likelihood of P(y) = 1 / (1 + exp(-(a + b·x))), by Newton's method; None
    when the data cannot fix it (too few contracts, all made or all set, or separable)."""
    if len(set(ys)) < 2 or len(set(xs)) < 2:
        return None
    a, b = 0.0, 1.0
    for _ in range(50):
        ga = gb = haa = hab = hbb = 0.0
        for x, y in zip(xs, ys, strict=True):
            p = sigmoid(a + b * x)
            r = (1.0 if y else 0.0) - p
            w = p * (1 - p)
            ga += r
            gb += r * x
            haa += w
            hab += w * x
            hbb += w * x * x
        det = haa * hbb - hab * hab
        if det <= 0:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if not (abs(a) < 1e6 and abs(b) < 1e6):
            return None  # diverging: the outcomes are separated by the chance
        if abs(da) + abs(db) < 1e-10:
            return a, b
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=500)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--worlds", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--logs", help="an arena folder already played (skips step 1)")
    ap.add_argument("--json", help="write every contract's numbers here")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        logs = Path(args.logs) if args.logs else Path(tmp) / "arena"
        if not args.logs:
            subprocess.run(
                [
                    str(Path(sys.executable).parent / "texas42"),
                    "arena",
                    "sampling-open",
                    "rule",
                    "--deals",
                    str(args.deals),
                    "--seed",
                    str(args.seed),
                    "--jobs",
                    str(args.jobs),
                    "--logs",
                    str(logs),
                ],
                check=True,
                stdout=subprocess.DEVNULL,
            )
        paths = sorted(str(p) for p in logs.glob("*.json"))
        with ProcessPoolExecutor(args.jobs) as pool:
            rows = [
                r
                for r in pool.map(
                    one, paths, [args.worlds] * len(paths), [args.seed] * len(paths), chunksize=8
                )
                if r is not None
            ]
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    print(
        f"{len(rows)} contracts of {len(paths)} hands ({args.deals} duplicate deals, "
        f"seed {args.seed}, {args.worlds} worlds a table)\n"
    )
    print("| table's chance | contracts | mean chance | made as played | makeable open-handed |")
    print("|---|---|---|---|---|")
    for k in range(10):
        lo, hi = k / 10, (k + 1) / 10
        group = [r for r in rows if lo <= float(r["chance"]) < hi or (k == 9 and r["chance"] == 1)]  # type: ignore[arg-type]
        if not group:
            print(f"| {k * 10}–{k * 10 + 10} % | 0 | – | – | – |")
            continue
        n = len(group)
        mean = sum(float(r["chance"]) for r in group) / n  # type: ignore[arg-type]
        made = sum(1 for r in group if r["made"]) / n
        makeable = sum(1 for r in group if r["makeable"]) / n
        print(f"| {k * 10}–{k * 10 + 10} % | {n} | {mean:.0%} | {made:.0%} | {makeable:.0%} |")
    total = len(rows)
    if not total:
        print("\nno contract to fit")
        return 0
    xs = [logit(float(r["chance"])) for r in rows]  # type: ignore[arg-type]
    made = fit(xs, [bool(r["made"]) for r in rows])
    makeable = fit(xs, [bool(r["makeable"]) for r in rows])
    print(
        f"\nall: mean chance {sum(float(r['chance']) for r in rows) / total:.1%}, "  # type: ignore[arg-type]
        f"made as played {sum(1 for r in rows if r['made']) / total:.1%}, "
        f"makeable open-handed {sum(1 for r in rows if r['makeable']) / total:.1%}"
    )
    for name, got in (("made as played:      ", made), ("makeable open-handed:", makeable)):
        if got is None:
            print(f"fit, {name} not enough contracts of both outcomes to fit")
        else:
            print(f"fit, {name} logit(q) = {got[0]:+.3f} {got[1]:+.3f} · logit(p)")
    if made is not None:
        for p in (0.3, 0.5, 0.6, 0.7, 0.8, 0.9):
            q = sigmoid(made[0] + made[1] * logit(p))
            print(f"  table {p:.0%} → made as played {q:.0%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
