"""A call worth the contract its auction ends in (format 1.11), from its caller's side.

A pass is not worth nothing: behind a standing bid it *is* that bid's contract, partner's
or the opponents', and a bid may be outbid. So a call is judged in each world its caller
could not tell apart (the deals of :mod:`.bidding`), by the auction it leads to there:

* **The rest of the auction** is called, in each world, by the ``rule`` bidder
  (:mod:`.rule_bidder`, docs/bots.md): cheap enough to call three seats in a hundred
  worlds for every call open to the caller. Whoever wins declares the trump that bidder
  would (its hand count's suit); the caller itself, winning, names the trump its own table
  gives the bid the best chance (it cannot see the world it is in).
* **The contract** is then made or not in that world, solved with every hand open, its
  declarer leading (the same bounded searches as the table). All four passing is a new
  deal, worth 0 (R11).
* **The worth** of a call is, over the contracts its auction ends in, each one's share of
  the worlds × its stake × (2 × its chance as played − 1, :mod:`.calibration`), counted
  for the caller's side when its side holds the contract and against it when the others
  do: the expected marks of the hand. The call of highest worth *pays best* (ties: the
  lowest call, a pass first).
* **The worlds are weighed by the calls already heard**: a world in which the ``rule``
  bidder would have made each earlier call of the others weighs 1; a call it would not
  make weighs ``exp(−|points apart| / 4)``, never less than :data:`SOFT` (a human who opens
  31 still has worlds; a pass counts as 28 points for this). The effective number of worlds
  (``(Σw)² / Σw²``) is stated; below :data:`FLOOR_SHARE` of the worlds drawn the calls heard
  were too rare to weigh, and every world weighs alike (the line says so).

The error of a worth given up is the weighted standard error of the per-world difference
of the two calls' marks (each world's contract made or set, uncorrected). Pure, no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..engine.auction import Auction, BidKind, BidSpecial, Contract
from ..engine.declare import declaration_choices
from ..engine.errors import IllegalAction
from ..engine.seats import SEATS, Seat, next_seat, partner
from ..engine.tiles import Tile
from ..engine.trumps import Trump
from . import as_stated
from .bidding import Bid, Row, SeatTable, SeatWorlds, row_of
from .calibration import BY_KIND, Correction, kind_of
from .call_verdicts import call_mark
from .fair import Mark
from .rule_bidder import (
    CallKey,
    call_points,
    count_trumps,
    hand_count,
    high_bid,
    rule_choice,
    want,
)

__all__ = [
    "METHOD",
    "SOFT",
    "SCALE",
    "FLOOR_SHARE",
    "ASSUMES",
    "End",
    "CallWorth",
    "ContractWorth",
    "contract_worth",
    "end_value",
]

#: The analysis header's name for this way of judging calls (format 1.11).
METHOD: Final = "contract"
#: The least weight a world has for a heard call the rule bidder would not make there.
SOFT: Final = 0.05
#: Points apart per factor e in a heard call's weight.
SCALE: Final = 4.0
#: Below this share of the worlds drawn as effective worlds, the calls heard are not weighed.
FLOOR_SHARE: Final = 0.1
#: What every call judged this way assumes, in a player's words.
ASSUMES: Final = (
    "worth the contract its auction ends in: the rest of the auction called by the rule "
    "bidder, each declarer naming its trump, the worlds weighed by the calls heard"
)

CallTuple = tuple[Seat, BidKind, int | None, BidSpecial | None]
_PASS: Final[CallKey] = (BidKind.PASS, None, None)


def end_value(share: float, judged: float, side: int, stake: int) -> float:
    """What a contract its auction ends in adds to a call's worth: its share of the worlds
    × its stake × (2 × ``judged`` − 1, its chance as played), signed by whose side holds it
    (0: a new deal)."""
    if side == 0:
        return 0.0
    return share * side * stake * (2 * judged - 1)


@dataclass(frozen=True, slots=True)
class End:
    """One contract a call's auction ends in: its bidder (None: all passed, a new deal), the
    bid, how it is played, its weighted share of the worlds and of those the share in which
    it is made, and whose it is (+1 the caller's side, −1 the others, 0 none)."""

    by: Seat | None
    bid: Bid | None
    row: Row | None
    share: float
    #: The chance it is made as stated (since 1.12 as played; before, the open-hand share).
    made: float
    side: int
    stake: int
    #: The open-hand share of the worlds in which it is made.
    open: float = 0.0
    correction: Correction = BY_KIND

    @property
    def value(self) -> float:
        if self.bid is None or self.row is None:
            return 0.0
        judged = self.correction.of_stated(self.made, kind_of(self.bid, self.row))
        return end_value(self.share, judged, self.side, self.stake)

    def as_dict(self) -> dict[str, Any]:
        """The format's object of one contract a call's auction ends in (since 1.11); all
        four passing names no bidder, bid or trump."""
        if self.by is None or self.bid is None or self.row is None:
            return {"share": self.share, "made": self.made}
        out: dict[str, Any] = {
            "by": self.by,
            "bid": self.bid.key,
            "trump": self.row.key,
            "share": self.share,
            "made": self.made,
        }
        if self.correction.method == "kind":
            out["made_open"] = self.open
        return out


@dataclass(frozen=True, slots=True)
class CallWorth:
    """One call open to the caller, valued by the contracts its auction ends in."""

    call: Bid | None
    #: For a bid: the trump the caller would name (its table's best row for the bid).
    row: Row | None
    ends: tuple[End, ...]
    expected: float
    #: Per world, the caller's side's marks (made or set, uncorrected; 0 for a new deal).
    values: tuple[float, ...]

    @property
    def key(self) -> str:
        return "pass" if self.call is None else self.call.key


@dataclass(frozen=True, slots=True)
class ContractWorth:
    """Every call open to the caller, the call made, and how the worlds were weighed."""

    seat: Seat
    made: CallWorth
    options: tuple[CallWorth, ...]
    weights: tuple[float, ...]
    effective: float
    weighed: bool
    #: How many calls of the others were heard before it (and weighed the worlds).
    heard: int

    @property
    def best(self) -> CallWorth:
        """The call of the highest worth (ties: the first, the lowest call)."""
        best = self.options[0]
        for w in self.options[1:]:
            if w.expected > best.expected:
                best = w
        return best

    @property
    def lost(self) -> float:
        return as_stated(max(0.0, self.best.expected - self.made.expected))

    @property
    def lost_se(self) -> float:
        if self.lost == 0:
            return 0.0
        a, b = self.best.values, self.made.values
        w = self.weights
        total = sum(w)
        diffs = [x - y for x, y in zip(a, b, strict=True)]
        mean = sum(wi * d for wi, d in zip(w, diffs, strict=True)) / total
        var = sum(wi * wi * (d - mean) ** 2 for wi, d in zip(w, diffs, strict=True))
        return as_stated(math.sqrt(var) / total)

    @property
    def mark(self) -> Mark | None:
        return call_mark(self.lost, self.lost_se)

    def as_dict(self) -> dict[str, Any]:
        """The format's ``contract`` object of a call's fair verdict (since 1.11)."""
        best = self.best
        out: dict[str, Any] = {
            "worth": self.made.expected,
            "best": best.key,
        }
        if best.row is not None:
            out["best_trump"] = best.row.key
        out |= {
            "best_worth": best.expected,
            "lost": self.lost,
            "lost_se": self.lost_se,
            "worlds": as_stated(self.effective),
            "weighed": self.weighed,
            "ends": [e.as_dict() for e in self.made.ends],
        }
        if self.mark is not None:
            out["mark"] = self.mark
        return out


def _may_pass(auction: Auction, seat: Seat) -> bool:
    try:
        auction.check(seat, BidKind.PASS, None)
    except IllegalAction:
        return False
    return True


def _rule_at(auction: Auction, seat: Seat, count: int) -> CallKey:
    """The rule bidder's call for ``seat`` now (its legal calls listed only when it bids)."""
    high, size = high_bid(auction.calls)
    wanted = want(count)
    quiet = wanted == 0 or wanted <= size or high == partner(seat)
    if quiet and _may_pass(auction, seat):
        return _PASS
    return rule_choice(auction.legal_calls(), high, size, seat, count)


def _size(key: CallKey, least: int) -> int:
    """A call's size in points for its weight (:func:`.rule_bidder.call_points`); a pass 28."""
    return call_points(key[0], key[1]) or least - 2


def _likelihood(heard: CallKey, rule: CallKey, least: int) -> float:
    if heard == rule:
        return 1.0
    apart = abs(_size(heard, least) - _size(rule, least))
    return max(SOFT, math.exp(-apart / SCALE))


@dataclass(slots=True)
class _World:
    index: int
    hands: dict[Seat, frozenset[Tile]]
    counts: dict[Seat, tuple[int, Trump]]
    weight: float


def _weigh(sw: SeatWorlds, dealer: Seat, before: Sequence[CallTuple]) -> tuple[list[_World], int]:
    """Each world with the rule bidder's counts and its weight by the calls heard."""
    trumps = count_trumps(sw.rules)
    least = sw.rules.min_point_bid
    out: list[_World] = []
    heard = sum(1 for c in before if c[0] != sw.seat)
    for i, world in enumerate(sw.worlds):
        counts = {x: hand_count(world[x], trumps) for x in SEATS if x != sw.seat}
        weight = 1.0
        if heard:
            auction = Auction(sw.rules, dealer)
            for seat, kind, bid, special in before:
                if seat != sw.seat:
                    rule = _rule_at(auction, seat, counts[seat][0])
                    weight *= _likelihood((kind, bid, special), rule, least)
                auction.apply(seat, kind, bid, special)
        out.append(_World(i, world, counts, weight))
    return out, heard


def _ends_in(
    sw: SeatWorlds, dealer: Seat, before: Sequence[CallTuple], call: Bid | None, w: _World
) -> Contract | None:
    """The contract the auction ends in, in world ``w``, after the caller's ``call``."""
    seat = sw.seat
    after = _order(dealer)[len(before) + 1 :]
    if call is not None and all(want(w.counts[x][0]) <= call.size for x in after):
        return call.contract(seat)  # every seat after passes: no need to call it out
    auction = Auction(sw.rules, dealer)
    for s, kind, bid, special in before:
        auction.apply(s, kind, bid, special)
    if call is None:
        auction.apply(seat, BidKind.PASS, None, None)
    else:
        auction.apply(seat, call.kind, call.bid, call.special)
    while not auction.done:
        x = auction.to_call
        assert x is not None
        kind, bid, special = _rule_at(auction, x, w.counts[x][0])
        auction.apply(x, kind, bid, special)
    return auction.contract()


def _order(dealer: Seat) -> tuple[Seat, ...]:
    """R7: the four calls in turn, from the dealer's left (as the engine's auction)."""
    return tuple(next_seat(dealer, k) for k in range(1, 5))


class _Rows:
    """How each contract is played: the caller's by its table, the others' by the rule
    bidder's declaration in the world."""

    def __init__(self, sw: SeatWorlds, table: SeatTable) -> None:
        self.sw = sw
        self.table = table
        self._choices: dict[Contract, tuple[tuple[Trump, ...], Row | None]] = {}
        self._own: dict[Bid, Row | None] = {}
        self._named: dict[tuple[int, Seat, tuple[Trump, ...]], Row] = {}

    def row(self, contract: Contract, w: _World) -> Row | None:
        if contract.bidder == self.sw.seat:
            bid = Bid.of(contract)
            if bid not in self._own:
                self._own[bid] = self.table.best_row(bid)
            return self._own[bid]
        got = self._choices.get(contract)
        if got is None:
            choices = declaration_choices(self.sw.rules, contract)
            trumps = tuple(
                c.trump for c in choices if c.trump is not None and c.stacks in (None, 1)
            )
            first = None if not choices else row_of(choices[0].trump, choices[0].special, None)
            got = (trumps, first)
            self._choices[contract] = got
        trumps, first = got
        if not trumps:
            return first
        key = (w.index, contract.declarer, trumps)
        named = self._named.get(key)
        if named is None:
            named = row_of(hand_count(w.hands[contract.declarer], trumps)[1], None, None)
            self._named[key] = named
        return named


def _need(sw: SeatWorlds, contract: Contract) -> int:
    if contract.kind is BidKind.MARKS:
        return len(sw.thresholds)
    return sum(1 for t in sw.thresholds if t <= contract.bid)


def _made(
    sw: SeatWorlds, table: SeatTable, plays: dict[int, tuple[Contract, Row]]
) -> dict[int, bool]:
    """Per world, whether its contract (as it is played) is made, solved in batches."""
    out: dict[int, bool] = {}
    groups: dict[tuple[Seat, Row], list[int]] = {}
    for i, (contract, row) in plays.items():
        if contract.bidder == sw.seat:
            out[i] = table.made[Bid.of(contract)][row][i]
        else:
            groups.setdefault((contract.declarer, row), []).append(i)
    for (declarer, row), indices in groups.items():
        if row.special is not None:
            got = sw.special_at(plays[indices[0]][0], row, indices)
            out |= {i: got[i] for i in indices}
            continue
        assert row.trump is not None
        levels = sw.levels_at(row.trump, declarer, indices)
        out |= {i: levels[i] >= _need(sw, plays[i][0]) for i in indices}
    return out


def _call_worth(
    sw: SeatWorlds,
    table: SeatTable,
    rows: _Rows,
    dealer: Seat,
    before: Sequence[CallTuple],
    call: Bid | None,
    worlds: list[_World],
) -> CallWorth:
    seat = sw.seat
    plays: dict[int, tuple[Contract, Row]] = {}
    for w in worlds:
        contract = _ends_in(sw, dealer, before, call, w)
        if contract is None:
            continue
        row = rows.row(contract, w)
        if row is not None:
            plays[w.index] = (contract, row)
    made = _made(sw, table, plays)
    total = sum(w.weight for w in worlds)
    groups: dict[tuple[Seat | None, Bid | None, Row | None], list[float]] = {}
    values: list[float] = []
    for w in worlds:
        play = plays.get(w.index)
        if play is None:
            groups.setdefault((None, None, None), [0.0, 0.0])[0] += w.weight
            values.append(0.0)
            continue
        contract, row = play
        g = groups.setdefault((contract.bidder, Bid.of(contract), row), [0.0, 0.0])
        g[0] += w.weight
        hit = made[w.index]
        g[1] += w.weight if hit else 0.0
        side = 1 if contract.bidder in (seat, partner(seat)) else -1
        values.append(side * contract.marks * (1.0 if hit else -1.0))
    ends = []
    for (by, bid, row), (weight, hits) in groups.items():
        if by is None or bid is None or row is None:
            ends.append(End(None, None, None, as_stated(weight / total), 0.0, 0, 0))
            continue
        side = 1 if by in (seat, partner(seat)) else -1
        stake = bid.contract(by).marks
        share, kind, corr = hits / weight, kind_of(bid, row), table.correction
        ends.append(
            End(
                by,
                bid,
                row,
                as_stated(weight / total),
                as_stated(corr.stated(share, kind)),
                side,
                stake,
                as_stated(share),
                corr,
            )
        )
    ends.sort(
        key=lambda e: (
            -e.share,
            e.by or "",
            e.bid.size if e.bid else 0,
            e.row.order if e.row else -1,
        )
    )
    expected = as_stated(sum(e.value for e in ends))
    own = table.best_row(call) if call is not None else None
    return CallWorth(call, own, tuple(ends), expected, tuple(values))


def contract_worth(
    sw: SeatWorlds,
    table: SeatTable,
    dealer: Seat,
    before: Sequence[CallTuple],
    call: Bid | None,
    pass_open: bool = True,
) -> ContractWorth:
    """Every call open to the caller of ``table`` (its columns, and a pass when
    ``pass_open``) valued by the contract its auction ends in, the call made (``call``,
    None for a pass) among them (see the module text)."""
    worlds, heard = _weigh(sw, dealer, before)
    weights = [w.weight for w in worlds]
    effective = sum(weights) ** 2 / sum(x * x for x in weights)
    weighed = effective >= max(2.0, FLOOR_SHARE * len(worlds))
    if not weighed:
        for w in worlds:
            w.weight = 1.0
        effective = float(len(worlds))
    rows = _Rows(sw, table)
    options: list[CallWorth] = []
    for c in ([None] if pass_open else []) + list(table.bids):
        options.append(_call_worth(sw, table, rows, dealer, before, c, worlds))
    made = next((o for o in options if o.call == call), None)
    if made is None:
        made = _call_worth(sw, table, rows, dealer, before, call, worlds)
    return ContractWorth(
        sw.seat,
        made,
        tuple(options),
        tuple(w.weight for w in worlds),
        effective,
        weighed,
        heard,
    )
