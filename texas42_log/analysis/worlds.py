"""Worlds from a view: the deals one seat cannot tell apart from the one in play.

A seat at the table knows its own tiles, every tile played in the hand and who
played it (each trick is public with its players while it is on the table,
R25; a player remembers what it saw, even after the trick is collected and
shown by team only, R28), how many tiles each seat still holds, and the rules
of the game. From the plays it also knows every suit a seat has shown it cannot
follow: a seat that did not follow the led suit holds no tile that follows it,
then or later (R15, R16) — under the hand's own suit system (the trump, where
the doubles stand, Nel-O and Sevens, a declared lead). A call can make a fact
public too: a Plunge (or Splash) caller holds at least the doubles the rules
ask for (options ``plunge_min_doubles``, ``splash_min_doubles``).

:class:`Knowledge` is that, built from the seat's own views of the hand
(:meth:`Knowledge.from_views`) and nothing else — never from the deal. A
**world** is a way to give the tiles the seat cannot see to the other seats
that agrees with all of it. :class:`Worlds` counts them exactly, draws them
**uniformly** (constructively: it counts the ways to complete a partial deal
and gives each tile to a seat in proportion to them, so no world is more likely
than another and none is drawn and thrown away), and lists them all
(:meth:`Worlds.all`). Nothing is read into why the others bid or played as they
did: every consistent world weighs the same.

Pure, no I/O.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from ..engine.auction import BidKind, Contract
from ..engine.hand import PlayState
from ..engine.rules import SPECIALS, Rules
from ..engine.seats import SEATS, Seat
from ..engine.tiles import TILE_BY_NAME, TILES, Tile
from ..engine.trumps import Trump

if TYPE_CHECKING:
    from ..views.model import View

__all__ = ["Knowledge", "Worlds", "World", "ENUMERATE_LIMIT", "draw_worlds"]

#: A world: the tiles each seat holds now (the observer's own included).
World = dict[Seat, frozenset[Tile]]

#: Every world is listed, not sampled, when there are at most this many (or at most
#: as many as were asked for): the values are then exact, with no sampling error.
ENUMERATE_LIMIT: Final = 256


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What one seat knows at one moment of the play (see the module text)."""

    rules: Rules
    seat: Seat
    contract: Contract
    trump: Trump
    #: A Nel-O declaration's doubles ("high", "low", "own-suit"), when it says.
    nello_doubles: str | None
    #: The seat's own tiles, not yet played.
    hand: frozenset[Tile]
    #: Every play of the hand so far, in order: (seat, tile, the suit its leader
    #: declared or None).
    plays: tuple[tuple[Seat, Tile, int | None], ...]

    @classmethod
    def from_views(cls, rules: Rules, views: Sequence[View]) -> Knowledge:
        """The knowledge of the seat whose views these are, at the last of them.

        ``views`` are that seat's views of one hand, in order, from the declaration
        on (:func:`texas42_log.views.visibility.hand_views` with the seat as observer): each
        trick was public while it lay on the table, so the plays come from the
        views' current tricks. A play no view shows is a :class:`ValueError`."""
        if not views:
            raise ValueError("no view: the knowledge of a seat is built from its views")
        last = views[-1]
        seat = last.observer
        if seat not in SEATS:
            raise ValueError(
                f"the views are for {seat!r}, not a seat: only a seat has a hand of its own"
            )
        c = last.contract
        if c is None or c.visibility is None:
            raise ValueError(
                "the views stop before the trump declaration: there is no play to know about"
            )
        seen: dict[tuple[int, int], tuple[Seat, Tile, int | None]] = {}
        for v in views:
            if v.observer != seat or v.hand != last.hand:
                raise ValueError("the views are not all of one seat in one hand")
            t = v.trick
            if t is None:
                continue
            for p in t.plays:
                seen[(t.number, p.order)] = (
                    p.seat,
                    TILE_BY_NAME[p.tile],
                    t.declared if p.order == 1 else None,
                )
        plays = tuple(seen[k] for k in sorted(seen))
        if len(plays) != last.play:
            raise ValueError(
                f"the views show {len(plays)} of the {last.play} plays so far: give the seat's "
                "view of every play"
            )
        special = c.special if c.special in SPECIALS else None
        contract = Contract(c.bidder, BidKind(c.kind), c.bid, special)  # type: ignore[arg-type]
        trump = Trump(c.trump) if c.trump is not None else Trump.NO_TRUMP
        hand = frozenset(TILE_BY_NAME[x] for x in last.hands.get(seat, ()))
        return cls(rules, seat, contract, trump, c.doubles, hand, plays)

    def state(self, world: World | None = None) -> PlayState:
        """The hand at this moment: with ``world``, every tile placed as it says;
        without, only the seat's own tiles known (the others counted, not named)."""
        dealt: dict[Seat, set[Tile]] = {s: set() for s in SEATS}
        for s, t, _ in self.plays:
            dealt[s].add(t)
        unknown = {s: 0 for s in SEATS}
        for s in SEATS:
            if world is not None:
                dealt[s] |= world[s]
            elif s == self.seat:
                dealt[s] |= self.hand
            else:
                unknown[s] = 7 - len(dealt[s])
        state = PlayState(
            self.rules,
            self.contract,
            self.trump,
            dealt,
            unknown,
            nello_doubles=self.nello_doubles,  # type: ignore[arg-type]
        )
        for s, t, led in self.plays:
            state.apply(s, t, led)
        return state


