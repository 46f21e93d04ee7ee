"""The board's links and the log's writers hold (docs/board.md, "What survives what"):
every writer of the links file and of a log reads under the lock, merges and writes; a
revocation always wins over a stale writer; a failure to keep what the user was told is
kept is one sentence; every wait a user can cause is bounded and never holds the
workers that serve pages. Each test is one way this once broke."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from texas42_log.board.links import NAMES, links_file, load_links
from texas42_log.board.state import ACCESS, Board
from texas42_log.files.locking import lock_path
from texas42_log.log.annotate import Target, add_all
from texas42_log.log.comments import Add, Edit, apply_changes
from texas42_log.log.model import Match

from .board_client import start_board
from .test_writers import SAMPLE, _log

pytestmark = pytest.mark.xdist_group("writers-hold")

HAND_1 = {"hand": 1}


def _save(b: Any, changes: list[dict[str, Any]], who: str = "the board") -> Any:
    about = b.request("GET", "/api/about", who=who).json()
    held = {"epoch": about["epoch"], "version": about["version"]}
    return b.request("POST", "/api/save", held | {"changes": changes}, who=who)


def test_a_running_board_never_undoes_new_links(tmp_path: Path) -> None:
    """Board 1 runs with links T1; board 2 starts with --new-links (T2) and saves; board 1
    then answers a request: T2 stay the kept links, and T1 open nothing, on either board
    or at the next start."""
    log = _log(tmp_path)
    one = start_board(log)
    try:
        two = start_board(log, "--new-links")
        try:
            assert two.owner != one.owner
            assert _save(two, [{"op": "add", "on": HAND_1, "text": "by two"}]).status == 200
            # board 1 takes the save in (a new version: it keeps its links) ...
            r = one.request("GET", "/api/about", token=two.owner)
            assert r.status == 200  # ... and answers the new links, not the revoked ones
            assert one.request("GET", "/api/about").status == 403
            assert one.request("GET", "/api/data?as=A", who="seat A").status == 403
        finally:
            two.stop()
    finally:
        one.stop()
    kept = load_links(log)
    assert kept is not None and kept.tokens["owner"] == two.owner
    three = start_board(log)
    try:
        assert three.owner == two.owner
        assert three.request("GET", "/api/about", token=one.owner).status == 403
    finally:
        three.stop()


def test_links_that_cannot_be_kept_are_an_error_not_printed_as_kept(tmp_path: Path) -> None:
    log = _log(tmp_path)
    blocked = tmp_path / "state-is-a-file"
    blocked.write_text("not a folder")
    p = subprocess.run(
        [sys.executable, "-m", "texas42_log", "board", str(log), "--new-links"],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, XDG_STATE_HOME=str(blocked)),
    )
    assert p.returncode == 2, p.stdout + p.stderr
    assert "token=" not in p.stdout  # no address printed as if it would last
    assert "the links cannot be kept" in p.stderr and "Traceback" not in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1


def test_duplicate_tokens_in_the_links_file_are_not_ours(tmp_path: Path) -> None:
    """Every start once exited 70 (StopIteration) until --new-links."""
    log = _log(tmp_path)
    path = links_file(log)
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    one = secrets.token_urlsafe(24)
    path.write_text(
        json.dumps(
            {
                "log": os.path.realpath(log),
                "tokens": {n: one for n in NAMES},
                "port": None,
                "epoch": "e",
                "version": 1,
                "content_version": 1,
                "content": "",
            }
        )
    )
    assert load_links(log) is None
    b = start_board(log)
    try:
        assert len(set(b.tokens.values())) == len(b.tokens) and one not in b.tokens.values()
        assert b.request("GET", "/api/about").status == 200
    finally:
        b.stop()


def _holder(lock: Path, seconds: float) -> subprocess.Popen[str]:
    """Another process holding the log's writer lock for ``seconds``."""
    code = (
        "import fcntl, os, sys, time\n"
        f"fd = os.open({str(lock)!r}, os.O_RDWR | os.O_CREAT, 0o600)\n"
        "fcntl.flock(fd, fcntl.LOCK_EX)\n"
        "print('held', flush=True)\n"
        f"time.sleep({seconds})\n"
    )
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert p.stdout is not None and p.stdout.readline().strip() == "held"
    return p


