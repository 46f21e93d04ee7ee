"""What the open-hand search reads of the rules for one hand: :class:`SearchTables`.

The reference :class:`~texas42_log.engine.solver.Solver` and the native search
(:mod:`texas42_log.engine.native`) are both built from these tables, so the two
cannot read the rules differently. Pure, no I/O; compiled with the replay core
(setup.py).
"""

from __future__ import annotations

from typing import Final

from .auction import Contract
from .hand import TRICKS_PER_HAND, PlayState
from .rules import Rules
from .seats import SEATS, Seat, team_of
from .tiles import TILES

__all__ = ["SearchTables", "SEAT_INDEX"]

SEAT_INDEX: Final[dict[Seat, int]] = {s: i for i, s in enumerate(SEATS)}


class SearchTables:
    """What the search reads of the rules for one hand under one suit system: who
    follows what, each tile's rank in each led suit, the playing order, who plays for
    high values. The reference :class:`Solver` and the native search
    (:mod:`texas42_log.engine.native`) are both built from these, so the two cannot
    read the rules differently."""

    def __init__(self, state: PlayState) -> None:
        contract = state.contract
        self.contract: Contract = contract
        self.rules: Rules = state.rules
        # The count (R6, :mod:`.count`): each tile's, trick n's (trick_points[n]), the
        # tricks' from n on (after[n]), the counting tiles by value, the hand's total.
        count = state.count
        self.counts: list[int] = list(count.tiles)
        self.trick_points: list[int] = [0, *count.tricks, 0]
        self.after: list[int] = [count.from_trick(n) for n in range(TRICKS_PER_HAND + 2)]
        self.by_value: list[tuple[int, int]] = list(count.by_value())
        self.total: int = count.total
        sevens = contract.special == "sevens"
        table = state.table
        win = state.win_keys
        # follow[s]: the tiles that follow suit s (R15); key[s][i]: tile i's rank in a
        # trick led in s (R17; -1 cannot win); in Sevens the closeness to 7 instead.
        self.follow: list[int] = [
            sum(1 << i for i, t in enumerate(TILES) if s in table[t].follows) for s in range(9)
        ]
        self.leads: list[int] = [table[t].leads for t in TILES]
        #: Sevens with sevens_play "closest": by_distance[d], the tiles d pips from 7.
        self.closest: bool = sevens and self.rules.sevens_play == "closest"
        self.by_distance: list[int] = [
            sum(1 << i for i, t in enumerate(TILES) if abs(t.pips - 7) == d) for d in range(8)
        ]
        if sevens:
            closeness = [10 - abs(t.pips - 7) for t in TILES]
            self.key: list[list[int]] = [list(closeness) for _ in range(9)]
        else:
            self.key = [[win[s].get(t, -1) for t in TILES] for s in range(9)]
        # A tile a leader may declare to lead its lower number (option declared_lead).
        self.declarable: int = sum(
            1 << i for i, t in enumerate(TILES) if not t.is_double and not table[t].trump
        )
        self.declared_lead: str = self.rules.declared_lead
        # Tiles of one suit only (trumps; doubles in a suit of their own), by rank, high
        # first: two of them in one hand with no tile left between them are the same play.
        self.groups: list[list[int]] = []
        if not sevens:
            for suit in (7, 8):
                members = [i for i, t in enumerate(TILES) if table[t].follows == frozenset({suit})]
                # By the order that wins a trick of the suit (the rules' trick phase).
                wins = win[suit]
                members.sort(key=lambda i: -wins.get(TILES[i], -1))
                if len(members) > 1:
                    self.groups.append(members)
        self.group_mask: int = sum(1 << i for g in self.groups for i in g)
        self.low: list[int] = [t.low for t in TILES]
        seats = state.seats
        self.size: int = len(seats)
        order = [SEAT_INDEX[s] for s in seats]
        #: next_of[seat]: the seat that plays after it (R21; Nel-O's partner skipped).
        self.next_of: list[int] = [0, 0, 0, 0]
        for k, s in enumerate(order):
            self.next_of[s] = order[(k + 1) % len(order)]
        bidders = team_of(contract.bidder)
        self.bidder_seat: list[bool] = [team_of(s) == bidders for s in SEATS]
        # Who maximises the bidders' points: the bidders, except in Nel-O.
        nello = contract.special == "nello"
        self.maximiser: list[bool] = [b != nello for b in self.bidder_seat]
