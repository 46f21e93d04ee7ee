"""Who sits where at a table, kept with its match: the seats bots play (each bot with
its settings) and the bots' pace, in the log's extension field :data:`FIELD` (an ``x-``
field: every version of the format keeps it, and every converter carries it).

So a table stopped and started again goes on with the same seats: ``texas42 table LOG``
alone, or the very command line it was started with. A command line that says
otherwise — another bot, a seat that was a bot now a person's, other players' names,
other rules — is refused with one sentence that says what to type (:func:`restart`).

Pure: no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["FIELD", "DEFAULT_DELAY", "Seating", "restart"]

#: The log's field that keeps the seating.
FIELD = "x-texas42-table"

#: Seconds before every bot action when nothing else is said.
DEFAULT_DELAY = 1.0


@dataclass(frozen=True, slots=True)
class Seating:
    """The seats bots play (seat → the bot as ``--bot`` names it, settings included) and
    the seconds before every bot action."""

    bots: Mapping[str, str]
    delay: float = DEFAULT_DELAY

    def as_json(self) -> dict[str, Any]:
        return {"bots": dict(sorted(self.bots.items())), "bot_delay": self.delay}

    @classmethod
    def from_json(cls, value: Any) -> Seating | None:
        """The seating a log keeps, or None when the field is absent or not ours (a log
        written by hand or by another program: nothing is taken from it)."""
        if not isinstance(value, dict):
            return None
        bots, delay = value.get("bots"), value.get("bot_delay", DEFAULT_DELAY)
        if not isinstance(bots, dict) or len(bots) > 4:
            return None
        if not all(s in ("A", "B", "C", "D") and isinstance(b, str) for s, b in bots.items()):
            return None
        if not all(0 < len(b) <= 200 for b in bots.values()):
            return None
        number = isinstance(delay, (int, float)) and not isinstance(delay, bool)
        if not number or not math.isfinite(delay) or not 0 <= delay <= 60:
            return None
        return cls(dict(bots), float(delay))

    def words(self, log: str) -> str:
        """The command that starts this table again with these seats."""
        parts = [f"texas42 table {log}"]
        parts += [f"--bot {s}={b}" for s, b in sorted(self.bots.items())]
        if self.bots and self.delay != DEFAULT_DELAY:
            parts.append(f"--bot-delay {self.delay:g}")
        return " ".join(parts)


def restart(
    log: str,
    kept: Seating | None,
    bots: Mapping[str, str],
    delay: float | None,
    named: Mapping[str, str],
    players: Mapping[str, str],
) -> Seating:
    """The seating a table started again on ``log`` plays with: ``kept`` (what the log
    keeps; None for a log that keeps none), unless the command line says it anew —
    ``bots`` and ``delay`` (None: not given) as asked, and ``named``, the players the
    command line names, against ``players``, the log's. A ``ValueError`` (one sentence,
    what to type) when the command line contradicts the log."""
    if kept is None:  # a log from before tables kept their seats: the command decides
        return Seating(dict(bots), DEFAULT_DELAY if delay is None else delay)
    again = kept.words(log)
    if bots and dict(bots) != dict(kept.bots):
        raise ValueError(
            f"{log}'s match is played with {_bots_text(kept.bots)}, not {_bots_text(bots)}: "
            f"start it again with `{again}`"
        )
    for seat, name in named.items():
        if players.get(seat) != name:
            was = players.get(seat)
            who = f"{was!r}" if was else "no name"
            raise ValueError(
                f"{log} names {who} at seat {seat}, not {name!r}: a match keeps its players; "
                f"start it again with `{again}`"
            )
    return Seating(kept.bots, kept.delay if delay is None else delay)


def _bots_text(bots: Mapping[str, str]) -> str:
    if not bots:
        return "no bot"
    return ", ".join(f"{s}={b}" for s, b in sorted(bots.items()))
