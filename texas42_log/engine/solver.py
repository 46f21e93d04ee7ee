"""Open-hand analysis: the exact value of a moment of a hand when every tile is known.

The **value** of a position is the hand points (R6) the bidders' team holds at
the end of **all 7 tricks** when both sides play their best from there: the
bidders maximise it and the defenders minimise it — except in Nel-O, where the
bidder must lose every trick and so minimises it while the defenders maximise.
The value counts every trick whatever the early end (R22) would have cut off: an
early end changes when the contract is decided, never whether it can be made, and
a value of all 7 tricks stays comparable from one play to the next.

Whether the contract can still be made follows from the value
(:func:`.values.makeable`, beside the other words every search and its users share).

The search is exact: alpha-beta over the plays with a transposition table at the
trick boundaries, keyed by the tiles each seat still holds and the leader — the
points still to come depend on nothing else, so one table serves every position
of one hand under one suit system, and analysing every play of a hand reuses it.
Move ordering only changes how fast the bounds close; no play is ever left
unexamined on a guess. :class:`Solver` counts the nodes it visits;
:func:`.state_count.count_states` counts the positions an exhaustive backward
induction of the same hand would visit, for the benchmark's comparison.

Pure, no I/O; compiled with the replay core (setup.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .auction import Contract
from .hand import TRICKS_PER_HAND, PlayState
from .rules import Rules
from .search_tables import SEAT_INDEX, SearchTables
from .seats import SEATS, partner, team_of
from .support import Support
from .tiles import TILES
from .values import Move, NotSolvable

__all__ = ["Solver", "SearchTables", "RULES_SUPPORT", "trick_facts"]

#: What the reference solver honours (:mod:`.support`): every option; it reads the
#: rules only through :class:`SearchTables` and the state's count and trick rules.
RULES_SUPPORT: Final = Support("the reference solver")


DECLARED_LOW: Final = 32  # a move code's flag: the leader declared the tile's lower number
_INF: Final = 1000


class Solver:
    """Exact open-hand values for the positions of one hand under one suit system.

    Build it from any moment of the hand (a :class:`PlayState` with every tile
    known); :meth:`value` and :meth:`play_values` then take any later moment of the
    same hand, sharing one transposition table.
    """

    def __init__(self, state: PlayState) -> None:
        if any(state.unknown[s] for s in SEATS):
            raise NotSolvable("a tile of the deal is not known")
        RULES_SUPPORT.check(state.rules)
        tables = SearchTables(state)
        self.contract: Contract = tables.contract
        self.rules: Rules = tables.rules
        self.counts: list[int] = tables.counts
        self.trick_points: list[int] = tables.trick_points
        self.after: list[int] = tables.after
        self.by_value: list[tuple[int, int]] = tables.by_value
        self.total: int = tables.total
        self.follow: list[int] = tables.follow
        self.leads: list[int] = tables.leads
        self.closest: bool = tables.closest
        self.by_distance: list[int] = tables.by_distance
        self.key: list[list[int]] = tables.key
        self.declarable: int = tables.declarable
        self.declared_lead: str = tables.declared_lead
        self.groups: list[list[int]] = tables.groups
        self.group_mask: int = tables.group_mask
        self.low: list[int] = tables.low
        self.size: int = tables.size
        self.next_of: list[int] = tables.next_of
        self.bidder_seat: list[bool] = tables.bidder_seat
        self.maximiser: list[bool] = tables.maximiser
        self.hands: list[int] = [0, 0, 0, 0]
        #: Each seat's dealt tiles (held or played): the table's keys rely on them.
        self.dealt: list[int] = [0, 0, 0, 0]
        for seat_name in SEATS:
            for t in state.known[seat_name]:
                self.dealt[SEAT_INDEX[seat_name]] |= 1 << t.index
        for t, (_, by) in state.played.items():
            self.dealt[SEAT_INDEX[by]] |= 1 << t.index
        #: key of a trick boundary → lo * 64 + hi (bounds on the points still to come).
        self.table: dict[int, int] = {}
        #: key of a trick boundary → the lead that last proved best there.
        self.best_lead: dict[int, int] = {}
        self.nodes: int = 0

    # -- the public entry points ------------------------------------------------

    def value(self, state: PlayState, guess: int | None = None) -> int:
        """The bidders' hand points after all 7 tricks with best play from ``state``.

        ``guess`` (a value close to the answer, such as the value of the moment before)
        only makes the search faster."""
        self._load(state)
        base = self._bidders_so_far(state)
        return base + self._exact(
            state, -1, None if guess is None else guess - base, 0, self.total - base
        )

    def play_values(self, state: PlayState, value: int | None = None) -> dict[Move, int]:
        """The value after each legal play at ``state`` (the choices of the seat to play).

        ``value``, when known, is the value of ``state`` itself (as :meth:`value` gives
        it): no play is worth more than it to the seat to play, and so the search
        for each play is bounded by it."""
        seat = state.to_play
        if seat is None:
            raise NotSolvable("the hand is over: there is no play to value")
        if value is None:
            value = self.value(state)
        self._load(state)
        base = self._bidders_so_far(state)
        own = value - base
        maximiser = self.maximiser[SEAT_INDEX[seat]]
        out: dict[Move, int] = {}
        for code in self._moves(state):
            i = code & 31
            led: int | None = self.low[i] if code & DECLARED_LOW else None
            if maximiser:
                v = self._exact(state, code, own, 0, own)
            else:
                v = self._exact(state, code, own, own, self.total)
            out[(TILES[i], led)] = base + v
        return out

    def reaches(self, state: PlayState, threshold: int) -> bool:
        """Whether the bidders' hand points after all 7 tricks with best play from
        ``state`` reach ``threshold``: one null-window search ("at least x?"), cheaper
        than :meth:`value` when only made-or-not is asked (:func:`goal`)."""
        self._load(state)
        need = threshold - self._bidders_so_far(state)
        if need <= 0:
            return True
        if need > self.total:
            return False
        return self._from_state(state, need - 1, need) >= need

    def levels(self, state: PlayState, levels: Sequence[int]) -> int:
        """How many of the ascending point ``levels`` the bidders' hand points after all
        7 tricks reach with best play from ``state``. Asked as the native search asks
        them (the first level, the last, then halves of what is left); each null window
        fails soft, so its answer bounds the value and settles every level on its side."""
        self._load(state)
        so_far = self._bidders_so_far(state)
        lo, hi = so_far, self.total  # the value lies in lo..hi
        asked = 0
        while True:
            open_ = [t for t in levels if lo < t <= hi]
            if not open_:
                break
            t = (
                open_[0]
                if asked == 0
                else open_[-1]
                if asked == 1
                else open_[(len(open_) - 1) // 2]
            )
            need = t - so_far
            v = so_far + self._from_state(state, need - 1, need)
            if v >= t:
                lo = max(lo, v)
            else:
                hi = min(hi, v)
            asked += 1
        return sum(1 for t in levels if t <= lo)

    def _exact(
        self,
        state: PlayState,
        code: int,
        guess: int | None,
        lo: int,
        hi: int,
    ) -> int:
        """The exact points still to come at ``state`` (after the play ``code``, unless
        it is -1), known to lie in ``lo``–``hi``, by null-window searches that each ask
        "at least x?" and share the table: MTD(f) from ``guess`` (Plaat et al.), a
        bisection without one."""
        g = -1 if guess is None else min(max(guess, lo), hi)
        while lo < hi:
            if g < 0:
                mid = (lo + hi + 1) // 2
            else:
                mid = g + 1 if g == lo else g
                mid = min(max(mid, lo + 1), hi)
            v = self._window(state, code, mid - 1, mid)
            if v >= mid:
                lo = v
            else:
                hi = v
            if g >= 0:
                g = v
        return lo

    def _window(self, state: PlayState, code: int, alpha: int, beta: int) -> int:
        if code < 0:
            return self._from_state(state, alpha, beta)
        seat = state.to_play
        assert seat is not None
        return self._after(state, SEAT_INDEX[seat], code, alpha, beta)

    # -- loading a position -----------------------------------------------------

    def _load(self, state: PlayState) -> None:
        if any(state.unknown[s] for s in SEATS):
            raise NotSolvable("a tile of the deal is not known")
        for s in SEATS:
            mask = 0
            for t in state.known[s]:
                mask |= 1 << t.index
            if mask & ~self.dealt[SEAT_INDEX[s]]:
                raise NotSolvable("a solver serves the moments of one hand: this is another deal")
            self.hands[SEAT_INDEX[s]] = mask
        if self.contract.special == "nello":
            self.hands[SEAT_INDEX[partner(self.contract.bidder)]] = 0

    def _bidders_so_far(self, state: PlayState) -> int:
        return state.points[team_of(self.contract.bidder)]

    def _trick_facts(self, state: PlayState) -> tuple[int, int, int, int, int, int]:
        return trick_facts(self.key, self.counts, state)

    def _from_state(self, state: PlayState, alpha: int, beta: int) -> int:
        trick = state.current
        if len(trick.plays) == self.size:
            # The hand ended early (R22) after this trick: play on from its winner.
            assert trick.winner is not None
            return self._trick(SEAT_INDEX[trick.winner], trick.number + 1, alpha, beta)
        number, leader, led, win_seat, win_key, pts = self._trick_facts(state)
        k = len(state.current.plays)
        if k == 0:
            return self._trick(leader, number, alpha, beta)
        seat = SEAT_INDEX[state.to_play or "A"]
        return self._ply(seat, k, number, led, win_seat, win_key, pts, alpha, beta)

    def _moves(self, state: PlayState) -> list[int]:
        number, leader, led, _, _, _ = self._trick_facts(state)
        seat = SEAT_INDEX[state.to_play or "A"]
        hand = self.hands[seat]
        if led < 0:
            return self._lead_codes(hand, number)
        return bits_of(self._legal(hand, led))

    def _legal(self, hand: int, led: int) -> int:
        """The tiles of ``hand`` a follower may play: followers of ``led`` if any (R16), or in
        Sevens played closest, the tiles nearest 7."""
        if self.closest:
            return self._nearest(hand)
        follow = hand & self.follow[led]
        return follow or hand

    def _nearest(self, hand: int) -> int:
        for mask in self.by_distance:
            if hand & mask:
                return hand & mask
        return hand

    def _lead_codes(self, hand: int, number: int) -> list[int]:
        if self.closest:
            hand = self._nearest(hand)
        codes = bits_of(hand)
        dl = self.declared_lead
        if dl == "always" or (dl == "first-trick" and number == 1):
            codes += [i | DECLARED_LOW for i in bits_of(hand & self.declarable)]
        return codes

    def _after(self, state: PlayState, s: int, code: int, alpha: int, beta: int) -> int:
        """The points still to come for the bidders after seat ``s`` plays ``code`` now."""
        number, leader, led, win_seat, win_key, pts = self._trick_facts(state)
        k = len(state.current.plays)
        i = code & 31
        if k == 0:
            led = self.low[i] if code & DECLARED_LOW else self.leads[i]
        key = self.key[led][i]
        if key > win_key:
            win_seat, win_key = s, key
        bit = 1 << i
        self.hands[s] ^= bit
        try:
            if k + 1 == self.size:
                won = self.bidder_seat[win_seat]
                gain = pts + self.counts[i] + self.trick_points[number] if won else 0
                return gain + self._trick(win_seat, number + 1, alpha - gain, beta - gain)
            return self._ply(
                self.next_of[s],
                k + 1,
                number,
                led,
                win_seat,
                win_key,
                pts + self.counts[i],
                alpha,
                beta,
            )
        finally:
            self.hands[s] ^= bit

    # -- the search -------------------------------------------------------------

    def _reduce(self, moves: int, keys: list[int], win_key: int) -> int:
        """``moves`` less the tiles that are the same play as a higher one kept: same
        suit (the only one each belongs to), same count, no tile left in any hand
        ranked between them, and the same against the trick's winner so far."""
        if (moves & self.group_mask).bit_count() < 2:
            return moves
        hands = self.hands
        remaining = hands[0] | hands[1] | hands[2] | hands[3]
        for group in self.groups:
            prev = -1
            for i in group:
                if not remaining >> i & 1:
                    continue
                if (
                    prev >= 0
                    and moves >> i & 1
                    and moves >> prev & 1
                    and self.counts[i] == self.counts[prev]
                    and (keys[i] > win_key) == (keys[prev] > win_key)
                ):
                    moves &= ~(1 << i)
                    continue  # prev stays the representative of the run
                prev = i
        return moves

    def _trick(self, leader: int, number: int, alpha: int, beta: int) -> int:
        """The bidders' points still to come from the start of trick ``number``, led by
        ``leader``."""
        hands = self.hands
        if number > TRICKS_PER_HAND or hands[leader] == 0:
            return 0
        remaining = hands[0] | hands[1] | hands[2] | hands[3]
        top = self.after[number]
        for points, mask in self.by_value:
            top += points * (remaining & mask).bit_count()
        if number == TRICKS_PER_HAND:
            # The last trick: every seat has one tile left, so it plays itself.
            self.nodes += 1
            tile = hands[leader].bit_length() - 1
            v = self._last_trick(leader, top, self.leads[tile])
            if self.declared_lead == "always" and self.declarable >> tile & 1:
                # Its leader may still say which of its numbers the last tile leads.
                w = self._last_trick(leader, top, self.low[tile])
                v = max(v, w) if self.maximiser[leader] else min(v, w)
            return v
        # Each tile stays with the seat it was dealt to, so the tiles left and the
        # leader say everything about a trick's start: 30 bits, a machine integer.
        key = remaining | leader << 28
        lo, hi = 0, top
        entry = self.table.get(key)
        if entry is not None:
            lo, hi = entry >> 6, entry & 63
        if lo == hi or lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        a0 = alpha if alpha > lo else lo
        b0 = beta if beta < hi else hi
        a, b = a0, b0
        self.nodes += 1
        maxing = self.maximiser[leader]
        best = -_INF if maxing else _INF
        best_code = -1
        codes = self._lead_codes(self._reduce(hands[leader], self.key[7], _INF), number)
        # Leads in order of their rank in the suit they lead: trumps and doubles first.
        ranked = [(self._lead_rank(c) + 2) * 64 + c for c in codes]
        ranked.sort(reverse=True)
        codes = [x & 63 for x in ranked]
        first = self.best_lead.get(key)
        if first is not None and first in codes:
            codes.remove(first)
            codes.insert(0, first)
        nxt = self.next_of[leader]
        for code in codes:
            i = code & 31
            led = self.low[i] if code & DECLARED_LOW else self.leads[i]
            bit = 1 << i
            hands[leader] ^= bit
            v = self._ply(nxt, 1, number, led, leader, self.key[led][i], self.counts[i], a, b)
            hands[leader] ^= bit
            if maxing:
                if v > best:
                    best, best_code = v, code
                    if v > a:
                        a = v
            elif v < best:
                best, best_code = v, code
                if v < b:
                    b = v
            if a >= b:
                break
        self.best_lead[key] = best_code
        # Fail-soft: below the window the result bounds the value from above, above
        # it from below, inside it the value is exact.
        if best <= a0:
            hi = best
        elif best >= b0:
            lo = best
        else:
            lo = hi = best
        self.table[key] = lo << 6 | hi
        return best

    def _ply(
        self,
        seat: int,
        k: int,
        number: int,
        led: int,
        win_seat: int,
        win_key: int,
        pts: int,
        alpha: int,
        beta: int,
    ) -> int:
        """The points still to come, ``k`` tiles into trick ``number``, ``seat`` to play."""
        hands = self.hands
        hand = hands[seat]
        self.nodes += 1
        keys = self.key[led]
        if self.closest:
            legal = self._nearest(hand)
        else:  # R16, inline: this is the search's innermost step
            legal = hand & self.follow[led] or hand
        moves = self._reduce(legal, keys, win_key)
        maxing = self.maximiser[seat]
        last = k + 1 == self.size
        nxt = self.next_of[seat]
        best = -_INF if maxing else _INF
        ours = self.bidder_seat[win_seat] == self.bidder_seat[seat]
        # Move order: when the seat's side is winning the trick, its count first;
        # otherwise the tiles that take the trick (the lowest such first), then the rest.
        ordered = _ordered(moves, keys, self.counts, win_key, ours)
        for i in ordered:
            bit = 1 << i
            key = keys[i]
            ws, wk = (seat, key) if key > win_key else (win_seat, win_key)
            p = pts + self.counts[i]
            hands[seat] = hand ^ bit
            if last:
                gain = p + self.trick_points[number] if self.bidder_seat[ws] else 0
                v = gain + self._trick(ws, number + 1, alpha - gain, beta - gain)
            else:
                v = self._ply(nxt, k + 1, number, led, ws, wk, p, alpha, beta)
            hands[seat] = hand
            if maxing:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            elif v < best:
                best = v
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        return best

    def _lead_rank(self, code: int) -> int:
        i = code & 31
        return self.key[self.low[i] if code & DECLARED_LOW else self.leads[i]][i]

    def _last_trick(self, leader: int, top: int, led: int) -> int:
        hands = self.hands
        seat = leader
        first = hands[seat].bit_length() - 1
        keys = self.key[led]
        win_seat, win_key = seat, keys[first]
        for _ in range(self.size - 1):
            seat = self.next_of[seat]
            i = hands[seat].bit_length() - 1
            if keys[i] > win_key:
                win_seat, win_key = seat, keys[i]
        return top if self.bidder_seat[win_seat] else 0


