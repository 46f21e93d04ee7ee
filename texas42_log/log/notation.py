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
from typing import Any

from ..engine.actions import TRUMP_WORDS
from .model import FORMAT_NAME, in_key_order, minimal_version
from .notation_header import SEATS, HeaderReader, ParsedMatch, brief_text, other_digits, position
from .notation_tokens import NotationError, Tok, parse_tile, remark_lines, tokens
from .notation_writer import write_text, write_texts

__all__ = [
    "NotationError",
    "ParsedMatch",
    "parse_text",
    "write_text",
    "write_texts",
    "parse_tile",
    "position",
    "remark_lines",
]


# -- reading --------------------------------------------------------------------

_KEYWORDS = {
    "hand",
    "deal",
    "auction",
    "declare",
    "declaration",
    "trick",
    "plays",
    "outcome",
    "tricks",
}


def _is_keyword(t: Tok) -> bool:
    return t.kind == "word" and isinstance(t.value, str) and t.value.lower() in _KEYWORDS


def _seat(t: Tok) -> str | None:
    if t.kind == "word" and isinstance(t.value, str) and t.value.upper() in SEATS:
        return str(t.value.upper())
    return None


def _tile_of(t: Tok) -> str | None:
    if t.kind == "tile":
        return str(t.value)
    if t.kind == "word" and isinstance(t.value, str):
        return parse_tile(t.value)
    return None


