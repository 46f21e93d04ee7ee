"""The text notation: lossless JSON → text → JSON for every fixture, lenient reading,
errors with line and column, and JSON Lines round trips."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from texas42_log.files.formats import match_json, read_sources, write_matches
from texas42_log.files.reader import validate_source
from texas42_log.log.model import Annotation, Match
from texas42_log.log.notation import NotationError, parse_text, parse_tile, write_text, write_texts

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "fixtures"


def _fixtures() -> list[Path]:
    """Every fixture that is a well-formed match (valid, or breaking a rule)."""
    out = []
    for path in sorted((FIX / "valid").glob("*.json")) + sorted((FIX / "invalid").glob("*.json")):
        try:
            Match.model_validate_json(path.read_bytes())
        except ValueError:
            continue
        out.append(path)
    return out


FIXTURES = _fixtures()


def differences(a: Any, b: Any, pointer: str = "") -> list[str]:
    """Every JSON pointer where two JSON values differ (field by field)."""
    if type(a) is not type(b):
        return [f"{pointer or '/'}: {a!r} != {b!r}"]
    if isinstance(a, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f"{pointer}/{k}: only in {'the original' if k in a else 'the copy'}")
            else:
                out += differences(a[k], b[k], f"{pointer}/{k}")
        return out
    if isinstance(a, list):
        if len(a) != len(b):
            return [f"{pointer}: {len(a)} items != {len(b)}"]
        return [
            d
            for k, (x, y) in enumerate(zip(a, b, strict=False))
            for d in differences(x, y, f"{pointer}/{k}")
        ]
    return [] if a == b else [f"{pointer}: {a!r} != {b!r}"]


def _extras(value: Any) -> Any:
    """Every ``x-`` field of a model tree, by path."""
    if hasattr(value, "__pydantic_extra__"):
        own = dict(value.__pydantic_extra__ or {})
        fields = {k: _extras(getattr(value, k)) for k in type(value).model_fields}
        return {"extra": own, "fields": fields}
    if isinstance(value, (list, tuple)):
        return [_extras(v) for v in value]
    return None


def test_the_fixtures_include_annotations_extensions_and_broken_logs() -> None:
    assert len(FIXTURES) >= 80
    texts = [p.read_text("utf-8") for p in FIXTURES]
    assert any('"x-' in t for t in texts) and any('"annotations"' in t for t in texts)
    assert any('"rejected": true' in t for t in texts) and any("null" in t for t in texts)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_json_to_text_to_json_is_lossless(path: Path) -> None:
    original = Match.model_validate_json(path.read_bytes())
    text = write_text(original)
    (parsed,) = parse_text(text)
    again = Match.model_validate(parsed.doc)
    a = original.model_dump(mode="json", by_alias=True)
    b = again.model_dump(mode="json", by_alias=True)
    assert differences(a, b) == []
    assert a["hands"] and again == original
    # extension fields are extras of the models: compare them too, object by object
    assert differences(_extras(original), _extras(again)) == []
    # and the JSON written from the text is the fixture's JSON, key for key
    assert differences(json.loads(path.read_text("utf-8")), match_json(again)) == []
    # writing is canonical: the text of the re-read match is the same text
    assert write_text(again) == text


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_the_json_written_for_a_fixture_is_the_fixture(path: Path) -> None:
    """Read, then written by this tool (convert, annotate): the same JSON, key for key."""
    original = json.loads(path.read_text("utf-8"))
    assert differences(original, match_json(Match.model_validate(original))) == []


def test_every_fixture_together_round_trips_through_one_text_and_through_json_lines() -> None:
    matches = [Match.model_validate_json(p.read_bytes()) for p in FIXTURES]
    text = write_texts(matches)
    assert [Match.model_validate(pm.doc) for pm in parse_text(text)] == matches
    lines = write_matches(matches, "jsonl")
    assert lines.count("\n") == len(matches)
    sources = read_sources(lines, "jsonl")
    back = [validate_source(s).match for s in sources]
    assert back == matches
    # a line's diagnostics name the line of the JSON Lines file
    broken = [k for k, p in enumerate(FIXTURES) if "invalid" in p.parts]
    result = validate_source(sources[broken[0]])
    assert not result.valid and result.errors[0].line == broken[0] + 1


def test_the_text_of_the_seed_example_reads_as_written() -> None:
    m = Match.model_validate_json(
        (FIX / "valid" / "annotations-extensions-rejected.json").read_bytes()
    )
    text = write_text(m)
    assert text.startswith('[Format "texas42-log"]\n[Version "1.0"]\n[Rules "standard"]\n')
    assert "Auction: A 30, B 29 (rejected) {Below 30: refused.}, B pass, C pass, D pass\n" in text
    assert 'C [4|4] (rejected) &{"x-reason": "renege"}' in text
    assert '{Leads the big five.}@"Ana"' in text
    assert '[Ext "/dealer_draw/3" {"x-note": "highest pip total"}]' in text


HAND_WRITTEN = """\
; a hand written down at the table
[Rules standard]
[a "Ann"] [B "Bo"]
[FirstDealer D]

