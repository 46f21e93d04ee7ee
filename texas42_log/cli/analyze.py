"""``texas42 analyze``: open-hand analysis — the exact value of every play with every hand open."""

import inspect
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..analysis import DEFAULT_SEED, DEFAULT_WORLDS
from ..log.model import MAX_SEED, MAX_WORLDS
from .app import ForceOpt, InPlaceOpt, NoProgressOpt, OutOpt, app, say, usage_error
from .common import refused

if TYPE_CHECKING:
    from ..corpus.report import ReportOptions


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
    no_legend: Annotated[
        bool,
        typer.Option(
            "--no-legend",
            help="--fair: leave out the legend under the text report (what each column, "
            "mark and verdict means).",
        ),
    ] = False,
    no_auction: Annotated[
        bool,
        typer.Option(
            "--no-auction",
            help="--fair: judge the plays only, not each call and the declaration (the "
            "auction's verdicts are most of a match's time).",
        ),
    ] = False,
    cards: Annotated[
        bool,
        typer.Option(
            "--cards",
            help="--fair: print each seat's and team's score card only, per match and per "
            "hand (text, JSON, or CSV: a row per seat and hand and part, docs/analysis.md).",
        ),
    ] = False,
    by_player: Annotated[
        bool,
        typer.Option(
            "--by-player",
            help="--fair: print the score cards of every match given grouped by player name "
            "(a club's season table), and nothing else.",
        ),
    ] = False,
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
    (--worlds drawn, or all of them when few; --seed makes it repeatable). The
    best fair play is the one with the best chance of its side's goal (the
    contract made, or set), ties broken by the mean; in a points game (match_goal
    points) the one with the best mean. Each play's chance lost and hand points
    lost are measured against it, and its mark and verdict:

    {marks}

    With --fair the auction is judged too, from each caller's seat: over the
    deals of the 21 tiles it could not see, the chance of making each bid it
    could make in each trump it could name, as played (the open-hand share
    corrected for its kind of contract: the fair makeable table; --values
    prints it). Calls are judged as players bid: each call is worth the contract
    its auction ends in (the rest of the auction called by the rule bidder in each
    deal, the deals weighed by the calls heard; a contract counts its stake × (2 ×
    chance as played − 1) for the side holding it) and says the call that pays
    best, the contracts it leads to and how high the hand could go (the highest
    bid whose chance as played is at least 50%, with its trump); a call
    is marked ? from 0.1 expected marks given up and ?? from 0.4, only past twice
    the error (in a points game calls are not judged), and a hand all four passed
    has its passes judged. The winning bid gives its chance in the trump declared
    beside the best trump's; the declaration the chance it gave up, marked ? or ??
    as a play is. --no-auction leaves the auction out (it is most of a match's
    time). Under the report, each seat's and team's score card; --cards prints
    the cards alone, --by-player a corpus's cards by player name.

    A play of a log whose other hands are unknown (a player's own record, from
    redact --as) is analysed wherever its player's own tiles are known; the
    others are skipped by name, with why. A match's decisions are spread over
    --jobs processes, with a progress line and the time left; the report goes to
    standard output or, with -o, to a file (written whole, atomically).

    With --fair --annotate over a JSON Lines corpus or a folder of logs, -o OUT
    is written match by match (a JSON Lines file, or a folder); run again with
    the same arguments after an interrupt, it continues where it stopped.

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
    if no_auction and not fair:
        raise usage_error("--no-auction leaves the auction out of --fair; give --fair with it")
    if (cards or by_player) and not fair:
        raise usage_error(
            f"{'--cards' if cards else '--by-player'} prints the score cards of the fair "
            "analysis; give --fair with it"
        )
    if (cards or by_player) and (annotate or verify):
        raise usage_error(
            "--cards and --by-player print score cards; not with --annotate or --verify"
        )
    auction = not no_auction
    if annotate:
        from .analyze_annotate import annotate as _annotate

        _annotate(
            inputs,
            out,
            in_place,
            force,
            output.value,
            hand,
            no_table,
            drawn,
            jobs,
            no_progress,
            auction,
        )
        return
    if in_place:
        raise usage_error("-i writes an annotated log back into INPUT; give --annotate with it")
    from ..corpus.report import ReportOptions
    from ..corpus.validation import default_jobs

    options = ReportOptions(
        form=output.value,
        hand=hand,
        table=not no_table,
        verify=verify,
        jobs=jobs or default_jobs(),
        max_bytes=max_bytes,
        stdin_jsonl=jsonl,
        values=values,
        fair=drawn,
        legend=not no_legend,
        auction=auction,
        cards="player" if by_player else "cards" if cards else None,
    )
    _report(inputs, options, no_progress, out, force)