class _Reader(HeaderReader):
    """The whole notation: the header (:class:`HeaderReader`), then the hands."""

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
    def hand(self, keyword: Tok) -> dict[str, Any]:
        hands = self.pm.doc.get("hands") if self.pm is not None else None
        if not hands:
            raise self.fail(keyword, "a hand's statements come after its 'Hand N: dealer X' line")
        return hands[-1]  # type: ignore[no-any-return]

    def hp(self) -> str:
        assert self.pm is not None
        return f"/hands/{len(self.pm.doc['hands']) - 1}"

    def part(self, hand: dict[str, Any], hp: str, key: str, t: Tok) -> dict[str, Any]:
        """The hand's ``deal`` or ``outcome`` object: a comment after its keyword is the
        hand's, an extension the object's."""
        obj: dict[str, Any] = hand.setdefault(key, {})
        self.at(f"{hp}/{key}", t)
        self.set_target(hand, hp)
        self.last_obj, self.last_ptr = obj, f"{hp}/{key}"
        self.trailers()
        return obj

    def statement(self) -> None:
        """One statement of a hand: its 'Hand N: dealer X' line, or a keyword and what
        follows it (deal, auction, declaration, a trick's plays, outcome, tricks)."""
        t = self.next()
        key = str(t.value).lower()
        if key == "hand":
            self._hand_line(t)
            return
        hand = self.hand(t)
        hp = self.hp()
        self.skip_colons()
        if key == "deal":
            self._deal_line(hand, hp, t)
        elif key == "auction":
            self._auction_line(hand, hp, t)
        elif key in ("declare", "declaration"):
            self._declaration_line(hand, hp, t)
        elif key in ("trick", "plays"):
            self._plays_line(hand, hp, key)
        elif key == "outcome":
            self._outcome_line(hand, hp, t)
        elif key == "tricks":
            self._tricks_line(hand, hp, t)
        self.skip_colons()

    def _hand_line(self, t: Tok) -> None:
        """'Hand 3: dealer B' starts a hand (numbers and colons optional)."""
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

    def _deal_line(self, hand: dict[str, Any], hp: str, t: Tok) -> None:
        """A hand's deal: 'Deal: A [0|0] … B …'."""
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

    def _auction_line(self, hand: dict[str, Any], hp: str, t: Tok) -> None:
        """A hand's auction: 'Auction: B pass C 30 …'."""
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

    def _declaration_line(self, hand: dict[str, Any], hp: str, t: Tok) -> None:
        """The declaration: 'Declare: A trump 5 stacks 2', Nel-O and Sevens."""
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
                name = (
                    TRUMP_WORDS.get(str(v.value).lower())
                    if v is not None and v.kind == "word"
                    else None
                )
                if name is None:
                    raise self.fail(v, "'trump' is followed by 0–6, doubles or no-trump")
                self.i += 1
                decl["trump"] = name
            elif word in ("nello", "nel-o", "sevens"):
                decl["contract"] = "sevens" if word == "sevens" else "nello"
            elif word == "doubles":
                v = self.peek()
                if (
                    v is None
                    or v.kind != "word"
                    or str(v.value).lower() not in ("high", "low", "own-suit")
                ):
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
                raise self.fail(
                    x,
                    f"{_show(x)} is not part of a declaration (trump X, nello, sevens, "
                    "doubles high|low|own-suit, stacks N)",
                )
        self.set_target(decl, hp + "/declaration")
        self.trailers()

    def _plays_line(self, hand: dict[str, Any], hp: str, key: str) -> None:
        """A trick's plays: 'Trick 1: A [5|5] B 5-0 led 5 …'."""
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
                    if (
                        v is None
                        or v.kind != "word"
                        or str(v.value).lower() not in TRUMP_WORDS
                        or not str(TRUMP_WORDS[str(v.value).lower()]).isdigit()
                    ):
                        raise self.fail(v, "'led' is followed by the suit led, 0–6")
                    self.i += 1
                    play["led"] = int(TRUMP_WORDS[str(v.value).lower()])
                elif x.kind == "marker" and x.value == "rejected":
                    self.i += 1
                    play["rejected"] = True
                else:
                    break
            self.set_target(play, ptr)
            self.trailers()

    def _outcome_line(self, hand: dict[str, Any], hp: str, t: Tok) -> None:
        """A hand's outcome: 'Outcome: made points 31-11 marks 1-0'."""
        out = self.part(hand, hp, "outcome", t)
        while (
            (x := self.peek()) is not None
            and x.kind == "word"
            and not _is_keyword(x)
            and _seat(x) is None
        ):
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
                raise self.fail(
                    x,
                    f"{_show(x)} is not part of an outcome (made|set|no-contract, points X-Y, "
                    "marks X-Y, score X-Y)",
                )
            self.trailers()

    def _tricks_line(self, hand: dict[str, Any], hp: str, t: Tok) -> None:
        """The tricks' outcomes: 'Tricks: C+11 A+1 …'."""
        out = hand.setdefault("outcome", {})
        tricks = out.setdefault("tricks", [])
        self.at(hp + "/outcome/tricks", t)
        self.set_target(hand, hp)
        self.last_obj = None
        while (x := self.peek()) is not None and x.kind == "word" and not _is_keyword(x):
            if other_digits(str(x.value).lstrip("ABCDabcd?+")):
                raise self.fail(
                    x,
                    f"{brief_text(str(x.value))} is written with digits other than 0–9; write "
                    "numbers in ASCII digits",
                )
            m = re.match(
                r"^([A-Da-d?])?(?:\+([0-9]+|\?))?$",
                "" if x.value == "-" else str(x.value),
                re.ASCII,
            )
            if m is None or (m.group(1) is None and m.group(2) is None and x.value != "-"):
                raise self.fail(
                    x,
                    f"{_show(x)} is not a trick outcome (winner and points, as C+11; "
                    "? for unknown, - for neither)",
                )
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

    def call(self, seat: str, s: Tok) -> dict[str, Any]:
        x = self.peek()
        if x is None or x.kind != "word":
            raise self.fail(
                x,
                f"{seat} is followed by a call: pass, a point bid such as 30, or marks such as 2m",
            )
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
        elif word.endswith("m") and other_digits(word[:-1]):
            raise self.fail(
                x,
                f"{brief_text(word)} is written with digits other than 0–9; write numbers in ASCII "
                "digits",
            )
        else:
            raise self.fail(
                x, f"{_show(x)} is not a call: pass, a point bid such as 30, or marks such as 2m"
            )
        if (r := self.peek()) is not None and r.kind == "marker" and r.value == "rejected":
            self.i += 1
            call["rejected"] = True
        return call


#: Object-valued fields an [Ext] tag may create before their own tags (e.g. players).
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
    pm.doc = in_key_order(doc)


def _show(t: Tok) -> str:
    if t.kind == "word":
        return brief_text(str(t.value))
    return {
        "tile": "a tile",
        "tag": "a tag",
        "comment": "a comment",
        "author": "an author",
        "ext": "an extension",
        "marker": f"({t.value})",
        "colon": "':'",
    }.get(t.kind, t.kind)


def parse_text(text: str) -> list[ParsedMatch]:
    """Every match in ``text`` (a new ``[Format]`` tag, or a tag after a hand, starts
    the next one), as JSON-ready documents with positions. Raises :class:`NotationError`.

    The documents are not validated: pass them to
    :func:`texas42_log.files.validate.validate_doc`."""
    matches = _Reader(tokens(text)).run()
    if not matches:
        raise NotationError("the text holds no match (no tag, no hand)", 1, 1)
    return matches
