"""The ``texas42`` command. It only translates: arguments in, library call,
diagnostics out, exit code (0 valid, 1 invalid input, 2 usage error)."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from enum import StrEnum
from pathlib import Path
from collections.abc import Iterable
from typing import TYPE_CHECKING, Annotated

import typer

from . import __version__

if TYPE_CHECKING:
    from .corpus import Summary
    from .model import Match
    from .views import Observer

app = typer.Typer(
    name="texas42",
    help="Record, check and replay games of Texas 42 (texas42-log format v1).",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


class OutputFormat(StrEnum):
    text = "text"
    json = "json"


def _usage_error(message: str) -> typer.Exit:
    typer.echo(f"texas42: error: {message}", err=True)
    return typer.Exit(code=2)


def _read_input(name: str) -> bytes:
    from .corpus import InputError, read_file

    if name == "-":
        return sys.stdin.buffer.read()
    try:
        return read_file(name)
    except InputError as e:
        raise _usage_error(str(e)) from None


def atomic_write(path: Path, data: str | Iterable[str]) -> None:
    """Write ``data`` (a text, or texts one after another) to ``path`` via a temporary
    file in the same folder and a rename: the file is whole or untouched."""
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            for chunk in [data] if isinstance(data, str) else data:
                f.write(chunk)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _version(value: bool) -> None:
    if value:
        from .model import FORMAT_VERSION

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


@app.command()
def validate(
    inputs: Annotated[
        list[str],
        typer.Argument(
            metavar="INPUT...",
            help="Log files, directories (searched for *.json and *.jsonl), globs, "
            "JSON Lines files (one match per line); '-' reads standard input.",
        ),
    ],
    output: Annotated[
        OutputFormat, typer.Option("--format", "-f", help="text (default), or json: one JSON object per match, then a summary.")
    ] = OutputFormat.text,
    max_bytes: Annotated[
        int, typer.Option("--max-bytes", min=1, help="Refuse a match larger than this.")
    ] = 16 * 1024 * 1024,
    jobs: Annotated[
        int | None, typer.Option("--jobs", "-j", min=1, help="Processes to use (default: every core).")
    ] = None,
    fail_fast: Annotated[bool, typer.Option("--fail-fast", "-x", help="Stop at the first invalid match.")] = False,
    max_errors: Annotated[
        int | None, typer.Option("--max-errors", min=1, help="Stop once this many errors were found.")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only invalid matches and the summary.")] = False,
    jsonl: Annotated[bool, typer.Option("--jsonl", help="Standard input holds JSON Lines.")] = False,
) -> None:
    """Replay each match under its declared rules and report every broken rule.

    Exit 0 when every match is valid, 1 when any is invalid, 2 on a usage error.
    Several matches end with a summary on standard error (and a progress bar
    there, on a terminal).
    """
    import time

    from .corpus import (
        InputError,
        Summary,
        default_jobs,
        expand_inputs,
        summary_text,
        validate_files,
    )

    try:
        files = expand_inputs(inputs)
    except InputError as e:
        raise _usage_error(str(e)) from None
    summary = Summary()
    start = time.perf_counter()
    progress = _Progress(_total_bytes(files)) if sys.stderr.isatty() else None
    try:
        results = validate_files(
            files,
            stdin=sys.stdin.buffer,
            stdin_jsonl=jsonl,
            jobs=jobs or default_jobs(),
            max_bytes=max_bytes,
            text="none" if output is OutputFormat.json else ("invalid" if quiet else "all"),
            as_json=output is OutputFormat.json,
        )
        for r in results:
            summary.add(r)
            if output is OutputFormat.json:
                typer.echo(json.dumps(r.json, ensure_ascii=False))
            elif not (quiet and r.valid):
                typer.echo(r.text)
            if progress is not None:
                progress.update(summary, r.size)
            if fail_fast and not r.valid:
                summary.stopped = "at the first invalid match (--fail-fast)"
                break
            if max_errors is not None and summary.errors >= max_errors:
                summary.stopped = f"after {summary.errors} errors (--max-errors {max_errors})"
                break
    except InputError as e:
        raise _usage_error(str(e)) from None
    finally:
        if progress is not None:
            progress.close()
    summary.seconds = time.perf_counter() - start
    if output is OutputFormat.json:
        typer.echo(json.dumps({"summary": summary.as_dict()}))
    elif summary.matches > 1 or summary.stopped:
        typer.echo("\n".join(summary_text(summary)), err=True)
    raise typer.Exit(code=1 if summary.invalid else 0)


def _total_bytes(files: list[str]) -> int | None:
    """The input's size, for a progress bar; None when reading standard input."""
    if "-" in files:
        return None
    return sum(os.path.getsize(f) for f in files)


