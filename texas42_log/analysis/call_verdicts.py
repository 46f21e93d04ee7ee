"""Calls judged as players bid (format 1.10): the call that pays best from the caller's
fair makeable table, and how much the call made gave up against it.

In a game of marks a bid is worth its expected marks: the marks at stake × (2 × its
chance as played − 1) (made, the bidders take the stake; set, the defenders do), with the
trump that gives the bid its best chance; a pass is worth 0. The assumption, stated on
every line: *the auction ends with this call unless outbid* — the table cannot know how
the others would answer. The call that pays best is the one of highest expected marks;
where several tie (to the stated decimals), the lowest, which wins the auction at that
moment all the same. How high the hand could go if pushed is the table's ceiling, the
highest bid whose chance as played is at least 50 % (``supported``, since 1.8).

A call is marked by the expected marks it gave up: ``?`` from :data:`CALL_DUBIOUS`,
``??`` from :data:`CALL_BLUNDER` (a 1-mark contract swings 2 marks, so these are the
plays' 5 % and 20 % of chance), and, as the worlds are drawn, only when the loss is more
than twice its standard error (measured world by world, :func:`loss_se`). In a points
game (``match_goal`` points) each team scores the hand points it takes whatever the
contract, so a call's worth is not a function of the table's chances: calls there are
not judged (the table and its ceiling are still stated).

Pure, no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..engine.seats import Seat
from . import as_stated
from .bidding import Bid, Row, SeatTable
from .calibration import kind_of
from .fair import Mark

__all__ = [
    "CALL_DUBIOUS",
    "CALL_BLUNDER",
    "ASSUMPTION",
    "Worth",
    "stake",
    "worth",
    "pays_best",
    "call_mark",
    "loss_se",
]

#: Expected marks given up from which a call is dubious (``?``) and a blunder (``??``).
CALL_DUBIOUS: Final = 0.1
CALL_BLUNDER: Final = 0.4
#: What every judged call assumes, in the words the reports print.
ASSUMPTION: Final = "as if the auction ended with it unless outbid"


def stake(bid: Bid, seat: Seat) -> int:
    """R23: the marks a bid puts at stake (a point bid 1, a mark bid its marks)."""
    return bid.contract(seat).marks


@dataclass(frozen=True, slots=True)
class Worth:
    """One call as its caller's table values it: the bid (None: a pass), the row that gives
    it its best chance (None: a pass), that chance as stated, and its expected marks."""

    bid: Bid | None
    row: Row | None
    chance: float | None
    expected: float

    @property
    def key(self) -> str:
        """``pass``, or the bid as the table columns it (``30``, ``2 marks``)."""
        return "pass" if self.bid is None else self.bid.key


def worth(table: SeatTable, bid: Bid | None) -> Worth:
    """The expected marks of ``bid`` (None: a pass) by ``table`` (see the module text);
    computed from the chance as the log states it, so a check recomputes it exactly."""
    if bid is None:
        return Worth(None, None, None, 0.0)
    row = table.best_row(bid)
    if row is None:
        return Worth(bid, None, None, 0.0)
    share = as_stated(table.chance(bid, row).share)
    judged = table.correction.of_stated(share, kind_of(bid, row))
    return Worth(bid, row, share, as_stated(stake(bid, table.seat) * (2 * judged - 1)))


def pays_best(table: SeatTable, pass_open: bool = True) -> Worth:
    """The call that pays best by ``table`` (see the module text): the highest expected
    marks, ties to the lowest call (a pass before every bid)."""
    options = ([worth(table, None)] if pass_open else []) + [worth(table, b) for b in table.bids]
    best = options[0]
    for w in options[1:]:
        if w.expected > best.expected:
            best = w
    return best


def call_mark(lost: float, se: float) -> Mark | None:
    """``?``, ``??`` or None for a call that gave up ``lost`` expected marks, ``se`` its
    standard error (see the module text)."""
    if lost < CALL_DUBIOUS or not lost > 2 * se:
        return None
    return "??" if lost >= CALL_BLUNDER else "?"


def _slope(table: SeatTable, w: Worth) -> float:
    """d expected / d open-hand share at the chance of ``w`` (0 for a pass, or past the
    clip)."""
    if w.bid is None or w.row is None or w.chance is None:
        return 0.0
    # before 1.12 the stated chance is the open-hand share itself
    single = table.correction.method == "single"
    p = w.chance if single else table.open_chance(w.bid, w.row).share
    return stake(w.bid, table.seat) * 2 * table.correction.slope(p, kind_of(w.bid, w.row))


def _made(table: SeatTable, w: Worth) -> Sequence[bool] | None:
    if w.bid is None or w.row is None:
        return None
    return table.made[w.bid][w.row]


def loss_se(table: SeatTable, best: Worth, made: Worth) -> float:
    """The standard error of ``best.expected − made.expected``, world by world: each world's
    contribution linearised at the stated chances (the delta method), paired, since both
    are made or not in the same worlds."""
    a, b = _made(table, best), _made(table, made)
    sa, sb = _slope(table, best), _slope(table, made)
    n = table.worlds if a is None and b is None else len(a if a is not None else b or ())
    if n < 2:
        return 0.0
    diffs = [
        (sa * float(a[i]) if a is not None else 0.0) - (sb * float(b[i]) if b is not None else 0.0)
        for i in range(n)
    ]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return as_stated(math.sqrt(var / n))
