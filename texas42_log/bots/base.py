"""What a bot is: a function of its seat's view.

A bot is any object with one method, :meth:`Bot.act`, which is given a
:class:`Situation` — the seat, the rules, the legal actions, and the hand so far
exactly as that seat saw it (its :class:`~texas42_log.views.model.View` of every
moment, R25–R29) — and returns one of the legal actions. It is never handed the
game or the deal: what it may know is what the views hold, and the views are the
one visibility boundary the logs, the viewer and the environments share.

:func:`situation` builds a situation from a live :class:`~texas42_log.play.game.Game`
(the table's side of the boundary); :func:`play_turn` asks a bot and pushes its
answer, refusing an answer that is not one of the legal actions.

Pure: no I/O.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from ..engine.actions import Action, ActionKind
from ..engine.rules import Rules
from ..engine.seats import SEATS, Seat
from ..engine.support import Support

if TYPE_CHECKING:
    from ..play.game import Game
    from ..views.model import Observer, View

__all__ = [
    "Bot",
    "BotFactory",
    "Situation",
    "situation",
    "play_turn",
    "play_out",
    "BotError",
    "seed_of",
    "hand_seen",
    "hand_end_view",
]


@dataclass(frozen=True, slots=True)
class Situation:
    """One decision of one seat: everything a bot is given.

    ``seen`` is the current hand as the seat saw it, one view per moment from the
    deal on (the auction's calls, the declaration, every play); the last is the
    moment now (:attr:`view`). Each is built for the seat as observer, so it holds
    the seat's own tiles, the table, and nothing else (R25–R29)."""

    seat: Seat
    kind: ActionKind
    rules: Rules
    #: The actions the rules allow now, in the engine's fixed order; the answer is one of them.
    legal: tuple[Action, ...]
    seen: tuple[View, ...]

    @property
    def view(self) -> View:
        """The moment now, as the seat sees it."""
        return self.seen[-1]


@runtime_checkable
class Bot(Protocol):
    """A player: given a :class:`Situation`, one of its legal actions."""

    def act(self, situation: Situation) -> Action: ...


#: Makes a bot for one seat: ``factory(seed)``; the same seed, the same choices.
BotFactory = Callable[[int], Bot]


class BotError(ValueError):
    """A bot answered with something that is not one of the legal actions."""


def seed_of(*parts: object) -> int:
    """A 63-bit seed from any parts (the match seed, the deal, the seat, …): the same
    parts give the same seed on every machine and Python (no ``hash()`` salt)."""
    text = ":".join(str(p) for p in parts)
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "big") >> 1


def situation(game: Game, seat: Seat | None = None) -> Situation:
    """The situation of the seat to act in ``game`` (which must be in a call, a
    declaration or a play): built from the seat's own views of the hand only."""
    turn = game.to_act
    if turn is None or turn.kind == "deal":
        raise ValueError(
            "no bot acts now: "
            + ("the match is over" if turn is None else "a deal is to be entered")
        )
    if seat is not None and seat != turn.seat:
        raise ValueError(f"it is {turn.seat}'s turn, not {seat}'s")
    return Situation(
        turn.seat,
        turn.kind,
        game.rules,
        tuple(game.legal_actions()),
        tuple(hand_seen(game, turn.seat)),
    )


def hand_seen(game: Game, seat: Seat, hand: int | None = None) -> list[View]:
    """Hand ``hand`` (from 1; default the current one) as ``seat`` saw it, one view a
    moment: built from the game's log for the seat as observer."""
    from ..log.model import Match
    from ..views.visibility import hand_views

    match = game.to_match() if hand is None else Match.model_validate(game.to_dict(hands=hand))
    return hand_views(match, seat, len(match.hands) - 1)


def hand_end_view(game: Game, observer: Observer, hand: int = 1) -> View:
    """Hand ``hand`` (from 1) as it ended, for ``observer`` (the end of an arena's or an
    environment's one-hand episode)."""
    from ..log.model import Match
    from ..views.visibility import Moment, view_for

    return view_for(
        Match.model_validate(game.to_dict(hands=hand)), observer, hand - 1, Moment.end()
    )


def play_turn(game: Game, bots: Mapping[Seat, Bot]) -> Action:
    """Ask the bot of the seat to act for its action and push it; :class:`BotError`
    (naming the bot's seat and answer) when the answer is not a legal action."""
    now = situation(game)
    support = getattr(bots[now.seat], "support", None)
    if isinstance(support, Support):  # a built-in bot's declaration: refused by name
        support.check(now.rules)
    try:
        answer = bots[now.seat].act(now)
    except BotError:
        raise
    except Exception as e:  # a bot of someone's own: say what broke, and where
        raise BotError(
            f"the bot at {now.seat} failed to choose a {now.kind}: {type(e).__name__}: {e}"
        ) from e
    if answer not in now.legal:
        legal = ", ".join(str(a) for a in now.legal[:12]) + (", …" if len(now.legal) > 12 else "")
        raise BotError(
            f"the bot at {now.seat} answered {str(answer)[:60]!r}, which is not a legal {now.kind} "
            f"now (legal: {legal})"
        )
    game.push(answer, seat=now.seat)
    return answer


def play_out(game: Game, bots: Mapping[Seat, Bot], *, hands: int | None = None) -> Game:
    """Let the bots play ``game`` on until the match is over, or until ``hands``
    hands (counting from the first) are over; returns the game."""
    if set(bots) != set(SEATS):
        raise ValueError("a bot for each seat, A to D")
    while (turn := game.to_act) is not None:
        if hands is not None and turn.hand > hands:
            break
        play_turn(game, bots)
    return game
