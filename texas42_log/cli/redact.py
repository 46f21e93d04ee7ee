"""``texas42 redact``: the log a spectator (or one player) could have recorded."""

from typing import Annotated

import typer

from .app import OutOpt, app, say, usage_error
from .common import check_output, emit, matches_to_write, our_formats


@app.command()
def redact(
    file: Annotated[
        str,
        typer.Argument(
            metavar="FILE",
            help="A log in any readable format; '-' reads standard input; an mk5 share link, "
            "quoted.",
        ),
    ],
    observer: Annotated[
        str,
        typer.Option(
            "--as", help="public (a spectator), or a seat A–D (a player: also its own tiles)."
        ),
    ] = "public",
    out: OutOpt = None,
    to_format: Annotated[
        str | None,
        typer.Option(
            "--to",
            help="Output format (default: from -o's name, else the input's if ours, else json).",
        ),
    ] = None,
    keep_extensions: Annotated[
        bool, typer.Option("--keep-extensions", help="Keep x- fields (they may hold anything).")
    ] = False,
    force: Annotated[
        bool,
        typer.Option(
            "--force", help="Write even an invalid result, and replace an existing output."
        ),
    ] = False,
) -> None:
    """Write the log a spectator could have recorded: no tile that was never played.

    Auction, declaration, plays and stated outcomes are kept; each seat's deal
    keeps only the tiles it played; rejected attempts and x- fields go. The
    result is validated (turn order, bids, trick winners, scores, early ends,
    reneges a later play proves) and not written if invalid unless --force.
    """
    from ..files.formats import WRITABLE, CannotExport, write_matches
    from ..files.report import diagnostic_line
    from ..log.check import check_match
    from ..views.redact import redact as redact_match

    who = observer.strip()
    who = who.upper() if len(who) == 1 else who.lower()
    if who not in ("public", "A", "B", "C", "D"):
        raise usage_error(f"--as {observer}: a redaction is for public or a seat A–D")
    matches, formats = matches_to_write([file], None, need_valid=True, force=force)
    from ..files.formats import format_for_name

    ours = our_formats()
    fmt = (
        to_format
        or (format_for_name(str(out)) if out is not None else None)
        or (formats[0] if formats[0] in ours else ("jsonl" if len(matches) > 1 else "json"))
    )
    if fmt not in WRITABLE:
        raise usage_error(f"--to {fmt}: choose one of {', '.join(WRITABLE)}")
    if out is not None:
        check_output(out, [file], force)
    redacted = []
    hidden = rejected = extensions = analyses = 0
    bad = 0
    for k, m in enumerate(matches, start=1):
        r, c = redact_match(m, who, keep_extensions=keep_extensions)
        hidden, rejected, extensions = (
            hidden + c.hidden_tiles,
            rejected + c.rejected,
            extensions + c.extensions,
        )
        analyses += c.analyses
        errors = check_match(r).errors  # r is a model already: only the replay is left to check
        for d in errors:
            say(diagnostic_line(f"redacted match {k}", d), err=True, colour=True)
        bad += bool(errors)
        redacted.append(r)
    if bad and not force:
        say(
            f"texas42: not written: {bad} redacted match(es) do not validate; pass --force to "
            "write anyway",
            err=True,
        )
        raise typer.Exit(code=1)
    try:
        text = write_matches(redacted, fmt)
    except CannotExport as e:
        say(f"texas42: cannot write {fmt}: {e}", err=True)
        raise typer.Exit(code=1) from None
    emit(text, out, None, [file], force)
    say(
        f"redacted for {who}: {hidden} unplayed tile{'s' if hidden != 1 else ''} hidden, "
        f"{rejected} rejected attempt{'s' if rejected != 1 else ''} and {extensions} extension "
        "field"
        f"{'s' if extensions != 1 else ''} left out"
        + (
            f"; the open-hand analysis ({analyses} part{'s' if analyses != 1 else ''}) left out"
            if analyses
            else ""
        ),
        err=True,
    )
