"""Fair verdicts of the auction and the declaration: each call from its caller's seat.

For each call of a hand, the caller is given its own 7 tiles (from its own view of
the hand, never the deal) and the calls before it, and the fair makeable table of
:mod:`texas42_log.analysis.bidding` is made of every bid open to it then. Each call
gets:

* every call — what the table alone says the caller could have bid: the highest bid
  whose best chance as played is at least :data:`~.bidding.SUPPORT`, with its trump.
  For a pass or a bid that did not win this is *only what the table says*: the table
  does not know how the others would have answered;
* the winning bid — besides, its chance with the trump the declarer then chose, and
  the best trump's chance;
* the declaration — the chosen trump (or Nel-O, Sevens) against the best one for the
  contract won, from the declarer's own seat (the bidder's partner after a Plunge or
  Splash), marked ``?`` and ``??`` by the thresholds the plays have
  (:data:`~.fair.DUBIOUS`, :data:`~.fair.BLUNDER` of chance lost; and, as the worlds
  are drawn, only when the loss is more than twice its standard error, measured world
  by world). In a points game too: the declaration decides whether the contract is
  made, not how many points past it are taken.

:func:`plan_auction` gathers what each seat could see (in the process that holds the
match); :func:`judge_auction` does the solving (anywhere: the plan is plain data).
Pure, no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.actions import Call, Declare
from ..engine.auction import BidKind, BidSpecial, Contract
from ..engine.rules import Rules
from ..engine.seats import Seat
from ..engine.tiles import TILE_BY_NAME, Tile
from ..engine.trumps import Trump
from ..log.check import effective_rules
from ..log.model import Match
from ..views.visibility import hand_views
from . import DEFAULT_SEED, DEFAULT_WORLDS, as_stated
from .bidding import (
    Bid,
    Chance,
    Row,
    SeatTable,
    SeatWorlds,
    open_calls,
    row_of,
    seat_worlds,
)
from .calibration import BY_KIND, SINGLE, Correction
from .call_verdicts import Worth, call_mark, loss_se, pays_best, worth
from .continuation import CallWorth, ContractWorth, contract_worth
from .fair import BLUNDER, DUBIOUS, Mark

__all__ = [
    "AuctionPlan",
    "CallNote",
    "DeclarationNote",
    "AuctionAnalysis",
    "plan_auction",
    "judge_auction",
    "fair_auction",
    "AuctionHint",
    "auction_hint",
]

CallTuple = tuple[Seat, BidKind, int | None, BidSpecial | None]


@dataclass(frozen=True, slots=True)
class CallPlan:
    #: Its index in the hand's ``auction`` (rejected attempts included).
    index: int
    seat: Seat
    #: The call made: None for a pass.
    call: Bid | None
    #: The accepted calls before it.
    before: tuple[CallTuple, ...]


@dataclass(frozen=True, slots=True)
class AuctionPlan:
    """What each seat could see before the play, as plain data (see the module text)."""

    rules: Rules
    hand: int
    dealer: Seat
    #: Each seat's own tiles, from its own view (a seat whose tiles it did not see: absent).
    tiles: dict[Seat, frozenset[Tile]]
    calls: tuple[CallPlan, ...]
    #: The contract won, the index of its call, and the declaration (its seat and row).
    contract: Contract | None
    won: int | None
    declaration: tuple[Seat, Row] | None
    #: Calls passed over, each with why: (index, seat, reason).
    skipped: tuple[tuple[int, Seat, str], ...] = ()
    #: Each accepted call's public words by its index (``pass``, ``30``, ``2 marks``).
    words: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True, slots=True)
class CallNote:
    """The fair verdict of one call."""

    index: int
    seat: Seat
    call: Bid | None
    #: The table of the bids open to the caller then.
    table: SeatTable
    #: For the winning bid: the row the declarer then chose.
    declared: Row | None = None
    won: bool = False
    #: Whether the caller could pass (not the dealer bound to bid after three passes).
    pass_open: bool = True
    #: Whether calls are judged by their expected marks (a game of marks, format 1.10).
    judged: bool = True
    #: Every call open to the caller valued by the contract its auction ends in (format
    #: 1.11, :mod:`.continuation`); None: judged as if the auction ended with the call.
    contract: ContractWorth | None = None

    def _worth(self, w: CallWorth) -> Worth:
        if w.call is None or w.row is None:
            return Worth(w.call, w.row, None, w.expected)
        return Worth(w.call, w.row, as_stated(self.table.chance(w.call, w.row).share), w.expected)

    @property
    def worth(self) -> Worth:
        """The call made, valued by the contract its auction ends in (by its table alone
        before 1.11, :mod:`.call_verdicts`)."""
        if self.contract is not None:
            return self._worth(self.contract.made)
        return worth(self.table, self.call)

    @property
    def pays_best(self) -> Worth:
        """The call that pays best (by its table alone before 1.11)."""
        if self.contract is not None:
            return self._worth(self.contract.best)
        return pays_best(self.table, self.pass_open)

    @property
    def marks_lost(self) -> float:
        """The expected marks the call gave up against the one that pays best."""
        if self.contract is not None:
            return self.contract.lost
        return as_stated(max(0.0, self.pays_best.expected - self.worth.expected))

    @property
    def marks_lost_se(self) -> float:
        if self.contract is not None:
            return self.contract.lost_se
        return 0.0 if self.marks_lost == 0 else loss_se(self.table, self.pays_best, self.worth)

    @property
    def mark(self) -> Mark | None:
        """``?``, ``??`` or None (:func:`~.call_verdicts.call_mark`); never unjudged."""
        if not self.judged:
            return None
        return call_mark(self.marks_lost, self.marks_lost_se)

    @property
    def supported(self) -> tuple[Bid, Row] | None:
        """What the table alone says the caller could have bid (see the module text)."""
        return self.table.supported()

    @property
    def chance(self) -> Chance | None:
        """The winning bid's chance with the trump declared."""
        if not self.won or self.call is None or self.declared is None:
            return None
        if self.declared not in self.table.made.get(self.call, {}):
            return None
        return self.table.chance(self.call, self.declared)

    @property
    def best(self) -> tuple[Row, Chance] | None:
        """The best row for the bid made, and its chance."""
        if self.call is None:
            return None
        row = self.table.best_row(self.call)
        return None if row is None else (row, self.table.chance(self.call, row))

    def as_dict(self) -> dict[str, Any]:
        """The format's ``fair`` object of a call (docs/format.md, since 1.8)."""
        out = self.table.as_dict()
        s = self.supported
        out["supported"] = None if s is None else s[0].key
        out["supported_trump"] = None if s is None else s[1].key
        if self.won:
            best, chance = self.best, self.chance
            if best is not None:
                out["best"] = best[0].key
                out["best_chance"] = as_stated(best[1].share)
            if chance is not None and self.declared is not None:
                out["declared"] = self.declared.key
                out["chance"] = as_stated(chance.share)
        if self.judged and self.contract is not None:
            out["contract"] = self.contract.as_dict()
        elif self.judged:
            pays = self.pays_best
            out["expected"] = self.worth.expected
            out["pays_best"] = pays.key
            if pays.row is not None:
                out["pays_best_trump"] = pays.row.key
            out["pays_best_expected"] = pays.expected
            out["marks_lost"] = self.marks_lost
            out["marks_lost_se"] = self.marks_lost_se
            if self.mark is not None:
                out["mark"] = self.mark
        return out


