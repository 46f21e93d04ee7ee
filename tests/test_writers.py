"""Every word kept: writers that rewrite one log at once, in real processes — two
``annotate -i`` loops, a board beside an ``annotate -i`` loop, two boards — and every
write that said it was saved is in the file at the end, which is a valid log at every
read in between (docs/architecture.md, "One writer at a time")."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from texas42_log.files.locking import lock_path, writer_lock
from texas42_log.files.validate import validate_bytes

from .board_client import Board, start_board

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "fixtures" / "valid" / "random-seed-11.json"


def _log(tmp_path: Path) -> Path:
    log = tmp_path / "game.json"
    log.write_bytes(SAMPLE.read_bytes())
    return log


def _texts(log: Path) -> list[str]:
    doc = json.loads(log.read_text("utf-8"))
    out = [a["text"] for a in doc.get("annotations", [])]
    for h in doc["hands"]:
        out += [a["text"] for a in h.get("annotations", [])]
        for key in ("auction", "plays"):
            for item in h.get(key, []):
                out += [a["text"] for a in item.get("annotations", [])]
    return out


class Watcher:
    """Reads the log again and again while the writers run: each read must be a valid log."""

    def __init__(self, log: Path) -> None:
        self.log, self.reads = log, 0
        self.bad: list[bytes] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run)

    def run(self) -> None:
        while not self.stop.is_set():
            data = self.log.read_bytes()
            self.reads += 1
            if not validate_bytes(data).valid:
                self.bad.append(data[:200])
            time.sleep(0.01)

    def __enter__(self) -> Watcher:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()
        assert self.reads > 0 and self.bad == []


def _annotate_loop(log: Path, name: str, n: int, acked: list[str]) -> None:
    for k in range(n):
        text = f"{name} {k}"
        r = subprocess.run(
            [sys.executable, "-m", "texas42_log", "annotate", "add", str(log), "-i",
             "--hand", "1", "--text", text],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        if r.returncode == 0:
            acked.append(text)
        else:
            assert "nothing was written" in r.stderr, r.stderr


def _board_loop(b: Board, name: str, n: int, acked: list[str]) -> None:
    for k in range(n):
        text = f"{name} {k}"
        version = b.request("GET", "/api/about").json()["version"]
        r = b.request(
            "POST",
            "/api/save",
            {"version": version, "changes": [{"op": "add", "on": {"hand": 2}, "text": text}]},
        )
        if r.status == 200 and r.json()["saved"]:
            acked.append(text)


@pytest.mark.slow
def test_two_annotate_loops_on_one_log_lose_nothing(tmp_path: Path) -> None:
    log = _log(tmp_path)
    acked: list[str] = []
    with Watcher(log):
        loops = [
            threading.Thread(target=_annotate_loop, args=(log, name, 15, acked))
            for name in ("one", "two")
        ]
        for t in loops:
            t.start()
        for t in loops:
            t.join()
    assert len(acked) == 30  # the lock waits: none gave up
    assert sorted(t for t in _texts(log) if t in acked) == sorted(acked)
    assert validate_bytes(log.read_bytes()).valid


@pytest.mark.slow
def test_a_board_beside_an_annotate_loop_loses_nothing(tmp_path: Path) -> None:
    log = _log(tmp_path)
    b = start_board(log)
    acked: list[str] = []
    try:
        with Watcher(log):
            work = [
                threading.Thread(target=_board_loop, args=(b, "board", 60, acked)),
                threading.Thread(target=_annotate_loop, args=(log, "annotate", 25, acked)),
            ]
            for t in work:
                t.start()
            for t in work:
                t.join()
    finally:
        err = b.stop()
    assert "Traceback" not in err
    assert len(acked) == 85
    assert sorted(t for t in _texts(log) if t in acked) == sorted(acked)


@pytest.mark.slow
def test_two_boards_on_one_file_lose_nothing(tmp_path: Path) -> None:
    log = _log(tmp_path)
    one = start_board(log)
    two = start_board(log, "--port", "0")
    acked: list[str] = []
    try:
        with Watcher(log):
            work = [
                threading.Thread(target=_board_loop, args=(b, name, 40, acked))
                for b, name in ((one, "first"), (two, "second"))
            ]
            for t in work:
                t.start()
            for t in work:
                t.join()
    finally:
        one.stop()
        two.stop()
    assert len(acked) == 80
    assert sorted(t for t in _texts(log) if t in acked) == sorted(acked)


def test_a_writer_that_cannot_get_the_lock_says_so_and_writes_nothing(tmp_path: Path) -> None:
    log = _log(tmp_path)
    before = log.read_bytes()
    env = dict(os.environ, TEXAS42_LOCK_SECONDS="0.3")
    with writer_lock(log):
        r = subprocess.run(
            [sys.executable, "-m", "texas42_log", "annotate", "add", str(log), "-i",
             "--text", "late"],
            capture_output=True, text=True, env=env, timeout=60,
        )  # fmt: skip
    assert r.returncode == 1, r.stderr
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert "being written by another texas42 command" in r.stderr
    assert "nothing was written" in r.stderr
    assert log.read_bytes() == before
    # the lock sits on a side file beside the log, which the writers leave in place
    assert lock_path(log) == tmp_path / ".game.json.texas42-lock" and lock_path(log).exists()


def test_the_lock_is_on_the_real_file_behind_a_link(tmp_path: Path) -> None:
    log = _log(tmp_path)
    (tmp_path / "elsewhere").mkdir()
    link = tmp_path / "elsewhere" / "link.json"
    link.symlink_to(log)
    assert lock_path(link) == lock_path(log)


def test_a_killed_save_leaves_no_temp_file_after_the_next_start(tmp_path: Path) -> None:
    """A SIGKILL in the middle of a write leaves its temporary file; the next board
    started on the log removes it (and only such leftovers)."""
    log = _log(tmp_path)
    code = (
        "import sys, time\n"
        "from texas42_log.files.outputs import write_atomic\n"
        "def chunks():\n"
        "    yield '{'\n"
        "    print('writing', flush=True)\n"
        "    time.sleep(60)\n"
        "    yield '}'\n"
        f"write_atomic({str(log)!r}, chunks(), replace=True)\n"
    )
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert p.stdout is not None and p.stdout.readline().strip() == "writing"
    left = [n for n in os.listdir(tmp_path) if n.startswith(".texas42-") and n.endswith(".tmp")]
    assert len(left) == 1
    p.send_signal(signal.SIGKILL)
    p.wait()
    assert (tmp_path / left[0]).exists()
    (tmp_path / "notes.tmp").write_text("someone else's")  # not ours: kept
    b = start_board(log)
    try:
        assert b.request("GET", "/api/about").status == 200
    finally:
        b.stop()
    names = os.listdir(tmp_path)
    assert left[0] not in names and "notes.tmp" in names
    assert validate_bytes(log.read_bytes()).valid


def test_analyze_in_place_keeps_a_comment_saved_while_it_ran(tmp_path: Path) -> None:
    """``analyze --annotate -i`` takes the file's comments as they are when it writes."""
    from texas42_log.log.annotate import Target, add
    from texas42_log.log.comments import carry_comments
    from texas42_log.log.model import Match

    m = Match.model_validate_json(SAMPLE.read_bytes())
    analysed = m.model_copy(update={"version": "1.8"})
    meanwhile = add(m, Target(1, play=2), "saved while it ran", "Ana")
    merged = carry_comments(analysed, meanwhile)
    assert merged is not None
    assert merged.hands[0].plays[1].annotations[0].text == "saved while it ran"
    # a log changed beyond its comments meanwhile: not written over
    other = meanwhile.model_copy(update={"hands": meanwhile.hands[:-1]})
    assert carry_comments(analysed, other) is None


