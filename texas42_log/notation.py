"""The text notation: a texas42-log match written for people, as PGN is for chess.

A header of ``[Tag value…]`` lines, then one block per hand::

    [Format "texas42-log"]
    [Version "1.1"]
    [Rules "standard"]
    [A "Ana"]
    [FirstDealer "A"]

    Hand 1: dealer A
    Deal:
      A: [6|6] [5|6] …
    Auction: B pass, C 30, D pass, A pass
    Declare: C trump 6
    Trick 1: C [6|6], D [0|6], A [0|1], B [0|2] {a comment on B's play}
    Outcome: made, points 31-11, marks 1-0, score 1-0

The full grammar and an example are in ``docs/notation.md``. Reading is lenient
(tiles ``5-0``, ``0-5``, ``[0|5]``, ``50``; any case; any spacing; commas
optional; ``;`` starts a comment to the end of the line, which is dropped); writing
is canonical. Everything a JSON log holds survives JSON → text → JSON: annotations
are ``{…}`` after what they annotate (``@"author"`` after it), extension fields
``&{"x-…": …}`` after their object, or ``[Ext "/json/pointer" {…}]`` in the header.

Pure functions, no I/O: :func:`parse_text` gives JSON-ready documents with the
text position of each JSON pointer; :func:`write_text` writes one match.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .model import FORMAT_NAME, minimal_version
from .notation_tokens import NotationError, _Tok, parse_tile, remark_lines, tokens
from .notation_writer import write_text, write_texts

__all__ = [
    "NotationError", "ParsedMatch", "parse_text", "write_text", "write_texts", "parse_tile", "position", "remark_lines",
]

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

_KEYWORDS = {"hand", "deal", "auction", "declare", "declaration", "trick", "plays", "outcome", "tricks"}
_TRUMPS = {
    **{str(k): str(k) for k in range(7)},
    **{w: str(k) for k, w in enumerate(("blanks", "aces", "deuces", "treys", "fours", "fives", "sixes"))},
    "doubles": "doubles", "no-trump": "no-trump", "notrump": "no-trump", "nt": "no-trump", "follow-me": "no-trump",
}
_TEAMS_RE = re.compile(r"^(-?[0-9]+)-(-?[0-9]+)$", re.ASCII)
#: The most digits a number of the notation has (bids, points, marks, counts).
MAX_DIGITS = 6
_NUMBER = re.compile(r"-?[0-9]+", re.ASCII)


#: The objects whose &{…} may also hold an "analysis" field (format 1.3).
_ANALYSED = re.compile(r"/hands/\d+(/plays/\d+)?")


def _brief(text: str) -> str:
    return repr(text) if len(text) <= 40 else repr(text[:37]) + "…"


def _other_digits(text: str) -> bool:
    """True where ``text`` is written with digits, some of them not 0–9 (٣, ², १)."""
    return any(c.isdigit() for c in text) and all(c.isdigit() or c in "-+" for c in text) and not text.isascii()


def _is_keyword(t: _Tok) -> bool:
    return t.kind == "word" and isinstance(t.value, str) and t.value.lower() in _KEYWORDS


def _seat(t: _Tok) -> str | None:
    if t.kind == "word" and isinstance(t.value, str) and t.value.upper() in SEATS:
        return str(t.value.upper())
    return None


def _tile_of(t: _Tok) -> str | None:
    if t.kind == "tile":
        return str(t.value)
    if t.kind == "word" and isinstance(t.value, str):
        return parse_tile(t.value)
    return None


class _Reader:
    def __init__(self, toks: list[_Tok]) -> None:
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
    def peek(self) -> _Tok | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def next(self) -> _Tok:
        t = self.toks[self.i]
        self.i += 1
        return t

    def fail(self, t: _Tok | None, message: str) -> NotationError:
        if t is None:
            last = self.toks[-1] if self.toks else _Tok("word", "", 1, 1)
            return NotationError(message + " (the text ends here)", last.line, last.col)
        return NotationError(message, t.line, t.col)

    def at(self, pointer: str, t: _Tok) -> None:
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
                    raise self.fail(t, "an extension &{…} here extends nothing; put it after its object")
                self.extend(self.last_obj, t)
            elif t.kind == "author":
                raise self.fail(t, "an author @… follows the comment {…} it signs")
            else:
                return

    def extend(self, obj: dict[str, Any], t: _Tok) -> None:
        if not isinstance(t.value, dict):
            raise self.fail(t, "an extension must be a JSON object of x- fields")
        for k, v in t.value.items():
            if k == "analysis" and _ANALYSED.fullmatch(self.last_ptr or ""):
                pass  # since 1.3: a hand's or a play's open-hand analysis, which has no words here
            elif not k.startswith("x-"):
                raise self.fail(t, f"the extension field {_brief(k)} must start with x-")
            if k in obj:
                raise self.fail(t, f"the extension field {_brief(k)} is given twice for one object")
            obj[k] = v

    def run(self) -> list[ParsedMatch]:
        while (t := self.peek()) is not None:
            if t.kind == "tag":
                self.tag()
            elif _is_keyword(t):
                self.statement()
            elif t.kind in ("comment", "ext", "author"):
                self.match()
                self.trailers()
            else:
                raise self.fail(t, f"{_show(t)} is not a tag, a hand or a comment here")
        for pm in self.matches:
            _finish(pm)
        return self.matches

    # header
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
                raise self.fail(t, f"the tag [{name}] takes an option name and its value, as [Option nello true]")
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
                raise self.fail(t, "[Draw] tags come before any [Ext \"/dealer_draw/…\"]")
            if values:
                if len(values) != 2:
                    raise self.fail(t, "the tag [Draw] takes a seat and its tile, as [Draw A \"[1|4]\"]")
                tile = parse_tile(str(values[1])) or str(values[1])
                self.at(f"/dealer_draw/{len(draws)}", t)
                draws.append({"seat": str(values[0]).upper(), "tile": tile})
        elif key == "status":
            self.once(t, "/status", name)
            doc["status"] = one()
            self.at("/status", t)
        elif key == "result":
            if not 1 <= len(values) <= 2:
                raise self.fail(t, "the tag [Result] takes the winning team and its marks, as [Result \"A+C\" \"7-3\"]")
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
            if len(values) != 2 or not isinstance(values[0], str) or not isinstance(values[1], dict):
                raise self.fail(t, "the tag [Ext] takes a JSON pointer and an object, as [Ext \"/players\" {\"x-club\": 1}]")
            obj = _walk(doc, values[0])
            if obj is None:
                raise self.fail(t, f"[Ext] names {values[0]!r}, which is not an object of this match")
            self.extend(obj, _Tok("ext", values[1], t.line, t.col))
            self.at(values[0], t)
        else:
            raise self.fail(t, f"unknown tag [{name}]; the tags are Format, Version, Rules, Option, A, B, C, D, "
                               "FirstDealer, Draw, Status, Result, Source, Warning, Ext")
        self.annotatable, self.annotatable_ptr = doc, ""
        self.last_obj = None

    def teams(self, t: _Tok, text: str) -> dict[str, int]:
        m = _TEAMS_RE.match(text)
        if m is None:
            raise self.fail(t, f"{_brief(text)} is not two numbers, A+C first, as 7-3")
        return {"A+C": self.int_of(t, m.group(1)), "B+D": self.int_of(t, m.group(2))}

    def int_of(self, t: _Tok, text: str) -> int:
        """The number ``text`` (ASCII digits, already matched) writes; at most :data:`MAX_DIGITS`."""
        digits = len(text.lstrip("-"))
        if digits > MAX_DIGITS:
            raise self.fail(t, f"{_brief(text)} is a number of {digits:,} digits; a number here has at most "
                               f"{MAX_DIGITS}")
        return int(text)

    def number(self, t: _Tok) -> int | None:
        """The number word ``t`` writes, or None when it is no number. Digits of other
        scripts (٣, ², १) are refused: a number is written in the digits 0–9."""
        text = str(t.value) if t.kind == "word" else ""
        if _NUMBER.fullmatch(text):
            return self.int_of(t, text)
        if _other_digits(text):
            raise self.fail(t, f"{_brief(text)} is written with digits other than 0–9; write numbers in ASCII digits")
        return None

    def once(self, t: _Tok, pointer: str, name: str) -> None:
        """A tag that says one thing of a match may be given once."""
        assert self.pm is not None
        if pointer in self.pm.positions:
            line, _ = self.pm.positions[pointer]
            raise self.fail(t, f"the tag [{name}] is given twice in one match (first on line {line})")

    # hands
    def hand(self, keyword: _Tok) -> dict[str, Any]:
        hands = self.pm.doc.get("hands") if self.pm is not None else None
        if not hands:
            raise self.fail(keyword, "a hand's statements come after its 'Hand N: dealer X' line")
        return hands[-1]  # type: ignore[no-any-return]

    def hp(self) -> str:
        assert self.pm is not None
        return f"/hands/{len(self.pm.doc['hands']) - 1}"

    def part(self, hand: dict[str, Any], hp: str, key: str, t: _Tok) -> dict[str, Any]:
        """The hand's ``deal`` or ``outcome`` object: a comment after its keyword is the
        hand's, an extension the object's."""
        obj: dict[str, Any] = hand.setdefault(key, {})
        self.at(f"{hp}/{key}", t)
        self.set_target(hand, hp)
        self.last_obj, self.last_ptr = obj, f"{hp}/{key}"
        self.trailers()
        return obj

    def statement(self) -> None:
        t = self.next()
        key = str(t.value).lower()
        if key == "hand":
            pm = self.pm if self.pm is not None else self.match()
            self.seen_hand = True
            hands = pm.doc.setdefault("hands", [])
            hand: dict[str, Any] = {"auction": []}
            hands.append(hand)
            self.at(self.hp(), t)
            # "Hand 3: dealer B", numbers and colons optional
            while (x := self.peek()) is not None and (x.kind == "colon" or self.number(x) is not None):
                self.i += 1
            d = self.peek()
            if d is None or d.kind != "word" or str(d.value).lower() != "dealer":
                raise self.fail(d, "a hand starts 'Hand N: dealer X'")
            self.i += 1
            self.skip_colons()
            s = self.peek()
            seat = _seat(s) if s is not None else None
            if seat is None:
                raise self.fail(s, "'dealer' is followed by the dealer's seat, A to D")
            self.i += 1
            hand["dealer"] = seat
            self.at(self.hp() + "/dealer", s)  # type: ignore[arg-type]
            self.set_target(hand, self.hp())
            self.trailers()
            return
        hand = self.hand(t)
        hp = self.hp()
        self.skip_colons()
        if key == "deal":
            deal = self.part(hand, hp, "deal", t)
            while (s := self.peek()) is not None and (seat := _seat(s)) is not None:
                self.i += 1
                self.skip_colons()
                tiles: list[str | None] = []
                deal[seat] = tiles
                self.at(f"{hp}/deal/{seat}", s)
                while (x := self.peek()) is not None:
                    if x.kind == "word" and x.value == "?":
                        tiles.append(None)
                    elif (tile := _tile_of(x)) is not None:
                        tiles.append(tile)
                    else:
                        break
                    self.at(f"{hp}/deal/{seat}/{len(tiles) - 1}", x)
                    self.i += 1
                self.trailers()
        elif key == "auction":
            self.at(hp + "/auction", t)
            self.set_target(hand, hp)
            self.last_obj = None
            self.trailers()
            calls = hand["auction"]
            while (s := self.peek()) is not None and (seat := _seat(s)) is not None:
                self.i += 1
                self.skip_colons()
                call = self.call(seat, s)
                ptr = f"{hp}/auction/{len(calls)}"
                calls.append(call)
                self.at(ptr, s)
                self.set_target(call, ptr)
                self.trailers()
        elif key in ("declare", "declaration"):
            s = self.peek()
            seat = _seat(s) if s is not None else None
            if seat is None:
                raise self.fail(s, "'Declare:' is followed by the declaring seat, A to D")
            self.i += 1
            decl: dict[str, Any] = {"seat": seat}
            hand["declaration"] = decl
            self.at(hp + "/declaration", t)
            while (x := self.peek()) is not None and x.kind == "word" and not _is_keyword(x):
                word = str(x.value).lower()
                self.i += 1
                if word in ("trump", "trumps"):
                    v = self.peek()
                    name = _TRUMPS.get(str(v.value).lower()) if v is not None and v.kind == "word" else None
                    if name is None:
                        raise self.fail(v, "'trump' is followed by 0–6, doubles or no-trump")
                    self.i += 1
                    decl["trump"] = name
                elif word in ("nello", "nel-o", "sevens"):
                    decl["contract"] = "sevens" if word == "sevens" else "nello"
                elif word == "doubles":
                    v = self.peek()
                    if v is None or v.kind != "word" or str(v.value).lower() not in ("high", "low", "own-suit"):
                        raise self.fail(v, "'doubles' is followed by high, low or own-suit")
                    self.i += 1
                    decl["doubles"] = str(v.value).lower()
                elif word == "stacks":
                    v = self.peek()
                    stacks = self.number(v) if v is not None else None
                    if v is None or stacks is None:
                        raise self.fail(v, "'stacks' is followed by a number")
                    self.i += 1
                    decl["stacks"] = stacks
                else:
                    raise self.fail(x, f"{_show(x)} is not part of a declaration (trump X, nello, sevens, "
                                       "doubles high|low|own-suit, stacks N)")
            self.set_target(decl, hp + "/declaration")
            self.trailers()
        elif key in ("trick", "plays"):
            if key == "trick":
                n = self.peek()
                if n is not None and self.number(n) is not None:
                    self.i += 1
                self.skip_colons()
            self.set_target(hand, hp)
            self.last_obj = None
            self.trailers()
            plays = hand.setdefault("plays", [])
            while (s := self.peek()) is not None and (seat := _seat(s)) is not None:
                self.i += 1
                self.skip_colons()
                x = self.peek()
                tile = _tile_of(x) if x is not None else None
                if tile is None:
                    raise self.fail(x, f"{seat} is followed by the tile played, as [0|5] or 5-0")
                self.i += 1
                play: dict[str, Any] = {"seat": seat, "tile": tile}
                ptr = f"{hp}/plays/{len(plays)}"
                plays.append(play)
                self.at(ptr, s)
                self.at(ptr + "/tile", x)  # type: ignore[arg-type]
                while (x := self.peek()) is not None:
                    if x.kind == "word" and str(x.value).lower() == "led":
                        self.i += 1
                        v = self.peek()
                        if v is None or v.kind != "word" or str(v.value).lower() not in _TRUMPS or not str(_TRUMPS[str(v.value).lower()]).isdigit():
                            raise self.fail(v, "'led' is followed by the suit led, 0–6")
                        self.i += 1
                        play["led"] = int(_TRUMPS[str(v.value).lower()])
                    elif x.kind == "marker" and x.value == "rejected":
                        self.i += 1
                        play["rejected"] = True
                    else:
                        break
                self.set_target(play, ptr)
                self.trailers()
        elif key == "outcome":
            out = self.part(hand, hp, "outcome", t)
            while (x := self.peek()) is not None and x.kind == "word" and not _is_keyword(x) and _seat(x) is None:
                word = str(x.value).lower()
                self.i += 1
                if word in ("made", "set", "no-contract"):
                    out["result"] = word
                elif word in ("points", "marks", "score"):
                    self.skip_colons()
                    v = self.peek()
                    if v is None or v.kind != "word":
                        raise self.fail(v, f"'{word}' is followed by two numbers, A+C first, as 31-11")
                    self.i += 1
                    out[word] = self.teams(v, str(v.value))
                    self.last_obj, self.last_ptr = out[word], f"{hp}/outcome/{word}"
                else:
                    raise self.fail(x, f"{_show(x)} is not part of an outcome (made|set|no-contract, points X-Y, "
                                       "marks X-Y, score X-Y)")
                self.trailers()
        elif key == "tricks":
            out = hand.setdefault("outcome", {})
            tricks = out.setdefault("tricks", [])
            self.at(hp + "/outcome/tricks", t)
            self.set_target(hand, hp)
            self.last_obj = None
            while (x := self.peek()) is not None and x.kind == "word" and not _is_keyword(x):
                if _other_digits(str(x.value).lstrip("ABCDabcd?+")):
                    raise self.fail(x, f"{_brief(str(x.value))} is written with digits other than 0–9; write "
                                       "numbers in ASCII digits")
                m = re.match(r"^([A-Da-d?])?(?:\+([0-9]+|\?))?$", "" if x.value == "-" else str(x.value), re.ASCII)
                if m is None or (m.group(1) is None and m.group(2) is None and x.value != "-"):
                    raise self.fail(x, f"{_show(x)} is not a trick outcome (winner and points, as C+11; "
                                       "? for unknown, - for neither)")
                self.i += 1
                trick: dict[str, Any] = {}
                if m.group(1) and m.group(1) != "?":
                    trick["winner"] = m.group(1).upper()
                if m.group(2) and m.group(2) != "?":
                    trick["points"] = self.int_of(x, m.group(2))
                self.at(f"{hp}/outcome/tricks/{len(tricks)}", x)
                tricks.append(trick)
                self.last_obj, self.last_ptr = trick, f"{hp}/outcome/tricks/{len(tricks) - 1}"
                self.trailers()
        self.skip_colons()

    def call(self, seat: str, s: _Tok) -> dict[str, Any]:
        x = self.peek()
        if x is None or x.kind != "word":
            raise self.fail(x, f"{seat} is followed by a call: pass, a point bid such as 30, or marks such as 2m")
        word = str(x.value).lower()
        self.i += 1
        call: dict[str, Any]
        if word in ("pass", "p", "-"):
            call = {"seat": seat, "call": "pass"}
        elif (bid := self.number(x)) is not None:
            call = {"seat": seat, "call": "points", "bid": bid}
        elif (m := re.match(r"^(-?[0-9]+)m$", word, re.ASCII)) is not None:
            call = {"seat": seat, "call": "marks", "bid": self.int_of(x, m.group(1))}
            v = self.peek()
            if v is not None and v.kind == "word" and str(v.value).lower() in ("plunge", "splash"):
                self.i += 1
                call["special"] = str(v.value).lower()
        elif word.endswith("m") and _other_digits(word[:-1]):
            raise self.fail(x, f"{_brief(word)} is written with digits other than 0–9; write numbers in ASCII digits")
        else:
            raise self.fail(x, f"{_show(x)} is not a call: pass, a point bid such as 30, or marks such as 2m")
        if (r := self.peek()) is not None and r.kind == "marker" and r.value == "rejected":
            self.i += 1
            call["rejected"] = True
        return call


#: Object-valued fields an [Ext] tag may create before their own tags (e.g. players).
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
        elif isinstance(obj, list) and _NUMBER.fullmatch(part) and len(part) <= MAX_DIGITS and int(part) < len(obj):
            obj = obj[int(part)]
        else:
            return None
    return obj if isinstance(obj, dict) else None


def _finish(pm: ParsedMatch) -> None:
    doc = pm.doc
    doc.setdefault("format", FORMAT_NAME)
    doc.setdefault("rules", {}).setdefault("preset", "standard")
    doc.setdefault("hands", [])
    if "first_dealer" not in doc and doc["hands"] and isinstance(doc["hands"][0], dict):
        doc["first_dealer"] = doc["hands"][0].get("dealer")
    if "version" not in doc:
        doc["version"] = minimal_version(doc)
    # Canonical key order (format, version, rules first) for the JSON written from it.
    order = ("format", "version", "rules", "players", "first_dealer", "dealer_draw", "status", "hands", "result", "source", "annotations")
    pm.doc = {k: doc[k] for k in order if k in doc} | {k: v for k, v in doc.items() if k not in order}


def _show(t: _Tok) -> str:
    if t.kind == "word":
        return _brief(str(t.value))
    return {"tile": "a tile", "tag": "a tag", "comment": "a comment", "author": "an author", "ext": "an extension",
            "marker": f"({t.value})", "colon": "':'"}.get(t.kind, t.kind)


def parse_text(text: str) -> list[ParsedMatch]:
    """Every match in ``text`` (a new ``[Format]`` tag, or a tag after a hand, starts
    the next one), as JSON-ready documents with positions. Raises :class:`NotationError`.

    The documents are not validated: pass them to
    :func:`texas42_log.validate.validate_doc`."""
    matches = _Reader(tokens(text)).run()
    if not matches:
        raise NotationError("the text holds no match (no tag, no hand)", 1, 1)
    return matches


