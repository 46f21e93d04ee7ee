"""Trumps, suits, following and rank (R12–R19), table-driven.

For each of the nine trump choices (R12) the facts every play needs — is the
tile a trump, which suit it leads, which suits it follows, its rank — are
computed once at import time into :data:`FACTS`. The replay only looks them up.

A *suit* is an int: 0–6 for a numbered suit, :data:`TRUMP_SUIT` (7) for trumps,
:data:`DOUBLES_SUIT` (8) for doubles that form a suit of their own.

Rule variants change the tables, never the code that reads them: a *suit
system* is a trump choice plus where the non-trump doubles stand — ``high``
in their number's suit (R18, the seed rules), ``low`` in it, or ``own-suit``
(a suit of their own, [6|6] high). :data:`TABLES` holds all 9 × 3 of them;
:data:`FACTS` is the seed rules' nine. Sevens (seed 004) has its own winner
rule, :func:`sevens_winner_index`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final, Literal

from .tiles import TILES, Tile

__all__ = [
    "Trump",
    "SUIT_WORDS",
    "TrumpWord",
    "trump_words",
    "TRUMP_SUIT",
    "DOUBLES_SUIT",
    "DoublesMode",
    "TABLES",
    "table_for",
    "WIN_KEYS",
    "sevens_winner_index",
    "TileFacts",
    "FACTS",
    "is_trump",
    "led_suit",
    "follows",
    "rank",
    "trick_winner_index",
    "suit_name",
]

#: The suit id of trumps, beside the numbered suits 0–6.
TRUMP_SUIT: Final = 7
#: The suit id of the doubles when they form a suit of their own.
DOUBLES_SUIT: Final = 8

DoublesMode = Literal["high", "low", "own-suit"]


#: A trump choice as the log writes it (R12): the values of :class:`Trump`, in order.
TrumpWord = Literal["0", "1", "2", "3", "4", "5", "6", "doubles", "no-trump"]


class Trump(enum.StrEnum):
    """The declarer's trump choice (R12); its values are :data:`TrumpWord`'s."""

    ZEROS = "0"
    ONES = "1"
    TWOS = "2"
    THREES = "3"
    FOURS = "4"
    FIVES = "5"
    SIXES = "6"
    DOUBLES = "doubles"
    NO_TRUMP = "no-trump"

    @property
    def number(self) -> int | None:
        """The trump number for a numbered suit, else None."""
        return int(self.value) if self.value.isdigit() else None


@dataclass(frozen=True, slots=True)
class TileFacts:
    """What one tile is under one trump choice."""

    trump: bool
    #: The suit this tile leads (R14): TRUMP_SUIT, or its higher number.
    leads: int
    #: The suits this tile follows (R15): {TRUMP_SUIT} for a trump, else its numbers.
    follows: frozenset[int]
    #: Rank inside each suit it belongs to (R18, R19): higher wins.
    rank_in: dict[int, int]


def _facts(t: Tile, trump: Trump, doubles: DoublesMode = "high") -> TileFacts:
    n = trump.number
    if trump is Trump.DOUBLES:
        is_t = t.is_double
    elif n is not None:
        # With doubles a suit of their own, [n|n] is a double, not a trump (docs/conversions.md
        # tricksy).
        is_t = t.shows(n) and not (doubles == "own-suit" and t.is_double)
    else:
        is_t = False
    if is_t:
        if trump is Trump.DOUBLES:
            trump_rank = t.high  # R19: by pip value, [6|6] high … [0|0] low
        else:
            assert n is not None
            # R18: the double is highest, the others rank by their other half.
            trump_rank = 7 if t.is_double else t.other_half(n)
        return TileFacts(True, TRUMP_SUIT, frozenset({TRUMP_SUIT}), {TRUMP_SUIT: trump_rank})
    if t.is_double and doubles == "own-suit":
        return TileFacts(False, DOUBLES_SUIT, frozenset({DOUBLES_SUIT}), {DOUBLES_SUIT: t.high})
    # R14: a non-trump lead leads its higher number (a double, its own number).
    # R15: it follows either number it shows. R18: the double is highest in its suit
    # (this is also "doubles high" in no-trump, R12); a "low" double is lowest.
    double_rank = 7 if doubles == "high" else -1
    rank_in = {s: (double_rank if t.is_double else t.other_half(s)) for s in {t.low, t.high}}
    return TileFacts(False, t.high, frozenset({t.low, t.high}), rank_in)


#: TABLES[(trump, doubles)][tile] — precomputed for 9 trump choices × 3 places of
#: the doubles × 28 tiles.
TABLES: Final[dict[tuple[Trump, DoublesMode], dict[Tile, TileFacts]]] = {
    (trump, mode): {t: _facts(t, trump, mode) for t in TILES}
    for trump in Trump
    for mode in ("high", "low", "own-suit")
}

#: FACTS[trump][tile] — the seed rules' tables (doubles high in their suit).
FACTS: Final[dict[Trump, dict[Tile, TileFacts]]] = {
    trump: TABLES[(trump, "high")] for trump in Trump
}


def table_for(trump: Trump, doubles: DoublesMode = "high") -> dict[Tile, TileFacts]:
    """The facts of every tile under one suit system."""
    return TABLES[(trump, doubles)]


def _win_keys(table: dict[Tile, TileFacts], suit: int) -> dict[Tile, int]:
    """R17: a number per tile that orders a trick led in ``suit``: trumps above the
    led suit, each by rank; tiles of neither are absent (they cannot win)."""
    keys: dict[Tile, int] = {}
    for t, f in table.items():
        if f.trump:
            keys[t] = 100 + f.rank_in[TRUMP_SUIT]
        elif suit in f.follows:
            keys[t] = 10 + f.rank_in[suit]
    return keys


#: WIN_KEYS[(trump, doubles)][led suit][tile] — the trick-winner order, precomputed.
WIN_KEYS: Final[dict[tuple[Trump, DoublesMode], dict[int, dict[Tile, int]]]] = {
    key: {suit: _win_keys(table, suit) for suit in range(9)} for key, table in TABLES.items()
}


def is_trump(t: Tile, trump: Trump) -> bool:
    """R13: a trump tile belongs to the trump suit only."""
    return FACTS[trump][t].trump


def led_suit(t: Tile, trump: Trump) -> int:
    """R14: the suit a lead of ``t`` leads."""
    return FACTS[trump][t].leads


def follows(t: Tile, suit: int, trump: Trump) -> bool:
    """R15: does ``t`` follow ``suit``? Only trumps follow trumps; a trump follows no number."""
    return suit in FACTS[trump][t].follows


def rank(t: Tile, suit: int, trump: Trump) -> int:
    """Rank of ``t`` in ``suit`` (R18, R19); -1 if it does not belong to that suit."""
    return FACTS[trump][t].rank_in.get(suit, -1)


def trick_winner_index(
    tiles: list[Tile] | tuple[Tile, ...],
    trump: Trump,
    table: dict[Tile, TileFacts] | None = None,
    suit: int | None = None,
) -> int:
    """R17: position in ``tiles`` (play order, leader first) of the winning tile.

    The highest trump played; if none, the highest tile of the led suit.
    ``table`` is the suit system (default: the seed rules' for ``trump``);
    ``suit`` the led suit when the leader declared it (default: what the lead leads).
    """
    table = table if table is not None else FACTS[trump]
    if suit is None:
        suit = table[tiles[0]].leads
    best, best_key = 0, (-1, -2)
    for i, t in enumerate(tiles):
        f = table[t]
        if f.trump:
            key = (1, f.rank_in[TRUMP_SUIT])
        elif suit in f.follows:
            key = (0, f.rank_in[suit])
        else:
            continue
        if key > best_key:
            best, best_key = i, key
    return best


def sevens_winner_index(tiles: list[Tile] | tuple[Tile, ...]) -> int:
    """Sevens (seed 004): the tile whose pip total is closest to 7; ties to the earliest."""
    return min(range(len(tiles)), key=lambda i: (abs(tiles[i].pips - 7), i))


#: The words players use for the seven suits, by number: the one table every English
#: report, view and message takes them from (the parser reads them back, with the older
#: spellings ``ones``, ``twos``, ``threes``: :data:`~texas42_log.engine.actions.TRUMP_WORDS`).
SUIT_WORDS: Final = ("blanks", "aces", "deuces", "treys", "fours", "fives", "sixes")

_SUIT_NAMES: Final = (*SUIT_WORDS, "trumps", "doubles")


def suit_name(suit: int) -> str:
    """English name of a suit id, as players speak of it ("fives", "treys", "trumps")."""
    return _SUIT_NAMES[suit]


def trump_words(trump: str) -> str:
    """A trump as the format names it (``"6"``, ``"doubles"``, ``"no-trump"``) in players'
    words: ``sixes``, ``doubles``, ``no-trump``."""
    if len(trump) == 1 and trump.isdigit() and int(trump) < len(SUIT_WORDS):
        return SUIT_WORDS[int(trump)]
    return trump
