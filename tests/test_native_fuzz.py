"""The native search is a trust boundary: whatever Python hands it, the answer is a
value or a ValueError with a sentence — never a crash, never another exception.

Hypothesis builds the inputs three ways: valid ones with one field spoiled (a wrong
type, a number out of range or with thousands of digits, a wrong length, a tile held
twice, a hand of the wrong size); positions that pass every check but make no sense
in any game (a led suit no tile follows, a winner's key nothing can beat) — which must
still search safely to an answer; and plain random values. A crash would kill the
test process, so the test fails by dying as much as by asserting.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from texas42_log.engine import _native, native
from texas42_log.engine.auction import BidKind, Contract
from texas42_log.engine.hand import PlayState
from texas42_log.engine.rules import Rules
from texas42_log.engine.seats import SEATS
from texas42_log.engine.tiles import TILES
from texas42_log.engine.trumps import Trump

pytestmark = [
    pytest.mark.skipif(
        not native.AVAILABLE, reason="the native solver is not built in this installation"
    ),
    pytest.mark.slow,
]

_STATE = PlayState(
    Rules(declared_lead="always"),
    Contract("A", BidKind.POINTS, 30),
    Trump.FIVES,
    {s: set(TILES[i * 7 : (i + 1) * 7]) for i, s in enumerate(SEATS)},
)
_NELLO = PlayState(
    Rules(nello=True),
    Contract("B", BidKind.MARKS, 1, "nello"),
    Trump.NO_TRUMP,
    {s: set(TILES[i * 7 : (i + 1) * 7]) for i, s in enumerate(SEATS)},
)
SETUPS = [native._prepared(_STATE).setup, native._prepared(_NELLO).setup]
#: The extension's type, untyped here: these tests hand it what its stub forbids.
Search: Any = _native.Search

#: Values of every kind that does not belong anywhere a whole number is asked for.
WRONG = st.one_of(
    st.none(),
    st.floats(allow_nan=True),
    st.text(max_size=5),
    st.binary(max_size=3),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.just(10**5000),
    st.just(-(10**5000)),
    st.lists(st.integers(-3, 300), max_size=30),
    st.tuples(st.integers(), st.integers()),
    st.just(object()),
    st.just(True),
    st.dictionaries(st.integers(0, 3), st.integers(0, 3), max_size=2),
)


def _call(
    search: Any,
    kind: object,
    position: object,
    worlds: object,
    arg: object = None,
    fresh: object = True,
) -> None:
    try:
        out = search.solve(kind, position, worlds, arg, fresh)
    except ValueError as e:
        assert str(e) and "\n" not in str(e)
        return
    assert isinstance(out, list)


def _valid_hands(
    rng: random.Random, setup: tuple[Any, ...], number: int, k: int, seat: int
) -> tuple[int, ...]:
    """Hands of the sizes the position asks for (the order of play in setup[11])."""
    size, nxt = setup[10], setup[11]
    want = [0, 0, 0, 0]
    x = seat
    for j in range(size):
        want[x] = 8 - number if j < size - k else 7 - number
        x = nxt[x]
    tiles = list(range(28))
    rng.shuffle(tiles)
    out, at = [], 0
    for n in want:
        out.append(sum(1 << t for t in tiles[at : at + n]))
        at += n
    return tuple(out)


def _playing(setup: tuple[Any, ...]) -> list[int]:
    nxt, size = setup[11], setup[10]
    start = 0 if size == 4 else next(s for s in range(4) if nxt[nxt[nxt[s]]] == s)
    order = [start]
    while len(order) < size:
        order.append(nxt[order[-1]])
    return order


@pytest.mark.long
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_odd_but_well_formed_positions_search_safely(data: st.DataObject) -> None:
    """Every check passes, nothing means a real game: the search answers, in range."""
    setup = data.draw(st.sampled_from(SETUPS))
    order = _playing(setup)
    number = data.draw(st.integers(1, 7))
    k = data.draw(st.integers(0, setup[10] - 1))
    seat_at = data.draw(st.integers(0, setup[10] - 1))
    seat = order[seat_at]
    if k:
        played = [order[(seat_at - j) % setup[10]] for j in range(1, k + 1)]
        position = (
            number,
            k,
            seat,
            data.draw(st.integers(0, 8)),
            data.draw(st.sampled_from(played)),
            data.draw(st.integers(0, 200)),
            data.draw(st.integers(0, 42)),
        )
    else:
        position = (number, 0, seat, -1, -1, -1, 0)
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    hands = _valid_hands(rng, setup, number, k, seat)
    search = Search(setup, data.draw(st.integers(4, 12)))
    kind = data.draw(st.sampled_from([0, 1, 2]))
    arg = (
        data.draw(st.one_of(st.none(), st.integers(-100, 100)))
        if kind != 2
        else data.draw(st.integers(-5, 50))
    )
    if kind == 1 and arg is not None:
        arg = max(0, min(42, arg))
    try:
        out = search.solve(kind, position, [hands, hands], None if kind == 1 else arg)
    except ValueError as e:  # the one check these positions can fail: a count past 35 points
        assert "more than the 35 the tiles count" in str(e)
        return
    # The same world twice gives the same answer, whatever the guess carried over.
    assert len(out) == 2 and out[0] == out[1]
    if kind == 0:
        assert 0 <= out[0] <= 42
    elif kind == 1:
        assert len(out[0]) == len(search.moves(position, hands)) >= 1
        assert all(0 <= v <= 42 for v in out[0])
    else:
        assert out[0] in (True, False)


@settings(max_examples=2000, deadline=None)
@given(data=st.data())
def test_a_spoiled_field_is_a_value_error(data: st.DataObject) -> None:
    """One field of a valid call replaced by something wrong."""
    setup = list(data.draw(st.sampled_from(SETUPS)))
    position: list[Any] = (
        [1, 0, 0, -1, -1, -1, 0]
        if setup[10] == 4
        else [1, 0, _playing(tuple(setup))[0], -1, -1, -1, 0]
    )
    hands: list[Any] = list(_valid_hands(random.Random(1), tuple(setup), 1, 0, position[2]))
    where = data.draw(
        st.sampled_from(
            ["setup", "setup-item", "position", "hands", "worlds", "kind", "arg", "bits"]
        )
    )
    bits: Any = 8
    kind: Any = 0
    arg: Any = None
    worlds: Any = None
    if where == "setup":
        setup = data.draw(WRONG)
    elif where == "setup-item":
        i = data.draw(st.integers(0, 13))
        inner = setup[i]
        if isinstance(inner, tuple) and inner and data.draw(st.booleans()):
            j = data.draw(st.integers(0, len(inner) - 1))
            spoiled = list(inner)
            spoiled[j] = data.draw(WRONG)
            setup[i] = tuple(spoiled)
        else:
            setup[i] = data.draw(WRONG)
    elif where == "position":
        position[data.draw(st.integers(0, 6))] = data.draw(st.one_of(WRONG, st.integers(-3, 300)))
    elif where == "hands":
        hands[data.draw(st.integers(0, 3))] = data.draw(st.one_of(WRONG, st.integers(0, 2**28 - 1)))
    elif where == "worlds":
        worlds = data.draw(st.one_of(WRONG, st.lists(WRONG, max_size=3)))
    elif where == "kind":
        kind = data.draw(WRONG)
    elif where == "arg":
        kind = data.draw(st.sampled_from([0, 1, 2]))
        arg = data.draw(WRONG)
    else:
        bits = data.draw(WRONG)
    try:
        search = Search(tuple(setup) if isinstance(setup, list) else setup, bits)
    except ValueError as e:
        assert str(e)
        return
    _call(search, kind, tuple(position), [tuple(hands)] if worlds is None else worlds, arg)
    try:
        search.moves(tuple(position), tuple(hands))
    except ValueError as e:
        assert str(e)


@settings(max_examples=1000, deadline=None)
@given(
    kind=st.integers(-2, 4),
    position=st.lists(st.integers(-2, 60), min_size=6, max_size=8),
    hands=st.lists(st.integers(0, 2**28 - 1), min_size=3, max_size=5),
    setup=st.sampled_from(SETUPS),
)
def test_random_numbers_in_every_field(
    kind: int, position: list[int], hands: list[int], setup: tuple[Any, ...]
) -> None:
    search = Search(setup)
    _call(search, kind, tuple(position), [tuple(hands)], 10 if kind == 2 else None)


def test_the_checks_say_what_is_wrong() -> None:
    setup = SETUPS[0]
    search = Search(setup)
    start = (1, 0, 0, -1, -1, -1, 0)
    full = tuple(sum(1 << t for t in range(i * 7, i * 7 + 7)) for i in range(4))
    cases: list[tuple[Any, str]] = [
        (
            lambda: search.solve(0, start, [(full[0], full[0], full[2], full[3])]),
            "a tile is held by two seats",
        ),
        (
            lambda: search.solve(0, start, [(full[0] ^ 1, full[1], full[2], full[3])]),
            "seat A holds 6 tiles, but at trick 1 after 0 plays it must hold 7",
        ),
        (
            lambda: search.solve(0, (8, 0, 0, -1, -1, -1, 0), [full]),
            "the trick number must be 1 to 7",
        ),
        (lambda: search.solve(0, start, [(10**5000, 0, 0, 0)]), "must be between"),
        (lambda: search.solve(0, start, [(1.5, 0, 0, 0)]), "must be a whole number, not float"),
        (lambda: search.solve(0, start, [full[:3]]), "must hold 4 numbers, not 3"),
        (lambda: search.solve(7, start, [full]), "kind must be 0"),
        (lambda: search.solve(2, start, [full]), "reaches needs a threshold"),
        (lambda: search.solve(1, start, [full, full], 20), "a known value fits one world only"),
        (lambda: search.solve(0, (1, 1, 1, 3, 0, 5, 0), [full]), "holds"),
        (lambda: search.solve(0, (2, 1, 1, 3, 1, 5, 0), [full]), "winner so far"),
        (lambda: Search(setup, 99), "table_bits must be 4 to 24"),
        (lambda: Search(setup[:13]), "a tuple of 15 fields"),
        # The count (R6) crosses as data and is bounded: 63 points at most (6-bit values).
        (lambda: Search((*setup[:14], (9,) * 7)), "add up to 98 points, past the 63"),
        (lambda: Search((*setup[:14], (1,) * 6)), "must hold 7 numbers, not 6"),
        (lambda: Search((*setup[:14], (1, 1, 1, 1, 1, 1, -1))), "must be between"),
        (lambda: Search((*setup[:11], (1, 1, 1, 1), *setup[12:])), "not one round of 4 seats"),
    ]
    for call, message in cases:
        with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
            call()
    # A crafted setup whose leads cannot win their own suit is refused: the search
    # relies on every trick having a winner.
    keys = list(setup[3])
    keys[setup[2][0] * 28 + 0] = -1
    with pytest.raises(ValueError, match="cannot win the suit it leads"):
        Search((*setup[:3], tuple(keys), *setup[4:]))