def trick_facts(
    key: list[list[int]], counts: list[int], state: PlayState
) -> tuple[int, int, int, int, int, int]:
    """(trick number, leader, led suit, winning seat, winning key, count so far) of the
    trick in play, by the keys and counts of :class:`SearchTables` (seats by index, -1
    for none)."""
    trick = state.current
    leader = SEAT_INDEX[trick.leader]
    if not trick.plays:
        return trick.number, leader, -1, -1, -1, 0
    led = trick.led if trick.led is not None else 0
    keys = key[led]
    win_seat, win_key, pts = -1, -1, 0
    for seat, t in trick.plays:
        k = keys[t.index]
        if k > win_key:
            win_seat, win_key = SEAT_INDEX[seat], k
        pts += counts[t.index]
    return trick.number, leader, led, win_seat, win_key, pts


def bits_of(mask: int) -> list[int]:
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _ordered(moves: int, keys: list[int], counts: list[int], win_key: int, ours: bool) -> list[int]:
    """The order to try a follower's tiles in: when its side is winning the trick, the
    count first (most first); otherwise the tiles that take the trick, lowest first,
    then the rest, least count first. Only speed depends on it."""
    tiles = bits_of(moves)
    if len(tiles) < 2:
        return tiles
    scored: list[int] = []
    for i in tiles:
        if ours:
            score = 64 - counts[i]
        elif keys[i] > win_key:
            score = keys[i] - 200
        else:
            score = counts[i]
        scored.append(score * 32 + i)
    scored.sort()
    return [x & 31 for x in scored]
