"""Fair values: each play judged by what its player could see.

The open-hand analysis (:mod:`texas42_log.analysis.open_hand`) values a play with every
hand laid open — with hindsight. The **fair value** of a play is the mean of
its exact open-hand value (:mod:`texas42_log.engine.solver`) over the deals its player
could not tell apart from the one in play (:mod:`texas42_log.analysis.worlds`): drawn
uniformly at random, or all of them when they are few. For each legal play of
the moment it gives

* ``mean`` — the mean value (the bidders' hand points after all 7 tricks);
* ``share`` — the share of the worlds in which the seat's side reaches its
  goal: the contract made for the bidders, set for the defenders;
* ``se`` and ``share_se`` — their standard errors (0 when every world was
  counted).

A play's **fair cost** is the best mean minus its own (for a seat that plays
for low values, the other way round), in hand points; its **chance lost** is
the best share minus its own. The marks (:data:`DUBIOUS`, :data:`BLUNDER`):

* ``??`` — the play gave up at least 20 % of the side's chance;
* ``?`` — it gave up at least 5 % of the chance, or 2 hand points of the mean;

and, when the worlds were drawn rather than counted, only when the loss is more
than twice its standard error (measured play against play on the same worlds),
so that no play is marked for the luck of the draw.

What the method cannot see: it solves each world with every hand open, as if
from the next play on everyone knew everything (bridge calls it *strategy
fusion*), and it weighs every consistent deal the same, reading nothing into
why the others bid or played as they did.

Pure, no I/O. Seeded: the same knowledge, seed and world count give the same numbers.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Final, Literal

from ..engine.auction import Contract
from ..engine.search import play_values_in_worlds
from ..engine.seats import Seat, team_of
from ..engine.solver import Move, makeable, maximiser, move_key
from . import (
    DEFAULT_SEED,
    DEFAULT_WORLDS,
)  # (defined with the layer, where the CLI reads them cheaply)
from .worlds import Knowledge, Worlds, draw_worlds

__all__ = [
    "FairValue",
    "Decision",
    "decide",
    "DEFAULT_WORLDS",
    "DEFAULT_SEED",
    "DUBIOUS",
    "BLUNDER",
    "Mark",
    "decision_seed",
]

#: ``?``: the least chance lost, and the least fair cost in hand points.
DUBIOUS: Final = (0.05, 2.0)
#: ``??``: the least chance lost.
BLUNDER: Final = 0.20

Mark = Literal["?", "??"]


@dataclass(frozen=True, slots=True)
class FairValue:
    """One play's values over the worlds."""

    mean: float
    se: float
    share: float
    share_se: float

    def as_dict(self) -> dict[str, float]:
        return {
            "mean": _r(self.mean),
            "se": _r(self.se),
            "share": _r(self.share),
            "share_se": _r(self.share_se),
        }


def _r(x: float) -> float:
    return round(x, 4)


