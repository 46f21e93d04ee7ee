"""The one door to the open-hand search: which solver runs, and the questions it answers.

Two solvers give the same values (tests/test_native.py checks every legal play's value
over every setting): the **native** one (:mod:`texas42_log.engine.native`, C) and the
**reference** (:mod:`texas42_log.engine.solver`, Python, compiled by mypyc where the
build allows). The native one serves whenever it is built; the environment variable
``TEXAS42_SOLVER`` chooses at run time:

* unset, empty or ``auto`` — native when built, else the reference;
* ``python`` — the reference;
* ``native`` — native, and :class:`SolverUnavailable` when it is not built.

Two kinds of question (docs/architecture.md, "The open-hand search", says which caller
asks which):

* **exact values** — :func:`open_solver` (one deal, any moment of it, one table shared),
  :func:`values_in_worlds` and :func:`play_values_in_worlds` (one moment in many deals);
* **made or not** — :func:`reaches_in_worlds`: one null-window search per world at the
  contract's threshold (:func:`texas42_log.engine.solver.goal`), cheaper than the exact
  value when the caller reports only a chance.

**Threads.** Inside ``with search_threads(n):`` each batch of worlds is shared among
``n`` threads, one search object each (the native search lets go of the GIL): the
answers are the same to the last digit, only sooner on a machine with the cores for it.
``Game.hint`` and the board's ask use every core this process may use; the analysis of a
corpus keeps one thread a process (its processes already fill the cores).

Pure, no I/O (it reads one environment variable).
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Final, Literal, Protocol

from . import native
from .hand import PlayState
from .seats import SEATS, Seat
from .solver import Solver
from .tiles import Tile
from .values import Move, NotSolvable

__all__ = [
    "SOLVER_VARIABLE",
    "SolverUnavailable",
    "OpenSolver",
    "WorldValues",
    "solver_choice",
    "open_solver",
    "values_in_worlds",
    "play_values_in_worlds",
    "reaches_in_worlds",
    "levels_in_worlds",
    "search_threads",
    "usable_cores",
]

#: The environment variable that chooses the solver (see the module text).
SOLVER_VARIABLE: Final = "TEXAS42_SOLVER"

Choice = Literal["native", "python"]

#: A world: every seat's tiles now (the seat to play's own included).
Holdings = Mapping[Seat, Collection[Tile]]

#: The threads a batch of worlds is shared among, in this context (see the module text).
_THREADS: ContextVar[int] = ContextVar("texas42_search_threads", default=1)


def usable_cores() -> int:
    """The cores this process may run on (its affinity where the system says, else all)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


@contextmanager
def search_threads(threads: int | None = None) -> Iterator[int]:
    """Within the block, share each batch of worlds among ``threads`` threads (None: every
    usable core; at most 64). Yields the number used."""
    n = usable_cores() if threads is None else threads
    if not 1 <= n <= 64:
        raise ValueError(f"threads must be 1 to 64, not {n}")
    token = _THREADS.set(n)
    try:
        yield n
    finally:
        _THREADS.reset(token)


class SolverUnavailable(ValueError):
    """``TEXAS42_SOLVER`` asks for a solver this installation does not have, or says
    something that names no solver."""


class OpenSolver(Protocol):
    """What both solvers offer for the moments of one deal."""

    @property
    def nodes(self) -> int: ...

    def value(self, state: PlayState, guess: int | None = None) -> int: ...

    def play_values(self, state: PlayState, value: int | None = None) -> dict[Move, int]: ...

    def reaches(self, state: PlayState, threshold: int) -> bool: ...


def solver_choice() -> Choice:
    """The solver that serves now (see the module text)."""
    said = os.environ.get(SOLVER_VARIABLE, "")
    word = said.strip().lower()
    if word in ("", "auto"):
        return "native" if native.AVAILABLE else "python"
    if word == "python":
        return "python"
    if word == "native":
        if not native.AVAILABLE:
            raise SolverUnavailable(
                f"{SOLVER_VARIABLE}=native, but the native solver is not built in this "
                "installation "
                "(no C compiler when it was installed, or TEXAS42_PURE=1): unset it to use the "
                "reference solver"
            )
        return "native"
    raise SolverUnavailable(
        f"{SOLVER_VARIABLE}={said[:40]!r} names no solver: say native, python or auto"
    )


