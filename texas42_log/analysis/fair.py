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

**One objective, from the match's scoring.** In a game of marks (R23, R24) a
hand is won by making or setting the contract, and hand points past that count
for nothing; so the **best play** is the one with the best chance of the side's
goal, and among plays whose chance is as good — equal when every world was
counted, within the standard error of the difference when the worlds were drawn —
the one with the best mean. Where the score counts hand points (``match_goal``
``points``) the mean is the objective, and the best play is the one with the best
mean. Everything is measured against that one best play:

* ``cost`` — the hand points of the mean the play gave away against it (≥ 0);
* ``chance lost`` — the share of the goal it gave away against it (≥ 0);
* the marks (:data:`MARKS`): in a game of marks from the chance lost alone —
  ``??`` at least :data:`BLUNDER`, ``?`` at least :data:`DUBIOUS`; in a points game
  from the cost — ``??`` at least :data:`BLUNDER_POINTS`, ``?`` at least
  :data:`DUBIOUS_POINTS`; and, when the worlds were drawn, only when the loss is
  more than twice its standard error (measured play against play on the same
  worlds), so that no play is marked for the luck of the draw.

The best play is never marked. A play that gives up only hand points the contract
does not need, in a game of marks, is not wrong: it gets a note
(:meth:`Decision.note`), not a mark.

What the method cannot see: it solves each world with every hand open, as if
from the next play on everyone knew everything (bridge calls it *strategy
fusion*), and it weighs every consistent deal the same, reading nothing into
why the others bid or played as they did.

Pure, no I/O. Seeded: the same knowledge, seed and world count give the same numbers.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from ..engine.actions import Play
from ..engine.auction import Contract
from ..engine.rules import Rules
from ..engine.search import play_values_in_worlds
from ..engine.seats import Seat, team_of
from ..engine.support import Support
from ..engine.values import Move, makeable, maximiser, move_key
from . import (  # (defined with the layer, where the CLI reads them cheaply)
    DEFAULT_SEED,
    DEFAULT_WORLDS,
    MARKS,
    as_stated,
)
from .worlds import Knowledge, Worlds, draw_worlds

__all__ = [
    "RULES_SUPPORT",
    "FairValue",
    "Decision",
    "decide",
    "DEFAULT_WORLDS",
    "DEFAULT_SEED",
    "DUBIOUS",
    "BLUNDER",
    "DUBIOUS_POINTS",
    "BLUNDER_POINTS",
    "MARKS",
    "Mark",
    "Objective",
    "objective_of",
    "decision_seed",
]

#: ``?``: the least chance lost, in a game of marks.
DUBIOUS: Final = 0.05
#: ``??``: the least chance lost, in a game of marks.
BLUNDER: Final = 0.20
#: ``?`` and ``??`` in a points game: the least cost, in hand points.
DUBIOUS_POINTS: Final = 2.0
BLUNDER_POINTS: Final = 10.0
#: A cost (hand points) worth a note in a game of marks, when the chance is kept.
NOTE_POINTS: Final = 2.0

Mark = Literal["?", "??"]
#: What the decision was judged by: the chance of the goal (a game of marks) or the
#: mean hand points (a points game).
Objective = Literal["chance", "points"]


def objective_of(rules: Rules) -> Objective:
    """The objective a hand is played for under ``rules``: the chance of the contract in a
    game of marks, the mean hand points where the match counts points."""
    return "points" if rules.match_goal == "points" else "chance"