@dataclass(frozen=True, slots=True)
class DeclarationNote:
    """The fair verdict of the trump declaration."""

    seat: Seat
    #: The contract as the declarer's table columns it.
    bid: Bid
    choice: Row
    table: SeatTable

    @property
    def best(self) -> Row:
        row = self.table.best_row(self.bid)
        assert row is not None
        return row

    @property
    def chance(self) -> Chance:
        return self.table.chance(self.bid, self.choice)

    @property
    def best_chance(self) -> Chance:
        return self.table.chance(self.bid, self.best)

    @property
    def chance_lost(self) -> float:
        return as_stated(max(0.0, as_stated(self.best_chance.share) - as_stated(self.chance.share)))

    @property
    def loss_se(self) -> float:
        return self.table.paired_se(self.bid, self.choice, self.best)

    @property
    def mark(self) -> Mark | None:
        """``?``, ``??`` or None (see the module text); never for the best row."""
        if self.choice == self.best:
            return None
        loss = self.chance_lost
        if loss < DUBIOUS or not loss > 2 * self.loss_se:
            return None
        return "??" if loss >= BLUNDER else "?"

    def as_dict(self) -> dict[str, Any]:
        """The format's ``fair`` object of a declaration (docs/format.md, since 1.8)."""
        rows = self.table.made[self.bid]
        out: dict[str, Any] = {
            "worlds": self.table.worlds,
            "of": self.table.count,
            "table": {r.key: as_stated(self.table.chance(self.bid, r).share) for r in sorted(rows)},
            "best": self.best.key,
            "chance_lost": self.chance_lost,
        }
        if self.table.correction.method == "kind":
            out["open_table"] = {
                r.key: as_stated(self.table.open_chance(self.bid, r).share) for r in sorted(rows)
            }
        if self.mark is not None:
            out["mark"] = self.mark
        return out


