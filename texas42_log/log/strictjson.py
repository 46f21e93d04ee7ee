"""Strict JSON for every reader: one parser, one set of refusals, one sentence each.

Every JSON the tool reads — a log, a JSON Lines record, an extension field in the
text notation, a foreign program's bundle or record, an upgrade's input, a bulk
annotation file — goes through :func:`loads` (or :func:`raw_decode` for a value
embedded in other text). It refuses, with the line and column:

* duplicate keys in one object (JSON leaves their meaning open; a log may not);
* ``NaN``, ``Infinity``, ``-Infinity`` and numbers that overflow to infinity;
* escaped lone surrogates (``"\\ud800"``): half a character, which no UTF-8
  output can hold;
* numbers of more than :data:`MAX_DIGITS` digits (no unbounded digit string is
  ever converted to an integer);
* nesting deeper than about :data:`MAX_DEPTH` lists and objects;
* control characters inside strings, bad UTF-8, trailing data — as JSON does.

The parser is jiter (pydantic's own, in C): strict where Python's ``json`` is
lenient, and bounded where ``json`` recurses until the interpreter gives up.
Python's ``json`` is asked only for the wording of plain syntax errors, which
users of other Python tools will recognise. Pure: no I/O.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, Final

import jiter

from .positions import PositionedError

__all__ = ["JSONError", "loads", "raw_decode", "MAX_DEPTH", "MAX_DIGITS", "line_column"]

#: jiter's nesting bound (lists and objects inside each other); a log nests 7 deep.
MAX_DEPTH: Final = 200
#: The most digits a JSON number may have (Python refuses to convert 4,301 and more).
MAX_DIGITS: Final = 4300

_BOM: Final = b"\xef\xbb\xbf"
_JITER_ERROR: Final = re.compile(
    r"^(?P<msg>.*) at line (?P<line>\d+) column (?P<col>\d+)$", re.DOTALL
)
#: Where a float that overflowed was written: a 3-digit exponent, or 309 digits and more.
_INFINITE_NUMBER: Final = re.compile(rb"[0-9.]+[eE]\+?[0-9]{3,}|[0-9]{309,}")


class JSONError(PositionedError):
    """The text is not strict JSON. ``reason`` is one sentence; ``line`` and
    ``column`` are 1-based (characters, as editors count) and ``offset`` is the
    character offset, where known."""

    def __init__(
        self,
        reason: str,
        line: int | None = None,
        column: int | None = None,
        offset: int | None = None,
    ) -> None:
        super().__init__(f"not valid JSON: {reason}", line, column)
        self.reason = reason
        self.offset = offset


def line_column(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset."""
    line = text.count("\n", 0, offset) + 1
    start = text.rfind("\n", 0, offset) + 1
    return line, offset - start + 1


def loads(data: bytes | str) -> Any:
    """The value of a strict JSON text (a leading BOM is allowed); :class:`JSONError` otherwise."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if raw.startswith(_BOM):
        raw = raw[3:]
    try:
        value = jiter.from_json(
            raw, allow_inf_nan=False, catch_duplicate_keys=True, cache_mode="keys"
        )
    except ValueError as e:
        raise _explain(raw, str(e)) from None
    if _has_infinity(value):
        at = _INFINITE_NUMBER.search(raw)
        raise _at(
            raw, at.start() if at else 0, "a number too large to hold (it overflows to infinity)"
        )
    return value


def raw_decode(text: str, at: int = 0) -> tuple[Any, int]:
    """The strict JSON value that starts at character ``at`` of ``text``, and the offset
    just after it (for JSON embedded in other notations). Positions in a
    :class:`JSONError` are in ``text``."""
    # Python's decoder only finds where the value ends (hooks that convert nothing,
    # so no digit string becomes an int); jiter then judges exactly that slice.
    finder = json.JSONDecoder(
        parse_int=len, parse_float=len, parse_constant=len, object_pairs_hook=len
    )
    try:
        _, end = finder.raw_decode(text, at)
    except json.JSONDecodeError as e:
        line, col = line_column(text, e.pos)
        raise JSONError(e.msg, line, col, e.pos) from None
    except RecursionError:
        line, col = line_column(text, at)
        raise JSONError(
            f"lists and objects are nested more than {MAX_DEPTH} deep", line, col, at
        ) from None
    try:
        return loads(text[at:end]), end
    except JSONError as e:
        offset = at + (e.offset or 0)
        line, col = line_column(text, offset)
        raise JSONError(e.reason, line, col, offset) from None


def _has_infinity(value: Any) -> bool:
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, float):
            if not math.isfinite(v):
                return True
        elif isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return False


def _char_offset(raw: bytes, line: int, byte_col: int) -> int:
    """The character offset of jiter's (line, byte column) in ``raw``."""
    start = 0
    for _ in range(line - 1):
        nl = raw.find(b"\n", start)
        if nl < 0:
            break
        start = nl + 1
    end = min(len(raw), start + max(byte_col - 1, 0))
    return len(raw[:end].decode("utf-8", "replace"))


