"""`texas42 analyze`: the report, its forms, the annotated log (format 1.3), and who may see it.

The analysis is computed with every hand open: a view shows it only to ``review``
(after the hand) and ``omniscient``, never to a seat or the public — checked here
by comparing the views of a log with and without its analysis, and by re-dealing
the tiles a review cannot see (as tests/test_leaks.py does for the deal itself).
"""

from __future__ import annotations

import copy
import csv
import io
import json
import random
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.forked_cli import completed
from texas42_log.analysis.api import annotated
from texas42_log.analysis.open_hand import analyze_match_doc
from texas42_log.files.assets import viewer_asset
from texas42_log.files.formats import match_json
from texas42_log.files.validate import validate_bytes
from texas42_log.log.check import effective_rules
from texas42_log.log.model import Match, minimal_version
from texas42_log.log.notation import parse_text, write_text
from texas42_log.play.generate import random_match
from texas42_log.views.html import render_html
from texas42_log.views.visibility import Moment, parse_observer, view_for

from .test_leaks import snapshot

ROOT = Path(__file__).resolve().parent.parent
WORKED = ROOT / "fixtures" / "valid" / "seed-worked-example.json"


def texas42(
    *args: str, stdin: str | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """The command as a new process runs it (forked from a prepared one, tests/forked_cli.py)."""
    return completed(
        list(args),
        text=True,
        cwd=cwd,
        stdin=None if stdin is None else stdin.encode("utf-8"),
        timeout=600,
    )


def with_analysis(
    doc: dict[str, Any], only: int | None = None, table: bool = True
) -> dict[str, Any]:
    """``doc`` (a valid match's JSON form) with its analysis written in, as --annotate writes it."""
    m = Match.model_validate(doc)
    out = annotated(
        match_json(m), analyze_match_doc(effective_rules(m), match_json(m), only=only, table=table)
    )
    out["version"] = minimal_version(out)
    return out


@pytest.fixture(scope="module")
def worked() -> dict[str, Any]:
    result = validate_bytes(WORKED.read_bytes())
    assert result.match is not None
    return with_analysis(match_json(result.match))


# -- the report ---------------------------------------------------------------


def test_the_text_report_names_the_costly_plays_and_the_fate() -> None:
    p = texas42("analyze", str(WORKED), "--hand", "3")
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert "Hand 3: A bid all tricks for 1 mark, trump no-trump" in out
    assert "A+C take 42 with best play from the first lead — makeable (all tricks need 42)" in out
    # A's lead of [2|6] in trick 2 gave the contract away: [4|5] kept every trick.
    line = next(x for x in out.splitlines() if "A [2|6]" in x)
    assert line.split()[:5] == ["2", "A", "[2|6]", "1", "41"], line
    assert "[4|5] → 42" in line and "LOST" in line
    # trumps in players' words: blanks, aces, … sixes, doubles, no-trump
    assert "makeable table, A declaring and leading: blanks 42 · aces 11" in out
    assert "no-trump 42" in out and "0: 42" not in out


def test_json_and_csv_agree_with_the_text() -> None:
    js = texas42("analyze", str(WORKED), "--format", "json")
    assert js.returncode == 0, js.stderr
    objects = [json.loads(line) for line in js.stdout.splitlines()]
    match, summary = objects[0], objects[-1]["summary"]
    assert summary["matches"] == 1 and summary["hands"] == 8 and summary["skipped"] == 3
    hand3 = match["hands"][2]
    assert hand3["value"] == 42 and hand3["makeable"] is True and hand3["objective"] == "max"
    lost = [p for p in hand3["plays"] if p["fate"] == "lost"]
    assert [(p["seat"], p["play"], p["cost"], p["best_plays"]) for p in lost] == [
        ("A", "[2|6]", 41, ["[4|5]"])
    ]
    assert match["hands"][5] == {
        "hand": 6,
        "skipped": "all four passed: there is no contract to analyse (R11)",
    }
    rows = list(
        csv.DictReader(io.StringIO(texas42("analyze", str(WORKED), "--format", "csv").stdout))
    )
    costly = [r for r in rows if r["hand"] == "3" and r["fate"]]
    assert [(r["seat"], r["play"], r["cost"], r["fate"]) for r in costly] == [
        ("A", "[2|6]", "41", "lost")
    ]
    # Each play of the JSON has its CSV row, with the same value and cost.
    plays = [
        (str(h["hand"]), p["play"], str(p["value"]), str(p["cost"]))
        for h in match["hands"]
        for p in h.get("plays", [])
    ]
    assert plays == [(r["hand"], r["play"], r["value"], r["cost"]) for r in rows if r["play"]]


def test_values_lists_every_alternative_and_a_missing_hand_is_said() -> None:
    p = texas42("analyze", str(WORKED), "--hand", "3", "--no-table", "--values")
    assert p.returncode == 0, p.stderr
    # A's first lead: every tile of A's hand with the value after it.
    assert "[0|6] 17 · [1|2] 28 · [2|6] 11 · [3|3] 42 · [4|5] 42 · [4|6] 30 · [5|6] 40" in p.stdout
    # a hand the match does not have is a usage error, as replay --play 99 is
    q = texas42("analyze", str(WORKED), "--hand", "40")
    assert q.returncode == 2 and q.stdout == "", q.stdout
    assert q.stderr == (f"texas42: error: --hand 40: {WORKED} has fewer than 40 hands\n"), q.stderr


def test_hands_that_cannot_be_analysed_are_skipped_with_the_reason() -> None:
    p = texas42("analyze", str(ROOT / "fixtures" / "valid" / "partly-known-deals.json"))
    assert p.returncode == 0, p.stderr
    assert "skipped: the deal is not fully known" in p.stdout
    assert "open-hand analysis needs every tile" in p.stdout


def test_an_invalid_log_is_not_analysed() -> None:
    p = texas42("analyze", str(ROOT / "fixtures" / "invalid" / "R16-renege.json"))
    assert p.returncode == 1
    assert "error R16" in p.stdout and "Hand " not in p.stdout


def test_several_processes_give_the_same_report(tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(
        "".join(json.dumps(random_match(s, max_hands=2)) + "\n" for s in range(6)), "utf-8"
    )
    one = texas42("analyze", str(corpus), "--format", "csv", "--jobs", "1", "--no-table")
    two = texas42("analyze", str(corpus), "--format", "csv", "--jobs", "2", "--no-table")
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr
    assert one.stdout == two.stdout and one.stdout.count("\n") > 20
    assert "6 matches" in one.stderr


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    out = tmp_path / "x.json"
    # -o alone writes the report (docs/analysis.md); -i rewrites a log, so needs --annotate
    assert texas42("analyze", str(WORKED), "-i").returncode == 2
    assert texas42("analyze", str(WORKED), "--annotate").returncode == 2
    assert (
        texas42("analyze", str(WORKED), str(WORKED), "--annotate", "-o", str(out)).returncode == 2
    )
    assert not out.exists()
    p = texas42("analyze", str(WORKED), "--annotate", "-o", str(WORKED))
    assert p.returncode == 2 and "is the input log" in p.stderr


# -- the annotated log ----------------------------------------------------------


def test_an_annotated_log_validates_and_survives_every_conversion(tmp_path: Path) -> None:
    out = tmp_path / "a.json"
    p = texas42("analyze", str(WORKED), "--annotate", "-o", str(out))
    assert p.returncode == 0, p.stderr
    assert "analysed 8 hands, 3 skipped" in p.stderr
    doc = json.loads(out.read_text("utf-8"))
    assert doc["version"] == "1.3"
    assert doc["hands"][2]["plays"][4]["analysis"] == {
        "values": {"[0|6]": 1, "[1|2]": 12, "[2|6]": 1, "[4|5]": 42, "[4|6]": 12, "[5|6]": 22},
        "cost": 41,
        "fate": "lost",
    }
    assert texas42("validate", str(out)).returncode == 0
    # Through the text notation and JSON Lines and back: the same log.
    t42, back, jsonl, back2 = (tmp_path / n for n in ("a.t42", "b.json", "a.jsonl", "c.json"))
    for src, dst in ((out, t42), (t42, back), (out, jsonl), (jsonl, back2)):
        r = texas42("convert", str(src), "-o", str(dst))
        assert r.returncode == 0, r.stderr
    assert json.loads(back.read_text("utf-8")) == doc
    assert json.loads(back2.read_text("utf-8")) == doc
    assert '&{"analysis": {"values": {"[0|6]": 1, ' in t42.read_text("utf-8")
    # --verify finds nothing to say about a log the solver itself annotated.
    v = texas42("analyze", str(out), "--verify", "--no-table")
    assert v.returncode == 0, v.stdout + v.stderr


def test_annotate_in_place_keeps_the_format_and_reads_standard_input(tmp_path: Path) -> None:
    t42 = tmp_path / "m.t42"
    assert texas42("convert", str(WORKED), "-o", str(t42)).returncode == 0
    p = texas42("analyze", str(t42), "--annotate", "-i", "--hand", "2", "--no-table")
    assert p.returncode == 0, p.stderr
    text = t42.read_text("utf-8")
    assert (
        text.startswith('[Format "texas42-log"]\n[Version "1.3"]')
        and '&{"analysis": {"value": 23' in text
    )
    assert texas42("validate", str(t42)).returncode == 0
    # From standard input to standard output (JSON), and never back into standard input.
    q = texas42(
        "analyze",
        "-",
        "--annotate",
        "-o",
        "-",
        "--hand",
        "1",
        "--no-table",
        stdin=WORKED.read_text("utf-8"),
    )
    assert q.returncode == 0, q.stderr
    assert json.loads(q.stdout)["hands"][0]["analysis"] == {"value": 0, "makeable": False}
    assert (
        texas42("analyze", "-", "--annotate", "-i", stdin=WORKED.read_text("utf-8")).returncode == 2
    )
    # An invalid log is not annotated, and nothing is written.
    out = tmp_path / "bad.json"
    r = texas42(
        "analyze",
        str(ROOT / "fixtures" / "invalid" / "R16-renege.json"),
        "--annotate",
        "-o",
        str(out),
    )
    assert r.returncode == 1 and not out.exists() and "not written" in r.stderr


def test_a_redacted_log_keeps_no_analysis(tmp_path: Path, worked: dict[str, Any]) -> None:
    """A spectator's log hides the tiles nobody played; the analysis, made from them, goes too."""
    src, out = tmp_path / "a.json", tmp_path / "public.json"
    src.write_text(json.dumps(worked), "utf-8")
    p = texas42("redact", str(src), "-o", str(out))
    assert p.returncode == 0, p.stderr
    assert "the open-hand analysis (72 parts) left out" in p.stderr
    assert '"analysis"' not in out.read_text("utf-8")
    assert texas42("validate", str(out)).returncode == 0


def test_validate_checks_the_stated_analysis(worked: dict[str, Any]) -> None:
    bad = copy.deepcopy(worked)
    bad["hands"][2]["plays"][4]["analysis"]["cost"] = 40
    bad["hands"][1]["plays"][0]["analysis"]["values"].pop("[0|2]")
    bad["hands"][3]["analysis"]["makeable"] = False
    result = validate_bytes(json.dumps(bad, indent=1))
    found = [(d.rule, d.pointer) for d in result.errors]
    assert found == [
        ("analysis", "/hands/1/plays/0/analysis/values"),
        ("analysis", "/hands/2/plays/4/analysis/cost"),
        ("analysis", "/hands/3/analysis/makeable"),
    ]
    assert all(d.line is not None for d in result.errors)
    messages = " ".join(d.message for d in result.errors)
    assert "it leaves out [0|2]" in messages and "its values make it 41" in messages
    # A value past the hand's points (R6): within the schema's bound for any count, past
    # the seed rules' 42.
    over = copy.deepcopy(worked)
    over["hands"][3]["analysis"]["value"] = 50
    table = over["hands"][3]["analysis"]["table"]
    table[next(iter(table))] = 43
    result = validate_bytes(json.dumps(over, indent=1))
    found = [(d.rule, d.pointer) for d in result.errors]
    assert found[:2] == [
        ("analysis", "/hands/3/analysis/value"),
        ("analysis", f"/hands/3/analysis/table/{next(iter(table))}"),
    ]
    # and the first play's values no longer reach the hand's value
    assert found[2:] == [("analysis", "/hands/3/plays/0/analysis/values")]
    assert "gives 50 hand points, but a hand holds 42 under these rules (R6)" in (
        result.errors[0].message
    )
    play = copy.deepcopy(worked)
    values = play["hands"][2]["plays"][4]["analysis"]["values"]
    values[next(iter(values))] = 43
    result = validate_bytes(json.dumps(play, indent=1))
    assert [(d.rule, d.pointer) for d in result.errors] == [
        ("analysis", "/hands/2/plays/4/analysis/values")
    ]
    assert "43 hand points, but a hand holds 42 under these rules (R6)" in (
        result.errors[0].message
    )


def test_verify_finds_a_value_the_solver_disagrees_with(
    tmp_path: Path, worked: dict[str, Any]
) -> None:
    tampered = copy.deepcopy(worked)
    # A consistent lie: every value of the hand's first play, and the hand's value, one higher.
    first = tampered["hands"][1]["plays"][0]["analysis"]
    first["values"] = {k: v + 1 for k, v in first["values"].items()}
    tampered["hands"][1]["analysis"]["value"] += 1
    path = tmp_path / "t.json"
    path.write_text(json.dumps(tampered), "utf-8")
    assert texas42("validate", str(path)).returncode == 0  # consistent: validate cannot tell
    p = texas42("analyze", str(path), "--verify", "--no-table", "--hand", "2")
    assert p.returncode == 1
    assert (
        "error analysis at /hands/1/analysis/value: hand 2's stated value is 24; with every hand "
        "open it is 23" in p.stdout
    )
    assert "/hands/1/plays/0/analysis/values/[0|2]" in p.stdout


def test_the_text_notation_refuses_analysis_where_it_does_not_belong() -> None:
    text = write_text(Match.model_validate({**json.loads(WORKED.read_text("utf-8"))}))
    outcome = "Outcome: set, points 0-16, marks 0-1, score 0-1"
    assert outcome in text
    bad = text.replace(outcome, outcome + ' &{"analysis": {"value": 3}}', 1)
    with pytest.raises(Exception, match="must start with x-"):
        parse_text(bad)
    # Since 1.8 a call and the declaration carry a fair analysis: there it belongs, and
    # the notation hands it to the document as it is (validation checks its shape).
    fair = text.replace("Declare: A trump 6", 'Declare: A trump 6 &{"analysis": {"value": 3}}', 1)
    (parsed,) = parse_text(fair)
    assert parsed.doc["hands"][0]["declaration"]["analysis"] == {"value": 3}


# -- who may see it ---------------------------------------------------------------


def _random_analysed(seed: int) -> tuple[dict[str, Any], dict[str, Any], int]:
    rng = random.Random(seed)
    for attempt in range(10):
        doc = random_match(9000 + seed + 1000 * attempt, max_hands=3)
        hands = [i for i, h in enumerate(doc["hands"]) if h.get("plays")]
        if hands:
            i = rng.choice(hands)
            return doc, with_analysis(doc, only=i, table=attempt % 2 == 0), i
    pytest.fail("no match with plays")


@pytest.mark.parametrize("seed", range(16))
def test_no_seat_and_no_spectator_ever_sees_the_analysis(seed: int) -> None:
    """Every moment of an analysed hand, for A–D and the public: the same view, text
    and page as without the analysis."""
    plain, analysed, i = _random_analysed(seed)
    n = len(plain["hands"][i]["plays"])
    for observer in ("A", "B", "C", "D", "public"):
        for k in range(n + 1):
            assert snapshot(analysed, observer, i, k) == snapshot(plain, observer, i, k)
    for observer in ("A", "public") if seed % 4 == 0 else ():
        a = render_html(
            Match.model_validate(analysed), parse_observer(observer), "en", assets=viewer_asset
        )
        b = render_html(
            Match.model_validate(plain), parse_observer(observer), "en", assets=viewer_asset
        )
        assert a == b


def test_omniscient_sees_every_alternative_and_review_no_figure_of_a_hand_that_ended_early(
    worked: dict[str, Any],
) -> None:
    """R29: hand 3 ends after trick 2, so its never-played tiles stay hidden from the review,
    and so does every open-hand figure (each is drawn from them: tests/test_review_leaks.py)."""
    m = Match.model_validate(worked)
    # A's [4|5], the best lead of trick 2, was never played.
    omni = view_for(m, "omniscient", 2, Moment.after_play(4))
    assert omni.analysis is not None and omni.analysis.now is not None
    assert omni.analysis.now["[4|5]"] == 42 and omni.analysis.now_best == ("[4|5]",)
    review = view_for(m, "review", 2, Moment.end())
    assert review.analysis is None
    assert "[4|5]" not in json.dumps(review.as_dict())
    omni_end = view_for(m, "omniscient", 2, Moment.end())
    assert omni_end.analysis is not None
    assert next(p for p in omni_end.analysis.plays if p.fate == "lost").best == ("[4|5]",)
