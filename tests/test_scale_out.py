"""The scale-out example (docs/scale-out.md) runs locally and agrees with `texas42 validate`."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from texas42_log.corpus.validation import validate_records
from texas42_log.files.reader import read_records
from texas42_log.play.generate import random_match

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "examples"))

import dask_validate  # noqa: E402


def test_dask_bag_totals_equal_the_validators(tmp_path: Path) -> None:
    rng = random.Random(3)
    lines = []
    for seed in range(120):
        doc = random_match(seed)
        if seed % 10 == 3:  # a wrong stated score (R5)
            hand = next(h for h in doc["hands"] if "outcome" in h)
            hand["outcome"]["score"]["B+D"] += 1
        lines.append(json.dumps(doc))
    rng.shuffle(lines)
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text("\n".join(lines[:70]) + "\n", "utf-8")
    b.write_text("\n".join(lines[70:]) + "\n", "utf-8")

    # Small blocks: the bag has several partitions per file, split on newlines.
    import dask.bag as db

    assert db.read_text([str(a), str(b)], blocksize="200KiB").npartitions >= 4
    totals = dask_validate.summarize([str(a), str(b)], blocksize="200KiB", scheduler="processes")

    results = list(validate_records(read_records([str(a), str(b)])))
    assert totals["matches"] == len(results) == 120
    assert totals["hands"] == sum(r.hands for r in results)
    assert totals["invalid"] == sum(1 for r in results if not r.valid) == 12
    assert totals["valid"] == 108
    assert totals["rules"] == {"R5": 12}
