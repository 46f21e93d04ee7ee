"""The open-hand search at native speed: the C search behind the reference's interface.

:class:`NativeSolver` answers exactly what :class:`texas42_log.engine.solver.Solver`
answers — :meth:`~NativeSolver.value`, :meth:`~NativeSolver.play_values`,
:meth:`~NativeSolver.reaches` — from the same
:class:`~texas42_log.engine.search_tables.SearchTables`,
with the search itself in C (``_native.c``): bitboards, a transposition table of
bounded size at the trick boundaries (:data:`TABLE_BITS`), the reference's move
ordering. The values are the reference's; only the node counts may differ.

:func:`solve_worlds` is the batch entry point: one call values a moment in many worlds
(deals), so Python is entered once per decision, not once per world.

Everything here turns a :class:`PlayState` into plain whole numbers — the setup
tuple, a position, four hands as bitmasks — which the C side checks again before it
searches (a malformed value is a :class:`ValueError`, never a crash).

Pure, no I/O. When the extension is not built (no C compiler, ``TEXAS42_PURE=1``),
:data:`AVAILABLE` is False and :mod:`texas42_log.engine.search` uses the reference.
"""

from __future__ import annotations

import threading
from collections.abc import Collection, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final

from .hand import PlayState
from .search_tables import SearchTables
from .seats import SEATS, Seat, partner, team_of
from .solver import trick_facts
from .support import Support
from .tiles import TILES, Tile
from .values import Move, NotSolvable

#: The setup's shape this module builds (``_native.c``'s ``ABI``): a build of another
#: shape, left over from an older checkout, is not used.
_ABI: Final = 2

try:
    from . import _native
except ImportError:  # not built: the reference solver serves (engine/search.py)
    _native = None  # type: ignore[assignment]
if _native is not None and getattr(_native, "ABI", None) != _ABI:  # pragma: no cover
    _native = None  # type: ignore[assignment]  # stale: the reference serves

#: What the native search honours (:mod:`.support`): every option; it reads the rules
#: only through the :class:`SearchTables` it is prepared from.
RULES_SUPPORT: Final = Support("the native solver")

__all__ = [
    "RULES_SUPPORT",
    "AVAILABLE",
    "NativeSolver",
    "TABLE_BITS",
    "solve_worlds",
    "VALUE",
    "PLAY_VALUES",
    "REACHES",
    "LEVELS",
]

#: Whether the C search is built and importable.
AVAILABLE: Final[bool] = _native is not None

#: The transposition table holds 2**TABLE_BITS entries of 12 bytes (768 KiB): far more
#: than the few thousand trick boundaries a whole hand visits.
TABLE_BITS: Final = 16

#: The kinds of question solve_worlds asks (the C side's numbers).
VALUE: Final = 0
PLAY_VALUES: Final = 1
REACHES: Final = 2
LEVELS: Final = 3

_SEAT_INDEX: Final[dict[Seat, int]] = {s: i for i, s in enumerate(SEATS)}
_BIT: Final[dict[Tile, int]] = {t: 1 << t.index for t in TILES}
_DECLARED_LEAD: Final[dict[str, int]] = {"never": 0, "first-trick": 1, "always": 2}
_DECLARED: Final = 32

#: A position as the C side reads it: (trick number, plays in the trick, seat to play,
#: led suit, winner so far, its key, the trick's count so far).
Position = tuple[int, int, int, int, int, int, int]
Hands = tuple[int, int, int, int]


class _Prepared:
    """One suit system ready for the C side: the tables, their setup tuple, and a
    search object per thread for batches (each world a fresh table)."""

    __slots__ = ("tables", "setup", "local")

    def __init__(self, tables: SearchTables) -> None:
        self.tables = tables
        self.setup = (
            tuple(tables.counts),
            tuple(tables.follow),
            tuple(tables.leads),
            tuple(k for row in tables.key for k in row),
            tuple(tables.low),
            tables.declarable,
            _DECLARED_LEAD[tables.declared_lead],
            int(tables.closest),
            tuple(tables.by_distance),
            tuple(tuple(g) for g in tables.groups),
            tables.size,
            tuple(tables.next_of),
            tuple(int(b) for b in tables.bidder_seat),
            tuple(int(b) for b in tables.maximiser),
            tuple(tables.trick_points[1:-1]),
        )
        self.local = threading.local()

    def search(self) -> _native.Search:
        """This thread's search object for batches (made on first use)."""
        s: _native.Search | None = getattr(self.local, "search", None)
        if s is None:
            s = _native.Search(self.setup, TABLE_BITS)
            self.local.search = s
        return s

    def take(self) -> _native.Search:
        """A search object of its own for one solver: a spare one, its table emptied,
        when another solver has given one back (a new table costs more to touch than
        to search a whole hand with), else a new one."""
        spare: list[_native.Search] | None = getattr(self.local, "spare", None)
        if spare:
            s = spare.pop()
            s.clear()
            return s
        return _native.Search(self.setup, TABLE_BITS)

    def give_back(self, s: _native.Search) -> None:
        spare: list[_native.Search] | None = getattr(self.local, "spare", None)
        if spare is None:
            spare = self.local.spare = []
        if len(spare) < 4:
            spare.append(s)


