"""The ``texas42`` command. It only translates: arguments in, library call,
diagnostics out, exit code (0 valid, 1 invalid input, 2 usage error)."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from enum import StrEnum
from pathlib import Path
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Annotated, Any

import typer

from . import __version__

if TYPE_CHECKING:
    from .annotate import Target
    from .convert import Source
    from .validate import ValidationResult
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


def _valid_match(name: str, number: int | None = None) -> tuple[str, "Match"]:
    """Read and validate one log (any readable format; match ``number`` of several)
    for the view commands: an invalid log is exit 1."""
    from .convert import ConvertError, format_for_name, read_sources, sniff, validated
    from .report import result_text
    from .validate import validate_bytes

    data = _read_input(name)
    source = "<stdin>" if name == "-" else name
    fmt = format_for_name(name) if name != "-" else None
    if fmt in (None, "json"):
        # Our JSON first (the fast path); what is not JSON, or not ours, may be another format.
        result = validate_bytes(data)
        results = [result]
        if result.valid or result.errors[0].rule not in ("json", "format"):
            fmt = "json"
        else:
            sniffed = sniff(_decode(source, data))
            fmt = "json" if sniffed in (None, "json") else sniffed
    if fmt != "json":
        text = _decode(source, data)
        try:
            results = [validated(s) for s in read_sources(text, fmt)]
        except ConvertError as e:
            where = f"{source}:{e.line}:{e.column}" if e.line is not None else source
            typer.echo(f"{where}: error format: not a {fmt} file: {e.message}", err=True)
            raise typer.Exit(code=1) from None
    result = results[_pick(len(results), number, source)]
    if not result.valid or result.match is None:
        typer.echo(result_text(source, result), err=True)
        typer.echo(f"texas42: {source} is not a valid log; views are shown only for valid logs", err=True)
        raise typer.Exit(code=1)
    return source, result.match


def _pick(count: int, number: int | None, source: str) -> int:
    """The index of match ``number`` (from 1; may be omitted when there is one) of ``count``."""
    if number is None:
        if count > 1:
            raise _usage_error(f"{source} holds {count} matches; say which with --match N")
        number = 1
    if not 1 <= number <= count:
        raise _usage_error(f"--match {number}: {source} holds {count} match{'es' if count != 1 else ''}")
    return number - 1


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
    match_no: Annotated[int | None, typer.Option("--match", "-m", min=1, help="The match, from 1, in a file of several.")] = None,
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
    source, match = _valid_match(file, match_no)
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
    match_no: Annotated[int | None, typer.Option("--match", "-m", min=1, help="The match, from 1, in a file of several.")] = None,
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
    _, match = _valid_match(file, match_no)
    page = render_html(match, who, lang)
    try:
        atomic_write(out, page)
    except OSError as e:
        raise _usage_error(f"{out}: cannot be written ({e.strerror})") from None
    typer.echo(f"wrote {out} ({len(match.hands)} hands, view: {who}, language: {lang})")


# -- conversions ------------------------------------------------------------------

def _decode(name: str, data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        typer.echo(f"texas42: {name}: not UTF-8 (byte 0x{data[e.start]:02x} at offset {e.start}); save it as UTF-8", err=True)
        raise typer.Exit(code=1) from None


def _format_of(name: str, text: str | None, given: str | None, option: str, allowed: tuple[str, ...]) -> str:
    from .convert import format_for_name, sniff

    fmt = given or format_for_name(name) or (sniff(text) if text is not None else None)
    if fmt is None:
        raise _usage_error(f"cannot tell the format of {name}; give {option} ({', '.join(allowed)})")
    if fmt not in allowed:
        raise _usage_error(f"{option} {fmt}: choose one of {', '.join(allowed)}")
    return fmt


def _results(names: list[str], given: str | None) -> Iterator[tuple[str, "ValidationResult"]]:
    """Every match of every input (any readable format), validated, with its format;
    its diagnostics are printed on stderr as it goes. A JSON Lines file is read a line
    at a time, so a corpus of any size streams. Exit 1 if an input cannot be read."""
    from .convert import READABLE, ConvertError, Source, read_sources, validated
    from .report import diagnostic_line

    for name in names:
        shown = "<stdin>" if name == "-" else name
        fmt = given or (_format_of(shown, None, None, "--from", READABLE) if _named_jsonl(name) else None)
        if fmt == "jsonl" and name != "-":
            sources: Iterable[Source] = _jsonl_sources(name)
        else:
            text = _decode(shown, _read_input(name))
            fmt = _format_of(shown, text, fmt, "--from", READABLE)
            try:
                sources = read_sources(text, fmt)
            except ConvertError as e:
                where = f"{shown}:{e.line}:{e.column}" if e.line is not None else shown
                typer.echo(f"{where}: error format: not a {fmt} file: {e.message}", err=True)
                raise typer.Exit(code=1) from None
        for src in sources:
            result = validated(src)
            for d in result.diagnostics:
                typer.echo(diagnostic_line(shown, d), err=True)
            if result.match is None:
                typer.echo(f"texas42: {shown} (match {src.number}) is not a texas42-log match even in "
                           "structure; nothing written", err=True)
                raise typer.Exit(code=1)
            yield fmt, result


def _named_jsonl(name: str) -> bool:
    from .convert import format_for_name

    return format_for_name(name) == "jsonl"


def _jsonl_sources(name: str) -> Iterator["Source"]:
    from .convert import Source
    from .corpus import InputError, reading

    try:
        with reading(name), open(name, "rb") as handle:
            for number, line in enumerate(handle, 1):
                if line.strip():
                    yield Source(number, number, raw=_decode(f"{name}:{number}", line))
    except InputError as e:
        raise _usage_error(str(e)) from None


def _read_matches(names: list[str], given: str | None, *, need_valid: bool, force: bool = False) -> tuple[list["Match"], list[str]]:
    """Every match of every input, validated (:func:`_results`). Exit 1 if one is
    invalid and ``need_valid`` without ``force``. Returns the matches and their formats."""
    matches: list[Match] = []
    formats: list[str] = []
    invalid = 0
    for fmt, result in _results(names, given):
        assert result.match is not None
        invalid += not result.valid
        matches.append(result.match)
        formats.append(fmt)
    if invalid and need_valid and not force:
        typer.echo(
            f"texas42: not written: {invalid} of {len(matches)} match{'es are' if len(matches) != 1 else ' is'} "
            "invalid (the errors above); pass --force to write anyway",
            err=True,
        )
        raise typer.Exit(code=1)
    return matches, formats


def _check_output(out: Path, inputs: list[str], force: bool) -> None:
    for name in inputs:
        if name != "-" and Path(name).exists() and out.exists() and out.resolve() == Path(name).resolve():
            raise _usage_error(f"-o {out} is an input; a command never writes over its input")
    if out.is_dir():
        raise _usage_error(f"{out} is a directory")
    if out.exists() and not force:
        raise _usage_error(f"{out} exists; pass --force to replace it")


def _write(out: Path, text: str) -> None:
    try:
        atomic_write(out, text)
    except OSError as e:
        raise _usage_error(f"{out}: cannot be written ({e.strerror})") from None


@app.command()
def convert(
    inputs: Annotated[list[str], typer.Argument(metavar="IN...", help="Input files (several are joined); '-' reads standard input.")],
    out: Annotated[str, typer.Option("--output", "-o", help="The file to write, a directory (ending in /) for one file per match, or - for standard output.")],
    from_format: Annotated[str | None, typer.Option("--from", help="Input format (default: from the file name or its content).")] = None,
    to_format: Annotated[str | None, typer.Option("--to", help="Output format (default: from the output's name).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Write even an invalid result, and replace an existing output.")] = False,
) -> None:
    """Convert between texas42-log JSON, JSON Lines, the text notation (.t42), the
    texas-42 receipt, plunge replay codes and records, tricksy event logs, and CSV.

    Formats: json, jsonl, text, texas-42-receipt, plunge-code, plunge-hand-v2,
    tricksy (read and write), csv (write: one row per play). The result is
    validated and not written if invalid (unless --force); writing is atomic and
    never touches an input. Exit 1 if an input or the result is invalid, or the
    output format cannot hold the match; 2 on a usage error.
    """
    from .convert import EXTENSIONS, STREAMED, WRITABLE, CannotExport, write_matches

    split = out.endswith("/") or Path(out).is_dir()
    stdout = out == "-"
    target = Path(out)
    fmt = to_format or ("json" if split else None)
    if not (stdout and fmt is None):
        fmt = _format_of(out, None, fmt, "--to", WRITABLE)
    if not split and not stdout:
        _check_output(target, inputs, force)
    if fmt in STREAMED and not split:
        _convert_streaming(inputs, from_format, fmt, None if stdout else target, force)
        return
    matches, _ = _read_matches(inputs, from_format, need_valid=True, force=force)
    if fmt is None:  # standard output: JSON for one match, JSON Lines for several
        fmt = "json" if len(matches) == 1 else "jsonl"
    try:
        texts = [write_matches(matches, fmt)] if not split else [write_matches([m], fmt) for m in matches]
    except (CannotExport, ValueError) as e:
        typer.echo(f"texas42: cannot write {fmt}: {e}", err=True)
        raise typer.Exit(code=1) from None
    if not force:
        _reread(texts, fmt, len(matches))
    _lost_comments(fmt, matches)
    if stdout:
        typer.echo(texts[0], nl=False)
        return
    if not split:
        _write(target, texts[0])
        typer.echo(f"wrote {out} ({len(matches)} match{'es' if len(matches) != 1 else ''}, {fmt})")
        return
    stem = Path(inputs[0]).name.split(".")[0] if inputs[0] != "-" else "match"
    target.mkdir(parents=True, exist_ok=True)
    paths = [target / f"{stem}-{k:04d}{EXTENSIONS[fmt]}" for k in range(1, len(texts) + 1)]
    for p in paths:
        _check_output(p, inputs, force)
    for p, text in zip(paths, texts):
        _write(p, text)
    typer.echo(f"wrote {len(paths)} files to {target} ({fmt})")


class _Refused(Exception):
    """A streamed conversion stops: the temporary output is removed, nothing is written."""


def _convert_streaming(inputs: list[str], given: str | None, fmt: str, target: Path | None, force: bool) -> None:
    """Convert to a many-match format a match at a time: memory stays flat whatever the
    corpus. The first invalid match (without --force) stops it, and nothing is written."""
    from .convert import CannotExport, write_chunk

    written = 0
    uncarried: list[Match] = []  # matches whose comments a CSV leaves out, to say so once

    def chunks() -> Iterator[str]:
        nonlocal written
        for _, result in _results(inputs, given):
            assert result.match is not None
            if not result.valid and not force:
                raise _Refused(f"not written: match {written + 1} is invalid (the errors above); "
                               "pass --force to write anyway")
            try:
                text = write_chunk(result.match, fmt, written + 1)
            except (CannotExport, ValueError) as e:
                raise _Refused(f"cannot write {fmt}: {e}") from None
            if not force:
                _reread([text[1:] if fmt == "text" and written else text], fmt, 1)
            if fmt == "csv" and _has_comments(result.match):
                uncarried.append(result.match)
            written += 1
            yield text

    try:
        if target is None:
            for text in chunks():
                typer.echo(text, nl=False)
        else:
            atomic_write(target, chunks())
    except _Refused as e:
        typer.echo(f"texas42: {e}", err=True)
        raise typer.Exit(code=1) from None
    except OSError as e:
        raise _usage_error(f"{target}: cannot be written ({e.strerror})") from None
    _lost_comments(fmt, uncarried)
    if target is not None:
        typer.echo(f"wrote {target} ({written} match{'es' if written != 1 else ''}, {fmt})")


def _has_comments(match: "Match") -> bool:
    from .annotate import listing

    return bool(listing(match))


def _lost_comments(fmt: str, matches: list["Match"]) -> None:
    """Say so when the output format has no room for the matches' comments."""
    if fmt not in ("texas-42-receipt", "plunge-hand-v2", "csv"):
        return
    from .annotate import listing

    lost = sum(len(listing(m)) for m in matches)
    if lost:
        typer.echo(f"texas42: note: {fmt} has no room for comments; {lost} comment{'s are' if lost != 1 else ' is'} "
                   "not in the output (keep the JSON or .t42 for them)", err=True)


