"""``texas42 table``: a match played from each seat's page (texas42_log.table, docs/table.md)."""

import importlib.util
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .app import app, say, usage_error
from .common import Port

if TYPE_CHECKING:
    from ..board.links import Links
    from ..table.referee import Table
    from ..table.seating import Seating


def _options(items: list[str]) -> dict[str, Any]:
    """``--option NAME=VALUE`` items as rule options (``texas42 rules`` lists them)."""
    from ..engine.rules import OPTIONS

    out: dict[str, Any] = {}
    for item in items:
        key, eq, text = item.partition("=")
        key, text = key.strip(), text.strip()
        if not eq or key not in OPTIONS:
            raise usage_error(
                f"--option {item[:60]}: write NAME=VALUE with a rule option's name "
                "(texas42 rules lists them)"
            )
        option = OPTIONS[key]
        if option.kind == "bool":
            if text not in ("true", "false"):
                raise usage_error(f"--option {key}: true or false, not {text[:20]!r}")
            out[key] = text == "true"
        elif option.kind == "int":
            if not (text.isascii() and text.isdigit()) or len(text) > 6:
                raise usage_error(f"--option {key}: a whole number, not {text[:20]!r}")
            out[key] = int(text)
        else:
            if text not in option.choices:
                raise usage_error(
                    f"--option {key}: one of {', '.join(option.choices)}, not {text[:20]!r}"
                )
            out[key] = text
    return out


def _pairs(items: list[str], what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        seat, sep, value = item.partition("=")
        seat = seat.strip().upper()
        if not sep or seat not in ("A", "B", "C", "D") or not value.strip():
            raise usage_error(f"{what} {item[:60]}: write SEAT=VALUE, e.g. {what} C=sampling")
        if seat in out:
            raise usage_error(f"{what}: seat {seat} is given twice")
        out[seat] = value.strip()[:200]
    return out


def _qr(text: str) -> str:
    """``text`` as a QR code drawn in the terminal's characters."""
    import io

    import segno

    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True)
    return out.getvalue()


