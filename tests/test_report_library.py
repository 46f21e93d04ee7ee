"""The report of ``texas42 analyze`` as a library function (corpus/report.py), tested
without the command: its chunks, its tally, and what it refuses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from texas42_log.corpus.report import NothingToReport, ReportOptions, Tally, report_chunks

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = str(ROOT / "fixtures" / "valid" / "seed-worked-example.json")
SHORT = str(ROOT / "fixtures" / "valid" / "all-pass-redeal.json")


def test_a_json_report_is_a_line_a_match_and_its_summary() -> None:
    tally = Tally()
    lines = "".join(report_chunks([EXAMPLE, SHORT], ReportOptions(form="json"), tally))
    docs = [json.loads(line) for line in lines.splitlines()]
    assert len(docs) == 3 and "summary" in docs[-1]
    summary = docs[-1]["summary"]
    assert summary["matches"] == tally.matches == 2
    assert summary["invalid"] == 0 and summary["hands"] == tally.hands > 0


def test_a_csv_report_has_its_header_once_and_says_invalid_matches_aside(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    doc = json.loads(Path(EXAMPLE).read_text("utf-8"))
    doc["hands"][0]["outcome"]["marks"] = {"A+C": 9, "B+D": 0}
    broken.write_text(json.dumps(doc), "utf-8")
    aside: list[str] = []
    tally = Tally()
    text = "".join(
        report_chunks(
            [EXAMPLE, str(broken)], ReportOptions(form="csv"), tally, invalid_aside=aside.append
        )
    )
    rows = text.splitlines()
    assert rows[0].startswith("match,") or "," in rows[0]
    assert sum(r == rows[0] for r in rows) == 1  # the header once
    assert tally.invalid == 1 and len(aside) == 1 and "broken.json" in aside[0]


def test_a_hand_past_every_match_is_nothing_to_report() -> None:
    tally = Tally()
    with pytest.raises(NothingToReport, match="--hand 99: .* has fewer than 99 hands"):
        list(report_chunks([EXAMPLE, SHORT], ReportOptions(form="text", hand=99), tally))
    assert len(tally.no_hand) == 2
