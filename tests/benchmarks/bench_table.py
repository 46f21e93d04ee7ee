"""The table under load (``bench.py --only table``): one table alone, then 20 at once
(4 quick), each ``texas42 table`` a process of its own as a club runs them
(docs/table.md), four ``rule`` bots a table with ``--bot-delay 0``, so the tables act
as fast as this machine lets them. Every page's push channel is open (four seats and the onlookers,
100 channels), read by one event loop here.

- actions a second: every table's accepted actions while all of them were playing
  (from the last table's start to the first match's end), over that time;
- the push's latency: from the moment a bot's action is handed to the referee (which
  checks it, writes the log atomically and fsyncs it, then pushes) to the moment each
  page's channel has a state of that moment or later — the median and the 99th
  percentile over every action and every page. The referee's side is timed by a
  wrapper around ``Table.act`` in the table's process (``_RUNNER``), on the machine's
  monotonic clock, which this process reads too;
- memory: each table process's peak resident memory (``VmHWM``), the median and the
  sum over the tables.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from tests.table_client import Running

#: ``texas42`` with ``Table.act`` timed: a line ``MOMENT_BEFORE MOMENT_AFTER T0`` a
#: accepted action, written to the file named by its first argument.
_RUNNER = """
import sys, time
from texas42_log.table import referee

out = open(sys.argv.pop(1), "a", buffering=1, encoding="ascii")
act = referee.Table.act

def timed(self, seat, moment, text, request):
    t0 = time.monotonic()
    done = act(self, seat, moment, text, request)
    out.write(f"{done.moment} {t0}\\n")
    return done

referee.Table.act = timed
sys.argv[0] = "texas42"
from texas42_log.entry import main
main()
"""

_MOMENT = re.compile(rb'"moment":(\d+)')
_WINNER = re.compile(rb'"winner":"')


@dataclass
class _Channel:
    """One page's push channel: when each moment (or a later one) first came."""

    first: dict[int, float] = field(default_factory=dict)
    newest: int = -1
    over: float | None = None


async def _listen(link: str, channel: _Channel, stop: asyncio.Event) -> None:
    u = urlsplit(link)
    token = u.query.removeprefix("token=")
    reader, writer = await asyncio.open_connection(u.hostname, u.port)
    writer.write(
        f"GET /table/events?token={token} HTTP/1.1\r\nHost: {u.netloc}\r\n"
        "Accept: text/event-stream\r\n\r\n".encode()
    )
    await writer.drain()
    try:
        while not stop.is_set():
            line = await reader.readline()
            if not line:
                return
            if not line.startswith(b"data: "):
                continue
            now = time.monotonic()
            m = _MOMENT.search(line, 0, 64)
            if m is None:
                continue
            moment = int(m.group(1))
            if moment > channel.newest:
                channel.newest = moment
                channel.first[moment] = now
            # the match's winner (a trick's "winner" is deeper in the same state)
            if channel.over is None and _WINNER.search(line) and json.loads(line[6:])["winner"]:
                channel.over = now
    finally:
        writer.close()


def _peak_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def table(quick: bool) -> list[tuple[str, str, str]]:
    """One table alone, then 20 at once (4 quick)."""
    goal = "1" if quick else "7"
    return _tables(1, goal) + _tables(4 if quick else 20, goal)


def _tables(n: int, goal: str) -> list[tuple[str, str, str]]:
    from tests.table_client import start_table

    bots = [a for s in "ABCD" for a in ("--bot", f"{s}=rule")]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        runner = root / "runner.py"
        runner.write_text(_RUNNER, "utf-8")
        env = dict(os.environ, XDG_STATE_HOME=str(root / "state"))
        timings = [root / f"accepted-{k}.txt" for k in range(n)]

        def start(k: int) -> Running:
            return start_table(
                root / f"table-{k}.json",
                "--option",
                f"match_goal_marks={goal}",
                *bots,
                "--bot-delay",
                "0",
                env=env,
                command=(sys.executable, str(runner), str(timings[k])),
            )

        tables: list[Running] = []
        t_start = time.monotonic()
        try:
            # every table started at once, as a club's evening begins
            with concurrent.futures.ThreadPoolExecutor(n) as pool:
                starting = [pool.submit(start, k) for k in range(n)]
                for f in starting:
                    try:
                        tables.append(f.result())
                    except Exception:
                        for g in starting:
                            if g is not f and g.exception() is None:
                                tables.append(g.result())
                        raise
            all_started = time.monotonic()
            channels, peaks = asyncio.run(_watch(tables))
            done = time.monotonic()
        finally:
            for r in tables:
                r.stop()
        accepted: list[list[tuple[int, float]]] = []
        for timing in timings:
            rows = [line.split() for line in timing.read_text("ascii").splitlines()]
            accepted.append([(int(m), float(t)) for m, t in rows])
    first_over = min(min(c.over for c in cs if c.over is not None) for cs in channels)
    together = sum(1 for acts in accepted for _, t in acts if all_started <= t <= first_over)
    total = sum(len(acts) for acts in accepted)
    latencies: list[float] = []
    for acts, cs in zip(accepted, channels, strict=True):
        for c in cs:
            seen = sorted(c.first.items())
            for moment, t0 in acts:
                if t0 < min(c.first.values(), default=t0):
                    continue  # acted before this page's channel was open
                arrived = next((t for m, t in seen if m >= moment), None)
                if arrived is not None:
                    latencies.append((arrived - t0) * 1000)
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    pages = sum(len(cs) for cs in channels)
    return [
        (
            f"table ×{n}: actions a second",
            f"{together / (first_over - all_started):,.0f} actions/s",
            f"{n} table{'s' if n > 1 else ''} of four rule bots at once, --bot-delay 0: "
            f"{together:,} actions while all played; {total:,} in {done - t_start:.0f} s "
            "from the first start",
        ),
        (
            f"table ×{n}: push latency, median",
            f"{statistics.median(latencies):.1f} ms",
            f"from a bot's action handed to the referee to each of {pages} pages "
            f"having it ({len(latencies):,} arrivals)",
        ),
        (f"table ×{n}: push latency, 99th percentile", f"{p99:.1f} ms", "the same arrivals"),
        (
            f"table ×{n}: memory, a table process",
            f"{statistics.median(peaks) / 1024:,.0f} MB",
            f"peak resident, median of {n}; {sum(peaks) / 1024:,.0f} MB for all {n}",
        ),
    ]


async def _watch(tables: list[Running]) -> tuple[list[list[_Channel]], list[int]]:
    """Every page of every table watched until each table's match is over."""
    stop = asyncio.Event()
    channels: list[list[_Channel]] = []
    tasks = []
    for r in tables:
        links = r.links
        cs = [_Channel() for _ in range(5)]
        channels.append(cs)
        for c, who in zip(cs, ["seat A", "seat B", "seat C", "seat D", "onlookers"], strict=True):
            tasks.append(asyncio.create_task(_listen(links[who], c, stop)))
    limit = time.monotonic() + 1800
    while not all(c.over is not None for cs in channels for c in cs):
        if time.monotonic() > limit:
            raise RuntimeError("the tables' matches did not end within 30 minutes")
        failed = [e for t in tasks if t.done() and (e := t.exception()) is not None]
        if failed:
            raise failed[0]
        await asyncio.sleep(0.05)
    peaks = [_peak_kb(r.process.pid) for r in tables]
    stop.set()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return channels, peaks


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    for row in table("--quick" in sys.argv):
        print(json.dumps(row))
