"""The board's HTTP server, on tornado (docs/architecture.md says why).

Safe by default, as Jupyter's server is: it listens on 127.0.0.1 unless told
otherwise; every request carries a token (``?token=`` in the address, then the
page sends it in the ``Authorization`` header) and what a token opens is fixed
(:class:`~texas42_log.board.state.Access`); the ``Host`` header must name this
server (a page of another site reached through DNS rebinding names its own); a
write must come with this server's ``Origin``. It serves its page and its API and
nothing else: no file but the log is read or written. Each refusal is logged in one
line on standard error; no traceback ever reaches the page or the terminal.

Slow work — re-reading the log, building an observer's data, a save — runs on a pool
of worker threads (:data:`WORKERS`), never on the event loop, so the board keeps
answering (``about`` at once) while a large log is read or saved.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import html
import importlib.util
import json
import signal
import socket
import sys
import time
from collections.abc import Callable
from http.client import responses
from typing import Any

if importlib.util.find_spec("tornado") is None:
    raise ImportError(
        "texas42 board needs its web server, tornado: pip install 'texas42-log[board]'"
    )

import tornado.httpserver
import tornado.netutil
import tornado.web

from ..files.locking import lock_seconds
from ..log.inert import inert_value
from ..views.locales import languages
from .ask import Asker
from .page import board_page
from .state import Access, Board, BoardError, parse_changes

__all__ = ["make_app", "routes", "serve", "loopback_hosts", "LOOPBACK", "MAX_BODY", "WORKERS"]

#: The worker threads of a board (slow work runs there, off the event loop).
WORKERS = 4

#: The largest request body (a save of many long comments fits many times over).
MAX_BODY = 2_000_000


def loopback_hosts(port: int, ip: str) -> set[str]:
    """The ``Host`` values this server answers to: its loopback names and ``ip``."""
    hosts = {f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"}
    if ip not in LOOPBACK:
        if ip in ("0.0.0.0", "::", ""):
            names = {socket.gethostname(), socket.getfqdn()}
            for name in list(names):
                try:
                    names |= set(socket.gethostbyname_ex(name)[2])
                except OSError:
                    pass
        else:
            names = {ip}
        hosts |= {f"[{n}]:{port}" if ":" in n else f"{n}:{port}" for n in names if n}
    return hosts


#: The Host names that are this machine only (another --ip is warned of).
LOOPBACK = ("127.0.0.1", "localhost", "::1")


#: What a person opening a refused address reads.
_REFUSED_PAGE = (
    "<!doctype html><meta charset=utf-8><title>texas42 board</title>"
    "<p>texas42 board: this address is refused ({why}). If the board was started again "
    "with new links, ask its owner for the new address.</p>\n"
)


def _no_constant(name: str) -> Any:
    """NaN and Infinity are not JSON: a request holding one is refused."""
    raise ValueError(name)


class Handler(tornado.web.RequestHandler):
    board: Board
    asker: Asker
    hosts: set[str]
    log: Callable[[str], None]
    access: Access
    token: str
    pool: concurrent.futures.Executor
    saves: concurrent.futures.Executor

    def initialize(self, **kwargs: Any) -> None:
        self.board = kwargs["board"]
        self.asker = kwargs["asker"]
        self.hosts = kwargs["hosts"]
        self.log = kwargs["log"]
        self.pool = kwargs["pool"]
        self.saves = kwargs.get("saves") or self.pool

    async def off_loop(self, work: Callable[[], Any]) -> Any:
        """``work()`` on a worker thread; its result."""
        return await asyncio.get_running_loop().run_in_executor(self.pool, work)

    def set_default_headers(self) -> None:
        self.clear_header("Server")
        self.set_header("Cache-Control", "no-store")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("Referrer-Policy", "no-referrer")
        self.set_header("X-Frame-Options", "DENY")
        self.set_header("Cross-Origin-Resource-Policy", "same-origin")

    def refuse(self, status: int, why: str) -> None:
        self.log(
            f"texas42 board: refused {self.request.method} "
            f"{inert_value(self.request.path[:80])} from {self.request.remote_ip}: {why}"
        )
        self.set_status(status)
        if self.request.path in ("/", "/board") and self.request.method == "GET":
            # a person opening an address: a sentence, not JSON
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.set_header("Content-Security-Policy", "default-src 'none'")
            self.finish(_REFUSED_PAGE.format(why=html.escape(why)))
            return
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.finish(json.dumps({"error": why}))

    def prepare(self) -> None:
        host = self.request.headers.get("Host", "")
        if host not in self.hosts:
            self.refuse(403, "a foreign Host header (the board answers only its own address)")
            return
        token = self.request.headers.get("Authorization", "")
        token = token[6:].strip() if token.lower().startswith("token ") else ""
        token = token or self.get_query_argument("token", "")
        access = self.board.access(token)
        if access is None:
            self.refuse(403, "no token or a wrong one")
            return
        self.access, self.token = access, token
        if self.request.method not in ("GET", "HEAD"):
            origin = self.request.headers.get("Origin", "")
            if origin != f"http://{host}":
                self.refuse(403, "a write from a foreign Origin (or none)")
                return

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.finish(json.dumps({"error": responses.get(status_code, "refused")}))

    def log_exception(self, typ: Any, value: Any, tb: Any) -> None:
        if isinstance(value, tornado.web.HTTPError):
            self.log(
                f"texas42 board: refused {self.request.method} "
                f"{inert_value(self.request.path[:80])}: {value.status_code}"
            )
        else:
            self.log(f"texas42 board: {type(value).__name__}: {inert_value(str(value)[:200])}")

    def send_page(self, page: str, csp: str) -> None:
        """An HTML page under its Content-Security-Policy."""
        self.set_header("Content-Security-Policy", csp)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(page)

    def answer(self, body: bytes | dict[str, Any]) -> None:
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.finish(body if isinstance(body, bytes) else json.dumps(body, ensure_ascii=False))

    def failed(self, e: BoardError) -> None:
        if e.status == 403:
            self.refuse(403, e.message)
            return
        self.set_status(e.status)
        self.answer({"error": e.message} | e.extra)

    def body(self) -> Any:
        try:
            return json.loads(self.request.body.decode("utf-8"), parse_constant=_no_constant)
        except (ValueError, RecursionError):
            raise BoardError(400, "the request is not JSON") from None


class _Page(Handler):
    def get(self) -> None:
        self.send_page(*board_page())


class _About(Handler):
    def get(self) -> None:
        if self.board.changed_on_disk():  # read it on a worker; the page asks again
            self.pool.submit(self.board.refresh)
        self.answer(self.board.about(self.access))


class _Data(Handler):
    async def get(self) -> None:
        observer = self.get_query_argument("as", "")[:20]
        answers = self.asker.answers
        # a page opened with ?lang= (the table's seats, each in its own language)
        asked = self.get_query_argument("lang", "")[:8]
        lang = asked if asked in languages() else None

        def work() -> bytes:
            self.board.refresh()
            return self.board.data(
                self.access, observer, answers, lambda: self.asker.analysed(observer), lang
            )

        try:
            self.answer(await self.off_loop(work))
        except BoardError as e:
            self.failed(e)


class _Ask(Handler):
    def post(self) -> None:
        try:
            body = self.body()
            if not isinstance(body, dict):
                raise BoardError(400, "a question is a JSON object: {hand, as}")
            hand, observer = body.get("hand"), body.get("as")
            if not isinstance(hand, int) or isinstance(hand, bool) or not 1 <= hand <= 10_000:
                raise BoardError(400, "a question names a hand, from 1")
            if not isinstance(observer, str):
                raise BoardError(400, "a question names the observer ('as')")
            q = self.asker.ask(self.token, self.access, observer[:20], hand - 1)
            self.answer({"question": q.id} | q.status())
        except BoardError as e:
            self.failed(e)


class _Question(Handler):
    def get(self, qid: str) -> None:
        try:
            self.answer(self.asker.question(self.token, qid).status())
        except BoardError as e:
            self.failed(e)

    def delete(self, qid: str) -> None:
        try:
            self.answer(self.asker.cancel(self.token, qid).status())
        except BoardError as e:
            self.failed(e)


class _Save(Handler):
    """A save waits for the log's writer lock at most :func:`lock_seconds` from the moment
    it arrives, on threads of its own: a lock held elsewhere never holds the workers that
    build pages."""

    async def post(self) -> None:
        try:
            deadline = time.monotonic() + lock_seconds()
            held, changes = parse_changes(self.body())
            access, board = self.access, self.board
            loop = asyncio.get_running_loop()
            self.answer(
                await loop.run_in_executor(
                    self.saves, lambda: board.save(access, held, changes, deadline=deadline)
                )
            )
        except BoardError as e:
            self.failed(e)


class Nothing(Handler):
    """Any other path, or another method: refused (403) with :attr:`WHY`. The board's
    catch-all, and the table's with its own sentence."""

    WHY = "not a page of the board (it serves its log only)"

    def nothing(self, *args: Any) -> None:
        self.refuse(403, self.WHY)

    get = post = put = delete = patch = head = options = nothing


