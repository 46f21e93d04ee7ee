"""One set of command-line habits, held for every command (README: "Command-line
conventions"): ``-h``/``--help`` on each, help in a user's words (no Python types),
a usage error is exit 2 and one sentence (never "internal error"), ``-o -`` is
standard output for every command that writes, an output's format follows its
extension or is refused, standard input is sniffed, ``-q`` holds for JSON output."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import typer

from tests.forked_cli import Ran, forked_cli
from texas42_log.cli import app
from texas42_log.log.versions import FORMAT_VERSION

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = str(ROOT / "fixtures" / "valid" / "seed-worked-example.json")


def _commands() -> list[list[str]]:
    root = typer.main.get_command(app)
    out: list[list[str]] = []

    def walk(cmd: Any, path: list[str]) -> None:  # a click command, as typer builds it
        subs = getattr(cmd, "commands", None)
        if subs:
            for name, sub in sorted(subs.items()):
                walk(sub, path + [name])
        else:
            out.append(path)

    walk(root, [])
    return out


COMMANDS = _commands()


def run(args: list[str], cwd: Path | None = None, stdin: bytes | None = None) -> Ran:
    """The command as a new process would run it (forked from a prepared one:
    tests/forked_cli.py)."""
    return forked_cli().run(args, cwd=cwd, stdin=stdin)


def test_every_command_is_walked() -> None:
    names = {" ".join(c) for c in COMMANDS}
    assert {
        "validate",
        "replay",
        "render",
        "convert",
        "redact",
        "generate",
        "schema",
        "rules",
        "upgrade",
        "annotate add",
        "annotate list",
        "annotate remove",
    } <= names


@pytest.mark.parametrize("command", COMMANDS, ids=[" ".join(c) for c in COMMANDS])
def test_help_in_a_users_words(command: list[str]) -> None:
    for flag in ("-h", "--help"):
        p = run(command + [flag])
        text = p.stdout.decode()
        assert p.returncode == 0 and text.startswith("Usage: texas42 " + " ".join(command)), (
            p.stderr
        )
        for python in ("<list[", "<str>", "<Path", "int range>", "<int>", "<bool>"):
            assert python not in text, (command, python, text)
        assert "{" not in text.splitlines()[0], text.splitlines()[0]  # no braces around arguments


@pytest.mark.parametrize("command", COMMANDS, ids=[" ".join(c) for c in COMMANDS])
def test_an_unknown_option_is_a_usage_error(command: list[str]) -> None:
    p = run(command + ["--no-such-option", SAMPLE])
    err = p.stderr.decode()
    assert p.returncode == 2, err
    assert "internal error" not in err and "Traceback" not in err
    # One error style: the parser's usage errors read as the commands' own do.
    lines = err.splitlines()
    assert len(lines) == 2, err
    assert lines[0].startswith("texas42: error: No such option: --no-such-option"), err
    assert lines[1] == f"Try 'texas42 {' '.join(command)} -h' for help.", err
    assert "Usage:" not in err and "Error:" not in err


WRITERS = {
    "convert": ["convert", SAMPLE, "-o", "-", "--to", "text"],
    "redact": ["redact", SAMPLE, "--as", "public", "-o", "-"],
    "render": ["render", SAMPLE, "-o", "-"],
    "schema": ["schema", "-o", "-"],
    "generate": ["generate", "-o", "-"],
    "annotate add": ["annotate", "add", SAMPLE, "--text", "A note.", "-o", "-"],
    "annotate remove": [
        "annotate",
        "remove",
        str(ROOT / "fixtures" / "valid" / "annotations-extensions-rejected.json"),
        "--all",
        "-o",
        "-",
    ],
    "annotate edit": [
        "annotate",
        "edit",
        str(ROOT / "fixtures" / "valid" / "annotations-extensions-rejected.json"),
        "--id",
        "@match#1",
        "--text",
        "Edited.",
        "-o",
        "-",
    ],
    "upgrade": ["upgrade", SAMPLE, "-o", "-"],
    "analyze": ["analyze", SAMPLE, "--annotate", "--hand", "1", "--no-table", "-o", "-"],
}


def test_every_writing_command_is_in_the_table() -> None:
    writes = {" ".join(c) for c in COMMANDS if "--output" in run(c + ["-h"]).stdout.decode()}
    assert writes == set(WRITERS)


@pytest.mark.parametrize("name", list(WRITERS))
def test_dash_o_dash_is_standard_output(name: str, tmp_path: Path) -> None:
    p = run(WRITERS[name], cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert not (tmp_path / "-").exists(), f"{name} wrote a file named '-'"
    if name != "upgrade":  # a current log: nothing to upgrade, said on stdout
        assert p.stdout, name
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("name", "first"),
    [("g.t42", b"[Format"), ("g.csv", b"match,hand"), ("g.jsonl", b"{"), ("one.json", b"{\n")],
)
def test_generate_writes_the_format_its_output_names(
    name: str, first: bytes, tmp_path: Path
) -> None:
    n = "1" if name.endswith(".json") else "2"
    p = run(["generate", "-n", n, "-o", name], cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    data = (tmp_path / name).read_bytes()
    assert data.startswith(first)
    if not name.endswith(".csv"):
        v = run(["validate", name], cwd=tmp_path)
        assert v.returncode == 0, v.stdout + v.stderr


@pytest.mark.parametrize("name", ["several.json", "x.unknown"])
def test_generate_refuses_a_name_it_cannot_honour(name: str, tmp_path: Path) -> None:
    p = run(["generate", "-n", "2", "-o", name], cwd=tmp_path)
    assert p.returncode == 2 and b"error:" in p.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "source",
    [
        "fixtures/valid/seed-worked-example.json",
        "fixtures/foreign/plunge/P1_tournament_point_bids_early_end.plunge",
        "fixtures/foreign/tricksy/T1_standard_then_redeal.tricksy.json",
        "fixtures/foreign/texas-42/no_trump.receipt",
    ],
)
def test_validate_sniffs_standard_input(source: str) -> None:
    p = run(["validate", "-"], stdin=(ROOT / source).read_bytes())
    assert p.returncode == 0, p.stdout + p.stderr
    assert b"<stdin>" in p.stdout and b"valid" in p.stdout


def test_validate_sniffs_text_and_json_lines_on_standard_input(tmp_path: Path) -> None:
    assert run(["generate", "-n", "2", "-o", "g.t42"], cwd=tmp_path).returncode == 0
    assert run(["generate", "-n", "2", "-o", "g.jsonl"], cwd=tmp_path).returncode == 0
    for name, shown in (("g.t42", b"<stdin>#2: valid"), ("g.jsonl", b"<stdin>:2: valid")):
        p = run(["validate", "-"], stdin=(tmp_path / name).read_bytes())
        assert p.returncode == 0 and shown in p.stdout, p.stdout + p.stderr


def test_quiet_holds_for_json_output() -> None:
    bad = str(ROOT / "fixtures" / "invalid" / "R16-renege-proved-by-a-later-play.json")
    p = run(["validate", "-q", "--format", "json", SAMPLE, bad])
    lines = [json.loads(line) for line in p.stdout.decode().splitlines()]
    assert [line.get("file") for line in lines[:-1]] == [bad]
    assert "summary" in lines[-1]


@pytest.mark.parametrize("name", [n for n in WRITERS if n not in ("upgrade",)])
def test_no_writer_replaces_a_file_without_force(name: str, tmp_path: Path) -> None:
    target = tmp_path / (
        "out.html" if name == "render" else "out.json" if name != "convert" else "out.t42"
    )
    target.write_text("keep me", "utf-8")
    args = [str(target) if a == "-" else a for a in WRITERS[name]]
    p = run(args, cwd=tmp_path)
    assert p.returncode == 2 and b"exists" in p.stderr and b"--force" in p.stderr, p.stderr
    assert target.read_text("utf-8") == "keep me"


_NEXT = f"1.{int(FORMAT_VERSION.split('.')[1]) + 1}"  # the version after this tool's


@pytest.mark.parametrize(
    ("version", "words"),
    [
        (_NEXT, f"version {_NEXT} is newer than this tool, which reads 1.0 to {FORMAT_VERSION}"),
        ("2.0", f"version 2.0 is a later major version; this tool reads 1.0 to {FORMAT_VERSION}"),
    ],
)
def test_upgrade_says_why_a_version_is_not_current(
    version: str, words: str, tmp_path: Path
) -> None:
    log = tmp_path / "v.json"
    log.write_text(json.dumps({"format": "texas42-log", "version": version, "hands": []}), "utf-8")
    for command in (["upgrade", str(log)], ["validate", str(log)]):
        p = run(command)
        assert p.returncode == 1 and words in (p.stdout + p.stderr).decode(), p.stdout + p.stderr
        assert b"this tool writes 1.0" not in p.stdout + p.stderr


def test_replay_takes_a_range_of_plays_and_a_players_name() -> None:
    p = run(["replay", SAMPLE, "--play", "1-3", "--as", "bert", "--format", "json"])
    assert p.returncode == 0, p.stderr
    views = json.loads(p.stdout)
    assert [v["play"] for v in views] == [1, 2, 3] and {v["observer"] for v in views} == {"B"}
    bad = run(["replay", SAMPLE, "--play", "1-3", "--as", "nobody"])
    assert bad.returncode == 2 and b"Ana (A), Bert (B)" in bad.stderr


def test_a_point_contract_is_all_open_from_the_auction_on() -> None:
    """R26: once the auction ends in a point bid, every won trick is visible, trumps or not."""
    p = run(["replay", SAMPLE, "--format", "json"])
    auction = json.loads(p.stdout)[0]
    assert auction["moment"] == "auction" and auction["contract"]["kind"] == "points"
    assert auction["contract"]["visibility"] == "all"
    text = run(["replay", SAMPLE]).stdout.decode().split("\n\n")[0]
    assert "All won tricks visible" in text and "chosen with the trumps" not in text


@pytest.mark.parametrize(
    "command",
    [
        ["annotate", "add", SAMPLE, "--text", "A note."],
        ["redact", SAMPLE, "--as", "public"],
        ["convert", SAMPLE],
    ],
)
def test_every_writer_writes_the_format_its_output_names(
    command: list[str], tmp_path: Path
) -> None:
    for name, first in (("o.t42", b"[Format"), ("o.json", b"{"), ("o.jsonl", b'{"format"')):
        p = run(command + ["-o", name], cwd=tmp_path)
        assert p.returncode == 0, p.stderr
        data = (tmp_path / name).read_bytes()
        assert data.startswith(first) and (name != "o.jsonl" or data.count(b"\n") == 1), (
            name,
            data[:40],
        )
        assert run(["validate", name], cwd=tmp_path).returncode == 0
