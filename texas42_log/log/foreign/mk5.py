"""The mk5 web app's share links: their parameters, action tokens and deals (docs/conversions.md).

mk5 keeps no log: its address bar holds the whole game so far, as a query string
``?s=<seed>&p=<seats>&d=<dealer>&l=<layers>&a=<actions>`` (or ``i=`` with the first
deal's hands in place of ``s=``). This module reads and writes that text — the
parameters with the column of each, the action alphabet, mk5's deal from a seed
(its Park–Miller generator, with the double rounding of its first step) and the
packed ``i=`` hands. Replaying the tokens is :mod:`.mk5_replay`. Pure: no I/O.

Seats map by index, mk5's player 0↔A … 3↔D.
"""

from __future__ import annotations

import base64
import math
from dataclasses import dataclass, field
from typing import Final

from . import ForeignFormatError, brief

__all__ = [
    "Link",
    "Token",
    "parse_link",
    "mk5_deal",
    "decode_hands",
    "encode_hands",
    "base36",
    "form_encode",
    "play_char",
    "MAX_LINK",
    "LAYER_CODES",
    "ADDRESS",
    "SEED_STEP",
]

#: Where the app is served: a link written without an address of its own starts here.
ADDRESS: Final = "https://jasonyandell.github.io/mk5-main/"
#: The longest link read: a whole match is a few thousand characters; anything far
#: longer is refused before its tokens are read.
MAX_LINK: Final = 100_000
#: The seed grows by this much at every new deal (a redeal included).
SEED_STEP: Final = 1_000_000
#: mk5 computes in doubles: a seed is exact below 2^53.
MAX_SEED: Final = 2**53 - 1
#: The layer codes of ``l=`` and the rule option each turns on (None: no rule of ours).
LAYER_CODES: Final[dict[str, str | None]] = {
    "n": "nello",
    "p": "plunge",
    "S": "splash",
    "v": "sevens",
    "t": None,
    "o": None,
    "s": None,
    "h": None,
}

#: A play's character: the tile's index high·(high+1)/2 + low in this string.
PLAYS: Final = "bcdefghijklmnopqrstuvwxyz012"
#: Characters URLSearchParams leaves as they are.
_SAFE: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789*-._")
_B36: Final = "0123456789abcdefghijklmnopqrstuvwxyz"
_HEX: Final = frozenset("0123456789abcdefABCDEF")


@dataclass(frozen=True, slots=True)
class Token:
    """One action of ``a=``: its kind, value (a bid, a trump, a tile name ``[l|h]``, a
    seat index) and where it starts in the line (1-based column) and how it was written."""

    kind: str
    value: int | str | None
    column: int
    text: str

    def describe(self) -> str:
        what = {
            "pass": "pass",
            "points": f"bid-{self.value}",
            "marks": f"bid-{self.value}-marks",
            "trump": f"trump {self.value}",
            "play": f"play {self.value}",
            "redeal": "redeal",
            "trick": "complete-trick",
            "score": "score-hand",
            "agree-trick": f"agree-trick-p{self.value}",
            "agree-score": f"agree-score-p{self.value}",
            "unknown": "an action mk5 cannot write",
            "act": "an action",
        }[self.kind]
        return f"the token {self.text!r} ({what}) at column {self.column}"


@dataclass(slots=True)
class Link:
    """One link as read: the part before ``?`` (``address``), every parameter's decoded
    value with the column it starts at, and the action tokens."""

    line: int
    address: str
    params: dict[str, tuple[str, int]] = field(default_factory=dict)
    tokens: list[Token] = field(default_factory=list)
    #: Parameters that are not mk5's (a tracker's ``utm_source``): named, not kept.
    dropped: list[str] = field(default_factory=list)


def _token_table() -> dict[str, tuple[str, int | str | None]]:
    table: dict[str, tuple[str, int | str | None]] = {"A": ("pass", None), "B": ("redeal", None)}
    for k in range(13):
        table[chr(ord("C") + k)] = ("points", 30 + k)
    for k, c in enumerate("PQR"):
        table[c] = ("marks", k + 1)
    for k, c in enumerate("STUVWXY"):
        table[c] = ("trump", str(k))
    table["Z"] = ("trump", "doubles")
    table["a"] = ("trump", "no-trump")
    table["3"] = ("trick", None)
    table["4"] = ("score", None)
    for k, c in enumerate("5678"):
        table[c] = ("agree-trick", k)
    for k, c in enumerate("9-_."):
        table[c] = ("agree-score", k)
    for idx, c in enumerate(PLAYS):
        table[c] = ("play", _tile_of_index(idx))
    return table


def _tile_of_index(idx: int) -> str:
    high = (math.isqrt(8 * idx + 1) - 1) // 2
    low = idx - high * (high + 1) // 2
    return f"[{low}|{high}]"


def _index_of(tile: str) -> int:
    low, high = int(tile[1]), int(tile[3])
    return high * (high + 1) // 2 + low


