"""The count phase (R6): what a hand's points are made of, as data.

A trick is worth the points for winning it (by its number, 1 to 7) and the count of
its tiles; the hand's total is what every trick and every tile add up to. The seed
rules' count (:data:`STANDARD_COUNT`): one point a trick, 5 for [0|5] [1|4] [2|3], 10
for [4|6] [5|5], 42 in all. :attr:`Rules.count <texas42_log.engine.rules.Rules.count>`
is the count a log is played under; the engine scores tricks by it, and both open-hand
solvers (the reference and the native search) value positions by it, so a rule option
that changes the count changes them all at once. No solver writes a trick's point or
the hand's total of its own.

Pure, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .tiles import TILES, Tile, count_value

__all__ = ["Count", "STANDARD_COUNT", "VALUE_LIMIT", "TRICKS"]

#: Tricks in a hand (R5: seven tiles each).
TRICKS: Final = 7

#: The largest hand total a count may reach: the native search packs a position's
#: bounds into 6 bits each (``_native.c``), so every value lies in 0..63.
VALUE_LIMIT: Final = 63


@dataclass(frozen=True, slots=True)
class Count:
    """What each tile and each trick is worth (R6).

    ``tiles``: each tile's count, in :data:`~texas42_log.engine.tiles.TILES` order;
    ``tricks``: the points for winning trick 1, 2, … 7."""

    tiles: tuple[int, ...]
    tricks: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.tiles) != len(TILES) or len(self.tricks) != TRICKS:
            raise ValueError(
                f"a count gives {len(TILES)} tiles and {TRICKS} tricks their points, "
                f"not {len(self.tiles)} and {len(self.tricks)} (R6)"
            )
        if any(p < 0 for p in (*self.tiles, *self.tricks)):
            raise ValueError("a tile or trick cannot be worth fewer than 0 points (R6)")
        if self.total > VALUE_LIMIT:
            raise ValueError(
                f"a hand worth {self.total} points is past the {VALUE_LIMIT} the solvers "
                "can value (R6)"
            )

    @property
    def total(self) -> int:
        """The hand's points: every trick and every tile (42 by the seed rules)."""
        return sum(self.tiles) + sum(self.tricks)

    def of_tile(self, t: Tile) -> int:
        """The count of tile ``t``."""
        return self.tiles[t.index]

    def of_trick(self, number: int) -> int:
        """The points for winning trick ``number`` (1–7), its tiles aside."""
        return self.tricks[number - 1]

    def from_trick(self, number: int) -> int:
        """The points for winning tricks ``number`` … 7, tiles aside (0 past the 7th)."""
        return sum(self.tricks[number - 1 :]) if number <= TRICKS else 0

    def by_value(self) -> tuple[tuple[int, int], ...]:
        """The counting tiles grouped by their count: (points, bitmask of tile indexes),
        one pair per count above 0, in ascending order (what the solvers sum by)."""
        groups: dict[int, int] = {}
        for i, p in enumerate(self.tiles):
            if p:
                groups[p] = groups.get(p, 0) | 1 << i
        return tuple(sorted(groups.items()))


#: The seed rules' count (R6): 35 count points and a point a trick, 42 in all.
STANDARD_COUNT: Final = Count(tuple(count_value(t) for t in TILES), (1,) * TRICKS)
