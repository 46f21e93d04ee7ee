"""The text notation's tokens: one pass over the text, in C where it can be (the
regular expressions), giving words, tiles, tags, comments, authors, extensions.
Pure: no I/O. The grammar is in ``docs/notation.md``; :mod:`texas42_log.log.notation`
reads the tokens into documents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..engine.tiles import Tile
from .positions import PositionedError
from .strictjson import JSONError, raw_decode

__all__ = ["NotationError", "parse_tile", "remark_lines", "tokens"]


class NotationError(PositionedError):
    """The text is not in the notation: ``line`` and ``column`` (1-based) say where."""

    line: int
    column: int

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message, line, column, said=f"line {line}, column {column}: {message}")


# -- tiles ----------------------------------------------------------------------


def parse_tile(text: str) -> str | None:
    """The canonical name of a tile as people write it (``5-0``, ``0-5``, ``[0|5]``,
    ``[5|0]``, ``50``, ``05``: :meth:`Tile.parse`), or None if it is not one."""
    if (
        len(text) == 5
        and text[0] == "["
        and text[2] == "|"
        and text[4] == "]"
        and "0" <= text[1] <= text[3] <= "6"
    ):
        return text  # already canonical: the common case, without a regex
    try:
        return str(Tile.parse(text))
    except ValueError:
        return None


# -- tokens ---------------------------------------------------------------------


@dataclass(slots=True)
class Tok:
    kind: str  # word, tile, tag, comment, author, ext, marker, colon
    value: Any
    line: int
    col: int


_WORD_STOP = set(' \t\r\n,;{}[]&@"():·')
_BLANKS = re.compile(r"[ \t\r,·\ufeff]+")
_BRACKET_TILE = re.compile(r"\[\s*[0-6]\s*[|:\-/ ]?\s*[0-6]\s*\]")
#: A comment's text: anything but braces, a backslash escaping the next character.
_COMMENT_BODY = re.compile(r"[^\\{}]*(?:\\.[^\\{}]*)*", re.DOTALL)
#: The escapes of a comment: \\ \{ \} and \uXXXX (a character by its code).
_COMMENT_ESCAPE = re.compile(r"\\([\\{}])|\\u([0-9a-fA-F]{4})")
#: What a written comment holds as \uXXXX: every control character but newline and tab.


def _unescape(m: re.Match[str]) -> str:
    if m.group(1) is not None:
        return m.group(1)
    code = int(m.group(2), 16)
    return m.group(0) if 0xD800 <= code <= 0xDFFF else chr(code)


_FAST = re.compile(r"(\[[0-6]\|[0-6]\])|([^ \t\r\n,;{}\[\]&@\"():·]+)")


def remark_lines(text: str) -> list[int]:
    """The lines on which ``text`` has a ``;`` remark (which reading drops)."""
    found: list[int] = []
    try:
        tokens(text, found)
    except NotationError:
        pass
    return found


def tokens(text: str, remarks: list[int] | None = None) -> list[Tok]:
    """The tokens of ``text``; with ``remarks``, the lines of its ; remarks are added there."""
    out: list[Tok] = []
    i, n = 0, len(text)
    line, line_start = 1, 0

    def err(message: str, at: int) -> NotationError:
        ln = text.count("\n", 0, at) + 1
        col = at - (text.rfind("\n", 0, at) + 1) + 1
        return NotationError(message, ln, col)

    def json_value(at: int, what: str) -> tuple[Any, int]:
        try:
            return raw_decode(text, at)
        except JSONError as e:
            raise err(
                f"{what} is not valid JSON: {e.reason}", e.offset if e.offset is not None else at
            ) from None

    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            line_start = i + 1
            i += 1
            continue
        if c in " \t\r,·\ufeff":
            i = _BLANKS.match(text, i).end()  # type: ignore[union-attr]
            continue
        col = i - line_start + 1
        m = _FAST.match(text, i)
        if m is not None:
            # the common tokens: a canonical tile, a word
            tile = m.group(1)
            if tile is not None:
                out.append(Tok("tile", tile if tile[1] <= tile[3] else parse_tile(tile), line, col))
            else:
                out.append(Tok("word", m.group(2), line, col))
            i = m.end()
            continue
        if c == ";":
            if remarks is not None:
                remarks.append(line)
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if c == "{":
            j = _COMMENT_BODY.match(text, i + 1).end()  # type: ignore[union-attr]
            if j >= n:
                raise err("a comment '{' is never closed with '}'", i)
            if text[j] == "{":
                raise err("a '{' inside a comment must be written \\{", j)
            body = text[i + 1 : j]
            out.append(
                Tok(
                    "comment",
                    _COMMENT_ESCAPE.sub(_unescape, body) if "\\" in body else body,
                    line,
                    col,
                )
            )
            line += text.count("\n", i, j)
            if "\n" in text[i:j]:
                line_start = text.rfind("\n", i, j) + 1
            i = j + 1
            continue
        if c == "@":
            if i + 1 < n and text[i + 1] == '"':
                value, j = json_value(i + 1, "an author")
            else:
                j = i + 1
                while j < n and text[j] not in _WORD_STOP:
                    j += 1
                value = text[i + 1 : j]
            if not value:
                raise err("'@' must be followed by the author's name", i)
            out.append(Tok("author", value, line, col))
            i = j
            continue
        if c == "&":
            if i + 1 >= n or text[i + 1] != "{":
                raise err("'&' must be followed by a JSON object of x- fields", i)
            value, j = json_value(i + 1, "an extension")
            if "\n" in text[i:j]:
                line += text.count("\n", i, j)
                line_start = text.rfind("\n", i, j) + 1
            out.append(Tok("ext", value, line, col))
            i = j
            continue
        if c == "[":
            m = _BRACKET_TILE.match(text, i)
            if m:
                out.append(Tok("tile", parse_tile(m.group(0)), line, col))
                i = m.end()
                continue
            j = i + 1
            while j < n and text[j] in " \t":
                j += 1
            k = j
            while k < n and (text[k].isalnum() or text[k] in "_-"):
                k += 1
            name = text[j:k]
            if not name:
                raise err(
                    "a '[' starts a tag such as [Rules \"standard\"] or a tile such as [0|5]", i
                )
            values: list[Any] = []
            k2 = k
            while True:
                while k2 < n and text[k2] in " \t\r\n":
                    k2 += 1
                if k2 >= n:
                    raise err(f"the tag [{name} …] is never closed with ']'", i)
                if text[k2] == "]":
                    break
                tm = _BRACKET_TILE.match(text, k2)
                if tm:
                    values.append(parse_tile(tm.group(0)))
                    k2 = tm.end()
                elif text[k2] in '"{[-0123456789':
                    v, k2 = json_value(k2, f"a value of the tag [{name}]")
                    values.append(v)
                else:
                    e = k2
                    while e < n and text[e] not in " \t\r\n]":
                        e += 1
                    word = text[k2:e]
                    values.append({"true": True, "false": False, "null": None}.get(word, word))
                    k2 = e
            out.append(Tok("tag", (name, values), line, col))
            line += text.count("\n", i, k2)
            if "\n" in text[i:k2]:
                line_start = text.rfind("\n", i, k2) + 1
            i = k2 + 1
            continue
        if c == '"':
            value, j = json_value(i, "a string")
            out.append(Tok("word", value, line, col))
            i = j
            continue
        if c == "(":
            j = text.find(")", i)
            if j < 0 or "\n" in text[i:j]:
                raise err("a '(' must be closed on the same line, as in (rejected)", i)
            out.append(Tok("marker", text[i + 1 : j].strip().lower(), line, col))
            i = j + 1
            continue
        if c == ":":
            out.append(Tok("colon", ":", line, col))
            i += 1
            continue
        # every other character starts a word or a tile (the fast path above)
        raise err(f"'{c}' has no opening partner", i)
    return out
