"""The log half of a live :class:`~texas42_log.play.game.Game`: the match so far as a
format-v1 document, model or JSON text, and a game as plain data (copied, pickled for
worker processes and OpenSpiel). Pure: no I/O.
"""

from __future__ import annotations

import copy
from typing import Any, Self

from ..engine.live import LiveHand
from ..engine.rules import Rules
from ..engine.seats import Team
from ..log.check import check_match
from ..log.inert import dumps
from ..log.model import Match, in_key_order, minimal_version
from ..log.versions import at_least_version

__all__ = ["GameLog"]


class GameLog:
    """The log half of :class:`~texas42_log.play.game.Game` (see the module text)."""

    rules: Rules
    preset: str
    seed: int | None
    record_rejected: bool
    _min_version: str
    _doc: dict[str, Any]
    _hands: list[LiveHand]
    _score: dict[Team, int]
    _winner: Team | None

    def _export(self, upto: int | None = None) -> dict[str, Any]:
        doc = copy.deepcopy({k: v for k, v in self._doc.items() if k != "hands"})
        hands = self._doc["hands"] if upto is None else self._doc["hands"][:upto]
        doc["hands"] = [copy.deepcopy(h) for h in hands if "auction" in h or upto is not None]
        if upto is None:
            if self._winner is not None:
                doc["status"] = "complete"
                doc["result"] = {"winner": self._winner, "marks": dict(self._score)}
            else:
                doc["status"] = "unfinished"
        ordered = in_key_order(doc)
        least = minimal_version(ordered)
        ordered["version"] = at_least_version(least, self._min_version)
        return ordered

    def _problem_free(self, doc: dict[str, Any]) -> Match:
        """The rules given are ones the format and the engine accept (a bad option says so)."""
        try:
            match = Match.model_validate(doc)
        except ValueError as e:
            first = str(e).splitlines()
            raise ValueError(
                f"these rules cannot be written in a log: {' '.join(first[1:3]).strip()}"
            ) from None
        errors = check_match(match).errors
        if errors:
            raise ValueError(f"these rules cannot be played: {errors[0].message}")
        return match

    def set_extension(self, key: str, value: Any) -> None:
        """Set the match-level ``x-`` field ``key`` of the log (kept by every conversion);
        :class:`ValueError` for a name that does not start with ``x-``."""
        if not key.startswith("x-"):
            raise ValueError(f"an extension field's name starts with x-, not {key[:20]!r}")
        self._doc[key] = value

    def to_dict(self, *, hands: int | None = None) -> dict[str, Any]:
        """The log at this moment as a format-v1 JSON object (a new dict each time);
        with ``hands``, of the first ``hands`` hands only (an unfinished match, when
        the game has gone on past them: a duplicate arena's log of one deal)."""
        if hands is not None and hands < 0:
            raise ValueError("hands counts hands: it is not negative")
        if hands is None or hands >= len(self._hands):
            return self._export()
        return self._export(upto=hands)

    def to_match(self) -> Match:
        """The log at this moment: a complete match once it is over, else an
        unfinished one that ``texas42 validate`` accepts."""
        return Match.model_validate(self._export())

    def to_json(self) -> str:
        """The log at this moment as the JSON text ``texas42`` writes (2-space indent)."""
        return dumps(self._export(), indent=2) + "\n"

    def copy(self) -> Self:
        """An independent copy (try lines on it without changing this game)."""
        other = type(self).__new__(type(self))
        other.__setstate__(copy.deepcopy(self.__getstate__()))
        return other

    def __getstate__(self) -> dict[str, Any]:
        """What a game is, as plain data (pickled so, for worker processes and
        OpenSpiel): the log so far and the bookkeeping the engine rebuilds from it."""
        return {
            "rules": self.rules,
            "preset": self.preset,
            "seed": self.seed,
            "record_rejected": self.record_rejected,
            "min_version": self._min_version,
            "doc": self._doc,
            "hands": [(h.auto, dict(h.score_before)) for h in self._hands],
            "score": dict(self._score),
            "winner": self._winner,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.rules, self.preset, self.seed = state["rules"], state["preset"], state["seed"]
        self.record_rejected, self._min_version = state["record_rejected"], state["min_version"]
        self._doc = state["doc"]
        self._hands = []
        for (auto, score_before), entry in zip(state["hands"], self._doc["hands"], strict=True):
            hand = LiveHand(self.rules, entry, auto, score_before)
            self._hands.append(hand)
            hand.rebuild()
        self._score, self._winner = dict(state["score"]), state["winner"]

    def __copy__(self) -> Self:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self.copy()
