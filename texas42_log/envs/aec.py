"""Texas 42 as a PettingZoo AEC environment (``pip install 'texas42-log[rl]'``).

An episode is one hand: the tool deals (from the episode's seed), the four
agents ``A`` ``B`` ``C`` ``D`` call in turn, the winner of the auction declares,
and the hand is played to its end by the rules preset (R7–R23). Each agent's
observation is a dict:

* ``observation`` — :func:`texas42_log.envs.encoding.observation` of the agent's
  own view of the moment (271 numbers in [0, 1]; nothing it may not see);
* ``action_mask`` — 1 for each legal action of :data:`~texas42_log.envs.encoding.ACTIONS`
  (330), all 0 when it is not the agent's turn.

At the end each agent is rewarded its side's marks for the hand less the other
side's (zero-sum; an all-pass hand ends at 0). With ``episode="match"`` an episode
is a whole match instead: the hands follow one another as the rules say (the deal
passes to the left, R3) until a side reaches the match's goal (R24), and at the end
of each hand each agent is rewarded that hand's marks in the same way, so an
episode's rewards add up to the match's marks difference. ``render()`` in
``"ansi"`` mode is the public view of the moment as text.

    from texas42_log.envs.aec import env
    e = env(rules="standard")
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        done = terminated or truncated
        action = None if done else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)
"""

from __future__ import annotations

import importlib.util
import random
from typing import Any

if (
    importlib.util.find_spec("pettingzoo") is None
    or importlib.util.find_spec("gymnasium") is None
    or importlib.util.find_spec("numpy") is None
):
    raise ImportError(
        "the PettingZoo environment needs pettingzoo and gymnasium: pip install 'texas42-log[rl]'"
    )

import numpy as np
from gymnasium import spaces
from pettingzoo.utils.env import AECEnv

from ..bots.base import hand_end_view, situation
from ..engine.rules import Rules
from ..engine.seats import SEATS, TEAMS, Seat, team_of
from ..play.game import Game
from ..views.locales import DEFAULT_LANGUAGE
from ..views.text import view_lines
from .encoding import (
    ACTIONS,
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    RULES_SUPPORT,
    action_mask,
    observation,
)

__all__ = ["Texas42Env", "env", "raw_env"]


class Texas42Env(AECEnv):  # type: ignore[misc]
    """See the module text. ``rules``: a preset's name (``texas42 rules`` lists them) or
    :class:`~texas42_log.engine.rules.Rules`; rules whose calls the action space cannot
    number are refused (:data:`~.encoding.RULES_SUPPORT`)."""

    metadata: dict[str, Any] = {
        "name": "texas42_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self, rules: str | Rules = "standard", render_mode: str | None = None, episode: str = "hand"
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is 'ansi' or None, not {render_mode!r}")
        if episode not in ("hand", "match"):
            raise ValueError(f"episode is 'hand' or 'match', not {episode!r}")
        self.episode = episode
        #: The hand being played (from 1).
        self._hand = 1
        RULES_SUPPORT.check(Game(rules).rules)  # refused here, not at the first reset
        self.rules = rules
        self.render_mode = render_mode
        self.possible_agents: list[Seat] = list(SEATS)
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
            }
        )
        self._act_space = spaces.Discrete(NUM_ACTIONS)
        self._rng = random.Random()
        self.game: Game | None = None

    def observation_space(self, agent: Seat) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: Seat) -> spaces.Space[Any]:
        return self._act_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        dealer = SEATS[self._rng.randrange(4)]
        self.game = Game(self.rules, first_dealer=dealer, seed=self._rng.getrandbits(63))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[Seat, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._hand = 1
        self._next()

    def _last_hand(self) -> int:
        """The number (from 1) of the last hand an episode of this kind plays."""
        return self._hand if self.episode == "match" else 1

    def _over(self) -> bool:
        assert self.game is not None
        turn = self.game.to_act
        return turn is None or turn.hand > self._last_hand()

    def _next(self) -> None:
        assert self.game is not None
        turn = self.game.to_act
        if self.episode == "match" and turn is not None and turn.hand > self._hand:
            self._reward(self._hand)  # a hand ended and the next began
            self._hand = turn.hand
        if turn is None or turn.hand > self._last_hand():
            self._finish()
            return
        self.agent_selection = turn.seat

    def _reward(self, number: int) -> dict[str, Any]:
        """Reward hand ``number``'s marks (its side's less the other's); its log entry."""
        assert self.game is not None
        hand = self.game.to_dict(hands=number)["hands"][number - 1]
        marks = hand["outcome"]["marks"]
        for a in self.agents:
            mine = team_of(a)
            theirs = next(t for t in TEAMS if t != mine)
            self.rewards[a] = float(marks[mine] - marks[theirs])
        return dict(hand)

    def _finish(self) -> None:
        hand = self._reward(self._hand)
        assert self.game is not None
        for a in self.agents:
            self.terminations[a] = True
            self.infos[a] = {"result": hand["outcome"]["result"]}
            if self.episode == "match":
                self.infos[a]["winner"] = self.game.winner

    def observe(self, agent: Seat) -> dict[str, Any]:
        assert self.game is not None
        if self.terminations.get(agent) or self._over():
            return {
                "observation": observation(hand_end_view(self.game, agent)),
                "action_mask": np.zeros(NUM_ACTIONS, dtype=np.int8),
            }
        turn = self.game.to_act
        assert turn is not None  # not over
        if turn.seat == agent:
            now = situation(self.game, agent)
            return {"observation": observation(now.view), "action_mask": action_mask(now.legal)}
        return {
            "observation": observation(self.game.view(agent)),
            "action_mask": np.zeros(NUM_ACTIONS, dtype=np.int8),
        }

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.game is not None
        if action is None or not 0 <= int(action) < NUM_ACTIONS:
            raise ValueError(f"{agent} must act: an action number from 0 to {NUM_ACTIONS - 1}")
        chosen = ACTIONS[int(action)]
        if chosen not in self.game.legal_actions():
            raise ValueError(
                f"action {int(action)} ({chosen}) is not legal for {agent} now; see the action mask"
            )
        self._cumulative_rewards[agent] = 0.0
        self.game.push(chosen, seat=agent)
        self._clear_rewards()
        self._next()
        self._accumulate_rewards()
        if all(self.terminations.values()):
            self._deads_step_first()

    def render(self) -> str | None:
        if self.render_mode is None or self.game is None:
            return None
        view = hand_end_view(self.game, "public") if self._over() else self.game.view("public")
        return "\n".join(view_lines(view, DEFAULT_LANGUAGE))

    def close(self) -> None:
        pass


def raw_env(
    rules: str | Rules = "standard", render_mode: str | None = None, episode: str = "hand"
) -> Texas42Env:
    """The environment itself."""
    return Texas42Env(rules, render_mode, episode)


def env(
    rules: str | Rules = "standard", render_mode: str | None = None, episode: str = "hand"
) -> AECEnv:
    """The environment with PettingZoo's usual checks around it (an illegal or
    out-of-range action, acting after the end, is an error said at once)."""
    from pettingzoo.utils import wrappers

    e: AECEnv = raw_env(rules, render_mode, episode)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