@app.command()
def table(
    file: Annotated[
        str,
        typer.Argument(
            metavar="LOG",
            help="The match's JSON log: a new file starts a match, an existing one goes on.",
        ),
    ],
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules",
            metavar="PRESET",
            help="A new match's preset (texas42 rules --list; default standard).",
        ),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            metavar="NAME=VALUE",
            help="A rule option of a new match, e.g. --option match_goal_marks=3 (repeat).",
        ),
    ] = None,
    player: Annotated[
        list[str] | None,
        typer.Option("--player", metavar="SEAT=NAME", help="A player's name, e.g. A=Ana (repeat)."),
    ] = None,
    first_dealer: Annotated[
        str | None,
        typer.Option("--first-dealer", metavar="SEAT", help="Who deals first (A-D; default A)."),
    ] = None,
    bot: Annotated[
        list[str] | None,
        typer.Option(
            "--bot",
            metavar="SEAT=BOT",
            help="A bot plays this seat, from its view only: any bot of texas42 arena "
            "(random, rule, sampling, …; settings as sampling,worlds=20). Repeat.",
        ),
    ] = None,
    bot_delay: Annotated[
        float | None,
        typer.Option(
            "--bot-delay",
            min=0.0,
            max=60.0,
            help="Seconds before every bot action, forced or not (a human pace; default 1, "
            "or what the match was started with).",
        ),
    ] = None,
    port: Port = 0,
    ip: Annotated[
        str,
        typer.Option(
            "--ip",
            help="The address to listen on (default 127.0.0.1: this machine only). Another "
            "lets the phones at the table reach it; each still needs its seat's link.",
        ),
    ] = "127.0.0.1",
    qr: Annotated[
        bool | None,
        typer.Option(
            "--qr/--no-qr",
            help="Draw each seat's link as a QR code in the terminal (default: with --ip).",
        ),
    ] = None,
    new_links: Annotated[
        bool,
        typer.Option(
            "--new-links", help="Make new addresses: the ones printed before stop working."
        ),
    ] = False,
) -> None:
    """Play a match from four screens: each seat's link shows only that seat's view
    (R25–R29) and takes its calls, trumps and plays on its turn; the server referees.

    An illegal action is refused in a sentence drawn from that seat's view alone (never
    who holds a tile it cannot see), the hand unchanged (R30), and is kept in the log as
    a rejected attempt (at most 10 a turn); nothing is decided by a clock (R31). Every
    accepted action is written into LOG (atomically, under its writer lock) before it
    is acknowledged, so a table stopped or killed at any moment and started again on
    LOG goes on where it was, with the same links (a new match, new links). Each hand
    is dealt from the system's secure random source. LOG holds every hand: it is readable
    by its owner only while the match is under way. After each hand the pages show its
    review (R29); after the match, the same links open it on the board (/board:
    reviews, each seat's analysis, comments), as texas42 board LOG --seats does.
    Ctrl-C stops the table. Exit 1 for a log that is not valid, 2 for a usage error
    (or the board extra missing).
    """
    if importlib.util.find_spec("tornado") is None or importlib.util.find_spec("segno") is None:
        say(
            "texas42: error: the table needs its web server, the board extra: pip install "
            "'texas42-log[board]' (in a checkout: .venv/bin/pip install -e '.[board]')",
            err=True,
        )
        raise typer.Exit(code=2)
    from ..board.links import load_links
    from ..board.server import LOOPBACK
    from ..table.bots import BotSeats, bot_seed
    from ..table.seating import DEFAULT_DELAY, Seating
    from ..table.server import guard_of, listen, serve

    path = Path(file)
    bots, players = _checked(path, bot or [], player or [], first_dealer)
    new = not path.exists()
    settings = _options(option or [])
    # A new match gets new links: the ones kept for a file of this name were another
    # match's (a deleted log, a new match at its path).
    links = None if new_links or new else load_links(path)
    try:  # listen before a new log is written: a taken port leaves no file behind
        sockets = listen(ip, port, prefer=links.port if links and port == 0 else None)
    except OSError as e:
        raise usage_error(f"cannot listen on {ip}:{port}: {e.strerror or e}") from None
    try:
        asked = Seating(bots, DEFAULT_DELAY if bot_delay is None else bot_delay)
        t = _open(path, new, rules or "standard", settings, players, first_dealer or "A", asked)
        seating = asked if new else _restarted(file, t, rules, settings, first_dealer, asked,
                                               bot_delay, players)  # fmt: skip
    except BaseException:
        for sock in sockets:
            sock.close()
        raise
    links = _match_links(path, t, links)
    seats = BotSeats(
        t,
        {s: _bot(s, spec)(bot_seed()) for s, spec in seating.bots.items()},  # type: ignore[misc]
        delay=seating.delay,
        log=lambda line: say(line, err=True),
    )
    if ip not in LOOPBACK:
        say(
            f"texas42 table: warning: listening on {ip}, not this machine only; whoever has "
            "a seat's link can play that seat",
            err=True,
        )
    ready = _when_ready(path, t, links, seating, ip, qr)
    serve(
        t,
        guard_of(links.tokens),
        sockets,
        ip=ip,
        ready=ready,
        started=seats.start,
        stopping=seats.stop,
        bots=frozenset(seating.bots),
    )
    say("texas42 table: stopped", err=True)


def _checked(
    path: Path, bot: list[str], player: list[str], first_dealer: str | None
) -> tuple[dict[str, str], dict[str, str]]:
    """The command line's LOG, bots and players, checked (a usage error: one sentence)."""
    if path.suffix.lower() != ".json":
        raise usage_error(f"{path}: a table writes a JSON log, LOG.json")
    if path.is_dir() or (path.exists() and not path.is_file()):
        raise usage_error(f"{path} is not a regular file: name the log file to write")
    bots = _pairs(bot, "--bot")
    players = _pairs(player, "--player")
    if first_dealer is not None and first_dealer not in ("A", "B", "C", "D"):
        raise usage_error(f"--first-dealer: a seat, A to D, not {first_dealer[:10]!r}")
    for seat, spec in bots.items():
        _bot(seat, spec)
    return bots, players


def _when_ready(
    path: Path, t: "Table", links: "Links", seating: "Seating", ip: str, qr: bool | None
) -> Callable[[int], None]:
    """What the table says once it listens: the port kept with the links, then a link a
    seat (a QR code each with ``qr``, by default off this machine), the onlookers', the
    host's."""
    from ..board.links import LinksNotKept, store_links
    from ..board.server import LOOPBACK

    def ready(bound: int) -> None:
        links.port = bound
        try:
            store_links(path, links)
        except LinksNotKept as e:
            say(f"texas42 table: warning: {e.strerror}; the port is not kept", err=True)
        over = " (the match is over)" if t.game.is_over else ""
        say(f"texas42 table: {path}: {t.game.preset}, hand {t.game.hand_number}{over}")
        draw = qr if qr is not None else ip not in LOOPBACK
        _print_links(_base(ip, bound), links.tokens, dict(seating.bots), draw)

    return ready