TOKENS: Final = _token_table()
#: The character of each (kind, value) that has one.
CHARS: Final = {v: c for c, v in TOKENS.items()}
#: Escapes mk5's decoder knows but its encoder never writes.
_ESCAPES: Final = {
    "A": "bid-plunge",
    "B": "bid-splash",
    "C": "bid-nello",
    "D": "bid-84-honors",
    "E": "bid-sevens",
    "F": "timeout-p0",
    "G": "timeout-p1",
    "H": "timeout-p2",
    "I": "timeout-p3",
}


def play_char(tile: str) -> str:
    """The character of a play of ``tile`` (``[l|h]``)."""
    return PLAYS[_index_of(tile)]


# -- the query string ------------------------------------------------------------------


def _percent(raw: str, ln: int, col: int, name: str) -> tuple[bytes, list[int]]:
    """Form-decoding of one value: bytes, and the column each byte was written at."""
    out = bytearray()
    cols: list[int] = []
    k = 0
    while k < len(raw):
        c = raw[k]
        if c == "%":
            pair = raw[k + 1 : k + 3]
            if len(pair) < 2 or not set(pair) <= _HEX:
                raise ForeignFormatError(
                    f"{name}=: {brief('%' + pair)} is not a percent-escape ('%' and two hex "
                    "digits)",
                    ln,
                    col + k,
                )
            out.append(int(pair, 16))
            cols.append(col + k)
            k += 3
        elif c == "+":
            out.append(0x20)
            cols.append(col + k)
            k += 1
        else:
            b = c.encode("utf-8", "surrogatepass")
            out += b
            cols += [col + k] * len(b)
            k += 1
    return bytes(out), cols


def _text_value(raw: str, ln: int, col: int, name: str) -> str:
    data, cols = _percent(raw, ln, col, name)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ForeignFormatError(
            f"{name}=: the percent-escapes decode to bytes that are not UTF-8 (byte "
            f"0x{data[e.start]:02x})",
            ln,
            cols[e.start],
        ) from None
    for k, ch in enumerate(text):
        if ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0:
            at = cols[len(text[:k].encode("utf-8"))]
            raise ForeignFormatError(
                f"{name}=: holds the control character U+{ord(ch):04X}", ln, at
            )
    return text


def _tokens(raw: str, ln: int, col: int) -> list[Token]:
    data, cols = _percent(raw, ln, col, "a")
    out: list[Token] = []
    k = 0
    n = len(data)
    while k < n:
        b = data[k]
        at = cols[k]
        if b >= 0x80:
            raise ForeignFormatError(
                "a=: an action token is an ASCII character, and this is not one", ln, at
            )
        c = chr(b)
        if c == "~":
            if k + 1 >= n:
                raise ForeignFormatError(
                    "a=: the link ends with a lone '~'; an escape is '~' and one character (mk5 "
                    "writes '~?')",
                    ln,
                    at,
                )
            f = chr(data[k + 1]) if data[k + 1] < 0x80 else "\ufffd"
            if f == "?":
                out.append(Token("unknown", None, at, "~?"))
            elif f in _ESCAPES:
                raise ForeignFormatError(
                    f"a=: '~{f}' ({_ESCAPES[f]}) is an id mk5's decoder knows but no game action "
                    "has; "
                    "mk5 never writes it",
                    ln,
                    at,
                )
            else:
                raise ForeignFormatError(
                    f"a=: {brief('~' + f)} is not an escape mk5 writes ('~?' is the only one)",
                    ln,
                    at,
                )
            k += 2
            continue
        found = TOKENS.get(c)
        if found is None:
            raise ForeignFormatError(f"a=: {c!r} is not an action token of mk5's alphabet", ln, at)
        out.append(Token(found[0], found[1], at, c))
        k += 1
    return out


def parse_link(line: str, ln: int = 1, col: int = 1) -> Link:
    """One link (a whole address, or its query string) → :class:`Link`.
    :class:`ForeignFormatError` with the line and column of what is wrong."""
    if len(line) > MAX_LINK:
        raise ForeignFormatError(
            f"an mk5 link is at most {MAX_LINK:,} characters, and this one has {len(line):,}",
            ln,
            col,
        )
    q = line.find("?")
    address, query, start = ("", line, col) if q < 0 else (line[:q], line[q + 1 :], col + q + 1)
    hashmark = query.find("#")
    if hashmark >= 0:
        query = query[:hashmark]
    link = Link(ln, address)
    pos = start
    for part in query.split("&"):
        here = pos
        pos += len(part) + 1
        if not part:
            continue
        name, eq, value = part.partition("=")
        if name in link.params:
            raise ForeignFormatError(f"the parameter {brief(name)} is given twice", ln, here)
        if name == "a":
            link.tokens = _tokens(value, ln, here + len(name) + len(eq))
            link.params["a"] = ("", here)
        elif name in ("s", "i", "p", "d", "t", "v", "h", "l"):
            link.params[name] = (
                _text_value(value, ln, here + len(name) + len(eq), name),
                here + len(name) + len(eq),
            )
        else:
            # Any other parameter (a tracker's utm_…) is not mk5's, and mk5 ignores it too.
            link.dropped.append(name[:40])
    if not {"s", "i", "a"} & set(link.params):
        raise ForeignFormatError(
            "not an mk5 link: it has none of the parameters s=, i= and a=", ln, col
        )
    if set(link.params) == {"s"} and not link.dropped and query.rstrip("&").count("&") == 0:
        # What a shell leaves of a link pasted without quotes: it ends the command at the
        # first &, so the seed arrives alone; a seed alone holds no game to read.
        raise ForeignFormatError(
            "the link stops after its seed (s=), with no a= of actions: it looks cut, as a "
            "shell cuts a link pasted without quotes at its first &; quote the whole link "
            "('https://…/mk5-main/?s=…&a=…')",
            ln,
            col,
        )
    return link


