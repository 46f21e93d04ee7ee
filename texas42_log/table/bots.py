"""The seats a table gives to bots (any bot of ``texas42 arena``): each plays from its
seat's view only (:func:`texas42_log.bots.base.situation`), on a thread of its own —
never on the server's event loop — and at a human pace: every bot action, forced or
not, comes the same stated delay after the turn came to it (a bot that answered a
forced play at once would tell the others what it holds); a bot that thinks longer
than the delay acts when it is done."""

from __future__ import annotations

import random
import secrets
import threading
import time
from collections.abc import Callable, Mapping

from ..bots.base import Bot, BotError, situation
from ..engine.seats import Seat
from .referee import Table, TableError

__all__ = ["BotSeats"]


class BotSeats:
    """The bots of one table, playing on one thread until :meth:`stop`."""

    def __init__(
        self,
        table: Table,
        bots: Mapping[Seat, Bot],
        *,
        delay: float,
        log: Callable[[str], None] = lambda line: None,
    ) -> None:
        self.table = table
        self.bots = dict(bots)
        self.delay = delay
        self.log = log
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="texas42-table-bots", daemon=True)
        table.listen(lambda _: self._wake.set())

    def start(self) -> None:
        if self.bots:
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout=10)

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.clear()
            moment, game = self.table.snapshot()
            turn = game.to_act
            if turn is None or turn.seat not in self.bots or turn.kind == "deal":
                self._wake.wait()
                continue
            due = time.monotonic() + self.delay
            try:
                now = situation(game)
                answer = self.bots[turn.seat].act(now)
                if answer not in now.legal:
                    raise BotError(f"the bot at {turn.seat} answered {str(answer)[:60]!r}")
            except Exception as e:  # a bot of someone's own: say it, and leave the seat
                self.log(f"texas42 table: the bot at {turn.seat} failed: {type(e).__name__}: {e}")
                self.bots.pop(turn.seat)
                continue
            if self._stop.wait(max(0.0, due - time.monotonic())):
                return
            try:
                self.table.act(turn.seat, moment, str(answer), secrets.token_hex(8))
            except TableError as e:
                if e.status not in (409,):  # the table moved on meanwhile: think again
                    self.log(f"texas42 table: the bot at {turn.seat} was refused: {e.message}")
                    self._stop.wait(1.0)


def bot_seed() -> int:
    """A bot's seed, from the operating system's secure source (a bot's choices must not
    be foreseen from a seed printed anywhere)."""
    return random.SystemRandom().getrandbits(62)
