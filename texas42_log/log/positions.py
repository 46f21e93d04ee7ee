"""Where each JSON value starts in the source text: JSON pointer → (line, column).

Python's ``json`` module keeps no positions, so after a successful parse this
small scanner walks the same text once and records the start of every value.
It runs only when there is a diagnostic to place, so valid files never pay.
Lines and columns are 1-based; columns count characters, as editors do.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

__all__ = ["value_positions", "line_column", "escape_pointer_token", "PositionedError"]


class PositionedError(ValueError):
    """What a reader found wrong in its input, and where: ``message`` is one sentence,
    ``line`` and ``column`` are 1-based (characters, as editors count) when known.
    Every reader's error is one (strict JSON, the text notation, the other programs'
    formats, a conversion: tests/test_design.py), so a caller handles them alike."""

    def __init__(
        self,
        message: str,
        line: int | None = None,
        column: int | None = None,
        *,
        said: str | None = None,
    ) -> None:
        super().__init__(message if said is None else said)
        self.message = message
        self.line = line
        self.column = column


_WS: Final = re.compile(r"[ \t\n\r]*")
# The unrolled form ("normal* (special normal*)*"): one step per run of plain
# characters, not one per character, so a 50 MB string is scanned in milliseconds.
_STRING: Final = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_SCALAR: Final = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null")


def escape_pointer_token(token: str) -> str:
    """RFC 6901: ``~`` → ``~0``, ``/`` → ``~1``."""
    return token.replace("~", "~0").replace("/", "~1")


def value_positions(text: str, wanted: Iterable[str] | None = None) -> dict[str, int]:
    """Map every JSON pointer in ``text`` (already known to be valid JSON) to a char offset.

    With ``wanted``, only those pointers and their ancestors are placed: every other
    value is stepped over in one call of the C decoder (whose objects are dropped at
    once), so placing a few diagnostics in a large log costs memory for the path to
    them, not for the whole document."""
    import json

    out: dict[str, int] = {}
    decode = json.JSONDecoder().decode
    prefixes: set[str] | None = None
    if wanted is not None:
        prefixes = {""}
        for w in wanted:
            parts = w.split("/")
            for k in range(2, len(parts) + 1):
                prefixes.add("/".join(parts[:k]))
    skipper = json.JSONDecoder(
        parse_int=len, parse_float=len, parse_constant=len, object_pairs_hook=len
    ).raw_decode

    def skip(i: int) -> int:
        m = _WS.match(text, i)
        return m.end() if m else i

    def value(i: int, pointer: str) -> int:
        i = skip(i)
        out[pointer] = i
        if prefixes is not None and pointer not in prefixes:
            return int(skipper(text, i)[1])
        c = text[i]
        if c == "{":
            i = skip(i + 1)
            if text[i] == "}":
                return i + 1
            while True:
                m = _STRING.match(text, i)
                assert m is not None
                key = decode(m.group())
                i = skip(m.end())
                assert text[i] == ":"
                i = value(i + 1, f"{pointer}/{escape_pointer_token(key)}")
                i = skip(i)
                if text[i] == "}":
                    return i + 1
                i = skip(i + 1)  # ","
        if c == "[":
            i = skip(i + 1)
            if text[i] == "]":
                return i + 1
            n = 0
            while True:
                i = skip(value(i, f"{pointer}/{n}"))
                n += 1
                if text[i] == "]":
                    return i + 1
                i += 1  # ","
        m = (_STRING if c == '"' else _SCALAR).match(text, i)
        assert m is not None
        return m.end()

    value(0, "")
    return out


def line_column(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset."""
    line = text.count("\n", 0, offset) + 1
    start = text.rfind("\n", 0, offset) + 1
    return line, offset - start + 1