def _open(
    path: Path,
    new: bool,
    rules: str,
    options: dict[str, Any],
    players: dict[str, str],
    first_dealer: str,
    seating: "Seating",
) -> "Table":
    """The table on ``path``: a new match (keeping ``seating``), or the one the log holds
    (exit 1 if invalid)."""
    from ..table.referee import Table
    from ..table.seating import FIELD

    if not new:
        try:
            return Table.resume(path)
        except ValueError as e:
            say(f"texas42: {e}", err=True)
            raise typer.Exit(code=1) from None
    try:
        return Table.new(
            path,
            rules,
            options=options,
            players=players,  # type: ignore[arg-type]
            first_dealer=first_dealer,  # type: ignore[arg-type]
            extensions={FIELD: seating.as_json()},
        )
    except (ValueError, OSError) as e:
        raise usage_error(f"{path}: {getattr(e, 'strerror', None) or e}") from None


def _bot(seat: str, spec: str) -> Any:
    """The factory of the bot ``spec`` names (usage error: a sentence)."""
    from ..bots import bot_factory

    try:
        return bot_factory(spec)
    except ValueError as e:
        raise usage_error(f"--bot {seat}={spec[:40]}: {e}") from None


def _restarted(
    file: str,
    t: "Table",
    rules: str | None,
    options: dict[str, Any],
    first_dealer: str | None,
    asked: "Seating",
    delay: float | None,
    players: dict[str, str],
) -> "Seating":
    """The seating of a match started again (:func:`texas42_log.table.seating.restart`):
    the log's, or the command line's where it agrees with the log; a usage error in one
    sentence, saying what to type, where it does not. Kept in the log when it changed."""
    from ..table.seating import FIELD, Seating, restart

    doc = t.game.to_dict(hands=0)
    kept = Seating.from_json(doc.get(FIELD))
    again = (kept or Seating({})).words(file)
    preset = t.game.preset
    if rules is not None and rules != preset:
        raise usage_error(f"{file}'s match is played under {preset}, not {rules}: "
                          f"start it again with `{again}`")  # fmt: skip
    for key, value in options.items():
        if getattr(t.game.rules, key) != value:
            raise usage_error(f"{file}'s match has {key}={getattr(t.game.rules, key)}: start "
                              f"it again with `{again}`")  # fmt: skip
    if first_dealer is not None and first_dealer != doc.get("first_dealer"):
        raise usage_error(f"{file}'s match was first dealt by {doc.get('first_dealer')}: "
                          f"start it again with `{again}`")  # fmt: skip
    try:
        known: dict[str, str] = {s: n for s, n in t.game.players.items()}
        seating = restart(file, kept, asked.bots, delay, players, known)
    except ValueError as e:
        raise usage_error(str(e)) from None
    if kept != seating:
        try:
            t.keep(FIELD, seating.as_json())
        except (OSError, ValueError) as e:
            raise usage_error(f"{file}: the seats cannot be kept in it: {e}") from None
    return seating


def _match_links(path: Path, t: "Table", kept: "Links | None") -> "Links":
    """The links of the match ``t`` plays: ``kept`` when they are this match's (or not yet
    tied to one), else new ones — never another match's that had this file name."""
    from ..board.links import Links, LinksNotKept, match_identity, store_links

    identity = match_identity(t.game.to_dict(hands=1)["hands"][0].get("deal"))
    issue = kept is None or kept.match not in ("", identity)
    if kept is None or issue:
        kept = Links(os.path.realpath(path))
    kept.match = identity
    try:
        store_links(path, kept, issue=issue)
    except LinksNotKept as e:
        raise usage_error(str(e.strerror)) from None
    return kept


def _base(ip: str, port: int) -> str:
    host = "127.0.0.1" if ip in ("0.0.0.0", "::") else (f"[{ip}]" if ":" in ip else ip)
    return f"http://{host}:{port}/"


def _print_links(base: str, tokens: dict[str, str], bots: dict[str, str], draw: bool) -> None:
    for s in "ABCD":
        who = f"bot {bots[s]}" if s in bots else "its view only"
        say(f"  seat {s} ({who}): {base}?token={tokens[s]}")
        if draw and s not in bots:
            say(_qr(f"{base}?token={tokens[s]}"))
    say(f"  onlookers (the public view): {base}?token={tokens['review']}")
    say(f"  host (the public view; every view of a finished hand): {base}?token={tokens['owner']}")
    say("  Ctrl-C stops the table.")
