"""The open-hand solver (texas42_log.engine.solver) against a plain minimax, and its own
consistency.

The reference below knows nothing of the solver: it plays every legal tile through
the engine's own PlayState (checked plays, R13–R21) to the end of all 7 tricks and
takes the best for the side to move — no pruning, no table, no ordering.
"""

from __future__ import annotations

import random

import pytest

from texas42_log.engine.auction import BidKind, Contract
from texas42_log.engine.hand import PlayState
from texas42_log.engine.rules import Rules
from texas42_log.engine.seats import Seat, team_of
from texas42_log.engine.solver import Solver
from texas42_log.engine.state_count import count_states
from texas42_log.engine.tiles import TILES, Tile
from texas42_log.engine.trumps import Trump
from texas42_log.engine.values import NotSolvable, makeable

# (name, rules, contract, trump): every trump choice under a point contract, an
# all-tricks contract, Nel-O under each place of the doubles, Sevens, the doubles
# a suit of their own, and declared leads.
SETTINGS: list[tuple[str, Rules, Contract, Trump]] = [
    *[(f"trump {t.value}", Rules(), Contract("A", BidKind.POINTS, 30), t) for t in Trump],
    ("all tricks", Rules(), Contract("B", BidKind.MARKS, 2), Trump.SIXES),
    *[
        (
            f"nello {d}",
            Rules(nello=True, nello_doubles=d),
            Contract("A", BidKind.MARKS, 2, "nello"),
            Trump.NO_TRUMP,
        )
        for d in ("own-suit", "low", "high")
    ],
    ("sevens", Rules(sevens=True), Contract("D", BidKind.MARKS, 1, "sevens"), Trump.NO_TRUMP),
    ("doubles own suit", Rules(doubles="own-suit"), Contract("C", BidKind.POINTS, 34), Trump.FIVES),
    (
        "declared leads",
        Rules(declared_lead="always"),
        Contract("A", BidKind.POINTS, 31),
        Trump.THREES,
    ),
    (
        "declared first lead",
        Rules(declared_lead="first-trick"),
        Contract("B", BidKind.POINTS, 30),
        Trump.NO_TRUMP,
    ),
    (
        "no-trump doubles low",
        Rules(no_trump_doubles="low"),
        Contract("C", BidKind.POINTS, 32),
        Trump.NO_TRUMP,
    ),
    ("plunge", Rules(plunge=True), Contract("A", BidKind.MARKS, 4, "plunge"), Trump.DOUBLES),
]


def _deal(rng: random.Random) -> dict[Seat, set[Tile]]:
    tiles = list(TILES)
    rng.shuffle(tiles)
    return {s: set(tiles[i * 7 : (i + 1) * 7]) for i, s in enumerate(("A", "B", "C", "D"))}


def _moves(st: PlayState) -> list[tuple[Tile, int | None]]:
    seat = st.to_play
    assert seat is not None
    out: list[tuple[Tile, int | None]] = [(t, None) for t in st.legal_tiles(seat)]
    rule = st.rules.declared_lead
    if not st.current.plays and (
        rule == "always" or (rule == "first-trick" and st.current.number == 1)
    ):
        for t in sorted(st.known[seat]):
            try:
                st.check(seat, t, t.low)
            except Exception:
                continue
            out.append((t, t.low))
    return out


def minimax(st: PlayState) -> int:
    """The bidders' hand points after all 7 tricks, best play on both sides, by brute force."""
    if st.over:
        return st.points[team_of(st.contract.bidder)]
    seat = st.to_play
    assert seat is not None
    values = []
    for t, led in _moves(st):
        child = st.copy()
        child.play(seat, t, led)
        values.append(minimax(child))
    maximiser = (team_of(seat) == team_of(st.contract.bidder)) != (st.contract.special == "nello")
    return max(values) if maximiser else min(values)


def position(
    rng: random.Random, rules: Rules, contract: Contract, trump: Trump, tricks_left: int
) -> PlayState:
    """A random moment of a random deal with ``tricks_left`` tricks (the one in play
    included) still to finish, after random legal plays; every trick played out."""
    st = PlayState(rules.with_options(hand_end="all-tricks"), contract, trump, _deal(rng))
    stop_trick = 8 - tricks_left
    stop_in = rng.randrange(st.trick_size)
    return play_to(rng, st, stop_trick, stop_in)


def play_to(rng: random.Random, st: PlayState, trick: int, into: int) -> PlayState:
    """``st`` played on at random (legal plays only) to trick ``trick``, ``into`` plays in."""
    while not (st.current.number == trick and len(st.current.plays) == into):
        seat = st.to_play
        assert seat is not None
        t, led = rng.choice(_moves(st))
        st.play(seat, t, led)
    return st


