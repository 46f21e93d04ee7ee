"""Actions of live play: small immutable values with one canonical string form.

As :class:`~texas42_log.engine.tiles.Tile` does for tiles, every action has one
canonical spelling (``str``) and a lenient reader (:func:`parse_action`) that
takes what people type at a table:

=================  ==============================  ===================================
action             canonical                       also read
=================  ==============================  ===================================
:class:`Call`      ``pass``, ``31``, ``2m``,       ``p``, ``31 points``, ``2 marks``,
                   ``4m plunge``, ``2m splash``    ``plunge 4m``, ``84`` (marks
                                                   written in points, seed 003)
:class:`Declare`   ``trump 6``, ``trump doubles``, ``6``, ``sixes``, ``nt``, ``follow-me``,
                   ``trump no-trump``, ``nello``,  ``trumps 6 stacks 2``, ``nel-o low``
                   ``nello doubles low``,
                   ``sevens``, ``trump 6 stacks 2``
:class:`Play`      ``[0|5]``, ``[2|5] led 2``      ``5-0``, ``0-5``, ``50``, ``2-5 leads 2``
:class:`Deal`      ``deal`` + the tiles per seat   (a deal is entered, not typed as one word)
=================  ==============================  ===================================

The spellings the notation (docs/notation.md) writes are the canonical ones, so
an action read from a ``.t42`` file and one typed at the recorder are the same.

Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, Literal, Self

from .auction import BidKind, BidSpecial
from .rules import Rules
from .seats import SEATS, Seat
from .tiles import Tile
from .trumps import SUIT_WORDS, Trump

__all__ = [
    "Action",
    "ActionKind",
    "Call",
    "Declare",
    "Play",
    "Deal",
    "parse_action",
    "TRUMP_WORDS",
    "MAX_BID",
]

#: What kind of action a turn asks for.
ActionKind = Literal["deal", "call", "declare", "play"]

#: The largest number an action may hold: a bid past it is no bid of any rules, and a
#: number of a hundred thousand digits is refused before it is ever printed.
MAX_BID: Final = 999_999

#: The words for a trump choice (R12), lower case, to the log's trump name.
TRUMP_WORDS: Final[dict[str, str]] = {
    **{str(k): str(k) for k in range(7)},
    **{w: str(k) for k, w in enumerate(SUIT_WORDS)},
    **{w: str(k) for k, w in enumerate(("blanks", "ones", "twos", "threes"))},
    "doubles": "doubles",
    "no-trump": "no-trump",
    "notrump": "no-trump",
    "nt": "no-trump",
    "follow-me": "no-trump",
    "none": "no-trump",
}

NelloSide = Literal["high", "low", "own-suit"]


class _Spelled:
    """One canonical string (``str``), a ``repr`` that reads it back, and ``parse``."""

    __slots__ = ()
    action_kind: ClassVar[ActionKind]

    def __repr__(self) -> str:
        return f"{type(self).__name__}.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str, rules: Rules | None = None) -> Self:
        """Read ``text`` as this kind of action (:func:`parse_action` with ``expect``)."""
        action = parse_action(text, expect=cls.action_kind, rules=rules)
        if not isinstance(action, cls):
            raise ValueError(f"{text[:40]!r} is not a {cls.action_kind}")
        return action


def _bounded(value: int, what: str) -> int:
    if not 0 <= value <= MAX_BID:
        raise ValueError(f"{what} must be a whole number from 0 to {MAX_BID}")
    return value


@dataclass(frozen=True, slots=True, repr=False)
class Call(_Spelled):
    """A call of the auction (R7–R9): a pass, a bid in points, or a bid in marks
    (with ``special`` for a Plunge or a Splash). ``bid`` counts marks for a mark
    bid, whatever unit the log writes it in."""

    kind: BidKind
    bid: int | None = None
    special: BidSpecial | None = None

    def __post_init__(self) -> None:
        if self.kind is BidKind.PASS:
            if self.bid is not None or self.special is not None:
                raise ValueError("a pass has no bid")
        else:
            if self.bid is None:
                raise ValueError(f"a {self.kind.value} bid needs a number")
            _bounded(self.bid, "a bid")
            if self.special is not None and self.kind is not BidKind.MARKS:
                raise ValueError(f"a {self.special} is a bid in marks")

    action_kind: ClassVar[ActionKind] = "call"

    @classmethod
    def pass_(cls) -> Call:
        return cls(BidKind.PASS)

    @classmethod
    def points(cls, bid: int) -> Call:
        return cls(BidKind.POINTS, bid)

    @classmethod
    def marks(cls, bid: int, special: BidSpecial | None = None) -> Call:
        return cls(BidKind.MARKS, bid, special)

    def __str__(self) -> str:
        if self.kind is BidKind.PASS:
            return "pass"
        if self.kind is BidKind.POINTS:
            return str(self.bid)
        return f"{self.bid}m" + (f" {self.special}" if self.special else "")


@dataclass(frozen=True, slots=True, repr=False)
class Declare(_Spelled):
    """The declaration (R10, R12): a trump, or Nel-O (with where the doubles stand,
    when the rules let the bidder choose) or Sevens; ``stacks``: how many won
    tricks stay face up in an all-tricks contract, when the bidder chooses (R27)."""

    trump: Trump | None = None
    special: Literal["nello", "sevens"] | None = None
    doubles: NelloSide | None = None
    stacks: int | None = None

    def __post_init__(self) -> None:
        if (self.trump is None) == (self.special is None):
            raise ValueError("a declaration names a trump, or Nel-O or Sevens")
        if self.stacks is not None:
            _bounded(self.stacks, "the number of stacks")

    action_kind: ClassVar[ActionKind] = "declare"

    @classmethod
    def of(cls, trump: Trump | str | int, stacks: int | None = None) -> Declare:
        """``Declare.of(6)``, ``Declare.of("doubles", stacks=2)``."""
        return cls(trump=Trump(str(trump)), stacks=stacks)

    def __str__(self) -> str:
        words = [f"trump {self.trump.value}"] if self.trump is not None else [str(self.special)]
        if self.doubles is not None:
            words.append(f"doubles {self.doubles}")
        if self.stacks is not None:
            words.append(f"stacks {self.stacks}")
        return " ".join(words)


@dataclass(frozen=True, slots=True, repr=False)
class Play(_Spelled):
    """A tile played (R13–R21); ``led``: the suit a leader declares the tile leads,
    where the rules allow it (option ``declared_lead``)."""

    tile: Tile
    led: int | None = None

    def __post_init__(self) -> None:
        if self.led is not None and not 0 <= self.led <= 6:
            raise ValueError("a declared led suit is a number from 0 to 6")

    action_kind: ClassVar[ActionKind] = "play"

    @classmethod
    def of(cls, tile: Tile | str, led: int | None = None) -> Play:
        """``Play.of("5-0")``, ``Play.of("[2|5]", led=2)``."""
        return cls(tile if isinstance(tile, Tile) else Tile.parse(tile), led)

    def __str__(self) -> str:
        return str(self.tile) + (f" led {self.led}" if self.led is not None else "")


@dataclass(frozen=True, slots=True)
class Deal:
    """The deal of a hand (R3), as far as it is known: seven entries a seat, in the
    order dealt, ``None`` for a tile not known (a spectator's record). ``hands``
    None: nothing known."""

    hands: tuple[tuple[Tile | None, ...], ...] | None = None

    action_kind: ClassVar[ActionKind] = "deal"

    @classmethod
    def of(cls, hands: Mapping[Seat, Sequence[Tile | str | None]] | None) -> Deal:
        """From a mapping seat → tiles (``"5-0"``, ``Tile``, ``None`` or ``"?"`` for unknown)."""
        if hands is None:
            return cls(None)
        unknown_seats = set(hands) - set(SEATS)
        if unknown_seats:
            raise ValueError(
                "a deal is given for the seats A, B, C and D, not "
                f"{', '.join(sorted(map(str, unknown_seats)))}"
            )
        rows: list[tuple[Tile | None, ...]] = []
        for s in SEATS:
            row: list[Tile | None] = []
            for x in hands.get(s, [None] * 7):
                if x is None or (isinstance(x, str) and x.strip() == "?"):
                    row.append(None)
                else:
                    row.append(x if isinstance(x, Tile) else Tile.parse(x))
            rows.append(tuple(row))
        return cls(tuple(rows))

    def seat(self, s: Seat) -> tuple[Tile | None, ...]:
        return self.hands[SEATS.index(s)] if self.hands is not None else (None,) * 7

    def __str__(self) -> str:
        if self.hands is None:
            return "deal unknown"
        return "deal " + "; ".join(
            f"{s}: " + " ".join(str(t) if t is not None else "?" for t in row)
            for s, row in zip(SEATS, self.hands, strict=True)
        )


Action = Call | Declare | Play | Deal

_MARKS = re.compile(r"^([0-9]+)\s*(m|mark|marks)$")


def _words(text: str) -> list[str]:
    cleaned = text.strip().lower().replace(",", " ")
    # "trumps: doubles" — a colon after a word is punctuation (in "5:0" it parts a tile).
    return [w[:-1] if w.endswith(":") and w[:-1].isalpha() else w for w in cleaned.split()]


def _number(word: str) -> int | None:
    if word.isascii() and word.isdigit():
        if len(word) > len(str(MAX_BID)):
            raise ValueError(f"{word[:12]}… is not a bid: a bid is a number from 0 to {MAX_BID}")
        return int(word)
    return None


def _hint(text: str) -> str:
    shown = text if len(text) <= 40 else text[:37] + "…"
    shown = "".join(c if c.isprintable() else "?" for c in shown)
    return (
        f"{shown!r} is not an action: write pass, a bid (31, 2m, 4m plunge), a declaration "
        "(trump 6, trump doubles stacks 2, nello, sevens) or a tile (5-0)"
    )


def parse_action(
    text: str, *, expect: ActionKind | None = None, rules: Rules | None = None
) -> Action:
    """Read an action as people type it; :class:`ValueError` with a sentence if it is none.

    ``expect`` settles the short forms: a bare number is a bid in the auction
    (``31``), a trump at the declaration (``6``) and a tile in the play (``50``).
    ``rules`` reads ``84`` as two marks where mark bids are written in points.
    Without ``expect`` a bare number is a bid.
    """
    if not isinstance(text, str):
        raise ValueError(f"an action is text, not {type(text).__name__}")
    words = _words(text)
    if not words:
        raise ValueError("an empty entry is not an action")
    if expect == "play" or (expect is None and _looks_like_tile(words)):
        return _parse_play(text, words)
    first = words[0]
    if first in ("pass", "p", "passes"):
        if len(words) > 1:
            raise ValueError(_hint(text))
        return Call(BidKind.PASS)
    if (
        expect == "declare"
        or first in ("trump", "trumps", "nello", "nel-o", "sevens")
        or (expect is None and first in TRUMP_WORDS and _number(first) is None)
    ):
        return _parse_declare(text, words)
    return _parse_call(text, words, rules)


def _looks_like_tile(words: list[str]) -> bool:
    first = words[0]
    if not any(c in first for c in "-|[:/") and not (
        len(first) == 2 and first.isdigit() and len(words) > 1 and words[1] in ("led", "leads")
    ):
        return False
    try:
        Tile.parse(first)
    except ValueError:
        return first.startswith("[")
    return True


def _parse_play(text: str, words: list[str]) -> Play:
    # A tile may be typed with spaces inside its brackets ("[0 | 5]"): read up to "led".
    joined = " ".join(words)
    m = re.fullmatch(r"(?P<tile>.+?)(?:\s+(?:led|leads|lead)\s+(?P<led>\S+))?", joined)
    assert m is not None
    try:
        t = Tile.parse(m["tile"])
    except ValueError as e:
        raise ValueError(
            str(e) if m["tile"][:1].isdigit() or m["tile"][:1] == "[" else _hint(text)
        ) from None
    led = None
    if m["led"] is not None:
        name = TRUMP_WORDS.get(m["led"])
        if name is None or not name.isdigit():
            raise ValueError(
                f"'led' is followed by the suit the tile leads, 0–6, not {m['led'][:20]!r}"
            )
        led = int(name)
    return Play(t, led)


def _parse_declare(text: str, words: list[str]) -> Declare:
    trump: Trump | None = None
    special: Literal["nello", "sevens"] | None = None
    doubles: NelloSide | None = None
    stacks: int | None = None
    i = 0
    while i < len(words):
        w = words[i]
        nxt = words[i + 1] if i + 1 < len(words) else None
        if w in ("trump", "trumps", "trump:"):
            if nxt is None or nxt not in TRUMP_WORDS:
                raise ValueError("'trump' is followed by 0–6, doubles or no-trump")
            trump = Trump(TRUMP_WORDS[nxt])
            i += 2
        elif w in ("nello", "nel-o", "nelo", "sevens"):
            special = "sevens" if w == "sevens" else "nello"
            i += 1
        elif w == "doubles" and special == "nello":
            if nxt not in ("high", "low", "own-suit"):
                raise ValueError("'doubles' after Nel-O is followed by high, low or own-suit")
            doubles = nxt  # type: ignore[assignment]
            i += 2
        elif w in ("high", "low", "own-suit") and special == "nello":
            doubles = w  # type: ignore[assignment]
            i += 1
        elif w in ("stacks", "stack"):
            n = _number(nxt) if nxt is not None else None
            if n is None:
                raise ValueError("'stacks' is followed by a number, 1 or 2")
            stacks = n
            i += 2
        elif w in TRUMP_WORDS and trump is None and special is None:
            trump = Trump(TRUMP_WORDS[w])
            i += 1
        else:
            raise ValueError(
                f"{w[:20]!r} is not part of a declaration: write trump 6, trump doubles, "
                "trump no-trump, nello (doubles low), sevens, and stacks 1 or 2"
            )
    if trump is None and special is None:
        raise ValueError("a declaration names a trump (trump 6), or nello or sevens")
    if trump is not None and special is not None:
        raise ValueError(f"a declaration names a trump or {special}, not both")
    return Declare(trump, special, doubles, stacks)


def _parse_call(text: str, words: list[str], rules: Rules | None) -> Call:
    joined = " ".join(words)
    special: BidSpecial | None = None
    for name in ("plunge", "splash"):
        if name in words:
            special = name
            words = [w for w in words if w != name]
            joined = " ".join(words)
    m = _MARKS.fullmatch(joined)
    if m is not None:
        n = _number(m[1])
        assert n is not None
        return Call(BidKind.MARKS, n, special)
    pm = re.fullmatch(r"([0-9]+)(?:\s*(?:points?|pts?))?", joined)
    if pm is not None:
        n = _number(pm[1])
        assert n is not None
        if special is not None:
            return Call(
                BidKind.MARKS,
                n // 42
                if rules is not None and rules.mark_bid_units == "points" and n >= 42
                else n,
                special,
            )
        if (
            rules is not None
            and rules.mark_bid_units == "points"
            and n > rules.max_point_bid
            and n >= 42
            and n % 42 == 0
            and pm[0] == pm[1]
        ):
            return Call(BidKind.MARKS, n // 42)
        return Call(BidKind.POINTS, n)
    raise ValueError(_hint(text))
