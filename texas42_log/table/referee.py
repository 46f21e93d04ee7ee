"""The referee of a table: one match played from four seats' pages, every action through
:class:`~texas42_log.play.game.Game`, every accepted one in the log before it is
acknowledged.

A :class:`Table` holds the match (the host holds every hand), the log's path and the
moment — how many actions the match has accepted. :meth:`Table.act` is the one way an
action comes in, from a seat's page or a bot alike:

- it is refused, and nothing is written, when the match is over, when it is not that
  seat's turn (another seat's action, an action out of turn), when it was made on an
  earlier moment than the table's or when its request was received before (a replay);
- an action the rules refuse (a renege, a bid too low, a tile not in the hand) is
  refused in words drawn from that seat's view alone
  (:class:`~texas42_log.play.refusals.Refusal`: never who holds a tile the seat cannot
  see), with its rule id, message key and parameters, the hand unchanged, the tiles in
  their order (R30); it is written into the log as a rejected attempt, as ``texas42
  record --keep-rejected`` writes it — at most
  :data:`~texas42_log.play.game.REJECTED_PER_TURN` a turn and
  :data:`~texas42_log.play.game.REJECTED_PER_MATCH` a match, past which an attempt is
  refused and nothing is written;
- an action text longer than :data:`MAX_ACTION` characters is refused, never cut;
- an accepted action is written into the log — atomically, under the log's writer lock
  (:mod:`texas42_log.files.locking`) — before :meth:`Table.act` returns; a write that
  fails undoes the action and says so. A new hand is dealt in the same step, from the
  operating system's secure random source (:class:`random.SystemRandom`).

So a table killed at any moment and started again on its log goes on at the moment of
the last acknowledged action. The log is readable by its owner only (mode 0600) while
the match is under way: it holds every hand, and whoever can read it can see the deal.

Nothing here is decided by a clock (R31). What a page is sent is :meth:`Table.state`:
the observer's view of the moment (R25–R29, :meth:`Game.view`) and, for the seat to
act, its legal actions — never more.
"""

from __future__ import annotations

import json
import random
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from ..analysis.fair import Decision
from ..engine.actions import Deal
from ..engine.errors import IllegalAction
from ..engine.live import deal_order
from ..engine.seats import SEATS, Seat
from ..engine.tiles import TILES, Tile
from ..files.inputs import InputError
from ..files.locking import LockTimeout, stamp, writer_lock
from ..files.outputs import new_file_mode, write_atomic
from ..files.reader import read_view_as
from ..log.model import Match
from ..play.game import REJECTED_PER_MATCH, REJECTED_PER_TURN, Game
from ..play.refusals import VERBS, Refusal
from ..views.model import Observer
from ..views.visibility import Moment, view_for

__all__ = [
    "Table",
    "TableError",
    "LIVE_MODE",
    "MAX_ACTION",
    "MAX_ACT_BODY",
    "TABLE_KEYS",
    "said",
    "secure_deal",
]

#: The log's mode while its match is under way: its owner's only.
LIVE_MODE = 0o600

#: How many request ids a table remembers to refuse a replay.
_REMEMBERED = 4096


#: The longest action text a table reads (the longest real one is a few words).
MAX_ACTION = 200

#: The largest request to act: an action, its moment and request id fit many times
#: over. The server's own limit is larger, so a larger body is told this in a
#: sentence rather than having its connection closed.
MAX_ACT_BODY = 4096

#: The table's own refusals (beside a seat's refusals by the rules,
#: :data:`texas42_log.play.refusals.KEYS`): each key's English template.
TABLE_KEYS: Mapping[str, str] = {
    "match_over": "the match is over: no action is taken ({rule})",
    "no_request": "an action comes with its request's id: 1 to 64 characters",
    "repeated_request": "this request was received before: nothing is done again",
    "stale_moment": "this page acted on an earlier moment of the hand: it shows the table "
    "now; nothing was done",
    "not_your_turn": "it is {turn}'s turn to {verb}, not yours: nothing was done",
    "too_long": "an action is at most {limit} characters: nothing was done",
    "too_large": "a request to act is at most {limit} bytes: nothing was done",
    "unreadable": "{why}",
    "not_saved": "not saved, so not done: {why}",
}


