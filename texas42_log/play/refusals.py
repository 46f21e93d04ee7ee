"""What a seat is told when its action is refused: words drawn from its own view only.

The validator writes for whoever holds the whole log: "A plays [0|1], which was dealt
to D (R3)". Said to seat A at a table, that sentence tells A who holds a tile it may
not see (R25). :func:`seat_refusal` builds the refusal a seat is given instead, from
what that seat may see — the public record (the calls, the contract, the tiles played
and by whom) and its own hand:

- the check that words the refusal runs on a copy of the play in which every other
  seat's unplayed tiles are unknown (:func:`masked`), so no sentence the engine writes
  there can name them;
- the cases a seat meets most often have sentences of their own, addressed to the seat
  ("[0|1] is not in your hand (R3)");
- every refusal carries a message ``key`` and its ``params`` beside the English
  sentence, so a page can say it in the seat's language (the catalogue is
  :data:`KEYS`; ``params`` hold tiles, seats, numbers and rule ids only).

:meth:`Game.push(action, seat=...) <texas42_log.play.game.Game.push>` raises a
:class:`Refusal`; :meth:`Game.push(action) <texas42_log.play.game.Game.push>` without a
seat — an operator who sees every hand, as at ``texas42 record`` — keeps the
validator's sentence.

Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..engine.actions import Action, Call, Declare, Play
from ..engine.errors import IllegalAction, Refusal
from ..engine.hand import PlayState
from ..engine.live import LiveHand, Turn
from ..engine.seats import SEATS, Seat

__all__ = ["KEYS", "VERBS", "Refusal", "masked", "seat_refusal", "wrong_time"]

#: Every message key a refusal may carry, with the English template its sentence
#: follows (``{name}`` is a parameter). A page that speaks another language has a
#: sentence for each key; ``rule`` is always a parameter.
KEYS: Mapping[str, str] = {
    "match_over": "the match is over: {winner} won it; no more actions are taken ({rule})",
    "not_your_turn": "it is {turn}'s turn to {verb}, not yours ({rule})",
    "not_time_to_call": "it is your call in the auction (pass or a bid), not a {tried} ({rule})",
    "not_time_to_declare": "it is your turn to declare trumps, not to {tried} ({rule})",
    "not_time_to_play": "it is your turn to play a tile: the auction is over ({rule})",
    "not_in_hand": "{tile} is not in your hand ({rule})",
    "already_played": "{tile} was played already, by {by} in trick {trick} ({rule})",
    "hand_decided": "the hand is decided: no more tiles are played ({rule})",
    "renege": "you must follow {suit}: you hold {follow} ({rule})",
    "call_refused": "your call {call} is not allowed now ({rule})",
    "trump_refused": "you may not declare {trump} now ({rule})",
    "play_refused": "you may not play {tile} now ({rule})",
}

#: What each kind of turn asks, as the sentences say it ("it is C's turn to play").
VERBS: Mapping[str, str] = {
    "call": "call",
    "declare": "declare trumps",
    "play": "play",
    "deal": "deal",
}
_KIND_RULE = {"call": "R7", "declare": "R10", "play": "R21", "deal": "R3"}
_TRIED = {"call": "call", "declare": "trump", "play": "tile", "deal": "deal"}


def _keyed(rule: str, key: str, message: str | None = None, **params: Any) -> Refusal:
    text = message if message is not None else KEYS[key].format(rule=rule, **params)
    return Refusal(rule, key, params, text)


def masked(state: PlayState, seat: Seat) -> PlayState:
    """A copy of the play in which only ``seat``'s own tiles are known: every other
    seat's unplayed tiles are unknown, as ``seat`` sees them (R25)."""
    out = state.copy()
    for s in SEATS:
        if s != seat:
            out.unknown[s] = len(state.known[s]) + state.unknown[s]
            out.known[s] = set()
    return out


def wrong_time(turn: Turn, tried: str) -> Refusal:
    """The refusal of an action of another kind than ``turn`` asks for (``tried``:
    ``call``, ``declare``, ``play``), told to the seat whose turn it is."""
    rule = _KIND_RULE[turn.kind]
    if turn.kind == "call":
        return _keyed(rule, "not_time_to_call", tried=_TRIED[tried])
    if turn.kind == "declare":
        return _keyed(
            rule, "not_time_to_declare", tried="play a tile" if tried == "play" else "call"
        )
    return _keyed(rule, "not_time_to_play")


def seat_refusal(
    hand: LiveHand,
    turn: Turn | None,
    act: Action,
    seat: Seat,
    error: IllegalAction,
    winner: str | None = None,
) -> Refusal:
    """The refusal ``seat`` is told for ``act``, which the engine refused with ``error``
    (module docstring). ``error`` lends only its rule id, and only where the seat's own
    view decides that id (a seat may see why its own action breaks a rule)."""
    if turn is None:
        return _keyed("R24", "match_over", winner=winner or "a team")
    if seat != turn.seat:
        rule = _KIND_RULE[turn.kind]
        return _keyed(rule, "not_your_turn", turn=turn.seat, verb=VERBS[turn.kind])
    if act.action_kind != turn.kind:
        return wrong_time(turn, act.action_kind)
    if isinstance(act, Call):
        # The auction is public; the one private fact it reads is the caller's own
        # doubles (a Plunge or Splash), so its sentence is the caller's to read.
        assert hand.auction is not None
        try:
            hand.auction.check(seat, act.kind, act.bid, act.special)
        except IllegalAction as e:
            return _keyed(e.rule, "call_refused", e.message, call=str(act))
        return _keyed(error.rule, "call_refused", call=str(act))
    if isinstance(act, Declare):
        # A declaration's checks read the contract and the choice, both public.
        return _keyed(error.rule, "trump_refused", error.message, trump=str(act))
    assert isinstance(act, Play) and hand.state is not None
    return _play_refusal(hand.state, seat, act, error)


def _play_refusal(state: PlayState, seat: Seat, act: Play, error: IllegalAction) -> Refusal:
    t = str(act.tile)
    if state.finished:
        return _keyed("R22", "hand_decided", tile=t)
    if act.tile in state.played:
        trick, by = state.played[act.tile]
        return _keyed("R3", "already_played", tile=t, by=by, trick=trick)
    if act.tile not in state.known[seat] and state.unknown[seat] == 0:
        return _keyed("R3", "not_in_hand", tile=t)
    view = masked(state, seat)
    try:
        view.check(seat, act.tile, act.led)
    except IllegalAction as e:
        could = e.context.get("could_follow")
        if could is not None:
            suit = str(e.context.get("led_suit", ""))
            return _keyed(e.rule, "renege", e.message, tile=t, suit=suit, follow=list(could))
        return _keyed(e.rule, "play_refused", e.message, tile=t)
    # Only a log with unknown tiles gets here (what a play proves of an earlier one):
    # the rule id alone, no sentence of the whole deal's.
    return _keyed(error.rule, "play_refused", tile=t)