@dataclass(frozen=True, slots=True)
class Decision:
    """The fair values of one moment for the seat to play."""

    seat: Seat
    contract: Contract
    #: Plays made in the hand before this one (0 at the first lead).
    play: int
    #: True when the seat plays for high values (the bidders; the defenders in Nel-O).
    high: bool
    #: True for the bidders' side (its goal is to make the contract, the other's to set it).
    bidders: bool
    values: dict[Move, FairValue]
    #: The worlds the values are over, how many worlds there are, and whether all were used.
    worlds: int
    count: int
    enumerated: bool
    #: Per world, each play's value (the paired differences come from them).
    samples: dict[Move, tuple[int, ...]]
    #: Search nodes visited over all the worlds (the benchmark's figure).
    nodes: int = 0

    @property
    def best_mean(self) -> float:
        means = [v.mean for v in self.values.values()]
        return max(means) if self.high else min(means)

    @property
    def best_share(self) -> float:
        return max(v.share for v in self.values.values())

    @property
    def best_moves(self) -> list[Move]:
        b = self.best_mean
        return [m for m, v in self.values.items() if v.mean == b]

    def cost(self, move: Move) -> float:
        """Hand points ``move`` gives away against the best mean (≥ 0)."""
        m = self.values[move].mean
        return _r(self.best_mean - m if self.high else m - self.best_mean)

    def chance_lost(self, move: Move) -> float:
        return _r(self.best_share - self.values[move].share)

    def mark(self, move: Move) -> Mark | None:
        """``?``, ``??`` or None (see the module text)."""
        lost, cost = self.chance_lost(move), self.cost(move)
        best_share = max(self.values, key=lambda m: self.values[m].share)
        best_mean = self.best_moves[0]
        if lost >= BLUNDER and self._real(move, best_share, lost, share=True):
            return "??"
        if lost >= DUBIOUS[0] and self._real(move, best_share, lost, share=True):
            return "?"
        if cost >= DUBIOUS[1] and self._real(move, best_mean, cost, share=False):
            return "?"
        return None

    def _real(self, move: Move, best: Move, loss: float, *, share: bool) -> bool:
        """Whether ``loss`` against ``best`` is more than twice the standard error of
        the difference, measured world by world (always, when every world was counted)."""
        if self.enumerated or move == best:
            return True
        n = self.worlds
        if share:
            diffs = [
                float(self._ok(b)) - float(self._ok(a))
                for a, b in zip(self.samples[move], self.samples[best], strict=True)
            ]
        else:
            diffs = [
                float(b - a) if self.high else float(a - b)
                for a, b in zip(self.samples[move], self.samples[best], strict=True)
            ]
        return loss > 2 * _se(diffs, n)

    def _ok(self, value: int) -> bool:
        """Whether the seat's side reaches its goal in a world of this value."""
        return makeable(self.contract, value) == self.bidders

    def as_dict(self) -> dict[str, Any]:
        return {
            "worlds": self.worlds,
            "of": self.count,
            "enumerated": self.enumerated,
            "values": {move_key(m): v.as_dict() for m, v in self.values.items()},
        }


def _se(xs: list[float], n: int) -> float:
    if n < 2:
        return 0.0
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    return math.sqrt(var / n)


def decision_seed(seed: int, hand: int, play: int) -> str:
    """The seed of one decision's draw: the run's seed, the hand (from 0) and the
    plays before it — public facts only, so a re-deal of what the seat cannot see
    draws the same worlds."""
    return f"texas42-fair:{seed}:{hand}:{play}"


def decide(
    knowledge: Knowledge, *, worlds: int = DEFAULT_WORLDS, seed: int = DEFAULT_SEED, hand: int = 0
) -> Decision:
    """The fair values of every legal play of the seat whose knowledge this is, at
    its moment (the seat must be the one to play)."""
    if worlds < 1:
        raise ValueError("at least one world is needed")
    state = knowledge.state()
    seat = knowledge.seat
    if state.to_play != seat:
        who = "the hand is over" if state.to_play is None else f"it is {state.to_play}'s turn"
        raise ValueError(f"{seat} has no play to make: {who}")
    space = Worlds(knowledge)
    rng = random.Random(decision_seed(seed, hand, len(knowledge.plays)))
    if not space.count:
        raise ValueError("no deal agrees with what the seat has seen")
    drawn, enumerated = draw_worlds(space, worlds, rng)
    contract = knowledge.contract
    high = maximiser(contract, seat)
    bidders = team_of(seat) == team_of(contract.bidder)
    # One call values every legal play in every drawn world (engine/search.py).
    solved = play_values_in_worlds(state, drawn)
    samples: dict[Move, list[int]] = {m: [] for m in solved.moves}
    for row in solved.answers:
        for move, v in zip(solved.moves, row, strict=True):  # type: ignore[call-overload]
            samples[move].append(v)
    nodes = solved.nodes
    n = len(drawn)
    values: dict[Move, FairValue] = {}
    for move in sorted(samples, key=lambda m: (m[0].index, -1 if m[1] is None else m[1])):
        xs = samples[move]
        goal = [1.0 if makeable(contract, v) == bidders else 0.0 for v in xs]
        fx = [float(v) for v in xs]
        mean = sum(fx) / n
        share = sum(goal) / n
        values[move] = FairValue(
            mean, 0.0 if enumerated else _se(fx, n), share, 0.0 if enumerated else _se(goal, n)
        )
    return Decision(
        seat,
        contract,
        len(knowledge.plays),
        high,
        bidders,
        values,
        n,
        space.count,
        enumerated,
        {m: tuple(v) for m, v in samples.items()},
        nodes,
    )