@dataclass(slots=True)
class AuctionAnalysis:
    """The fair verdicts of one hand's calls and declaration (``hand`` from 0)."""

    hand: int
    worlds: int
    seed: int
    calls: list[CallNote] = field(default_factory=list)
    declaration: DeclarationNote | None = None
    skipped: list[tuple[int, Seat, str]] = field(default_factory=list)
    nodes: int = 0
    #: Each accepted call's public words by its index (a skipped call is named by them).
    words: dict[int, str] = field(default_factory=dict)
    #: How its chances are stated and judged (:mod:`.calibration`; before 1.12 ``SINGLE``).
    correction: Correction = BY_KIND
    #: The same verdicts by the single curve, when asked (to verify a log before 1.12).
    older: AuctionAnalysis | None = None


def _bid_of(kind: str, bid: int | None, special: str | None) -> Bid | None:
    if kind == "pass" or bid is None:
        return None
    return Bid(BidKind(kind), bid, special)  # type: ignore[arg-type]


def plan_auction(match: Match, index: int) -> AuctionPlan:
    """Hand ``index`` (from 0) of a valid match, planned: each seat's own tiles from its own
    first view of the hand, and the calls (see the module text)."""
    rules = effective_rules(match)
    hand = match.hands[index]
    tiles: dict[Seat, frozenset[Tile]] = {}
    skipped: list[tuple[int, Seat, str]] = []
    unknown: set[Seat] = set()

    def own(seat: Seat) -> frozenset[Tile] | None:
        if seat in tiles:
            return tiles[seat]
        if seat in unknown:
            return None
        first = hand_views(match, seat, index)[0]
        if first.hidden.get(seat):
            unknown.add(seat)
            return None
        tiles[seat] = frozenset(TILE_BY_NAME[t] for t in first.hands.get(seat, ()))
        return tiles[seat]

    calls: list[CallPlan] = []
    words: list[tuple[int, str]] = []
    before: list[CallTuple] = []
    won: int | None = None
    top = 0
    mark_units = rules.mark_bid_units == "points"
    for k, c in enumerate(hand.auction):
        if c.rejected:
            continue
        kind = c.call
        bid: int | None = getattr(c, "bid", None)
        if kind == "marks" and bid is not None and mark_units:
            bid //= 42
        special = getattr(c, "special", None)
        made = _bid_of(kind, bid, special)
        words.append((k, "pass" if made is None else made.key))
        if own(c.seat) is None:
            skipped.append((k, c.seat, f"{c.seat}'s own tiles are not all known"))
        else:
            calls.append(CallPlan(k, c.seat, made, tuple(before)))
        before.append((c.seat, BidKind(kind), bid, special))
        if kind != "pass" and bid is not None:
            size = bid * 42 if kind == "marks" else bid
            if won is None or size > top:  # the highest bid wins; a tie, the earlier one
                won, top = k, size
    contract: Contract | None = None
    declaration: tuple[Seat, Row] | None = None
    d = hand.declaration
    if d is not None and won is not None:
        c = hand.auction[won]
        kind, bid = c.call, getattr(c, "bid", None)
        if kind == "marks" and bid is not None and mark_units:
            bid //= 42
        assert bid is not None
        contract = Contract(c.seat, BidKind(kind), bid, getattr(c, "special", None))
        trump = Trump(d.trump) if d.trump is not None else None
        row = row_of(trump, d.contract, d.doubles)
        if own(d.seat) is None:
            skipped.append((-1, d.seat, f"{d.seat}'s own tiles are not all known"))
        else:
            declaration = (d.seat, row)
    return AuctionPlan(
        rules,
        index,
        hand.dealer,
        tiles,
        tuple(calls),
        contract,
        won,
        declaration,
        tuple(skipped),
        tuple(words),
    )


