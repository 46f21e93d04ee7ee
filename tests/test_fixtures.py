"""Every fixture validates or fails exactly as it says (docs/architecture.md: one parametrised
test)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from texas42_log.files.validate import validate_bytes

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
VALID = sorted((FIXTURES / "valid").glob("*.json"))
INVALID = json.loads((FIXTURES / "invalid-expected.json").read_text("utf-8"))
BAD = json.loads((FIXTURES / "bad-input-expected.json").read_text("utf-8"))


def test_catalogues_are_complete() -> None:
    assert len(VALID) >= 10
    assert sorted(INVALID) == sorted(p.name for p in (FIXTURES / "invalid").glob("*.json"))
    assert sorted(BAD) == sorted(p.name for p in (FIXTURES / "bad-input").iterdir())


def test_invalid_fixtures_cover_the_rules_the_engine_checks() -> None:
    rules = {d["rule"] for expected in INVALID.values() for d in expected}
    checked = {f"R{n}" for n in range(1, 32)} - {"R20", "R25", "R26", "R28", "R29"}
    # R20 only permits; R25/R26/R28/R29 govern views, not logs (see docs/format.md).
    assert checked <= rules


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_valid_fixture(path: Path) -> None:
    result = validate_bytes(path.read_bytes())
    assert result.valid, [d.message for d in result.errors]
    assert result.report is not None


@pytest.mark.parametrize("name", sorted(INVALID))
def test_invalid_fixture(name: str) -> None:
    result = validate_bytes((FIXTURES / "invalid" / name).read_bytes())
    got = [{"rule": d.rule, "pointer": d.pointer} for d in result.errors]
    assert got == INVALID[name]
    for d in result.errors:
        assert d.line is not None and d.column is not None
        # The sentence ends by citing the rule it reports: "(R16)", "(R13, R16)",
        # "(variant:plunge)".
        cited = re.search(
            r"\(((?:R\d+|variant:[a-z_]+)(?:, (?:R\d+|variant:[a-z_]+))*)\)$", d.message
        )
        assert cited is not None and d.rule in cited.group(1).split(", "), d.message


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_input(name: str) -> None:
    want = BAD[name]
    result = validate_bytes((FIXTURES / "bad-input" / name).read_bytes())
    assert len(result.errors) == 1
    d = result.errors[0]
    assert (d.rule, d.line, d.column, d.pointer) == (
        want["rule"],
        want["line"],
        want["column"],
        want["pointer"],
    )
    assert want["phrase"] in d.message
    assert "\n" not in d.message and "Traceback" not in d.message


def test_seed_worked_example_in_a_full_match() -> None:
    """Done-when: trick 1 to D with 16 hand points, hand over after trick 1, 1 mark to B+D."""
    from texas42_log.log.check import check_match
    from texas42_log.log.model import Match

    doc = json.loads((FIXTURES / "valid" / "seed-worked-example.json").read_text("utf-8"))
    hand = doc["hands"][0]
    assert hand["plays"] == [
        {"seat": "A", "tile": "[5|5]"},
        {"seat": "B", "tile": "[3|5]"},
        {"seat": "C", "tile": "[0|5]"},
        {"seat": "D", "tile": "[6|6]"},
    ]
    # Strip the recorder's outcome so that the replay, not the file, gives the answer.
    for h in doc["hands"]:
        h.pop("outcome", None)
    doc.pop("result")
    report = check_match(Match.model_validate(doc))
    assert report.errors == []
    from texas42_log.engine.auction import Auction, BidKind
    from texas42_log.engine.hand import PlayState
    from texas42_log.engine.rules import STANDARD
    from texas42_log.engine.tiles import Tile
    from texas42_log.engine.trumps import Trump

    a = Auction(STANDARD, hand["dealer"])
    for c in hand["auction"]:
        a.call(c["seat"], BidKind(c["call"]), c.get("bid"))
    contract = a.contract()
    assert contract is not None
    s = PlayState(
        STANDARD,
        contract,
        Trump.SIXES,
        {k: {Tile.parse(x) for x in v} for k, v in hand["deal"].items()},
    )
    for p in hand["plays"]:
        s.play(p["seat"], Tile.parse(p["tile"]))
    assert s.tricks[0].winner == "D" and s.tricks[0].points == 16
    assert s.result is not None and s.result.tricks_played == 1
    assert s.result.marks == {"A+C": 0, "B+D": 1}


def test_format_reference_example_validates() -> None:
    text = (FIXTURES.parent / "docs" / "format.md").read_text("utf-8")
    block = text.split("```json\n", 1)[1].split("```", 1)[0]
    result = validate_bytes(block)
    assert result.valid, [d.message for d in result.errors]
    assert result.match is not None and result.match.status == "unfinished"


def test_options_override_the_preset_and_the_report_echoes_them() -> None:
    from texas42_log.engine.rules import Rules
    from texas42_log.files.report import result_text
    from texas42_log.play.generate import random_match

    doc = random_match(5, rules=Rules(match_goal_marks=3))
    assert doc["rules"] == {"preset": "standard", "options": {"match_goal_marks": 3}}
    assert doc["version"] == "1.1"
    result = validate_bytes(json.dumps(doc))
    assert result.valid, [d.message for d in result.errors]
    assert result.diagnostics == []
    assert result.report is not None and result.report.overrides == {"match_goal_marks": 3}
    assert result_text("m.json", result).endswith("rules: standard with match_goal_marks=3)")
    # The same play under the preset's goal is a match that stopped too early (R24).
    doc["rules"]["options"]["match_goal_marks"] = 7
    result = validate_bytes(json.dumps(doc))
    assert [d.rule for d in result.errors] == ["R24", "R24"]  # no winner; stated winner wrong


def test_options_that_allow_no_bid_are_an_error() -> None:
    doc = json.loads((FIXTURES / "valid" / "random-seed-11.json").read_text("utf-8"))
    doc["rules"]["options"]["min_point_bid"] = 40
    doc["rules"]["options"]["max_point_bid"] = 35
    result = validate_bytes(json.dumps(doc))
    assert (result.errors[0].rule, result.errors[0].pointer) == (
        "R8",
        "/rules/options/min_point_bid",
    )


def test_dealer_draw_checks() -> None:
    doc = json.loads(
        (FIXTURES / "valid" / "annotations-extensions-rejected.json").read_text("utf-8")
    )
    doc["dealer_draw"][1] = {"seat": "A", "tile": "[1|2]"}
    result = validate_bytes(json.dumps(doc))
    assert [(d.rule, d.pointer) for d in result.errors] == [
        ("R4", "/dealer_draw/1/seat"),
        ("R2", "/dealer_draw/1/tile"),
    ]


def test_read_match_raises_malformed_log_with_every_problem() -> None:
    from texas42_log.engine.errors import MalformedLog
    from texas42_log.files.validate import read_match

    match = read_match((FIXTURES / "invalid" / "R16-renege.json").read_bytes())  # well-formed
    assert len(match.hands) == 14
    try:
        read_match((FIXTURES / "bad-input" / "unknown-field.json").read_bytes())
    except MalformedLog as e:
        assert isinstance(e, ValueError)
        assert (
            str(e)
            == "schema at /hands/0/plays/0/colour: unknown field 'colour'; extension fields must "
            "start with 'x-'"
        )
        assert [d.line for d in e.diagnostics] == [94]
    else:
        raise AssertionError("a malformed log was read")


@pytest.mark.parametrize(
    "path",
    sorted((FIXTURES / "valid").glob("*.json"))
    + sorted((FIXTURES / "invalid").glob("*.json"))
    + sorted((FIXTURES / "bad-input").glob("*")),
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_fast_and_full_paths_agree(path: Path) -> None:
    data = path.read_bytes()
    fast, full = validate_bytes(data), validate_bytes(data, fast=False)
    assert [d.as_dict() for d in fast.diagnostics] == [d.as_dict() for d in full.diagnostics]
