"""Two bots that need no search: ``random`` and ``rule``.

``random`` picks any legal action, from its own seeded generator.

``rule`` plays by a documented hand count and a few table rules (docs/bots.md):

* **Count.** For each suit as trump: its trumps held, plus one if the trump
  double is among them, plus the other doubles held (each is the top of its suit).
  Doubles as trump (where allowed), with four or more doubles held: the doubles
  held plus one. The best of these is the hand's count.
* **Bid.** A count of 5 or less passes; 6 bids 30, 7 bids 32, 8 bids 34, 9 or more
  bids 42 (one mark, where the point bids stop below 42). It passes over its
  partner's bid, and when its own bid is not above the bid to beat. When it may not
  pass (the dealer's forced bid) it makes the lowest legal bid.
* **Declare.** The suit of the count as trump. When no trump declaration is legal
  (a mark bid that must be Nel-O or Sevens), the first legal declaration.
* **Lead.** The bidders' side leads its highest trump while it is the highest
  trump not yet played; otherwise an off-suit double; otherwise the tile with the
  least count, lowest pips first.
* **Follow.** With the partner winning the trick and the bot last to play: the
  legal tile with the most count (it falls to the partner). Otherwise, when a
  legal tile wins the trick: the lowest such tile when last to play, the highest
  when not. Otherwise the tile with the least count, lowest pips first.
* **Nel-O** (every seat): follow with the highest tile that does not win the trick,
  lead the lowest tile. **Sevens**: the legal tile nearest 7 pips.

Every rules preset the engine plays: the choices are always made among the legal
actions the situation lists, so a special contract a rule bot would not choose
itself (a Plunge bid by nobody, a forced Nel-O) is still played. Pure: no I/O.
"""

from __future__ import annotations

import random
from typing import ClassVar

from ..analysis.fair_hands import knowledge_at
from ..analysis.rule_bidder import (
    BID_FOR_COUNT,
    call_points,
    count_trumps,
    hand_count,
    high_bid,
    rule_choice,
    suit_strength,
)
from ..engine.actions import Action, Call, Declare, Play
from ..engine.auction import BidKind
from ..engine.hand import PlayState
from ..engine.seats import Seat, partner
from ..engine.support import Support
from ..engine.tiles import TILE_BY_NAME, TILES, Tile, count_value
from ..engine.trumps import TRUMP_SUIT
from .base import Situation

__all__ = ["RandomBot", "RuleBot", "hand_count", "suit_strength", "BID_FOR_COUNT"]


class RandomBot:
    """Any legal action, from a generator seeded by ``seed``."""

    name = "random"
    #: What it honours (:mod:`texas42_log.engine.support`): every option; it answers
    #: from the legal actions the engine lists.
    support: ClassVar[Support] = Support("the random bot")

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, situation: Situation) -> Action:
        return self.rng.choice(situation.legal)


def own_tiles(situation: Situation) -> list[Tile]:
    """The seat's tiles not yet played, as its view shows them."""
    return [TILE_BY_NAME[x] for x in situation.view.hands.get(situation.seat, ())]


def bid_to_beat(situation: Situation) -> tuple[Seat | None, int]:
    """The seat holding the high bid and its size in points (a mark is 42)."""
    return high_bid((seat, call, bid) for seat, call, bid, _special in situation.view.auction)


def _calls(situation: Situation) -> list[Call]:
    return [a for a in situation.legal if isinstance(a, Call)]


def lowest_bid(calls: list[Call]) -> Call:
    """The lowest legal bid (plain before special), for a seat that may not pass."""
    bids = [c for c in calls if c.kind is not BidKind.PASS] or calls
    return min(bids, key=lambda c: (c.special is not None, call_points(c.kind, c.bid)))


def choose_call(situation: Situation, count: int) -> Call:
    """The rule bot's call for a hand count (:func:`~.rule_bidder.rule_choice`)."""
    calls = _calls(situation)
    high, size = bid_to_beat(situation)
    legal = [(c.kind, c.bid, c.special) for c in calls]
    key = rule_choice(legal, high, size, situation.seat, count)
    return next(c for c in calls if (c.kind, c.bid, c.special) == key)


def choose_declaration(situation: Situation) -> Declare:
    """The count's suit as trump, when a trump declaration is legal."""
    declares = [a for a in situation.legal if isinstance(a, Declare)]
    trumps = [d for d in declares if d.trump is not None and d.stacks in (None, 1)]
    if not trumps:
        return declares[0]
    tiles = own_tiles(situation)
    _, best = hand_count(tiles, [d.trump for d in trumps if d.trump is not None])
    return next(d for d in trumps if d.trump is best)


