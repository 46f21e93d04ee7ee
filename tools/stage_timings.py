"""Rough per-stage throughput of validation, in hands per second (one core).

Run: python tools/stage_timings.py [MATCHES]   (default 300 random matches)

A first measurement for the corpus-speed work; not a pass/fail test.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from texas42_log.check import check_match  # noqa: E402
from texas42_log.generate import random_match  # noqa: E402
from texas42_log.model import Match  # noqa: E402
from texas42_log.validate import _schema_validator, validate_bytes  # noqa: E402


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    texts = [json.dumps(random_match(seed)) for seed in range(n)]
    docs = [json.loads(t) for t in texts]
    hands = sum(len(d["hands"]) for d in docs)
    models = [Match.model_validate(d) for d in docs]

    def rate(items: list[Any], fn: Callable[[Any], object]) -> float:
        start = time.perf_counter()
        for item in items:
            fn(item)
        return hands / (time.perf_counter() - start)

    validator = _schema_validator()
    rows = [
        ("json.loads", rate(texts, json.loads)),
        ("jsonschema", rate(docs, lambda d: list(validator.iter_errors(d)))),
        ("pydantic", rate(docs, Match.model_validate)),
        ("replay (check_match)", rate(models, check_match)),
        ("validate_bytes (all)", rate(texts, validate_bytes)),
    ]
    print(f"{n} matches, {hands} hands")
    for name, value in rows:
        print(f"{name:22} {value:10,.0f} hands/s")


if __name__ == "__main__":
    main()
