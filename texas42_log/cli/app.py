"""The typer application, the options several commands share, and how a command
says things: :func:`say` (every line inert, :mod:`texas42_log.log.inert`) and
:func:`usage_error` (exit 2)."""

from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from .._version import __version__
from ..log.inert import inert
from .helpfmt import install as _plain_help

_plain_help()

#: ``texas42 --help`` lists the commands by task, the main job first.
TASKS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Check and read a log", ("validate", "replay", "render", "board", "analyze")),
    ("Convert and edit", ("convert", "annotate", "redact", "upgrade")),
    ("Record and make matches", ("record", "table", "generate")),
    ("Players", ("arena",)),
    ("Reference", ("rules", "schema")),
)


class _ByTask(TyperGroup):
    """The command group, its commands listed in :data:`TASKS`' sections and order
    (a command no task names comes last, under "Other commands")."""

    def list_commands(self, ctx: typer.Context) -> list[str]:  # type: ignore[override]
        known = [name for _, names in TASKS for name in names]
        have = list(super().list_commands(ctx))
        return [n for n in known if n in have] + [n for n in have if n not in known]

    def format_commands(self, ctx: typer.Context, formatter: Any) -> None:  # type: ignore[override]
        commands = {
            n: c
            for n in self.list_commands(ctx)
            if (c := self.get_command(ctx, n)) and not c.hidden
        }
        if not commands:
            return
        limit = formatter.width - 6 - max(len(n) for n in commands)
        sections = [(title, [n for n in names if n in commands]) for title, names in TASKS]
        sections.append(
            ("Other commands", [n for n in commands if all(n not in ns for _, ns in TASKS)])
        )
        for title, names in sections:
            if names:
                with formatter.section(title):
                    formatter.write_dl([(n, commands[n].get_short_help_str(limit)) for n in names])


app = typer.Typer(
    name="texas42",
    help="Record, check and replay games of Texas 42 (texas42-log format v1).",
    cls=_ByTask,
    add_completion=True,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


class OutputFormat(StrEnum):
    text = "text"
    json = "json"


class ClosedPipe(BaseException):
    """Standard output was closed by its reader (``… | head``): stop quietly, with the
    exit status of a broken pipe (141), never 1, which means "invalid". A
    BaseException, so that nothing on the way (click included) takes it for an error."""


def echo(text: str, *, err: bool = False, nl: bool = True) -> None:
    """``typer.echo``, with a closed pipe turned into :class:`ClosedPipe`; a progress
    line on the terminal is erased first."""
    from .progress import clear_active

    clear_active()
    try:
        typer.echo(text, err=err, nl=nl)
    except BrokenPipeError:
        raise ClosedPipe() from None


def say(text: str, *, err: bool = False, nl: bool = True, colour: bool = False) -> None:
    """Print a line of the tool's own text, which may quote a log: every control
    character but newline and tab shown as an escape (text out is inert). With
    ``colour``, diagnostics are coloured when the stream is a terminal (never with
    NO_COLOR set, or TERM=dumb): the colour codes are the tool's, added after the
    text was made inert, so a log's text can never colour anything."""
    shown = inert(text)
    if colour and colour_wanted(err):
        shown = paint(shown)
    echo(shown, err=err, nl=nl)


def colour_wanted(err: bool) -> bool:
    """Colour for this stream: a terminal, NO_COLOR unset or empty (no-color.org), TERM not dumb."""
    import os
    import sys

    stream = sys.stderr if err else sys.stdout
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        return False
    return tty and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


_RED, _YELLOW, _GREEN, _BOLD, _DIM, _RESET = (
    "\x1b[31m",
    "\x1b[33m",
    "\x1b[32m",
    "\x1b[1m",
    "\x1b[2m",
    "\x1b[0m",
)


def paint(text: str) -> str:
    """Diagnostic lines coloured: the place bold, "error" red, "warning" yellow, a
    valid file's "valid" green, a diagnostic's context lines dim."""
    import re

    def line(s: str) -> str:
        m = re.match(r"^(\S.*?: )(error|warning)( .*)$", s)
        if m:
            colour = _RED if m.group(2) == "error" else _YELLOW
            return f"{_BOLD}{m.group(1)}{_RESET}{colour}{m.group(2)}{_RESET}{m.group(3)}"
        m = re.match(r"^(\S.*?: )(valid|invalid)(\b.*)$", s)
        if m:
            colour = _GREEN if m.group(2) == "valid" else _RED
            return f"{_BOLD}{m.group(1)}{_RESET}{colour}{m.group(2)}{_RESET}{m.group(3)}"
        if s.startswith("    "):
            return f"{_DIM}{s}{_RESET}"
        return s

    return "\n".join(line(s) for s in text.split("\n"))


def usage_error(message: str) -> typer.Exit:
    """Say ``message`` as a usage error; raise the result (exit 2)."""
    say(f"texas42: error: {message}", err=True)
    return typer.Exit(code=2)


def input_error(message: str) -> typer.Exit:
    """Say why an input is refused; raise the result (exit 1: the input is not a log we can
    read)."""
    say(f"texas42: {message}", err=True)
    return typer.Exit(code=1)


def _version(value: bool) -> None:
    if value:
        from ..log.model import FORMAT_VERSION

        typer.echo(f"texas42-log {__version__} (format {FORMAT_VERSION})")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool | None,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version."),
    ] = None,
) -> None:
    """Record, check and replay games of Texas 42."""


AS_HELP = (
    "Whose view: A, B, C or D (a player, or a player's name as the log gives it), public (a "
    "spectator), review (a hand as it ended), or omniscient (analysis, every hand)."
)
LANG_HELP = "Language of the texts: en, tr or uk."

HandOpt = Annotated[
    int | None,
    typer.Option("--hand", "-n", min=1, help="The hand, from 1 (without it: the match)."),
]
CallOpt = Annotated[int | None, typer.Option("--call", min=1, help="The K-th call of the hand.")]
PlayOpt = Annotated[
    int | None,
    typer.Option(
        "--play", "-p", min=1, help="The K-th play of the hand (as replay --play K counts)."
    ),
]
DeclOpt = Annotated[bool, typer.Option("--declaration", help="The hand's trump declaration.")]
MatchOpt = Annotated[
    int | None,
    typer.Option("--match", "-m", min=1, help="The match, from 1, in a file of several."),
]
OutOpt = Annotated[
    Path | None,
    typer.Option(
        "--output", "-o", help="Write the result here (atomically); '-' is standard output."
    ),
]
InPlaceOpt = Annotated[
    bool, typer.Option("--in-place", "-i", help="Replace FILE itself (atomically).")
]
ForceOpt = Annotated[bool, typer.Option("--force", help="Replace an existing output file.")]
NoProgressOpt = Annotated[
    bool,
    typer.Option(
        "--no-progress",
        help="Never show the progress line (it is shown only on a terminal's standard error, and "
        "only for a long run).",
    ),
]
