"""The fair makeable table: what a hand can bid, from the seat that holds it.

Before the declaration a seat knows its own 7 tiles, the calls so far and the rules.
Its **worlds** are the ways to deal the other 21 tiles to the other three seats,
7 each; every one weighs the same (nothing is read into why the others called as
they did, and not even a Plunge caller's doubles are assumed), and they are drawn
uniformly from a seed of public facts alone (the run's seed, the hand, the seat), so
that re-dealing what the seat cannot see draws the same worlds.

In each world, each way the seat could play a contract (a **row**: a trump it could
name, or Nel-O and Sevens after a mark bid where the rules allow them; after its own
Plunge or Splash, the trump its partner would name) is solved exactly with every hand
open, the declarer leading (:mod:`texas42_log.engine.search`). A bid (a **column**:
30 … 41, 1 mark, 2 marks …, a Plunge or Splash) is made in a world when the bidders'
hand points with best play reach it (every trick for a mark bid; none for Nel-O). The
**chance** of a bid in a row is the share of worlds in which it is made, with its
standard error ``√(p(1 − p)/(n − 1))`` (the error of a share over ``n`` drawn worlds).

Only made-or-not is asked where that is cheaper than the exact value: one native call
a row settles every level of every world (``levels_in_worlds``), each world's levels on
one transposition table, the bounded search at the lowest level undecided first (a hand
that cannot make 30 in a trump needs no more), then the highest, then halving — and
each search's bound, which fails soft, settles every level on its side at once. About
three bounded searches a world for thirteen levels, cheaper than one exact value, and
the same counts as one batch a level gave (tests/test_auction_levels.py).

What the table cannot see: each world is solved as if, from the first lead on, every
hand were open (bridge calls it *strategy fusion*): it flatters the declarer, and
docs/analysis.md measures by how much, kind by kind: :mod:`.calibration` corrects for it.

Pure, no I/O. Seeded: the same seed, seat, tiles and world count give the same table.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from ..engine.auction import MARK_SIZE, Auction, BidKind, BidSpecial, Contract
from ..engine.declare import declaration_choices
from ..engine.hand import PlayState
from ..engine.rules import Rules
from ..engine.search import levels_in_worlds, reaches_in_worlds
from ..engine.seats import SEATS, Seat, partner
from ..engine.support import Support
from ..engine.tiles import TILES, Tile
from ..engine.trumps import Trump
from . import DEFAULT_SEED, DEFAULT_WORLDS, as_stated
from .calibration import BY_KIND, Correction, kind_of

__all__ = [
    "RULES_SUPPORT",
    "Bid",
    "Row",
    "Chance",
    "SeatTable",
    "SeatWorlds",
    "SUPPORT",
    "auction_seed",
    "seat_worlds",
    "deal_count",
    "legal_bids",
    "open_calls",
]

#: A bid is supported by the table when its best row's corrected chance is at least this:
#: where its worth, its marks × (2 × chance − 1) against 0 for a pass, turns positive.
SUPPORT: Final = 0.5

World = dict[Seat, frozenset[Tile]]


@dataclass(frozen=True, slots=True, order=True)
class Bid:
    """A column of the table: a bid as the auction names it."""

    kind: BidKind
    bid: int
    special: BidSpecial | None = None

    @property
    def size(self) -> int:
        """Its size in points (a mark is 42), for ordering."""
        return self.bid * MARK_SIZE if self.kind is BidKind.MARKS else self.bid

    @property
    def key(self) -> str:
        """``30``, ``1 mark``, ``2 marks``, ``plunge 4 marks``, ``splash 2 marks``."""
        if self.kind is BidKind.POINTS:
            return str(self.bid)
        unit = "mark" if self.bid == 1 else "marks"
        text = f"{self.bid} {unit}"
        return text if self.special is None else f"{self.special} {text}"

    def contract(self, seat: Seat) -> Contract:
        return Contract(seat, self.kind, self.bid, self.special)

    @classmethod
    def of(cls, contract: Contract) -> Bid:
        """The bid a contract was won with (a Nel-O or Sevens declared is its mark bid)."""
        special = contract.special
        return cls(
            contract.kind, contract.bid, special if special in ("plunge", "splash") else None
        )

    @classmethod
    def parse(cls, key: str) -> Bid:
        """The bid a key names (:attr:`key`); a :class:`ValueError` for anything else."""
        words = key.split(" ")
        special: BidSpecial | None = None
        if words and words[0] in ("plunge", "splash"):
            special = words[0]  # type: ignore[assignment]
            words = words[1:]
        if len(words) == 1 and words[0].isdigit() and special is None and len(words[0]) <= 2:
            return cls(BidKind.POINTS, int(words[0]))
        if len(words) == 2 and words[0].isdigit() and len(words[0]) <= 2:
            n = int(words[0])
            if words[1] == ("mark" if n == 1 else "marks"):
                return cls(BidKind.MARKS, n, special)
        raise ValueError(f"{key[:40]!r} names no bid (say 30, 1 mark, 2 marks, plunge 4 marks)")


NelloSide = Literal["high", "low", "own-suit"]


@dataclass(frozen=True, slots=True, order=True)
class Row:
    """A row of the table: a way to play the contract — a trump (named by the partner
    after a Plunge or Splash), or Nel-O (with where the doubles stand) or Sevens."""

    order: int
    trump: Trump | None = field(compare=False)
    special: Literal["nello", "sevens"] | None = field(default=None, compare=False)
    doubles: NelloSide | None = field(default=None, compare=False)

    @property
    def key(self) -> str:
        """``5``, ``doubles``, ``no-trump``, ``nello``, ``nello low``, ``sevens``."""
        if self.special is None:
            assert self.trump is not None
            return self.trump.value
        return self.special if self.doubles is None else f"{self.special} {self.doubles}"


_TRUMP_ORDER: Final = {t: i for i, t in enumerate(Trump)}


def row_of(trump: Trump | None, special: str | None, doubles: str | None) -> Row:
    """The row of a declaration (a trump, or Nel-O or Sevens)."""
    if special == "nello":
        side = {None: 0, "high": 1, "low": 2, "own-suit": 3}[doubles]
        return Row(20 + side, None, "nello", doubles)  # type: ignore[arg-type]
    if special == "sevens":
        return Row(30, None, "sevens")
    assert trump is not None
    return Row(_TRUMP_ORDER[trump], trump)


def parse_row(key: str) -> Row:
    """The row a key names (:attr:`Row.key`); a :class:`ValueError` for anything else."""
    for t in Trump:
        if key == t.value:
            return row_of(t, None, None)
    if key == "sevens":
        return row_of(None, "sevens", None)
    if key == "nello":
        return row_of(None, "nello", None)
    for side in ("high", "low", "own-suit"):
        if key == f"nello {side}":
            return row_of(None, "nello", side)
    raise ValueError(f"{key[:40]!r} names no trump or contract")


@dataclass(frozen=True, slots=True)
class Chance:
    """The share of worlds in which a bid is made in a row, and its standard error."""

    share: float
    se: float


def share_se(share: float, n: int, enumerated: bool = False) -> float:
    """The standard error of a share over ``n`` drawn worlds (0 when every world counted)."""
    if enumerated or n < 2:
        return 0.0
    return math.sqrt(max(0.0, share * (1.0 - share)) / (n - 1))


def deal_count(unseen: int = 21) -> int:
    """How many ways the tiles a seat cannot see go to the other three seats, 7 each."""
    each = unseen // 3
    return math.factorial(unseen) // math.factorial(each) ** 3


def auction_seed(seed: int, hand: int, seat: Seat) -> str:
    """The seed of one seat's auction worlds: public facts only (the run's seed, the hand
    from 0, the seat), so that a re-deal of what it cannot see draws the same worlds."""
    return f"texas42-auction:{seed}:{hand}:{seat}"


def draw_deals(seat: Seat, tiles: frozenset[Tile], n: int, rng: random.Random) -> list[World]:
    """``n`` deals of the tiles ``seat`` cannot see to the other seats, 7 each, uniformly
    (with replacement): a uniform shuffle of the unseen tiles, in tile order, cut in three."""
    unseen = [t for t in TILES if t not in tiles]
    others = [s for s in SEATS if s != seat]
    each = len(unseen) // len(others)
    out: list[World] = []
    for _ in range(n):
        rng.shuffle(unseen)
        world: World = {seat: tiles}
        for k, s in enumerate(others):
            world[s] = frozenset(unseen[each * k : each * (k + 1)])
        out.append(world)
    return out


# -- what the worlds say, per way of playing ----------------------------------------


def _levels(
    template: PlayState, worlds: Sequence[World], thresholds: Sequence[int]
) -> tuple[list[int], int]:
    """Per world, how many of the ascending ``thresholds`` its value reaches: one call
    settles every level of every world by bounded searches alone (engine/search.py)."""
    return levels_in_worlds(template, worlds, thresholds)


@dataclass(slots=True)
class SeatWorlds:
    """One seat's auction worlds and, per way of playing, what each world gives: solved
    once a hand and seat, read by every question of the auction and the declaration."""

    rules: Rules
    seat: Seat
    hand: int
    tiles: frozenset[Tile]
    worlds: list[World]
    #: The point levels asked, then every trick (42).
    thresholds: tuple[int, ...]
    seed: int = DEFAULT_SEED
    #: (plain trump, declarer) → per world the levels reached (an index into thresholds).
    _reached: dict[tuple[Trump, Seat], list[int]] = field(default_factory=dict)
    #: (special, doubles) → per world made or not (Nel-O, Sevens).
    _special: dict[tuple[str, str | None], list[bool]] = field(default_factory=dict)
    #: (trump, declarer) → world index → levels reached (any declarer, worlds as asked).
    _levels_at: dict[tuple[Trump, Seat], dict[int, int]] = field(default_factory=dict)
    #: (special, doubles, declarer) → world index → made or not (Nel-O, Sevens).
    _special_at: dict[tuple[str, str | None, Seat], dict[int, bool]] = field(default_factory=dict)
    nodes: int = 0

    @property
    def count(self) -> int:
        return deal_count(TOTAL_TILES - len(self.tiles))

    def _template(self, contract: Contract, trump: Trump, doubles: str | None = None) -> PlayState:
        return PlayState(
            self.rules,
            contract,
            trump,
            {s: set(t) for s, t in self.worlds[0].items()},
            nello_doubles=doubles,  # type: ignore[arg-type]
        )

    def reached(self, trump: Trump, declarer: Seat) -> list[int]:
        """Per world, how many of :attr:`thresholds` the bidders reach with ``trump``,
        ``declarer`` declaring and leading."""
        key = (trump, declarer)
        got = self._reached.get(key)
        if got is None:
            bidder = self.seat
            special: BidSpecial | None = "plunge" if declarer != bidder else None
            contract = Contract(
                bidder,
                BidKind.MARKS if special else BidKind.POINTS,
                self.rules.plunge_marks if special else self.rules.min_point_bid,
                special,
            )
            template = self._template(contract, trump)
            if special is not None:
                # after a Plunge or Splash only every trick counts: one bounded search
                every, nodes = reaches_in_worlds(template, self.worlds, self.rules.count.total)
                got = [len(self.thresholds) if r else 0 for r in every]
            else:
                got, nodes = _levels(template, self.worlds, self.thresholds)
            self.nodes += nodes
            self._reached[key] = got
        return got

    def levels_at(self, trump: Trump, declarer: Seat, indices: Sequence[int]) -> dict[int, int]:
        """For the worlds ``indices``, how many of :attr:`thresholds` the side of
        ``declarer`` reaches with ``trump``, ``declarer`` declaring and leading: any seat's
        contract, solved only in the worlds asked (the auction's continuation asks)."""
        if declarer == self.seat and (trump, declarer) in self._reached:
            whole = self._reached[(trump, declarer)]
            return {i: whole[i] for i in indices}
        cache = self._levels_at.setdefault((trump, declarer), {})
        todo = sorted({i for i in indices if i not in cache})
        if todo:
            contract = Contract(declarer, BidKind.POINTS, self.rules.min_point_bid)
            template = self._template(contract, trump)
            got, nodes = _levels(template, [self.worlds[i] for i in todo], self.thresholds)
            self.nodes += nodes
            cache.update(zip(todo, got, strict=True))
        return cache

    def special_at(self, contract: Contract, row: Row, indices: Sequence[int]) -> dict[int, bool]:
        """For the worlds ``indices``, whether ``contract`` (any seat's) is made played as
        the Nel-O or Sevens ``row``."""
        assert row.special is not None
        key = (row.special, row.doubles, contract.declarer)
        cache = self._special_at.setdefault(key, {})
        todo = sorted({i for i in indices if i not in cache})
        if todo:
            declared = contract.declare(row.special)
            template = self._template(declared, Trump.NO_TRUMP, row.doubles)
            ws = [self.worlds[i] for i in todo]
            if row.special == "nello":
                reached, nodes = reaches_in_worlds(template, ws, 1)
                got = [not r for r in reached]
            else:
                got, nodes = reaches_in_worlds(template, ws, self.rules.count.total)
            self.nodes += nodes
            cache.update(zip(todo, got, strict=True))
        return cache

    def special(self, special: str, doubles: str | None, bid: Bid) -> list[bool]:
        """Per world whether Nel-O (with ``doubles``) or Sevens is made, the seat declaring."""
        key = (special, doubles)
        got = self._special.get(key)
        if got is None:
            contract = bid.contract(self.seat).declare(special)  # type: ignore[arg-type]
            template = self._template(contract, Trump.NO_TRUMP, doubles)
            if special == "nello":
                reached, nodes = reaches_in_worlds(template, self.worlds, 1)
                got = [not r for r in reached]
            else:
                got, nodes = reaches_in_worlds(template, self.worlds, self.rules.count.total)
            self.nodes += nodes
            self._special[key] = got
        return got

    def made(self, bid: Bid, row: Row, declarer: Seat | None = None) -> list[bool]:
        """Per world whether ``bid`` is made played as ``row``: by default the seat's own bid
        (its partner declaring after a Plunge or Splash); ``declarer``: who declares."""
        if row.special is not None:
            return self.special(row.special, row.doubles, bid)
        assert row.trump is not None
        if declarer is None:
            declarer = partner(self.seat) if bid.special is not None else self.seat
        reached = self.reached(row.trump, declarer)
        if bid.kind is BidKind.MARKS:
            need = len(self.thresholds)  # every trick
        else:
            need = sum(1 for t in self.thresholds if t <= bid.bid)
        return [k >= need for k in reached]

    def rows(self, bid: Bid) -> list[Row]:
        """The ways ``bid`` could be played, by the rules: the declarations legal after it."""
        contract = bid.contract(self.seat)
        out = {
            row_of(c.trump, c.special, c.doubles) for c in declaration_choices(self.rules, contract)
        }
        return sorted(out)

    def declaration_table(self, contract: Contract, correction: Correction = BY_KIND) -> SeatTable:
        """The table of the contract won, the seat declaring: one column, a row for each
        declaration the rules allow after it."""
        bid = Bid.of(contract)
        rows = {
            row_of(c.trump, c.special, c.doubles) for c in declaration_choices(self.rules, contract)
        }
        cells = {bid: {row: self.made(bid, row, self.seat) for row in sorted(rows)}}
        return SeatTable(
            self.seat, self.hand, len(self.worlds), self.count, self.seed, cells, self, correction
        )

    def table(self, bids: Sequence[Bid], correction: Correction = BY_KIND) -> SeatTable:
        """The table of ``bids`` (the columns) over every row the rules allow each."""
        n = len(self.worlds)
        cells: dict[Bid, dict[Row, list[bool]]] = {}
        for bid in bids:
            cells[bid] = {row: self.made(bid, row) for row in self.rows(bid)}
        return SeatTable(self.seat, self.hand, n, self.count, self.seed, cells, self, correction)


TOTAL_TILES: Final = len(TILES)


#: What the auction's table honours (:mod:`texas42_log.engine.support`): every option;
#: its bids are the auction's legal calls and its rows the declaration's choices.
RULES_SUPPORT: Final = Support("the auction's table")


def seat_worlds(
    rules: Rules,
    seat: Seat,
    hand: int,
    tiles: frozenset[Tile],
    *,
    worlds: int = DEFAULT_WORLDS,
    seed: int = DEFAULT_SEED,
) -> SeatWorlds:
    """A seat's auction worlds (see the module text), nothing solved yet."""
    RULES_SUPPORT.check(rules)
    if worlds < 2:
        raise ValueError("the makeable table needs at least 2 worlds (a share's error needs two)")
    if len(tiles) != 7:
        raise ValueError(
            f"the makeable table is of a seat's 7 tiles before the play, not of {len(tiles)}"
        )
    rng = random.Random(auction_seed(seed, hand, seat))
    drawn = draw_deals(seat, tiles, worlds, rng)
    thresholds = (*range(rules.min_point_bid, rules.max_point_bid + 1), rules.count.total)
    return SeatWorlds(
        rules,
        seat,
        hand,
        tiles,
        drawn,
        tuple(thresholds),
        seed,
    )


def legal_bids(
    rules: Rules,
    dealer: Seat,
    calls: Sequence[tuple[Seat, BidKind, int | None, BidSpecial | None]],
    tiles: frozenset[Tile],
) -> list[Bid]:
    """The bids (no pass) open to the seat to call after ``calls``, its own ``tiles``
    deciding whether a Plunge or Splash is open to it."""
    return open_calls(rules, dealer, calls, tiles)[0]


def open_calls(
    rules: Rules,
    dealer: Seat,
    calls: Sequence[tuple[Seat, BidKind, int | None, BidSpecial | None]],
    tiles: frozenset[Tile],
) -> tuple[list[Bid], bool]:
    """The bids open to the seat to call after ``calls`` (as :func:`legal_bids`), and
    whether it may pass (not the dealer bound to bid after three passes)."""
    seat_now = _to_call(dealer, len(calls))
    doubles = {s: (0, 7) for s in SEATS}
    doubles[seat_now] = (sum(1 for t in tiles if t.is_double), 0)
    auction = Auction(rules, dealer, doubles)
    for seat, kind, bid, special in calls:
        auction.apply(seat, kind, bid, special)
    legal = auction.legal_calls()
    bids = [Bid(k, b, s) for k, b, s in legal if k is not BidKind.PASS and b]
    return bids, any(k is BidKind.PASS for k, _, _ in legal)


def _to_call(dealer: Seat, made: int) -> Seat:
    i = SEATS.index(dealer)
    return SEATS[(i + 1 + made) % 4]


@dataclass(frozen=True, slots=True)
class SeatTable:
    """The fair makeable table of one seat at one moment: per bid, per row, the chance."""

    seat: Seat
    hand: int
    #: The worlds drawn and how many deals there are.
    worlds: int
    count: int
    seed: int
    #: bid → row → per world made or not.
    made: dict[Bid, dict[Row, list[bool]]]
    source: SeatWorlds | None = field(default=None, compare=False, repr=False)
    #: How a share becomes the chance stated and judged by (:mod:`.calibration`).
    correction: Correction = field(default=BY_KIND, compare=False)

    @property
    def bids(self) -> list[Bid]:
        return sorted(self.made, key=lambda b: (b.size, b.special or ""))

    def open_chance(self, bid: Bid, row: Row) -> Chance:
        """The share of worlds in which ``bid`` is made played as ``row``, every hand open."""
        got = self.made[bid][row]
        share = sum(got) / len(got)
        return Chance(share, share_se(share, len(got)))

    def chance(self, bid: Bid, row: Row) -> Chance:
        """The chance the format states (since 1.12 the chance as played, :mod:`.calibration`;
        before, the open-hand share), its error carried through the correction."""
        c = self.open_chance(bid, row)
        kind = kind_of(bid, row)
        stated = self.correction.stated(c.share, kind)
        return Chance(stated, c.se * self.correction.stated_slope(c.share, kind))

    def played(self, bid: Bid, row: Row) -> float:
        """The chance ``bid`` played as ``row`` is judged by, from the chance as stated."""
        return self.correction.of_stated(as_stated(self.chance(bid, row).share), kind_of(bid, row))

    def best_row(self, bid: Bid) -> Row | None:
        """The row with the best chance as played for ``bid`` (ties: the first in row order)."""
        rows = self.made.get(bid)
        if not rows:
            return None
        return max(sorted(rows), key=lambda r: self.played(bid, r))

    def best(self, bid: Bid) -> Chance | None:
        row = self.best_row(bid)
        return None if row is None else self.chance(bid, row)

    def supported(self, threshold: float = SUPPORT) -> tuple[Bid, Row] | None:
        """The highest bid whose best corrected chance is at least ``threshold``, with
        its row; None when no bid is (the table says pass)."""
        found: tuple[Bid, Row] | None = None
        for bid in self.bids:
            row = self.best_row(bid)
            if row is not None and self.played(bid, row) >= threshold:
                found = (bid, row)
        return found

    def paired_se(self, bid: Bid, row: Row, best: Row) -> float:
        """The standard error of the chance ``row`` gives up against ``best``, world by world
        (each world's part linearised at the open-hand shares, through the correction)."""
        a, b = self.made[bid][row], self.made[bid][best]
        sa = self.correction.stated_slope(self.open_chance(bid, row).share, kind_of(bid, row))
        sb = self.correction.stated_slope(self.open_chance(bid, best).share, kind_of(bid, best))
        diffs = [sb * float(y) - sa * float(x) for x, y in zip(a, b, strict=True)]
        n = len(diffs)
        if n < 2:
            return 0.0
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return math.sqrt(var / n)

    def as_dict(self) -> dict[str, Any]:
        """The format's table (since 1.8): bid → row → chance (since 1.12 as played, and
        ``open_table`` the open-hand shares); an open-hand share's standard error is
        ``√(p(1 − p)/(worlds − 1))`` and so not stated."""
        out: dict[str, Any] = {
            "worlds": self.worlds,
            "of": self.count,
            "table": {
                b.key: {r.key: as_stated(self.chance(b, r).share) for r in sorted(self.made[b])}
                for b in self.bids
            },
        }
        if self.correction.method == "kind":
            out["open_table"] = {
                b.key: {
                    r.key: as_stated(self.open_chance(b, r).share) for r in sorted(self.made[b])
                }
                for b in self.bids
            }
        return out
