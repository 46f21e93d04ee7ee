"""Duplicate play: two bots, each deal played twice with the pairs swapped.

Deal *i* of a run is dealt once (from the run's seed, its dealer turning with
*i*) and played at two tables: at table 1 bot X holds the A and C hands and bot Y
the B and D hands; at table 2 the same tiles with the bots swapped. The luck of
the deal falls to both bots alike, so what is left is how they bid and played.
Each table plays the deal's hand (one hand: the auction, the declaration, the
play, R7–R23), and is a log of its own (an unfinished match of one hand).

The result (:class:`ArenaReport`):

* **marks per hand** for each bot, with a 95 % Student-t interval over the deals
  (the mean of its two tables), and the difference X − Y, paired deal by deal;
* **contracts**: how many each bot's side bid and won, made and was set in;
* **McNemar's exact test** on the deals one bot won at both tables (its side took
  the hand's marks with both sets of tiles — made its contract or set the
  other's): were the bots equal, such deals would fall to either with chance ½.

Pure: no I/O; :mod:`texas42_log.corpus.arena` runs it on every core and writes the logs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from ..engine.seats import SEATS, Seat, Team, team_of
from ..play.game import Game
from .base import Bot, play_out, seed_of
from .stats import Interval, mcnemar_exact, mean_interval

__all__ = [
    "TableResult",
    "DealResult",
    "ArenaReport",
    "play_deal",
    "report",
    "deal_seed",
    "dealer_of",
    "bot_match",
    "MAX_MATCH_HANDS",
]

#: A match of bots stops here, unfinished, if no side has reached its goal (bots
#: that all pass forever would otherwise never end one).
MAX_MATCH_HANDS = 1000

Side = Literal["X", "Y"]


@dataclass(frozen=True, slots=True)
class TableResult:
    """One table of one deal: who held A+C, the hand's result and marks, and its log."""

    table: int
    #: The bot (X or Y) holding the A and C hands.
    ac: Side
    result: str  # "made", "set" or "no-contract"
    marks: dict[Team, int]
    #: The side (X or Y) that won the auction, or None when all passed.
    bidder: Side | None
    log: dict[str, Any] = field(repr=False, compare=False)

    def side_marks(self, side: Side) -> int:
        return self.marks["A+C" if side == self.ac else "B+D"]

    def took(self, side: Side) -> bool:
        """Whether ``side`` took the hand's marks (made its contract, or set the other's)."""
        return self.side_marks(side) > 0


@dataclass(frozen=True, slots=True)
class DealResult:
    index: int
    tables: tuple[TableResult, TableResult]

    def marks(self, side: Side) -> float:
        """``side``'s marks per hand on this deal (the mean of its two tables)."""
        return sum(t.side_marks(side) for t in self.tables) / 2

    def winner(self) -> Side | None:
        """The bot that took the marks at more of the two tables, if one did."""
        x = sum(t.took("X") for t in self.tables)
        y = sum(t.took("Y") for t in self.tables)
        return "X" if x > y else "Y" if y > x else None


def deal_seed(seed: int, index: int) -> int:
    """The game seed of deal ``index`` (from 0) of a run seeded ``seed``."""
    return seed_of("texas42-arena", seed, index)


def dealer_of(index: int) -> Seat:
    """The dealer of deal ``index``: turning clockwise from A, deal by deal."""
    return SEATS[index % 4]


def play_deal(
    index: int,
    factories: tuple[Callable[[int], Bot], Callable[[int], Bot]],
    names: tuple[str, str],
    *,
    seed: int = 0,
    rules: str = "standard",
) -> DealResult:
    """Deal ``index`` played at both tables (see the module text)."""
    tables = []
    plan: tuple[tuple[int, Side], ...] = ((1, "X"), (2, "Y"))
    for table, ac in plan:
        sides: dict[Seat, Side] = {s: (ac if team_of(s) == "A+C" else _other(ac)) for s in SEATS}
        bots = {
            s: factories[0 if sides[s] == "X" else 1](seed_of(seed, index, table, s)) for s in SEATS
        }
        players = {s: names[0 if sides[s] == "X" else 1] for s in SEATS}
        game = Game(
            rules,
            players=players,
            first_dealer=dealer_of(index),
            seed=deal_seed(seed, index),
            extensions={
                "x-arena": {
                    "deal": index + 1,
                    "table": table,
                    "seed": seed,
                    "A+C": players["A"],
                    "B+D": players["B"],
                }
            },
        )
        play_out(game, bots, hands=1)
        log = game.to_dict(hands=1)
        hand = log["hands"][0]
        outcome = hand["outcome"]
        # The declarer is the bidder or, after a Plunge or Splash, its partner: the same side.
        bidder: Side | None = sides[hand["declaration"]["seat"]] if "declaration" in hand else None
        tables.append(
            TableResult(table, ac, outcome["result"], dict(outcome["marks"]), bidder, log)
        )
    return DealResult(index, (tables[0], tables[1]))


