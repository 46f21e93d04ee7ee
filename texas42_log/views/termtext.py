"""View text for a terminal: wrapped at spaces (never inside a tile), and coloured.

Pure: the CLI decides whether the output is a terminal, how wide it is and
whether colour is wanted (``NO_COLOR``); this module only shapes the lines.
Lines must already be inert (:func:`texas42_log.log.inert.inert`: a log string's
escape sequences made visible) — the only escape sequences in the result are
the colours added here.
"""

from __future__ import annotations

import re
import textwrap
from typing import Final

__all__ = ["wrap_lines", "paint", "TILE"]

TILE: Final = re.compile(r"\[[0-6]\|[0-6]\]")
_RESET: Final = "\x1b[0m"
#: A tile's face: black on white, like a domino; the line saying whose turn it is:
#: bold on yellow; the header: bold.
_TILE_ON: Final = "\x1b[30;47m"
_TURN_ON: Final = "\x1b[1;30;43m"
_HEAD_ON: Final = "\x1b[1m"


def wrap_lines(lines: list[str], width: int) -> list[str]:
    """Each line wrapped at ``width`` columns, at spaces only — a tile (``[3|5]``)
    has none, so it is never split; a continuation is indented two spaces. A word
    longer than the width (a long name) stays whole. ``width`` 0: lines as they are."""
    if width <= 0:
        return list(lines)
    out: list[str] = []
    for line in lines:
        if len(line) <= width:
            out.append(line)
            continue
        out += textwrap.wrap(
            line, width, subsequent_indent="  ", break_long_words=False, break_on_hyphens=False
        ) or [""]
    return out


def paint(lines: list[str], *, turn: str | None = None, head: bool = True) -> list[str]:
    """Colours for a terminal: every tile, the line ``turn`` (whose turn it is, and
    the lines it was wrapped into), and the first line (the header) when ``head``."""
    out: list[str] = []
    in_turn = False
    for i, line in enumerate(lines):
        starts = turn is not None and line == turn[: len(line)] and line.strip() != ""
        in_turn = starts or (in_turn and line.startswith("  "))
        if in_turn:
            out.append(_TURN_ON + line + _RESET)
            continue
        text = TILE.sub(lambda t: _TILE_ON + t.group(0) + _RESET, line)
        if head and i == 0:
            text = _HEAD_ON + text.replace(_RESET, _RESET + _HEAD_ON) + _RESET
        out.append(text)
    return out
