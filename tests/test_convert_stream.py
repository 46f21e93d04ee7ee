"""convert's streaming as a library function (corpus/conversion.convert_stream), tested
without the command: the chunks, the tally, what stops it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from texas42_log.corpus.conversion import Refused, Streamed, convert_stream
from texas42_log.files.reader import read_matches
from texas42_log.files.validate import ValidationResult

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = str(ROOT / "fixtures" / "valid" / "seed-worked-example.json")
OTHER = str(ROOT / "fixtures" / "valid" / "all-pass-redeal.json")


def _results(name: str) -> Iterator[ValidationResult]:
    for read in read_matches([name], expand=False):
        yield read.result


def test_matches_stream_as_chunks_of_one_file() -> None:
    tally = Streamed()
    counts: list[int] = []
    text = "".join(
        convert_stream([EXAMPLE, OTHER], None, "jsonl", tally, _results, counted=counts.append)
    )
    lines = text.splitlines()
    assert len(lines) == 2 and all(json.loads(line)["format"] == "texas42-log" for line in lines)
    assert tally.written == 2 and counts == [1, 2]


def test_a_csv_counts_the_comments_it_cannot_hold_and_numbers_its_rows() -> None:
    tally = Streamed()
    rows = "".join(convert_stream([EXAMPLE, OTHER], None, "csv", tally, _results)).splitlines()
    assert rows[0].startswith("match,hand,trick") and sum(r == rows[0] for r in rows) == 1
    assert {r.split(",")[0] for r in rows[1:]} <= {"1", "2"}
    assert tally.lost_comments > 0  # the worked example carries comments


def test_an_invalid_match_stops_it_unless_forced(tmp_path: Path) -> None:
    doc = json.loads(Path(EXAMPLE).read_text("utf-8"))
    doc["hands"][0]["outcome"]["marks"] = {"A+C": 9, "B+D": 0}
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(doc), "utf-8")
    with pytest.raises(Refused, match="match 2 is invalid"):
        list(convert_stream([EXAMPLE, str(broken)], None, "text", Streamed(), _results))
    tally = Streamed()
    list(convert_stream([EXAMPLE, str(broken)], None, "text", tally, _results, force=True))
    assert tally.written == 2
