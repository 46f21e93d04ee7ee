"""The ``sampling`` bots: every decision by the fair-analysis machinery.

It sees what its seat sees, and no more: the deals it cannot tell apart from the
one in play (the *worlds*) are drawn from its own view, each is solved exactly
with every hand open (:mod:`texas42_log.engine.search`), and it takes the choice
that does best over them — bridge programs call this Monte Carlo sampling with
double-dummy solving.

* **Play** — :func:`texas42_log.analysis.fair.decide` over ``worlds`` worlds (the
  analysis's own draw, consistent with every play it has seen: a seat that did
  not follow suit holds none of it): the play with the highest share of worlds
  in which its side reaches its goal (the contract made, or set), ties to the
  better mean.
* **Bid** (``sampling``) — the seat's fair makeable table
  (:mod:`texas42_log.analysis.bidding`) over ``bid_worlds`` deals of the 21 tiles it
  cannot see (drawn once a hand), for every trump and contract the rules allow it. A
  bid's chance is its best row's chance as played (:mod:`~texas42_log.analysis.calibration`:
  the table's open-hand share corrected for its kind of contract); its worth is its marks times
  (2 × chance − 1), against 0 for a pass. It makes the bid of the highest worth (the
  lower of two worth the same), passes when none is worth more than 0, and passes over
  its partner's bid.
* **Bid** (``sampling-contract``) — in a game of marks, each call open is worth the
  contract its auction ends in (:mod:`texas42_log.analysis.continuation`: the rest of the
  auction called by the rule bidder in each deal, the deals weighed by the calls heard),
  as ``Game.hint`` and the review judge calls, and it makes the call of the highest
  worth — a pass behind its partner's bid when partner's contract is worth more than
  overbidding it. It plays and declares as ``sampling``.
* **Declare** (``sampling``) — the row of the best chance in that table for the
  contract won.
* **Bid** (``sampling-open``, the bidder before the fair table) — ``bid_worlds`` deals
  of the 21 tiles it cannot see, each solved with the bot as declarer and leader for its
  ``trumps`` strongest trump choices (the rule bot's count orders them), with the
  uncorrected chance: the best trump's share of worlds in which the bid would be made;
  its worth as above. It passes over its partner's bid. Only made-or-not is asked (the
  bounded search at the bid's threshold), and only of the bids that can be best: the
  lowest point bid, the lowest and the highest mark bid (:func:`_contenders`), never a
  Plunge or Splash of its own (it declares and plays one its partner bid).
* **Declare** (``sampling-open``) — each legal declaration (its strongest trump
  choices, and Nel-O or Sevens where they are legal) over ``bid_worlds`` worlds: the
  highest share made.

What neither does: read anything into why the others bid or played as they did —
every consistent deal weighs the same. Seeded: the same seed, situation and settings
give the same choice. Pure: no I/O.
"""

from __future__ import annotations

import random
from typing import ClassVar, Final

from ..analysis.bidding import Bid, SeatWorlds, row_of, seat_worlds
from ..analysis.continuation import contract_worth
from ..analysis.fair import decide
from ..analysis.fair_hands import knowledge_at
from ..analysis.open_hand import allowed_trumps
from ..engine.actions import Action, Call, Declare, Play
from ..engine.auction import MARK_SIZE, BidKind, Contract
from ..engine.hand import PlayState
from ..engine.search import reaches_in_worlds, values_in_worlds
from ..engine.seats import SEATS, Seat, partner
from ..engine.support import Support
from ..engine.tiles import TILES, Tile
from ..engine.trumps import Trump
from ..engine.values import goal, makeable, maximiser
from .base import Situation, seed_of
from .rule import bid_to_beat, lowest_bid, own_tiles, suit_strength

__all__ = [
    "SamplingBot",
    "ContractSamplingBot",
    "OpenSamplingBot",
    "DEFAULT_PLAY_WORLDS",
    "DEFAULT_BID_WORLDS",
    "DEFAULT_TABLE_WORLDS",
    "DEFAULT_TRUMPS",
]

#: Worlds for each play, for each bid and declaration, and trump choices tried when bidding.
DEFAULT_PLAY_WORLDS: Final = 12
DEFAULT_BID_WORLDS: Final = 10
DEFAULT_TRUMPS: Final = 3
#: The deals of the ``sampling`` bot's makeable table (every trump the rules allow).
DEFAULT_TABLE_WORLDS: Final = 32


