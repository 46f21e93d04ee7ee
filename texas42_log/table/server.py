"""The table's HTTP server: the board's guard (token, ``Host``, ``Origin``) in front of
a referee (:mod:`texas42_log.table.referee`) and a push channel.

Routes (each needs a token: ``?token=`` in the address, then the page sends it in the
``Authorization`` header; the push channel, an ``EventSource``, sends it in its address):

- ``GET /`` — the table's page (:mod:`texas42_log.table.page`), the same for everyone;
- ``GET /table/state`` — what this address's page shows now (:meth:`Table.state`);
- ``GET /table/events`` — the same, pushed as server-sent events at every change, the
  moment now first (a page that comes back is at the current moment at once);
- ``POST /table/act`` — ``{"moment", "action", "request"}``: a seat's action, refused
  for any other address (:meth:`Table.act` says what else is refused);
- ``GET /table/hand?n=N&as=WHO`` — finished hand ``N`` as it ended, for an observer
  this address may choose: a seat its own view, the public's or the review (R29);
  the host every observer. A hand not over is refused to every address;
- ``POST /table/ask`` ``{"hand"}``, ``GET /table/ask?hand=N`` — a seat's fair analysis
  of its own actions in a finished hand, asked and followed (:mod:`.ask`);
- ``POST /table/hint`` — the seat to act's fair hint, from its own view (practice: a
  table of one person and bots only; refused at a table of two or more people);
- once the match is over, the board's page at ``/board`` and its API
  (:class:`AfterMatch`).

Slow work (an action, which writes the log) runs on worker threads, never on the event
loop; a push is a cached state written to each open channel.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import importlib.util
import signal
import socket
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

if importlib.util.find_spec("tornado") is None:
    raise ImportError(
        "texas42 table needs its web server, tornado: pip install 'texas42-log[board]'"
    )

import tornado.httpserver
import tornado.iostream
import tornado.netutil
import tornado.web

from ..board.ask import Asker
from ..board.errors import StartError
from ..board.server import MAX_BODY, Handler, Nothing, loopback_hosts
from ..board.server import routes as board_routes
from ..board.state import ACCESS, Access, Board, BoardError, access_by_token
from ..engine.seats import SEATS
from ..views.model import OBSERVERS
from .ask import SeatAsker
from .page import page_language, table_page
from .referee import MAX_ACT_BODY, Table, TableError, said

__all__ = [
    "AfterMatch",
    "Guard",
    "board_tokens",
    "make_app",
    "serve",
    "HOST",
    "ONLOOKERS",
    "seat_access",
    "WORKERS",
]

#: Whom the host's address is for, and the onlookers'.
HOST = "the table's host"
ONLOOKERS = "the onlookers"

#: Worker threads (actions write the log there).
WORKERS = 4

#: Seconds between two keep-alive lines on an open push channel.
KEEP_ALIVE = 15.0


def seat_access(seat: str) -> Access:
    """A seat's address: its own view live; its view, the public's and the review of
    finished hands; it acts for that seat only."""
    return Access(f"seat {seat}", (seat, "public", "review"), seat)


@dataclass
class Guard:
    """The tokens of a table's addresses (the board's :class:`Access` for each)."""

    tokens: dict[str, Access]

    def access(self, token: str | None) -> Access | None:
        return access_by_token(self.tokens, token)


def guard_of(tokens: dict[str, str]) -> Guard:
    """The guard for kept links (``owner``, ``A``–``D``, ``review``: the onlookers')."""
    out: dict[str, Access] = {tokens["owner"]: Access(HOST, OBSERVERS, None)}
    for seat in SEATS:
        out[tokens[seat]] = seat_access(seat)
    out[tokens["review"]] = Access(ONLOOKERS, ("public", "review"), None)
    return Guard(out)


def live_observer(access: Access) -> str:
    """Whom an address's page shows during play: its seat, else the public."""
    return access.writer if access.writer in SEATS else "public"


class _Hub:
    """The open push channels: woken at every change of the table."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.events: set[asyncio.Event] = set()
        #: The table is stopping: every open channel ends (quietly, before the workers go).
        self.stopping = False

    def changed(self, _: Table) -> None:  # on the thread that changed the table
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._wake)

    def _wake(self) -> None:
        for e in self.events:
            e.set()


class _TableHandler(Handler):
    table: Table
    hub: _Hub
    seat_asker: SeatAsker

    def prepare(self) -> None:
        super().prepare()
        if self._finished:
            return
        # A page of another site opening the push channel (or reading) names its own
        # Origin; the table's own page sends none on a GET, or this server's.
        origin = self.request.headers.get("Origin")
        if origin is not None and origin != f"http://{self.request.headers.get('Host', '')}":
            self.refuse(403, "a request from a foreign Origin")

    def initialize(self, **kwargs: Any) -> None:
        self.board = kwargs["guard"]  # the board's guard reads .access(token)
        self.table = kwargs["table"]
        self.seat_asker = kwargs["seat_asker"]
        self.hub = kwargs["hub"]
        self.hosts = kwargs["hosts"]
        self.log = kwargs["log"]
        self.pool = kwargs["pool"]
        self.bots = kwargs.get("bots", frozenset())

    def refused(self, e: TableError) -> None:
        if e.status == 403:
            self.refuse(403, e.message)
            return
        self.set_status(e.status)
        self.answer(e.as_dict())


class _Page(_TableHandler):
    def get(self) -> None:
        lang = page_language(
            self.get_query_argument("lang", None), self.request.headers.get("Accept-Language")
        )
        self.send_page(*table_page(lang))


class _State(_TableHandler):
    async def get(self) -> None:
        observer = live_observer(self.access)
        self.answer(await self.off_loop(lambda: self.table.state(observer)))


class _Events(_TableHandler):
    """The push channel: server-sent events, the state at every change."""

    closed: bool = False

    async def get(self) -> None:
        observer = live_observer(self.access)
        self.set_header("Content-Type", "text/event-stream; charset=utf-8")
        wake = asyncio.Event()
        self.wake = wake
        self.hub.events.add(wake)
        sent = -1
        try:
            self.write("retry: 1000\n\n")
            while not self.closed and not self.hub.stopping:
                moment, state = await self.off_loop(lambda: self.table.state_at(observer))
                if sent < 0 or moment != sent:
                    self.write(b"data: " + state + b"\n\n")
                    sent = moment
                await self.flush()
                try:
                    await asyncio.wait_for(wake.wait(), KEEP_ALIVE)
                except TimeoutError:
                    self.write(": keep-alive\n\n")
                wake.clear()
        except (tornado.iostream.StreamClosedError, RuntimeError):
            pass  # the page went, or the table is stopping (its workers gone): nothing to say
        finally:
            self.hub.events.discard(wake)

    def on_connection_close(self) -> None:
        self.closed = True
        wake = getattr(self, "wake", None)
        if wake is not None:
            wake.set()


class _Act(_TableHandler):
    async def post(self) -> None:
        try:
            seat = self.access.writer
            if seat not in SEATS:
                raise TableError(403, f"this address is {self.access.whose}: it plays no seat")
            if len(self.request.body) > MAX_ACT_BODY:
                raise said(413, "too_large", limit=MAX_ACT_BODY)
            body = self.body()
            if not isinstance(body, dict):
                raise TableError(400, "an action is a JSON object: {moment, action, request}")
            moment, action, request = body.get("moment"), body.get("action"), body.get("request")
            if not isinstance(moment, int) or isinstance(moment, bool) or not 0 <= moment < 10**6:
                raise TableError(400, "an action names the moment it was made at (a number)")
            if not isinstance(action, str) or not isinstance(request, str):
                raise TableError(400, "an action is a text, with its request's id (a text)")
            table = self.table
            done = await self.off_loop(lambda: table.act(seat, moment, action, request))
            self.answer({"moment": done.moment, "done": done.action})
        except BoardError as e:
            self.failed(e)
        except TableError as e:
            self.refused(e)


class _Hand(_TableHandler):
    async def get(self) -> None:
        try:
            n_text = self.get_query_argument("n", "")[:6]
            observer = self.get_query_argument("as", "review")[:20]
            if not n_text.isdigit():
                raise TableError(400, "a hand is named by its number, from 1 (n=)")
            if observer not in self.access.observers:
                raise TableError(
                    403,
                    f"this address is {self.access.whose}: it shows "
                    f"{' and '.join(self.access.observers)}",
                )
            view = await self.off_loop(lambda: self.table.hand_view(observer, int(n_text)))
            self.answer(view.as_dict(notes=False))
        except TableError as e:
            self.refused(e)


class _Ask(_TableHandler):
    """A seat's fair analysis of its own actions in a finished hand: POST ``{hand}``
    asks, GET ``?hand=N`` follows (:mod:`texas42_log.table.ask`). Seats only: the
    onlookers and the host are shown no analysis during the match."""

    def _seat(self) -> str:
        seat = self.access.writer
        if seat not in SEATS:
            raise TableError(403, f"this address is {self.access.whose}: it plays no seat")
        return seat

    def post(self) -> None:
        try:
            seat = self._seat()
            body = self.body()
            hand = body.get("hand") if isinstance(body, dict) else None
            if not isinstance(hand, int) or isinstance(hand, bool) or not 1 <= hand <= 10_000:
                raise TableError(400, "a question names a finished hand, from 1 ({hand})")
            asked = body.get("lang") if isinstance(body.get("lang"), str) else None
            lang = page_language(asked, None)
            self.answer(self.seat_asker.ask(seat, hand).status(lang))
        except BoardError as e:
            self.failed(e)
        except TableError as e:
            self.refused(e)

    def get(self) -> None:
        try:
            seat = self._seat()
            n_text = self.get_query_argument("hand", "")[:6]
            if not n_text.isdigit():
                raise TableError(400, "a question names a finished hand, from 1 (hand=)")
            lang = page_language(self.get_query_argument("lang", None), None)
            self.answer(self.seat_asker.question(seat, int(n_text)).status(lang))
        except TableError as e:
            self.refused(e)


#: Worlds a practice hint is drawn over (a second or so on a phone's wait).
HINT_WORLDS = 40


class _Hint(_TableHandler):
    """POST: the fair hint of the seat to act (:meth:`Game.hint`, from that seat's own view
    alone) — practice only: at a table where one seat is a person's and bots play the
    others. At a table of two or more people a hint is table talk: refused (403)."""

    async def post(self) -> None:
        try:
            seat = self.access.writer
            if seat not in SEATS:
                raise TableError(403, f"this address is {self.access.whose}: it plays no seat")
            if not self.table.practice:
                humans = sum(1 for s in SEATS if s not in self.bots)
                raise TableError(
                    403,
                    f"no hint at a table of {humans} people: it would be table talk (a hint "
                    "is for practice, one person against bots)",
                )
            self.answer(await self.off_loop(lambda: self.table.hint(seat, HINT_WORLDS)))
        except TableError as e:
            self.refused(e)


class _Nothing(Nothing, _TableHandler):
    WHY = "not a page of the table"


def board_tokens(guard: Guard) -> dict[str, Access]:
    """The table's addresses as the board knows them: the host's is the board's owner's,
    each seat's that seat's, the onlookers' the review's (``texas42 board --seats``)."""
    names = {HOST: "owner", ONLOOKERS: "review"} | {f"seat {s}": s for s in SEATS}
    return {token: ACCESS[names[a.name]] for token, a in guard.tokens.items()}


class AfterMatch:
    """The board over the finished match, at the table's own addresses: its page at
    ``/board`` and its API (comments, each by its seat, and analysis), added to the
    table's routes once the match is over — never before: during play they would be
    table talk, and the host's address would see every hand."""

    def __init__(self, table: Table, guard: Guard, kw: dict[str, Any]) -> None:
        self.table, self.guard, self.kw = table, guard, kw
        self.app: Any = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.asker: Asker | None = None
        self._opening = threading.Lock()

    def changed(self, table: Table) -> None:  # on the thread that changed the table
        if table.game.is_over and self.asker is None:
            self.open()

    def open(self) -> None:
        """Open the board on the log (on this thread: it reads the file) and add its
        routes on the event loop, before the push that says the match is over."""
        with self._opening:
            if self.asker is not None:
                return
            try:
                board = Board.open(str(self.table.path))
            except StartError as e:
                self.kw["log"](f"texas42 table: the board does not open: {e}")
                return
            board.tokens = board_tokens(self.guard)
            self.asker = Asker(board)
            kw = self.kw | {"board": board, "asker": self.asker}
            routes = board_routes(kw, page=r"/board")
            if self.loop is None:
                self.app.add_handlers(r".*", routes)
            else:
                self.loop.call_soon_threadsafe(self.app.add_handlers, r".*", routes)

    def stop(self) -> None:
        if self.asker is not None:
            self.asker.stop()


def make_app(
    table: Table,
    guard: Guard,
    hosts: set[str],
    log: Callable[[str], None],
    pool: concurrent.futures.Executor,
    hub: _Hub | None = None,
    asker: SeatAsker | None = None,
    bots: frozenset[str] = frozenset(),
) -> Any:
    """The tornado application of ``table`` (its setting ``after``: the board it opens
    once the match is over, :class:`AfterMatch`); ``bots``: the seats bots play (a seat
    alone with bots may ask a hint)."""
    the_hub = hub or _Hub()
    table.practice = sum(1 for s in SEATS if s not in bots) == 1
    after = AfterMatch(table, guard, {"hosts": hosts, "log": log, "pool": pool})
    after.loop = the_hub.loop
    table.listen(after.changed)  # before the push: the board's routes are there first
    table.listen(the_hub.changed)
    kw = {
        "table": table,
        "guard": guard,
        "hub": the_hub,
        "seat_asker": asker or SeatAsker(table),
        "hosts": hosts,
        "log": log,
        "pool": pool,
        "bots": bots,
    }
    app = tornado.web.Application(
        [
            (r"/", _Page, kw),
            (r"/table/state", _State, kw),
            (r"/table/events", _Events, kw),
            (r"/table/act", _Act, kw),
            (r"/table/hand", _Hand, kw),
            (r"/table/ask", _Ask, kw),
            (r"/table/hint", _Hint, kw),
        ],
        default_handler_class=_Nothing,
        default_handler_args=kw,
        log_function=lambda handler: None,
        compress_response=False,
        xsrf_cookies=False,
        after=after,
        seat_asker=kw["seat_asker"],
    )
    after.app = app
    if table.game.is_over:  # a finished match, started again: its board at once
        after.open()
    return app


def listen(ip: str, port: int, prefer: int | None = None) -> list[socket.socket]:
    """The table's listening sockets: ``port``, or with 0 the last run's port when it is
    free (so stored links keep working), else any. An ``OSError`` when it cannot listen."""
    if port == 0 and prefer:
        try:
            return tornado.netutil.bind_sockets(prefer, address=ip)
        except OSError:
            pass
    return tornado.netutil.bind_sockets(port, address=ip)


def serve(
    table: Table,
    guard: Guard,
    sockets: list[socket.socket],
    *,
    ip: str,
    ready: Callable[[int], None],
    started: Callable[[], None] | None = None,
    stopping: Callable[[], None] | None = None,
    log: Callable[[str], None] | None = None,
    bots: frozenset[str] = frozenset(),
) -> None:
    """Run the table on ``sockets`` (from :func:`listen`) until SIGINT or SIGTERM;
    ``ready(port)`` once it listens."""
    say = log or (lambda line: print(line, file=sys.stderr, flush=True))

    async def main() -> None:
        bound = sockets[0].getsockname()[1]
        pool = concurrent.futures.ThreadPoolExecutor(WORKERS, "texas42-table")
        hub = _Hub()
        hub.loop = asyncio.get_running_loop()
        app = make_app(table, guard, loopback_hosts(bound, ip), say, pool, hub, bots=bots)
        server = tornado.httpserver.HTTPServer(app, max_body_size=MAX_BODY, xheaders=False)
        server.add_sockets(sockets)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        ready(bound)
        if started is not None:
            started()
        await stop.wait()
        if stopping is not None:
            stopping()
        server.stop()
        hub.stopping = True
        hub._wake()
        await asyncio.sleep(0.05)  # every open channel ends before the workers go
        app.settings["after"].stop()
        app.settings["seat_asker"].stop()
        pool.shutdown(wait=False, cancel_futures=True)

    asyncio.run(main())