def seed_value(text: str, ln: int, col: int) -> int:
    """``s=``: a base-36 number (mk5's ``parseInt(s, 36)``), at most 2^53 − 1."""
    if not text:
        raise ForeignFormatError("s= is empty; it is the shuffle seed in base 36", ln, col)
    if len(text) > 16 or not all(ch.lower() in _B36 for ch in text):
        what = (
            f"{len(text):,} characters long"
            if len(text) > 16
            else f"not a base-36 number: {brief(text)}"
        )
        raise ForeignFormatError(
            f"s= is {what}; mk5's seed is a base-36 number below 2^53", ln, col
        )
    value = int(text, 36)
    if value > MAX_SEED:
        raise ForeignFormatError(
            f"s= is {value:,}, above 2^53 − 1, which mk5's arithmetic cannot hold exactly", ln, col
        )
    return value


def base36(n: int) -> str:
    """``Number.toString(36)`` of a whole number."""
    if n == 0:
        return "0"
    out = []
    while n:
        n, r = divmod(n, 36)
        out.append(_B36[r])
    return "".join(reversed(out))


def form_encode(text: str) -> str:
    """application/x-www-form-urlencoded, as URLSearchParams writes it."""
    out = []
    for ch in text:
        if ch in _SAFE:
            out.append(ch)
        elif ch == " ":
            out.append("+")
        else:
            out.extend(f"%{b:02X}" for b in ch.encode("utf-8"))
    return "".join(out)


# -- the deals ---------------------------------------------------------------------------

#: mk5's deck before the shuffle: [a, b] with a ≤ b, a outer.
_DECK: Final = [f"[{a}|{b}]" for a in range(7) for b in range(a, 7)]


def mk5_deal(seed: int) -> list[list[str]]:
    """The four hands mk5 deals from ``seed`` (player 0 first): a Fisher–Yates shuffle
    by the Park–Miller generator, its first product rounded to a double as JavaScript does."""
    deck = list(_DECK)
    x = float(abs(seed)) or 1.0
    for i in range(27, 0, -1):
        x = math.fmod(16807.0 * x, 2147483647.0)
        j = math.floor((x / 2147483647.0) * (i + 1))
        deck[i], deck[j] = deck[j], deck[i]
    return [deck[7 * p : 7 * p + 7] for p in range(4)]


def decode_hands(text: str, ln: int, col: int) -> list[list[str]]:
    """``i=``: 24 base64url characters → the four hands, player 0 first."""
    if len(text) != 24 or not all(ch.isascii() and (ch.isalnum() or ch in "-_") for ch in text):
        raise ForeignFormatError(
            f"i= is 24 base64url characters (the 28 tiles, 5 bits each), not {brief(text)}", ln, col
        )
    data = base64.urlsafe_b64decode(text)
    bits = int.from_bytes(data, "little")
    tiles: list[str] = []
    seen: dict[str, int] = {}
    for k in range(28):
        idx = bits >> (5 * k) & 31
        if idx > 27:
            raise ForeignFormatError(
                f"i=: tile {k + 1} of the deal has the index {idx}; the indices are 0–27", ln, col
            )
        tile = _tile_of_index(idx)
        if tile in seen:
            raise ForeignFormatError(
                f"i=: {tile} is dealt twice (tiles {seen[tile] + 1} and {k + 1} of the deal); each "
                "tile is dealt "
                "once (R2)",
                ln,
                col,
            )
        seen[tile] = k
        tiles.append(tile)
    return [tiles[7 * p : 7 * p + 7] for p in range(4)]


def encode_hands(hands: list[list[str]]) -> str:
    """The four hands (player 0 first, each in its order) as ``i=``."""
    bits = 0
    for k, tile in enumerate(t for row in hands for t in row):
        bits |= _index_of(tile) << (5 * k)
    return base64.urlsafe_b64encode(bits.to_bytes(18, "little")).decode("ascii").rstrip("=")


def looks_like(head: str) -> bool:
    """Does a text start with an mk5 link (an address with a query, or a query string)?"""
    first = head.split("\n", 1)[0].strip()
    if first.lower() == "[internetshortcut]":
        return True
    q = first.find("?")
    if q >= 0 and not first[:q].lower().startswith(("http://", "https://")) and q != 0:
        return False
    query = first[q + 1 :] if q >= 0 else first
    names = {part.partition("=")[0] for part in query.split("&") if "=" in part}
    return bool(names & {"s", "i"}) and "a" in names or (q >= 0 and bool(names & {"s", "i", "a"}))