def routes(kw: dict[str, Any], page: str = "/") -> list[tuple[str, Any, dict[str, Any]]]:
    """The board's page (at ``page``) and its API, each handler given ``kw`` (board,
    asker, hosts, log, pool): :func:`make_app`'s, and the table's once its match is over.
    Saves get threads of their own (``kw["saves"]``, made here when absent)."""
    kw.setdefault("saves", concurrent.futures.ThreadPoolExecutor(WORKERS, "texas42-board-save"))
    return [
        (page, _Page, kw),
        (r"/api/about", _About, kw),
        (r"/api/data", _Data, kw),
        (r"/api/ask", _Ask, kw),
        (r"/api/ask/([0-9]{1,12})", _Question, kw),
        (r"/api/save", _Save, kw),
    ]


def make_app(
    board: Board,
    asker: Asker,
    hosts: set[str],
    log: Callable[[str], None],
    pool: concurrent.futures.Executor | None = None,
) -> Any:
    """The tornado application of ``board``; slow work on ``pool`` (a new one of
    :data:`WORKERS` threads when None)."""
    workers = pool or concurrent.futures.ThreadPoolExecutor(WORKERS, "texas42-board")
    kw = {"board": board, "asker": asker, "hosts": hosts, "log": log, "pool": workers}
    return tornado.web.Application(
        routes(kw),
        default_handler_class=Nothing,
        default_handler_args=kw,
        log_function=lambda handler: None,  # refusals are logged by the handlers, one line
        compress_response=False,
        xsrf_cookies=False,  # no cookie carries the token: the Origin check guards writes
    )


