"""The text notation's reader, first part: the tokens' reader, the trailers of an item
(comments, authors, extensions) and the match's header tags (``[Format]`` … ``[Ext]``).

:mod:`texas42_log.log.notation` reads the hands on top of it. Pure: no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .notation_tokens import NotationError, Tok, parse_tile

__all__ = ["ParsedMatch", "position", "MAX_DIGITS"]

SEATS = ("A", "B", "C", "D")


@dataclass(slots=True)
class ParsedMatch:
    """One match read from text: the JSON-ready document, and where each part was written."""

    doc: dict[str, Any]
    positions: dict[str, tuple[int, int]] = field(default_factory=dict)
    line: int = 1


def position(positions: dict[str, tuple[int, int]], pointer: str) -> tuple[int, int] | None:
    """The text position of ``pointer``, or of its nearest ancestor written in the text."""
    while pointer not in positions and pointer:
        pointer = pointer.rsplit("/", 1)[0]
    return positions.get(pointer)


# -- reading --------------------------------------------------------------------

_TEAMS_RE = re.compile(r"^(-?[0-9]+)-(-?[0-9]+)$", re.ASCII)
#: The most digits a number of the notation has (bids, points, marks, counts).
MAX_DIGITS = 6
_NUMBER = re.compile(r"-?[0-9]+", re.ASCII)


#: The objects whose &{…} may also hold an "analysis" field (format 1.3).
_COMMENT = re.compile(r".*/annotations/[0-9]+")
_ANALYSED = re.compile(r"/hands/\d+(/plays/\d+|/auction/\d+|/declaration)?")


def brief_text(text: str) -> str:
    return repr(text) if len(text) <= 40 else repr(text[:37]) + "…"


def other_digits(text: str) -> bool:
    """True where ``text`` is written with digits, some of them not 0–9 (٣, ², १)."""
    return (
        any(c.isdigit() for c in text)
        and all(c.isdigit() or c in "-+" for c in text)
        and not text.isascii()
    )


class HeaderReader:
    """The reader's state and the parts of the notation that are not a hand's."""

    def __init__(self, toks: list[Tok]) -> None:
        self.toks = toks
        self.i = 0
        self.matches: list[ParsedMatch] = []
        self.pm: ParsedMatch | None = None
        self.seen_hand = False
        # The object the next comment or extension belongs to.
        self.annotatable: dict[str, Any] | None = None
        self.annotatable_ptr = ""
        self.last_obj: dict[str, Any] | None = None
        self.last_ptr = ""

    # helpers
    def peek(self) -> Tok | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def next(self) -> Tok:
        t = self.toks[self.i]
        self.i += 1
        return t

    def fail(self, t: Tok | None, message: str) -> NotationError:
        if t is None:
            last = self.toks[-1] if self.toks else Tok("word", "", 1, 1)
            return NotationError(message + " (the text ends here)", last.line, last.col)
        return NotationError(message, t.line, t.col)

    def at(self, pointer: str, t: Tok) -> None:
        assert self.pm is not None
        self.pm.positions.setdefault(pointer, (t.line, t.col))

    def skip_colons(self) -> None:
        while (t := self.peek()) is not None and t.kind == "colon":
            self.i += 1

    def match(self) -> ParsedMatch:
        if self.pm is None or self.seen_hand:
            t = self.peek()
            self.pm = ParsedMatch({}, {}, t.line if t else 1)
            self.matches.append(self.pm)
            self.seen_hand = False
            self.annotatable = self.pm.doc
            self.annotatable_ptr = ""
            self.last_obj = None
        return self.pm

    def set_target(self, obj: dict[str, Any], ptr: str) -> None:
        self.annotatable, self.annotatable_ptr = obj, ptr
        self.last_obj, self.last_ptr = obj, ptr

    # the common tail of an item: comments, authors, extensions
    def trailers(self) -> None:
        while (t := self.peek()) is not None:
            if t.kind == "comment":
                self.i += 1
                target = self.annotatable
                if target is None:
                    raise self.fail(t, "a comment here annotates nothing")
                notes = target.setdefault("annotations", [])
                note: dict[str, Any] = {"text": t.value}
                ptr = f"{self.annotatable_ptr}/annotations/{len(notes)}"
                notes.append(note)
                self.at(ptr, t)
                self.last_obj, self.last_ptr = note, ptr
                if (a := self.peek()) is not None and a.kind == "author":
                    self.i += 1
                    note["author"] = a.value
            elif t.kind == "ext":
                self.i += 1
                if self.last_obj is None:
                    raise self.fail(
                        t, "an extension &{…} here extends nothing; put it after its object"
                    )
                self.extend(self.last_obj, t)
            elif t.kind == "author":
                raise self.fail(t, "an author @… follows the comment {…} it signs")
            else:
                return

    def extend(self, obj: dict[str, Any], t: Tok) -> None:
        if not isinstance(t.value, dict):
            raise self.fail(t, "an extension must be a JSON object of x- fields")
        for k, v in t.value.items():
            if k == "analysis" and _ANALYSED.fullmatch(self.last_ptr or ""):
                pass  # since 1.3 (a call's and the declaration's: 1.8): an analysis, no words here
            elif k in ("id", "seat", "edited_by") and _COMMENT.fullmatch(self.last_ptr or ""):
                pass  # since 1.7 a comment's id, since 1.9 its seat and editor: no words here
            elif not k.startswith("x-"):
                raise self.fail(t, f"the extension field {brief_text(k)} must start with x-")
            if k in obj:
                raise self.fail(
                    t, f"the extension field {brief_text(k)} is given twice for one object"
                )
            obj[k] = v

    def tag(self) -> None:
        t = self.next()
        name, values = t.value
        key = str(name).lower()
        if key == "format" and self.pm is not None and (self.seen_hand or "format" in self.pm.doc):
            self.seen_hand = True  # a new match begins
        pm = self.match()
        doc = pm.doc

        def one(kind: type | tuple[type, ...] = str) -> Any:
            if len(values) != 1 or not isinstance(values[0], kind):
                raise self.fail(t, f"the tag [{name}] takes one value")
            return values[0]

        if key == "format":
            doc["format"] = one()
            self.at("/format", t)
        elif key == "version":
            self.once(t, "/version", name)
            doc["version"] = str(one((str, int, float)))
            self.at("/version", t)
        elif key == "rules":
            self.once(t, "/rules/preset", name)
            doc.setdefault("rules", {})["preset"] = one()
            self.at("/rules/preset", t)
        elif key == "option":
            if len(values) != 2 or not isinstance(values[0], str):
                raise self.fail(
                    t,
                    f"the tag [{name}] takes an option name and its value, as [Option nello true]",
                )
            self.once(t, f"/rules/options/{values[0]}", f"{name} {values[0]}")
            doc.setdefault("rules", {}).setdefault("options", {})[values[0]] = values[1]
            self.at(f"/rules/options/{values[0]}", t)
        elif name.upper() in SEATS and len(name) == 1:
            self.once(t, f"/players/{name.upper()}", name)
            doc.setdefault("players", {})[name.upper()] = one()
            self.at(f"/players/{name.upper()}", t)
        elif key in ("firstdealer", "first_dealer"):
            self.once(t, "/first_dealer", name)
            doc["first_dealer"] = str(one()).upper()
            self.at("/first_dealer", t)
        elif key == "draw":
            draws = doc.setdefault("dealer_draw", [])
            if not isinstance(draws, list):
                raise self.fail(t, '[Draw] tags come before any [Ext "/dealer_draw/…"]')
            if values:
                if len(values) != 2:
                    raise self.fail(
                        t, 'the tag [Draw] takes a seat and its tile, as [Draw A "[1|4]"]'
                    )
                tile = parse_tile(str(values[1])) or str(values[1])
                self.at(f"/dealer_draw/{len(draws)}", t)
                draws.append({"seat": str(values[0]).upper(), "tile": tile})
        elif key == "status":
            self.once(t, "/status", name)
            doc["status"] = one()
            self.at("/status", t)
        elif key == "result":
            if not 1 <= len(values) <= 2:
                raise self.fail(
                    t,
                    'the tag [Result] takes the winning team and its marks, as [Result "A+C" '
                    '"7-3"]',
                )
            self.once(t, "/result", name)
            result = doc.setdefault("result", {})
            result["winner"] = values[0]
            if len(values) == 2:
                result["marks"] = self.teams(t, str(values[1]))
            self.at("/result", t)
        elif key == "source":
            self.once(t, "/source", name)
            doc.setdefault("source", {})["format"] = one()
            self.at("/source", t)
        elif key == "warning":
            if len(values) != 2:
                raise self.fail(t, "the tag [Warning] takes a hand number (or null) and a text")
            warnings = doc.setdefault("source", {}).setdefault("warnings", [])
            w: dict[str, Any] = {"text": values[1]}
            if values[0] is not None:
                w["hand"] = values[0]
            self.at(f"/source/warnings/{len(warnings)}", t)
            warnings.append(w)
        elif key == "ext":
            if (
                len(values) != 2
                or not isinstance(values[0], str)
                or not isinstance(values[1], dict)
            ):
                raise self.fail(
                    t,
                    'the tag [Ext] takes a JSON pointer and an object, as [Ext "/players" '
                    '{"x-club": 1}]',
                )
            obj = _walk(doc, values[0])
            if obj is None:
                raise self.fail(
                    t, f"[Ext] names {values[0]!r}, which is not an object of this match"
                )
            self.extend(obj, Tok("ext", values[1], t.line, t.col))
            self.at(values[0], t)
        else:
            raise self.fail(
                t,
                f"unknown tag [{name}]; the tags are Format, Version, Rules, Option, A, B, C, D, "
                "FirstDealer, Draw, Status, Result, Source, Warning, Ext",
            )
        self.annotatable, self.annotatable_ptr = doc, ""
        self.last_obj = None

    def teams(self, t: Tok, text: str) -> dict[str, int]:
        m = _TEAMS_RE.match(text)
        if m is None:
            raise self.fail(t, f"{brief_text(text)} is not two numbers, A+C first, as 7-3")
        return {"A+C": self.int_of(t, m.group(1)), "B+D": self.int_of(t, m.group(2))}

    def int_of(self, t: Tok, text: str) -> int:
        """The number ``text`` (ASCII digits, already matched) writes; at most
        :data:`MAX_DIGITS`."""
        digits = len(text.lstrip("-"))
        if digits > MAX_DIGITS:
            raise self.fail(
                t,
                f"{brief_text(text)} is a number of {digits:,} digits; a number here has at most "
                f"{MAX_DIGITS}",
            )
        return int(text)

    def number(self, t: Tok) -> int | None:
        """The number word ``t`` writes, or None when it is no number. Digits of other
        scripts (٣, ², १) are refused: a number is written in the digits 0–9."""
        text = str(t.value) if t.kind == "word" else ""
        if _NUMBER.fullmatch(text):
            return self.int_of(t, text)
        if other_digits(text):
            raise self.fail(
                t,
                f"{brief_text(text)} is written with digits other than 0–9; write numbers in ASCII "
                "digits",
            )
        return None

    def once(self, t: Tok, pointer: str, name: str) -> None:
        """A tag that says one thing of a match may be given once."""
        assert self.pm is not None
        if pointer in self.pm.positions:
            line, _ = self.pm.positions[pointer]
            raise self.fail(
                t, f"the tag [{name}] is given twice in one match (first on line {line})"
            )

    # hands


_OBJECT_FIELDS = {"players", "rules", "options", "result", "marks", "source"}


def _walk(doc: dict[str, Any], pointer: str) -> dict[str, Any] | None:
    """The object at ``pointer``, created (as an empty object) when it is a missing
    object-valued field of a match, for [Ext "/players" {…}]."""
    obj: Any = doc
    if pointer == "":
        return doc
    for raw in pointer.lstrip("/").split("/"):
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(obj, dict):
            if part not in obj:
                if part not in _OBJECT_FIELDS:
                    return None
                obj[part] = {}
            obj = obj[part]
        elif (
            isinstance(obj, list)
            and _NUMBER.fullmatch(part)
            and len(part) <= MAX_DIGITS
            and int(part) < len(obj)
        ):
            obj = obj[int(part)]
        else:
            return None
    return obj if isinstance(obj, dict) else None
