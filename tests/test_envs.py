"""The research environments: PettingZoo's and OpenSpiel's own checks, states that
serialise, and the re-deal leak test — re-dealing what a seat cannot see leaves
its observation, its information state and a bot's situation unchanged, for every
seat at every moment of 200 random matches."""

from __future__ import annotations

import pickle
import random
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

pytest.importorskip(
    "pettingzoo", reason="the test extra installs texas42-log[rl]"
)  # never skipped in CI: see below
pytest.importorskip("pyspiel", reason="the test extra installs texas42-log[openspiel]")

import pyspiel  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import texas42_log.envs.spiel  # noqa: E402,F401  (registers python_texas42)
from texas42_log.bots import situation  # noqa: E402
from texas42_log.engine.live import deal_order  # noqa: E402
from texas42_log.engine.tiles import TILE_BY_NAME, TILES  # noqa: E402
from texas42_log.envs.aec import env, raw_env  # noqa: E402
from texas42_log.envs.encoding import ACTIONS, NUM_ACTIONS, action_index, action_mask  # noqa: E402


def test_the_extras_are_installed_where_the_suite_runs() -> None:
    """The importorskip lines above must never skip in CI: the test extra names both."""
    import tomllib
    from pathlib import Path

    test = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text("utf-8"))[
        "project"
    ]["optional-dependencies"]["test"]
    assert any("rl" in r and "openspiel" in r for r in test)


# -- PettingZoo ----------------------------------------------------------------------


# PettingZoo's api_test advises a Box observation and player_N names; ours is the Dict
# with the action mask its classic games use, and the seats are named as the rules name them.
@pytest.mark.filterwarnings(
    "ignore:Observation space for each agent:UserWarning",
    "ignore:We recommend agents to be named:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
)
@pytest.mark.parametrize("rules", ["standard", "tricksy", "casual"])
def test_pettingzoo_api_test(rules: str) -> None:
    api_test(env(rules), num_cycles=300)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: env("casual"), num_cycles=300)


def test_an_episode_is_one_hand_with_zero_sum_rewards() -> None:
    e = env("standard", render_mode="ansi")
    e.reset(seed=7)
    rng = random.Random(7)
    rewards: dict[str, float] = {}
    steps = 0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        assert obs["observation"].shape == (271,) and obs["action_mask"].dtype == np.int8
        if terminated:
            rewards[agent] = reward
            e.step(None)
            continue
        assert obs["action_mask"].any()
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert sum(rewards.values()) == 0 and set(rewards) == set("ABCD") and steps >= 5
    assert rewards["A"] == rewards["C"] == -rewards["B"] != 0
    assert "Hand 1" in e.render()


def test_an_illegal_action_is_said() -> None:
    e = raw_env()
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    with pytest.raises(ValueError, match="is not legal for .* now; see the action mask"):
        e.step(int(np.flatnonzero(mask == 0)[0]))


# -- OpenSpiel ---------------------------------------------------------------------


@pytest.mark.parametrize("params", [{}, {"rules": "tricksy", "dealer": "C"}, {"rules": "plunge-c"}])
def test_openspiel_random_sim_test(params: dict[str, str]) -> None:
    game = pyspiel.load_game("python_texas42", params)
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)


def _random_state(game: Any, seed: int) -> Any:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_openspiel_states_serialise_and_pickle() -> None:
    game = pyspiel.load_game("python_texas42", {"rules": "casual"})
    state = _random_state(game, 3)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert (
        str(state2) == str(state)
        and state2.returns() == state.returns()
        and state2.history() == state.history()
    )
    assert sum(state.returns()) == 0
    clone = state.clone()
    assert clone.information_state_tensor(2) == state.information_state_tensor(2)
    assert pickle.loads(pickle.dumps(state.game)).to_json() == state.game.to_json()


def test_every_action_has_one_number() -> None:
    assert len(ACTIONS) == NUM_ACTIONS == len(set(ACTIONS)) == 330
    assert all(action_index(a) == i for i, a in enumerate(ACTIONS))
    with pytest.raises(ValueError, match="has no number"):
        from texas42_log import Call

        action_index(Call.marks(8))