class TableError(Exception):
    """An action the table refuses: ``status`` (400, 403, 409, 413, 422, 503) and a
    sentence; ``rule`` the rule id when the rules refused it; ``key`` and ``params`` the
    same sentence for a page to say in its own words (:data:`TABLE_KEYS`, or a seat's
    refusal's :data:`~texas42_log.play.refusals.KEYS`); ``recorded`` whether the
    refused attempt was kept in the log (R30)."""

    def __init__(
        self,
        status: int,
        message: str,
        rule: str | None = None,
        *,
        key: str | None = None,
        params: Mapping[str, Any] | None = None,
        recorded: bool | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.rule = rule
        self.key = key
        self.params: dict[str, Any] = dict(params or {})
        self.recorded = recorded

    def as_dict(self) -> dict[str, Any]:
        """What a page is sent: the sentence, and its rule, key and parameters."""
        out: dict[str, Any] = {"error": self.message}
        if self.rule:
            out["rule"] = self.rule
        if self.key:
            out["key"] = self.key
            out["params"] = self.params
        if self.recorded is not None:
            out["recorded"] = self.recorded
        return out


def said(status: int, key: str, rule: str | None = None, **params: Any) -> TableError:
    """A table's refusal by its key (:data:`TABLE_KEYS`)."""
    text = TABLE_KEYS[key].format(rule=rule, **params)
    return TableError(status, text, rule, key=key, params=params)


def secure_deal(dealer: Seat) -> Deal:
    """A deal drawn from the operating system's secure random source, dealt one tile at a
    time from the dealer's left (R3)."""
    tiles = list(TILES)
    random.SystemRandom().shuffle(tiles)
    rows: dict[Seat, list[Tile | str | None]] = {s: [] for s in SEATS}
    for seat, tile in zip(deal_order(dealer), tiles, strict=True):
        rows[seat].append(tile)
    return Deal.of(rows)


@dataclass(frozen=True, slots=True)
class Acted:
    """An accepted action: the moment after it and what it was."""

    moment: int
    seat: Seat
    action: str


class Table:
    """One match at one table (module docstring). Thread-safe: every change holds
    :attr:`lock`; :meth:`act` is slow (it writes the log) — call it off an event loop."""

    def __init__(
        self,
        path: Path,
        game: Game,
        *,
        deal: Callable[[Seat], Deal] = secure_deal,
    ) -> None:
        self.path = path
        self.game = game
        self.lock = threading.RLock()
        self._deal = deal
        self._seen: OrderedDict[str, None] = OrderedDict()
        self._states: dict[tuple[int, str], bytes] = {}
        self._listeners: list[Callable[[Table], None]] = []
        self._stamp: tuple[int, int, int] | None = None
        self.moment = len(game.history)
        #: Practice: one person against bots, who may ask a hint (:meth:`hint`).
        self.practice = False

    # -- starting -----------------------------------------------------------------

    @classmethod
    def new(
        cls,
        path: Path,
        rules: str,
        *,
        options: Mapping[str, Any] | None = None,
        players: Mapping[Seat, str] | None = None,
        first_dealer: Seat = "A",
        deal: Callable[[Seat], Deal] = secure_deal,
        extensions: Mapping[str, Any] | None = None,
    ) -> Table:
        """A new match under ``rules`` (a preset) and ``options``, written to ``path``
        (which must not exist) with its first hand dealt. :class:`ValueError` for rules
        or names the game refuses; :class:`FileExistsError` when ``path`` exists."""
        game = Game(
            rules,
            options=options,
            players=players,
            first_dealer=first_dealer,
            record_rejected=True,
            extensions=extensions,
        )
        table = cls(path, game, deal=deal)
        with table.lock:
            table._deal_if_due()
            table._write(replace=False)
        return table

    @classmethod
    def resume(cls, path: Path, *, deal: Callable[[Seat], Deal] = secure_deal) -> Table:
        """The match of the log at ``path``, at the moment it was left. :class:`ValueError`
        (one sentence) for a file that is not one valid match."""
        try:
            source, _, results = read_view_as(str(path))
        except InputError as e:
            raise ValueError(str(e)) from None
        if len(results) != 1:
            raise ValueError(f"{source} holds {len(results)} matches: a table plays one")
        result = results[0]
        if not result.valid or result.match is None:
            first = result.errors[0] if result.errors else None
            why = f": {first.message}" if first is not None else ""
            raise ValueError(f"{source} is not a valid log{why}")
        try:
            game = Game.from_match(result.match, record_rejected=True)
        except IllegalAction as e:
            raise ValueError(f"{source}: {e}") from None
        table = cls(path, game, deal=deal)
        table._stamp = stamp(path)
        with table.lock:
            if table._deal_if_due():  # stopped between a hand's end and the next deal
                table._write(replace=True)
        return table

    def keep(self, key: str, value: Any) -> None:
        """Set the log's ``x-`` field ``key`` and write the log (the table's seating,
        :mod:`texas42_log.table.seating`); :class:`ValueError` or :class:`OSError` when
        it cannot, the log unchanged."""
        with self.lock:
            before = self.game.copy()
            self.game.set_extension(key, value)
            try:
                self._write(replace=True)
            except (OSError, TableError) as e:
                self.game = before
                raise OSError(str(getattr(e, "message", e))) from None

    # -- listening ----------------------------------------------------------------

    def listen(self, listener: Callable[[Table], None]) -> None:
        """Call ``listener(table)`` after every change (on the thread that made it)."""
        self._listeners.append(listener)

    def _changed(self) -> None:
        self._states.clear()
        for listener in list(self._listeners):
            listener(self)

    # -- acting -------------------------------------------------------------------

    def act(self, seat: Seat, moment: int, text: str, request: str) -> Acted:
        """``seat``'s action ``text``, made at ``moment`` with request id ``request``
        (module docstring); :class:`TableError` when it is refused."""
        changed = False
        try:
            with self.lock:
                changed = self._act(seat, moment, text, request)
                return Acted(self.moment, seat, text)
        finally:
            if changed:
                self._changed()

    def _act(self, seat: Seat, moment: int, text: str, request: str) -> bool:
        game = self.game
        turn = game.to_act
        if turn is None:
            raise said(409, "match_over", "R24")
        if not request or len(request) > 64:
            raise said(400, "no_request")
        if request in self._seen:
            raise said(409, "repeated_request")
        if moment != self.moment:
            raise said(409, "stale_moment")
        if seat != turn.seat:
            verb = VERBS[turn.kind]
            raise said(409, "not_your_turn", turn=turn.seat, verb=verb)
        if len(text) > MAX_ACTION:
            raise said(400, "too_long", limit=MAX_ACTION)
        self._remember(request)
        before = game.copy()
        try:
            game.push(text, seat=seat)
        except Refusal as e:
            if e.recorded:  # the rejected attempt (R30)
                self._save_or_undo(before)
            message = e.message
            if e.recorded is False:
                message += (
                    f"; not kept in the log, which keeps at most {REJECTED_PER_TURN} refused "
                    f"attempts a turn and {REJECTED_PER_MATCH} a match"
                )
            raise TableError(
                422, message, e.rule, key=e.key, params=e.params, recorded=e.recorded
            ) from None
        except ValueError as e:  # a text that is no action
            raise said(400, "unreadable", why=str(e)) from None
        self._deal_if_due()
        self._save_or_undo(before)
        self.moment = len(game.history)
        return True

    def _remember(self, request: str) -> None:
        self._seen[request] = None
        while len(self._seen) > _REMEMBERED:
            self._seen.popitem(last=False)

    def _deal_if_due(self) -> bool:
        turn = self.game.to_act
        if turn is None or turn.kind != "deal":
            return False
        self.game.push(self._deal(turn.seat))
        self.moment = len(self.game.history)
        return True

    def _save_or_undo(self, before: Game) -> None:
        try:
            self._write(replace=True)
        except (OSError, TableError) as e:
            self.game = before
            self.moment = len(before.history)
            why = e.message if isinstance(e, TableError) else getattr(e, "strerror", None) or e
            raise said(503, "not_saved", why=str(why)) from None

    def _write(self, *, replace: bool) -> None:
        """The log now, written atomically under its writer lock (0600 while live)."""
        text = self.game.to_json()
        mode = new_file_mode() if self.game.is_over else LIVE_MODE
        try:
            with writer_lock(self.path):
                if replace and stamp(self.path) != self._stamp:
                    raise TableError(
                        503,
                        f"{self.path.name} changed on disk outside the table; start the table "
                        "again to go on from the file",
                    )
                write_atomic(self.path, text, replace=replace, mode=mode)
                self._stamp = stamp(self.path)
        except LockTimeout as e:
            raise TableError(503, str(e.strerror)) from None

    # -- what a page is sent -------------------------------------------------------

    def snapshot(self) -> tuple[int, Game]:
        """The moment and a copy of the game (for a bot, which thinks without the lock)."""
        with self.lock:
            return self.moment, self.game.copy()

    def state(self, observer: str) -> bytes:
        """What the page of ``observer`` (a seat, or ``public``) is sent now: JSON."""
        return self.state_at(observer)[1]

    def state_at(self, observer: str) -> tuple[int, bytes]:
        """:meth:`state` with the moment it is of (a push compares moments, never
        parses what it sends)."""
        with self.lock:
            key = (self.moment, observer)
            cached = self._states.get(key)
            if cached is None:
                cached = json.dumps(
                    self._state(observer), ensure_ascii=False, separators=(",", ":")
                ).encode("utf-8")
                self._states[key] = cached
            return self.moment, cached

    def _state(self, observer: str) -> dict[str, Any]:
        game = self.game
        turn = game.to_act
        mine = turn is not None and turn.seat == observer and turn.kind != "deal"
        last = None
        finished = self.finished_hands()
        if finished and (turn is None or turn.hand > finished):
            last = self.hand_view(observer, finished).as_dict(notes=False)
        return {
            "moment": self.moment,
            "observer": observer,
            "rules": game.preset,
            "goal": game.rules.goal,
            "unit": game.rules.match_goal,
            "score": game.score,
            "winner": game.winner,
            "finished": finished,
            "turn": None
            if turn is None
            else {"seat": turn.seat, "kind": turn.kind, "hand": turn.hand},
            "legal": [str(a) for a in game.legal_actions()] if mine else [],
            "hint": self.practice and mine,
            "last_action": self._last_action(),
            "view": game.view(cast(Observer, observer)).as_dict(notes=False),
            "last": last,
        }

    def hint(self, seat: Seat, worlds: int) -> dict[str, Any]:
        """``seat``'s fair hint now (:meth:`Game.hint`: from its own view alone), on its
        turn only: the suggested action and its chance. :class:`TableError` otherwise."""
        with self.lock:
            moment, game = self.moment, self.game.copy()
        turn = game.to_act
        if turn is None or turn.seat != seat or turn.kind == "deal":
            raise TableError(409, "a hint is for the seat to act, on its turn")
        hinted = game.hint(seat, worlds=worlds)
        if isinstance(hinted, Decision):
            value = hinted.values[hinted.best]
            chance: float | None = value.share
        else:
            chance = None if hinted.chance is None else hinted.chance.share
        return {
            "moment": moment,
            "suggestion": str(hinted.suggestion),
            "chance": None if chance is None else round(chance, 4),
            "worlds": worlds,
        }

    def _last_action(self) -> dict[str, str] | None:
        """The last accepted call, declaration or play — public to every seat (R25) — for
        the page to announce; None before the first or right after a deal."""
        history = self.game.history
        if not history or isinstance(history[-1].action, Deal):
            return None
        step = history[-1]
        return {"seat": step.seat, "kind": step.action.action_kind, "action": str(step.action)}

    def finished_hands(self) -> int:
        """How many hands are over."""
        n = self.game.hand_number
        return n if self.game.is_over else n - 1

    def hand_view(self, observer: str, hand: int) -> Any:
        """Finished hand ``hand`` (from 1) as it ended, for ``observer``: the review
        (R29), everything, a seat or the public. :class:`TableError` for a hand that is
        not over — during a live hand nobody is shown more than a seat's view."""
        with self.lock:
            if not 1 <= hand <= self.finished_hands():
                raise TableError(
                    403,
                    f"hand {hand} is not over: during a live hand this table shows a seat's "
                    "view or the public's, to every address",
                )
            match = Match.model_validate(self.game.to_dict(hands=hand))
        return view_for(match, cast(Observer, observer), hand - 1, Moment.end())