@pytest.mark.parametrize("name,rules,contract,trump", SETTINGS, ids=[s[0] for s in SETTINGS])
def test_the_solver_agrees_with_plain_minimax(
    name: str, rules: Rules, contract: Contract, trump: Trump
) -> None:
    """Thousands of random positions in all (18 settings × 150), up to 3 tricks left."""
    rng = random.Random(f"solver:{name}")
    for n in range(150):
        st = position(rng, rules, contract, trump, 1 + n % 3)
        expected = minimax(st)
        solver = Solver(st)
        assert solver.value(st) == expected, (name, n)
        # Every alternative too, each against the minimax of the position after it.
        seat = st.to_play
        assert seat is not None
        for (t, led), v in solver.play_values(st).items():
            child = st.copy()
            child.play(seat, t, led)
            assert v == minimax(child), (name, n, str(t), led)


@pytest.mark.parametrize("seed", range(6))
def test_values_are_consistent_along_a_whole_hand(seed: int) -> None:
    """From the first lead: a position's value is its best play's, no play is worth
    more to the side to move, and along the best line the value never changes."""
    rng = random.Random(f"consistent:{seed}")
    name, rules, contract, trump = SETTINGS[seed * 3 % len(SETTINGS)]
    st = PlayState(rules.with_options(hand_end="all-tricks"), contract, trump, _deal(rng))
    solver = Solver(st)
    start = solver.value(st)
    while not st.over:
        seat = st.to_play
        assert seat is not None
        values = solver.play_values(st)
        maximiser = (team_of(seat) == team_of(contract.bidder)) != (contract.special == "nello")
        best = max(values.values()) if maximiser else min(values.values())
        assert best == solver.value(st) == start, name
        (t, led) = next(m for m, v in values.items() if v == best)
        st.play(seat, t, led)
    assert st.points[team_of(contract.bidder)] == start, name


def test_the_value_decides_whether_the_contract_can_be_made() -> None:
    rng = random.Random("makeable")
    for name, rules, contract, trump in SETTINGS:
        st = position(rng, rules, contract, trump, 2)
        v = Solver(st).value(st)
        expected = minimax(st)
        assert makeable(contract, v, total=42) == makeable(contract, expected, total=42), name
    points = Contract("A", BidKind.POINTS, 30)
    assert makeable(points, 30, total=42) and not makeable(points, 29, total=42)
    marks = Contract("A", BidKind.MARKS, 2)
    assert makeable(marks, 42, total=42) and not makeable(marks, 41, total=42)
    # An all-tricks contract needs the count's every point, whatever the count holds.
    assert makeable(marks, 47, total=47) and not makeable(marks, 42, total=47)
    nello = Contract("A", BidKind.MARKS, 2, "nello")
    assert makeable(nello, 0, total=42) and not makeable(nello, 1, total=42)


def test_an_unknown_tile_or_a_finished_hand_cannot_be_solved() -> None:
    deal = _deal(random.Random(1))
    st = PlayState(Rules(), Contract("A", BidKind.POINTS, 30), Trump.SIXES, deal, {"B": 1})
    with pytest.raises(NotSolvable, match="not known"):
        Solver(st)
    st = position(random.Random(2), Rules(), Contract("A", BidKind.POINTS, 30), Trump.SIXES, 1)
    while not st.over:
        seat = st.to_play
        assert seat is not None
        st.play(seat, st.legal_tiles(seat)[0])
    with pytest.raises(NotSolvable, match="over"):
        Solver(st).play_values(st)


def test_the_exhaustive_count_matches_a_plain_enumeration() -> None:
    """count_states (the benchmark's comparison) against a direct walk of every
    reachable position, on a 2-trick ending."""
    rng = random.Random("count")
    st = position(rng, Rules(), Contract("A", BidKind.POINTS, 30), Trump.FIVES, 3)
    while st.current.plays:
        seat = st.to_play
        assert seat is not None
        st.play(seat, st.legal_tiles(seat)[0])
    seen: set[tuple[object, ...]] = set()

    def walk(s: PlayState) -> None:
        key = (
            tuple(frozenset(s.known[x]) for x in "ABCD"),
            s.current.leader,
            tuple(s.current.plays),
        )
        if key in seen:
            return
        seen.add(key)
        if s.over:
            return
        seat = s.to_play
        assert seat is not None
        for t in s.legal_tiles(seat):
            c = s.copy()
            c.play(seat, t)
            walk(c)

    walk(st)
    with_a_play_to_make = [k for k in seen if any(k[0])]
    assert count_states(st) == len(with_a_play_to_make) > 20


def test_a_solver_refuses_a_moment_of_another_deal() -> None:
    """Its table's keys hold only the tiles left: they mean something for one deal only."""
    a = PlayState(Rules(), Contract("A", BidKind.POINTS, 30), Trump.SIXES, _deal(random.Random(5)))
    b = PlayState(Rules(), Contract("A", BidKind.POINTS, 30), Trump.SIXES, _deal(random.Random(6)))
    solver = Solver(a)
    with pytest.raises(NotSolvable, match="another deal"):
        solver.value(b)