def _reread(texts: list[str], fmt: str, expected: int) -> None:
    """The written text, read back as its format, must give as many valid matches: what is
    written is what was validated (after plunge's encoder, which re-decodes its codes)."""
    from .convert import READABLE, ConvertError, read_sources, validated

    if fmt not in READABLE:
        return
    try:
        results = [validated(s) for text in texts for s in read_sources(text, fmt)]
    except ConvertError as e:
        results, problem = [], e.message
    else:
        bad = [r for r in results if not r.valid]
        problem = bad[0].errors[0].message if bad else ""
    if problem or len(results) != expected:
        typer.echo(f"texas42: not written: the {fmt} text does not read back as the same valid matches "
                   f"({problem or f'{len(results)} instead of {expected}'}); please report this", err=True)
        raise typer.Exit(code=1)


def _emit(text: str, out: Path | None, in_place: str | None, inputs: list[str], force: bool) -> None:
    """Write a command's result: -o OUT, --in-place (the input, atomically), or standard output."""
    if in_place is not None:
        _write(Path(in_place), text)
        typer.echo(f"updated {in_place}", err=True)
    elif out is not None:
        _check_output(out, inputs, force)
        _write(out, text)
        typer.echo(f"wrote {out}", err=True)
    else:
        typer.echo(text, nl=False)


