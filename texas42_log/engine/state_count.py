"""How many positions an exhaustive search would visit: :func:`count_states`, the
benchmark's yardstick for the reference solver's node counts (:mod:`.solver`). Pure.
"""

from __future__ import annotations

from .hand import TRICKS_PER_HAND, PlayState
from .search_tables import SEAT_INDEX
from .solver import DECLARED_LOW, Solver, bits_of
from .values import NotSolvable

__all__ = ["count_states"]


def count_states(state: PlayState) -> int:
    """The positions an exhaustive backward induction from ``state`` (at a trick's
    start) visits: every distinct reachable position with a play to make, to the end
    of all 7 tricks. For the benchmark's comparison with :attr:`Solver.nodes`.

    A position inside a trick is its trick's starting position plus the plays made
    in it, so the distinct positions are counted as the distinct trick boundaries,
    level by level, each with the plays that can follow it."""
    solver = Solver(state)
    solver._load(state)
    if state.current.plays:
        raise NotSolvable("count_states starts at the start of a trick")
    level = {(tuple(solver.hands), SEAT_INDEX[state.current.leader])}
    number = state.current.number
    total = 0
    while level and number <= TRICKS_PER_HAND:
        following: set[tuple[tuple[int, ...], int]] = set()
        for hands, leader in level:
            total += _subtree(solver, list(hands), leader, 0, -1, -1, -1, number, following)
        level = following
        number += 1
    return total


def _subtree(
    solver: Solver,
    hands: list[int],
    seat: int,
    k: int,
    led: int,
    win_seat: int,
    win_key: int,
    number: int,
    out: set[tuple[tuple[int, ...], int]],
) -> int:
    """The positions of one trick from ``k`` plays in (this one included); the
    boundaries after it go to ``out``."""
    if k == solver.size:
        out.add((tuple(hands), win_seat))
        return 0
    count = 1
    hand = hands[seat]
    codes = solver._lead_codes(hand, number) if k == 0 else bits_of(solver._legal(hand, led))
    for code in codes:
        i = code & 31
        lead = led if k else (solver.low[i] if code & DECLARED_LOW else solver.leads[i])
        key = solver.key[lead][i]
        ws, wk = (seat, key) if key > win_key else (win_seat, win_key)
        hands[seat] ^= 1 << i
        count += _subtree(solver, hands, solver.next_of[seat], k + 1, lead, ws, wk, number, out)
        hands[seat] ^= 1 << i
    return count
