"""Text out is inert: what a log says can never act on a terminal or reorder a line.

A log is written by somebody else. Its strings (player names, comments, foreign
fields) may hold an ESC that clears the screen, an OSC sequence that sets the
terminal's title or clipboard, a NUL, or a bidi control (U+202E) that reverses
the text around it. Everything the tool prints passes through one of these:

* :func:`inert` — for a line of the tool's own text that may hold log text:
  every control character except the newline and tab the tool writes itself
  becomes a visible escape (``\\x1b``, ``\\u202e``);
* :func:`inert_value` — for one log string set inside a line: newlines and tabs
  are escaped too, so a name cannot start a line of its own;
* :func:`dumps` — JSON as the tool writes it (``ensure_ascii=False``), with the
  same characters written as ``\\uXXXX`` escapes: still valid JSON, the same
  value, and nothing raw that a terminal would obey.

Pure: no I/O.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

__all__ = ["inert", "inert_value", "dumps", "UNSAFE", "UNSAFE_IN_TEXT"]

#: C0 controls, DEL, C1 controls, bidi embeddings/overrides/isolates and marks, the
#: line and paragraph separators, lone surrogates, and the BOM / zero-width no-break.
UNSAFE: Final = (
    "\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufeff"
)
_ANY: Final = re.compile(f"[{UNSAFE}]")
#: The unsafe characters but newline and tab, which text the tool writes may hold.
UNSAFE_IN_TEXT: Final = re.compile(
    f"[{UNSAFE.replace(chr(0) + '-', chr(0) + '-' + chr(8) + chr(11) + '-')}]"
)
# In JSON text the C0 controls are escaped by json itself; these are the rest.
_JSON_RAW: Final = re.compile(
    "[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufeff]"
)


_NAMED: Final = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _escape(m: re.Match[str]) -> str:
    c = m.group()
    if c in _NAMED:
        return _NAMED[c]
    code = ord(c)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _json_escape(m: re.Match[str]) -> str:
    return f"\\u{ord(m.group()):04x}"


def inert(text: str) -> str:
    """``text`` with every control character but ``\\n`` and ``\\t`` shown as an escape."""
    return UNSAFE_IN_TEXT.sub(_escape, text)


def inert_value(text: str) -> str:
    """A log string for use inside a line: every control character shown as an escape."""
    return _ANY.sub(_escape, text)


def dumps(
    value: Any, *, indent: int | None = None, separators: tuple[str, str] | None = None
) -> str:
    """``json.dumps(value, ensure_ascii=False)`` with the characters a terminal acts on
    (C1, DEL, bidi controls, line separators) written as ``\\uXXXX``."""
    text = json.dumps(value, ensure_ascii=False, indent=indent, separators=separators)
    return _JSON_RAW.sub(_json_escape, text)
