"""``texas42 replay`` and ``texas42 render``: a hand as one observer may see it (R25–R29)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from ..inert import dumps, inert
from .app import echo, AS_HELP, LANG_HELP, OutputFormat, app, say, usage_error
from ..broken import Broken
from .common import check_output, language_arg, player_or_observer, viewable_match, write_file


def _play_range(text: str) -> list[int]:
    """--play K or K-L (ASCII digits), as the plays after which to show the hand."""
    import re

    m = re.fullmatch(r"([0-9]{1,3})(?:-([0-9]{1,3}))?", text.strip(), re.ASCII)
    if m is None:
        raise usage_error(f"--play {text!r}: give a play number K (0 is after the declaration) or a range K-L, as 1-3")
    first = int(m.group(1))
    last = int(m.group(2)) if m.group(2) is not None else first
    if last < first:
        raise usage_error(f"--play {text}: the range runs from the lower number to the higher, as {last}-{first}")
    return list(range(first, last + 1))


@app.command()
def replay(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A log file; '-' reads standard input.")],
    hand: Annotated[int, typer.Option("--hand", "-n", min=1, help="The hand, from 1.")] = 1,
    trick: Annotated[
        int | None, typer.Option("--trick", "-t", min=1, help="Show the moment trick K was collected.")
    ] = None,
    play: Annotated[
        str | None, typer.Option("--play", "-p", metavar="<K|K-L>",
                                 help="Show the moment just after play K (0: after the declaration), or each moment from K to L.")
    ] = None,
    observer: Annotated[str, typer.Option("--as", help=AS_HELP)] = "public",
    output: Annotated[OutputFormat, typer.Option("--format", "-f", help="text (default) or json.")] = OutputFormat.text,
    lang: Annotated[str, typer.Option("--lang", help=LANG_HELP)] = "en",
    match_no: Annotated[int | None, typer.Option("--match", "-m", min=1, help="The match, from 1, in a file of several.")] = None,
) -> None:
    """Show a hand as one observer may see it (R25–R29): one moment, or trick by trick.

    Without --trick or --play: the auction, the declaration and every trick as
    its last tile is played. A log that breaks a rule is shown as far as it was
    played legally: a broken hand up to its first illegal action, flagged, and
    the exit status is 1. Exit 2 on a usage error.
    """
    from ..views import Moment, hand_views, trick_moments
    from ..viewtext import describe, render_text

    if trick is not None and play is not None:
        raise usage_error("give --trick or --play, not both")
    plays = _play_range(play) if play is not None else None
    lang = language_arg(lang)
    source, match, broken = viewable_match(file, match_no)
    who = player_or_observer(observer, match)
    flag = broken.get(hand - 1)
    if hand > len(match.hands):
        raise usage_error(f"--hand {hand}: {source} has {len(match.hands)} hands")
    try:
        if trick is not None:
            moments = [Moment.after_trick(trick)]
        elif plays is not None:
            moments = [Moment.after_play(k) for k in plays]
        elif who == "review":
            moments = [Moment.end()]  # R29: the hand as it ended, every play with its player
        else:
            moments = trick_moments(match, hand - 1)
        views = hand_views(match, who, hand - 1, moments)
    except ValueError as e:
        raise usage_error(str(e)) from None
    if output is OutputFormat.json:
        extra = {"broken": flag.as_dict()} if flag is not None else {}
        items = [v.as_dict() | {"description": describe(v, lang)} | extra for v in views]
        one = trick is not None or (plays is not None and len(plays) == 1)
        say(dumps(items[0] if one else items, indent=2))
        _broken_exit(broken)
        return
    text = render_text(views, lang)
    if flag is not None:
        text = f"!! {flag.text()[0].upper()}{flag.text()[1:]} !!\n\n" + text
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.highlighter import RegexHighlighter

        class _Tiles(RegexHighlighter):
            highlights = [r"(?P<tile>\[[0-6]\|[0-6]\])", r"(?P<head>^(Hand|Oyun eli|Раунд) \d+ ·.*$)"]

        Console(highlighter=_Tiles(), theme=None).print(inert(text), end="", markup=False)
    else:
        say(text, nl=False)
    _broken_exit(broken)


def _broken_exit(broken: dict[int, Broken]) -> None:
    """A log that breaks rules is shown as far as it was played legally, and is still
    an invalid log: exit 1 once the view is out."""
    if broken:
        raise typer.Exit(code=1)


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
    network and works from file://. A log that breaks a rule is shown as far as
    it was played legally, each broken hand flagged, and the exit status is 1.
    Exit 2 on a usage error.
    """
    from ..render_html import render_html

    lang = language_arg(lang)
    to_stdout = str(out) == "-"
    if not to_stdout:
        check_output(out, [file], force)
    _, match, broken = viewable_match(file, match_no)
    who = player_or_observer(observer, match)
    try:
        page = render_html(match, who, lang, broken)
    except ValueError as e:
        raise usage_error(str(e)) from None
    if to_stdout:
        echo(page, nl=False)
        _broken_exit(broken)
        return
    write_file(out, page, replace=force)
    say(f"wrote {out} ({len(match.hands)} hands, view: {who}, language: {lang})")
    _broken_exit(broken)

