"""Fair verdicts a player can trust (docs/analysis.md): one objective from the match's
scoring, a best play never marked, marks above their thresholds, the same numbers in
text, JSON and CSV, the same sentences in the report's legend, ``--help`` and the docs,
a player's own record analysed where its tiles are known, and stored analysis checked
by the rule of the log's own version."""

from __future__ import annotations

import csv
import functools
import io
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import run_texas42
from texas42_log.analysis import MARKS, VERDICTS
from texas42_log.analysis.api import fair_analysis, open_hand_analysis
from texas42_log.analysis.fair import BLUNDER, BLUNDER_POINTS, DUBIOUS, DUBIOUS_POINTS
from texas42_log.analysis.fair_hands import FairHand
from texas42_log.analysis.open_hand import HandAnalysis
from texas42_log.analysis.report import legend
from texas42_log.corpus import Record, analyze_record
from texas42_log.engine.values import move_key
from texas42_log.files.validate import read_match
from texas42_log.log.inert import dumps
from texas42_log.log.model import Match
from texas42_log.log.versions import FORMAT_VERSION
from texas42_log.play.generate import random_match

ROOT = Path(__file__).resolve().parent.parent
WORKED = ROOT / "fixtures" / "valid" / "seed-worked-example.json"
POINTS = ROOT / "fixtures" / "valid" / "variant-options-250-points.json"
LEGACY = ROOT / "tests" / "data" / "fair-1.4.json"


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return run_texas42(*args, stdin=stdin)


@functools.cache
def _hands() -> list[tuple[Match, int, FairHand]]:
    """Fair analyses of many hands: random matches (marks) and a points game, 12 worlds;
    made when the test asks (never while the suite is collected)."""
    out = []
    for seed in range(4):
        match = Match.model_validate(random_match(3000 + seed, max_hands=3))
        for h in range(len(match.hands)):
            out.append((match, h, fair_analysis(match, h, worlds=12, seed=seed)))
    points = read_match(POINTS.read_bytes())
    for h in range(4):
        out.append((points, h, fair_analysis(points, h, worlds=12)))
    return out


def test_many_hands_give_a_best_play_no_mark_and_a_mark_only_past_its_threshold() -> None:
    judged = marked = 0
    objectives = set()
    for _, _, fair in _hands():
        for note in fair.plays:
            d = note.decision
            if d is None:
                assert note.mark is None and note.verdict is None  # forced: nothing to judge
                continue
            judged += 1
            objectives.add(d.objective)
            best = d.best
            assert best in d.best_moves and d.cost(best) == 0 and d.chance_lost(best) == 0
            assert d.mark(best) is None
            if note.move in d.best_moves:
                assert note.mark is None
                assert note.verdict not in ("wrong but lucky", "wrong and punished")
            if note.mark is not None:
                marked += 1
                if d.objective == "points":
                    least = BLUNDER_POINTS if note.mark == "??" else DUBIOUS_POINTS
                    assert note.cost >= least
                else:
                    least = BLUNDER if note.mark == "??" else DUBIOUS
                    assert note.chance_lost >= least
            if d.objective == "chance":
                # in a game of marks the chance decides: no play keeps more of it than the best
                top = max(v.share for v in d.values.values())
                if d.enumerated:
                    assert d.values[best].share == top
            else:
                means = [v.mean for v in d.values.values()]
                assert d.values[best].mean == (max(means) if d.high else min(means))
            if note.note is not None:
                assert note.mark is None and note.chance_lost == 0 and note.cost >= 2
            if note.verdict == "right but unlucky":
                assert note.chance_lost == 0
    assert judged > 100 and marked > 5 and objectives == {"chance", "points"}


def _rows(form: str, data: bytes, fair: tuple[int, int]) -> Any:
    r = analyze_record(Record("m.json", data), form, fair=fair, table=False)  # type: ignore[arg-type]
    assert r.valid
    return r


@pytest.mark.parametrize("which", [0, 1])
def test_text_json_and_csv_say_the_same_of_every_play(which: int) -> None:
    data = dumps(random_match(3100 + which, max_hands=2)).encode()
    fair = (12, 5)
    js = _rows("json", data, fair).json
    rows = _rows("csv", data, fair).rows
    text = _rows("text", data, fair).text
    from texas42_log.analysis.report import CSV_COLUMNS, FAIR_COLUMNS

    header = list(CSV_COLUMNS + FAIR_COLUMNS)
    by_play = {(r[1], r[header.index("trick")], r[header.index("play")]): r for r in rows}
    seen = 0
    for hand in js["hands"]:
        for p in hand.get("plays", []):
            f = p["fair"]
            row = by_play[(str(hand["hand"]), str(p["trick"]), p["play"])]
            cell = dict(zip(header, row, strict=True))
            if f.get("forced"):
                assert cell["fair_best"] == "forced"
                continue
            seen += 1
            assert float(cell["fair_cost"]) == f["cost"]
            assert float(cell["chance_lost"]) == f["chance_lost"]
            assert cell["mark"] == (f.get("mark") or "")
            assert cell["verdict"] == (f["verdict"] or "")
            assert cell["fair_best"].split()[0] == f["best"]
            # the text row: the same chance, chance lost (a percentage, no sign) and mark
            mine = f["values"][p["play"]]
            line = next(
                line
                for line in text.splitlines()
                if re.match(rf"\s+{p['trick']}\s+{p['seat']} {re.escape(p['play'])}\s", line)
                and f"{mine['share']:.0%}" in line
            )
            lost = f"{f['chance_lost']:.0%}" if f["chance_lost"] >= 0.005 else "-"
            assert f" {lost} " in line and "-%" not in line
            if f.get("mark"):
                assert f" {f['mark']} " in line
    assert seen >= 5


