"""Comments and names are text a log can hold: never half a character (a lone
surrogate, which is how Python holds argument bytes that were not UTF-8), whether
they come from the command line, a ``--from`` file or the Python API; and the
targets a user names (a match, a JSON pointer) are numbers a match can have."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from texas42_log.cli import app
from texas42_log.log.annotate import Target, TargetError, add, remove_at
from texas42_log.log.model import Annotation, Match, Players

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "fixtures" / "valid" / "seed-worked-example.json"


def sample() -> Match:
    return Match.model_validate_json(SAMPLE.read_bytes())


@pytest.mark.parametrize("half", ["\udcff", "\ud800", "ok\udfffok"])
def test_the_model_holds_no_half_character(half: str) -> None:
    with pytest.raises(ValidationError, match="half of a character"):
        Annotation(text=half)
    with pytest.raises(ValidationError, match="half of a character"):
        Annotation(text="fine", author=half)
    with pytest.raises(ValidationError, match="half of a character"):
        Players(A=half)
    assert Annotation(text="whole: \U0001f0a1 ٣ \u202e").text  # any whole character is fine


def test_add_refuses_half_a_character_and_says_why() -> None:
    with pytest.raises(TargetError, match=r"text holds \\udcff, half of a character"):
        add(sample(), Target(), "bad \udcff")
    with pytest.raises(TargetError, match=r"author holds \\ud800"):
        add(sample(), Target(hand=1), "fine", "\ud800")


def test_a_comment_typed_in_another_encoding_is_refused_and_nothing_written(tmp_path: Path) -> None:
    out = tmp_path / "noted.json"
    r = CliRunner().invoke(app, ["annotate", "add", str(SAMPLE), "-t", "caf\udce9", "-o", str(out)])
    assert r.exit_code == 2 and "half of a character" in r.stderr and not out.exists()


@pytest.mark.parametrize(
    ("items", "words"),
    [
        ([{"match": 0, "text": "x"}], "there is no match 0"),
        ([{"match": "0", "text": "x"}], "there is no match 0"),
        ([{"match": 2, "text": "x"}], "there is no match 2"),
        ([{"hand": 0, "text": "x"}], "there is no hand 0"),
        ([{"text": "caf\udce9"}], "half of a character"),
    ],
)
def test_from_file_items_name_a_match_and_hand_that_exist(
    tmp_path: Path, items: list[dict[str, object]], words: str
) -> None:
    notes = tmp_path / "notes.jsonl"
    # Written as JSON escapes, as a file would hold them (a raw half character cannot be UTF-8).
    notes.write_text("\n".join(json.dumps(i) for i in items) + "\n", "utf-8")
    out = tmp_path / "noted.json"
    r = CliRunner().invoke(
        app, ["annotate", "add", str(SAMPLE), "--from", str(notes), "-o", str(out)]
    )
    assert r.exit_code != 0 and not out.exists(), r.stderr
    assert words in r.stderr or "lone surrogate" in r.stderr, r.stderr


@pytest.mark.parametrize(
    "pointer",
    [
        "/annotations/" + "9" * 5000,
        "/hands/" + "9" * 5000 + "/annotations/0",
        "/hands/0/plays/" + "1" * 40 + "/annotations/0",
        "/annotations/00",
        "/annotations/\u0661",
    ],
)
def test_a_pointer_with_no_such_index_is_no_comment(pointer: str) -> None:
    with pytest.raises(TargetError) as e:
        remove_at(sample(), pointer)
    assert len(str(e.value)) < 200  # the pointer is cut short in the sentence, not printed whole


def test_a_pointer_that_exists_removes_that_comment() -> None:
    noted = add(sample(), Target(hand=2, play=3), "third play")
    assert remove_at(noted, "/hands/1/plays/2/annotations/0").hands[1].plays[2].annotations == ()
