"""Trumps, suits, following and rank (R12–R19), table-driven.

For each of the nine trump choices (R12) the facts every play needs — is the
tile a trump, which suit it leads, which suits it follows, its rank — are
computed once at import time into :data:`FACTS`. The replay only looks them up.

A *suit* is an int: 0–6 for a numbered suit, :data:`TRUMP_SUIT` (7) for trumps.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final

from .tiles import TILES, Tile

__all__ = [
    "Trump",
    "TRUMP_SUIT",
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


class Trump(enum.StrEnum):
    """The declarer's trump choice (R12)."""

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


def _facts(t: Tile, trump: Trump) -> TileFacts:
    n = trump.number
    if trump is Trump.DOUBLES:
        is_t = t.is_double
    elif n is not None:
        is_t = t.shows(n)
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
    # R14: a non-trump lead leads its higher number (a double, its own number).
    # R15: it follows either number it shows. R18: the double is highest in its suit
    # (this is also "doubles high" in no-trump, R12).
    rank_in = {s: (7 if t.is_double else t.other_half(s)) for s in {t.low, t.high}}
    return TileFacts(False, t.high, frozenset({t.low, t.high}), rank_in)


#: FACTS[trump][tile] — precomputed for 9 trump choices × 28 tiles.
FACTS: Final[dict[Trump, dict[Tile, TileFacts]]] = {
    trump: {t: _facts(t, trump) for t in TILES} for trump in Trump
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


def trick_winner_index(tiles: list[Tile] | tuple[Tile, ...], trump: Trump) -> int:
    """R17: position in ``tiles`` (play order, leader first) of the winning tile.

    The highest trump played; if none, the highest tile of the led suit.
    """
    table = FACTS[trump]
    suit = table[tiles[0]].leads
    best, best_key = 0, (-1, -1)
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


_SUIT_NAMES: Final = ("blanks", "ones", "twos", "threes", "fours", "fives", "sixes", "trumps")


def suit_name(suit: int) -> str:
    """English name of a suit id, as the seeds speak of it ("fives", "trumps")."""
    return _SUIT_NAMES[suit]