def _report(
    inputs: list[str],
    options: "ReportOptions",
    no_progress: bool,
    out: Path | None,
    force: bool,
) -> None:
    """The report of ``inputs`` written to ``out`` (or standard output), the tally said
    after it; exit 1 if a match is invalid or a verified figure differs."""
    from ..corpus.report import NothingToReport, Tally, report_chunks
    from ..files.reader import InputError, expand_inputs, total_bytes
    from .analyze_annotate import decisions
    from .common import check_output, write_data, write_file
    from .progress import Progress, wanted

    to_file = out is not None and str(out) != "-"
    if to_file:
        assert out is not None
        check_output(out, inputs, force)
    tally = Tally()
    try:
        files = expand_inputs(inputs, problems=tally.problems)
    except InputError as e:
        raise refused(e) from None
    for problem in tally.problems:
        say(f"texas42: {problem}", err=True)
    # a fair run counts decisions (and says the time left), not bytes
    counted = options.fair is not None or options.verify
    progress = Progress(
        "analysing", None if counted else total_bytes(files), enabled=wanted(no_progress)
    )
    chunks = report_chunks(
        files,
        options,
        tally,
        stdin=sys.stdin.buffer,
        decided=decisions(progress, lambda: f"{tally.matches:,} matches · "),
        analysed=lambda done: progress.update(
            done, f"{tally.matches:,} matches · {tally.hands:,} hands"
        ),
        before_chunk=progress.clear,
        invalid_aside=lambda text: say(text, err=True, colour=True),
    )
    try:
        if to_file:
            assert out is not None
            write_file(out, chunks, replace=force)
        else:
            for chunk in chunks:
                if options.form == "text":
                    say(chunk, nl=False, colour=True)
                else:
                    write_data(chunk)
    except NothingToReport as e:  # nothing to report: a usage error, and nothing written
        raise usage_error(str(e)) from None
    except InputError as e:
        raise refused(e) from None
    finally:
        progress.close()
    for source in tally.no_hand:
        say(f"texas42: {source}: fewer than {options.hand} hands, so nothing analysed", err=True)
    invalid = tally.all_invalid
    if options.form != "json" and (to_file or tally.matches > 1 or invalid or tally.differences):
        seconds = tally.summary()["seconds"]
        say(
            f"{tally.matches:,} matches · {tally.hands:,} hands analysed · "
            f"{tally.skipped:,} skipped · {invalid:,} invalid"
            + (f" · {tally.differences:,} differences" if options.verify else "")
            + f" · {seconds:.1f} s"
            + (f" · report written to {out}" if to_file else ""),
            err=True,
        )
    raise typer.Exit(code=1 if invalid or tally.differences else 0)


def _help_lists() -> str:
    """The marks and verdicts of the fair analysis, one per line, for ``--help``."""
    import textwrap

    from ..analysis import MARKS, VERDICTS

    items = [f"{k}: {v}." for k, v in (MARKS | VERDICTS).items()]
    lines = [line for item in items for line in textwrap.wrap(item, 76, subsequent_indent="  ")]
    return "\b\n" + "\n".join(lines)


analyze.__doc__ = inspect.cleandoc(analyze.__doc__ or "").replace("{marks}", _help_lists())
