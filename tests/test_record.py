"""``texas42 record``: a full match from a pipe and from a real terminal (tmux); an
illegal entry refused with its rule and nothing changed (R30); the log on disk
valid after every entry, so ``kill -9`` loses nothing and ``record FILE`` goes on."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import Tmux
from texas42_log import Game
from texas42_log.log.check import check_match
from texas42_log.log.model import Match
from texas42_log.play.recorder import HELP, Recorder, options_text
from tools.smoke import call_text, declaration_text, entries

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("terminal")]

TEXAS42 = [sys.executable, "-m", "texas42_log"]
PLAYERS = {"A": "Ana", "B": "Ben", "C": "Cleo", "D": "Dan"}
NEW = [
    "--rules",
    "standard",
    "--first-dealer",
    "B",
    *[f"--player={s}={n}" for s, n in PLAYERS.items()],
]


def _played(seed: int, preset: str = "standard") -> Game:
    game = Game(preset, seed=seed, first_dealer="B", players=PLAYERS)  # type: ignore[arg-type]
    rng = random.Random(seed)
    while game.to_act is not None:
        game.push(rng.choice(game.legal_actions()))
    return game


def _entries(game: Game) -> list[str]:
    """What a recorder types for ``game``: each deal seat by seat, then the actions."""
    return entries(game.to_dict())


def _typed(seed: int) -> Game:
    """``seed``'s match replayed with its deals entered, as the recorder makes it."""
    source = _played(seed).to_dict()
    game = Game("standard", first_dealer="B", players=PLAYERS)  # type: ignore[arg-type]
    for h in source["hands"]:
        game.deal(h["deal"])
        for c in h["auction"]:
            game.push(call_text(c))
        if "declaration" in h:
            game.push(declaration_text(h["declaration"]))
        for p in h.get("plays", []):
            game.push(p["tile"])
    return game


def _run(args: list[str], stdin: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        TEXAS42 + ["record", *args],
        input=stdin,
        text=True,
        capture_output=True,
        cwd=cwd,
        timeout=120,
        env=os.environ | {"NO_COLOR": "1"},
    )


def _valid(path: Path) -> Match:
    match = Match.model_validate(json.loads(path.read_text("utf-8")))
    assert check_match(match).errors == []
    return match


def test_a_full_match_from_a_pipe(tmp_path: Path) -> None:
    expected = _typed(4)
    entries = _entries(expected)
    p = _run(["m.json", *NEW], "\n".join(entries) + "\n", tmp_path)
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "m.json").read_text("utf-8") == expected.to_json()
    match = _valid(tmp_path / "m.json")
    assert match.status == "complete"
    assert "match complete: " in p.stdout and "saved m.json" in p.stdout
    # The transcript: each prompt names the hand, the seat and the kind, with the options.
    assert "hand 1 · C (Cleo) to call (pass, 30–41, 1m–2m) > " in p.stdout


def test_illegal_entries_are_refused_with_their_rule_and_change_nothing(tmp_path: Path) -> None:
    expected = _typed(6)
    entries = _entries(expected)
    # After the deal: a bid under 30, a declaration in the auction, nonsense; then the
    # first call, taken back with undo, and the match as it went.
    noisy = entries[:4] + ["29", "trump 6", "bid!", entries[4], "undo"] + entries[4:]
    p = _run(["m.json", *NEW], "\n".join(noisy) + "\n", tmp_path)
    assert "refused (R8): " in p.stdout and "nothing changed" in p.stdout
    assert "refused (R7): " in p.stdout
    assert "not understood: 'bid!' is not an action" in p.stdout
    assert p.returncode == 1 and "3 entries were refused" in p.stderr
    assert (tmp_path / "m.json").read_text("utf-8") == expected.to_json()


def test_keep_rejected_writes_the_refused_attempts_into_the_log(tmp_path: Path) -> None:
    entries = _entries(_typed(6))
    p = _run(
        ["m.json", *NEW, "--keep-rejected"],
        "\n".join(entries[:4] + ["29"] + entries[4:10]) + "\n",
        tmp_path,
    )
    assert p.returncode == 1
    match = _valid(tmp_path / "m.json")
    assert [c.rejected for c in match.hands[0].auction][:1] == [True]


def _steps_in(path: Path) -> int:
    """Entries a log on disk holds (four lines per entered deal)."""
    game = Game.from_match(_valid(path))
    return sum(4 if type(s.action).__name__ == "Deal" else 1 for s in game.history)