def judge_auction(
    plan: AuctionPlan,
    *,
    worlds: int = DEFAULT_WORLDS,
    seed: int = DEFAULT_SEED,
    by_contract: bool = True,
    correction: Correction = BY_KIND,
    older: bool = False,
) -> AuctionAnalysis:
    """The fair verdicts of a planned auction (see the module text); ``by_contract``: each
    call worth the contract its auction ends in (format 1.11), else as if it ended with
    the call (1.10); ``correction``: chances as played by kind (1.12), or the single curve
    a log before 1.12 is checked by; ``older``: the verdicts by the single curve besides,
    in :attr:`AuctionAnalysis.older` (to verify a log before 1.12), on the same worlds."""
    space: dict[Seat, SeatWorlds] = {}

    def of(seat: Seat) -> SeatWorlds:
        if seat not in space:
            space[seat] = seat_worlds(
                plan.rules, seat, plan.hand, plan.tiles[seat], worlds=worlds, seed=seed
            )
        return space[seat]

    out = _judged(plan, of, worlds, seed, by_contract, correction)
    if older and correction != SINGLE:
        out.older = _judged(plan, of, worlds, seed, by_contract, SINGLE)
    out.nodes = sum(s.nodes for s in space.values())
    return out


def _judged(
    plan: AuctionPlan,
    of: Callable[[Seat], SeatWorlds],
    worlds: int,
    seed: int,
    by_contract: bool,
    correction: Correction,
) -> AuctionAnalysis:
    out = AuctionAnalysis(
        plan.hand,
        worlds,
        seed,
        skipped=list(plan.skipped),
        words=dict(plan.words),
        correction=correction,
    )
    declared = plan.declaration[1] if plan.declaration is not None else None
    judged = plan.rules.match_goal == "marks"
    for c in plan.calls:
        bids, pass_open = open_calls(plan.rules, plan.dealer, c.before, plan.tiles[c.seat])
        if c.call is not None and c.call not in bids:
            bids.append(c.call)
        table = of(c.seat).table(bids, correction)
        won = c.index == plan.won
        worth_of = None
        if judged and by_contract:
            worth_of = contract_worth(of(c.seat), table, plan.dealer, c.before, c.call, pass_open)
        out.calls.append(
            CallNote(
                c.index,
                c.seat,
                c.call,
                table,
                declared if won else None,
                won,
                pass_open,
                judged,
                worth_of,
            )
        )
    if plan.declaration is not None and plan.contract is not None:
        seat, row = plan.declaration
        contract = plan.contract
        table = of(seat).declaration_table(contract, correction)
        out.declaration = DeclarationNote(seat, Bid.of(contract), row, table)
    return out


def fair_auction(
    match: Match, index: int, *, worlds: int = DEFAULT_WORLDS, seed: int = DEFAULT_SEED
) -> AuctionAnalysis:
    """The fair verdicts of hand ``index``'s auction and declaration, in this process."""
    return judge_auction(plan_auction(match, index), worlds=worlds, seed=seed)


