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
