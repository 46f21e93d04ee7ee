"""Validate a JSON Lines corpus with Dask bags — the pattern for data sets larger
than one machine.

Run locally:  .venv/bin/python examples/dask_validate.py corpus.jsonl [more.jsonl …]

Validation of one match is a pure function of its bytes
(:func:`texas42_log.corpus.validate_record`), so any engine that can map a
function over records can run it: here Dask reads the files in blocks
(``read_text`` splits JSON Lines on newlines, so a match never straddles two
partitions), maps the validator over each line, and reduces the verdicts to a
summary. On a cluster, point ``read_text`` at shared or object storage
(``s3://bucket/season-*.jsonl``) and create a ``dask.distributed.Client`` first;
nothing else changes. See docs/scale-out.md.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from typing import Any

import dask.bag as db

from texas42_log.corpus import Record, validate_record


def verdict(line: str) -> dict[str, Any]:
    """One line of a corpus → its verdict (what travels back to the driver is small)."""
    r = validate_record(Record("-", line.encode("utf-8")), text="none", as_json=False)
    return {"valid": r.valid, "hands": r.hands, "rules": r.rules}


def summarize(
    paths: list[str], *, blocksize: str = "64MiB", scheduler: str = "processes"
) -> dict[str, Any]:
    lines = db.read_text(paths, blocksize=blocksize).filter(lambda s: bool(s.strip()))
    verdicts = lines.map(verdict)
    totals = verdicts.fold(
        lambda acc, v: _add(acc, v), lambda a, b: _merge(a, b), initial=_empty()
    ).compute(scheduler=scheduler)
    return {**totals, "rules": dict(Counter(totals["rules"]).most_common())}


def _empty() -> dict[str, Any]:
    return {"matches": 0, "hands": 0, "valid": 0, "invalid": 0, "rules": {}}


def _add(acc: dict[str, Any], v: dict[str, Any]) -> dict[str, Any]:
    rules = dict(acc["rules"])
    for rule in v["rules"]:
        rules[rule] = rules.get(rule, 0) + 1
    return {
        "matches": acc["matches"] + 1,
        "hands": acc["hands"] + v["hands"],
        "valid": acc["valid"] + (1 if v["valid"] else 0),
        "invalid": acc["invalid"] + (0 if v["valid"] else 1),
        "rules": rules,
    }


def _merge(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    rules = dict(a["rules"])
    for rule, n in b["rules"].items():
        rules[rule] = rules.get(rule, 0) + n
    return {k: a[k] + b[k] for k in ("matches", "hands", "valid", "invalid")} | {"rules": rules}


if __name__ == "__main__":
    print(json.dumps(summarize(sys.argv[1:]), indent=2))
