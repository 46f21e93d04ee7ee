"""A match's fair decisions on every core give the same report as on one, and a report
goes to -o as it would to standard output (docs/analysis.md, "Every core")."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.helpers import run_texas42

ROOT = Path(__file__).resolve().parent.parent
WORKED = str(ROOT / "fixtures" / "valid" / "seed-worked-example.json")
# the plays only: the auction's verdicts (each a task of its own) are checked below
FAIR = ["analyze", WORKED, "--fair", "--worlds", "12", "--no-progress", "--no-auction"]


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return run_texas42(*args)


def _no_seconds(out: str) -> list[object]:
    docs = [json.loads(line) for line in out.splitlines()]
    for d in docs:
        if "summary" in d:
            d["summary"].pop("seconds")
    return docs


def test_one_core_and_two_give_the_same_report() -> None:
    one, two = _cli(*FAIR, "-j", "1"), _cli(*FAIR, "-j", "2")
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr
    assert one.stdout == two.stdout and "fair:" in one.stdout
    js1, js2 = _cli(*FAIR, "-j", "1", "-f", "json"), _cli(*FAIR, "-j", "2", "-f", "json")
    assert _no_seconds(js1.stdout) == _no_seconds(js2.stdout)
    csv1, csv2 = _cli(*FAIR, "-j", "1", "-f", "csv"), _cli(*FAIR, "-j", "2", "-f", "csv")
    assert csv1.stdout == csv2.stdout and csv1.stdout.count("\n") > 50


def test_the_auctions_verdicts_are_the_same_on_one_core_and_two() -> None:
    args = ["analyze", WORKED, "--fair", "--worlds", "8", "--no-progress", "--no-table"]
    args += ["--hand", "3", "-f", "json"]
    one, two = _cli(*args, "-j", "1"), _cli(*args, "-j", "2")
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr
    first, second = _no_seconds(one.stdout), _no_seconds(two.stdout)
    assert first == second
    hand = first[0]["hands"][0]  # type: ignore[index]
    assert [c["seat"] for c in hand["auction"]["calls"]] == ["C", "D", "A", "B"]
    assert hand["auction"]["declaration"]["seat"] == "A"
    # --no-auction leaves it out, and the plays' verdicts are the same without it
    bare = _no_seconds(_cli(*args, "-j", "2", "--no-auction").stdout)
    assert bare[0]["hands"][0]["auction"] is None  # type: ignore[index]
    assert bare[0]["hands"][0]["plays"] == hand["plays"]  # type: ignore[index]


def test_a_report_goes_to_o_whole_and_never_over_a_file_unasked(tmp_path: Path) -> None:
    shown = _cli(*FAIR, "--hand", "3")
    out = tmp_path / "report.txt"
    wrote = _cli(*FAIR, "--hand", "3", "-o", str(out))
    assert wrote.returncode == 0 and wrote.stdout == "", wrote.stderr
    assert f"report written to {out}" in wrote.stderr
    assert out.read_text("utf-8") == shown.stdout
    again = _cli(*FAIR, "--hand", "3", "-o", str(out))
    assert again.returncode == 2 and "--force" in again.stderr
    assert out.read_text("utf-8") == shown.stdout  # untouched
    js = tmp_path / "report.jsonl"
    assert _cli(*FAIR, "--hand", "3", "-f", "json", "-o", str(js)).returncode == 0
    lines = [json.loads(line) for line in js.read_text("utf-8").splitlines()]
    assert lines[0]["hands"][0]["hand"] == 3 and "summary" in lines[-1]
    # a hand the match does not have: a usage error, and nothing written
    none = tmp_path / "none.txt"
    missing = _cli(*FAIR, "--hand", "99", "-o", str(none))
    assert missing.returncode == 2 and not none.exists(), missing.stderr
