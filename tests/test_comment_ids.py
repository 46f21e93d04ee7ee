"""Comment ids (format 1.7) and the merge of changes by id (texas42_log.log.comments),
and ``annotate edit`` / ``remove --id`` / ``list`` over them."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.helpers import run_texas42
from texas42_log.files.validate import validate_bytes
from texas42_log.log.annotate import Target
from texas42_log.log.comments import (
    MAX_TEXT,
    Add,
    CommentError,
    Edit,
    Remove,
    apply_changes,
    comments,
    content_key,
    id_problems,
    with_ids,
)
from texas42_log.log.model import Match
from texas42_log.log.notation import parse_text
from texas42_log.log.notation_writer import write_text

FIX = Path(__file__).resolve().parent.parent / "fixtures" / "valid"
NOTED = FIX / "annotations-extensions-rejected.json"


def _match(path: Path = NOTED) -> Match:
    return Match.model_validate_json(path.read_bytes())


def test_an_add_gets_a_random_id_and_the_log_becomes_1_7() -> None:
    m = _match()
    done = apply_changes(m, [Add(Target(1, play=2), "Lead trumps.", "coach")])
    (key,) = done.ids
    assert key is not None and len(key) == 12
    assert m.version != "1.7" and done.match.version == "1.7"
    found = {c.key: c for c in comments(done.match)}
    assert found[key].note.text == "Lead trumps." and found[key].target == Target(1, play=2)
    # every comment has an id now, each once, and the log is valid
    assert all(not c.key.startswith("@") for c in comments(done.match))
    text = done.match.model_dump_json(by_alias=True, exclude_none=True)
    assert validate_bytes(text.encode()).valid
    # a second add from the same state gets another id
    again = apply_changes(m, [Add(Target(1, play=2), "Lead trumps.", "coach")])
    assert again.ids != done.ids


def test_a_comment_without_an_id_is_named_by_where_it_is() -> None:
    m = _match()
    keys = [c.key for c in comments(m)]
    assert "@hand 1 play 1#1" in keys and "@match#1" in keys
    done = apply_changes(m, [Edit("@hand 1 play 1#1", "Leads the big five.", "Leads the 5-5.")])
    assert done.conflicts == [] and done.ids[0] is not None
    assert {c.note.text for c in comments(done.match)} >= {"Leads the 5-5."}


def test_edits_conflict_only_when_the_text_changed_meanwhile() -> None:
    m = with_ids(_match())
    c = next(c for c in comments(m) if c.target == Target(1, play=1))
    first = apply_changes(m, [Edit(c.key, c.note.text, "mine")])
    # a second edit made on the old text: not applied, both texts told
    second = apply_changes(first.match, [Edit(c.key, c.note.text, "theirs")])
    (k,) = second.conflicts
    assert (k.theirs, k.yours, k.base) == ("mine", "theirs", c.note.text)
    assert second.match == first.match
    # made on the text as it is now: applied
    third = apply_changes(first.match, [Edit(c.key, "mine", "ours")])
    assert third.conflicts == []
    # a removal of a comment changed meanwhile is a conflict too (the edit is not lost)
    gone = apply_changes(first.match, [Remove(c.key, c.note.text)])
    assert gone.conflicts and gone.conflicts[0].yours is None
    # removed already: done; edited after its removal: a conflict saying so
    removed = apply_changes(first.match, [Remove(c.key, "mine")]).match
    assert apply_changes(removed, [Remove(c.key, "mine")]).conflicts == []
    late = apply_changes(removed, [Edit(c.key, "mine", "late")])
    assert late.conflicts[0].theirs is None and "removed meanwhile" in late.conflicts[0].sentence()


def test_adds_from_many_people_are_all_kept() -> None:
    m = _match()
    for k in range(30):
        m = apply_changes(m, [Add(Target(1 + k % 2), f"note {k}")]).match
    texts = [c.note.text for c in comments(m)]
    assert all(f"note {k}" in texts for k in range(30))
    assert len({c.key for c in comments(m)}) == len(texts)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (Add(Target(1, play=2), "   "), "needs some text"),
        (Add(Target(1, play=2), "x" * (MAX_TEXT + 1)), "at most 10,000"),
        (Add(Target(1, play=2), "ok", "y" * 201), "at most 200"),
        (Add(Target(1, play=2), "a\ud800b"), "half of a character"),
        (Add(Target(99), "x"), "no hand 99"),
        (Add(Target(1, play=999), "x"), "no play 999"),
    ],
)
def test_a_change_no_log_can_hold_is_refused_whole(change: Add, words: str) -> None:
    m = _match()
    with pytest.raises(CommentError, match=words):
        apply_changes(m, [Add(Target(), "fine"), change])


def test_an_id_given_twice_is_a_format_error_with_its_pointer() -> None:
    doc = json.loads(NOTED.read_text("utf-8"))
    doc["version"] = "1.7"
    doc["annotations"] = [{"text": "a", "id": "same"}, {"text": "b", "id": "same"}]
    result = validate_bytes(json.dumps(doc).encode())
    assert not result.valid
    (d,) = result.errors
    assert (d.rule, d.pointer) == ("format", "/annotations/1/id")
    assert "given twice" in d.message and d.line is not None
    assert id_problems(Match.model_validate(doc))


@pytest.mark.parametrize("bad", ["", "has space", "x" * 41, "é", "a/b"])
def test_an_id_is_letters_digits_dash_underscore(bad: str) -> None:
    doc = json.loads(NOTED.read_text("utf-8"))
    doc["version"] = "1.7"
    doc["annotations"] = [{"text": "a", "id": bad}]
    result = validate_bytes(json.dumps(doc).encode())
    assert not result.valid and result.errors[0].pointer == "/annotations/0/id"


def test_an_id_needs_version_1_7() -> None:
    m = with_ids(_match())
    assert m.version != "1.7"  # with_ids alone does not raise it; apply_changes does
    doc = json.loads(m.model_dump_json(by_alias=True, exclude_none=True))
    result = validate_bytes(json.dumps(doc).encode())
    assert not result.valid and "1.7" in result.errors[0].message
    assert result.errors[0].pointer == "/version"


def test_ids_survive_the_text_notation() -> None:
    m = apply_changes(_match(), [Add(Target(1, play=2), "Lead {trumps}.", "coach")]).match
    text = write_text(m)
    assert '&{"id": ' in text
    (back,) = parse_text(text)
    again = Match.model_validate(back.doc)
    assert [c.key for c in comments(again)] == [c.key for c in comments(m)]
    assert content_key(again) == content_key(m)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return run_texas42(*args, timeout=60)


def test_annotate_lists_edits_and_removes_by_id(tmp_path: Path) -> None:
    log = tmp_path / "game.json"
    log.write_bytes(NOTED.read_bytes())
    listed = _cli("annotate", "list", str(log))
    assert "[@hand 1 play 1#1]" in listed.stdout
    r = _cli("annotate", "edit", str(log), "--id", "@hand 1 play 1#1", "-t", "Bold lead.", "-i")
    assert r.returncode == 0, r.stderr
    items = json.loads(_cli("annotate", "list", str(log), "-f", "json").stdout)
    edited = next(i for i in items if i["text"] == "Bold lead.")
    assert edited["author"] == "Ana"  # kept when --author is not given
    assert not edited["id"].startswith("@")
    assert json.loads(log.read_text("utf-8"))["version"] == "1.7"
    r = _cli("annotate", "remove", str(log), "--id", edited["id"], "-i")
    assert r.returncode == 0, r.stderr
    assert "Bold lead." not in log.read_text("utf-8")
    assert _cli("validate", str(log)).returncode == 0
    r = _cli("annotate", "remove", str(log), "--id", "nope", "-i")
    assert r.returncode == 2 and "no comment with the id" in r.stderr