def bot_match(
    factory: Callable[[int], Bot], name: str, seed: int, *, rules: str = "standard"
) -> dict[str, Any]:
    """A whole match played by four bots made by ``factory`` (each seeded from
    ``seed`` and its seat), the tool dealing from ``seed``: the log, to the match's
    goal (R24), or unfinished after :data:`MAX_MATCH_HANDS` hands."""
    game = Game(rules, players={s: name for s in SEATS}, first_dealer=SEATS[seed % 4], seed=seed)
    play_out(game, {s: factory(seed_of(seed, s)) for s in SEATS}, hands=MAX_MATCH_HANDS)
    return game.to_dict(hands=MAX_MATCH_HANDS)


def _other(side: Side) -> Side:
    return "Y" if side == "X" else "X"


@dataclass(frozen=True, slots=True)
class Contracts:
    """One bot's contracts: won in the auction, made, set."""

    bid: int
    made: int
    set: int

    def as_dict(self) -> dict[str, int]:
        return {"bid": self.bid, "made": self.made, "set": self.set}


@dataclass(frozen=True, slots=True)
class ArenaReport:
    """The verdict of a run (see the module text)."""

    names: tuple[str, str]
    deals: int
    seed: int
    rules: str
    marks: tuple[Interval, Interval]
    difference: Interval
    contracts: tuple[Contracts, Contracts]
    #: Deals won at both tables by X, and by Y (McNemar's discordant pairs).
    swept: tuple[int, int]
    p_value: float

    def as_dict(self) -> dict[str, Any]:
        x, y = self.names
        return {
            "bots": {"X": x, "Y": y},
            "deals": self.deals,
            "hands": 2 * self.deals,
            "seed": self.seed,
            "rules": self.rules,
            "marks_per_hand": {
                "X": self.marks[0].as_dict(),
                "Y": self.marks[1].as_dict(),
                "X-Y": self.difference.as_dict(),
            },
            "contracts": {"X": self.contracts[0].as_dict(), "Y": self.contracts[1].as_dict()},
            "mcnemar": {
                "X_won_both": self.swept[0],
                "Y_won_both": self.swept[1],
                "p_value": self.p_value,
            },
        }

    def text(self) -> list[str]:
        """The report as lines for a terminal."""
        x, y = self.names
        width = max(len(x), len(y), len("difference")) + 2
        rows = [
            f"{self.deals:,} duplicate deals ({2 * self.deals:,} hands), rules {self.rules}, seed "
            f"{self.seed}",
            "",
            f"{'':{width}}marks/hand   95 % interval       contracts   made    set",
        ]
        for name, m, c in zip(self.names, self.marks, self.contracts, strict=True):
            rows.append(
                f"{name:{width}}{m.mean:10.3f}   [{m.low:6.3f}, {m.high:6.3f}]   {c.bid:9,} "
                f"{c.made:6,} {c.set:6,}"
            )
        d = self.difference
        rows.append(
            f"{'difference':{width}}{d.mean:+10.3f}   [{d.low:+6.3f}, {d.high:+6.3f}]   ({x} − "
            f"{y}, paired by deal)"
        )
        rows.append("")
        rows.append(
            f"deals won at both tables: {x} {self.swept[0]:,}, {y} {self.swept[1]:,}; "
            f"McNemar exact p = {_p(self.p_value)}"
        )
        return rows


def _p(p: float) -> str:
    return f"{p:.3g}" if p >= 0.001 else f"{p:.1e}"


def report(
    results: Iterable[DealResult], names: tuple[str, str], *, seed: int = 0, rules: str = "standard"
) -> ArenaReport:
    """The verdict on the deals played (at least one)."""
    deals = sorted(results, key=lambda d: d.index)
    if not deals:
        raise ValueError("no deal was played")
    marks = tuple(mean_interval([d.marks(side) for d in deals]) for side in ("X", "Y"))
    difference = mean_interval([d.marks("X") - d.marks("Y") for d in deals])
    contracts = []
    for side in ("X", "Y"):
        tables = [t for d in deals for t in d.tables if t.bidder == side]
        made = sum(1 for t in tables if t.result == "made")
        contracts.append(Contracts(len(tables), made, len(tables) - made))
    winners = [d.winner() for d in deals]
    swept = (winners.count("X"), winners.count("Y"))
    return ArenaReport(
        names,
        len(deals),
        seed,
        rules,
        (marks[0], marks[1]),
        difference,
        (contracts[0], contracts[1]),
        swept,
        mcnemar_exact(*swept),
    )
