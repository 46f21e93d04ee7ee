"""``texas42 analyze``: open-hand analysis — the exact value of every play with every hand open."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from ..analysis import DEFAULT_SEED, DEFAULT_WORLDS
from ..log.inert import dumps
from ..log.model import MAX_SEED, MAX_WORLDS
from .app import ForceOpt, InPlaceOpt, NoProgressOpt, OutOpt, app, say, usage_error
from .common import refused


class AnalyzeFormat(StrEnum):
    text = "text"
    json = "json"
    csv = "csv"


@app.command()
def analyze(
    inputs: Annotated[
        list[str],
        typer.Argument(
            metavar="INPUT...",
            help="Log files, directories, globs, JSON Lines files; '-' reads standard input; an "
            "mk5 share link, quoted.",
        ),
    ],
    output: Annotated[
        AnalyzeFormat,
        typer.Option(
            "--format",
            "-f",
            help="text (default); json: one object per match, then a summary; csv: a row per play.",
        ),
    ] = AnalyzeFormat.text,
    hand: Annotated[
        int | None, typer.Option("--hand", "-n", min=1, help="Only this hand, from 1.")
    ] = None,
    no_table: Annotated[
        bool,
        typer.Option("--no-table", help="Leave out the makeable table (9 more searches a hand)."),
    ] = False,
    values: Annotated[
        bool,
        typer.Option(
            "--values", help="In the text report, list every play's alternatives with their values."
        ),
    ] = False,
    annotate: Annotated[
        bool,
        typer.Option(
            "--annotate",
            help="Write the log with the analysis in it, to -o OUT or back with -i; its "
            "format version is raised as far as the analysis needs (1.3; 1.4 with --fair).",
        ),
    ] = False,
    out: OutOpt = None,
    in_place: InPlaceOpt = False,
    force: ForceOpt = False,
    verify: Annotated[
        bool,
        typer.Option(
            "--verify",
            help="Recompute the analysis a log states and report every value that differs (exit "
            "1).",
        ),
    ] = False,
    jobs: Annotated[
        int | None,
        typer.Option("--jobs", "-j", min=1, help="Processes to use (default: every core)."),
    ] = None,
    max_bytes: Annotated[
        int, typer.Option("--max-bytes", min=1, help="Refuse a match larger than this.")
    ] = 16 * 1024 * 1024,
    jsonl: Annotated[
        bool,
        typer.Option("--jsonl", help="Standard input holds JSON Lines (it is sniffed otherwise)."),
    ] = False,
    no_progress: NoProgressOpt = False,
    fair: Annotated[
        bool,
        typer.Option(
            "--fair",
            help="Beside each play's open-hand verdict, its fair one: every legal play "
            "valued over the deals its player could not tell apart.",
        ),
    ] = False,
    worlds: Annotated[
        int,
        typer.Option(
            "--worlds",
            "-w",
            min=1,
            max=MAX_WORLDS,
            help="--fair: worlds drawn a decision (every world when there are at most 256).",
        ),
    ] = DEFAULT_WORLDS,
    seed: Annotated[
        int,
        typer.Option(
            "--seed",
            min=0,
            max=MAX_SEED,
            help="--fair: the seed of the draw; the same seed gives the same numbers.",
        ),
    ] = DEFAULT_SEED,
) -> None:
    """The exact value of every play when all hands are open: which play cost the hand.

    For each hand with a fully known deal: the hand points the bidders take with
    best play on both sides (all 7 tricks), whether the contract could be made,
    for each play the values of its alternatives, its cost in hand points and a
    mark where it decided the contract (LOST, LET MAKE), and the deal's makeable
    table. Hands whose deal is not fully known are skipped with the reason.

    With --fair, each play is also judged by what its player could see: its
    legal plays valued over the deals consistent with the player's own view
    (--worlds drawn, or all of them when few; --seed makes it repeatable), the
    fair cost, the chance of the contract given up, a ? or ?? mark, and the two
    verdicts side by side (right but unlucky, wrong but lucky, wrong and punished).

    The search runs in C where the package was built with a compiler; the
    environment variable TEXAS42_SOLVER=python uses the reference solver in
    Python instead (the same results, slower; auto, the default, takes the C one).

    Exit 0 when every match was analysed, 1 when one is invalid (or --verify
    found a difference), 2 on a usage error.
    """
    drawn = (worlds, seed) if fair else None
    if not fair and (worlds != DEFAULT_WORLDS or seed != DEFAULT_SEED):
        raise usage_error(
            "--worlds and --seed choose how --fair draws its worlds; give --fair with them"
        )
    if annotate:
        _annotate(inputs, out, in_place, force, output, hand, no_table, drawn)
        return
    if out is not None or in_place:
        raise usage_error("-o and -i write an annotated log; give --annotate with them")
    _report(
        inputs, output, hand, no_table, verify, jobs, max_bytes, jsonl, no_progress, values, drawn
    )


def _report(
    inputs: list[str],
    output: AnalyzeFormat,
    hand: int | None,
    no_table: bool,
    verify: bool,
    jobs: int | None,
    max_bytes: int,
    jsonl: bool,
    no_progress: bool,
    values: bool,
    fair: tuple[int, int] | None,
) -> None:
    import csv
    import io
    import time

    from ..analysis.report import CSV_COLUMNS, FAIR_COLUMNS
    from ..corpus.analysis import analyze_files
    from ..corpus.validation import default_jobs
    from ..files.reader import InputError, expand_inputs, total_bytes
    from .common import write_data
    from .progress import Progress, wanted

    problems: list[str] = []
    try:
        files = expand_inputs(inputs, problems=problems)
    except InputError as e:
        raise refused(e) from None
    for problem in problems:
        say(f"texas42: {problem}", err=True)
    start = time.perf_counter()
    progress = Progress("analysing", total_bytes(files), enabled=wanted(no_progress))
    matches = invalid = hands = skipped = differences = done = 0
    if output is AnalyzeFormat.csv:
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\n").writerow(
            CSV_COLUMNS + (FAIR_COLUMNS if fair else ())
        )
        write_data(buffer.getvalue())
    try:
        for r in analyze_files(
            files,
            output.value,
            jobs=jobs or default_jobs(),
            hand=None if hand is None else hand - 1,
            table=not no_table,
            verify=verify,
            max_bytes=max_bytes,
            stdin=sys.stdin.buffer,
            stdin_jsonl=jsonl,
            values=values,
            fair=fair,
        ):
            matches += 1
            invalid += not r.valid
            hands += r.hands
            skipped += r.skipped
            differences += r.differences
            progress.clear()
            if not r.valid:
                if output is AnalyzeFormat.json:
                    say(dumps(r.json))
                else:
                    say(r.text, err=output is AnalyzeFormat.csv, colour=True)
            elif output is AnalyzeFormat.json:
                say(dumps(r.json))
            elif output is AnalyzeFormat.csv:
                buffer = io.StringIO()
                csv.writer(buffer, lineterminator="\n").writerows(r.rows)
                write_data(buffer.getvalue())
            else:
                say(r.text, colour=True)
            done += r.size
            progress.update(done, f"{matches:,} matches · {hands:,} hands analysed")
    except InputError as e:
        raise refused(e) from None
    finally:
        progress.close()
    seconds = time.perf_counter() - start
    summary = {
        "matches": matches,
        "invalid": invalid + len(problems),
        "hands": hands,
        "skipped": skipped,
        "differences": differences,
        "seconds": round(seconds, 3),
    }
    if output is AnalyzeFormat.json:
        say(dumps({"summary": summary}))
    elif matches > 1 or invalid or differences:
        say(
            f"{matches:,} matches · {hands:,} hands analysed · {skipped:,} skipped · {invalid:,} "
            "invalid"
            + (f" · {differences:,} differences" if verify else "")
            + f" · {seconds:.1f} s",
            err=True,
        )
    raise typer.Exit(code=1 if invalid or problems or differences else 0)


def _annotate(
    inputs: list[str],
    out: Path | None,
    in_place: bool,
    force: bool,
    output: AnalyzeFormat,
    hand: int | None,
    no_table: bool,
    fair: tuple[int, int] | None,
) -> None:
    from ..analysis.api import annotate_match
    from ..log.model import Match
    from .common import (
        OUR_FORMATS,
        read_matches,
        write_edited,
    )

    if len(inputs) != 1:
        raise usage_error("--annotate writes one log: give one INPUT")
    if output is not AnalyzeFormat.text:
        raise usage_error(
            "--annotate writes a log; --format chooses a report, so give one or the other"
        )
    if in_place == (out is not None):
        raise usage_error(
            "--annotate writes the annotated log to -o OUT, or back into INPUT with -i: give one"
        )
    file = inputs[0]
    if in_place and file == "-":
        raise usage_error("-i writes INPUT itself; standard input cannot be written back")
    # An invalid log is not annotated: its errors are said, exit 1.
    matches, formats = read_matches([file], None, need_valid=True)
    fmt = formats[0]
    if fmt not in OUR_FORMATS:
        raise usage_error(
            f"{file} is {fmt}; --annotate writes a texas42-log ({', '.join(OUR_FORMATS)}) — "
            "convert it first"
        )
    done = skipped = 0
    written: list[Match] = []
    for m in matches:
        result = annotate_match(
            m, None if hand is None else hand - 1, table=not no_table, fair=fair
        )
        written.append(result.match)
        done += len(result.analysed)
        skipped += len(result.skipped)
        for a in result.skipped:
            say(f"texas42: hand {a.hand + 1} skipped: {a.reason}", err=True)
    write_edited(written, file, fmt, out, in_place, force)
    say(
        f"analysed {done} hand{'s' if done != 1 else ''}"
        + (f", {skipped} skipped" if skipped else ""),
        err=True,
    )
