"""A ``texas42 board`` started for a test, and requests to it over HTTP (any ``Host``,
``Origin`` and token): the wire a page uses, without a browser."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ADDRESS = re.compile(r"^\s*(.*?)(?: \(.*\))?: http://127\.0\.0\.1:(\d+)/\?token=(\S+)$")


@dataclass
class Reply:
    status: int
    body: bytes
    headers: dict[str, str]

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Board:
    """A running board: its process, port, tokens by name ("the board", "seat A" …)."""

    process: subprocess.Popen[str]
    port: int
    tokens: dict[str, str]
    printed: list[str] = field(default_factory=list)

    @property
    def owner(self) -> str:
        return self.tokens["the board"]

    def url(self, who: str = "the board") -> str:
        return f"http://127.0.0.1:{self.port}/?token={self.tokens[who]}"

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        token: str | None = None,
        who: str = "the board",
        host: str | None = None,
        origin: str | None = "",
        raw: bytes | None = None,
    ) -> Reply:
        """``origin=""``: this board's own Origin on a write; None: no Origin header."""
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"Host": host or f"127.0.0.1:{self.port}"}
        t = self.tokens[who] if token is None else token
        if t:
            headers["Authorization"] = f"token {t}"
        if origin == "" and method != "GET":
            headers["Origin"] = f"http://127.0.0.1:{self.port}"
        elif origin:
            headers["Origin"] = origin
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        if data is not None:
            headers["Content-Type"] = "application/json"
        c.request(method, path, body=data, headers=headers)
        r = c.getresponse()
        out = Reply(r.status, r.read(), {k.lower(): v for k, v in r.getheaders()})
        c.close()
        return out

    def stop(self) -> str:
        """Stop the board (SIGINT, as Ctrl-C); what it wrote on standard error."""
        return stop_process(self.process)


def stop_process(process: subprocess.Popen[str]) -> str:
    """A server stopped as Ctrl-C stops it (SIGINT; killed if it has not ended within
    20 s); what it wrote on standard error."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
    try:
        _, err = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        _, err = process.communicate()
    return err


def start_board(
    log: Path | str, *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
) -> Board:
    """``texas42 board LOG --seats ARGS``, once it prints its addresses (``env``: more
    environment)."""
    env = dict(os.environ, PYTHONUNBUFFERED="1") | (env or {})
    p = subprocess.Popen(
        [sys.executable, "-m", "texas42_log", "board", str(log), "--seats", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=cwd,
    )
    tokens: dict[str, str] = {}
    port = 0
    printed = read_until_ready(p, "the board")
    for line in printed:
        m = ADDRESS.match(line.rstrip("\n"))
        if m:
            tokens[m.group(1)] = m.group(3)
            port = int(m.group(2))
    return Board(p, port, tokens, printed)


def read_until_ready(p: subprocess.Popen[str], server: str) -> list[str]:
    """What a server started by a test printed up to its "Ctrl-C" line (its addresses);
    an AssertionError with all it said if it ended first."""
    assert p.stdout is not None
    printed: list[str] = []
    while True:
        line = p.stdout.readline()
        if not line:
            err = p.stderr.read() if p.stderr else ""
            raise AssertionError(f"{server} did not start: {''.join(printed)}{err}")
        printed.append(line)
        if "Ctrl-C" in line:
            return printed