def _words(text: str) -> str:
    return " ".join(text.split())


def test_each_mark_and_verdict_is_one_sentence_in_the_legend_the_help_and_the_docs() -> None:
    help_text = _words(_cli("analyze", "--help").stdout)
    docs = _words((ROOT / "docs" / "analysis.md").read_text("utf-8"))
    shown = _words("\n".join(legend(True)))
    report = _cli("analyze", str(WORKED), "--hand", "3", "--fair", "--worlds", "8")
    assert report.returncode == 0, report.stderr
    for name, sentence in (MARKS | VERDICTS).items():
        assert f"{name}: {sentence}" in shown
        assert f"{name}: {sentence}" in help_text, name
        assert _words(sentence) in docs, name
        assert f"{name}: {sentence}" in _words(report.stdout)
    bare = _cli("analyze", str(WORKED), "--hand", "3", "--fair", "--worlds", "8", "--no-legend")
    assert "Legend:" in report.stdout and "Legend:" not in bare.stdout
    assert bare.stdout == report.stdout.split("Legend:")[0]


def test_a_players_own_record_gets_that_players_fair_lines(tmp_path: Path) -> None:
    mine = tmp_path / "mine.json"
    assert _cli("redact", str(WORKED), "--as", "A", "-o", str(mine)).returncode == 0
    match = read_match(mine.read_bytes())
    full = read_match(WORKED.read_bytes())
    (skipped,) = open_hand_analysis(match, 10)
    assert not isinstance(skipped, HandAnalysis)  # the deal is not fully known
    own = fair_analysis(match, 10, worlds=30)
    whole = fair_analysis(full, 10, worlds=30)
    assert {n.seat for n in own.plays} == {"A"} and own.skipped
    assert all(s.seat != "A" and "own tiles are not all known" in s.reason for s in own.skipped)
    # A's numbers are the same as from the full log: they depend on A's view alone
    from_full = {n.index: n.decision for n in whole.plays if n.seat == "A"}
    for n in own.plays:
        a, b = n.decision, from_full[n.index]
        assert (a is None) == (b is None)
        if a is not None and b is not None:
            assert a.as_dict() == b.as_dict()
    # every output: text, JSON, CSV, --annotate
    common = ["analyze", str(mine), "--hand", "11", "--fair", "--worlds", "30"]
    text = _cli(*common).stdout
    assert "A [2|3]" in text and "B [1|3]        skipped: B's own tiles are not all known" in text
    js = json.loads(_cli(*common, "--format", "json").stdout.splitlines()[0])
    (hand,) = js["hands"]
    assert "skipped" in hand and {p["seat"] for p in hand["plays"]} == {"A"}
    assert {s["seat"] for s in hand["fair_skipped"]} == {"B", "C", "D"}
    rows = list(csv.DictReader(io.StringIO(_cli(*common, "--format", "csv").stdout)))
    assert {r["seat"] for r in rows if r["fair_worlds"]} == {"A"}
    assert all("own tiles are not all known" in r["skipped"] for r in rows if r["seat"] != "A")
    out = tmp_path / "mine-annotated.json"
    ran = _cli(*common[:-2], "--worlds", "30", "--annotate", "-o", str(out))
    assert ran.returncode == 0, ran.stderr
    doc = json.loads(out.read_text("utf-8"))
    assert doc["version"] == FORMAT_VERSION
    h = doc["hands"][10]
    fair = {"worlds": 30, "seed": 42, "calls": "contract", "chances": "kind"}
    assert h["analysis"] == {"fair": fair}  # no value
    stated = [p for p in h["plays"] if "analysis" in p]
    assert {p["seat"] for p in stated} == {"A"}
    assert all(set(p["analysis"]) == {"fair"} for p in stated)
    assert _cli("validate", str(out)).returncode == 0
    verified = _cli("analyze", str(out), "--hand", "11", "--verify")
    assert verified.returncode == 0, verified.stdout
    n = sum(1 for p in stated if not p["analysis"]["fair"].get("forced"))
    calls = sum(1 for c in h["auction"] if "analysis" in c)
    decl = int("analysis" in (h.get("declaration") or {}))
    words = [
        f"{n} fair decision{'s' if n != 1 else ''}",
        f"{calls} call{'s' if calls != 1 else ''}",
    ]
    words += [f"{decl} declaration"] if decl else []
    # the closing line counts the plays, the calls and the declaration drawn again
    assert (
        f"{', '.join(words)} drawn again with seed 42 and 30 worlds: all equal" in verified.stdout
    ), verified.stdout
    # the text names a call it skipped by its public words, never "call 1"
    text = _cli(*common).stdout
    assert "call 1: skipped" not in text and re.search(r"[BCD] (pass|\d+[^:]*): skipped", text)
    # and counts the hand as analysed (A's plays and calls were): JSON, CSV too
    assert ", 1 hand analysed" in text
    rows = list(csv.DictReader(io.StringIO(_cli(*common, "--format", "csv").stdout)))
    assert all(not r["skipped"] for r in rows if r["seat"] == "A" and r["fair_worlds"])
    # a partly known deal cannot state an open-hand value
    h["analysis"]["value"] = 30
    h["analysis"]["makeable"] = False
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), "utf-8")
    said = _cli("validate", str(bad))
    assert said.returncode == 1 and "cannot state the open-hand value" in said.stdout