class _Progress:
    """A progress bar on a terminal's standard error (rich): bytes read of the
    inputs' total, with the running counts. Never shown when stderr is piped."""

    def __init__(self, total: int | None) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeRemainingColumn

        self._progress = Progress(
            BarColumn(),
            TaskProgressColumn(),
            TimeRemainingColumn(),
            TextColumn("{task.description}"),
            console=Console(stderr=True),
            transient=True,
        )
        self._task = self._progress.add_task("validating", total=total)
        self._pending = 0
        self._progress.start()

    def update(self, s: "Summary", size: int) -> None:
        self._pending += size
        if s.matches % 32:  # a redraw is cheap, but not free: every 32 matches
            return
        self._progress.update(
            self._task,
            advance=self._pending,
            description=f"{s.matches:,} matches · {s.hands:,} hands · {s.invalid:,} invalid",
        )
        self._pending = 0

    def close(self) -> None:
        self._progress.stop()


@app.command()
def generate(
    matches: Annotated[int, typer.Option("--matches", "-n", min=1, help="How many matches.")] = 1,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Seed: the same seed, the same matches.")] = 0,
    preset: Annotated[str, typer.Option("--rules", help="The rules preset to play under.")] = "standard",
    out: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write here (atomically); default standard output.")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing output file.")] = False,
) -> None:
    """Random legal matches as JSON Lines (one match per line), reproducible from a seed.

    Match i of seed S is random_match(S * 1,000,000 + i): varied auctions and
    trumps, stacks, early ends and all-pass redeals. A single match written to a
    .json file is indented instead.
    """
    from .generate import random_match
    from .rules import find_preset

    try:
        rules = find_preset(preset)
    except ValueError as e:
        raise _usage_error(f"--rules: {e}") from None
    if out is not None and out.exists() and not force:
        raise _usage_error(f"{out} exists; pass --force to replace it")
    pretty = out is not None and out.suffix == ".json" and matches == 1
    lines = (
        json.dumps(random_match(seed * 1_000_000 + i, rules=rules, preset=preset), ensure_ascii=False,
                   indent=2 if pretty else None, separators=None if pretty else (",", ":"))
        for i in range(matches)
    )
    if out is None:
        for line in lines:
            typer.echo(line)
        return
    try:
        atomic_write(out, (line + "\n" for line in lines))
    except OSError as e:
        raise _usage_error(f"{out}: cannot be written ({e.strerror})") from None


@app.command()
def schema(
    out: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to this file (atomically).")
    ] = None,
) -> None:
    """Print the JSON Schema of format v1, generated from the models."""
    from .schema import schema_text

    text = schema_text()
    if out is None:
        typer.echo(text, nl=False)
    else:
        atomic_write(out, text)


@app.command()
def rules(
    preset: Annotated[str, typer.Option(help="The preset to show.")] = "standard",
    output: Annotated[OutputFormat, typer.Option("--format", "-f")] = OutputFormat.text,
    list_presets: Annotated[bool, typer.Option("--list", help="List the presets.")] = False,
) -> None:
    """Show a rules preset: every option, its value, its values and the rule text behind it."""
    from .rules import OPTIONS, PRESET_DOCS, PRESETS, STANDARD, find_preset

    if list_presets:
        if output is OutputFormat.json:
            typer.echo(json.dumps({name: PRESET_DOCS[name] for name in PRESETS}, indent=2, ensure_ascii=False))
            return
        for name in PRESETS:
            changed = ", ".join(
                f"{k}={json.dumps(v)}" for k, (v, _) in PRESETS[name].differences(STANDARD).items()
            )
            typer.echo(f"{name}: {PRESET_DOCS[name]}")
            if changed:
                typer.echo(f"    differs from standard: {changed}")
        return
    try:
        chosen = find_preset(preset)
    except ValueError as e:
        raise _usage_error(str(e)) from None
    if output is OutputFormat.json:
        typer.echo(json.dumps({"preset": preset, "options": chosen.as_dict()}, indent=2))
        return
    typer.echo(f"preset {preset}: {PRESET_DOCS[preset]}")
    for name, value in chosen.as_dict().items():
        o = OPTIONS[name]
        typer.echo(f"  {name} = {json.dumps(value)}    ({o.values})")
        typer.echo(f"      {o.doc}")
        typer.echo(f"      from: {o.source}")


