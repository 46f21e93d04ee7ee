"""What a position's value means for the contract: the words every search shares.

The **value** of a position is the hand points (R6) the bidders' team holds at the end
of all 7 tricks when both sides play their best from there (the open-hand search,
:mod:`.search`, is the one door to it). Whether the contract can still be made follows
from the value (:func:`makeable`): a point bid ``b`` needs ``value >= b`` (R22); an
all-tricks contract — a plain mark bid, Plunge, Splash, Sevens — needs the hand's
every point (42 by the seed count, :mod:`.count`), which only all 7 tricks give (R6);
Nel-O needs 0 points, which only losing every trick gives. A play is a :data:`Move` (a
tile and a declared lead), written by :func:`move_key` as an analysis stores it.

The searches (the native one, the reference :mod:`.solver`) and everything that reads
their values (analysis, views, bots) take these words from here. Pure, no I/O.
"""

from __future__ import annotations

from .auction import Contract
from .seats import Seat, team_of
from .tiles import Tile

__all__ = ["Move", "NotSolvable", "goal", "makeable", "maximiser", "move_key", "move_of"]

#: A play: the tile, and the suit its leader declared (option declared_lead) or None.
Move = tuple[Tile, "int | None"]


class NotSolvable(ValueError):
    """The position cannot be analysed: a tile is not known, or there is no play to value."""


def makeable(contract: Contract, value: int, *, total: int) -> bool:
    """Whether best play from a position of this ``value`` makes ``contract`` (see the module
    text), in a hand worth ``total`` points (the count's, :attr:`.count.Count.total`)."""
    if contract.special == "nello":
        return value == 0
    if contract.all_tricks:
        return value == total
    return value >= contract.bid


def goal(contract: Contract, *, total: int) -> tuple[int, bool]:
    """The contract as one threshold: ``(t, made)`` — the contract is made exactly when
    ``value >= t`` is ``made`` (Nel-O: made when the value does not reach 1), in a hand
    worth ``total`` points."""
    if contract.special == "nello":
        return 1, False
    if contract.all_tricks:
        return total, True
    return contract.bid, True


def maximiser(contract: Contract, seat: Seat) -> bool:
    """Does ``seat`` play for the bidders' points to be high? The bidders do; in Nel-O
    the defenders do (the bidder must lose every trick)."""
    return (team_of(seat) == team_of(contract.bidder)) != (contract.special == "nello")


def move_of(tile: Tile, led: int | None) -> Move:
    """A play as the solver names it: a leader who declares the higher number declares
    what the tile leads anyway (R14), so that is the plain play."""
    return (tile, None if led == tile.high else led)


def move_key(move: Move) -> str:
    """A play as an analysis writes it: ``[2|5]``, or ``[2|5] led 2`` for a declared lead."""
    tile, led = move
    return str(tile) if led is None else f"{tile} led {led}"