def test_a_log_before_1_6_is_checked_by_its_own_rule_and_recomputed_when_asked(
    tmp_path: Path,
) -> None:
    assert json.loads(LEGACY.read_text("utf-8"))["version"] == "1.4"
    assert _cli("validate", str(LEGACY)).returncode == 0
    verified = _cli("analyze", str(LEGACY), "--hand", "3", "--verify")
    assert verified.returncode == 0 and "drawn again with seed 42 and 8 worlds: all equal" in (
        verified.stdout
    )
    # the same analysis said to be 1.6 lacks what 1.6 states (the best play)
    relabelled = tmp_path / "as-1.6.json"
    relabelled.write_text(
        LEGACY.read_text("utf-8").replace('"version": "1.4"', '"version": "1.6"'), "utf-8"
    )
    said = _cli("validate", str(relabelled))
    assert said.returncode == 1 and "leaves out best" in said.stdout
    again = tmp_path / "again.json"
    up = _cli("upgrade", str(LEGACY), "--reanalyse", "-o", str(again))
    assert up.returncode == 0 and "recomputed by 1.6's rule" in up.stderr, up.stderr
    doc = json.loads(again.read_text("utf-8"))
    assert doc["version"] == "1.6" and _cli("validate", str(again)).returncode == 0
    for p in doc["hands"][2]["plays"]:
        f = p["analysis"]["fair"]
        if not f.get("forced"):
            made = p["tile"] if "led" not in p else f"{p['tile']} led {p['led']}"
            assert f["best"] in f["values"]
            assert not (f["best"] == made and "mark" in f)


def test_a_marked_best_play_and_a_mark_below_its_threshold_are_refused(tmp_path: Path) -> None:
    out = tmp_path / "a.json"
    ran = _cli("analyze", str(WORKED), "--hand", "3", "--fair", "--worlds", "8", "--annotate")
    assert ran.returncode == 2  # --annotate needs -o or -i
    ran = _cli("analyze", str(WORKED), "--fair", "--worlds", "8", "--annotate", "-o", str(out))
    assert ran.returncode == 0, ran.stderr
    doc = json.loads(out.read_text("utf-8"))
    h, k, p = next(
        (h, k, p)
        for h, hand in enumerate(doc["hands"])
        for k, p in enumerate(hand.get("plays", []))
        if "analysis" in p
        and not p["analysis"]["fair"].get("forced")
        and p["analysis"]["fair"]["best"] == p["tile"]
        and "led" not in p
    )
    p["analysis"]["fair"]["mark"] = "?"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), "utf-8")
    said = _cli("validate", str(bad))
    assert said.returncode == 1
    assert f"/hands/{h}/plays/{k}/analysis/fair/mark" in said.stdout
    assert "marks its own best play ?" in said.stdout


def test_the_best_play_is_chosen_by_the_chance_then_the_mean() -> None:
    """A synthetic decision: a play with a higher mean but a lower chance is not the best in
    a game of marks, and is the best in a points game."""
    from texas42_log.analysis.fair import Decision, FairValue
    from texas42_log.engine.auction import BidKind, Contract
    from texas42_log.engine.tiles import TILE_BY_NAME

    a, b, c = ((TILE_BY_NAME[t], None) for t in ("[0|0]", "[1|1]", "[2|2]"))
    contract = Contract("A", BidKind.POINTS, 30)
    values = {
        a: FairValue(35.0, 0.0, 0.60, 0.0),  # more points, less chance
        b: FairValue(31.0, 0.0, 0.80, 0.0),
        c: FairValue(33.0, 0.0, 0.80, 0.0),  # as much chance as b, more points: the best
    }
    d = Decision("A", contract, 0, True, True, values, 10, 10, True, {}, 42, 0, "chance")
    assert d.best == c and move_key(d.best) == "[2|2]"
    assert d.chance_lost(a) == 0.2 and d.cost(a) == 0 and d.mark(a) == "??"
    assert d.mark(b) is None and d.cost(b) == 2.0 and d.note(b) is not None
    p = Decision("A", contract, 0, True, True, values, 10, 10, True, {}, 42, 0, "points")
    assert p.best == a and p.cost(b) == 4.0 and p.mark(b) == "?" and p.mark(a) is None
