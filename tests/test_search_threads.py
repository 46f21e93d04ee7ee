"""Both cores from one call: inside ``search_threads(n)`` each batch of worlds is shared
among n threads, one native search each, and every number is the same as on one thread —
the values of every play in every world, the made-or-not of every bid, the hints of
``Game.hint`` in the play and in the auction (docs/architecture.md, "The open-hand
search"). Only the node counts may differ."""

from __future__ import annotations

import random
from typing import Any

import pytest

from texas42_log import Game
from texas42_log.engine import native
from texas42_log.engine.search import (
    play_values_in_worlds,
    reaches_in_worlds,
    search_threads,
    values_in_worlds,
)

pytestmark = pytest.mark.skipif(not native.AVAILABLE, reason="the native solver is not built")


def _game_at(seed: int, kind: str, plays: int = 0) -> Game:
    """A generated match at its first moment of ``kind`` ("call", "declare", "play"),
    ``plays`` plays into the hand for "play"."""
    g = Game("standard", seed=seed)
    rng = random.Random(seed)
    made = 0
    while True:
        t = g.to_act
        assert t is not None
        if t.kind == kind and (kind != "play" or made == plays):
            return g
        made += 1 if t.kind == "play" else 0
        g.push(rng.choice(g.legal_actions()))


def _decision(d: Any) -> Any:
    return (d.worlds, d.count, sorted((str(m), v) for m, v in d.values.items()), d.samples)


@pytest.mark.parametrize("seed", range(6))
def test_a_hint_in_the_play_is_the_same_on_one_two_and_three_threads(seed: int) -> None:
    g = _game_at(seed, "play", plays=seed % 5)
    one = g.hint(threads=1, worlds=40)
    for n in (2, 3):
        assert _decision(g.hint(threads=n, worlds=40)) == _decision(one)


@pytest.mark.parametrize("kind", ["call", "declare"])
def test_a_hint_in_the_auction_is_the_same_on_one_and_two_threads(kind: str) -> None:
    for seed in range(3):
        g = _game_at(seed, kind)
        one, two = (g.hint(threads=n, worlds=24) for n in (1, 2))
        assert two.as_dict() == one.as_dict()
        assert two.table.made == one.table.made  # type: ignore[union-attr]


def test_every_batch_kind_is_the_same_whatever_the_cut() -> None:
    g = _game_at(7, "play", plays=2)
    assert g.play_state is not None
    seat = g.play_state.to_play
    assert seat is not None
    from texas42_log.analysis.fair_hands import knowledge_at
    from texas42_log.analysis.worlds import Worlds, draw_worlds
    from texas42_log.log.check import effective_rules
    from texas42_log.views.visibility import hand_views

    match = g.to_match()
    index = len(match.hands) - 1
    plays = sum(1 for p in match.hands[index].plays if not p.rejected)
    knowledge = knowledge_at(hand_views(match, seat, index), plays, effective_rules(match))
    state = knowledge.state()
    worlds, _ = draw_worlds(Worlds(knowledge), 37, random.Random(3))  # 37: an uneven cut
    answers = []
    for n in (1, 2, 4):
        with search_threads(n):
            answers.append(
                (
                    play_values_in_worlds(state, worlds).answers,
                    values_in_worlds(state, worlds)[0],
                    reaches_in_worlds(state, worlds, 20)[0],
                )
            )
    assert answers[1] == answers[0] and answers[2] == answers[0]


def test_the_threads_setting_is_bounded_and_restored() -> None:
    from texas42_log.engine import search

    with pytest.raises(ValueError, match="threads must be 1 to 64"):
        with search_threads(0):
            pass
    with search_threads(2) as outer:
        assert outer == 2
        with search_threads(3):
            assert search._THREADS.get() == 3
        assert search._THREADS.get() == 2
    assert search._THREADS.get() == 1
    with search_threads() as every:
        assert every == search.usable_cores() >= 1
