"""The scale-out example (docs/scale-out.md) runs locally and agrees with `texas42 validate`."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

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


@pytest.mark.slow
@pytest.mark.long
def test_a_season_on_a_two_worker_local_cluster_equals_the_local_run(tmp_path: Path) -> None:
    """docs/scale-out.md: the fair analysis of a corpus on a Dask cluster (a LocalCluster
    of 2 workers) writes the lines `texas42 analyze --fair --annotate` writes locally."""
    import subprocess

    import dask_fair
    from dask.distributed import Client, LocalCluster

    lines = [json.dumps(random_match(900 + i)) for i in range(4)]
    bad = json.loads(lines[1])
    bad["hands"][0]["plays"][0]["tile"] = "[9|9]"  # invalid: left out by both
    lines.insert(2, json.dumps(bad))
    corpus = tmp_path / "season.jsonl"
    corpus.write_text("\n".join(lines) + "\n", "utf-8")
    local = tmp_path / "local.jsonl"
    ran = subprocess.run(
        [sys.executable, "-m", "texas42_log", "analyze", str(corpus), "--fair", "--annotate"]
        + ["--worlds", "6", "--no-table", "--no-progress", "-o", str(local)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert ran.returncode == 1 and "invalid, left out" in ran.stderr, ran.stderr
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        assert len(client.scheduler_info()["workers"]) == 2
        got = dask_fair.season([str(corpus)], client, worlds=6, seed=42, blocksize="16KiB")
    assert db_partitions(corpus) >= 2
    assert "".join(got) == local.read_text("utf-8")
    assert len(got) == 4


def db_partitions(corpus: Path) -> int:
    import dask.bag as db

    return int(db.read_text([str(corpus)], blocksize="16KiB").npartitions)
