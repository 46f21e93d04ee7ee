"""One way to tell a file's format (detect in texas42_log/files/formats.py), whatever reads it.

The same bytes read the same way by every command: a named file, standard input, a
folder, ``read_matches``, ``read_view_as`` and ``upgrade``'s reader. What the user names
(``--from``) wins; otherwise the content where it is unambiguous (matches one a line
read as JSON Lines when the name says JSON or nothing); otherwise the name.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from texas42_log.cli import app
from texas42_log.files.formats import detect
from texas42_log.files.reader import read_chunks, read_matches, read_records, read_view_as
from texas42_log.log.inert import dumps
from texas42_log.play.generate import random_match

runner = CliRunner()

ONE = random_match(41, max_hands=2)
TWO = random_match(42, max_hands=3)
LINES = dumps(ONE) + "\n" + dumps(TWO) + "\n"


@pytest.mark.parametrize(
    ("name", "text", "given", "expected"),
    [
        ("two.txt", LINES, None, "jsonl"),
        ("two.json", LINES, None, "jsonl"),
        ("-", LINES, None, "jsonl"),
        ("two.jsonl", LINES, None, "jsonl"),
        ("one.txt", dumps(ONE) + "\n", None, "json"),
        ("one.json", json.dumps(ONE, indent=2), None, "json"),
        ("one.jsonl", dumps(ONE), None, "jsonl"),  # the name says one a line: so it is
        ("two.txt", LINES, "json", "json"),  # what the user names wins
        ("notes.txt", "hello", None, None),
        ("game.t42", LINES, None, "text"),  # a name that says another format is believed
        ("two.json", None, None, "json"),  # the content not read yet: the name
    ],
)
def test_detect_decides_by_given_then_content_then_name(
    name: str, text: str | None, given: str | None, expected: str | None
) -> None:
    assert detect(name, text, given) == expected


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    out = {}
    for name in ("two.txt", "two.json", "two.jsonl"):
        path = tmp_path / name
        path.write_text(LINES, "utf-8")
        out[name] = path
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "two.json").write_text(LINES, "utf-8")
    out["folder"] = folder
    return out


@pytest.mark.parametrize("name", ["two.txt", "two.json", "two.jsonl"])
def test_every_reader_reads_two_matches_one_a_line(files: dict[str, Path], name: str) -> None:
    path = str(files[name])
    records = list(read_records([path]))
    assert [r.line for r in records] == [1, 2]
    assert [r.result.valid for r in read_matches([path])] == [True, True]
    _, fmt, results = read_view_as(path)
    assert (fmt, [r.valid for r in results]) == ("jsonl", [True, True])
    assert [n for n, _ in read_chunks(path)] == [1, 2]
    # standard input, as the validate command gives it
    stdin = list(read_records(["-"], stdin=io.BytesIO(LINES.encode())))
    assert [r.line for r in stdin] == [1, 2]


@pytest.mark.parametrize("name", ["two.txt", "two.json", "two.jsonl", "folder"])
def test_the_commands_agree(files: dict[str, Path], name: str, tmp_path: Path) -> None:
    path = str(files[name])
    for args, given in (([path], None), (["-"], LINES)):
        done = runner.invoke(app, ["validate", *args, "--format", "json"], input=given)
        assert done.exit_code == 0, done.output
        lines = [json.loads(x) for x in done.stdout.splitlines()]
        matches = [x for x in lines if "file" in x]
        assert [m["valid"] for m in matches] == [True, True]
        assert [m["summary"]["hands"] for m in matches] == [len(ONE["hands"]), len(TWO["hands"])]
        assert lines[-1]["summary"]["matches"] == 2
    if name != "folder":
        out = tmp_path / f"{name}.out.jsonl"
        converted = runner.invoke(app, ["convert", path, "-o", str(out)])
        assert converted.exit_code == 0, converted.output
        assert len(out.read_text("utf-8").splitlines()) == 2
        replayed = runner.invoke(app, ["replay", path, "--match", "2", "--as", "public"])
        assert replayed.exit_code == 0, replayed.output
