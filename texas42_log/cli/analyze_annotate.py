"""``texas42 analyze --annotate``: the analysis written into the log (one log, or a corpus
written match by match), and the progress line of a fair analysis. Split from
:mod:`texas42_log.cli.analyze`, which reads the command line and calls :func:`annotate`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from .app import input_error, say, usage_error

if TYPE_CHECKING:
    from ..log.model import Match

__all__ = ["annotate", "decisions"]


def _with_comments_now(written: list[Match], file: str) -> list[Match]:
    """The analysed matches with the comments ``file`` holds now (read under its writer
    lock): a comment saved while the analysis ran is not written over. A file changed
    beyond its comments meanwhile is not written at all."""
    from ..log.comments import carry_comments
    from .common import matches_to_write

    current, _ = matches_to_write([file], None, need_valid=False)
    out = [carry_comments(w, c) for w, c in zip(written, current, strict=False)]
    if len(current) != len(written) or any(m is None for m in out):
        raise input_error(
            f"{file} changed beyond its comments while it was analysed: nothing was written; "
            "analyse it again"
        )
    return [m for m in out if m is not None]


def annotate(
    inputs: list[str],
    out: Path | None,
    in_place: bool,
    force: bool,
    output: str,
    hand: int | None,
    no_table: bool,
    fair: tuple[int, int] | None,
    jobs: int | None,
    no_progress: bool,
    auction: bool,
) -> None:
    from ..corpus.validation import default_jobs
    from .common import (
        matches_to_write,
        our_formats,
        rewriting,
        write_edited,
    )

    if len(inputs) != 1:
        raise usage_error("--annotate writes one log: give one INPUT")
    if output != "text":
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
    hand = None if hand is None else hand - 1  # the analysis counts hands from 0
    corpus = _corpus_kind(file)
    if corpus is not None and fair is not None:
        if in_place:
            raise usage_error(
                f"{file} is a corpus: its analysis is written to -o OUT, match by match, so that "
                "a rerun can continue it; -i would rewrite the input"
            )
        assert out is not None
        _season(
            file,
            corpus,
            out,
            force,
            hand,
            no_table,
            fair,
            jobs or default_jobs(),
            no_progress,
            auction,
        )
        return
    # An invalid log is not annotated: its errors are said, exit 1.
    matches, formats = matches_to_write([file], None, need_valid=True)
    fmt = formats[0]
    if fmt not in our_formats():
        raise usage_error(
            f"{file} is {fmt}; --annotate writes a texas42-log ({', '.join(our_formats())}) — "
            "convert it first"
        )
    written, done, skipped = _annotated(
        matches, hand, no_table, fair, jobs or default_jobs(), no_progress, auction
    )
    with rewriting(file, in_place):
        if in_place:  # the comments saved while the analysis ran are kept
            written = _with_comments_now(written, file)
        write_edited(written, file, fmt, out, in_place, force)
    say(
        f"analysed {done} hand{'s' if done != 1 else ''}"
        + (f", {skipped} skipped" if skipped else ""),
        err=True,
    )


def _annotated(
    matches: list[Match],
    hand: int | None,
    no_table: bool,
    fair: tuple[int, int] | None,
    jobs: int,
    no_progress: bool,
    auction: bool = True,
) -> tuple[list[Match], int, int]:
    """The matches annotated (with ``fair``, their decisions spread over ``jobs``), the
    hands analysed and skipped; each skipped hand said on stderr."""
    from ..analysis.api import annotate_match
    from ..corpus.season import annotate_matches
    from .progress import Progress, wanted

    if fair is None:
        out, done, skipped = [], 0, 0
        for m in matches:
            result = annotate_match(m, hand, table=not no_table)
            out.append(result.match)
            done += len(result.analysed)
            skipped += len(result.skipped)
            for a in result.skipped:
                say(f"texas42: hand {a.hand + 1} skipped: {a.reason}", err=True)
        return out, done, skipped
    progress = Progress("analysing", enabled=wanted(no_progress))
    try:
        written, analysed, notes = annotate_matches(
            matches,
            fair=fair,
            hand=hand,
            table=not no_table,
            jobs=jobs,
            progress=decisions(progress),
            auction=auction,
        )
    finally:
        progress.close()
    for note in notes:
        say(f"texas42: {note}", err=True)
    return written, analysed, len(notes)


def _corpus_kind(file: str) -> str | None:
    """``jsonl`` or ``folder`` when ``file`` is a corpus the season mode writes."""
    from ..files.reader import is_jsonl

    if file != "-" and Path(file).is_dir():
        return "folder"
    if file != "-" and is_jsonl(file):
        return "jsonl"
    return None


def _season(
    file: str,
    corpus: str,
    out: Path,
    force: bool,
    hand: int | None,
    no_table: bool,
    fair: tuple[int, int],
    jobs: int,
    no_progress: bool,
    auction: bool,
) -> None:
    from ..corpus.season import SeasonError, SeasonRun, annotate_folder, annotate_jsonl
    from ..files.reader import InputError
    from ..files.report import diagnostic_line
    from .common import refused
    from .progress import Progress, wanted

    if Path(file).resolve() == out.resolve():
        raise usage_error(f"-o {out} is the input itself; the analysis goes to another file")
    progress = Progress("analysing", enabled=wanted(no_progress))
    count = [0]

    def matched(n: int) -> None:
        count[0] = n

    decided = decisions(progress)
    run = annotate_folder if corpus == "folder" else annotate_jsonl
    try:
        season = run(
            file,
            out,
            SeasonRun(fair, hand, not no_table, jobs, force, decided, matched, auction),
        )
    except SeasonError as e:
        raise usage_error(str(e)) from None
    except InputError as e:
        raise refused(e) from None
    finally:
        progress.close()
    for read in season.invalid:
        for d in read.result.errors[:1]:
            say(diagnostic_line(read.name, d), err=True, colour=True)
    for note in season.skipped:
        say(f"texas42: {note}", err=True)
    say(
        f"{season.resumed + season.written:,} matches analysed into {out}"
        + (f" ({season.resumed:,} there already, {season.written:,} now)" if season.resumed else "")
        + (f"; a torn last line of {season.torn} bytes was cut off first" if season.torn else "")
        + (f"; {len(season.invalid):,} invalid, left out" if season.invalid else ""),
        err=True,
    )
    if season.invalid:
        raise typer.Exit(code=1)


def _duration(seconds: float) -> str:
    """A time left, roughly: "40 s", "3 min", "2 h 10 min"."""
    s = int(seconds + 0.5)
    if s < 90:
        return f"{s} s"
    if s < 5400:
        return f"{(s + 30) // 60} min"
    return f"{s // 3600} h {(s % 3600) // 60} min"


def decisions(progress: Any, before: Callable[[], str] = lambda: "") -> Callable[[int, int], None]:
    """The progress line of a fair analysis: ``before()``, then the decisions done of those
    known so far and the time left at the pace so far."""
    import time

    start = time.perf_counter()

    def update(done: int, known: int) -> None:
        elapsed = time.perf_counter() - start
        left = elapsed / done * (known - done) if done else 0.0
        progress.update(0, f"{before()}{done:,}/{known:,} decisions · about {_duration(left)} left")

    return update
