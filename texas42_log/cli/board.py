"""``texas42 board``: the review board in the browser (texas42_log.board, docs/board.md)."""

import importlib.util
from typing import Annotated

import typer

from ..views.locales import DEFAULT_LANGUAGE
from .app import LANG_HELP, app, say, usage_error
from .common import Port, language_arg


@app.command()
def board(
    file: Annotated[
        str,
        typer.Argument(
            metavar="LOG",
            help="A log in any format convert reads (an mk5 share link, quoted, with --save).",
        ),
    ],
    match_no: Annotated[
        int | None,
        typer.Option("--match", "-m", min=1, help="The match, from 1, in a file of several."),
    ] = None,
    port: Port = 0,
    ip: Annotated[
        str,
        typer.Option(
            "--ip",
            help="The address to listen on (default 127.0.0.1: this machine only). Another "
            "lets others reach the board; they still need an address with its token.",
        ),
    ] = "127.0.0.1",
    browser: Annotated[
        bool,
        typer.Option(
            "--open/--no-browser",
            help="Open the board in the browser (default: only print its address).",
        ),
    ] = False,
    seats: Annotated[
        bool,
        typer.Option(
            "--seats",
            help="Also print one address per seat, each with its own token, that shows only "
            "that seat's view and the public's: the links to hand round a table.",
        ),
    ] = False,
    review_link: Annotated[
        bool,
        typer.Option(
            "--review-link",
            help="Also print a read-only address that shows the review (R29: finished hands, "
            "no tile never played) and takes no comment.",
        ),
    ] = False,
    new_links: Annotated[
        bool,
        typer.Option(
            "--new-links",
            help="Make new addresses: the ones printed before stop working (by default the "
            "same log gives the same addresses at every start).",
        ),
    ] = False,
    save: Annotated[
        str | None,
        typer.Option(
            "--save",
            metavar="FILE.json",
            help="Save to this JSON file (default: the log itself when it is a JSON log, "
            "else a JSON file beside it).",
        ),
    ] = None,
    lang: Annotated[str, typer.Option("--lang", help=LANG_HELP)] = DEFAULT_LANGUAGE,
    worlds: Annotated[
        int,
        typer.Option(
            "--worlds", min=1, max=2000, help="Worlds the fair analysis draws a decision."
        ),
    ] = 100,
    seed: Annotated[
        int, typer.Option("--seed", min=0, max=2**31, help="The seed of the fair analysis's draw.")
    ] = 42,
) -> None:
    """Review a log in the browser: step through it as any observer, ask the analysis of
    a hand, and add, edit and remove comments that are saved into the log.

    The board listens on 127.0.0.1 and prints its address, which holds a random token:
    every request needs it. With --seats it also prints an address per seat that
    only ever shows that seat's view (R25–R29) and the public's; a seat's address edits
    and removes only the comments it wrote (format 1.9). The same log started again
    gives the same addresses and port (kept in the user's state folder; --new-links
    makes new ones). Saving takes the log's writer lock, merges what others saved
    meanwhile and writes the log atomically; a change that cannot be made (a comment
    someone else changed, or not yours) is reported on its own and the rest is saved.
    Ctrl-C stops the board. Exit 1 for a log that is not valid, 2 for a usage error
    (or the board extra missing).
    """
    if importlib.util.find_spec("tornado") is None:
        say(
            "texas42: error: the board needs its web server, the board extra: pip install "
            "'texas42-log[board]' (in a checkout: .venv/bin/pip install -e '.[board]')",
            err=True,
        )
        raise typer.Exit(code=2)
    lang = language_arg(lang)
    from ..board.ask import Asker
    from ..board.server import LOOPBACK, serve
    from ..board.state import OWNER, REVIEW, Board, StartError

    try:
        b = Board.open(file, number=match_no, save=save, lang=lang)
        b.use_links(seats=seats, review=review_link, new=new_links)
    except StartError as e:
        if e.report:
            say(e.report, err=True, colour=True)
        if e.usage:
            raise usage_error(str(e)) from None
        say(f"texas42: {e}", err=True)
        raise typer.Exit(code=1) from None
    asker = Asker(b, worlds=worlds, seed=seed)
    if ip not in LOOPBACK:
        say(
            f"texas42 board: warning: listening on {ip}, not this machine only; whoever has "
            "an address below can see and comment what it shows",
            err=True,
        )

    def ready(bound: int) -> None:
        host = f"[{ip}]" if ":" in ip else ip
        if ip in ("0.0.0.0", "::"):
            host = "127.0.0.1"
        base = f"http://{host}:{bound}/"
        where = (
            f"saves into {b.save_path}"
            if b.saves_in_place
            else f"saves to {b.save_path} (the log itself is not a JSON log)"
        )
        say(f"texas42 board: {b.source}: {where}")
        say(f"  the board (every observer): {base}?token={b.token_for(OWNER)}")
        if seats:
            for s in "ABCD":
                token = b.token_for("seat " + s)
                say(f"  seat {s} (its view and the public's): {base}?token={token}")
        if review_link:
            token = b.token_for(REVIEW)
            say(f"  the review (read-only, finished hands): {base}?token={token}")
        say("  Ctrl-C stops the board.")
        if browser:
            import webbrowser

            webbrowser.open(f"{base}?token={b.token_for(OWNER)}")

    try:
        serve(b, asker, ip=ip, port=port, ready=ready, prefer=b.last_port)
    except StartError as e:  # the links, with the port, cannot be kept
        raise usage_error(str(e)) from None
    except OSError as e:
        raise usage_error(f"cannot listen on {ip}:{port}: {e.strerror or e}") from None
    say("texas42 board: stopped", err=True)
