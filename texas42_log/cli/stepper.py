"""``texas42 replay --step``: step through a match as one observer, in a terminal.

The keys are the HTML viewer's: ← → a moment (every call, play and collected
trick, across hands), Page Up / Page Down (or ↑ ↓) a hand, Home / End the first
and last moment, q (or Esc, Ctrl-D) quits. The screen is the alternate screen
of the terminal, restored on the way out whatever ends the session (a key, a
signal, an error). Each moment is the text ``replay`` prints — the same view
model — wrapped at the terminal's width (never inside a tile) and coloured
unless ``NO_COLOR`` is set.
"""

from __future__ import annotations

import os
import select
import shutil
import sys
import termios
import tty
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Final

from ..log.inert import inert
from ..views.locales import catalogue
from ..views.termtext import paint, wrap_lines

if TYPE_CHECKING:
    from ..log.model import Match
    from ..views.visibility import Observer, View

__all__ = ["step_through", "KEYS"]

#: Key bytes → action. Terminals send Home/End and the arrows in several spellings.
KEYS: Final[dict[bytes, str]] = {
    b"\x1b[C": "next",
    b"\x1bOC": "next",
    b"l": "next",
    b" ": "next",
    b"\x1b[D": "prev",
    b"\x1bOD": "prev",
    b"h": "prev",
    b"\x1b[6~": "next-hand",
    b"\x1b[B": "next-hand",
    b"\x1bOB": "next-hand",
    b"\x1b[5~": "prev-hand",
    b"\x1b[A": "prev-hand",
    b"\x1bOA": "prev-hand",
    b"\x1b[H": "home",
    b"\x1bOH": "home",
    b"\x1b[1~": "home",
    b"\x1b[7~": "home",
    b"\x1b[F": "end",
    b"\x1bOF": "end",
    b"\x1b[4~": "end",
    b"\x1b[8~": "end",
    b"q": "quit",
    b"Q": "quit",
    b"\x1b": "quit",
    b"\x04": "quit",
}


def keys_of(data: bytes) -> list[str]:
    """The actions in one read from the terminal (an escape sequence is one key;
    bytes that are no key are ignored)."""
    out: list[str] = []
    i = 0
    while i < len(data):
        if data[i] == 0x1B and i + 1 < len(data):
            for n in (4, 3):
                if data[i : i + n] in KEYS:
                    out.append(KEYS[data[i : i + n]])
                    i += n
                    break
            else:
                # An unknown sequence: skip it whole (ESC, '[' or 'O', up to its final byte).
                j = i + 2
                while j < len(data) and not (0x40 <= data[j] <= 0x7E):
                    j += 1
                i = j + 1
            continue
        key = KEYS.get(data[i : i + 1])
        if key is not None:
            out.append(key)
        i += 1
    return out


@contextmanager
def _terminal(fd: int) -> Iterator[None]:
    """Keys one at a time, unechoed, on the alternate screen with the cursor hidden;
    everything put back on the way out."""
    saved = termios.tcgetattr(fd)
    out = sys.stdout
    try:
        tty.setcbreak(fd)
        out.write("\x1b[?1049h\x1b[?25l")
        out.flush()
        yield
    finally:
        out.write("\x1b[?25h\x1b[?1049l")
        out.flush()
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


class _Stepper:
    def __init__(
        self, match: Match, who: Observer, lang: str, hand: int, view: int, colour: bool
    ) -> None:
        self.match, self.who, self.lang, self.colour = match, who, lang, colour
        self.hand, self.view = hand, view
        self.cache: dict[int, list[View]] = {}

    def views(self, h: int) -> list[View]:
        from ..views.visibility import hand_views

        if h not in self.cache:
            self.cache[h] = hand_views(self.match, self.who, h)
        return self.cache[h]

    def act(self, action: str) -> None:
        last_hand = len(self.match.hands) - 1
        if action == "next":
            if self.view + 1 < len(self.views(self.hand)):
                self.view += 1
            elif self.hand < last_hand:
                self.hand, self.view = self.hand + 1, 0
        elif action == "prev":
            if self.view > 0:
                self.view -= 1
            elif self.hand > 0:
                self.hand -= 1
                self.view = len(self.views(self.hand)) - 1
        elif action == "next-hand" and self.hand < last_hand:
            self.hand, self.view = self.hand + 1, 0
        elif action == "prev-hand" and self.hand > 0:
            self.hand, self.view = self.hand - 1, 0
        elif action == "home":
            self.hand, self.view = 0, 0
        elif action == "end":
            self.hand = last_hand
            self.view = len(self.views(self.hand)) - 1

    def screen(self, columns: int, rows: int) -> str:
        from ..views.text import turn_line, view_lines

        m = catalogue(self.lang)
        views = self.views(self.hand)
        v = views[self.view]
        lines = wrap_lines([inert(line) for line in view_lines(v, self.lang)], max(columns - 1, 20))
        status = (
            m["ui.hand_n"].format(number=self.hand + 1)
            + " · "
            + m["ui.position"].format(at=self.view + 1, of=len(views))
            + " — "
            + m["ui.keys_terminal"]
        )
        room = max(rows - 2, 1)
        if len(lines) > room:
            lines = lines[: room - 1] + ["…"]
        if self.colour:
            lines = paint(lines, turn=turn_line(v, self.lang))
            status = "\x1b[7m" + status[: max(columns - 1, 1)] + "\x1b[0m"
        else:
            status = status[: max(columns - 1, 1)]
        return "\x1b[H\x1b[2J" + "\r\n".join(lines) + f"\x1b[{rows};1H" + status


def step_through(
    match: Match, who: Observer, lang: str, hand: int, view: int, *, colour: bool
) -> None:
    """Step through ``match`` from hand ``hand`` (0-based), moment ``view``, until q."""
    stepper = _Stepper(match, who, lang, hand, view, colour)
    fd = sys.stdin.fileno()
    with _terminal(fd):
        while True:
            size = shutil.get_terminal_size((80, 24))
            sys.stdout.write(stepper.screen(size.columns, size.lines))
            sys.stdout.flush()
            ready, _, _ = select.select([fd], [], [], None)
            if not ready:
                continue
            data = os.read(fd, 64)
            if not data:
                return
            for action in keys_of(data):
                if action == "quit":
                    return
                stepper.act(action)
