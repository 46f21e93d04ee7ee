"""Texas 42 as an OpenSpiel game (``pip install 'texas42-log[openspiel]'``).

Importing this module registers ``python_texas42`` with ``pyspiel``::

    import pyspiel
    import texas42_log.envs.spiel  # registers the game
    game = pyspiel.load_game("python_texas42", {"rules": "standard", "dealer": "D"})

A game is one hand, sequential, imperfect information, zero-sum, with explicit
chance for the deal: 28 chance nodes deal one tile each, clockwise from the
dealer's left (R3), each of the tiles not yet dealt equally likely. Then the
four players (0–3 are seats A–D) call, declare and play by the preset's rules;
the returns are each side's marks for the hand less the other's.

Player actions are numbered as :data:`texas42_log.envs.encoding.ACTIONS`; chance
actions are tile numbers (0–27). The information state (perfect recall) and
the observation (the moment now) are encoded from the player's own views alone
(:mod:`texas42_log.envs.encoding`), as tensors and as strings. States serialise
by their history, as every OpenSpiel game does (``pyspiel.serialize_game_and_state``).
"""

from __future__ import annotations

import importlib.util
from typing import Any

if importlib.util.find_spec("pyspiel") is None or importlib.util.find_spec("numpy") is None:
    raise ImportError("the OpenSpiel game needs open_spiel: pip install 'texas42-log[openspiel]'")

import numpy as np
import pyspiel

from ..bots.base import hand_end_view, hand_seen, situation
from ..engine.live import deal_order
from ..engine.presets import find_preset
from ..engine.seats import SEATS, TEAMS, Seat, team_of
from ..engine.tiles import TILES, Tile
from ..play.game import Game
from ..views.model import View
from .encoding import (
    ACTIONS,
    INFORMATION_STATE_SIZE,
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    RULES_SUPPORT,
    action_index,
    information_state,
    observation,
)

__all__ = ["Texas42Game", "Texas42State", "GAME_TYPE", "SHORT_NAME"]

SHORT_NAME = "python_texas42"
#: The longest hand: 28 tiles dealt, 4 calls, a declaration, 28 plays.
MAX_GAME_LENGTH = 28 + 4 + 1 + 28

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Texas 42 (texas42-log)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=4,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"rules": "standard", "dealer": "A"},
)


