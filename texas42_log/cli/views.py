"""``texas42 replay`` and ``texas42 render``: a hand as one observer may see it (R25–R29)."""

import shutil
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..log.broken import Broken
from ..log.inert import dumps, inert
from ..views.locales import DEFAULT_LANGUAGE
from .app import AS_HELP, LANG_HELP, OutputFormat, app, echo, say, usage_error
from .common import check_output, language_arg, player_or_observer, viewable_match, write_file

if TYPE_CHECKING:
    from ..log.model import Match
    from ..views.visibility import Observer


def _play_range(text: str, plays: int) -> list[int]:
    """--play: K, K-L, K- (to the last play) or a list of them (1-4,8,12-), ASCII
    digits, as the plays after which to show the hand; ``plays``: the hand's count."""
    import re

    out: list[int] = []
    for part in text.split(","):
        m = re.fullmatch(r"([0-9]{1,3})(?:(-)([0-9]{1,3})?)?", part.strip(), re.ASCII)
        if m is None:
            raise usage_error(
                f"--play {text!r}: give a play number K (0 is after the declaration), a range K-L "
                "or K- (to the last play), or a list of them, as 1-4,8,12-"
            )
        first = int(m.group(1))
        last = (
            first
            if m.group(2) is None
            else (int(m.group(3)) if m.group(3) is not None else max(plays, first))
        )
        if last < first:
            raise usage_error(
                f"--play {part.strip()}: the range runs from the lower number to the higher, "
                f"as {last}-{first}"
            )
        out += [k for k in range(first, last + 1) if k not in out]
    return out


def _plays_in(match: "Match", hand: int) -> int:
    if not 1 <= hand <= len(match.hands):
        return 0
    return sum(1 for p in match.hands[hand - 1].plays if not p.rejected)


def _colour_wanted() -> bool:
    """Colour on a terminal unless NO_COLOR is set (any value but empty) or TERM is dumb."""
    import os

    return (
        sys.stdout.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"
    )


@app.command()
def replay(
    file: Annotated[
        str,
        typer.Argument(
            metavar="FILE",
            help="A log file in any readable format; '-' reads standard input; an mk5 share link, "
            "quoted.",
        ),
    ],
    hand: Annotated[int, typer.Option("--hand", "-n", min=1, help="The hand, from 1.")] = 1,
    trick: Annotated[
        int | None,
        typer.Option("--trick", "-t", min=1, help="Show the moment trick K was collected."),
    ] = None,
    play: Annotated[
        str | None,
        typer.Option(
            "--play",
            "-p",
            metavar="<K|K-L>",
            help="Show the moment just after play K (0: after the declaration), or each moment "
            "from K to L.",
        ),
    ] = None,
    observer: Annotated[str, typer.Option("--as", help=AS_HELP)] = "public",
    output: Annotated[
        OutputFormat, typer.Option("--format", "-f", help="text (default) or json.")
    ] = OutputFormat.text,
    lang: Annotated[str, typer.Option("--lang", help=LANG_HELP)] = DEFAULT_LANGUAGE,
    match_no: Annotated[
        int | None,
        typer.Option("--match", "-m", min=1, help="The match, from 1, in a file of several."),
    ] = None,
    step: Annotated[
        bool,
        typer.Option(
            "--step",
            help="Step through the match in the terminal, every moment (← → step, Page Up / Page "
            "Down "
            "hand, Home / End, q quits); starts at --hand, and at --play or --trick if given.",
        ),
    ] = False,
    width: Annotated[
        int | None,
        typer.Option(
            "--width",
            min=0,
            help="Wrap lines at N columns, at spaces (never inside a tile); 0: never. "
            "Default: the terminal's width; piped, lines are whole.",
        ),
    ] = None,
) -> None:
    """Show a hand as one observer may see it (R25–R29): one moment, trick by trick, or stepping.

    Without --trick or --play: the auction, the declaration and every trick as
    its last tile is played. --step steps through every moment with the HTML
    viewer's keys. On a colour terminal tiles and whose turn it is are
    highlighted (NO_COLOR=1 turns colour off). A log that breaks a rule is shown
    as far as it was played legally: a broken hand up to its first illegal
    action, flagged, and the exit status is 1. Exit 2 on a usage error.
    """
    from ..views.text import describe, view_lines
    from ..views.visibility import Moment, hand_views, trick_moments

    if trick is not None and play is not None:
        raise usage_error("give --trick or --play, not both")
    if step and (not sys.stdin.isatty() or not sys.stdout.isatty()):
        raise usage_error(
            "--step needs a terminal for its keys and screen; without it, give --play K-L"
        )
    if step and output is OutputFormat.json:
        raise usage_error(
            "--step shows text; give --format json without --step for the views as data"
        )
    lang = language_arg(lang)
    source, match, broken = viewable_match(file, match_no)
    who = player_or_observer(observer, match)
    flag = broken.get(hand - 1)
    if hand > len(match.hands):
        raise usage_error(f"--hand {hand}: {source} has {len(match.hands)} hands")
    plays = _play_range(play, _plays_in(match, hand)) if play is not None else None
    if step:
        _step(match, who, lang, hand, trick, plays)
        _broken_exit(broken)
        return
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
    from ..views.termtext import paint, wrap_lines
    from ..views.text import turn_line

    tty = sys.stdout.isatty()
    columns = (
        width
        if width is not None
        else (shutil.get_terminal_size((80, 24)).columns - 1 if tty else 0)
    )
    colour = _colour_wanted()
    blocks = []
    for v in views:
        lines = wrap_lines(
            [inert(line) for line in view_lines(v, lang)] if tty else view_lines(v, lang), columns
        )
        if colour:
            lines = paint(lines, turn=turn_line(v, lang))
        blocks.append("\n".join(lines))
    text = "\n\n".join(blocks) + "\n"
    if flag is not None:
        warning = f"!! {flag.text()[0].upper()}{flag.text()[1:]} !!"
        text = "\n".join(wrap_lines([inert(warning) if tty else warning], columns)) + "\n\n" + text
    if tty:
        echo(text, nl=False)  # inert already: only our colours are escape sequences
    else:
        say(text, nl=False)
    _broken_exit(broken)


