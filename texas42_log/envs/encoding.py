"""Numbers for learning agents, made from a seat's views alone.

Everything here reads :class:`~texas42_log.views.model.View` objects built for the
seat (R25–R29) and nothing else: a re-deal of the tiles the seat cannot see
leaves every array unchanged (tests/test_envs.py re-deals them at every moment).

* :data:`ACTIONS` — one numbering of every action of every rules preset (330):
  pass; point bids 1–42; mark bids 1–7, plain, Plunge and Splash; the
  declarations (9 trumps, Nel-O with each placing of the doubles, Sevens; each
  without and with 1 or 2 stacks); and the plays (28 tiles, each also with a
  declared led suit 0–6). :func:`action_mask` marks the legal ones.
* :func:`observation` — the moment now (:data:`OBSERVATION_SIZE` numbers in [0, 1]).
* :func:`information_state` — the hand so far as the seat saw it, with perfect
  recall: its dealt tiles, every call, the declaration, every play in order
  (:data:`INFORMATION_STATE_SIZE`).

Seats are counted from the observer: 0 itself, 1 the next seat clockwise (its left),
2 its partner, 3 the seat on its right. The layouts are in docs/bots.md.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from typing import Final

if importlib.util.find_spec("numpy") is None:
    raise ImportError(
        "the environments' encoding needs numpy: pip install 'texas42-log[rl]' or '[openspiel]'"
    )

import numpy as np
import numpy.typing as npt

from ..engine.actions import Action, Call, Declare, Play
from ..engine.auction import BidKind, highest_mark_bid
from ..engine.rules import SPECIALS, STANDARD, Rules
from ..engine.seats import SEATS, Seat, team_of
from ..engine.support import Limit, Support
from ..engine.tiles import TILE_BY_NAME, TILES
from ..engine.trumps import Trump
from ..views.model import MomentKind, View

__all__ = [
    "ACTIONS",
    "ACTION_INDEX",
    "RULES_SUPPORT",
    "NUM_ACTIONS",
    "OBSERVATION_SIZE",
    "INFORMATION_STATE_SIZE",
    "action_mask",
    "action_index",
    "observation",
    "information_state",
    "relative",
]


def _actions() -> tuple[Action, ...]:
    out: list[Action] = [Call(BidKind.PASS)]
    out += [Call(BidKind.POINTS, b) for b in range(1, 43)]
    for special in (None, "plunge", "splash"):
        out += [Call(BidKind.MARKS, m, special) for m in range(1, 8)]
    choices: list[Declare] = [Declare(trump=t) for t in Trump]
    choices += [Declare(special="nello", doubles=d) for d in (None, "high", "low", "own-suit")]
    choices.append(Declare(special="sevens"))
    for stacks in (None, 1, 2):
        out += [Declare(d.trump, d.special, d.doubles, stacks) for d in choices]
    for t in TILES:
        out.append(Play(t))
        out += [Play(t, led) for led in range(7)]
    return tuple(out)


#: Every action, numbered (see the module text).
ACTIONS: Final[tuple[Action, ...]] = _actions()
ACTION_INDEX: Final[dict[Action, int]] = {a: i for i, a in enumerate(ACTIONS)}
NUM_ACTIONS: Final = len(ACTIONS)
_CALLS: Final = 1 + 42 + 21
_DECLARES: Final[tuple[Action, ...]] = tuple(a for a in ACTIONS if isinstance(a, Declare))
_MOMENTS: Final[tuple[MomentKind, ...]] = ("call", "auction", "declaration", "play", "trick", "end")
_TRUMPS: Final[tuple[str, ...]] = tuple(t.value for t in Trump)
#: The special contracts, in the order of their bits: the engine's own list, not a copy.
_SPECIALS: Final = SPECIALS
_NELLO: Final = ("high", "low", "own-suit")


#: The options that decide how many marks one auction can bid.
_MARK_OPTIONS: Final = (
    "max_mark_bid",
    "max_opening_mark_bid",
    "mark_bid_raise",
    "mark_ladder",
    "plunge_marks",
    "splash_max_marks",
    "splash_min_marks",
    "special_bids",
    "plunge",
    "splash",
)
_MOST_MARKS: Final = 7


def _marks_held(rules: Rules) -> bool:
    return highest_mark_bid(rules, above=_MOST_MARKS) <= _MOST_MARKS


def _marks_blame(rules: Rules) -> str:
    """The mark option that takes ``rules`` past 7 marks: the first whose seed value
    brings them back within, else the first that differs from the seed rules."""
    changed = [o for o in _MARK_OPTIONS if getattr(rules, o) != getattr(STANDARD, o)]
    for option in changed:
        if _marks_held(rules.with_options(**{option: getattr(STANDARD, option)})):
            return option
    return changed[0] if changed else _MARK_OPTIONS[0]


#: What the environments honour (:mod:`texas42_log.engine.support`): every option, but
#: a call must have a number in :data:`ACTIONS`.
RULES_SUPPORT: Final = Support(
    "the environments (PettingZoo, OpenSpiel)",
    (
        Limit(
            ("min_point_bid",),
            lambda r: r.min_point_bid >= 1,
            "their action space numbers point bids from 1 to 42",
        ),
        Limit(
            _MARK_OPTIONS,
            _marks_held,
            f"one auction under these rules can bid more than {_MOST_MARKS} marks, and their "
            f"action space numbers mark bids from 1 to {_MOST_MARKS}",
            _marks_blame,
        ),
    ),
)


def action_index(action: Action) -> int:
    """The number of ``action``; a :class:`ValueError` for one no numbering holds
    (a bid past 7 marks, which no preset reaches in one hand's auction)."""
    try:
        return ACTION_INDEX[action]
    except KeyError:
        raise ValueError(
            f"the action {str(action)[:40]!r} has no number in the environments' action set"
        ) from None


def action_mask(legal: Sequence[Action]) -> npt.NDArray[np.int8]:
    """1 for each legal action's number, else 0."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for a in legal:
        mask[action_index(a)] = 1
    return mask


def relative(seat: Seat, observer: Seat) -> int:
    """``seat`` counted clockwise from ``observer`` (0 the observer, 2 its partner)."""
    return (SEATS.index(seat) - SEATS.index(observer)) % 4


def _call_index(call: str, bid: int | None, special: str | None) -> int:
    """A call's number among the calls of :data:`ACTIONS` (0 pass, then points, marks)."""
    if call == "pass" or bid is None:
        return 0
    if call == "points":
        return min(bid, 42)
    block = (None, "plunge", "splash").index(special)
    return 42 + 7 * block + min(max(bid, 1), 7)


_HAND, _TRICK, _WON, _TRICKS_WON, _AUCTION, _CONTRACT = 0, 28, 140, 196, 198, 222
_TURN, _SCORE, _COUNTS, _POINTS, _MOMENT = 244, 256, 258, 262, 265
#: Numbers in an :func:`observation`.
OBSERVATION_SIZE: Final = 271


def observation(view: View) -> npt.NDArray[np.float32]:
    """The moment of ``view`` for its observer (a seat), as numbers in [0, 1]:
    its tiles, the trick on the table by seat, the won faces it may see, the tricks
    won, the auction, the contract, whose turn, dealer, who sits out, the score,
    tiles left per seat, hand points when visible, and the kind of moment."""
    me = view.observer
    if me not in SEATS:
        raise ValueError("an observation is of a seat's view (A to D)")
    o = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    us = team_of(me)
    for x in view.hands.get(me, ()):
        o[_HAND + TILE_BY_NAME[x].index] = 1
    if view.trick is not None:
        for p in view.trick.plays:
            o[_TRICK + 28 * relative(p.seat, me) + TILE_BY_NAME[p.tile].index] = 1
    for w in view.won:
        if w.faces is not None:
            base = _WON if w.team == us else _WON + 28
            for x in w.faces:
                o[base + TILE_BY_NAME[x].index] = 1
    for team, n in view.tricks_won.items():
        o[_TRICKS_WON + (0 if team == us else 1)] = n / 7
    for seat, call, bid, special in view.auction:
        base = _AUCTION + 6 * relative(seat, me)
        o[base] = 1
        if call == "pass":
            o[base + 1] = 1
        elif call == "points" and bid is not None:
            o[base + 2] = min(bid, 42) / 42
        elif bid is not None:
            o[base + 3] = min(bid, 7) / 7
        if special in ("plunge", "splash"):
            o[base + 4 + ("plunge", "splash").index(special)] = 1
    c = view.contract
    if c is not None:
        o[_CONTRACT + relative(c.bidder, me)] = 1
        if c.trump in _TRUMPS:
            o[_CONTRACT + 4 + _TRUMPS.index(c.trump)] = 1
        if c.special in _SPECIALS:
            o[_CONTRACT + 13 + _SPECIALS.index(c.special)] = 1
        o[_CONTRACT + 17] = 1 if c.kind == "points" else 0
        o[_CONTRACT + 18] = min(c.bid, 42) / 42 if c.kind == "points" else min(c.bid, 7) / 7
        if c.doubles in _NELLO:
            o[_CONTRACT + 19 + _NELLO.index(c.doubles)] = 1
    for k, who in enumerate((view.to_play, view.dealer, view.sits_out)):
        if who is not None:
            o[_TURN + 4 * k + relative(who, me)] = 1
    goal = 250 if view.score_unit == "points" else 7
    for team, n in view.marks.items():
        o[_SCORE + (0 if team == us else 1)] = min(n, goal) / goal
    for seat, n in view.counts.items():
        o[_COUNTS + relative(seat, me)] = n / 7
    if view.points is not None:
        for team, n in view.points.items():
            o[_POINTS + (0 if team == us else 1)] = min(n, 42) / 42
        o[_POINTS + 2] = 1
    o[_MOMENT + _MOMENTS.index(view.moment)] = 1
    return o


_I_HAND, _I_CALLS, _I_DECLARE, _I_PLAYS = (
    0,
    28,
    28 + 4 * (4 + _CALLS),
    28 + 4 * (4 + _CALLS) + 4 + len(_DECLARES),
)
#: Numbers in an :func:`information_state`.
INFORMATION_STATE_SIZE: Final = _I_PLAYS + 28 * (4 + 28 + 8)


def information_state(seen: Sequence[View]) -> npt.NDArray[np.float32]:
    """The hand so far as the seat whose views these are saw it, one view per
    moment (:func:`texas42_log.views.visibility.hand_views`): its dealt tiles, the
    calls in order (seat, call), the declaration (bidder, choice) and every play
    in order (seat, tile, declared led suit). A play is read from the trick on the
    table while it lay there — public (R25) — so covered tricks (R27) lose nothing
    the seat saw."""
    if not seen:
        raise ValueError("no view: the information state is built from the seat's views")
    me = seen[-1].observer
    if me not in SEATS:
        raise ValueError("an information state is of a seat's views (A to D)")
    s = np.zeros(INFORMATION_STATE_SIZE, dtype=np.float32)
    first = seen[0]
    for x in first.hands.get(me, ()):
        s[_I_HAND + TILE_BY_NAME[x].index] = 1
    last = seen[-1]
    if len(last.auction) > 4:
        raise ValueError("an auction of more than four calls has no place in the information state")
    for k, (seat, call, bid, special) in enumerate(last.auction):
        base = _I_CALLS + k * (4 + _CALLS)
        s[base + relative(seat, me)] = 1
        s[base + 4 + _call_index(call, bid, special)] = 1
    c = last.contract
    if c is not None and c.visibility is not None:
        s[_I_DECLARE + relative(c.declarer or c.bidder, me)] = 1
        special = c.special if c.special in ("nello", "sevens") else None
        trump = None if special is not None or c.trump is None else Trump(c.trump)
        if trump is not None or special is not None:
            choice = Declare(trump, special, c.doubles if special == "nello" else None)  # type: ignore[arg-type]
            s[_I_DECLARE + 4 + _DECLARES.index(choice)] = 1
    plays: dict[tuple[int, int], tuple[Seat, str, int | None]] = {}
    for v in seen:
        t = v.trick
        if t is not None:
            for p in t.plays:
                plays[(t.number, p.order)] = (p.seat, p.tile, t.declared if p.order == 1 else None)
    for k, key in enumerate(sorted(plays)):
        seat, tile, led = plays[key]
        base = _I_PLAYS + 40 * k
        s[base + relative(seat, me)] = 1
        s[base + 4 + TILE_BY_NAME[tile].index] = 1
        s[base + 32 + (0 if led is None else led + 1)] = 1
    return s