def test_writers_add_no_comment_past_the_cap_and_a_log_past_it_stays_valid(
    tmp_path: Path,
) -> None:
    from texas42_log.log.comments import MAX_COMMENTS

    doc = json.loads(SAMPLE.read_text("utf-8"))
    doc["annotations"] = [{"text": f"n{k}"} for k in range(MAX_COMMENTS)]
    log = tmp_path / "full.json"
    log.write_text(json.dumps(doc), "utf-8")
    before = log.read_bytes()
    assert validate_bytes(before).valid  # a writers' limit, not a rule of the format
    r = subprocess.run(
        [sys.executable, "-m", "texas42_log", "annotate", "add", str(log), "-i", "--text", "x"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert r.returncode == 2 and "at most 10,000 comments" in r.stderr, r.stderr
    assert log.read_bytes() == before
    # a removal is still allowed: the cap stops growth only
    r = subprocess.run(
        [sys.executable, "-m", "texas42_log", "annotate", "remove", str(log), "-i", "--index",
         "1"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr


def test_a_link_planted_as_the_lock_file_is_not_followed(tmp_path: Path) -> None:
    log = _log(tmp_path)
    before = log.read_bytes()
    elsewhere = tmp_path / "victim.txt"
    elsewhere.write_text("keep me")
    lock_path(log).symlink_to(elsewhere)
    r = subprocess.run(
        [sys.executable, "-m", "texas42_log", "annotate", "add", str(log), "-i", "--text", "x"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert r.returncode == 2 and "cannot take its writer lock" in r.stderr, r.stderr
    assert r.stderr.count("\n") == 1
    assert log.read_bytes() == before and elsewhere.read_text() == "keep me"