def _valid_match(name: str) -> tuple[str, "Match"]:
    """Read and validate one log for the view commands: an invalid log is exit 1."""
    from .report import result_text
    from .validate import validate_bytes

    data = _read_input(name)
    source = "<stdin>" if name == "-" else name
    result = validate_bytes(data)
    if not result.valid or result.match is None:
        typer.echo(result_text(source, result), err=True)
        typer.echo(f"texas42: {source} is not a valid log; views are shown only for valid logs", err=True)
        raise typer.Exit(code=1)
    return source, result.match


def _observer(text: str) -> "Observer":
    from .views import parse_observer

    try:
        return parse_observer(text)
    except ValueError as e:
        raise _usage_error(f"--as: {e}") from None


def _language(lang: str) -> str:
    from .locales import languages

    if lang not in languages():
        raise _usage_error(f"--lang: no messages for {lang!r}; choose one of {', '.join(languages())}")
    return lang


AS_HELP = "Whose view: A, B, C or D (a player), public (a spectator), review (after the hand), or omniscient (analysis, every hand)."
LANG_HELP = "Language of the texts: en, tr or uk."


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
) -> None:
    """Show a hand as one observer may see it (R25–R29): one moment, or trick by trick.

    Without --trick or --play: the auction, the declaration and every trick as
    its last tile is played. Exit 1 if the log is invalid, 2 on a usage error.
    """
    from .views import Moment, hand_views, trick_moments
    from .viewtext import describe, render_text

    if trick is not None and play is not None:
        raise _usage_error("give --trick or --play, not both")
    who = _observer(observer)
    lang = _language(lang)
    source, match = _valid_match(file)
    if hand > len(match.hands):
        raise _usage_error(f"--hand {hand}: {source} has {len(match.hands)} hands")
    try:
        if trick is not None:
            moments = [Moment.after_trick(trick)]
        elif play is not None:
            moments = [Moment.after_play(play)]
        else:
            moments = trick_moments(match, hand - 1)
        views = hand_views(match, who, hand - 1, moments)
    except ValueError as e:
        raise _usage_error(str(e)) from None
    if output is OutputFormat.json:
        items = [v.as_dict() | {"description": describe(v, lang)} for v in views]
        one = trick is not None or play is not None
        typer.echo(json.dumps(items[0] if one else items, indent=2, ensure_ascii=False))
        return
    text = render_text(views, lang)
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.highlighter import RegexHighlighter

        class _Tiles(RegexHighlighter):
            highlights = [r"(?P<tile>\[[0-6]\|[0-6]\])", r"(?P<head>^(Hand|Oyun eli|Раунд) \d+ ·.*$)"]

        Console(highlighter=_Tiles(), theme=None).print(text, end="", markup=False)
    else:
        typer.echo(text, nl=False)


@app.command()
def render(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A log file; '-' reads standard input.")],
    out: Annotated[Path, typer.Option("--output", "-o", help="The HTML file to write (atomically).")],
    observer: Annotated[str, typer.Option("--as", help=AS_HELP)] = "public",
    lang: Annotated[str, typer.Option("--lang", help=LANG_HELP)] = "en",
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing output file.")] = False,
) -> None:
    """Write one self-contained HTML page that steps through the match as one observer saw it.

    The page holds only that observer's views, never the deal; it needs no
    network and works from file://. Exit 1 if the log is invalid, 2 on a usage error.
    """
    from .render_html import render_html

    who = _observer(observer)
    lang = _language(lang)
    if file != "-" and out.exists() and out.resolve() == Path(file).resolve():
        raise _usage_error(f"-o {out} is the input log; write the page to another file")
    if out.exists() and not force:
        raise _usage_error(f"{out} exists; pass --force to replace it")
    if out.is_dir():
        raise _usage_error(f"{out} is a directory")
    _, match = _valid_match(file)
    page = render_html(match, who, lang)
    try:
        atomic_write(out, page)
    except OSError as e:
        raise _usage_error(f"{out}: cannot be written ({e.strerror})") from None
    typer.echo(f"wrote {out} ({len(match.hands)} hands, view: {who}, language: {lang})")


def main() -> None:
    """Console entry point: no traceback reaches the user unless TEXAS42_DEBUG is set."""
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("texas42: interrupted", err=True)
        sys.exit(130)
    except Exception as e:  # a bug: say so in one line, keep the traceback for debugging
        if os.environ.get("TEXAS42_DEBUG"):
            raise
        typer.echo(
            f"texas42: internal error: {type(e).__name__}: {e} "
            "(set TEXAS42_DEBUG=1 for the traceback and please report it)",
            err=True,
        )
        sys.exit(70)
