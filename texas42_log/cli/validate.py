"""``texas42 validate``: replay each match and report every broken rule."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from ..inert import dumps
from .app import OutputFormat, app, say
from .common import refused

if TYPE_CHECKING:
    from ..corpus import Summary


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
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only invalid matches and the summary (text or JSON).")] = False,
    jsonl: Annotated[bool, typer.Option("--jsonl", help="Standard input holds JSON Lines (it is sniffed otherwise).")] = False,
) -> None:
    """Replay each match under its declared rules and report every broken rule.

    Exit 0 when every match is valid, 1 when any is invalid, 2 on a usage error.
    Several matches end with a summary on standard error (and a progress bar
    there, on a terminal).
    """
    import time

    from ..corpus import Summary, default_jobs, summary_text, validate_files
    from ..inputs import InputError, expand_inputs

    problems: list[str] = []
    try:
        files = expand_inputs(inputs, problems=problems)
    except InputError as e:
        raise refused(e) from None
    summary = Summary()
    for problem in problems:  # a folder that cannot be listed, a link that leads nowhere: said, counted
        say(f"texas42: {problem}", err=True)
        summary.invalid += 1
        summary.errors += 1
        summary.rules["input"] += 1
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
                if not (quiet and r.valid):
                    say(dumps(r.json))
            elif not (quiet and r.valid):
                say(r.text)
            if progress is not None:
                progress.update(summary, r.size)
            if fail_fast and not r.valid:
                summary.stopped = "at the first invalid match (--fail-fast)"
                break
            if max_errors is not None and summary.errors >= max_errors:
                summary.stopped = f"after {summary.errors} errors (--max-errors {max_errors})"
                break
    except InputError as e:
        raise refused(e) from None
    finally:
        if progress is not None:
            progress.close()
    summary.seconds = time.perf_counter() - start
    if output is OutputFormat.json:
        say(dumps({"summary": summary.as_dict()}))
    elif summary.matches > 1 or summary.stopped:
        say("\n".join(summary_text(summary)), err=True)
    raise typer.Exit(code=1 if summary.invalid else 0)


def _total_bytes(files: list[str]) -> int | None:
    """The input's size, for a progress bar; None when reading standard input."""
    if "-" in files:
        return None
    try:
        return sum(os.path.getsize(f) for f in files)
    except OSError:
        return None


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