_OUR_FORMATS = ("json", "jsonl", "text")

annotate_app = typer.Typer(
    name="annotate",
    help="Add, list and remove comments on a match, a hand, a call, the declaration or a play.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(annotate_app)


def _one_of(file: str, number: int | None) -> tuple[list["Match"], str, int]:
    matches, formats = _read_matches([file], None, need_valid=False)
    fmt = formats[0]
    if fmt not in _OUR_FORMATS:
        raise _usage_error(f"{file} is {fmt}; annotate a texas42-log file ({', '.join(_OUR_FORMATS)}) — convert it first")
    return matches, fmt, _pick(len(matches), number, file)


def _target(hand: int | None, call: int | None, play: int | None, declaration: bool) -> "Target":
    from .annotate import TargetError, parse_target

    try:
        return parse_target(hand, call, play, declaration)
    except TargetError as e:
        raise _usage_error(str(e)) from None


HandOpt = Annotated[int | None, typer.Option("--hand", "-n", min=1, help="The hand, from 1 (without it: the match).")]
CallOpt = Annotated[int | None, typer.Option("--call", min=1, help="The K-th call of the hand.")]
PlayOpt = Annotated[int | None, typer.Option("--play", "-p", min=1, help="The K-th play of the hand (as replay --play K counts).")]
DeclOpt = Annotated[bool, typer.Option("--declaration", help="The hand's trump declaration.")]
MatchOpt = Annotated[int | None, typer.Option("--match", "-m", min=1, help="The match, from 1, in a file of several.")]
OutOpt = Annotated[Path | None, typer.Option("--output", "-o", help="Write the result here (atomically).")]
InPlaceOpt = Annotated[bool, typer.Option("--in-place", "-i", help="Replace FILE itself (atomically).")]
ForceOpt = Annotated[bool, typer.Option("--force", help="Replace an existing output file.")]


@annotate_app.command("add")
def annotate_add(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A texas42-log file: .json, .jsonl or .t42.")],
    text: Annotated[str | None, typer.Option("--text", "-t", help="The comment.")] = None,
    author: Annotated[str | None, typer.Option("--author", help="Who wrote it.")] = None,
    hand: HandOpt = None,
    call: CallOpt = None,
    play: PlayOpt = None,
    declaration: DeclOpt = False,
    bulk: Annotated[Path | None, typer.Option("--from", help="Add many: a JSON list, JSON Lines or CSV of {match, hand, call, play, declaration, text, author}.")] = None,
    match_no: MatchOpt = None,
    out: OutOpt = None,
    in_place: InPlaceOpt = False,
    force: ForceOpt = False,
) -> None:
    """Add a comment (--text), or many (--from); comments survive every conversion and appear in the views.

    The result goes to standard output, to -o OUT, or back into FILE with --in-place.
    """
    from .annotate import TargetError, add
    from .convert import write_matches

    if (text is None) == (bulk is None):
        raise _usage_error("give --text or --from, one of them")
    if in_place and (out is not None or file == "-"):
        raise _usage_error("--in-place writes FILE itself; it goes with neither -o nor standard input")
    matches, fmt, index = _one_of(file, match_no if bulk is None else (match_no or 1))
    count = 0
    try:
        if bulk is None:
            assert text is not None
            matches[index] = add(matches[index], _target(hand, call, play, declaration), text, author)
            count = 1
        else:
            for k, item in enumerate(_bulk_items(bulk), start=1):
                m = int(item.get("match") or 1)
                if not 1 <= m <= len(matches):
                    raise TargetError(f"{bulk} item {k}: there is no match {m}")
                t = _target(_int(item.get("hand")), _int(item.get("call")), _int(item.get("play")), bool(item.get("declaration")))
                if not isinstance(item.get("text"), str):
                    raise TargetError(f"{bulk} item {k} has no text")
                try:
                    matches[m - 1] = add(matches[m - 1], t, item["text"], item.get("author") or None)
                except TargetError as e:
                    raise TargetError(f"{bulk} item {k}: {e}") from None
                count += 1
    except TargetError as e:
        raise _usage_error(str(e)) from None
    _emit(write_matches(matches, fmt), out, file if in_place else None, [file], force)
    typer.echo(f"added {count} comment{'s' if count != 1 else ''}", err=True)


def _int(v: object) -> int | None:
    if v in (None, ""):
        return None
    try:
        return int(str(v))
    except ValueError:
        raise _usage_error(f"{v!r} is not a number") from None


def _bulk_items(path: Path) -> list[dict[str, Any]]:
    import csv
    import io

    text = _decode(str(path), _read_input(str(path)))
    if path.suffix == ".csv":
        return list(csv.DictReader(io.StringIO(text)))
    try:
        value = json.loads(text)
        items = value if isinstance(value, list) else [value]
    except json.JSONDecodeError:
        try:
            items = [json.loads(line) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError as e:
            raise _usage_error(f"{path}: neither JSON nor JSON Lines ({e.msg}, line {e.lineno})") from None
    if not all(isinstance(x, dict) for x in items):
        raise _usage_error(f"{path}: each item is an object such as {{\"hand\": 3, \"play\": 12, \"text\": \"…\"}}")
    return items


@annotate_app.command("list")
def annotate_list(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A texas42-log file: .json, .jsonl or .t42.")],
    match_no: MatchOpt = None,
    output: Annotated[OutputFormat, typer.Option("--format", "-f", help="text (default) or json.")] = OutputFormat.text,
) -> None:
    """List every comment with what it is on."""
    from .annotate import listing

    matches, _, index = _one_of(file, match_no)
    items = listing(matches[index])
    if output is OutputFormat.json:
        typer.echo(json.dumps(items, indent=2, ensure_ascii=False))
        return
    for it in items:
        by = f" — {it['author']}" if it["author"] else ""
        typer.echo(f"{it['target']} #{it['index']}: {it['text']}{by}")
    if not items:
        typer.echo("no comments", err=True)


@annotate_app.command("remove")
def annotate_remove(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A texas42-log file: .json, .jsonl or .t42.")],
    hand: HandOpt = None,
    call: CallOpt = None,
    play: PlayOpt = None,
    declaration: DeclOpt = False,
    index: Annotated[int | None, typer.Option("--index", min=1, help="Which comment of the target, from 1 (as list shows).")] = None,
    every: Annotated[bool, typer.Option("--all", help="Every comment of the target.")] = False,
    pointer: Annotated[str | None, typer.Option("--pointer", help="The comment at this JSON pointer (as list --format json shows; also for rejected attempts).")] = None,
    match_no: MatchOpt = None,
    out: OutOpt = None,
    in_place: InPlaceOpt = False,
    force: ForceOpt = False,
) -> None:
    """Remove one comment (--index) or all of a target's (--all)."""
    from .annotate import TargetError, remove, remove_at
    from .convert import write_matches

    if sum((index is not None, every, pointer is not None)) != 1:
        raise _usage_error("give --index I, --all or --pointer P, one of them")
    if in_place and (out is not None or file == "-"):
        raise _usage_error("--in-place writes FILE itself; it goes with neither -o nor standard input")
    matches, fmt, k = _one_of(file, match_no)
    try:
        if pointer is not None:
            matches[k], n = remove_at(matches[k], pointer), 1
        else:
            matches[k], n = remove(matches[k], _target(hand, call, play, declaration), index)
    except TargetError as e:
        raise _usage_error(str(e)) from None
    _emit(write_matches(matches, fmt), out, file if in_place else None, [file], force)
    typer.echo(f"removed {n} comment{'s' if n != 1 else ''}", err=True)


@app.command()
def redact(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A log in any readable format; '-' reads standard input.")],
    observer: Annotated[str, typer.Option("--as", help="public (a spectator), or a seat A–D (a player: also its own tiles).")] = "public",
    out: OutOpt = None,
    to_format: Annotated[str | None, typer.Option("--to", help="Output format (default: from -o's name, else the input's if ours, else json).")] = None,
    keep_extensions: Annotated[bool, typer.Option("--keep-extensions", help="Keep x- fields (they may hold anything).")] = False,
    force: Annotated[bool, typer.Option("--force", help="Write even an invalid result, and replace an existing output.")] = False,
) -> None:
    """Write the log a spectator could have recorded: no tile that was never played.

    Auction, declaration, plays and stated outcomes are kept; each seat's deal
    keeps only the tiles it played; rejected attempts and x- fields go. The
    result is validated (turn order, bids, trick winners, scores, early ends,
    reneges a later play proves) and not written if invalid unless --force.
    """
    from .check import check_match
    from .convert import WRITABLE, CannotExport, write_matches
    from .redact import redact as redact_match
    from .report import diagnostic_line

    who = observer.strip()
    who = who.upper() if len(who) == 1 else who.lower()
    if who not in ("public", "A", "B", "C", "D"):
        raise _usage_error(f"--as {observer}: a redaction is for public or a seat A–D")
    matches, formats = _read_matches([file], None, need_valid=True, force=force)
    from .convert import format_for_name

    fmt = to_format or (format_for_name(str(out)) if out is not None else None) or (
        formats[0] if formats[0] in _OUR_FORMATS else ("jsonl" if len(matches) > 1 else "json"))
    if fmt not in WRITABLE:
        raise _usage_error(f"--to {fmt}: choose one of {', '.join(WRITABLE)}")
    if out is not None:
        _check_output(out, [file], force)
    redacted = []
    hidden = rejected = extensions = 0
    bad = 0
    for k, m in enumerate(matches, start=1):
        r, c = redact_match(m, who, keep_extensions=keep_extensions)
        hidden, rejected, extensions = hidden + c.hidden_tiles, rejected + c.rejected, extensions + c.extensions
        errors = check_match(r).errors  # r is a model already: only the replay is left to check
        for d in errors:
            typer.echo(diagnostic_line(f"redacted match {k}", d), err=True)
        bad += bool(errors)
        redacted.append(r)
    if bad and not force:
        typer.echo(f"texas42: not written: {bad} redacted match(es) do not validate; pass --force to write anyway", err=True)
        raise typer.Exit(code=1)
    try:
        text = write_matches(redacted, fmt)
    except CannotExport as e:
        typer.echo(f"texas42: cannot write {fmt}: {e}", err=True)
        raise typer.Exit(code=1) from None
    _emit(text, out, None, [file], force)
    typer.echo(
        f"redacted for {who}: {hidden} unplayed tile{'s' if hidden != 1 else ''} hidden, "
        f"{rejected} rejected attempt{'s' if rejected != 1 else ''} and {extensions} extension field"
        f"{'s' if extensions != 1 else ''} left out",
        err=True,
    )


@app.command()
def upgrade(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A texas42-log JSON or JSON Lines file of any version.")],
    out: OutOpt = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing output file.")] = False,
) -> None:
    """Migrate a log to the current format version through the registered steps.

    Version 1 is the only version so far: a 1.x log is current and nothing is
    written. Exit 1 if no chain of steps leads to a current version.
    """
    from .upgrade import UpgradeError, upgrade_doc

    data = _read_input(file)
    text = _decode(file, data)
    jsonl = file.endswith((".jsonl", ".ndjson"))
    chunks = [(n, line) for n, line in enumerate(text.split("\n"), start=1) if line.strip()] if jsonl else [(1, text)]
    docs: list[dict[str, Any]] = []
    applied: list[str] = []
    for first, chunk in chunks:
        try:
            doc = json.loads(chunk)
        except json.JSONDecodeError as e:
            typer.echo(f"{file}:{first + e.lineno - 1}:{e.colno}: error json: not valid JSON: {e.msg}", err=True)
            raise typer.Exit(code=1) from None
        if not isinstance(doc, dict):
            typer.echo(f"{file}:{first}: error format: a log is a JSON object", err=True)
            raise typer.Exit(code=1)
        try:
            new, steps = upgrade_doc(doc)
        except UpgradeError as e:
            typer.echo(f"{file}:{first}: error format: {e}", err=True)
            raise typer.Exit(code=1) from None
        docs.append(new)
        applied += [f"{s.source} → {s.target}: {s.summary}" for s in steps]
    if not applied:
        versions = sorted({str(d.get("version")) for d in docs})
        typer.echo(f"{file} is version {', '.join(versions)}, which is current; nothing to do")
        return
    for line in dict.fromkeys(applied):
        typer.echo(line, err=True)
    if jsonl:
        out_text = "".join(json.dumps(d, ensure_ascii=False, separators=(",", ":")) + "\n" for d in docs)
    else:
        out_text = json.dumps(docs[0], indent=2, ensure_ascii=False) + "\n"
    _emit(out_text, out, None, [file], force)


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