def _start(cwd: Path) -> subprocess.Popen[str]:
    """A new recording of m.json, its entries to come on standard input."""
    return subprocess.Popen(
        TEXAS42 + ["record", "m.json", *NEW],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=cwd,
        text=True,
    )


def test_kill_9_between_entries_loses_nothing_and_record_goes_on(tmp_path: Path) -> None:
    expected = _typed(8)
    entries = _entries(expected)
    path = tmp_path / "m.json"
    proc = _start(tmp_path)
    assert proc.stdin is not None
    first = 57
    proc.stdin.write("\n".join(entries[:first]) + "\n")
    proc.stdin.flush()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if _steps_in(path) == first:
                break
        except (OSError, ValueError):
            pass  # not written yet
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    assert (
        _steps_in(path) == first
    )  # everything entered is on disk, and it is a valid unfinished log
    assert _valid(path).status == "unfinished"
    # no temporary file; the writer lock's side file stays (docs/architecture.md)
    leftovers = [p.name for p in tmp_path.iterdir() if p.name != "m.json"]
    assert leftovers in ([], [".m.json.texas42-lock"])
    p = _run(["m.json"], "\n".join(entries[first:]) + "\n", tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "going on with m.json" in p.stdout
    assert path.read_text("utf-8") == expected.to_json()


@pytest.mark.parametrize("delay", [0.3, 0.6, 1.0])
def test_kill_9_at_any_moment_leaves_a_valid_log_to_go_on_with(
    tmp_path: Path, delay: float
) -> None:
    expected = _typed(10)
    entries = _entries(expected)
    path = tmp_path / "m.json"
    proc = _start(tmp_path)
    assert proc.stdin is not None
    try:
        proc.stdin.write("\n".join(entries) + "\n")
        proc.stdin.flush()
    except BrokenPipeError:
        pass
    time.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    # Killed before the first save (a slow start), the recording starts again.
    done = _steps_in(path) if path.exists() else 0
    p = _run(
        ["m.json"] if path.exists() else ["m.json", *NEW],
        "\n".join(entries[done:]) + "\n",
        tmp_path,
    )
    assert p.returncode == 0, p.stdout + p.stderr
    assert path.read_text("utf-8") == expected.to_json()


def test_a_finished_log_is_said_finished_and_an_invalid_one_refused(tmp_path: Path) -> None:
    (tmp_path / "done.json").write_text(_typed(4).to_json(), "utf-8")
    p = _run(["done.json"], "", tmp_path)
    assert p.returncode == 0 and "match complete: " in p.stdout
    bad = json.loads(_typed(4).to_json())
    bad["hands"][0]["plays"][0]["seat"] = "D" if bad["hands"][0]["plays"][0]["seat"] != "D" else "A"
    (tmp_path / "bad.json").write_text(json.dumps(bad), "utf-8")
    p = _run(["bad.json"], "", tmp_path)
    assert p.returncode == 1 and "Traceback" not in p.stderr and "R" in p.stdout + p.stderr
    p = _run(["done.json", "--rules", "casual"], "", tmp_path)
    assert p.returncode == 2 and "are for a new match" in p.stderr
    p = _run([str(tmp_path), *NEW], "", tmp_path)
    assert p.returncode == 2 and "is a directory" in p.stderr


def test_seeded_deals_are_stored_and_resumed(tmp_path: Path) -> None:
    game = _played(12)
    actions = [str(s.action) for s in game.history]
    p = _run(["m.json", *NEW, "--seed", "12"], "\n".join(actions[:30]) + "\nquit\n", tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    p = _run(["m.json"], "\n".join(actions[30:]) + "\n", tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    doc = json.loads((tmp_path / "m.json").read_text("utf-8"))
    assert doc["x-texas42-record"] == {"seed": 12}
    doc.pop("x-texas42-record")
    assert doc == game.to_dict()


def test_new_match_setup_is_asked(tmp_path: Path) -> None:
    p = _run(["m.json"], "casual\nAna\n\n\nDan\nc\nquit\n", tmp_path)
    assert p.returncode == 0, p.stderr
    match = _valid(tmp_path / "m.json")
    assert match.rules.preset == "casual" and match.first_dealer == "C"
    assert match.players is not None and (match.players.A, match.players.B, match.players.D) == (
        "Ana",
        None,
        "Dan",
    )


# -- the conversation without a terminal -------------------------------------------------


def test_recorder_commands() -> None:
    game = Game("standard", seed=3)
    rec = Recorder(game)
    assert rec.handle("help").lines == HELP.splitlines()
    assert options_text(game) == "pass, 30–41, 1m–2m"
    assert "legal now: pass, 30, 31" in rec.handle("?").lines[0]
    shown = rec.handle("show A").lines
    assert shown and shown[0].startswith("Hand 1 ·") and "player A" in shown[0]
    assert "R29" in rec.handle("show review").lines[0]
    r = rec.handle("31")
    assert r.changed and r.lines[0].endswith(": 31")
    r = rec.handle("31")
    assert r.refused and r.lines[0].startswith("refused (R8): ") and not r.changed
    assert rec.handle("undo").lines[0].startswith("undone: hand 1: ")
    assert rec.handle("undo").lines[0] == "there is nothing to undo: no action has been made"
    assert rec.handle("quit").quit
    for _ in range(3):
        rec.handle("pass")
    rec.handle("30")
    assert options_text(game).startswith("trump 0–6, trump doubles, trump no-trump")


def _record_in_tmux(name: str, path: Path) -> Tmux:
    """``texas42 record PATH`` of a new match, in a real terminal."""
    return Tmux(name, " ".join([sys.executable, "-m", "texas42_log", "record", str(path), *NEW]))


def test_in_a_real_terminal_with_tmux(tmp_path: Path) -> None:
    expected = _typed(4)
    entries = _entries(expected)
    term = _record_in_tmux("t42", tmp_path / "m.json")
    try:
        term.wait_for("hand 1 · deal for A")
        for e in entries[:4]:
            term.send(e)
        term.wait_for("hand 1 · C (Cleo) to call (pass, 30–41, 1m–2m) >")
        term.send("29")
        term.wait_for("refused (R8): ")
        term.send("show C")
        term.wait_for("view: player C")
        for e in entries[4:]:
            term.send(e)
        s = term.wait_for("exit=0")
        assert "match complete: " in s and "saved " in s
    finally:
        term.close()
    assert (tmp_path / "m.json").read_text("utf-8") == expected.to_json()


def test_ctrl_c_at_the_prompt_in_a_terminal_keeps_the_log(tmp_path: Path) -> None:
    entries = _entries(_typed(4))
    term = _record_in_tmux("t42c", tmp_path / "m.json")
    try:
        term.wait_for("deal for A")
        for e in entries[:6]:
            term.send(e)
        term.wait_for("A (Ana) to call")
        term.keys("-l", "3")  # half an entry typed
        term.keys("C-c")
        s = term.wait_for("exit=130")
        assert "stopped; match unfinished" in s and "goes on" in s
    finally:
        term.close()
    assert (
        _steps_in(tmp_path / "m.json") == 6
    )  # the four deal rows (one step of four lines) and two calls


def test_hostile_logs_are_refused_or_resumed_never_a_traceback(tmp_path: Path) -> None:
    """Every hostile JSON file of the catalogue (fixtures/hostile): record refuses it
    with a sentence (exit 1) and leaves it as it was, or goes on with it (a valid
    log, whatever its names hold) — never a traceback."""
    root = Path(__file__).resolve().parent.parent / "fixtures" / "hostile"
    seen = 0
    for source in sorted(root.glob("*.json")):
        if source.name.endswith((".tricksy.json", ".plunge.json")):
            continue
        target = tmp_path / source.name
        shutil.copy(source, target)
        before = target.read_bytes()
        p = _run([target.name], "quit\n", tmp_path)
        assert "Traceback" not in p.stdout + p.stderr and "internal error" not in p.stderr, (
            source.name
        )
        assert p.returncode in (0, 1), (source.name, p.returncode, p.stderr)
        if p.returncode == 1:
            assert target.read_bytes() == before, source.name
            assert p.stderr.strip() or p.stdout.strip()
        else:
            _valid(target)
        assert "\x1b" not in p.stdout and "\x1b" not in p.stderr, source.name  # text out is inert
        seen += 1
    assert seen >= 12


def test_record_writes_json_only(tmp_path: Path) -> None:
    p = _run(["m.t42", *NEW], "", tmp_path)
    assert p.returncode == 2 and "record writes a JSON log" in p.stderr
    assert not (tmp_path / "m.t42").exists()


def test_without_a_file_a_new_one_is_named_after_the_time(tmp_path: Path) -> None:
    p = _run(NEW, "quit\n", tmp_path)
    assert p.returncode == 0, p.stderr
    made = sorted(tmp_path.glob("match-*.json"))
    assert len(made) == 1 and f"recording to {made[0].name}" in p.stdout
    _valid(made[0])