class Texas42Game(pyspiel.Game):  # type: ignore[misc]
    """One hand of Texas 42 under a rules preset (``rules``), dealt by ``dealer``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.rules_name = str(params.get("rules", "standard"))
        rules = find_preset(self.rules_name)
        RULES_SUPPORT.check(rules)
        self.dealer: Seat = str(params.get("dealer", "A"))  # type: ignore[assignment]
        if self.dealer not in SEATS:
            raise ValueError(f"the dealer is a seat, A to D, not {self.dealer[:10]!r}")
        most = (
            max(7, rules.max_mark_bid or 7) * 4
        )  # a hand's marks: at most its bid, plunge included
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=len(TILES),
            num_players=4,
            min_utility=-float(most),
            max_utility=float(most),
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(GAME_TYPE, info, {"rules": self.rules_name, "dealer": self.dealer})

    def new_initial_state(self) -> Texas42State:
        return Texas42State(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Texas42Observer:
        if params:
            raise ValueError(f"the observer takes no parameters, not {params!r}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return Texas42Observer(recall)


class Texas42State(pyspiel.State):  # type: ignore[misc]
    """A hand being dealt or played; the engine's :class:`~texas42_log.play.game.Game`
    underneath."""

    def __init__(self, game: Texas42Game) -> None:
        super().__init__(game)
        self.rules_name = game.rules_name
        self.dealer = game.dealer
        self.order = deal_order(game.dealer)
        self.dealt: list[Tile] = []
        self.game: Game | None = None

    # -- the game's course ------------------------------------------------------

    def _over(self) -> bool:
        if self.game is None:
            return False
        turn = self.game.to_act
        return turn is None or turn.hand > 1

    def current_player(self) -> int:
        if self.game is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self._over():
            return int(pyspiel.PlayerId.TERMINAL)
        turn = self.game.to_act
        assert turn is not None
        return SEATS.index(turn.seat)

    def is_terminal(self) -> bool:
        return self._over()

    def _legal_actions(self, player: int) -> list[int]:
        if self.game is None or self._over() or SEATS[player] != self.current_seat():
            return []
        return sorted(action_index(a) for a in self.game.legal_actions())

    def current_seat(self) -> Seat | None:
        turn = self.game.to_act if self.game is not None else None
        return turn.seat if turn is not None else None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = [t.index for t in TILES if t not in self.dealt]
        return [(i, 1.0 / len(left)) for i in left]

    def _apply_action(self, action: int) -> None:
        if self.game is None:
            tile = TILES[action]
            if tile in self.dealt:
                raise ValueError(f"{tile} is dealt already")
            self.dealt.append(tile)
            if len(self.dealt) == len(TILES):
                hands: dict[Seat, list[Tile]] = {s: [] for s in SEATS}
                for seat, t in zip(self.order, self.dealt, strict=True):
                    hands[seat].append(t)
                self.game = Game(self.rules_name, first_dealer=self.dealer)
                self.game.deal(hands)
            return
        self.game.push(ACTIONS[action])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {TILES[action]}"
        return str(ACTIONS[action])

    def returns(self) -> list[float]:
        if not self._over():
            return [0.0] * 4
        assert self.game is not None
        marks = self.game.to_dict(hands=1)["hands"][0]["outcome"]["marks"]
        out = []
        for seat in SEATS:
            mine = team_of(seat)
            theirs = next(t for t in TEAMS if t != mine)
            out.append(float(marks[mine] - marks[theirs]))
        return out

    def __str__(self) -> str:
        if self.game is None:
            return f"dealing: {len(self.dealt)} of 28 tiles dealt"
        return "; ".join(str(step) for step in self.game.history)

    # -- what a player sees -------------------------------------------------------

    def seen(self, player: int) -> list[View]:
        """The hand so far as ``player`` saw it, one view per moment (empty while dealing)."""
        if self.game is None:
            return []
        return hand_seen(self.game, SEATS[player], 1)

    def view_now(self, player: int) -> View | None:
        if self.game is None:
            return None
        if self._over():
            return hand_end_view(self.game, SEATS[player])
        if self.current_seat() == SEATS[player]:
            return situation(self.game).view
        return self.game.view(SEATS[player])


class Texas42Observer:
    """OpenSpiel's observer: the tensor and the string of a player's information
    state (``perfect_recall``) or observation, from that player's views alone.
    While the tiles are dealt, only the player's own tiles so far."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        size = INFORMATION_STATE_SIZE if perfect_recall else OBSERVATION_SIZE
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: Texas42State, player: int) -> None:
        self.tensor.fill(0)
        if state.game is None:
            for seat, t in zip(state.order, state.dealt, strict=False):
                if seat == SEATS[player]:
                    self.tensor[t.index] = (
                        1  # the hand's first 28 numbers are the own tiles, in both layouts
                    )
            return
        if self.perfect_recall:
            self.tensor[:] = information_state(state.seen(player))
        else:
            view = state.view_now(player)
            assert view is not None
            self.tensor[:] = observation(view)

    def string_from(self, state: Texas42State, player: int) -> str:
        """The player's view in words, as ``texas42 replay`` says it: its observation now,
        or (``perfect_recall``) every view it has had this hand, a line each. While the
        tiles are dealt, the player's own tiles so far."""
        from ..views.text import view_lines

        seat = SEATS[player]
        if state.game is None:
            own = [str(t) for s, t in zip(state.order, state.dealt, strict=False) if s == seat]
            return f"Player {seat}, being dealt: {', '.join(own) or 'no tile yet'}."
        if self.perfect_recall:
            return "\n".join(" ".join(view_lines(v)) for v in state.seen(player))
        view = state.view_now(player)
        assert view is not None
        return " ".join(view_lines(view))


pyspiel.register_game(GAME_TYPE, Texas42Game)