def _step(
    match: "Match",
    who: "Observer",
    lang: str,
    hand: int,
    trick: int | None,
    plays: list[int] | None,
) -> None:
    """--step: from --hand's first moment, or its --play K / --trick K."""
    from ..views.visibility import Moment, hand_views
    from .stepper import step_through

    views = hand_views(match, who, hand - 1) if match.hands else []
    if not views:
        raise usage_error("the log has no hand to step through")
    start = 0
    if trick is not None or plays:
        moment = (
            Moment.after_trick(trick)
            if trick is not None
            else Moment.after_play(plays[0] if plays else 0)
        )
        try:
            (wanted,) = hand_views(match, who, hand - 1, [moment])
        except ValueError as e:
            raise usage_error(str(e)) from None
        start = next((i for i, v in enumerate(views) if v == wanted), 0)
    step_through(match, who, lang, hand - 1, start, colour=_colour_wanted())


def _broken_exit(broken: dict[int, Broken]) -> None:
    """A log that breaks rules is shown as far as it was played legally, and is still
    an invalid log: exit 1 once the view is out."""
    if broken:
        raise typer.Exit(code=1)


class Picture(StrEnum):
    html = "html"
    svg = "svg"
    png = "png"


@app.command()
def render(
    file: Annotated[
        str,
        typer.Argument(
            metavar="FILE",
            help="A log file in any readable format; '-' reads standard input; an mk5 share link, "
            "quoted.",
        ),
    ],
    out: Annotated[
        Path,
        typer.Option(
            "--output", "-o", help="The file to write (atomically); '-' is standard output."
        ),
    ],
    to: Annotated[
        Picture | None,
        typer.Option(
            "--to",
            help="html: the page that steps through the match (default); svg or png: one moment "
            "as a "
            "picture (png needs rsvg-convert or cairosvg). Default: from the output's suffix.",
        ),
    ] = None,
    observer: Annotated[str, typer.Option("--as", help=AS_HELP)] = "public",
    lang: Annotated[str, typer.Option("--lang", help=LANG_HELP)] = DEFAULT_LANGUAGE,
    hand: Annotated[int, typer.Option("--hand", "-n", min=1, help="A picture's hand, from 1.")] = 1,
    trick: Annotated[
        int | None,
        typer.Option("--trick", "-t", min=1, help="A picture of the moment trick K was collected."),
    ] = None,
    play: Annotated[
        int | None,
        typer.Option(
            "--play",
            "-p",
            min=0,
            metavar="K",
            help="A picture of the moment just after play K (0: after the declaration). "
            "Without --play or --trick: the hand as it ended.",
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Overwrite an existing output file.")
    ] = False,
    match_no: Annotated[
        int | None,
        typer.Option("--match", "-m", min=1, help="The match, from 1, in a file of several."),
    ] = None,
) -> None:
    """Write the match as one observer saw it: a self-contained HTML page, or one moment as a
    picture.

    The page (--to html) holds only that observer's views, never the deal; it
    needs no network and works from file://. A picture (--to svg, --to png) is
    one moment — --hand, and --play or --trick — drawn from the same view, for a
    forum post. A log that breaks a rule is shown as far as it was played
    legally, each broken hand flagged, and the exit status is 1. Exit 2 on a
    usage error.
    """
    from ..files.assets import viewer_asset
    from ..views.html import render_html

    lang = language_arg(lang)
    to_stdout = str(out) == "-"
    by_suffix = {".html": Picture.html, ".htm": Picture.html, ".svg": Picture.svg}
    by_suffix[".png"] = Picture.png
    kind = to or (Picture.html if to_stdout else by_suffix.get(out.suffix.lower()))
    if kind is None:
        raise usage_error(
            f"{out.name} names no kind of output render writes (.html, .svg or .png): "
            "give such a name, or say which with --to"
        )
    if kind is Picture.html and (trick is not None or play is not None or hand != 1):
        raise usage_error(
            "--hand, --play and --trick choose the moment of a picture (--to svg or png); "
            "the page steps through every moment"
        )
    if trick is not None and play is not None:
        raise usage_error("give --trick or --play, not both")
    if kind is Picture.png and to_stdout and sys.stdout.isatty():
        raise usage_error("a PNG is not for the terminal: give -o FILE.png, or pipe it")
    converter = _png_converter() if kind is Picture.png else None
    if not to_stdout:
        check_output(out, [file], force)
    _, match, broken = viewable_match(file, match_no)
    who = player_or_observer(observer, match)
    data: str | bytes
    try:
        if kind is Picture.html:
            data = render_html(match, who, lang, broken, assets=viewer_asset)
        else:
            data = _picture(match, who, lang, hand, trick, play, converter)
    except ValueError as e:
        raise usage_error(str(e)) from None
    if to_stdout:
        if isinstance(data, bytes):
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        else:
            echo(data, nl=False)
        _broken_exit(broken)
        return
    write_file(out, data, replace=force)
    if kind is Picture.html:
        from ..views.visibility import in_play_hand

        playing = in_play_hand(match) if who == "review" else None
        shown = (
            f"{len(match.hands)} hands"
            if playing is None
            else f"{playing - 1} of {len(match.hands)} hands; hand {playing} is still being "
            "played, and a review shows it once it has ended (R29)"
        )
        say(f"wrote {out} ({shown}, view: {who}, language: {lang})")
    else:
        say(f"wrote {out} (hand {hand}, view: {who}, language: {lang})")
    _broken_exit(broken)


def _picture(
    match: "Match",
    who: "Observer",
    lang: str,
    hand: int,
    trick: int | None,
    play: int | None,
    converter: list[str] | None,
) -> str | bytes:
    """One moment as SVG, or as PNG through ``converter``; ValueError for a moment the log has
    not."""
    from ..views.svg import render_svg
    from ..views.visibility import Moment, hand_views

    if hand > len(match.hands):
        raise ValueError(f"--hand {hand}: the match has {len(match.hands)} hands")
    moment = (
        Moment.after_trick(trick)
        if trick is not None
        else (Moment.after_play(play) if play is not None else Moment.end())
    )
    (view,) = hand_views(match, who, hand - 1, [moment])
    svg = render_svg(view, lang)
    if converter is None:
        return svg
    return _to_png(svg, converter)


def _png_converter() -> list[str]:
    """The SVG → PNG converter this machine has: ``rsvg-convert`` (Debian's librsvg2-bin),
    else the ``cairosvg`` Python package; a usage error naming both when neither is there."""
    import importlib.util
    import shutil

    found = shutil.which("rsvg-convert")
    if found:
        return [found, "--format", "png", "--zoom", "1.5"]
    if importlib.util.find_spec("cairosvg") is not None:
        return [sys.executable, "-m", "cairosvg", "--format", "png", "--scale", "1.5", "-"]
    raise usage_error(
        "--to png needs an SVG converter, and none is installed: install rsvg-convert "
        "(Debian/Ubuntu: apt install librsvg2-bin) or cairosvg (pip install 'texas42-log[png]'); "
        "--to svg needs none"
    )


def _to_png(svg: str, converter: list[str]) -> bytes:
    import subprocess

    try:
        done = subprocess.run(
            converter, input=svg.encode("utf-8"), capture_output=True, timeout=120, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        raise usage_error(f"the SVG converter {converter[0]} did not run: {e}") from None
    if done.returncode != 0 or not done.stdout.startswith(b"\x89PNG"):
        detail = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise usage_error(
            f"the SVG converter {Path(converter[0]).name} failed"
            + (f": {inert(detail[-1])}" if detail else "")
        )
    return done.stdout
