"""`texas42 convert` of a JSON Lines corpus on several processes writes exactly what
one process writes, refuses an invalid match the same way, and --verify reads
every chunk back. (Its speed beside validate's is a benchmark row, not a test.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.forked_cli import completed

CLI = [sys.executable, "-c", "from texas42_log.entry import main; main()"]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """About 3 MB: three ranges or more for the workers."""
    path = tmp_path_factory.mktemp("bulk") / "corpus.jsonl"
    p = subprocess.run(
        CLI + ["generate", "-n", "330", "--seed", "4", "-o", str(path)],
        capture_output=True,
        timeout=120,
    )
    assert p.returncode == 0, p.stderr
    assert path.stat().st_size > 2.5e6
    return path


def run(*args: str) -> subprocess.CompletedProcess[bytes]:
    """The command as a new process runs it (forked from a prepared one, tests/forked_cli.py)."""
    return completed(list(args), timeout=300)


@pytest.mark.parametrize("suffix", [".t42", ".csv", ".jsonl"])
def test_several_processes_write_what_one_writes(corpus: Path, suffix: str, tmp_path: Path) -> None:
    one, two = tmp_path / f"one{suffix}", tmp_path / f"two{suffix}"
    assert run("convert", str(corpus), "-o", str(one), "-j", "1").returncode == 0
    p = run("convert", str(corpus), "-o", str(two), "-j", "2")
    assert p.returncode == 0, p.stderr
    assert one.read_bytes() == two.read_bytes()
    assert b"330 matches" in p.stdout


def test_an_invalid_match_stops_the_parallel_conversion(corpus: Path, tmp_path: Path) -> None:
    lines = corpus.read_text("utf-8").splitlines()
    doc = json.loads(lines[250])
    doc["hands"][0]["outcome"]["score"]["A+C"] += 1
    lines[250] = json.dumps(doc)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", "utf-8")
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}.t42"
        p = run("convert", str(bad), "-o", str(out), "-j", jobs)
        err = p.stderr.decode()
        assert p.returncode == 1 and f"{bad}:251:" in err and "error R5" in err
        assert "not written: match 251 is invalid" in err
        assert (
            not out.exists()
            and [x.name for x in tmp_path.iterdir() if x.name.startswith(".texas42")] == []
        )
        forced = run("convert", str(bad), "-o", str(out), "-j", jobs, "--force")
        assert forced.returncode == 0 and out.is_file()


def test_verify_reads_every_chunk_back(corpus: Path, tmp_path: Path) -> None:
    for jobs in ("1", "2"):
        out = tmp_path / f"v{jobs}.t42"
        p = run("convert", str(corpus), "-o", str(out), "-j", jobs, "--verify")
        assert p.returncode == 0, p.stderr
        assert out.read_bytes() == (tmp_path / "v1.t42").read_bytes()