@pytest.mark.parametrize(
    ("module", "extra"), [("texas42_log.envs.aec", "rl"), ("texas42_log.envs.spiel", "openspiel")]
)
def test_without_its_extra_an_environment_says_which_to_install(module: str, extra: str) -> None:
    blocked = "pettingzoo" if extra == "rl" else "pyspiel"
    ran = subprocess.run(
        [sys.executable, "-c", f"import sys; sys.modules[{blocked!r}] = None; import {module}"],
        capture_output=True,
        text=True,
    )
    assert ran.returncode == 1 and f"pip install 'texas42-log[{extra}]'" in ran.stderr


# -- the re-deal leak test ------------------------------------------------------------

LEAK_MATCHES = 200
#: The re-deal test's matches in blocks of ten: the first in every run, the others in the
#: long selection (conftest.py).
BLOCKS = 20
PRESETS = ["standard", "casual", "tricksy", "plunge-c", "texas-42"]


def _state(game: Any, deal: dict[str, list[str]], dealer: str, actions: list[int]) -> Any:
    """The OpenSpiel state of ``deal`` (the seat's tiles in order) after ``actions``;
    None when one of them is not legal with that deal."""
    state = game.new_initial_state()
    taken = {s: 0 for s in "ABCD"}
    for seat in deal_order(dealer):  # type: ignore[arg-type]
        state.apply_action(TILE_BY_NAME[deal[seat][taken[seat]]].index)
        taken[seat] += 1
    for a in actions:
        if a not in state.legal_actions():
            return None
        state.apply_action(a)
    return state


def _seen(state: Any, env_: Any, seat: str) -> tuple[Any, ...]:
    """Everything the environments and a bot give ``seat`` at this state."""
    p = "ABCD".index(seat)
    env_.game = state.game
    env_.terminations = {s: state.is_terminal() for s in "ABCD"}
    obs = env_.observe(seat)
    out: list[Any] = [
        state.observation_tensor(p),
        state.information_state_tensor(p),
        state.observation_string(p),
        state.information_state_string(p),
        obs["observation"].tolist(),
        obs["action_mask"].tolist(),
    ]
    if not state.is_terminal() and state.current_player() == p:
        now = situation(state.game)
        out += [now.seen, now.legal]
    return tuple(out)


def _redeal(
    rng: random.Random, deal: dict[str, list[str]], keep: str, played: set[str]
) -> dict[str, list[str]]:
    """``deal`` with every tile that ``keep`` cannot see (not its own, not played) dealt again."""
    movable = {s: [t for t in deal[s] if t not in played] if s != keep else [] for s in "ABCD"}
    pool = [t for s in "ABCD" for t in movable[s]]
    rng.shuffle(pool)
    out = {}
    for s in "ABCD":
        fixed = [t for t in deal[s] if t not in movable[s]]
        out[s] = fixed + pool[: len(movable[s])]
        pool = pool[len(movable[s]) :]
    return out


def _leak_case(seed: int) -> tuple[int, int]:
    """Checks one random match: (moments × seats re-dealt and compared, those with no
    different legal re-deal)."""
    rng = random.Random(f"leak {seed}")
    preset = PRESETS[seed % len(PRESETS)]
    dealer = "ABCD"[seed % 4]
    game = pyspiel.load_game("python_texas42", {"rules": preset, "dealer": dealer})
    env_ = raw_env(preset)
    env_.reset(seed=0)
    tiles = [str(t) for t in TILES]
    rng.shuffle(tiles)
    deal: dict[str, list[str]] = {s: [] for s in "ABCD"}
    for seat, t in zip(deal_order(dealer), tiles, strict=False):  # type: ignore[arg-type]
        deal[seat].append(t)
    state = _state(game, deal, dealer, [])
    actions: list[int] = []
    checked = missed = 0
    while True:
        played = {str(ACTIONS[a].tile) for a in actions if hasattr(ACTIONS[a], "tile")}  # type: ignore[attr-defined]
        for seat in "ABCD":
            hidden = [t for s in "ABCD" if s != seat for t in deal[s] if t not in played]
            if len({s for s in "ABCD" if s != seat and any(t not in played for t in deal[s])}) < 2:
                continue  # nothing hidden can move between two seats
            mine = _seen(state, env_, seat)
            for _ in range(25):
                other = _redeal(rng, deal, seat, played)
                if other == deal:
                    continue
                twin = _state(game, other, dealer, actions)
                if twin is None:
                    continue
                assert _seen(twin, env_, seat) == mine, (seed, preset, seat, len(actions))
                checked += 1
                break
            else:
                missed += 1
            assert hidden
        if state.is_terminal():
            return checked, missed
        a = rng.choice(state.legal_actions())
        actions.append(a)
        state.apply_action(a)


