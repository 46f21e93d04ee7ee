"""Readers and writers for the formats of other 42 programs (docs/conversions.md).

Each module turns its format into texas42-log documents (JSON-ready dicts, with
the source position of each JSON pointer, as :class:`~texas42_log.log.notation.ParsedMatch`)
and back. An import declares the rules the game was really played under and
records in ``source.warnings`` what the source did not record; an export refuses,
with :class:`CannotExport`, a match its format cannot hold. Pure: no I/O.

Seats map by index, 0↔A, 1↔B, 2↔C, 3↔D; team 0↔A+C, team 1↔B+D.
"""

from __future__ import annotations

from typing import Any

from ...engine.seats import SEATS
from ..positions import PositionedError

__all__ = [
    "ForeignFormatError",
    "CannotExport",
    "brief",
    "SEAT_OF",
    "INDEX_OF",
    "canonical_tile",
    "high_low",
    "settle",
    "json_items",
    "COMMENTS",
    "comments_of",
    "attach_comments",
    "comments_line",
    "read_comments_line",
]

#: Where a container of ours (a tricksy bundle, a file of plunge codes) carries the
#: match's comments, which the programs' own formats have no place for.
COMMENTS = "x-texas42-comments"

#: The seats by number, as programs that count them from 0 write them (R1).
SEAT_OF = SEATS
INDEX_OF = {s: i for i, s in enumerate(SEAT_OF)}


class ForeignFormatError(PositionedError):
    """The input is not in the format it claims; ``line``/``column`` are 1-based when known."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        where = f"line {line}, column {column}: " if line is not None else ""
        super().__init__(message, line, column, said=where + message)


class CannotExport(ValueError):
    """The match holds something the target format has no way to say."""


def brief(text: str, width: int = 60) -> str:
    """``text`` quoted for a message, cut to ``width`` characters."""
    return repr(text) if len(text) <= width else repr(text[: width - 3]) + "…"


def canonical_tile(a: int, b: int) -> str:
    lo, hi = sorted((a, b))
    return f"[{lo}|{hi}]"


def high_low(tile: str) -> tuple[int, int]:
    """(high, low) of a canonical tile name ``[l|h]``."""
    return int(tile[3]), int(tile[1])


def settle(doc: dict[str, Any]) -> None:
    """An imported match whose last hand gave a team the winning score is over: mark it
    complete, with its winner (formats that record no match end leave it unfinished)."""
    from ..model import Match
    from ..replayed import replay_match

    try:
        match = Match.model_validate(doc | {"status": "complete"})
        rules, facts = replay_match(match)
    except ValueError:
        return
    if not facts or not facts[-1].finished:
        return
    score = facts[-1].score
    if max(score.values()) >= rules.goal:
        doc["status"] = "complete"
        doc["result"] = {"winner": max(score, key=lambda t: score[t]), "marks": score}


def json_items(text: str) -> list[tuple[Any, int]]:
    """The JSON values of a file holding one value, a list of them, or JSON Lines — each
    with the line it starts on. :class:`ForeignFormatError` where it is not JSON."""
    from ..strictjson import JSONError, loads

    stripped = text.lstrip("\ufeff")
    if not stripped.strip():
        raise ForeignFormatError("the input is empty", 1, 1)
    try:
        value = loads(stripped)
    except JSONError as e:
        lines = stripped.split("\n")
        first = next((x for x in lines if x.strip()), "")
        try:
            loads(first)
        except JSONError:
            raise ForeignFormatError(e.message, e.line, e.column) from None  # not JSON Lines either
        if first.strip() == stripped.strip():
            raise ForeignFormatError(e.message, e.line, e.column) from None
        items: list[tuple[Any, int]] = []
        for ln, line in enumerate(lines, start=1):
            if line.strip():
                try:
                    items.append((loads(line), ln))
                except JSONError as e2:
                    raise ForeignFormatError(e2.message, ln, e2.column) from None
        return items
    return [(v, 1) for v in (value if isinstance(value, list) else [value])]


def comments_of(match: Any) -> list[dict[str, Any]]:
    """Every comment of ``match`` with the JSON pointer of what it is on (``on``)."""
    from ..annotate import listing

    out = []
    for item in listing(match):
        note: dict[str, Any] = {
            "on": item["pointer"].rsplit("/annotations/", 1)[0],
            "text": item["text"],
        }
        if item["author"] is not None:
            note["author"] = item["author"]
        out.append(note)
    return out


def attach_comments(doc: dict[str, Any], comments: Any) -> None:
    """Put comments written by :func:`comments_of` back on the objects of an imported document."""
    if not isinstance(comments, list):
        raise ForeignFormatError(f"{COMMENTS} is a list of comments")
    for c in comments:
        if (
            not isinstance(c, dict)
            or not isinstance(c.get("on"), str)
            or not isinstance(c.get("text"), str)
        ):
            raise ForeignFormatError(f'a comment of {COMMENTS} is {{"on": pointer, "text": …}}')
        obj: Any = doc
        for part in [p for p in c["on"].split("/") if p]:
            if isinstance(obj, dict) and part in obj:
                obj = obj[part]
            elif isinstance(obj, list) and part.isdigit() and int(part) < len(obj):
                obj = obj[int(part)]
            else:
                raise ForeignFormatError(
                    f"a comment is on {c['on']}, which this match does not have"
                )
        if not isinstance(obj, dict):
            raise ForeignFormatError(f"a comment is on {c['on']}, which is not an object")
        note = {"text": c["text"]} | (
            {"author": c["author"]} if isinstance(c.get("author"), str) else {}
        )
        obj.setdefault("annotations", []).append(note)


def comments_line(match: Any) -> str:
    """The last line of a file of ours in a line format (plunge codes, mk5 links) that keeps
    the match's comments, which the program's own format has no room for: ``# x-texas42-comments
    [...]``, or nothing when there are none."""
    from ..inert import dumps

    comments = comments_of(match)
    return f"# {COMMENTS} {dumps(comments)}\n" if comments else ""


def read_comments_line(line: str, ln: int) -> list[Any] | None:
    """The comments of a line :func:`comments_line` wrote; None for any other line."""
    if not line.startswith(f"# {COMMENTS} "):
        return None
    from ..strictjson import JSONError, loads

    try:
        value = loads(line[len(COMMENTS) + 3 :])
    except JSONError as e:
        raise ForeignFormatError(f"the {COMMENTS} line: {e.message}", ln, 1) from None
    if not isinstance(value, list):
        raise ForeignFormatError(f"the {COMMENTS} line holds a JSON list of comments", ln, 1)
    return value
