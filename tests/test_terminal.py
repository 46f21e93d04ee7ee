"""Behaviour on a real terminal (a pseudo-terminal): colour only there and never with
NO_COLOR; the progress line only on a terminal's stderr, only for a long run,
erased before any result is printed, and gone at the end."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-c", "from texas42_log.entry import main; main()"]
ERASE = "\r\x1b[2K"


def on_terminal(
    args: list[str], env: dict[str, str] | None = None, cwd: Path | None = None
) -> tuple[int, str]:
    """Run with stdout and stderr on one pseudo-terminal; everything it wrote there."""
    master, slave = pty.openpty()
    p = subprocess.Popen(
        CLI + args,
        stdin=subprocess.DEVNULL,
        stdout=slave,
        stderr=slave,
        cwd=cwd,
        env={**os.environ, "TERM": "xterm", "TEXAS42_PROGRESS_DELAY": "0", **(env or {})},
    )
    os.close(slave)
    out = b""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        elif p.poll() is not None:
            break
    os.close(master)
    return p.wait(timeout=30), out.decode("utf-8", "replace")


INVALID = str(ROOT / "fixtures" / "invalid" / "R16-renege.json")


def test_diagnostics_are_coloured_on_a_terminal() -> None:
    code, out = on_terminal(["validate", INVALID])
    assert code == 1
    assert "\x1b[31merror\x1b[0m" in out and "\x1b[1m" in out


@pytest.mark.parametrize("env", [{"NO_COLOR": "1"}, {"TERM": "dumb"}])
def test_no_colour_with_no_color_or_a_dumb_terminal(env: dict[str, str]) -> None:
    code, out = on_terminal(["validate", INVALID], env=env)
    assert code == 1 and "error R16" in out and not re.search(r"\x1b\[[0-9;]*m", out)


def test_no_colour_and_no_progress_into_a_pipe(tmp_path: Path) -> None:
    p = subprocess.run(
        CLI + ["validate", INVALID],
        capture_output=True,
        timeout=60,
        env={**os.environ, "TERM": "xterm"},
    )
    assert b"\x1b[" not in p.stdout + p.stderr


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("terminal") / "c.jsonl"
    subprocess.run(
        CLI + ["generate", "-n", "600", "-o", str(path)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return path


def _screen_lines(out: str) -> list[str]:
    """What a terminal shows: each line as left after its last erase, colours taken out."""
    plain = [line.split(ERASE)[-1] for line in out.replace("\r\n", "\n").split("\n")]
    return [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in plain]


def test_a_long_run_shows_progress_never_mixed_into_results(corpus: Path) -> None:
    code, out = on_terminal(["validate", str(corpus), "-j", "1"])
    assert code == 0
    assert ERASE + "validating" in out  # the line was drawn
    shown = _screen_lines(out)
    results = [line for line in shown if ": valid (" in line]
    assert len(results) == 600
    assert all(re.match(r"^\S+:\d+: valid \(", line) for line in results), [
        line for line in results if not re.match(r"^\S+:\d+: valid \(", line)
    ][:3]
    assert not any("validating" in line for line in shown)  # erased at the end


def test_no_progress_turns_it_off_and_a_short_run_never_shows_it(corpus: Path) -> None:
    code, out = on_terminal(["validate", str(corpus), "-j", "1", "--no-progress"])
    assert code == 0 and "validating" not in out
    code, out = on_terminal(
        ["validate", str(ROOT / "fixtures" / "valid" / "seed-worked-example.json")],
        env={"TEXAS42_PROGRESS_DELAY": "0.5"},
    )
    assert code == 0 and "validating" not in out and ERASE not in out


def test_convert_and_generate_show_progress_on_a_long_run(corpus: Path, tmp_path: Path) -> None:
    code, out = on_terminal(["convert", str(corpus), "-o", str(tmp_path / "c.t42"), "-j", "1"])
    assert (
        code == 0
        and ERASE + "converting" in out
        and "wrote" in _screen_lines(out)[-2] + _screen_lines(out)[-1]
    )
    code, out = on_terminal(["generate", "-n", "600", "-o", str(tmp_path / "g.jsonl")])
    assert code == 0 and ERASE + "generating" in out
    assert not any("generating" in line for line in _screen_lines(out))


def test_the_arena_shows_progress_and_then_only_its_verdict(tmp_path: Path) -> None:
    code, out = on_terminal(["arena", "rule", "random", "--deals", "300", "-j", "2"], cwd=tmp_path)
    assert code == 0 and ERASE + "arena" in out and re.search(r"arena +\d+%", out)
    screen = _screen_lines(out)
    assert not any(re.search(r"arena +\d+%", line) for line in screen)  # erased before the verdict
    assert (
        screen[0].startswith("300 duplicate deals")
        and "McNemar exact p" in screen[-2]
        and screen[-1] == ""
    )


def test_a_fair_run_counts_its_decisions_and_the_time_left(tmp_path: Path) -> None:
    worked = str(ROOT / "fixtures" / "valid" / "seed-worked-example.json")
    code, out = on_terminal(
        ["analyze", worked, "--fair", "--worlds", "60", "-j", "2", "--no-auction"]
    )
    assert code == 0
    drawn = re.findall(
        r"analysing · \d+ matches · (\d+)/(\d+) decisions · about \S+ (?:s|min) left", out
    )
    assert drawn, out[-500:]
    assert all(int(done) <= int(known) for done, known in drawn)
    assert len({done for done, _ in drawn}) >= 2  # it advanced decision by decision
    screen = _screen_lines(out)
    assert not any("decisions ·" in line for line in screen)  # erased before the report
    assert screen[0].startswith(f"{worked}: open-hand and fair analysis")
