"""A progress line for long runs, on a terminal's standard error only.

One line, redrawn in place (``\\r`` and erase-line) at most ten times a second,
shown only once a run has taken half a second (a short run never shows one),
only when standard error is a terminal (never into a pipe or a file), and never
with ``--no-progress`` or ``TERM=dumb``. Before a command prints a result on
standard output it calls :meth:`Progress.clear`, so that a result is never
written onto the progress line, and the line comes back at the next update.
"""

from __future__ import annotations

import os
import sys
import time
from typing import TextIO

__all__ = ["Progress", "wanted", "clear_active"]

#: Seconds of work before the line first appears (TEXAS42_PROGRESS_DELAY overrides
#: it: the terminal tests set 0, so that a small run shows the line on any machine).
DELAY = 0.5


def _delay() -> float:
    try:
        return max(0.0, float(os.environ.get("TEXAS42_PROGRESS_DELAY", DELAY)))
    except ValueError:
        return DELAY


#: Seconds between redraws.
EVERY = 0.1


def wanted(no_progress: bool, stream: TextIO | None = None) -> bool:
    """Whether to show progress: a terminal's stderr, not dumb, not turned off."""
    stream = stream or sys.stderr
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    return tty and not no_progress and os.environ.get("TERM") != "dumb"


_active: list[Progress] = []


def clear_active() -> None:
    """Erase the progress line, if one is shown: every line the tool prints calls this
    first (:func:`texas42_log.cli.app.echo`), so nothing is ever written onto it."""
    for p in _active:
        p.clear()


class Progress:
    """``label`` and a running description; with ``total`` (bytes, matches), a percentage."""

    def __init__(
        self,
        label: str,
        total: int | None = None,
        *,
        enabled: bool = True,
        stream: TextIO | None = None,
    ) -> None:
        self.label = label
        self.total = total
        self.enabled = enabled
        self._stream = stream or sys.stderr
        self._start = time.monotonic()
        self._delay = _delay()
        self._last = 0.0
        self._shown = False
        self._done = 0
        self._detail = ""
        if enabled:
            _active.append(self)

    def update(self, done: int, detail: str = "") -> None:
        """``done`` of ``total`` so far, and what to say beside it."""
        if not self.enabled:
            return
        self._done, self._detail = done, detail
        now = time.monotonic()
        if now - self._start < self._delay or now - self._last < EVERY:
            return
        self._last = now
        self._draw()

    def _draw(self) -> None:
        part = f"{self.label}"
        if self.total:
            part += f" {min(100, 100 * self._done // self.total):3d}%"
        if self._detail:
            part += f" · {self._detail}"
        elapsed = time.monotonic() - self._start
        part += f" · {elapsed:.0f} s"
        try:
            width = os.get_terminal_size(self._stream.fileno()).columns
        except (OSError, ValueError, AttributeError):
            width = 80
        if width <= 0:  # a terminal that does not know its size (a bare pty) says 0
            width = 80
        try:
            self._stream.write("\r\x1b[2K" + part[: max(10, width - 1)])
            self._stream.flush()
            self._shown = True
        except (OSError, ValueError):
            self.enabled = False

    def clear(self) -> None:
        """Erase the line (before a result is printed); it comes back at the next update."""
        if self._shown:
            try:
                self._stream.write("\r\x1b[2K")
                self._stream.flush()
            except (OSError, ValueError):
                self.enabled = False
            self._shown = False

    def close(self) -> None:
        self.clear()
        self.enabled = False
        if self in _active:
            _active.remove(self)
