"""The ``texas42`` command: output, exit codes (0 valid, 1 invalid, 2 usage), no tracebacks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion
from typer.testing import CliRunner

from texas42_log.cli import app

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "fixtures"
runner = CliRunner()


def run(*args: str, input: bytes | str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def test_valid_file_exit_0(snapshot: SnapshotAssertion) -> None:
    code, out, _ = run("validate", "fixtures/valid/seed-worked-example.json")
    assert code == 0, out
    assert out == snapshot


def test_invalid_file_exit_1_text(snapshot: SnapshotAssertion) -> None:
    code, out, _ = run(
        "validate",
        "fixtures/invalid/R16-renege.json",
        "fixtures/invalid/several-errors-in-one-match.json",
        "fixtures/bad-input/truncated.json",
    )
    assert code == 1, out
    assert out == snapshot


def test_json_output(snapshot: SnapshotAssertion) -> None:
    code, out, _ = run(
        "validate",
        "--format",
        "json",
        "fixtures/invalid/R13-trump-tile-does-not-follow-its-number.json",
    )
    assert code == 1
    match, summary = [
        json.loads(line) for line in out.splitlines()
    ]  # JSON Lines: a match, the summary
    assert summary["summary"]["invalid"] == 1 and summary["summary"]["valid"] == 0
    assert summary["summary"]["rules"] == {"R13": 1}
    d = match["diagnostics"][0]
    assert d["rule"] == "R13" and d["pointer"].startswith("/hands/") and d["line"] > 0
    assert d["context"]["could_follow"]
    assert match == snapshot


def test_mixed_files_exit_1_when_any_invalid() -> None:
    code, out, _ = run(
        "validate", "fixtures/valid/random-seed-11.json", "fixtures/invalid/R8-bid-below-30.json"
    )
    assert code == 1
    assert "random-seed-11.json: valid" in out and "R8-bid-below-30.json: invalid, 1 error" in out


def test_stdin() -> None:
    data = (FIX / "valid" / "all-pass-redeal.json").read_bytes()
    code, out, _ = run("validate", "-", input=data)
    assert code == 0 and out.startswith("<stdin>: valid")
    code, out, _ = run("validate", "-", input=b"{")
    assert code == 1 and "<stdin>:1:2: error json" in out


@pytest.mark.parametrize(
    ("args", "phrase"),
    [
        (["validate", "fixtures/no-such-file.json"], "no such file"),
        (["validate", "fixtures/no-such-folder/"], "no such file"),
        (["validate", "fixtures/*.nothing"], "no file matches this pattern"),
        (["validate"], "Missing argument"),
        (["validate", "--format", "xml", "fixtures/valid/random-seed-11.json"], "xml"),
        (["frobnicate"], "No such command"),
        (
            ["rules", "--preset", "house"],
            "unknown rules preset 'house'; known presets: casual, mk5, plunge-c, plunge-f, "
            "plunge-l, plunge-t, standard, texas-42, tournament, tricksy",
        ),
    ],
)
def test_usage_errors_exit_2(args: list[str], phrase: str) -> None:
    code, out, err = run(*args)
    assert code == 2, out + err
    assert phrase in out + err


def test_schema_command_prints_the_committed_schema() -> None:
    code, out, _ = run("schema")
    assert code == 0
    assert out == (ROOT / "schema" / "texas42-log.v1.schema.json").read_text("utf-8")


def test_schema_output_is_written_atomically(tmp_path: Path) -> None:
    target = tmp_path / "s.json"
    target.write_text("old")
    code, _, err = run("schema", "-o", str(target))
    assert (
        code == 2 and "exists; pass --force" in err and target.read_text() == "old"
    )  # never over a file unasked
    code, _, _ = run("schema", "-o", str(target), "--force")
    assert code == 0 and json.loads(target.read_text())["$id"].endswith(".schema.json")
    assert [p.name for p in tmp_path.iterdir()] == ["s.json"]  # no temporary file left


def test_rules_command(snapshot: SnapshotAssertion) -> None:
    code, out, _ = run("rules")
    assert code == 0 and out == snapshot


def _cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ)
    env.pop("TEXAS42_DEBUG", None)
    return subprocess.run(
        [sys.executable, "-m", "texas42_log", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )


def test_fifty_megabyte_file_is_refused_clearly(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as f:
        f.write(b'{"format": "texas42-log", "version": "1.0", "x-pad": "')
        f.write(b"x" * (50 * 1024 * 1024))
        f.write(b'"}')
    p = _cli("validate", str(big))
    assert p.returncode == 1
    text = p.stdout.decode()
    assert "the input is 52.4 MB; one match log is at most 16.8 MB" in text
    assert b"Traceback" not in p.stdout + p.stderr


@pytest.mark.parametrize(
    "data",
    [
        b"[" * 100_000 + b"]" * 100_000,  # nested too deep for any parser's stack
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",  # binary
        b'{"format": "texas42-log", "version": "1.0", "hands": [' + b'{"dealer": 7},' * 3 + b"{}]}",
        b'{"format": "texas42-log", "version": 1.0}',
        b"\xef\xbb\xbf{}",
    ],
)
def test_no_traceback_on_hostile_input(data: bytes) -> None:
    p = _cli("validate", "-", stdin=data)
    assert p.returncode == 1, p.stderr
    assert b"Traceback" not in p.stdout + p.stderr
    assert p.stdout.decode().strip().endswith(("error", "errors"))


def test_python_dash_m_and_version() -> None:
    p = _cli("--version")
    assert p.returncode == 0 and p.stdout.decode().startswith("texas42-log ")
