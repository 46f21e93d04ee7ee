"""The one reader (texas42_log.files.reader): every kind of input name, every format,
streamed JSON Lines, one sentence for each refusal — and a format registered with one
call is read by every command."""

from __future__ import annotations

import base64
import io
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from typer.testing import CliRunner

from texas42_log import Format, InputError, ReadError, read_matches, register_format
from texas42_log.cli import app
from texas42_log.files import formats
from texas42_log.files.documents import read_documents, read_items
from texas42_log.files.formats import ConvertError, Source
from texas42_log.files.reader import read_chunks, read_view

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "fixtures"
GAME = FIX / "valid" / "seed-worked-example.json"
runner = CliRunner()


def _read_b64(text: str) -> list[Source]:
    try:
        raw = base64.b64decode(text.strip(), validate=True).decode("utf-8")
    except ValueError as e:
        raise ConvertError(f"not base64 ({e})", 1, 1) from None
    return [Source(1, 1, raw=raw)]


def _write_b64(matches: list[object]) -> str:
    return base64.b64encode(formats.REGISTRY["json"].write(matches).encode()).decode() + "\n"  # type: ignore[misc, arg-type]


def _looks_like(head: str) -> bool:
    """Base64 of a JSON object: ``{`` is ``ey`` (then ``"``) or ``ew`` (then a newline)."""
    return head.startswith(("eyJ", "ewo"))


@contextmanager
def _registered() -> Iterator[str]:
    """A format made up for the test, registered with the one call a format needs,
    and taken out again afterwards."""
    register_format(
        Format(
            "json-base64",
            (".b64",),
            ("base64",),
            read=_read_b64,
            write=_write_b64,
            looks_like=_looks_like,
            summary="our JSON, base64",
        )
    )
    try:
        yield "json-base64"
    finally:
        del formats.REGISTRY["json-base64"]
        formats._refresh()


@pytest.fixture
def b64() -> Iterator[str]:
    with _registered() as name:
        yield name


def test_one_registration_teaches_every_command_a_format(b64: str, tmp_path: Path) -> None:
    game = tmp_path / "game.b64"
    game.write_text(base64.b64encode(GAME.read_bytes()).decode())
    # validate, by the file's name
    r = runner.invoke(app, ["validate", str(game), "-j", "1"])
    assert r.exit_code == 0 and "valid (11 hands" in r.stdout, r.output
    # replay and render read it like any other log
    r = runner.invoke(app, ["replay", str(game), "--as", "A", "--hand", "1", "--trick", "1"])
    assert r.exit_code == 0 and "Hand 1" in r.stdout, r.output
    r = runner.invoke(
        app, ["render", str(game), "--as", "public", "-o", str(tmp_path / "game.html")]
    )
    assert r.exit_code == 0, r.output
    # convert from it, and to it by its other name and by its extension
    r = runner.invoke(app, ["convert", str(game), "-o", str(tmp_path / "game.t42")])
    assert r.exit_code == 0, r.output
    r = runner.invoke(
        app,
        ["convert", str(tmp_path / "game.t42"), "--to", "base64", "-o", str(tmp_path / "back.b64")],
    )
    assert r.exit_code == 0, r.output
    back = json.loads(base64.b64decode((tmp_path / "back.b64").read_text()))
    assert back["hands"] == json.loads(GAME.read_bytes())["hands"]
    # standard input: sniffed
    r = runner.invoke(app, ["convert", "-", "-o", "-", "--to", "json"], input=game.read_bytes())
    assert r.exit_code == 0 and json.loads(r.stdout)["hands"], r.output
    # a file that is not in the format: the format's own sentence, placed
    bad = tmp_path / "bad.b64"
    bad.write_text("not base64 at all!")
    r = runner.invoke(app, ["convert", str(bad), "-o", str(tmp_path / "x.json")])
    assert (
        r.exit_code == 1
        and f"{bad}:1:1: error format: not a json-base64 file: not base64" in r.stderr
    )
    # and the Python API
    (read,) = read_matches([str(game)])
    assert (read.format, read.result.valid) == ("json-base64", True)


def test_the_registration_is_gone_afterwards() -> None:
    with _registered():
        assert (
            "json-base64" in formats.READABLE and formats.format_for_name("x.b64") == "json-base64"
        )
    assert "json-base64" not in formats.READABLE and formats.format_for_name("x.b64") is None


def test_read_matches_takes_folders_globs_and_every_format(tmp_path: Path) -> None:
    names = sorted(p.name for p in (FIX / "valid").iterdir() if p.suffix == ".json")
    reads = list(read_matches([str(FIX / "valid")]))
    assert [Path(r.name).name for r in reads] == names and all(r.result.valid for r in reads)
    foreign = list(read_matches([str(FIX / "foreign" / "**" / "*.plunge")]))
    assert foreign and {r.format for r in foreign} == {"plunge-code"}
    text = tmp_path / "two.t42"
    runner.invoke(
        app, ["convert", str(GAME), str(FIX / "valid" / "every-trump-choice.json"), "-o", str(text)]
    )
    assert [(r.number, r.format) for r in read_matches([str(text)])] == [(1, "text"), (2, "text")]


