"""The native open-hand search (engine/_native.c) against the reference (engine/solver.py).

Equality is the whole contract: every legal play's value, the position's value and
made-or-not at thresholds around it, over every solver setting — each trump, the
doubles as their own suit, the Nel-O options, Sevens (both ways of playing it),
Plunge, Splash, no-trump (follow-me) with the doubles high, low or their own suit,
declared leads, moments at a trick's start, in its middle and in the last trick,
and whole hands from the first lead. The default run checks 600 random positions
(60 of them whole hands); ``pytest --exhaustive -m exhaustive tests/test_native.py``
checks 5,000 more.

The batch entry point (:func:`texas42_log.engine.search.play_values_in_worlds` and
its siblings) is checked against the reference world by world, and the commands
against themselves under ``TEXAS42_SOLVER=python``.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from texas42_log.engine import _native, native, search
from texas42_log.engine.auction import BidKind, Contract
from texas42_log.engine.hand import PlayState
from texas42_log.engine.rules import Rules
from texas42_log.engine.seats import SEATS, Seat, team_of
from texas42_log.engine.solver import Solver
from texas42_log.engine.tiles import Tile
from texas42_log.engine.trumps import Trump
from texas42_log.engine.values import NotSolvable, goal, makeable

from .test_solver import SETTINGS as BASE_SETTINGS
from .test_solver import _deal, play_to

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(
    not native.AVAILABLE, reason="the native solver is not built in this installation"
)

#: Every setting the search reads differently: the reference suite's, and the rest.
SETTINGS: list[tuple[str, Rules, Contract, Trump, str | None]] = [
    *[(name, rules, contract, trump, None) for name, rules, contract, trump in BASE_SETTINGS],
    ("splash", Rules(splash=True), Contract("C", BidKind.MARKS, 2, "splash"), Trump.DOUBLES, None),
    (
        "plunge in sixes",
        Rules(plunge=True),
        Contract("B", BidKind.MARKS, 4, "plunge"),
        Trump.SIXES,
        None,
    ),
    (
        "sevens closest",
        Rules(sevens=True, sevens_play="closest"),
        Contract("B", BidKind.MARKS, 1, "sevens"),
        Trump.NO_TRUMP,
        None,
    ),
    (
        "no-trump doubles own suit",
        Rules(no_trump_doubles="own-suit"),
        Contract("D", BidKind.POINTS, 33),
        Trump.NO_TRUMP,
        None,
    ),
    (
        "doubles trump, doubles own suit",
        Rules(doubles="own-suit"),
        Contract("A", BidKind.POINTS, 30),
        Trump.DOUBLES,
        None,
    ),
    (
        "nello bidder chooses low",
        Rules(nello=True, nello_doubles="bidder-chooses"),
        Contract("B", BidKind.MARKS, 1, "nello"),
        Trump.NO_TRUMP,
        "low",
    ),
    (
        "nello declared leads",
        Rules(nello=True, declared_lead="always"),
        Contract("C", BidKind.MARKS, 1, "nello"),
        Trump.NO_TRUMP,
        None,
    ),
    (
        "sevens declared first lead",
        Rules(sevens=True, declared_lead="first-trick"),
        Contract("A", BidKind.MARKS, 1, "sevens"),
        Trump.NO_TRUMP,
        None,
    ),
]


def moment(
    rng: random.Random,
    setting: tuple[str, Rules, Contract, Trump, str | None],
    trick: int,
    into: int,
) -> PlayState:
    """A random deal played at random (legally) to trick ``trick``, ``into`` plays in."""
    _, rules, contract, trump, nello = setting
    st = PlayState(
        rules.with_options(hand_end="all-tricks"), contract, trump, _deal(rng), nello_doubles=nello
    )  # type: ignore[arg-type]
    return play_to(rng, st, trick, into)


def agree(st: PlayState, label: object) -> None:
    """Native and reference give the same value, play values (in the same order) and
    made-or-not at every threshold around the value."""
    ref, nat = Solver(st), native.NativeSolver(st)
    value = ref.value(st)
    assert nat.value(st) == value, label
    expected = ref.play_values(st)
    got = nat.play_values(st)
    assert list(got.items()) == list(expected.items()), label
    assert nat.play_values(st, value) == expected, (
        label
    )  # with the value known, as the analysis asks
    for t in (value - 1, value, value + 1, 0, 1, 42, 43):
        assert nat.reaches(st, t) == ref.reaches(st, t) == (value >= t), (label, t)


def _cases(count: int, seed: str) -> list[tuple[int, int, int]]:
    """(setting, trick, plays into it): whole hands (trick 1, no play) for one in ten,
    the rest spread over every trick and every point inside one."""
    rng = random.Random(seed)
    out = []
    for n in range(count):
        s = n % len(SETTINGS)
        size = 3 if SETTINGS[s][2].special == "nello" else 4
        if n % 10 == 0:
            out.append((s, 1, 0))
        else:
            out.append((s, rng.randint(1, 7), rng.randrange(size)))
    return out


DEFAULT_CASES = _cases(600, "native-default")


@pytest.mark.parametrize("chunk", range(10))
def test_native_values_equal_the_reference(chunk: int) -> None:
    """600 random positions over every setting (a tenth of them per test, so that the
    workers share them): 60 whole hands, the rest at every trick and inside it."""
    for n, (s, trick, into) in enumerate(DEFAULT_CASES):
        if (n // 10) % 10 != chunk:  # each chunk its share of the whole hands
            continue
        rng = random.Random(f"native:{n}")
        agree(moment(rng, SETTINGS[s], trick, into), (SETTINGS[s][0], n, trick, into))


def test_the_default_cases_cover_every_setting_whole_hands_and_the_last_trick() -> None:
    assert len(DEFAULT_CASES) == 600
    assert sum(1 for _, t, k in DEFAULT_CASES if (t, k) == (1, 0)) >= 60
    assert {s for s, _, _ in DEFAULT_CASES} == set(range(len(SETTINGS)))
    assert any(t == 7 and k > 0 for _, t, k in DEFAULT_CASES)


@pytest.mark.exhaustive
@pytest.mark.parametrize("chunk", range(20))
def test_native_values_equal_the_reference_exhaustively(chunk: int) -> None:
    """5,000 more positions (run with --exhaustive -m exhaustive)."""
    for n, (s, trick, into) in enumerate(_cases(5000, "native-exhaustive")):
        if n % 20 == chunk:
            agree(
                moment(random.Random(f"native-x:{n}"), SETTINGS[s], trick, into),
                (SETTINGS[s][0], n),
            )


def test_a_table_of_sixteen_entries_gives_the_same_values() -> None:
    """Replacement in a full table changes the nodes searched, never a value."""
    rng = random.Random("tiny table")
    for n in range(40):
        setting = SETTINGS[n % len(SETTINGS)]
        st = moment(rng, setting, 1 + n % 4, 0)
        prepared = native._prepared(st)
        tiny = _native.Search(prepared.setup, 4)
        position = native._position(prepared.tables, st)
        assert position is not None
        hands = native._hands(st, st.known)
        (value,) = tiny.solve(native.VALUE, position, [hands])
        assert value + st.points[team_of(st.contract.bidder)] == Solver(st).value(st)


def test_a_solver_serves_one_deal_and_a_finished_hand_has_no_play() -> None:
    a = moment(random.Random(1), SETTINGS[0], 1, 0)
    b = moment(random.Random(2), SETTINGS[0], 1, 0)
    solver = native.NativeSolver(a)
    with pytest.raises(NotSolvable, match="another deal"):
        solver.value(b)
    unknown = PlayState(
        Rules(), Contract("A", BidKind.POINTS, 30), Trump.SIXES, _deal(random.Random(3)), {"B": 1}
    )
    with pytest.raises(NotSolvable, match="not known"):
        native.NativeSolver(unknown)
    st = moment(random.Random(4), SETTINGS[0], 7, 3)
    seat = st.to_play
    assert seat is not None
    st.play(seat, next(iter(st.known[seat])))
    assert st.over
    solver = native.NativeSolver(st)
    assert solver.value(st) == Solver(st).value(st)
    with pytest.raises(NotSolvable, match="over"):
        solver.play_values(st)


def test_a_solver_follows_the_moments_of_its_hand() -> None:
    """One solver, one table, every moment of a hand along the best line (as the
    open-hand analysis uses it): the same values as a fresh reference at each."""
    rng = random.Random("along")
    for setting in SETTINGS[::3]:
        st = moment(rng, setting, 1, 0)
        solver = native.NativeSolver(st)
        while not st.over:
            seat = st.to_play
            assert seat is not None
            values = solver.play_values(st)
            assert values == Solver(st).play_values(st), setting[0]
            move = rng.choice(list(values))
            st.play(seat, move[0], move[1])


# -- the batch entry point ------------------------------------------------------------


def _worlds(
    st: PlayState, seat: Seat, rng: random.Random, n: int
) -> list[dict[Seat, frozenset[Tile]]]:
    """Deals of the tiles ``seat`` cannot see to the others, with the counts they hold."""
    hidden = [t for s in SEATS if s != seat for t in st.known[s]]
    out = []
    for _ in range(n):
        rng.shuffle(hidden)
        world: dict[Seat, frozenset[Tile]] = {seat: frozenset(st.known[seat])}
        at = 0
        for s in SEATS:
            if s != seat:
                world[s] = frozenset(hidden[at : at + len(st.known[s])])
                at += len(st.known[s])
        out.append(world)
    return out


@pytest.mark.parametrize("setting", SETTINGS, ids=[s[0] for s in SETTINGS])
def test_the_batch_equals_the_reference_world_by_world(
    setting: tuple[str, Rules, Contract, Trump, str | None], monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(f"batch:{setting[0]}")
    for trick, into in ((1, 0), (2, 1), (4, 2), (6, 0), (7, 1)):
        size = 3 if setting[2].special == "nello" else 4
        st = moment(rng, setting, trick, into % size)
        seat = st.to_play
        assert seat is not None
        worlds = _worlds(st, seat, rng, 12)
        template = st.copy()
        for s in SEATS:
            if s != seat:
                template.unknown[s] = len(template.known[s])
                template.known[s] = set()
        monkeypatch.setenv("TEXAS42_SOLVER", "native")
        fast = search.play_values_in_worlds(template, worlds)
        fast_values, _ = search.values_in_worlds(template, worlds)
        threshold, _ = goal(st.contract, total=st.count.total)
        fast_reach, _ = search.reaches_in_worlds(template, worlds, threshold)
        monkeypatch.setenv("TEXAS42_SOLVER", "python")
        slow = search.play_values_in_worlds(template, worlds)
        slow_values, _ = search.values_in_worlds(template, worlds)
        slow_reach, _ = search.reaches_in_worlds(template, worlds, threshold)
        assert fast.moves == slow.moves and fast.answers == slow.answers, (setting[0], trick)
        assert fast_values == slow_values, (setting[0], trick)
        assert (
            fast_reach
            == slow_reach
            == [
                makeable(st.contract, v, total=st.count.total) != (st.contract.special == "nello")
                for v in slow_values
            ]
        ), (setting[0], trick)
        assert fast.nodes > 0 and slow.nodes > 0


def test_threads_each_with_their_own_solver_agree() -> None:
    """The search releases the GIL; each thread has its own batch object."""
    st = moment(random.Random("threads"), SETTINGS[0], 1, 0)
    seat = st.to_play
    assert seat is not None
    worlds = _worlds(st, seat, random.Random(9), 20)
    expected = search.play_values_in_worlds(st, worlds).answers
    results: list[object] = []

    def run() -> None:
        results.append(search.play_values_in_worlds(st, worlds).answers)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [expected] * 4


# -- choosing the solver --------------------------------------------------------------


def test_the_environment_chooses_the_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    st = moment(random.Random(5), SETTINGS[0], 1, 0)
    for word, kind in (
        ("", native.NativeSolver),
        ("auto", native.NativeSolver),
        (" Native ", native.NativeSolver),
        ("python", Solver),
    ):
        monkeypatch.setenv("TEXAS42_SOLVER", word)
        assert type(search.open_solver(st)) is kind, word
    monkeypatch.setenv("TEXAS42_SOLVER", "fortran\x1b[31m")
    with pytest.raises(
        search.SolverUnavailable, match="names no solver: say native, python or auto"
    ):
        search.open_solver(st)
    monkeypatch.setattr(native, "AVAILABLE", False)
    monkeypatch.setenv("TEXAS42_SOLVER", "native")
    with pytest.raises(search.SolverUnavailable, match="not built"):
        search.solver_choice()
    monkeypatch.setenv("TEXAS42_SOLVER", "")
    assert search.solver_choice() == "python"


def _texas42(*args: str, solver: str) -> subprocess.CompletedProcess[str]:
    import os

    env = {**os.environ, "TEXAS42_SOLVER": solver}
    return subprocess.run(
        [sys.executable, "-m", "texas42_log", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=600,
    )


def _without_counters(x: object) -> object:
    if isinstance(x, dict):
        return {k: _without_counters(v) for k, v in x.items() if k not in ("nodes", "seconds")}
    if isinstance(x, list):
        return [_without_counters(v) for v in x]
    return x


@pytest.mark.parametrize(
    "args",
    [
        ["analyze", "fixtures/valid/seed-worked-example.json"],
        [
            "analyze",
            "fixtures/valid/seed-worked-example.json",
            "--fair",
            "--hand",
            "3",
            "--worlds",
            "4",
        ],
    ],
    ids=["open-hand", "fair"],
)
def test_the_commands_say_the_same_on_either_solver(args: list[str]) -> None:
    """The text byte for byte; the JSON equal but for the search's own counters."""
    fast, slow = _texas42(*args, solver="native"), _texas42(*args, solver="python")
    assert fast.returncode == slow.returncode == 0, fast.stderr + slow.stderr
    assert fast.stdout == slow.stdout and fast.stdout.strip()
    fast_j = _texas42(*args, "--format", "json", solver="native")
    slow_j = _texas42(*args, "--format", "json", solver="python")
    assert fast_j.returncode == slow_j.returncode == 0, fast_j.stderr + slow_j.stderr
    fast_docs = [json.loads(line) for line in fast_j.stdout.splitlines()]
    slow_docs = [json.loads(line) for line in slow_j.stdout.splitlines()]
    assert len(fast_docs) >= 2  # one object per match, then the summary
    assert _without_counters(fast_docs) == _without_counters(slow_docs)


def test_a_solver_the_environment_cannot_name_is_a_usage_error() -> None:
    p = _texas42("analyze", "fixtures/valid/seed-worked-example.json", solver="quantum")
    assert p.returncode == 2
    assert "TEXAS42_SOLVER='quantum' names no solver: say native, python or auto" in p.stderr
    assert "Traceback" not in p.stderr
