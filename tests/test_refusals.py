"""A seat's refusals are views (R25): ``Game.push(action, seat=...)`` tells a seat why its
action is refused in words drawn from that seat's view alone — never who holds a tile it
cannot see — while ``Game.push(action)``, an operator's who sees every hand, keeps the
validator's sentence. Checked by sending every action an attacker would, at moments of
a point contract, Nel-O and a Plunge, on the deal and on the deal with the tiles the
seat cannot see dealt otherwise: what the seat is told must be the same, to the byte."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from texas42_log.engine.actions import Play
from texas42_log.engine.errors import IllegalAction, Refusal
from texas42_log.engine.seats import SEATS, Seat
from texas42_log.engine.tiles import TILES, Tile
from texas42_log.play.game import REJECTED_PER_MATCH, REJECTED_PER_TURN, Game
from texas42_log.play.refusals import KEYS

from .refusal_scenarios import SCENARIOS, Scenario, attacks, moments, redeal, replay, script

TILE = re.compile(r"\[\d\|\d\]")


def told(game: Game, seat: Seat, text: str) -> tuple[Any, ...]:
    """What ``seat`` is told when it sends ``text`` (the game left as it was)."""
    try:
        step = game.push(text, seat=seat)
    except Refusal as e:
        params = json.dumps(e.params, sort_keys=True)
        return ("refused", e.rule, e.key, params, e.message)
    except IllegalAction as e:
        raise AssertionError(f"{seat} {text!r}: not a refusal from its view: {e}") from None
    except ValueError as e:
        return ("unreadable", str(e))
    game.pop()
    return ("done", str(step))


def _seen_by(game: Game, seat: Seat) -> set[str]:
    """The tiles ``seat`` may see now: its own and every tile played."""
    view = game.view(seat)
    own = set(view.hands[seat] or ())
    played = {p["tile"] for h in game.to_dict()["hands"] for p in h.get("plays", [])}
    return own | played


def _sent(game: Game, text: str) -> set[str]:
    """The tile ``text`` names, as the game reads it now (``31`` is [1|3] in the play)."""
    try:
        action = game.parse(text)
    except ValueError:
        return {str(Tile.parse(x)) for x in TILE.findall(text) if "9" not in x}
    return {str(action.tile)} if isinstance(action, Play) else set()


KEYS_SEEN: set[str] = set()


def _attack(scenario: Scenario, every: int) -> None:
    actions = script(scenario)
    rng = random.Random(f"{scenario.name}")
    compared = 0
    chosen = moments(actions, every)
    for k in chosen:
        done = actions[:k]
        for seat in SEATS:
            world = redeal(scenario, seat, done, rng)
            if world is None:
                continue
            game, other = replay(scenario, scenario.deal, done), replay(scenario, world, done)
            seen = _seen_by(game, seat)
            for text in attacks():
                here, there = told(game, seat, text), told(other, seat, text)
                assert here == there, (
                    f"{scenario.name}, after {k} actions, {seat} sends {text!r}: told "
                    f"{here} on one deal and {there} on the other"
                )
                if here[0] != "refused":
                    continue
                KEYS_SEEN.add(here[2])
                message = here[-1]
                assert "dealt to" not in message and "holds" not in message, message
                named = set(TILE.findall(message)) - _sent(game, text) - seen
                assert not named, f"{seat} is told of tiles it cannot see, {named}: {message}"
            compared += 1
    # every seat at every moment but where the others' unplayed tiles allow one deal only
    assert compared >= 3 * len(chosen), (compared, len(chosen))


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
def test_a_seat_is_told_the_same_whatever_it_cannot_see(scenario: Scenario) -> None:
    """Some moments of each hand (the auction's last call, the declaration, every third
    action): every seat, on its turn and off it, sends every action text."""
    _attack(scenario, every=3)


@pytest.mark.long
@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
def test_a_seat_is_told_the_same_whatever_it_cannot_see_at_every_moment(
    scenario: Scenario,
) -> None:
    _attack(scenario, every=1)


def test_every_kind_of_refusal_a_seat_can_provoke_is_met() -> None:
    """The attack above meets every refusal a seat can provoke in play (the hand decided
    and the match over are each met by a test of their own below)."""
    for scenario in SCENARIOS:
        _attack(scenario, every=3)
    assert set(KEYS) - KEYS_SEEN == {"hand_decided", "match_over"}


def test_a_tile_dealt_to_another_seat_is_refused_as_not_in_your_hand() -> None:
    scenario = SCENARIOS[0]
    actions = script(scenario)
    k = next(j for j, (s, t) in enumerate(actions) if s == "A" and t.startswith("["))
    game = replay(scenario, scenario.deal, actions[:k])
    tile = scenario.deal["D"][-1]
    with pytest.raises(Refusal) as e:
        game.push(tile, seat="A")
    assert str(e.value) == f"{tile} is not in your hand (R3)"
    assert (e.value.key, e.value.params) == ("not_in_hand", {"rule": "R3", "tile": tile})
    # the operator, who sees every hand, is told the validator's sentence
    with pytest.raises(IllegalAction) as plain:
        game.push(tile)
    assert not isinstance(plain.value, Refusal)
    assert str(plain.value) == f"A plays {tile}, which was dealt to D (R3)"


def test_a_tile_sent_at_a_call_turn_is_told_it_is_not_the_time_to_play() -> None:
    game = Game("standard", seed=3)
    with pytest.raises(Refusal) as e:
        game.push("[1|5]", seat="B")
    assert e.value.key == "not_time_to_call" and e.value.rule == "R7"
    assert "is not an action" not in str(e.value)
    with pytest.raises(IllegalAction) as plain:  # the operator too is told the time
        game.push("[1|5]")
    assert "is not an action" not in str(plain.value)


def test_a_seat_is_told_the_hand_is_decided_and_the_match_over_from_public_facts() -> None:
    game = Game("standard", seed=3, options={"match_goal_marks": 1})
    rng = random.Random(2)
    while game.to_act is not None:
        game.push(str(rng.choice(game.legal_actions())))
    with pytest.raises(Refusal) as e:
        game.push("pass", seat="A")
    assert e.value.key == "match_over" and e.value.rule == "R24"
    assert e.value.params["winner"] == game.winner


def test_refused_attempts_are_kept_up_to_a_bound_a_turn_and_a_match() -> None:
    """A page that sends refused plays without end: the log keeps REJECTED_PER_TURN of a
    turn and REJECTED_PER_MATCH in all, then refuses without writing."""
    game = Game("standard", seed=3, record_rejected=True)
    turn = game.to_act
    assert turn is not None
    kept = []
    for _ in range(REJECTED_PER_TURN + 5):
        with pytest.raises(Refusal) as e:
            game.push("29", seat=turn.seat)
        kept.append(e.value.recorded)
    assert kept == [True] * REJECTED_PER_TURN + [False] * 5
    size = len(game.to_json())
    with pytest.raises(Refusal):
        game.push("29", seat=turn.seat)
    assert len(game.to_json()) == size  # nothing more written
    # at every turn after it, ten refused calls or plays, until the match's bound is passed
    rng = random.Random(1)
    recorded = kept
    while len(recorded) < REJECTED_PER_MATCH + 3 * REJECTED_PER_TURN:
        game.push(str(rng.choice(game.legal_actions())))
        t = game.to_act
        assert t is not None, "the match ended before the bound was reached"
        if t.kind in ("call", "play"):
            own = {str(x) for x in game.view(t.seat).hands[t.seat] or ()}
            wrong = "29" if t.kind == "call" else next(str(x) for x in TILES if str(x) not in own)
            for _ in range(REJECTED_PER_TURN):
                with pytest.raises(Refusal) as e:
                    game.push(wrong, seat=t.seat)
                recorded.append(e.value.recorded)
    assert recorded.count(True) == REJECTED_PER_MATCH
    assert recorded[-2 * REJECTED_PER_TURN :] == [False] * 2 * REJECTED_PER_TURN
    doc = json.loads(game.to_json())
    entries = [x for h in doc["hands"] for k in ("auction", "plays") for x in h.get(k, [])]
    assert sum(1 for x in entries if x.get("rejected")) == REJECTED_PER_MATCH
