"""A table served in this process for a test (its deal chosen by the test), and the wire
a page uses: requests with any token, ``Host`` and ``Origin``, and the push channel read
byte for byte; and ``texas42 table`` started as a user starts it, its links read from
what it prints."""

from __future__ import annotations

import asyncio
import concurrent.futures
import http.client
import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tornado.httpserver
import tornado.netutil

from texas42_log.board.links import Links
from texas42_log.table.ask import SeatAsker
from texas42_log.table.referee import Table
from texas42_log.table.server import _Hub, guard_of, make_app

from .board_client import Reply, read_until_ready, stop_process


@dataclass
class Events:
    """An open push channel: every ``data:`` line's bytes as they came."""

    conn: http.client.HTTPConnection
    pushes: list[bytes] = field(default_factory=list)
    raw: bytearray = field(default_factory=bytearray)
    status: int = 0
    _thread: threading.Thread | None = None

    def moments(self) -> list[int]:
        return [json.loads(p)["moment"] for p in list(self.pushes)]

    def wait_for(self, moment: int, limit: float = 10.0) -> None:
        end = time.monotonic() + limit
        while time.monotonic() < end:
            if self.pushes and json.loads(self.pushes[-1])["moment"] >= moment:
                return
            time.sleep(0.002)
        raise AssertionError(f"no push of moment {moment} within {limit} s: {self.moments()}")

    def close(self) -> None:
        try:
            sock = self.conn.sock
            if sock is not None:
                import socket

                sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.conn.close()


@dataclass
class Served:
    table: Table
    port: int
    tokens: dict[str, str]

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        who: str = "A",
        token: str | None = None,
        host: str | None = None,
        origin: str | None = "",
    ) -> Reply:
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Host": host or f"127.0.0.1:{self.port}"}
        t = self.tokens[who] if token is None else token
        if t:
            headers["Authorization"] = f"token {t}"
        if origin == "" and method != "GET":
            headers["Origin"] = f"http://127.0.0.1:{self.port}"
        elif origin:
            headers["Origin"] = origin
        data = None if body is None else json.dumps(body).encode()
        if data is not None:
            headers["Content-Type"] = "application/json"
        c.request(method, path, body=data, headers=headers)
        r = c.getresponse()
        out = Reply(r.status, r.read(), {k.lower(): v for k, v in r.getheaders()})
        c.close()
        return out

    def state(self, who: str = "A") -> dict[str, Any]:
        r = self.request("GET", "/table/state", who=who)
        assert r.status == 200, r.body
        return r.json()  # type: ignore[no-any-return]

    def act(self, who: str, action: str, moment: int | None = None, request: str = "") -> Reply:
        import secrets

        m = self.table.moment if moment is None else moment
        body = {"moment": m, "action": action, "request": request or secrets.token_hex(8)}
        return self.request("POST", "/table/act", body, who=who)

    def events(self, who: str = "A", origin: str | None = None) -> Events:
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Host": f"127.0.0.1:{self.port}"}
        if origin is not None:
            headers["Origin"] = origin
        c.request("GET", f"/table/events?token={self.tokens[who]}", headers=headers)
        r = c.getresponse()
        ev = Events(c, status=r.status)

        def read() -> None:
            buf = b""
            try:
                while True:
                    chunk = r.read1(65536)
                    if not chunk:
                        return
                    ev.raw.extend(chunk)
                    buf += chunk
                    while b"\n\n" in buf:
                        block, buf = buf.split(b"\n\n", 1)
                        for line in block.split(b"\n"):
                            if line.startswith(b"data: "):
                                ev.pushes.append(line[6:])
            except (OSError, ValueError, AttributeError, http.client.HTTPException):
                return

        ev._thread = threading.Thread(target=read, daemon=True)
        ev._thread.start()
        return ev


@contextmanager
def served(
    table: Table, asker: SeatAsker | None = None, bots: frozenset[str] = frozenset()
) -> Iterator[Served]:
    """``table`` behind its server on a free port of 127.0.0.1, on a thread of its own
    (``asker``: the seats' analysis, fewer worlds for a test; ``bots``: the seats bots
    play, as the command tells the server — no bot is started here)."""
    links = Links("/nowhere")
    ready = threading.Event()
    box: dict[str, Any] = {}

    def run() -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)

        async def main() -> None:
            sockets = tornado.netutil.bind_sockets(0, address="127.0.0.1")
            port = sockets[0].getsockname()[1]
            pool = concurrent.futures.ThreadPoolExecutor(4)
            hub = _Hub()
            hub.loop = loop
            hosts = {f"127.0.0.1:{port}", f"localhost:{port}"}
            app = make_app(
                table, guard_of(links.tokens), hosts, lambda line: None, pool, hub, asker, bots
            )
            server = tornado.httpserver.HTTPServer(app)
            server.add_sockets(sockets)
            stop = asyncio.Event()
            box.update(port=port, stop=stop, loop=loop)
            ready.set()
            await stop.wait()
            server.stop()
            hub._wake()
            pool.shutdown(wait=False, cancel_futures=True)

        loop.run_until_complete(main())

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(10)
    try:
        yield Served(table, box["port"], dict(links.tokens))
    finally:
        box["loop"].call_soon_threadsafe(box["stop"].set)
        thread.join(timeout=10)


# -- the command, as a user starts it ------------------------------------------------

LINK = re.compile(r"^  (seat [ABCD]|onlookers|host)[^:]*: (http://127\.0\.0\.1:(\d+)/\?token=\S+)$")


@dataclass
class Running:
    process: subprocess.Popen[str]
    links: dict[str, str]
    printed: list[str]

    def stop(self) -> str:
        """Stop the table (SIGINT, as Ctrl-C); what it wrote on standard error."""
        return stop_process(self.process)


def start_table(
    log: Path,
    *args: str,
    env: dict[str, str] | None = None,
    command: Sequence[str] = (sys.executable, "-m", "texas42_log"),
) -> Running:
    """``texas42 table LOG ARGS`` (``command``: how ``texas42`` is run), once it prints
    its links: a link a seat, ``onlookers`` and ``host``."""
    p = subprocess.Popen(
        [*command, "table", str(log), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(env or os.environ, PYTHONUNBUFFERED="1"),
    )
    printed = read_until_ready(p, "the table")
    links = {m.group(1): m.group(2) for line in printed if (m := LINK.match(line.rstrip("\n")))}
    return Running(p, links, printed)