def test_a_held_writer_lock_bounds_every_save_and_never_stalls_the_pages(tmp_path: Path) -> None:
    """Eight seat saves while another process holds the lock once answered after 10, 20 …
    80 s, and a third seat's data took 49 s: now each save answers by its bound (here 2
    s), all at once, and the data comes at once (its workers are not the saves')."""
    log = _log(tmp_path)
    b = start_board(log, env={"TEXAS42_LOCK_SECONDS": "2"})
    # built once before: what is timed below is the wait for a worker, not the building
    assert b.request("GET", "/api/data?as=C", who="seat C").status == 200
    holder = _holder(lock_path(log), 30)
    try:
        answers: list[tuple[int, float]] = []

        def save(seat: str) -> None:
            t0 = time.monotonic()
            r = _save(b, [{"op": "add", "on": HAND_1, "text": f"by {seat}"}], who=f"seat {seat}")
            answers.append((r.status, time.monotonic() - t0))

        threads = [threading.Thread(target=save, args=(s,)) for s in "ABAB" * 2]
        for t in threads:
            t.start()
        time.sleep(0.3)  # the saves are waiting
        t0 = time.monotonic()
        data = b.request("GET", "/api/data?as=C", who="seat C")
        took = time.monotonic() - t0
        for t in threads:
            t.join(timeout=60)
        assert data.status == 200 and took < 1.0, took
        assert len(answers) == 8 and {s for s, _ in answers} == {409}, answers
        # the bound (2 s), not its multiples (the eighth save once answered after 8 × 2 s)
        assert max(t for _, t in answers) < 2 + 3, answers
    finally:
        holder.kill()
        holder.wait()
        b.stop()
    assert "by A" not in log.read_text("utf-8")


def test_the_lock_file_is_its_owners_only(tmp_path: Path) -> None:
    log = _log(tmp_path)
    b = start_board(log)
    try:
        assert _save(b, [{"op": "add", "on": HAND_1, "text": "x"}]).status == 200
    finally:
        b.stop()
    assert lock_path(log).stat().st_mode & 0o777 == 0o600


def test_a_save_that_changed_nothing_writes_nothing(tmp_path: Path) -> None:
    """Every change refused (another's comment): the answer says nothing changed, and the
    log — a 1.0 log whose comments have no ids — is not rewritten (no ids added, no new
    version), so no other page reads "removed meanwhile"."""
    log = tmp_path / "old.json"
    doc = json.loads(SAMPLE.read_text("utf-8"))
    doc["version"] = "1.0"
    doc["annotations"] = [{"text": "the owner's"}]
    log.write_text(json.dumps(doc), "utf-8")
    before = log.read_bytes()
    board = Board.open(str(log))
    board.use_links(seats=True, review=False)
    edit = Edit("@match#1", "the owner's", "A's words", None)
    out = board.save(ACCESS["A"], (board.epoch, board.version), [edit])
    assert out["saved"] is False and "nothing changed" in out["message"]
    assert [o["status"] for o in out["outcomes"]] == ["not_yours"]
    assert log.read_bytes() == before


def test_edited_by_is_cleared_when_the_writer_edits_last() -> None:
    match = Match.model_validate_json(SAMPLE.read_bytes())
    added = apply_changes(match, [Add(Target(hand=1), "A's words", None)], "A")
    key = added.ids[0]
    assert key is not None
    by_owner = apply_changes(added.match, [Edit(key, "A's words", "the owner's", None)], "owner")
    back = apply_changes(by_owner.match, [Edit(key, "the owner's", "A's again", None)], "A")
    notes = back.match.hands[0].annotations
    assert [(a.text, a.seat, a.edited_by) for a in notes] == [("A's again", "A", None)]
    assert by_owner.match.hands[0].annotations[0].edited_by == "owner"


def test_adding_many_comments_copies_the_log_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """annotate add --from was quadratic: a deep copy of the whole log a comment."""
    match = Match.model_validate_json(SAMPLE.read_bytes())
    copies = 0
    real = Match.model_copy

    def counted(self: Match, **kw: Any) -> Match:
        nonlocal copies
        copies += 1
        return real(self, **kw)

    monkeypatch.setattr(Match, "model_copy", counted)
    notes = [(k, Target(hand=1 + k % 3), f"note {k}", None) for k in range(1, 301)]
    out = add_all(match, notes)
    assert copies == 1
    assert sum(len(h.annotations) for h in out.hands) == 300 + sum(
        len(h.annotations) for h in match.hands
    )


def test_record_keeps_the_comments_another_writer_saved_meanwhile(tmp_path: Path) -> None:
    """A board (here annotate, the same writer lock) saves a comment into the log being
    recorded: record's next entry keeps it."""
    env = dict(os.environ, NO_COLOR="1")
    players = [f"--player={s}={n}" for s, n in {"A": "Ana", "B": "Ben"}.items()]
    p = subprocess.Popen(
        [sys.executable, "-m", "texas42_log", "record", "m.json", "--rules", "standard"]
        + ["--first-dealer", "A", "--seed", "5", *players],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        text=True,
        env=env,
    )
    assert p.stdin is not None
    path = tmp_path / "m.json"
    p.stdin.write("30\n")
    p.stdin.flush()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if json.loads(path.read_text("utf-8"))["hands"][0]["auction"]:
                break
        except (OSError, ValueError, KeyError, IndexError):
            pass  # not written yet
        time.sleep(0.05)
    note = subprocess.run(
        [sys.executable, "-m", "texas42_log", "annotate", "add", "m.json", "--hand", "1"]
        + ["--text", "said at the table", "-i"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert note.returncode == 0, note.stderr
    _, err = p.communicate("pass\npass\n", timeout=60)
    doc = json.loads(path.read_text("utf-8"))
    assert [a["text"] for a in doc["hands"][0].get("annotations", [])] == ["said at the table"]
    assert len([c for c in doc["hands"][0]["auction"] if not c.get("rejected")]) == 3, err
