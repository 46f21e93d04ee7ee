"""A long structural fuzz run over every reader (the mutations and oracle of
tests/fuzzing.py), for developers: the test suite runs a bounded version.

    .venv/bin/python tools/fuzz.py --inputs 1000000 --jobs 2

Each worker draws random mutation lists (seeded: the same --seed, the same run)
and feeds the mutated inputs to the oracle. At the end: inputs run per format,
the outcomes (refused / judged / valid), the slowest input, and every finding —
an exception other than the documented refusals — with the sample and the exact
operation list that reproduces it (tests/fuzzing.py: ``mutate(sample, ops, others)``).
Exit 1 if anything was found.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fuzzing import OPS, PAYLOADS, mutate, oracle, samples  # noqa: E402


def work(seed: int, count: int, deep_every: int) -> dict[str, Any]:
    rng = random.Random(seed)
    pool = samples()
    others = [s.data for s in pool]
    outcomes: Counter[str] = Counter()
    per_format: Counter[str] = Counter()
    findings: list[dict[str, Any]] = []
    slowest = (0.0, "", [])
    for n in range(count):
        k = rng.randrange(len(pool))
        s = pool[k]
        ops = [
            (rng.choice(OPS), rng.random(), rng.random(), rng.randrange(4 * len(PAYLOADS)))
            for _ in range(rng.randint(1, 4))
        ]
        try:
            data = mutate(s.data, ops, others)
        except (RecursionError, ValueError, MemoryError):
            outcomes["not mutated"] += 1  # the mutation itself could not be made
            continue
        start = time.perf_counter()
        try:
            outcomes[oracle(s.fmt, data, deep=n % deep_every == 0)] += 1
        except Exception as e:  # a finding: keep what reproduces it
            outcomes["finding"] += 1
            if len(findings) < 50:
                findings.append(
                    {
                        "sample": k,
                        "format": s.fmt,
                        "ops": ops,
                        "error": f"{type(e).__name__}: {e}"[:300],
                        "where": traceback.format_exc().strip().splitlines()[-3:],
                    }
                )
        took = time.perf_counter() - start
        if took > slowest[0]:
            slowest = (took, s.fmt, ops)
        per_format[s.fmt] += 1
    return {
        "outcomes": dict(outcomes),
        "formats": dict(per_format),
        "findings": findings,
        "slowest": slowest,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--inputs", type=int, default=100_000, help="how many mutated inputs in all")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--deep-every",
        type=int,
        default=20,
        help="every Nth valid input is also written back and rendered",
    )
    ap.add_argument("--batch", type=int, default=10_000)
    args = ap.parse_args()
    start = time.perf_counter()
    batches = [
        (args.seed * 1_000_003 + b, min(args.batch, args.inputs - b * args.batch), args.deep_every)
        for b in range((args.inputs + args.batch - 1) // args.batch)
    ]
    outcomes: Counter[str] = Counter()
    formats: Counter[str] = Counter()
    findings: list[dict[str, Any]] = []
    slowest = (0.0, "", [])
    with ProcessPoolExecutor(args.jobs) as ex:
        for _done, r in enumerate(ex.map(work, *zip(*batches, strict=False)), 1):
            outcomes.update(r["outcomes"])
            formats.update(r["formats"])
            findings += r["findings"]
            if r["slowest"][0] > slowest[0]:
                slowest = tuple(r["slowest"])  # type: ignore[assignment]
            total = sum(outcomes.values())
            print(
                f"\r{total:,} inputs, {outcomes.get('finding', 0)} findings, "
                f"{time.perf_counter() - start:,.0f} s",
                end="",
                file=sys.stderr,
                flush=True,
            )
    seconds = time.perf_counter() - start
    print(file=sys.stderr)
    report = {
        "inputs": sum(outcomes.values()),
        "seconds": round(seconds, 1),
        "inputs_per_second": round(sum(outcomes.values()) / seconds),
        "outcomes": dict(outcomes),
        "formats": dict(formats),
        "slowest_input": {"seconds": round(slowest[0], 3), "format": slowest[1], "ops": slowest[2]},
        "findings": findings,
    }
    print(json.dumps(report, indent=1))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