def test_standard_input_is_sniffed(tmp_path: Path) -> None:
    t42 = tmp_path / "g.t42"
    runner.invoke(app, ["convert", str(GAME), "-o", str(t42)])
    (read,) = read_matches(["-"], stdin=io.BytesIO(t42.read_bytes()))
    assert (read.name, read.format, read.result.valid) == ("<stdin>", "text", True)


def test_json_lines_are_streamed(tmp_path: Path) -> None:
    """The first matches come before a bad line far down is even read."""
    corpus = tmp_path / "c.jsonl"
    line = json.dumps(json.loads(GAME.read_bytes())) + "\n"
    corpus.write_bytes(line.encode() * 3 + b"\xff not UTF-8\n")
    it = read_matches([str(corpus)])
    first = [next(it) for _ in range(3)]
    assert [r.number for r in first] == [1, 2, 3] and all(r.result.valid for r in first)
    with pytest.raises(ReadError) as e:
        next(it)
    assert e.value.diagnostic and str(e.value).startswith(
        f"{corpus}:4:1: error encoding: not UTF-8"
    )


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"", "holds no match"),
        (b"\n  \n", "holds no match"),
        (
            b"hand 1\n@@@ nonsense\n",
            ":2:1: error format: not a text file: '@' must be followed by the author's name",
        ),
    ],
)
def test_a_file_with_nothing_to_read_is_one_sentence(
    tmp_path: Path, content: bytes, words: str
) -> None:
    f = tmp_path / "x.t42"
    f.write_bytes(content)
    with pytest.raises(ReadError) as e:
        list(read_matches([str(f)]))
    assert words in str(e.value) and str(e.value).startswith(str(f))


def test_names_that_are_wrong_are_usage_errors(tmp_path: Path) -> None:
    for name in [str(tmp_path / "missing.json"), str(tmp_path / "*.nothing")]:
        with pytest.raises(InputError) as e:
            list(read_matches([name]))
        assert e.value.usage
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(InputError) as e:
        list(read_matches([str(fifo)]))
    assert not e.value.usage and "named pipe with nothing written to it" in str(e.value)


def test_read_view_falls_back_from_json_to_the_format_the_text_looks_like(tmp_path: Path) -> None:
    t42 = tmp_path / "game.txt"  # a name that says nothing
    runner.invoke(app, ["convert", str(GAME), "-o", str(tmp_path / "g.t42")])
    t42.write_bytes((tmp_path / "g.t42").read_bytes())
    source, results = read_view(str(t42))
    assert source == str(t42) and len(results) == 1 and results[0].valid


def test_documents_of_any_version_and_items(tmp_path: Path) -> None:
    docs = tmp_path / "d.jsonl"
    docs.write_text(json.dumps({"format": "texas42-log", "version": "1.0"}) + "\n\n" + "[1]\n")
    with pytest.raises(ReadError) as e:
        read_documents(str(docs))
    assert str(e.value) == f"{docs}:3: error format: a log is a JSON object"
    assert read_chunks(str(docs))[0][0] == 1
    items = tmp_path / "notes.csv"
    items.write_text("hand,play,text\n1,2,nice\n")
    assert read_items(str(items)) == [{"hand": "1", "play": "2", "text": "nice"}]
    items.write_text("")
    with pytest.raises(ReadError, match="holds no comments"):
        read_items(str(items))


def test_a_file_in_a_folder_that_may_not_be_searched_is_denied_not_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without search permission on a folder, nothing in it can be seen to exist: the
    file is there, and the message says permission denied and which folder, exit 1."""
    import os
    from typing import Any

    from texas42_log.files import inputs
    from texas42_log.files.inputs import expand_inputs

    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "a.json").write_text("{}")
    real_lstat, real_access = os.lstat, os.access

    def lstat(p: Any, *a: Any, **k: Any) -> Any:
        if str(p).startswith(str(locked) + os.sep):
            raise PermissionError(13, "Permission denied", str(p))
        return real_lstat(p, *a, **k)

    def access(p: Any, mode: int, *a: Any, **k: Any) -> bool:
        return False if str(p) == str(locked) else real_access(p, mode, *a, **k)

    monkeypatch.setattr(inputs.os, "lstat", lstat)
    monkeypatch.setattr(inputs.os, "access", access)
    monkeypatch.setattr(inputs.os.path, "lexists", lambda p: False)
    with pytest.raises(InputError) as e:
        expand_inputs([str(locked / "a.json")])
    assert str(e.value) == (
        f"{locked / 'a.json'}: permission denied (the folder {locked} may not be searched, so "
        "nothing in it can be found)"
    )
    assert not e.value.usage
    with pytest.raises(InputError, match="no such file"):
        expand_inputs([str(tmp_path / "missing.json")])