@pytest.mark.slow
@pytest.mark.parametrize(
    "block", [b if b < 1 else pytest.param(b, marks=pytest.mark.long) for b in range(BLOCKS)]
)
def test_redealing_hidden_tiles_changes_no_observation(block: int) -> None:
    """Every seat, every moment, of 200 random one-hand matches (10 per block) under
    five presets: the OpenSpiel observation and information state (tensor and
    string), the PettingZoo observation and action mask, and a bot's situation
    when the seat is to act. The re-deal is retried until its actions are legal."""
    checked = missed = 0
    for seed in range(block * LEAK_MATCHES // BLOCKS, (block + 1) * LEAK_MATCHES // BLOCKS):
        c, m = _leak_case(seed)
        checked += c
        missed += m
    assert checked >= 9 * missed and checked > 200, (checked, missed)


def test_the_leak_check_sees_a_seats_own_tiles() -> None:
    """The control: moving one of the seat's own tiles changes what it is given, so
    the equality above is not the encodings seeing nothing."""
    game = pyspiel.load_game("python_texas42", {"dealer": "D"})
    env_ = raw_env()
    env_.reset(seed=0)
    tiles = [str(t) for t in TILES]
    deal: dict[str, list[str]] = {s: [] for s in "ABCD"}
    for seat, t in zip(deal_order("D"), tiles, strict=False):
        deal[seat].append(t)
    swapped = {s: list(deal[s]) for s in "ABCD"}
    swapped["A"][0], swapped["B"][0] = deal["B"][0], deal["A"][0]
    one, two = _state(game, deal, "D", []), _state(game, swapped, "D", [])
    assert _seen(one, env_, "A") != _seen(two, env_, "A")
    assert _seen(one, env_, "C") == _seen(two, env_, "C")
    assert action_mask([ACTIONS[0]]).sum() == 1


def test_the_observation_string_is_the_seats_view_in_words() -> None:
    """observation_string and information_state_string say the seat's view as a sentence
    (the words of texas42 replay), not a dump of the tensor's indices."""
    import re

    game = pyspiel.load_game("python_texas42")
    state = game.new_initial_state()
    assert state.observation_string(1) == "Player B, being dealt: no tile yet."
    rng = random.Random(5)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    state.apply_action(state.legal_actions()[-1])  # B's first call
    text = state.observation_string(1)
    assert text.startswith("Hand 1 · ") and "Your hand (B): [" in text
    assert not re.search(r"\b\d+:\d", text)  # no index:value pairs
    assert state.information_state_string(1).split("\n")[-1] == text
    assert "Your hand (B)" not in state.observation_string(2)
    for _ in range(3):  # C, D and A call: B sees each
        state.apply_action(state.legal_actions()[0])
    history = state.information_state_string(1).split("\n")
    assert len(history) >= 2 and history[-1] == state.observation_string(1)


def test_a_whole_match_can_be_one_episode() -> None:
    """episode="match": the hands follow one another to the match's end; each hand's
    marks are rewarded as it ends, so the episode's rewards add up to the match's marks
    difference, zero-sum; PettingZoo's API test passes on it too."""
    api_test(env(episode="match"), num_cycles=400)
    e = env(episode="match")
    e.reset(seed=3)
    total = {a: 0.0 for a in "ABCD"}
    hands_seen = set()
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        total[agent] += reward
        raw = e.unwrapped
        if raw.game is not None and raw.game.to_act is not None:
            hands_seen.add(raw.game.to_act.hand)
        action = (
            None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        )
        e.step(action)
    game = e.unwrapped.game
    assert game is not None and game.to_act is None and game.winner is not None
    assert len(hands_seen) > 1
    marks = game.to_dict()["result"]["marks"]
    assert total["A"] == total["C"] == marks["A+C"] - marks["B+D"] == -total["B"]
    with pytest.raises(ValueError, match="episode is 'hand' or 'match'"):
        raw_env(episode="season")
