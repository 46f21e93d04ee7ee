"""``texas42 replay`` and ``texas42 render``: a hand as one observer may see it (R25–R29)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from ..inert import dumps, inert
from .app import echo, AS_HELP, LANG_HELP, OutputFormat, app, say, usage_error
from .common import check_output, language_arg, observer_arg, valid_match, write_file


@app.command()
def replay(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A log file; '-' reads standard input.")],
    hand: Annotated[int, typer.Option("--hand", "-n", min=1, help="The hand, from 1.")] = 1,
    trick: Annotated[
        int | None, typer.Option("--trick", "-t", min=1, help="Show the moment trick K was collected.")
    ] = None,
    play: Annotated[
        int | None, typer.Option("--play", "-p", min=0, help="Show the moment just after play K (0: after the declaration).")
    ] = None,
    observer: Annotated[str, typer.Option("--as", help=AS_HELP)] = "public",
    output: Annotated[OutputFormat, typer.Option("--format", "-f", help="text (default) or json.")] = OutputFormat.text,
    lang: Annotated[str, typer.Option("--lang", help=LANG_HELP)] = "en",
    match_no: Annotated[int | None, typer.Option("--match", "-m", min=1, help="The match, from 1, in a file of several.")] = None,
) -> None:
    """Show a hand as one observer may see it (R25–R29): one moment, or trick by trick.

    Without --trick or --play: the auction, the declaration and every trick as
    its last tile is played. Exit 1 if the log is invalid, 2 on a usage error.
    """
    from ..views import Moment, hand_views, trick_moments
    from ..viewtext import describe, render_text

    if trick is not None and play is not None:
        raise usage_error("give --trick or --play, not both")
    who = observer_arg(observer)
    lang = language_arg(lang)
    source, match = valid_match(file, match_no)
    if hand > len(match.hands):
        raise usage_error(f"--hand {hand}: {source} has {len(match.hands)} hands")
    try:
        if trick is not None:
            moments = [Moment.after_trick(trick)]
        elif play is not None:
            moments = [Moment.after_play(play)]
        else:
            moments = trick_moments(match, hand - 1)
        views = hand_views(match, who, hand - 1, moments)
    except ValueError as e:
        raise usage_error(str(e)) from None
    if output is OutputFormat.json:
        items = [v.as_dict() | {"description": describe(v, lang)} for v in views]
        one = trick is not None or play is not None
        say(dumps(items[0] if one else items, indent=2))
        return
    text = render_text(views, lang)
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.highlighter import RegexHighlighter

        class _Tiles(RegexHighlighter):
            highlights = [r"(?P<tile>\[[0-6]\|[0-6]\])", r"(?P<head>^(Hand|Oyun eli|Раунд) \d+ ·.*$)"]

        Console(highlighter=_Tiles(), theme=None).print(inert(text), end="", markup=False)
    else:
        say(text, nl=False)


@app.command()
def render(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A log file; '-' reads standard input.")],
    out: Annotated[Path, typer.Option("--output", "-o", help="The HTML file to write (atomically); '-' is standard output.")],
    observer: Annotated[str, typer.Option("--as", help=AS_HELP)] = "public",
    lang: Annotated[str, typer.Option("--lang", help=LANG_HELP)] = "en",
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing output file.")] = False,
    match_no: Annotated[int | None, typer.Option("--match", "-m", min=1, help="The match, from 1, in a file of several.")] = None,
) -> None:
    """Write one self-contained HTML page that steps through the match as one observer saw it.

    The page holds only that observer's views, never the deal; it needs no
    network and works from file://. Exit 1 if the log is invalid, 2 on a usage error.
    """
    from ..render_html import render_html

    who = observer_arg(observer)
    lang = language_arg(lang)
    to_stdout = str(out) == "-"
    if not to_stdout:
        check_output(out, [file], force)
    _, match = valid_match(file, match_no)
    page = render_html(match, who, lang)
    if to_stdout:
        echo(page, nl=False)
        return
    write_file(out, page, replace=force)
    say(f"wrote {out} ({len(match.hands)} hands, view: {who}, language: {lang})")