@dataclass(frozen=True, slots=True)
class FairValue:
    """One play's values over the worlds."""

    mean: float
    se: float
    share: float
    share_se: float

    def as_dict(self) -> dict[str, float]:
        return {
            "mean": as_stated(self.mean),
            "se": as_stated(self.se),
            "share": as_stated(self.share),
            "share_se": as_stated(self.share_se),
        }


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
    #: The hand's every point (the count's total, R6): what an all-tricks contract needs.
    hand_total: int
    #: Search nodes visited over all the worlds (the benchmark's figure).
    nodes: int = 0

    #: What the best play is chosen by (see the module text).
    objective: Objective = "chance"
    #: The one best play, chosen once when the decision is made (:meth:`_choose`).
    best: Move = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "best", self._choose())

    def _mean_key(self, move: Move) -> float:
        m = self.values[move].mean
        return m if self.high else -m

    def _choose(self) -> Move:
        """The one best play (see the module text); the first in order on a full tie."""
        moves = list(self.values)
        if self.objective == "points":
            return max(moves, key=lambda m: (self._mean_key(m), self.values[m].share))
        top = max(moves, key=lambda m: self.values[m].share)
        share = self.values[top].share
        level = [
            m
            for m in moves
            if self.values[m].share == share
            or (not self.enumerated and share - self.values[m].share <= self.loss_se(m, top, True))
        ]
        return max(level, key=lambda m: (self._mean_key(m), self.values[m].share))

    @property
    def suggestion(self) -> Play:
        """The best play as an action :meth:`texas42_log.play.game.Game.push` accepts (as
        :attr:`~texas42_log.analysis.auction_fair.AuctionHint.suggestion` is in the auction)."""
        tile, led = self.best
        return Play(tile, led)

    @property
    def best_moves(self) -> list[Move]:
        """The best play and every play with exactly its values (the best play first)."""
        b = self.best
        v = self.values[b]
        return [b] + [
            m for m, w in self.values.items() if m != b and w.mean == v.mean and w.share == v.share
        ]

    def cost(self, move: Move) -> float:
        """Hand points of the mean ``move`` gives away against the best play (≥ 0), from the
        values as the format states them (rounded), so that the log's numbers agree."""
        b = as_stated(self.values[self.best].mean)
        m = as_stated(self.values[move].mean)
        return as_stated(max(0.0, b - m if self.high else m - b))

    def chance_lost(self, move: Move) -> float:
        """The share of the goal ``move`` gives away against the best play (≥ 0), from the
        values as stated (rounded)."""
        return as_stated(
            max(0.0, as_stated(self.values[self.best].share) - as_stated(self.values[move].share))
        )

    def mark(self, move: Move) -> Mark | None:
        """``?``, ``??`` or None (see the module text); never for the best play."""
        best = self.best
        if move == best:
            return None
        if self.objective == "points":
            loss, share, least = self.cost(move), False, (BLUNDER_POINTS, DUBIOUS_POINTS)
        else:
            loss, share, least = self.chance_lost(move), True, (BLUNDER, DUBIOUS)
        if loss < least[1] or not (self.enumerated or loss > 2 * self.loss_se(move, best, share)):
            return None
        return "??" if loss >= least[0] else "?"

    def note(self, move: Move) -> str | None:
        """In a game of marks, what an unmarked play that kept the chance but gave up hand
        points did — not wrong, said in words rather than a mark; else None."""
        if self.objective != "chance" or self.mark(move) is not None:
            return None
        cost = self.cost(move)
        if cost < NOTE_POINTS or self.chance_lost(move) > 0:
            return None
        return (
            f"gave up {cost:.1f} hand points of the mean but none of the chance: points the "
            "contract does not need count for nothing in a game of marks"
        )

    def loss_se(self, move: Move, best: Move, share: bool) -> float:
        """The standard error of the loss of ``move`` against ``best``, measured world by
        world (0 when every world was counted)."""
        if self.enumerated or move == best:
            return 0.0
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
        return _se(diffs, self.worlds)

    def _ok(self, value: int) -> bool:
        """Whether the seat's side reaches its goal in a world of this value."""
        return makeable(self.contract, value, total=self.hand_total) == self.bidders

    def reaches(self, value: int) -> bool:
        """Whether the seat's side reaches its goal at ``value`` (the bidders' hand points)."""
        return self._ok(value)

    def as_dict(self) -> dict[str, Any]:
        return {
            "worlds": self.worlds,
            "of": self.count,
            "enumerated": self.enumerated,
            "values": {move_key(m): v.as_dict() for m, v in self.values.items()},
            "best": move_key(self.best),
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


#: What the fair analysis honours (:mod:`texas42_log.engine.support`): every option;
#: its worlds are dealt and played out by the engine and valued by the open-hand search.
RULES_SUPPORT: Final = Support("the fair analysis")


def decide(
    knowledge: Knowledge, *, worlds: int = DEFAULT_WORLDS, seed: int = DEFAULT_SEED, hand: int = 0
) -> Decision:
    """The fair values of every legal play of the seat whose knowledge this is, at
    its moment (the seat must be the one to play)."""
    if worlds < 1:
        raise ValueError("at least one world is needed")
    RULES_SUPPORT.check(knowledge.rules)
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
        goal = [
            1.0 if makeable(contract, v, total=state.count.total) == bidders else 0.0 for v in xs
        ]
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
        state.count.total,
        nodes,
        objective_of(knowledge.rules),
    )
