"""Write fixtures/validation-golden.jsonl: the verdict and every diagnostic (as_dict:
severity, rule, pointer, line, column, message, context) that ``validate_bytes`` gives
each input of a fixed set, so that a rewrite of validation's hot path can be held to the
same answers, byte for byte (tests/test_validation_golden.py).

The inputs: every file of fixtures/valid, fixtures/invalid and fixtures/hostile (as
bytes, whatever their format: what is not our JSON gets its refusal); logs made here
for what no fixture holds (comment ids, unique, given twice, in a log of an older
version; a stored open-hand and fair analysis, as written and with a figure edited);
and a structural fuzz corpus — the JSON samples of tests/fuzzing.py and the logs made
here, each mutated by a seeded random list of its operations (``FUZZ`` each; every
other one of tree operations only, which keep the JSON readable and reach the replay),
so the same tree always makes the same inputs.

Run it with the tree whose answers are the reference (the one before the change):

    .venv/bin/python tools/build_validation_golden.py

Each line: {"name", "sha256" (of the input), "valid", "diagnostics", "fast_equals_full"}.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "fixtures" / "validation-golden.jsonl"
#: Mutated inputs made from each JSON sample.
FUZZ = 300
SEED = 20261205


def inputs() -> Iterator[tuple[str, bytes]]:
    """(name, bytes) of every input, in a fixed order."""
    sys.path.insert(0, str(ROOT))
    from tests.fuzzing import OPS, PAYLOADS, TREE_OPS, mutate, samples

    fix = ROOT / "fixtures"
    for folder in ("valid", "invalid", "hostile"):
        for path in sorted((fix / folder).iterdir()):
            if path.is_file() and not path.is_symlink():
                yield f"{folder}/{path.name}", path.read_bytes()
    made = dict(constructed())
    yield from made.items()
    json_samples = [s.data for s in samples() if s.fmt == "json"]
    json_samples += [made["made/ids-twice-1.6.json"], made["made/analysed.json"]]
    for k, data in enumerate(json_samples):
        rng = random.Random(SEED + k)
        for n in range(FUZZ):
            kinds = OPS if n % 2 else TREE_OPS
            ops = [
                (rng.choice(kinds), rng.random(), rng.random(), rng.randrange(4 * len(PAYLOADS)))
                for _ in range(rng.randint(1, 4))
            ]
            yield f"fuzz/{k}/{n}", mutate(data, ops, json_samples)


def constructed() -> Iterator[tuple[str, bytes]]:
    """The logs no fixture holds (see the module text)."""
    from texas42_log.analysis.api import annotate_match
    from texas42_log.log.model import Match, match_json

    def out(doc: dict[str, Any]) -> bytes:
        return json.dumps(doc, indent=1, ensure_ascii=False).encode("utf-8")

    worked = (ROOT / "fixtures" / "valid" / "seed-worked-example.json").read_bytes()
    doc = json.loads(worked)
    doc["version"] = "1.10"
    doc["annotations"] = [{"text": "a match", "id": "m1"}]
    doc["hands"][0]["annotations"] = [{"text": "a hand", "id": "h1"}]
    doc["hands"][1]["auction"][0]["annotations"] = [{"text": "a call", "id": "c1"}]
    doc["hands"][1]["plays"][2]["annotations"] = [
        {"text": "a play", "id": "p1"},
        {"text": "no id"},
    ]
    yield "made/ids.json", out(doc)
    doc["hands"][1]["plays"][3]["annotations"] = [{"text": "again", "id": "c1"}]
    doc["hands"][2]["annotations"] = [{"text": "and again", "id": "m1"}]
    yield "made/ids-twice.json", out(doc)
    doc["version"] = "1.6"
    yield "made/ids-twice-1.6.json", out(doc)
    match = Match.model_validate_json(worked)
    analysed = match_json(annotate_match(annotate_match(match, 1).match, 2, fair=(8, 42)).match)
    yield "made/analysed.json", out(analysed)
    analysed["hands"][1]["plays"][0]["analysis"]["cost"] += 1
    yield "made/analysed-edited.json", out(analysed)
    yield "made/fair-1.4.json", (ROOT / "tests" / "data" / "fair-1.4.json").read_bytes()


def answer(name: str, data: bytes) -> dict[str, object]:
    """The record of one input (see the module text)."""
    from texas42_log.files.validate import validate_bytes

    fast = validate_bytes(data)
    full = validate_bytes(data, fast=False)
    said = [d.as_dict() for d in fast.diagnostics]
    return {
        "name": name,
        "sha256": hashlib.sha256(data).hexdigest(),
        "valid": fast.valid,
        "diagnostics": said,
        "fast_equals_full": said == [d.as_dict() for d in full.diagnostics],
    }


def main() -> None:
    lines = [
        json.dumps(answer(name, data), ensure_ascii=True, sort_keys=True) for name, data in inputs()
    ]
    GOLDEN.write_text("\n".join(lines) + "\n", "utf-8")
    print(f"wrote {GOLDEN.relative_to(ROOT)}: {len(lines)} inputs")


if __name__ == "__main__":
    main()