class OpenSamplingBot:
    """``sampling-open``: the sampling bot as it bid before the fair makeable table (see the
    module text). ``worlds``: per play; ``bid_worlds``: per bid and declaration;
    ``trumps``: the trump choices solved when bidding and declaring."""

    name = "sampling-open"
    #: What it honours (:mod:`texas42_log.engine.support`): every option; it answers
    #: from the legal actions the engine lists.
    support: ClassVar[Support] = Support("the sampling-open bot")

    def __init__(
        self,
        seed: int = 0,
        *,
        worlds: int = DEFAULT_PLAY_WORLDS,
        bid_worlds: int = DEFAULT_BID_WORLDS,
        trumps: int = DEFAULT_TRUMPS,
    ) -> None:
        if worlds < 1 or bid_worlds < 1 or trumps < 1:
            raise ValueError("the sampling bot needs at least one world and one trump choice")
        self.seed = seed
        self.worlds = worlds
        self.bid_worlds = bid_worlds
        self.trumps = trumps
        #: The auction's solved worlds: (hand, own tiles) → trump → value per world
        #: (the declaration after a point bid reads them again instead of solving twice).
        self._solved: dict[tuple[int, frozenset[Tile]], dict[Trump, list[int]]] = {}

    def act(self, situation: Situation) -> Action:
        if len(situation.legal) == 1:
            return situation.legal[0]
        if situation.kind == "call":
            return self._call(situation)
        if situation.kind == "declare":
            return self._declare(situation)
        return self._play(situation)

    # -- the worlds of the auction ------------------------------------------------

    def _deals(self, situation: Situation) -> list[dict[Seat, set[Tile]]]:
        """Deals of the tiles the seat cannot see to the other three (7 each): the
        same for its bids and its declaration in one hand."""
        mine = own_tiles(situation)
        rest = [t for t in TILES if t not in set(mine)]
        rng = random.Random(
            seed_of(self.seed, "auction", situation.view.hand, *sorted(t.index for t in mine))
        )
        others = [s for s in SEATS if s != situation.seat]
        out = []
        for _ in range(self.bid_worlds):
            rng.shuffle(rest)
            deal = {situation.seat: set(mine)}
            for k, s in enumerate(others):
                deal[s] = set(rest[7 * k : 7 * k + 7])
            out.append(deal)
        return out

    def _candidates(self, situation: Situation, choices: list[Trump]) -> list[Trump]:
        tiles = own_tiles(situation)
        order = sorted(
            choices,
            key=lambda t: (-suit_strength(tiles, t), -(t.number if t.number is not None else -1)),
        )
        return order[: self.trumps]

    # -- decisions -------------------------------------------------------------------

    def _call(self, situation: Situation) -> Call:
        calls = [a for a in situation.legal if isinstance(a, Call)]
        passing = [c for c in calls if c.kind is BidKind.PASS]
        bids = [c for c in calls if c.kind is not BidKind.PASS and c.special is None]
        high, _ = bid_to_beat(situation)
        if passing and (high == partner(situation.seat) or not bids):
            return passing[0]
        if not bids:
            return lowest_bid(calls)
        rules, seat = situation.rules, situation.seat
        trumps = self._candidates(situation, allowed_trumps(rules))
        best: tuple[float, int, Call] | None = None
        for call in _contenders(bids):
            assert call.bid is not None
            contract = Contract(seat, call.kind, call.bid)
            chance = max(self._chances(situation, trumps, contract).values())
            worth = contract.marks * (2 * chance - 1)
            key = (worth, -_size(call), call)
            if best is None or key[:2] > best[:2]:
                best = key
        assert best is not None
        if passing and best[0] <= 0:
            return passing[0]
        return best[2]

    def _chances(
        self, situation: Situation, trumps: list[Trump], contract: Contract
    ) -> dict[Trump, float]:
        """Per trump choice, the share of the auction's worlds in which the seat,
        declaring and leading, makes ``contract``: made or not, by the bounded search
        at the contract's threshold (engine/search.py), one world at a time in C."""
        rules, seat = situation.rules, situation.seat
        deals = self._deals(situation)
        threshold, made = goal(contract, total=rules.count.total)
        out: dict[Trump, float] = {}
        for trump in trumps:
            template = PlayState(
                rules, Contract(seat, BidKind.POINTS, rules.min_point_bid), trump, deals[0]
            )
            reached, _ = reaches_in_worlds(template, deals, threshold)
            out[trump] = sum(r == made for r in reached) / len(deals)
        return out

    def _values(self, situation: Situation, trumps: list[Trump]) -> dict[Trump, list[int]]:
        """Per trump choice, the hand points the seat's side takes with best play in
        each of the auction's worlds, the seat declaring and leading a point contract."""
        rules, seat = situation.rules, situation.seat
        key = (situation.view.hand, frozenset(own_tiles(situation)))
        known = self._solved.setdefault(key, {})
        missing = [t for t in trumps if t not in known]
        if missing:
            deals = self._deals(situation)
            for trump in missing:
                template = PlayState(
                    rules, Contract(seat, BidKind.POINTS, rules.min_point_bid), trump, deals[0]
                )
                known[trump], _ = values_in_worlds(template, deals)
        return {t: known[t] for t in trumps}

    def _declare(self, situation: Situation) -> Declare:
        legal = [a for a in situation.legal if isinstance(a, Declare)]
        declares = [
            a for a in legal if a.stacks in (None, 1)
        ] or legal  # the stacks change no value
        c = situation.view.contract
        assert c is not None
        special = c.special if c.special in ("plunge", "splash") else None
        base = Contract(c.bidder, BidKind(c.kind), c.bid, special)  # type: ignore[arg-type]
        trumps = self._candidates(situation, [d.trump for d in declares if d.trump is not None])
        options = [d for d in declares if d.trump in trumps or d.special is not None] or declares
        rules, seat = situation.rules, situation.seat
        hand = rules.count.total
        scores: dict[Declare, tuple[float, float]] = {}
        deals = self._deals(situation)
        solved = (
            self._values(situation, trumps)
            if base.kind is BidKind.POINTS and base.declarer == seat
            else {}
        )
        for d in options:
            contract = base.declare(d.special) if d.special is not None else base
            high = maximiser(contract, seat)
            if d.trump in solved and d.special is None:
                vs = solved[d.trump]
                scores[d] = (
                    sum(makeable(contract, v, total=hand) for v in vs) / len(vs),
                    sum(vs) / len(vs),
                )
                continue
            template = PlayState(
                rules, contract, d.trump or Trump.NO_TRUMP, deals[0], nello_doubles=d.doubles
            )
            vs, _ = values_in_worlds(template, deals)
            made = sum(makeable(contract, v, total=hand) for v in vs)
            total = sum(v if high else -v for v in vs)
            scores[d] = (made / len(deals), total / len(deals))
        return max(options, key=lambda d: scores[d])

    def _play(self, situation: Situation) -> Play:
        knowledge = knowledge_at(list(situation.seen), situation.view.play, situation.rules)
        decision = decide(knowledge, worlds=self.worlds, seed=self.seed, hand=situation.view.hand)
        sign = 1 if decision.high else -1
        tile, led = max(
            decision.values,
            key=lambda m: (decision.values[m].share, sign * decision.values[m].mean),
        )
        plays = [a for a in situation.legal if isinstance(a, Play)]
        for p in plays:
            if p.tile == tile and p.led == led:
                return p
        return next(
            p for p in plays if p.tile == tile
        )  # a lead declared as the suit it leads anyway