def open_solver(state: PlayState) -> OpenSolver:
    """A solver for the moments of the hand ``state`` belongs to (every tile known)."""
    if solver_choice() == "native":
        return native.NativeSolver(state)
    return Solver(state)


@dataclass(frozen=True, slots=True)
class WorldValues:
    """One moment valued in many worlds."""

    #: The legal plays, in the order of each world's row (play_values_in_worlds only).
    moves: list[Move]
    #: Per world: the value, the row of play values, or whether the threshold is reached.
    answers: list[object]
    #: Search nodes visited over all the worlds.
    nodes: int


def _full(state: PlayState, world: Holdings) -> PlayState:
    """``state`` with every seat's tiles as ``world`` says (for the reference solver)."""
    full = state.copy()
    full.known = {s: set(world[s]) for s in SEATS}
    full.unknown = {s: 0 for s in SEATS}
    return full


def values_in_worlds(state: PlayState, worlds: Sequence[Holdings]) -> tuple[list[int], int]:
    """The exact value of the moment ``state`` in each world (and the nodes searched).

    ``state`` need not know the tiles hidden from its seat: each world places them."""
    if solver_choice() == "native":
        _, answers, nodes = native.solve_worlds(state, worlds, native.VALUE, threads=_THREADS.get())
        return [int(a) for a in answers], nodes  # type: ignore[call-overload]
    out: list[int] = []
    nodes = 0
    for w in worlds:
        full = _full(state, w)
        solver = Solver(full)
        out.append(solver.value(full))
        nodes += solver.nodes
    return out, nodes


def play_values_in_worlds(state: PlayState, worlds: Sequence[Holdings]) -> WorldValues:
    """The exact value after each legal play of the seat to play, in each world."""
    if state.to_play is None:
        raise NotSolvable("the hand is over: there is no play to value")
    if solver_choice() == "native":
        moves, answers, nodes = native.solve_worlds(
            state, worlds, native.PLAY_VALUES, threads=_THREADS.get()
        )
        return WorldValues(moves, answers, nodes)
    rows: list[object] = []
    order: list[Move] = []
    nodes = 0
    for w in worlds:
        full = _full(state, w)
        solver = Solver(full)
        values = solver.play_values(full)
        if not order:
            order = list(values)
        rows.append([values[m] for m in order])
        nodes += solver.nodes
    return WorldValues(order, rows, nodes)


def reaches_in_worlds(
    state: PlayState, worlds: Sequence[Holdings], threshold: int
) -> tuple[list[bool], int]:
    """Whether the bidders' points after all 7 tricks, with best play from ``state``,
    reach ``threshold`` in each world: made or not, by one bounded search a world."""
    if solver_choice() == "native":
        _, answers, nodes = native.solve_worlds(
            state, worlds, native.REACHES, threshold, _THREADS.get()
        )
        return [bool(a) for a in answers], nodes
    out: list[bool] = []
    nodes = 0
    for w in worlds:
        full = _full(state, w)
        solver = Solver(full)
        out.append(solver.reaches(full, threshold))
        nodes += solver.nodes
    return out, nodes


def levels_in_worlds(
    state: PlayState, worlds: Sequence[Holdings], levels: Sequence[int]
) -> tuple[list[int], int]:
    """Per world, how many of the ascending point ``levels`` the bidders' points after all
    7 tricks reach with best play from ``state`` (and the nodes searched): in C one call
    settles every level of every world, each world's levels on one table, a search's bound
    settling every level on its side; the reference asks the same questions."""
    if list(levels) != sorted(levels):
        raise ValueError("the levels must be in ascending order")
    if solver_choice() == "native":
        _, answers, nodes = native.solve_worlds(
            state, worlds, native.LEVELS, threads=_THREADS.get(), levels=levels
        )
        return [int(a) for a in answers], nodes  # type: ignore[call-overload]
    out: list[int] = []
    nodes = 0
    for w in worlds:  # the reference: the same questions, one table a world
        full = _full(state, w)
        solver = Solver(full)
        out.append(solver.levels(full, levels))
        nodes += solver.nodes
    return out, nodes
