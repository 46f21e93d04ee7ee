"""``texas42 replay`` in a terminal: ``--step`` in a real one (tmux send-keys and
capture-pane), colour and NO_COLOR, lines wrapped at spaces only (never inside
a tile), ``--play`` lists and open ranges."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.helpers import Tmux
from texas42_log.cli import app
from texas42_log.cli.stepper import keys_of
from texas42_log.views.termtext import paint, wrap_lines

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("terminal")]

ROOT = Path(__file__).resolve().parent.parent
VIEWS = "fixtures/valid/seed-example-views.json"
WORKED = "fixtures/valid/seed-worked-example.json"
TILE = re.compile(r"\[[0-6]\|[0-6]\]")
runner = CliRunner()


def _texas42(*args: str) -> str:
    return " ".join([sys.executable, "-m", "texas42_log", *args])


def test_step_through_a_hand_in_a_real_terminal() -> None:
    term = Tmux(
        "t42step",
        _texas42("replay", str(ROOT / VIEWS), "--hand", "2", "--step"),
        env="TERM=xterm-256color",
        width=120,
        height=40,
    )
    try:
        s = term.wait_for("View 1 of 39")
        assert "Hand 2 · after call 1 · view: spectator" in s and "Next to call: C." in s
        for _ in range(3):
            term.keys("Right")
        assert "Hand 2 · after the auction · view: spectator" in term.wait_for("View 4 of 39")
        # The declaration, plays 1–12 and tricks 1–3 collected: the seeds' view 4.
        for _ in range(16):
            term.keys("Right")
        s = term.wait_for("View 20 of 39")
        assert "Hand 2 · after trick 3 · view: spectator" in s
        assert "Visible won faces: 3 (A+C) [0|4], [1|4], [3|4], [4|4]." in s
        term.keys("Left")  # mid-trick moments are moments too: trick 3's last tile, on the table
        s = term.wait_for("View 19 of 39")
        assert (
            "after play 12 (trick 3)" in s
            and "Played in order: 1. A [4|4]; 2. B [0|4]; 3. C [1|4]; 4. D [3|4]." in s
        )
        term.keys("Left")
        assert "3. C [1|4]." in term.wait_for("after play 11 (trick 3)")
        term.keys("End")
        term.wait_for("Hand 9 · ")
        term.keys("Home")
        term.wait_for("Hand 1 · after call 1")
        term.keys("PageDown")
        term.wait_for("Hand 2 · after call 1")
        term.keys("PageUp")
        term.wait_for("Hand 1 · after call 1")
        term.keys("Left")  # already at the start: stays
        assert "View 1 of" in term.wait_for("Hand 1 · after call 1")
        # Colour: tiles and whose turn it is, on a colour terminal.
        term.keys("PageDown", "Right", "Right", "Right", "Right")
        term.wait_for("Hand 2 · after the declaration")
        coloured = term.screen(escapes=True)
        assert "\x1b[" in coloured and re.search(
            r"\x1b\[[0-9;]*43m[^\n]*Next to play: A\.", coloured
        ), coloured
        term.keys("q")
        s = term.wait_for("exit=0")
        assert "View 5 of 39" not in s  # the alternate screen is gone: the shell's screen is back
    finally:
        term.close()


def test_no_color_is_honoured_and_tiles_are_coloured_without_it() -> None:
    command = _texas42("replay", str(ROOT / WORKED), "--play", "2")
    plain, coloured = Tmux("t42nc", command), Tmux("t42c", command, env="TERM=xterm-256color")
    try:
        grey = plain.wait_for("exit=0")
        assert "Played in order: 1. A [5|5]; 2. B [3|5]." in grey
        assert "\x1b[" not in plain.screen(escapes=True)
        coloured.wait_for("exit=0")
        screen = coloured.screen(escapes=True)
        assert re.search(r"\x1b\[[0-9;]*47m\[5\|5\]", screen), screen  # a tile: a white face
        assert re.search(r"\x1b\[[0-9;]*43m[^\n]*Next to play: C\.", screen), screen
    finally:
        plain.close()
        coloured.close()


def test_step_needs_a_terminal() -> None:
    p = subprocess.run(
        [sys.executable, "-m", "texas42_log", "replay", WORKED, "--step"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert p.returncode == 2 and "--step needs a terminal" in p.stderr and p.stdout == ""


def test_the_keys_of_a_terminal() -> None:
    assert keys_of(b"\x1b[C\x1b[D\x1bOH\x1b[4~\x1b[5~\x1b[6~q") == [
        "next",
        "prev",
        "home",
        "end",
        "prev-hand",
        "next-hand",
        "quit",
    ]
    assert keys_of(b"\x1b") == ["quit"] and keys_of(b"x\x1b[99;5Zl") == [
        "next"
    ]  # unknown keys: ignored


@pytest.mark.parametrize("width", [12, 20, 33, 48, 80])
def test_wrapped_lines_never_break_inside_a_tile(width: int) -> None:
    p = runner.invoke(app, ["replay", WORKED, "--as", "omniscient", "--width", str(width)])
    assert p.exit_code == 0
    whole = runner.invoke(app, ["replay", WORKED, "--as", "omniscient"]).stdout
    assert max(len(line) for line in whole.splitlines()) > 80  # piped: whole lines by default
    lines = p.stdout.splitlines()
    for line in lines:
        assert len(line) <= width or " " not in line.strip(), (
            line
        )  # only a word longer than the width
        # every bracket and bar on a line belongs to a whole tile: none is split between lines
        assert line.count("[") == line.count("|") == len(TILE.findall(line)), line
    assert TILE.findall(p.stdout) == TILE.findall(whole)  # every tile, whole and in order
    assert re.sub(r"\s+", " ", p.stdout) == re.sub(r"\s+", " ", whole)  # the same words


def test_wrap_and_paint() -> None:
    lines = wrap_lines(["Played in order: 1. A [5|5]; 2. B [3|5].", "Next to play: C."], 20)
    assert lines == ["Played in order: 1.", "  A [5|5]; 2. B", "  [3|5].", "Next to play: C."]
    painted = paint(lines, turn="Next to play: C.")
    assert (
        painted[1] == "  A \x1b[30;47m[5|5]\x1b[0m; 2. B"
        and painted[3] == "\x1b[1;30;43mNext to play: C.\x1b[0m"
    )
    assert painted[0].startswith("\x1b[1m")  # the header


def test_play_takes_lists_and_open_ranges() -> None:
    p = runner.invoke(app, ["replay", VIEWS, "--hand", "2", "--play", "1-2,12,26-"])
    assert p.exit_code == 0, p.stderr
    heads = [line for line in p.stdout.splitlines() if line.startswith("Hand 2 · ")]
    assert [h.split(" · ")[1] for h in heads] == [
        "after play 1 (trick 1)",
        "after play 2 (trick 1)",
        "after play 12 (trick 3)",
        "after play 26 (trick 7)",
        "after play 27 (trick 7)",
        "after play 28 (trick 7)",
    ]
    bad = runner.invoke(app, ["replay", VIEWS, "--play", "3-1"])
    assert bad.exit_code == 2 and "1-3" in bad.stderr
    bad = runner.invoke(app, ["replay", VIEWS, "--play", "1;2"])
    assert bad.exit_code == 2 and "12-" in bad.stderr