def _contenders(bids: list[Call]) -> list[Call]:
    """The bids that can be the best by worth, marks × (2 × chance − 1), then the
    smaller bid: a bid's chance never grows with its level, so among point bids the
    lowest is best; every mark bid needs all 42 points and so has one chance, and the
    best of them is the highest (chance above one half) or the lowest. Asking only
    these gives the same choice as asking every bid."""
    points = [c for c in bids if c.kind is BidKind.POINTS]
    marks = [c for c in bids if c.kind is BidKind.MARKS]
    out = [min(points, key=_size)] if points else []
    if marks:
        out += [min(marks, key=_size), max(marks, key=_size)]
    return list(dict.fromkeys(out))


def _size(call: Call) -> int:
    assert call.bid is not None
    return call.bid * MARK_SIZE if call.kind is BidKind.MARKS else call.bid


class SamplingBot(OpenSamplingBot):
    """``sampling``: plays as :class:`OpenSamplingBot`; bids and declares from its fair
    makeable table (see the module text). ``worlds``: per play; ``bid_worlds``: the deals
    of its table (every trump and contract the rules allow)."""

    name = "sampling"
    #: What it honours (:mod:`texas42_log.engine.support`): every option; it answers
    #: from the legal actions the engine lists.
    support: ClassVar[Support] = Support("the sampling bot")
    #: Whether it bids by the contract each call leads to (``sampling-contract``).
    by_contract = False

    def __init__(
        self,
        seed: int = 0,
        *,
        worlds: int = DEFAULT_PLAY_WORLDS,
        bid_worlds: int = DEFAULT_TABLE_WORLDS,
    ) -> None:
        if bid_worlds < 2:
            raise ValueError("the sampling bot's table needs at least 2 worlds")
        super().__init__(seed, worlds=worlds, bid_worlds=bid_worlds)
        self._tables: dict[tuple[int, Seat, frozenset[Tile]], SeatWorlds] = {}

    def _space(self, situation: Situation) -> SeatWorlds:
        """The seat's auction worlds, drawn from public facts and its own tiles, once a hand."""
        tiles = frozenset(own_tiles(situation))
        key = (situation.view.hand, situation.seat, tiles)
        got = self._tables.get(key)
        if got is None:
            if len(self._tables) > 8:
                self._tables.clear()
            got = seat_worlds(
                situation.rules,
                situation.seat,
                situation.view.hand,
                tiles,
                worlds=self.bid_worlds,
                seed=self.seed,
            )
            self._tables[key] = got
        return got

    def _call(self, situation: Situation) -> Call:
        calls = [a for a in situation.legal if isinstance(a, Call)]
        passing = [c for c in calls if c.kind is BidKind.PASS]
        bids = [c for c in calls if c.kind is not BidKind.PASS and c.bid is not None]
        if self.by_contract and situation.rules.match_goal == "marks" and bids:
            return self._call_by_contract(situation, calls, bids, bool(passing))
        high, _ = bid_to_beat(situation)
        if passing and (high == partner(situation.seat) or not bids):
            return passing[0]
        if not bids:
            return lowest_bid(calls)
        table = self._space(situation).table([Bid(c.kind, c.bid, c.special) for c in bids])  # type: ignore[arg-type]
        best: tuple[float, int, Call] | None = None
        for call in bids:
            bid = Bid(call.kind, call.bid, call.special)  # type: ignore[arg-type]
            row = table.best_row(bid)
            if row is None:
                continue
            worth = bid.contract(situation.seat).marks * (2 * table.played(bid, row) - 1)
            key = (worth, -bid.size, call)
            if best is None or key[:2] > best[:2]:
                best = key
        if best is None or (passing and best[0] <= 0):
            return passing[0] if passing else lowest_bid(calls)
        return best[2]

    def _call_by_contract(
        self, situation: Situation, calls: list[Call], bids: list[Call], pass_open: bool
    ) -> Call:
        """In a game of marks: the call of the highest worth by the contract its auction
        ends in (:mod:`texas42_log.analysis.continuation`), as the review judges calls."""
        space = self._space(situation)
        table = space.table([Bid(c.kind, c.bid, c.special) for c in bids])  # type: ignore[arg-type]
        heard = [
            (seat, BidKind(kind), bid, special)
            for seat, kind, bid, special in situation.view.auction
        ]
        worth = contract_worth(space, table, situation.view.dealer, heard, None, pass_open)  # type: ignore[arg-type]
        best = worth.best.call
        for c in calls:
            if best is None and c.kind is BidKind.PASS:
                return c
            if best is not None and (c.kind, c.bid, c.special) == (
                best.kind,
                best.bid,
                best.special,
            ):
                return c
        return lowest_bid(calls)  # pragma: no cover - the best is one of the calls open

    def _declare(self, situation: Situation) -> Declare:
        legal = [a for a in situation.legal if isinstance(a, Declare)]
        c = situation.view.contract
        assert c is not None
        special = c.special if c.special in ("plunge", "splash") else None
        contract = Contract(c.bidder, BidKind(c.kind), c.bid, special)  # type: ignore[arg-type]
        table = self._space(situation).declaration_table(contract)
        row = table.best_row(Bid.of(contract))
        for d in legal:
            if d.stacks in (None, 1) and row is not None:
                if row_of(d.trump, d.special, d.doubles) == row:
                    return d
        return legal[0]


class ContractSamplingBot(SamplingBot):
    """``sampling-contract``: :class:`SamplingBot`, bidding in a game of marks by the contract
    each call leads to, as ``Game.hint`` and the review judge calls (see the module text)."""

    name = "sampling-contract"
    #: What it honours (:mod:`texas42_log.engine.support`): every option; it answers
    #: from the legal actions the engine lists.
    support: ClassVar[Support] = Support("the sampling-contract bot")
    by_contract = True
