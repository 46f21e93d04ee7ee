"""Small helpers shared by tests."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from texas42_log.files.validate import _schema_validator
from texas42_log.log.model import Match

ROOT = Path(__file__).resolve().parent.parent


def run_texas42(
    *args: str, cwd: Path | str = ROOT, stdin: str | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """``texas42 ARGS`` in a new process (``python -m texas42_log``), text in and out."""
    return subprocess.run(
        [sys.executable, "-m", "texas42_log", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def layers_accept(doc: Any) -> tuple[bool, bool]:
    """Whether (JSON Schema, pydantic) each accept ``doc``; they must agree."""
    schema_ok = not any(True for _ in _schema_validator().iter_errors(doc))
    try:
        Match.model_validate(doc)
    except ValidationError:
        return schema_ok, False
    return schema_ok, True


class Tmux:
    """A program in a real terminal: tmux new-session, send-keys, capture-pane.
    ``env``: the variables it runs with (no colour, a plain xterm, by default)."""

    def __init__(
        self,
        name: str,
        command: str,
        *,
        env: str = "NO_COLOR=1 TERM=xterm",
        width: int = 160,
        height: int = 50,
    ) -> None:
        tmux = shutil.which("tmux")
        assert tmux is not None, "tmux is installed by tools/install-chromium.sh"
        self.tmux, self.session = tmux, f"{name}-{os.getpid()}"
        start = [
            tmux,
            "new-session",
            "-d",
            "-s",
            self.session,
            "-x",
            str(width),
            "-y",
            str(height),
            f"env {env} {command}; echo exit=$?; sleep 30",
        ]
        # A session started just as the previous test's last session ended can meet the
        # tmux server on its way out ("server exited unexpectedly"): start it again.
        for attempt in range(5):
            done = subprocess.run(start, capture_output=True, text=True)
            if done.returncode == 0:
                return
            time.sleep(0.2 * (attempt + 1))
        raise AssertionError(f"tmux new-session failed: {done.stderr.strip()}")

    def screen(self, *, escapes: bool = False) -> str:
        """What the terminal shows; ``escapes``: with its colours and attributes as SGR
        sequences."""
        return subprocess.run(
            [self.tmux, "capture-pane", "-p", *(["-e"] if escapes else []), "-t", self.session],
            capture_output=True,
            text=True,
        ).stdout

    def wait_for(self, text: str) -> str:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if text in (s := self.screen()):
                return s
            time.sleep(0.05)
        raise AssertionError(f"{text!r} never appeared:\n{self.screen()}")

    def keys(self, *keys: str) -> None:
        subprocess.run([self.tmux, "send-keys", "-t", self.session, *keys], check=True)

    def send(self, line: str) -> None:
        self.keys("-l", line)
        self.keys("Enter")

    def close(self) -> None:
        subprocess.run([self.tmux, "kill-session", "-t", self.session], capture_output=True)
