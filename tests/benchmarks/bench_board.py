"""The review board's figures (``bench.py --only board``): a board started on a random
match of 8 hands, timed over the wire as a page uses it — its start, the first and the
cached views of an observer, a save of one comment, and the analysis of a hand asked
as the omniscient observer and as a seat."""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from pathlib import Path


def board(quick: bool) -> list[tuple[str, str, str]]:
    from tests.board_client import start_board
    from texas42_log.play.generate import random_match

    doc = random_match(4242, max_hands=3 if quick else 8)
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "game.json"
        log.write_text(json.dumps(doc), "utf-8")
        t0 = time.perf_counter()
        b = start_board(log)
        started = time.perf_counter() - t0
        try:
            t0 = time.perf_counter()
            first = b.request("GET", "/api/data?as=omniscient")
            first_ms = (time.perf_counter() - t0) * 1000
            again = []
            for _ in range(20):
                t0 = time.perf_counter()
                b.request("GET", "/api/data?as=omniscient")
                again.append((time.perf_counter() - t0) * 1000)
            saves = []
            v = 1
            for n in range(10 if quick else 50):
                change = {"op": "add", "on": {"hand": 1}, "text": f"note {n}"}
                t0 = time.perf_counter()
                r = b.request("POST", "/api/save", {"version": v, "changes": [change]})
                saves.append((time.perf_counter() - t0) * 1000)
                v = r.json()["version"]
            asked = {}
            for who, observer in (("seat A", "A"), ("the board", "omniscient")):
                t0 = time.perf_counter()
                q = b.request("POST", "/api/ask", {"hand": 2, "as": observer}, who=who).json()
                qid = q["question"]
                while q["state"] == "running":
                    time.sleep(0.02)
                    q = b.request("GET", f"/api/ask/{qid}", who=who).json()
                asked[observer] = time.perf_counter() - t0
        finally:
            b.stop()
    hands = len(doc["hands"])
    return [
        ("board: start to its address", f"{started:.2f} s", "texas42 board, a new process"),
        (
            "board: an observer's views, first",
            f"{first_ms:,.0f} ms",
            f"omniscient, {hands} hands, {len(first.body) / 1024:,.0f} KiB sent",
        ),
        (
            "board: the same, cached",
            f"{statistics.median(again):.1f} ms",
            "median of 20 (until the log changes)",
        ),
        (
            "board: a save of one comment",
            f"{statistics.median(saves):.0f} ms",
            f"median of {len(saves)}: read again, merge, validate, write atomically, fsync",
        ),
        (
            "board: ask a hand as a seat",
            f"{asked['A']:.2f} s",
            "fair analysis of that seat's plays, 100 worlds a decision, a child process",
        ),
        (
            "board: ask a hand, every seat",
            f"{asked['omniscient']:.2f} s",
            "open-hand and fair analysis of every play (the seat's part cached)",
        ),
    ]


def _rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def board_comments(quick: bool) -> list[tuple[str, str, str]]:
    """A log holding many one-line match comments (10,000; 1,000 quick): the size and
    time of an observer's data against the same log without them (target: no more than
    that plus twice the comments' text), the latency of ``about`` while saves of 500
    comments are built (target: 100 ms or less), and the board's memory once every
    observer's data was asked."""
    import threading

    from tests.board_client import start_board
    from texas42_log.play.generate import random_match
    from texas42_log.views.model import OBSERVERS

    n = 1_000 if quick else 10_000
    doc = random_match(4242, max_hands=3 if quick else 8)
    notes = [{"text": f"A one-line comment on the match, number {k}."} for k in range(n)]
    text = sum(len(a["text"].encode()) for a in notes)
    rows: list[tuple[str, str, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        plain = Path(tmp) / "plain.json"
        plain.write_text(json.dumps(doc), "utf-8")
        full = Path(tmp) / "full.json"
        full.write_text(json.dumps(doc | {"annotations": notes}), "utf-8")
        b = start_board(plain)
        try:
            without = len(b.request("GET", "/api/data?as=omniscient").body)
        finally:
            b.stop()
        b = start_board(full)
        try:
            t0 = time.perf_counter()
            with_them = len(b.request("GET", "/api/data?as=omniscient").body)
            built = time.perf_counter() - t0
            for observer in OBSERVERS:
                b.request("GET", f"/api/data?as={observer}")
            rss = _rss_kb(b.process.pid)
            latencies: list[float] = []
            done = threading.Event()

            def saves() -> None:
                for k in range(2 if quick else 4):
                    v = b.request("GET", "/api/about").json()["version"]
                    batch = [{"op": "remove", "id": f"@match#{j + 1}", "base": notes[j]["text"]}
                             for j in range(k * 10, k * 10 + 10)]  # fmt: skip
                    b.request("POST", "/api/save", {"version": v, "changes": batch})
                done.set()

            worker = threading.Thread(target=saves)
            worker.start()
            while not done.is_set():
                t0 = time.perf_counter()
                b.request("GET", "/api/about")
                latencies.append((time.perf_counter() - t0) * 1000)
                time.sleep(0.005)
            worker.join()
        finally:
            b.stop()
    target = without + 2 * text
    rows += [
        (
            f"board: data with {n:,} comments",
            f"{with_them / 1024:,.0f} KiB",
            f"omniscient; without them {without / 1024:,.0f} KiB, target ≤ "
            f"{target / 1024:,.0f} KiB (that plus twice their {text / 1024:,.0f} KiB of text)",
        ),
        (
            f"board: data with {n:,} comments, built",
            f"{built:.2f} s",
            "the first request: read, views, every comment once",
        ),
        (
            "board: about while saves are built",
            f"{statistics.median(latencies):.1f} ms",
            f"median of {len(latencies)}, max {max(latencies):.0f} ms (target ≤ 100 ms): "
            "saves of a log with that many comments run off the event loop",
        ),
        (
            "board: memory, every observer asked",
            f"{rss / 1024:,.0f} MiB",
            f"resident, the board process with {n:,} comments (its cache ≤ 64 MiB)",
        ),
    ]
    return rows


def annotate_bulk(quick: bool) -> list[tuple[str, str, str]]:
    """``texas42 annotate add --from`` with 10,000 items (1,000 quick) on a random match of
    8 hands, in place, as a user runs it: linear in the items (one copy of the log)."""
    import subprocess
    import sys

    from texas42_log.play.generate import random_match

    n = 1_000 if quick else 10_000
    doc = random_match(4242, max_hands=8)
    items = [{"hand": 1 + k % 4, "text": f"note {k}"} for k in range(n)]
    with tempfile.TemporaryDirectory() as tmp:
        log, notes = Path(tmp) / "game.json", Path(tmp) / "notes.json"
        log.write_text(json.dumps(doc), "utf-8")
        notes.write_text(json.dumps(items), "utf-8")
        command = [sys.executable, "-m", "texas42_log", "annotate", "add", str(log)]
        t0 = time.perf_counter()
        subprocess.run([*command, "--from", str(notes), "-i"], check=True, capture_output=True)
        took = time.perf_counter() - t0
    return [
        (
            f"annotate add --from, {n:,} items",
            f"{took:.2f} s",
            "the whole command, in place, on a match of 8 hands (one copy of the log)",
        )
    ]