def _at(raw: bytes, byte_offset: int, reason: str) -> JSONError:
    text = raw[:byte_offset].decode("utf-8", "replace")
    offset = len(text)
    line = text.count("\n") + 1
    col = offset - (text.rfind("\n") + 1) + 1
    return JSONError(reason, line, col, offset)


def _explain(raw: bytes, error: str) -> JSONError:
    """jiter's message, in the tool's words, at the character position."""
    m = _JITER_ERROR.match(error)
    msg = m.group("msg") if m else error
    line = int(m.group("line")) if m else 1
    byte_col = int(m.group("col")) if m else 1
    text = raw.decode("utf-8", "replace")
    offset = _char_offset(raw, line, byte_col) if m else 0
    here = line_column(text, min(offset, len(text)))

    def err(reason: str, at: int | None = None) -> JSONError:
        where = at if at is not None else offset
        ln, col = line_column(text, min(where, len(text)))
        return JSONError(reason, ln, col, where)

    if msg.startswith("Detected duplicate key"):
        key = msg.split('"', 1)[1][:-1] if '"' in msg else "?"
        needle = json.dumps(key, ensure_ascii=False)
        start = text.rfind(needle, 0, offset + 1)
        shown = needle if len(needle) <= 42 else needle[:40] + '…"'
        return err(
            f"the key {shown} appears twice in one object; a log may not repeat a key",
            start if start >= 0 else None,
        )
    if "recursion limit" in msg:
        return err(f"lists and objects are nested more than {MAX_DEPTH} deep")
    if "number out of range" in msg or "number too large" in msg:
        start = offset
        while start > 0 and (
            text[start - 1].isascii() and text[start - 1].isdigit() or text[start - 1] in "-+.eE"
        ):
            start -= 1
        return err(f"a number of more than {MAX_DIGITS:,} digits", start)
    if "surrogate" in msg or "hex escape" in msg or "unicode code point" in msg:
        start = text.rfind("\\u", 0, offset + 1)
        if start >= 0 and "\\u" in text[start : start + 2]:
            shown = text[start : start + 6]
            return err(
                f"the escape {shown} is half of a character (a lone surrogate); a string holds "
                "whole "
                "characters only",
                start,
            )
        return err("a string holds bytes that are not whole UTF-8 characters")
    if msg in ("expected value", "invalid number", "expected ident"):
        for word in ("NaN", "-Infinity", "Infinity", "+Infinity", "-NaN"):
            for start in (offset - 1, offset, offset - 2):
                if 0 <= start and text.startswith(word, start):
                    return err(f"{word} is not a JSON number", start)
    if msg.startswith("EOF while parsing"):
        if not text.strip():
            return err("the input is empty", 0)
        try:
            json.loads(text)
        except json.JSONDecodeError as e:
            offset = e.pos
        except (ValueError, RecursionError):
            pass
        return err("the input ends in the middle of the JSON", offset)
    if msg.startswith("control character"):
        return err(
            "a control character stands raw inside a string; JSON writes it escaped (as \\u0001)"
        )
    # A plain syntax error: Python's json words it as users of other tools know it.
    try:
        json.loads(text)
    except json.JSONDecodeError as e:
        return JSONError(e.msg, e.lineno, e.colno, e.pos)
    except (ValueError, RecursionError):
        pass
    return JSONError(msg, *here, offset)
