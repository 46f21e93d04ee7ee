"""Validation gives the same verdict and the same diagnostics, byte for byte, as the tree
that wrote fixtures/validation-golden.jsonl (tools/build_validation_golden.py: every
fixture, valid, invalid and hostile, logs with comment ids and stored analyses, and a
seeded structural fuzz corpus of 1,400 inputs). A change to validation's hot path must
keep every answer; a change that means to alter one rewrites the file with the tool and
shows the difference in its diff.

Both paths are held to it: the fast one (models straight from the bytes) and the full
one (JSON Schema, then the models), which must agree on every input."""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "fixtures" / "validation-golden.jsonl"
sys.path.insert(0, str(ROOT / "tools"))

from build_validation_golden import answer, inputs  # noqa: E402

EXPECTED: dict[str, dict[str, Any]] = {
    r["name"]: r for r in map(json.loads, GOLDEN.read_text("utf-8").splitlines())
}


#: Python's json module words a syntax error itself, and 3.12+ words some otherwise (3.13:
#: "Illegal trailing comma before end of object", placed at the comma). The golden file
#: holds 3.11's words; on another interpreter a JSON syntax error is held to its rule,
#: pointer and verdict, not to the interpreter's sentence and position.
THE_INTERPRETERS_WORDS = sys.version_info[:2] != (3, 11)


def _comparable(record: dict[str, Any]) -> dict[str, Any]:
    if not THE_INTERPRETERS_WORDS:
        return record
    said = [
        {
            k: v
            for k, v in d.items()
            if d["rule"] != "json" or k not in ("message", "line", "column")
        }
        for d in record["diagnostics"]
    ]
    return record | {"diagnostics": said}


@functools.cache
def _inputs() -> list[tuple[str, bytes]]:
    return list(inputs())


def test_the_golden_file_covers_what_it_claims() -> None:
    names = list(EXPECTED)
    assert len(names) == len(set(names)) >= 1400
    kinds = {n.split("/")[0] for n in names}
    assert kinds == {"valid", "invalid", "hostile", "made", "fuzz"}
    rules = {d["rule"] for r in EXPECTED.values() for d in r["diagnostics"]}
    # it reaches the replay, the rule options, comment ids and the stored analysis
    assert {"json", "schema", "format", "encoding", "analysis", "R1", "R3", "R24"} <= rules
    assert sum(r["valid"] for r in EXPECTED.values()) >= 50


@pytest.mark.parametrize("chunk", range(4))
def test_every_input_gets_the_same_answer(chunk: int) -> None:
    every = _inputs()
    assert [n for n, _ in every] == list(EXPECTED)  # the same inputs, in the same order
    differs = []
    for name, data in every[chunk::4]:
        got = answer(name, data)
        want = EXPECTED[name]
        assert got["sha256"] == want["sha256"], f"{name}: the input itself changed"
        if _comparable(got) != _comparable(want):
            differs.append((name, want, got))
    assert not differs, differs[:3]


def _summary(result: Any) -> Any:
    from texas42_log.files.report import result_json

    return result_json("x", result)


@pytest.mark.parametrize("chunk", range(2))
def test_the_verdict_path_gives_every_input_the_same_answer(chunk: int) -> None:
    """``texas42 validate`` asks for the verdict only (``models=False``): a plain, valid log
    is settled over its parsed JSON (texas42_log/log/plain.py), every other one takes the
    path above. Every input gets the golden diagnostics, and every valid one the same
    summary (hands, score, winner, rules) as with the models (an invalid one never leaves
    the models' path, so its summary is that path's)."""
    from texas42_log.files.validate import validate_bytes

    settled = 0
    for name, data in _inputs()[chunk::2]:
        quick = validate_bytes(data, models=False)
        settled += quick.match is None and quick.valid
        said = {"diagnostics": [d.as_dict() for d in quick.diagnostics]}
        want = {"diagnostics": EXPECTED[name]["diagnostics"]}
        assert _comparable(said) == _comparable(want), name
        if quick.valid:
            assert _summary(quick) == _summary(validate_bytes(data)), name
    assert settled >= 15  # the plain path is taken, not only the fallback (39 of the 1,404)