hand 1 : DEALER d
deal
  a: 5-5 1-1 [1|2] 22 0-0 10 [2|0]
  b: 53 1-3 2-3 3-3 [3|0] 34 41
  c: 5-0 15 25 [5|4] 44 42 40
  d: 66 60 61 62 63 64 65
AUCTION a 30 b PASS c pass d pass
declare A TRUMP sixes {sixes, with the double?}
trick 1 A 5-5 B 5-3 C 0-5 D 6-6
Outcome: set points 0-16 marks 0-1 score 0-1
"""


def test_reading_is_lenient_in_tile_spelling_case_spacing_and_commas() -> None:
    (pm,) = parse_text(HAND_WRITTEN)
    m = Match.model_validate(pm.doc)
    hand = m.hands[0]
    assert m.players is not None and m.players.A == "Ann" and m.first_dealer == "D"
    assert hand.deal is not None and hand.deal.A == [
        "[5|5]",
        "[1|1]",
        "[1|2]",
        "[2|2]",
        "[0|0]",
        "[0|1]",
        "[0|2]",
    ]
    assert hand.declaration is not None and hand.declaration.trump == "6"
    assert hand.declaration.annotations[0].text == "sixes, with the double?"
    assert [p.tile for p in hand.plays] == ["[5|5]", "[3|5]", "[0|5]", "[6|6]"]
    assert m.version == "1.1"  # 1.0 spelled out nine options; a text without them is 1.1
    result = validate_source(read_sources(HAND_WRITTEN, "text")[0])
    # the written score says 0-1 but the match is marked complete with one hand: R24 is named
    assert {d.rule for d in result.errors} == {"R24"}
    # the canonical text of it reads back to the same match
    assert Match.model_validate(parse_text(write_text(m))[0].doc) == m


@pytest.mark.parametrize(
    "spelling", ["5-0", "0-5", "[0|5]", "[5|0]", "50", "05", "[ 5 | 0 ]", "[0-5]", "5:0"]
)
def test_tile_spellings(spelling: str) -> None:
    assert parse_tile(spelling) == "[0|5]"


@pytest.mark.parametrize("bad", ["7-0", "5", "[0|5", "a-b", "5--0", "[0|5|6]"])
def test_not_tiles(bad: str) -> None:
    assert parse_tile(bad) is None


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        (
            '[Rules "standard"]\nHand 1: dealer A\nAuction: A 30 B sing\n',
            3,
            17,
            "'sing' is not a call",
        ),
        ("Hand 1: dealer Q\n", 1, 16, "dealer's seat"),
        ('[Rules "standard"\n', 1, 1, "never closed"),
        ("Hand 1: dealer A\nTrick 1: A 7-7\n", 2, 12, "tile played"),
        ("Hand 1: dealer A\n{an open comment\n", 2, 1, "never closed"),
        ('[Colour "red"]\n', 1, 1, "unknown tag [Colour]"),
        ("Hand 1: dealer A\nDeclare: A trump purple\n", 2, 18, "'trump' is followed by"),
        ("Deal:\n  A: 5-5\n", 1, 1, "after its 'Hand N: dealer X' line"),
        ('Hand 1: dealer A &{"colour": 1}\n', 1, 18, "must start with x-"),
    ],
)
def test_errors_name_line_and_column(text: str, line: int, column: int, words: str) -> None:
    with pytest.raises(NotationError) as e:
        parse_text(text)
    assert (e.value.line, e.value.column) == (line, column)
    assert words in e.value.message


def test_rule_errors_point_into_the_text() -> None:
    text = write_text(Match.model_validate_json((FIX / "invalid" / "R16-renege.json").read_bytes()))
    result = validate_source(read_sources(text, "text")[0])
    (error,) = result.errors
    assert error.rule == "R16" and error.line is not None and error.column is not None
    line = text.split("\n")[error.line - 1]
    assert line.startswith("Trick 1:") and line[error.column - 1 :].startswith("C [0|2]")


def test_comments_escape_braces_and_keep_newlines() -> None:
    m = Match.model_validate_json((FIX / "valid" / "seed-worked-example.json").read_bytes())
    tricky = "a {brace} and a \\ backslash,\nand a second line; with a semicolon"
    m2 = m.model_copy(
        update={"annotations": (*m.annotations, Annotation(text=tricky, author="a } b"))}
    )
    (pm,) = parse_text(write_text(m2))
    assert Match.model_validate(pm.doc).annotations[-1] == Annotation(text=tricky, author="a } b")


def test_several_matches_in_one_text_start_at_each_format_tag() -> None:
    a = Match.model_validate_json((FIX / "valid" / "seed-worked-example.json").read_bytes())
    b = Match.model_validate_json((FIX / "valid" / "all-pass-redeal.json").read_bytes())
    parsed = parse_text(write_texts([a, b, a]))
    assert [Match.model_validate(p.doc) for p in parsed] == [a, b, a]
    assert parsed[1].line > parsed[0].line


def _doc_blocks() -> list[str]:
    import re

    text = (ROOT / "docs" / "notation.md").read_text("utf-8")
    full = re.findall(r"```t42\n(.*?)```", text, re.S)
    by_hand = re.findall(r"```{.t42 file=club-night.t42}\n(.*?)```", text, re.S)
    return full + by_hand


def test_the_documented_full_example_is_what_convert_writes() -> None:
    full, by_hand = _doc_blocks()
    m = Match.model_validate_json(
        (FIX / "valid" / "variant-casual-nello-plunge-splash.json").read_bytes()
    )
    assert full == write_text(m)
    # the hand-written example reads to the seeds' worked example's first hand
    (pm,) = parse_text(by_hand)
    written = Match.model_validate(pm.doc)
    seeds = Match.model_validate_json((FIX / "valid" / "seed-worked-example.json").read_bytes())
    assert written.hands[0].deal is not None and seeds.hands[0].deal is not None
    for s in "ABCD":
        assert sorted(getattr(written.hands[0].deal, s)) == sorted(getattr(seeds.hands[0].deal, s))
    assert written.hands[0].auction == seeds.hands[0].auction
    assert [(p.seat, p.tile) for p in written.hands[0].plays] == [
        (p.seat, p.tile) for p in seeds.hands[0].plays
    ]
    assert written.hands[0].declaration is not None
    assert written.hands[0].declaration.annotations[0].author == "coach"
    assert (written.hands[0].plays[3].__pydantic_extra__ or {}) == {"x-clock": "19:42"}


@pytest.mark.parametrize("preset", ["standard", "casual", "texas-42", "plunge-l", "tricksy"])
def test_random_matches_under_every_kind_of_rules_round_trip(preset: str) -> None:
    """Property: generated legal matches (auctions, specials, declared leads, early ends,
    redeals) survive JSON → text → JSON and JSON → JSON Lines → JSON exactly."""
    from texas42_log.engine.presets import PRESETS
    from texas42_log.play.generate import random_match

    matches = [
        Match.model_validate(random_match(100 + s, rules=PRESETS[preset], preset=preset))
        for s in range(15)
    ]
    for m in matches:
        (pm,) = parse_text(write_text(m))
        assert Match.model_validate(pm.doc) == m
    back = [
        validate_source(s).match for s in read_sources(write_matches(matches, "jsonl"), "jsonl")
    ]
    assert back == matches


def test_the_notation_reads_trumps_from_the_engines_one_table() -> None:
    """One table of trump words (engine.actions.TRUMP_WORDS), and docs/notation.md's
    grammar names each of its words."""
    from pathlib import Path

    from texas42_log.engine import actions
    from texas42_log.log import notation

    assert notation.TRUMP_WORDS is actions.TRUMP_WORDS
    grammar = next(
        line
        for line in (Path(__file__).resolve().parents[1] / "docs" / "notation.md")
        .read_text("utf-8")
        .splitlines()
        if line.startswith("TRUMP ")
    )
    words = {w.strip() for w in grammar.split(":=", 1)[1].split("|")}
    assert {w for w in actions.TRUMP_WORDS if not w.isdigit()} <= words