def serve(
    board: Board,
    asker: Asker,
    *,
    ip: str,
    port: int,
    ready: Callable[[int], None],
    log: Callable[[str], None] | None = None,
    prefer: int | None = None,
) -> None:
    """Run the board until SIGINT or SIGTERM; ``ready(port)`` once it listens. With
    ``port`` 0, ``prefer`` (the last run's port) is tried first, then a free one."""
    say = log or (lambda line: print(line, file=sys.stderr, flush=True))

    async def main() -> None:
        sockets = None
        if port == 0 and prefer:
            try:
                sockets = tornado.netutil.bind_sockets(prefer, address=ip)
            except OSError:
                say(f"texas42 board: the last run's port {prefer} is taken: the links change port")
        if sockets is None:
            sockets = tornado.netutil.bind_sockets(port, address=ip)
        bound = sockets[0].getsockname()[1]
        board.listened(bound)
        pool = concurrent.futures.ThreadPoolExecutor(WORKERS, "texas42-board")
        app = make_app(board, asker, loopback_hosts(bound, ip), say, pool)
        server = tornado.httpserver.HTTPServer(app, max_body_size=MAX_BODY, xheaders=False)
        server.add_sockets(sockets)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        ready(bound)
        await stop.wait()
        server.stop()
        asker.stop()
        pool.shutdown(wait=False, cancel_futures=True)

    asyncio.run(main())