@dataclass(frozen=True, slots=True)
class AuctionHint:
    """``Game.hint`` during the auction or the declaration: the seat's fair makeable table
    of the moment and what it suggests — the call (in a game of marks the one worth the
    most by the contract its auction ends in, :mod:`.continuation`; in a points game the
    table's ceiling, else a pass) or
    the declaration (the best row) — with that suggestion's chance (None for a pass)."""

    seat: Seat
    #: ``"call"`` or ``"declare"``.
    kind: str
    table: SeatTable
    #: The suggested call or declaration, as the engine's action.
    suggestion: Call | Declare
    #: The suggestion's chance, and its row (the trump to name), when it is a bid or a
    #: declaration.
    chance: Chance | None
    row: Row | None
    #: In a game of marks, every call open valued by the contract its auction ends in.
    worth: ContractWorth | None = None

    @property
    def open(self) -> Chance | None:
        """The suggestion's open-hand share (its chance is as played, :mod:`.calibration`)."""
        if self.chance is None or self.row is None:
            return None
        if isinstance(self.suggestion, Call):
            s = self.suggestion
            if s.bid is None:
                return None
            bid = Bid(s.kind, s.bid, s.special)
        else:
            bid = self.table.bids[0]
        return self.table.open_chance(bid, self.row)

    def as_dict(self) -> dict[str, Any]:
        out = {
            "seat": self.seat,
            "kind": self.kind,
            "suggestion": str(self.suggestion),
            "row": None if self.row is None else self.row.key,
            "chance": None if self.chance is None else as_stated(self.chance.share),
            "se": None if self.chance is None else as_stated(self.chance.se),
            "open_chance": None if self.open is None else as_stated(self.open.share),
        } | self.table.as_dict()
        if self.worth is not None:
            best = self.worth.best
            out["worth"] = {
                "expected": best.expected,
                "calls": {o.key: o.expected for o in self.worth.options},
                "ends": [e.as_dict() for e in best.ends],
                "worlds": as_stated(self.worth.effective),
                "weighed": self.worth.weighed,
            }
        return out


def auction_hint(
    rules: Rules,
    hand: int,
    dealer: Seat,
    seat: Seat,
    tiles: frozenset[Tile],
    calls: Sequence[CallTuple],
    legal: Sequence[Call | Declare],
    contract: Contract | None,
    *,
    worlds: int = DEFAULT_WORLDS,
    seed: int = DEFAULT_SEED,
) -> AuctionHint:
    """The hint of ``seat`` (to call, or to declare ``contract``) from its own ``tiles`` and
    the public ``calls``; ``legal``: its legal actions now (the suggestion is one of them)."""
    sw = seat_worlds(rules, seat, hand, tiles, worlds=worlds, seed=seed)
    if contract is None:
        open_bids, pass_open = open_calls(rules, dealer, calls, tiles)
        table = sw.table(open_bids)
        worth_of: ContractWorth | None = None
        if rules.match_goal == "marks":  # the call worth the most (:mod:`.continuation`)
            worth_of = contract_worth(sw, table, dealer, calls, None, pass_open)
            w = worth_of.best
            s = None if w.call is None or w.row is None else (w.call, w.row)
        else:  # a points game: calls are not judged; the table's ceiling
            s = table.supported()
        for a in legal:
            if (
                isinstance(a, Call)
                and s is not None
                and (a.kind, a.bid, a.special) == (s[0].kind, s[0].bid, s[0].special)
            ):
                return AuctionHint(seat, "call", table, a, table.chance(*s), s[1], worth_of)
        passing = [a for a in legal if isinstance(a, Call) and a.kind is BidKind.PASS]
        if passing:
            return AuctionHint(seat, "call", table, passing[0], None, None, worth_of)
        # a forced bid (the dealer after three passes): the best chance of the legal bids
        bids = [a for a in legal if isinstance(a, Call) and a.bid is not None]
        best = max(
            bids,
            key=lambda a: (
                (
                    table.best(Bid(a.kind, a.bid, a.special)) or Chance(0.0, 0.0)  # type: ignore[arg-type]
                ).share
            ),
        )
        b = Bid(best.kind, best.bid, best.special)  # type: ignore[arg-type]
        row = table.best_row(b)
        return AuctionHint(
            seat, "call", table, best, None if row is None else table.chance(b, row), row
        )
    table = sw.declaration_table(contract)
    bid = Bid.of(contract)
    row = table.best_row(bid)
    assert row is not None
    for a in legal:
        if isinstance(a, Declare) and row_of(a.trump, a.special, a.doubles) == row:
            return AuctionHint(seat, "declare", table, a, table.chance(bid, row), row)
    raise ValueError("no legal declaration is the table's best")  # pragma: no cover