class Worlds:
    """Every world consistent with a seat's :class:`Knowledge`: counted, drawn, listed."""

    def __init__(self, knowledge: Knowledge) -> None:
        self.knowledge = knowledge
        state = knowledge.state()
        played = {t for _, t, _ in knowledge.plays}
        #: The tiles the seat cannot see: in the other hands now.
        self.unseen: tuple[Tile, ...] = tuple(
            t for t in TILES if t not in played and t not in knowledge.hand
        )
        #: The seats holding them, and how many each holds.
        self.seats: tuple[Seat, ...] = tuple(s for s in SEATS if s != knowledge.seat)
        self.holds: tuple[int, ...] = tuple(state.unknown[s] for s in self.seats)
        if sum(self.holds) != len(
            self.unseen
        ):  # pragma: no cover - a consistent view always adds up
            raise ValueError("the tile counts do not add up to the tiles not seen")
        #: Suits each other seat has shown it cannot follow.
        self.voids: dict[Seat, set[int]] = {s: set() for s in self.seats}
        table = state.table
        # Sevens played closest to 7 (option sevens_play): no suit is followed, so no void
        # shows; a seat that played a tile d pips from 7 held none nearer, then or since.
        closest = (
            knowledge.contract.special == "sevens" and knowledge.rules.sevens_play == "closest"
        )
        trick_led: int | None = None
        size = state.trick_size
        for k, (s, t, led) in enumerate(knowledge.plays):
            if k % size == 0:
                trick_led = led if led is not None else table[t].leads
            elif (
                trick_led is not None
                and trick_led not in table[t].follows
                and s in self.voids
                and not closest
            ):
                self.voids[s].add(trick_led)
        #: How far from 7 each seat's farthest play was (Sevens played closest): it holds nothing
        #: nearer.
        self.nearest: dict[Seat, int] = {s: 0 for s in self.seats}
        if closest:
            for s, t, _ in knowledge.plays:
                if s in self.nearest:
                    self.nearest[s] = max(self.nearest[s], abs(t.pips - 7))
        #: allowed[i]: the seats (indices into ``seats``) that may hold unseen[i].
        self.allowed: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                j
                for j, s in enumerate(self.seats)
                if not (self.voids[s] & table[t].follows) and abs(t.pips - 7) >= self.nearest[s]
            )
            for t in self.unseen
        )
        # A Plunge or Splash caller's doubles (what the call makes public).
        self._need = 0
        self._caller = -1
        c = knowledge.contract
        if c.special in ("plunge", "splash") and c.bidder != knowledge.seat:
            need = (
                knowledge.rules.plunge_min_doubles
                if c.special == "plunge"
                else knowledge.rules.splash_min_doubles
            )
            shown = sum(1 for s, t, _ in knowledge.plays if s == c.bidder and t.is_double)
            self._need = max(0, need - shown)
            self._caller = self.seats.index(c.bidder)
        self._memo: dict[tuple[int, tuple[int, ...], int], int] = {}
        #: How many worlds there are.
        self.count: int = self._ways(0, self.holds, 0)

    # -- counting ---------------------------------------------------------------

    def _gain(self, i: int, j: int, d: int) -> int:
        """The caller's doubles counted (up to what is needed) after unseen[i] goes to seat j."""
        if j == self._caller and d < self._need and self.unseen[i].is_double:
            return d + 1
        return d

    def _ways(self, i: int, caps: tuple[int, ...], d: int) -> int:
        """The ways to give unseen[i:] to the seats with room ``caps``, the caller
        already holding ``d`` of the doubles it needs."""
        if i == len(self.unseen):
            return 1 if d >= self._need else 0
        key = (i, caps, d)
        got = self._memo.get(key)
        if got is not None:
            return got
        total = 0
        for j in self.allowed[i]:
            if caps[j]:
                total += self._ways(i + 1, _less(caps, j), self._gain(i, j, d))
        self._memo[key] = total
        return total

    # -- drawing and listing ----------------------------------------------------

    def sample(self, rng: random.Random) -> World:
        """One world, each with probability 1 / :attr:`count`."""
        if not self.count:
            raise ValueError("no deal agrees with what the seat has seen")
        caps, d = self.holds, 0
        given: list[list[Tile]] = [[] for _ in self.seats]
        for i, t in enumerate(self.unseen):
            choices = [
                (j, self._ways(i + 1, _less(caps, j), self._gain(i, j, d)))
                for j in self.allowed[i]
                if caps[j]
            ]
            r = rng.randrange(sum(w for _, w in choices))
            for j, w in choices:  # noqa: B007  (j: the choice drawn, used after the loop)
                if r < w:
                    break
                r -= w
            given[j].append(t)
            d = self._gain(i, j, d)
            caps = _less(caps, j)
        return self._world(given)

    def all(self) -> Iterator[World]:
        """Every world, in a fixed order."""
        given: list[list[Tile]] = [[] for _ in self.seats]

        def walk(i: int, caps: tuple[int, ...], d: int) -> Iterator[World]:
            if i == len(self.unseen):
                if d >= self._need:
                    yield self._world(given)
                return
            for j in self.allowed[i]:
                if caps[j]:
                    nxt, e = _less(caps, j), self._gain(i, j, d)
                    if self._ways(i + 1, nxt, e):
                        given[j].append(self.unseen[i])
                        yield from walk(i + 1, nxt, e)
                        given[j].pop()

        return walk(0, self.holds, 0)

    def _world(self, given: list[list[Tile]]) -> World:
        world: World = {s: frozenset(given[j]) for j, s in enumerate(self.seats)}
        world[self.knowledge.seat] = self.knowledge.hand
        return world


def _less(caps: tuple[int, ...], j: int) -> tuple[int, ...]:
    return caps[:j] + (caps[j] - 1,) + caps[j + 1 :]


def draw_worlds(worlds: Worlds, n: int, rng: random.Random) -> tuple[list[World], bool]:
    """``n`` worlds drawn uniformly (with replacement), or every world when there are
    at most ``max(n, ENUMERATE_LIMIT)``; and whether they are every world."""
    if worlds.count <= max(n, ENUMERATE_LIMIT):
        return list(worlds.all()), True
    return [worlds.sample(rng) for _ in range(n)], False
