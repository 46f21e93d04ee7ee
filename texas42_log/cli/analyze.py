"""``texas42 analyze``: open-hand analysis — the exact value of every play with every hand open."""

from __future__ import annotations

import inspect
import sys
from collections.abc import Iterator
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..analysis import DEFAULT_SEED, DEFAULT_WORLDS
from ..log.inert import dumps
from ..log.model import MAX_SEED, MAX_WORLDS

if TYPE_CHECKING:
    pass

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
    could make in each trump it could name (the fair makeable table; --values
    prints it). Calls are judged as players bid: each says the call that pays
    best — the highest expected marks, marks at stake × (2 × corrected chance − 1),
    a pass 0, as if the auction ended with it unless outbid — and how high the
    hand could go (the highest bid whose corrected chance is at least 50%); a call
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
    _report(
        inputs,
        output,
        hand,
        no_table,
        verify,
        jobs,
        max_bytes,
        jsonl,
        no_progress,
        values,
        drawn,
        out,
        force,
        not no_legend,
        auction,
        "player" if by_player else "cards" if cards else None,
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
    out: Path | None,
    force: bool,
    with_legend: bool,
    auction: bool,
    cards: str | None = None,
) -> None:
    import csv
    import io
    import time

    from ..analysis.cards import (
        CARD_COLUMNS,
        Card,
        add_cards,
        match_card_output,
        player_key,
        season_output,
    )
    from ..analysis.report import CSV_COLUMNS, FAIR_COLUMNS, legend
    from ..corpus.analysis import analyze_files
    from ..corpus.validation import default_jobs
    from ..files.reader import InputError, expand_inputs, total_bytes
    from .common import check_output, write_data, write_file
    from .progress import Progress, wanted

    to_file = out is not None and str(out) != "-"
    if to_file:
        assert out is not None
        check_output(out, inputs, force)
    problems: list[str] = []
    try:
        files = expand_inputs(inputs, problems=problems)
    except InputError as e:
        raise refused(e) from None
    for problem in problems:
        say(f"texas42: {problem}", err=True)
    start = time.perf_counter()
    # a fair run counts decisions (and says the time left), not bytes
    total = None if fair or verify else total_bytes(files)
    progress = Progress("analysing", total, enabled=wanted(no_progress))
    counts = {"matches": 0, "invalid": 0, "hands": 0, "skipped": 0, "differences": 0}
    no_hand: list[str] = []

    from .analyze_annotate import decisions

    decided = decisions(progress, lambda: f"{counts['matches']:,} matches · ")
    season: dict[str, Card] = {}

    def _form(out: str | dict[str, Any] | list[list[str]]) -> str:
        """One card output as the chunk the report writes."""
        if isinstance(out, str):
            return out + "\n"
        if isinstance(out, dict):
            return dumps(out) + "\n"
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\n").writerows(out)
        return buffer.getvalue()

    def chunks() -> Iterator[str]:
        """The report, a match at a time (a CSV report says an invalid match on stderr)."""
        if output is AnalyzeFormat.csv:
            buffer = io.StringIO()
            csv.writer(buffer, lineterminator="\n").writerow(
                CARD_COLUMNS if cards else CSV_COLUMNS + (FAIR_COLUMNS if fair else ())
            )
            yield buffer.getvalue()
        done = 0
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
            progress=decided if fair or verify else None,
            auction=auction,
        ):
            counts["matches"] += 1
            counts["invalid"] += not r.valid
            counts["hands"] += r.hands
            counts["skipped"] += r.skipped
            counts["differences"] += r.differences
            if r.no_hand:
                no_hand.append(r.source)  # said at the end (a usage error if no match has it)
                continue
            progress.clear()
            if cards and r.valid:
                if cards == "player":  # said once, at the end
                    for by_seat in r.cards.values():
                        add_cards(season, {player_key(s, r.players): c for s, c in by_seat.items()})
                else:
                    yield _form(match_card_output(output.value, r.source, r.cards, r.players))
            elif not r.valid:
                if output is AnalyzeFormat.json:
                    yield dumps(r.json) + "\n"
                elif output is AnalyzeFormat.csv:
                    say(r.text, err=True, colour=True)
                else:
                    yield r.text + "\n"
            elif output is AnalyzeFormat.json:
                yield dumps(r.json) + "\n"
            elif output is AnalyzeFormat.csv:
                buffer = io.StringIO()
                csv.writer(buffer, lineterminator="\n").writerows(r.rows)
                yield buffer.getvalue()
            else:
                yield r.text + "\n"
            done += r.size
            progress.update(done, f"{counts['matches']:,} matches · {counts['hands']:,} hands")
        if no_hand and len(no_hand) == counts["matches"] - counts["invalid"]:
            # nothing to report: a usage error, and with -o nothing is written
            raise usage_error(
                f"--hand {hand}: {no_hand[0]} has fewer than {hand} hands"
                + (
                    f", and so has every other match given ({len(no_hand)})"
                    if len(no_hand) > 1
                    else ""
                )
            )
        shown = counts["matches"] - counts["invalid"] - len(no_hand)
        if cards == "player":
            yield _form(season_output(output.value, season))
        elif (
            cards is None
            and output is AnalyzeFormat.text
            and with_legend
            and fair is not None
            and shown > 0
        ):
            yield "\n".join(legend(True)) + "\n"
        if output is AnalyzeFormat.json:
            yield dumps({"summary": summary()}) + "\n"

    def summary() -> dict[str, int | float]:
        seconds = time.perf_counter() - start
        return counts | {"invalid": counts["invalid"] + len(problems), "seconds": round(seconds, 3)}

    try:
        if to_file:
            assert out is not None
            write_file(out, chunks(), replace=force)
        else:
            for chunk in chunks():
                write_data(chunk) if output is not AnalyzeFormat.text else say(
                    chunk, nl=False, colour=True
                )
    except InputError as e:
        raise refused(e) from None
    finally:
        progress.close()
    for source in no_hand:
        say(f"texas42: {source}: fewer than {hand} hands, so nothing analysed", err=True)
    seconds = time.perf_counter() - start
    invalid = counts["invalid"] + len(problems)
    if output is not AnalyzeFormat.json and (
        to_file or counts["matches"] > 1 or invalid or counts["differences"]
    ):
        say(
            f"{counts['matches']:,} matches · {counts['hands']:,} hands analysed · "
            f"{counts['skipped']:,} skipped · {invalid:,} invalid"
            + (f" · {counts['differences']:,} differences" if verify else "")
            + f" · {seconds:.1f} s"
            + (f" · report written to {out}" if to_file else ""),
            err=True,
        )
    raise typer.Exit(code=1 if invalid or counts["differences"] else 0)


def _help_lists() -> str:
    """The marks and verdicts of the fair analysis, one per line, for ``--help``."""
    import textwrap

    from ..analysis import MARKS, VERDICTS

    items = [f"{k}: {v}." for k, v in (MARKS | VERDICTS).items()]
    lines = [line for item in items for line in textwrap.wrap(item, 76, subsequent_indent="  ")]
    return "\b\n" + "\n".join(lines)


analyze.__doc__ = inspect.cleandoc(analyze.__doc__ or "").replace("{marks}", _help_lists())