def play_state(situation: Situation) -> PlayState:
    """The hand as the seat knows it: its own tiles, the plays so far, the others counted."""
    return knowledge_at(list(situation.seen), situation.view.play, situation.rules).state()


def _winner_index(state: PlayState, tiles: list[Tile]) -> int:
    """The position (from 0) of the tile that wins ``tiles`` played in the current trick."""
    led = state.current.led
    if led is None:  # the lead itself: it wins the trick it opens
        led = state.table[tiles[0]].leads
    return state.winner_index(tiles, led)


def _winner_with(state: PlayState, tile: Tile) -> int:
    """The position in the trick (from 0) that would win with ``tile`` played next."""
    return _winner_index(state, [t for _, t in state.current.plays] + [tile])


def _power(state: PlayState, t: Tile) -> tuple[int, int]:
    """How high ``t`` stands in the current trick: trumps above the led suit."""
    f = state.table[t]
    if f.trump:
        return 1, f.rank_in[TRUMP_SUIT]
    led = state.current.led
    return 0, f.rank_in.get(led if led is not None else f.leads, -1)


def _low(t: Tile) -> tuple[int, int]:
    return count_value(t), t.pips


def choose_play(situation: Situation) -> Play:
    """The rule bot's play (see the module text)."""
    plays = [a for a in situation.legal if isinstance(a, Play)]
    natural = [p for p in plays if p.led is None] or plays
    state = play_state(situation)
    by_tile = {p.tile: p for p in natural}
    tiles = list(by_tile)
    special = state.contract.special
    if special == "sevens":
        return by_tile[min(tiles, key=lambda t: (abs(t.pips - 7), count_value(t), t.pips))]
    leading = not state.current.plays
    if special == "nello":
        if leading:
            return by_tile[min(tiles, key=lambda t: (t.pips, t.index))]
        n = len(state.current.plays)
        losing = [t for t in tiles if _winner_with(state, t) != n]
        if losing:
            return by_tile[max(losing, key=lambda t: (_power(state, t), t.pips))]
        return by_tile[min(tiles, key=lambda t: (_power(state, t), t.pips))]
    if leading:
        return by_tile[_lead(state, situation.seat, tiles)]
    return by_tile[_follow(state, situation.seat, tiles)]


def _lead(state: PlayState, seat: Seat, tiles: list[Tile]) -> Tile:
    table = state.table
    mine = [t for t in tiles if table[t].trump]
    bidders = seat in (state.contract.bidder, partner(state.contract.bidder))
    if mine and bidders:
        out = [t for t in TILES if table[t].trump and t not in state.played]
        top = max(out, key=lambda t: table[t].rank_in[TRUMP_SUIT])
        if top in mine:
            return top
    doubles = [t for t in tiles if t.is_double and not table[t].trump]
    if doubles:
        return max(doubles, key=lambda t: t.pips)
    return min(tiles, key=lambda t: (_low(t), t.index))


def _follow(state: PlayState, seat: Seat, tiles: list[Tile]) -> Tile:
    plays = state.current.plays
    n = len(plays)
    last = n == state.trick_size - 1
    leader_now = plays[_current_winner(state)][0]
    if leader_now == partner(seat) and last:
        return max(tiles, key=lambda t: (count_value(t), -t.pips, t.index))
    winning = [t for t in tiles if _winner_with(state, t) == n]
    if winning and leader_now != partner(seat):
        pick = min if last else max
        return pick(winning, key=lambda t: (_power(state, t), t.index))
    return min(tiles, key=lambda t: (_low(t), t.index))


def _current_winner(state: PlayState) -> int:
    """The position (from 0) of the tile winning the trick on the table so far."""
    return _winner_index(state, [t for _, t in state.current.plays])


class RuleBot:
    """The hand count and table rules of the module text; ``seed`` is kept for the
    protocol (the rule bot has no chance in it: the same situation, the same answer)."""

    name = "rule"
    #: What it honours (:mod:`texas42_log.engine.support`): every option; it answers
    #: from the legal actions the engine lists.
    support: ClassVar[Support] = Support("the rule bot")

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, situation: Situation) -> Action:
        if situation.kind == "call":
            tiles = own_tiles(situation)
            count, _ = hand_count(tiles, count_trumps(situation.rules))
            return choose_call(situation, count)
        if situation.kind == "declare":
            return choose_declaration(situation)
        return choose_play(situation)