_PREPARED: dict[tuple[object, ...], _Prepared] = {}


def _prepared(state: PlayState) -> _Prepared:
    """The suit system of ``state``, built once: the tables depend only on these facts."""
    c = state.contract
    # The whole rules, not a choice of their fields: an option that changes the tables
    # can never be served another's.
    key = (
        state.trump,
        state.doubles,
        c.special,
        c.bidder,
        state.rules,
        state.count,
        state.trick_rules,
    )
    p = _PREPARED.get(key)
    if p is None:
        RULES_SUPPORT.check(state.rules)
        if len(_PREPARED) >= 512:
            _PREPARED.clear()
        p = _PREPARED[key] = _Prepared(SearchTables(state))
    return p


def _position(tables: SearchTables, state: PlayState) -> Position | None:
    """The moment as the C side reads it; None when no trick is left to play."""
    trick = state.current
    if len(trick.plays) == tables.size:
        # The hand ended early (R22) after this trick: play on from its winner.
        assert trick.winner is not None
        if trick.number == 7:
            return None
        return (trick.number + 1, 0, _SEAT_INDEX[trick.winner], -1, -1, -1, 0)
    number, leader, led, win_seat, win_key, pts = trick_facts(tables.key, tables.counts, state)
    k = len(trick.plays)
    if k == 0:
        return (number, 0, leader, -1, -1, -1, 0)
    seat = state.to_play
    if seat is None:  # pragma: no cover - a trick in play always has a seat to play
        raise NotSolvable("the hand is over: there is no play to value")
    return (number, k, _SEAT_INDEX[seat], led, win_seat, win_key, pts)


def _hands(state: PlayState, holdings: Mapping[Seat, Collection[Tile]]) -> Hands:
    bit = _BIT
    masks = [sum(bit[t] for t in holdings[s]) for s in SEATS]
    if state.contract.special == "nello":
        masks[_SEAT_INDEX[partner(state.contract.bidder)]] = 0
    return (masks[0], masks[1], masks[2], masks[3])


def _move(code: int, tables: SearchTables) -> Move:
    i = code & 31
    return (TILES[i], tables.low[i] if code & _DECLARED else None)


def _clamp(x: int, total: int) -> int:
    return 0 if x < 0 else total if x > total else x


class NativeSolver:
    """Exact open-hand values for the moments of one hand, searched in C: the
    interface and the values of :class:`texas42_log.engine.solver.Solver`."""

    def __init__(self, state: PlayState) -> None:
        if _native is None:
            raise NotSolvable("the native solver is not built")
        if any(state.unknown[s] for s in SEATS):
            raise NotSolvable("a tile of the deal is not known")
        prepared = _prepared(state)
        self._prepared = prepared
        self._tables = prepared.tables
        self._search = prepared.take()
        self._nodes_before = self._search.nodes
        dealt = {s: set(state.known[s]) for s in SEATS}
        for t, (_, by) in state.played.items():
            dealt[by].add(t)
        #: Each seat's dealt tiles (held or played): the table's keys rely on them.
        self._dealt: list[int] = [sum(_BIT[t] for t in dealt[s]) for s in SEATS]

    def __del__(self) -> None:
        search = getattr(self, "_search", None)
        if search is not None:
            self._prepared.give_back(search)

    @property
    def nodes(self) -> int:
        """Search nodes visited by this solver so far (the benchmark's figure)."""
        return self._search.nodes - self._nodes_before

    @property
    def table_bytes(self) -> int:
        """The size of the transposition table in bytes."""
        return self._search.table_bytes

    def _load(self, state: PlayState) -> tuple[Position | None, Hands, int]:
        if any(state.unknown[s] for s in SEATS):
            raise NotSolvable("a tile of the deal is not known")
        for s in SEATS:
            mask = sum(_BIT[t] for t in state.known[s])
            if mask & ~self._dealt[_SEAT_INDEX[s]]:
                raise NotSolvable("a solver serves the moments of one hand: this is another deal")
        base = _bidders_so_far(state)
        return _position(self._tables, state), _hands(state, state.known), base

    def value(self, state: PlayState, guess: int | None = None) -> int:
        """The bidders' hand points after all 7 tricks with best play from ``state``."""
        position, hands, base = self._load(state)
        if position is None:
            return base
        g = None if guess is None else _clamp(guess - base, self._tables.total)
        return base + int(self._search.solve(VALUE, position, [hands], g, False)[0])

    def play_values(self, state: PlayState, value: int | None = None) -> dict[Move, int]:
        """The value after each legal play at ``state`` (see the reference)."""
        if state.to_play is None:
            raise NotSolvable("the hand is over: there is no play to value")
        position, hands, base = self._load(state)
        assert position is not None
        own = None if value is None else value - base
        if own is not None and not 0 <= own <= self._tables.total:
            raise ValueError(
                f"{value} cannot be the value of this moment: the bidders have {base} points "
                "already"
            )
        codes = self._search.moves(position, hands)
        values = self._search.solve(PLAY_VALUES, position, [hands], own, False)[0]
        return {_move(c, self._tables): base + v for c, v in zip(codes, values, strict=True)}

    def reaches(self, state: PlayState, threshold: int) -> bool:
        """Whether the bidders' hand points after all 7 tricks reach ``threshold``
        (one null-window search: see the reference)."""
        position, hands, base = self._load(state)
        need = threshold - base
        if need <= 0:
            return True
        if need > self._tables.total or position is None:
            return False
        return bool(self._search.solve(REACHES, position, [hands], need, False)[0])


