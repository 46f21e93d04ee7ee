"""``texas42 validate``: replay each match and report every broken rule."""

import sys
from typing import Annotated

import typer

from ..files.formats import format_list, searched_suffixes
from ..log.inert import dumps
from .app import NoProgressOpt, OutputFormat, app, say
from .common import refused
from .progress import Progress, wanted


@app.command()
def validate(
    inputs: Annotated[
        list[str],
        typer.Argument(
            metavar="INPUT...",
            help="Log files, directories (searched for "
            f"{format_list(searched_suffixes())} files), globs, JSON Lines files (one match "
            "per line); '-' reads standard input; an mk5 share link, quoted.",
        ),
    ],
    output: Annotated[
        OutputFormat,
        typer.Option(
            "--format",
            "-f",
            help="text (default), or json: one JSON object per match, then a summary.",
        ),
    ] = OutputFormat.text,
    max_bytes: Annotated[
        int, typer.Option("--max-bytes", min=1, help="Refuse a match larger than this.")
    ] = 16 * 1024 * 1024,
    jobs: Annotated[
        int | None,
        typer.Option("--jobs", "-j", min=1, help="Processes to use (default: every core)."),
    ] = None,
    fail_fast: Annotated[
        bool, typer.Option("--fail-fast", "-x", help="Stop at the first invalid match.")
    ] = False,
    max_errors: Annotated[
        int | None,
        typer.Option("--max-errors", min=1, help="Stop once this many errors were found."),
    ] = None,
    quiet: Annotated[
        bool,
        typer.Option(
            "--quiet", "-q", help="Print only invalid matches and the summary (text or JSON)."
        ),
    ] = False,
    jsonl: Annotated[
        bool,
        typer.Option("--jsonl", help="Standard input holds JSON Lines (it is sniffed otherwise)."),
    ] = False,
    no_progress: NoProgressOpt = False,
) -> None:
    """Replay each match under its declared rules and report every broken rule.

    Exit 0 when every match is valid, 1 when any is invalid, 2 on a usage error.
    Several matches end with a summary on standard error; a long run shows a
    progress line there, on a terminal only (--no-progress: never).
    """
    import time

    from ..corpus.validation import Summary, default_jobs, summary_text, validate_files
    from ..files.reader import InputError, expand_inputs, total_bytes

    problems: list[str] = []
    try:
        files = expand_inputs(inputs, problems=problems)
    except InputError as e:
        raise refused(e) from None
    summary = Summary()
    for (
        problem
    ) in problems:  # a folder that cannot be listed, a link that leads nowhere: said, counted
        say(f"texas42: {problem}", err=True)
        summary.invalid += 1
        summary.errors += 1
        summary.rules["input"] += 1
    start = time.perf_counter()
    progress = Progress("validating", total_bytes(files), enabled=wanted(no_progress))
    done = 0
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
                    progress.clear()
                    say(dumps(r.json))
            elif not (quiet and r.valid):
                progress.clear()
                say(r.text, colour=True)
            done += r.size
            progress.update(
                done,
                f"{summary.matches:,} matches · {summary.hands:,} hands · {summary.invalid:,} "
                "invalid",
            )
            if fail_fast and not r.valid:
                summary.stopped = "at the first invalid match (--fail-fast)"
                break
            if max_errors is not None and summary.errors >= max_errors:
                summary.stopped = f"after {summary.errors} errors (--max-errors {max_errors})"
                break
    except InputError as e:
        raise refused(e) from None
    finally:
        progress.close()
    summary.seconds = time.perf_counter() - start
    if output is OutputFormat.json:
        say(dumps({"summary": summary.as_dict()}))
    elif summary.matches > 1 or summary.stopped:
        say("\n".join(summary_text(summary)), err=True, colour=True)
    raise typer.Exit(code=1 if summary.invalid else 0)
