"""Tiles of the double-six set (R2) and their fixed facts.

A :class:`Tile` is a small immutable value with one canonical string form,
``[low|high]`` — the form the seeds write (``[0|5]``). :meth:`Tile.parse`
also accepts the spellings people type (``5-0``, ``0-5``, ``50``, ``0|5``);
the JSON log accepts only the canonical form.

Every tile is interned: there are exactly 28 instances (:data:`TILES`), and
``Tile(0, 5)``, ``Tile.parse("5-0")`` and unpickling all return them. So equality
and hashing are by identity, done in C — the replay hashes tiles millions of
times (sets of held tiles, table lookups) and a Python ``__hash__`` was its
largest single cost.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final

__all__ = ["Tile", "TILES", "TILE_BY_NAME", "count_value", "tile"]


@dataclass(frozen=True, eq=False, slots=True)
class Tile:
    """One domino; ``low <= high``, halves 0–6 (R2). Ordered by ``(low, high)``."""

    low: int
    high: int

    def __new__(cls, low: int, high: int) -> Tile:
        canonical = _CANONICAL.get((low, high))
        return canonical if canonical is not None else object.__new__(cls)

    def __post_init__(self) -> None:
        if not (0 <= self.low <= self.high <= 6):
            raise ValueError(f"no tile [{self.low}|{self.high}] in the double-six set (R2)")

    def __reduce__(self) -> tuple[Any, tuple[int, int]]:
        return (tile, (self.low, self.high))

    def __lt__(self, other: Tile) -> bool:
        return (self.low, self.high) < (other.low, other.high)

    def __le__(self, other: Tile) -> bool:
        return (self.low, self.high) <= (other.low, other.high)

    def __gt__(self, other: Tile) -> bool:
        return (self.low, self.high) > (other.low, other.high)

    def __ge__(self, other: Tile) -> bool:
        return (self.low, self.high) >= (other.low, other.high)

    @property
    def is_double(self) -> bool:
        return self.low == self.high

    @property
    def pips(self) -> int:
        return self.low + self.high

    @property
    def index(self) -> int:
        """Position 0–27 in the canonical order ``[0|0] [0|1] … [6|6]``."""
        return _INDEX[(self.low, self.high)]

    def shows(self, number: int) -> bool:
        """True if either half shows ``number``."""
        return self.low == number or self.high == number

    def other_half(self, number: int) -> int:
        """The half that is not ``number`` (for a double, ``number`` itself)."""
        return self.high if self.low == number else self.low

    def __str__(self) -> str:
        return f"[{self.low}|{self.high}]"

    def __repr__(self) -> str:
        return f"Tile.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Parse a tile as people write it: ``[0|5]``, ``0|5``, ``5-0``, ``0-5``, ``50``.

        Raises ``ValueError`` naming R2 for anything else.
        """
        text = text.strip()
        match = _LENIENT.fullmatch(text)
        if match is None or text.startswith("[") != text.endswith("]"):
            raise ValueError(
                f"{text!r} is not a tile; write it as [0|5] (also accepted: 0-5, 5-0, 50) (R2)"
            )
        a, b = int(match["a"]), int(match["b"])
        if a > 6 or b > 6:
            raise ValueError(f"{text!r} is not a tile of the double-six set: halves are 0–6 (R2)")
        return TILES[_INDEX[(min(a, b), max(a, b))]]


_LENIENT: Final = re.compile(r"\[?\s*(?P<a>\d)\s*[|\-:/ ]?\s*(?P<b>\d)\s*\]?")

_INDEX: Final[dict[tuple[int, int], int]] = {}
#: (low, high) → the one instance; filled once, below.
_CANONICAL: dict[tuple[int, int], Tile] = {}
_tiles: list[Tile] = []
for _low in range(7):
    for _high in range(_low, 7):
        _INDEX[(_low, _high)] = len(_tiles)
        _tiles.append(Tile(_low, _high))
        _CANONICAL[(_low, _high)] = _tiles[-1]

#: The 28 tiles in canonical order.
TILES: Final[tuple[Tile, ...]] = tuple(_tiles)
#: Canonical string → tile; the only spelling the JSON log accepts.
TILE_BY_NAME: Final[dict[str, Tile]] = {str(t): t for t in TILES}

POINT_COUNT: Final[dict[Tile, int]] = {
    TILES[_INDEX[(0, 5)]]: 5,
    TILES[_INDEX[(1, 4)]]: 5,
    TILES[_INDEX[(2, 3)]]: 5,
    TILES[_INDEX[(4, 6)]]: 10,
    TILES[_INDEX[(5, 5)]]: 10,
}


def tile(low: int, high: int) -> Tile:
    """The interned tile with these halves, in either order."""
    return TILES[_INDEX[(min(low, high), max(low, high))]]


def count_value(t: Tile) -> int:
    """Count points of a tile (R6): 5 for [0|5] [1|4] [2|3], 10 for [4|6] [5|5], else 0."""
    return POINT_COUNT.get(t, 0)