def _bidders_so_far(state: PlayState) -> int:
    return state.points[team_of(state.contract.bidder)]


def solve_worlds(
    state: PlayState,
    worlds: Sequence[Mapping[Seat, Collection[Tile]]],
    kind: int,
    threshold: int = 0,
    threads: int = 1,
    levels: Sequence[int] = (),
) -> tuple[list[Move], list[object], int]:
    """Value the moment ``state`` in every world at once, in C.

    ``state`` need not know the hidden tiles; each world gives every seat's tiles
    now. ``kind``: :data:`VALUE` (per world the value), :data:`PLAY_VALUES` (per world
    the value after each legal play, in the order of the moves returned) or
    :data:`REACHES` (per world whether the value reaches ``threshold``) or :data:`LEVELS`
    (per world how many of the ascending ``levels`` the value reaches). ``threads``: the
    worlds are shared among that many threads (the answers are the same whatever it is).
    Returns the moves (for PLAY_VALUES), the answers and the nodes searched."""
    if _native is None:
        raise NotSolvable("the native solver is not built")
    prepared = _prepared(state)
    tables = prepared.tables
    base = _bidders_so_far(state)
    position = _position(tables, state)
    hands = [_hands(state, w) for w in worlds]
    if position is None:
        if kind == PLAY_VALUES:
            raise NotSolvable("the hand is over: there is no play to value")
        if kind == LEVELS:
            return [], [sum(1 for t in levels if t <= base) for _ in hands], 0
        return [], [base if kind == VALUE else threshold <= base for _ in hands], 0
    if kind == PLAY_VALUES:
        if state.to_play is None:
            raise NotSolvable("the hand is over: there is no play to value")
        if not hands:
            return [], [], 0
        codes = prepared.search().moves(position, hands[0])
        raw, nodes = _solve(prepared, PLAY_VALUES, position, hands, None, threads)
        moves = [_move(c, tables) for c in codes]
        return moves, [[base + v for v in row] for row in raw], nodes
    if kind == VALUE:
        raw, nodes = _solve(prepared, VALUE, position, hands, None, threads)
        return [], [base + v for v in raw], nodes
    if kind == LEVELS:
        raw, nodes = _solve(prepared, LEVELS, position, hands, [t - base for t in levels], threads)
        return [], raw, nodes
    need = threshold - base
    if need <= 0 or need > tables.total:
        return [], [need <= 0 for _ in hands], 0
    raw, nodes = _solve(prepared, REACHES, position, hands, need, threads)
    return [], list(raw), nodes


#: The threads that solve the worlds of one batch beside the caller's (made on first use,
#: kept: each keeps its own search object and table, :meth:`_Prepared.search`).
_POOL: tuple[ThreadPoolExecutor, int] | None = None  # the pool and its size
_POOL_LOCK = threading.Lock()


def _pool(size: int) -> ThreadPoolExecutor:
    global _POOL
    with _POOL_LOCK:
        if _POOL is None or _POOL[1] < size:
            _POOL = (ThreadPoolExecutor(size, thread_name_prefix="texas42-search"), size)
        return _POOL[0]


def _solve(
    prepared: _Prepared,
    kind: int,
    position: Position,
    hands: list[Hands],
    arg: int | list[int] | None,
    threads: int,
) -> tuple[list[Any], int]:
    """One batch on ``threads`` threads: the worlds cut in as many runs in order, each run
    on its own search object (the C side lets go of the GIL while it searches). Every world
    starts from an empty table, so the answers do not depend on the cut; only the node
    counts may (each run's first world starts without the guess of the world before)."""

    def run(part: list[Hands]) -> tuple[list[Any], int]:
        search = prepared.search()
        before = search.nodes
        out = search.solve(kind, position, part, arg, True)
        return list(out), search.nodes - before

    n = max(1, min(threads, len(hands)))
    if n == 1:
        return run(hands)
    cuts = [len(hands) * k // n for k in range(n + 1)]
    parts = [hands[cuts[k] : cuts[k + 1]] for k in range(n)]
    others = [_pool(n - 1).submit(run, part) for part in parts[1:]]
    first = run(parts[0])
    answers, nodes = list(first[0]), first[1]
    for f in others:
        more, k = f.result()
        answers += more
        nodes += k
    return answers, nodes
