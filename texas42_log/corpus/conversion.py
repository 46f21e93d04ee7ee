"""Converting a JSON Lines corpus on every core (``texas42 convert big.jsonl -o big.t42``).

The file is cut into whole-line byte ranges (:func:`texas42_log.files.ranges.ranges`);
each worker reads its own range, validates each match and writes its part of
the output — its chunk as a file's first match — and the parent puts the chunks in
their places in input order (``files.formats.renumbered``: the format's own numbering,
header and separators), a bounded
window of ranges at a time, so memory stays flat and the output is exactly
what one process would have written. Nothing here prints: the caller says the
diagnostics the workers formatted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..files.reader import CHUNK, Range, Record, range_lines, ranges, validated
from .pool import run_pool

if TYPE_CHECKING:
    from ..files.validate import ValidationResult

__all__ = [
    "Converted",
    "convert_ranges",
    "parallel_ok",
    "convert_stream",
    "Streamed",
    "Refused",
    "read_back",
]


@dataclass(slots=True)
class Converted:
    """One match of the corpus after a worker: where, its diagnostics (formatted), and
    its chunk written as a file's first (``formats.renumbered`` puts it in its place)
    when it parsed as a match."""

    line: int
    lines: list[str] = field(default_factory=list)
    valid: bool = False
    structural: bool = False
    body: str = ""
    comments: int = 0
    #: What stops the conversion at this line (bytes that are not UTF-8), if anything.
    fatal: str | None = None


def parallel_ok(path: str) -> list[Range] | None:
    """The ranges of ``path`` when they are worth several processes and all short
    (a range made long by one long line goes the careful serial way)."""
    import os
    import stat

    # A regular file only: anything else (missing, a FIFO, a link loop) goes the serial way,
    # which says why.
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        cut = list(ranges(path))
    except OSError:
        return None
    if len(cut) < 2 or any(r.end - r.start > 4 * CHUNK for r in cut):
        return None
    return cut


def _convert_range(r: Range, fmt: str, verify: bool) -> list[Converted]:
    from ..files.formats import CannotExport, holds_comments, write_chunk
    from ..files.report import diagnostic_line
    from ..log.annotate import listing

    out: list[Converted] = []
    for number, raw, _ in range_lines(r):
        if raw is None or not raw.strip():
            continue  # (no line is too long here: parallel_ok took short ranges only)
        c = Converted(number)
        out.append(c)
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as e:
            c.fatal = (
                f"{r.path}:{number}: error encoding: the line is not UTF-8 (byte "
                f"0x{raw[e.start]:02x} "
                f"at byte {e.start + 1} of the line)"
            )
            break
        result, _ = validated(Record(f"{r.path}:{number}", raw, line=number))
        c.lines = [diagnostic_line(r.path, d) for d in result.diagnostics]
        if result.match is None:
            c.structural = True
            continue
        c.valid = result.valid
        try:
            c.body = write_chunk(result.match, fmt)
        except (CannotExport, ValueError) as e:
            c.fatal = f"cannot write {fmt}: {e}"
            break
        if verify and c.valid and (failed := _reread(c.body, fmt, 1)) is not None:
            problem, count = failed
            c.fatal = (
                f"texas42: not written: match at {r.path}:{number} does not read back from "
                f"{fmt} as the "
                f"same valid match ({problem or f'{count} matches'}); please report this"
            )
            break
        c.comments = 0 if holds_comments(fmt) else len(listing(result.match))
    return out


def convert_ranges(
    ranges: list[Range], fmt: str, jobs: int, verify: bool = False
) -> Iterator[Converted]:
    """Every match of the ranges, converted on ``jobs`` processes, in input order;
    with ``verify``, each chunk is read back and must be the same valid match."""
    yield from run_pool(((_convert_range, r, fmt, verify) for r in ranges), jobs)


class Refused(Exception):
    """A streamed conversion stops: its sentence; the caller writes nothing."""


def read_back(texts: list[str], fmt: str, expected: int) -> str | None:
    """Why ``texts`` (format ``fmt``) do not read back as ``expected`` valid matches, or
    None when they do (or the format is not read): what is written is what was
    validated (after plunge's encoder, which re-decodes its codes)."""
    failed = _reread(texts, fmt, expected)
    if failed is None:
        return None
    problem, count = failed
    return (
        f"not written: the {fmt} text does not read back as the same valid matches "
        f"({problem or f'{count} instead of {expected}'}); please report this"
    )


def _reread(texts: list[str] | str, fmt: str, expected: int) -> tuple[str, int] | None:
    """``texts`` read back as format ``fmt``: None when they give ``expected`` valid
    matches (or the format is not read), else the first problem and the count read."""
    from ..files.formats import READABLE, ConvertError
    from ..files.reader import reread

    if fmt not in READABLE:
        return None
    try:
        results = reread([texts] if isinstance(texts, str) else texts, fmt)
    except ConvertError as e:
        return e.message, 0
    problem = next((r.errors[0].message for r in results if not r.valid), "")
    return None if not problem and len(results) == expected else (problem, len(results))
    try:
        results = reread(texts, fmt)
    except ConvertError as e:
        results, problem = [], e.message
    else:
        bad = [r for r in results if not r.valid]
        problem = bad[0].errors[0].message if bad else ""
    if problem or len(results) != expected:
        return (
            f"not written: the {fmt} text does not read back as the same valid matches "
            f"({problem or f'{len(results)} instead of {expected}'}); please report this"
        )
    return None


@dataclass(slots=True)
class Streamed:
    """What a streamed conversion went through: matches written, and the comments the
    output format has no room for."""

    written: int = 0
    lost_comments: int = 0


def convert_stream(
    inputs: list[str],
    given: str | None,
    fmt: str,
    tally: Streamed,
    results: Callable[[str], Iterator[ValidationResult]],
    *,
    force: bool = False,
    verify: bool = False,
    jobs: int = 1,
    said: Callable[[str], None] = lambda line: None,
    noted: Callable[[str], None] = lambda line: None,
    counted: Callable[[int], None] = lambda written: None,
) -> Iterator[str]:
    """The inputs converted to the many-match format ``fmt``, a chunk a match, so that
    memory stays flat whatever the corpus: a file of a match a line on ``jobs``
    processes (:func:`convert_ranges`), anything else read by ``results(name)`` (each
    match validated, its diagnostics said by the caller). :class:`Refused` stops it at
    the first invalid match (unless ``force``), a chunk that does not read back (with
    ``verify``), or a match the format cannot hold. ``said`` takes the workers'
    diagnostic lines, ``noted`` each loss of writing a match, ``counted`` the count
    written after each match."""
    from ..files.formats import (
        CannotExport,
        format_for_name,
        holds_comments,
        one_a_line,
        parallel,
        renumbered,
        write_chunk,
        write_losses,
    )
    from ..log.annotate import listing

    def refuse_invalid() -> None:
        raise Refused(
            f"not written: match {tally.written + 1} is invalid (the errors above); "
            "pass --force to write anyway"
        )

    def serial(name: str) -> Iterator[str]:
        for result in results(name):
            assert result.match is not None
            if not result.valid and not force:
                refuse_invalid()
            try:
                text = write_chunk(result.match, fmt)
            except (CannotExport, ValueError) as e:
                raise Refused(f"cannot write {fmt}: {e}") from None
            if verify and (problem := read_back([text], fmt, 1)) is not None:
                raise Refused(problem)
            # (The formats with losses to say are written here, never on the workers.)
            for loss in write_losses([result.match], fmt):
                noted(f"{fmt}, match {tally.written + 1}: {loss}")
            if not holds_comments(fmt):
                tally.lost_comments += len(listing(result.match))
            tally.written += 1
            counted(tally.written)
            yield renumbered(text, fmt, tally.written)

    for name in inputs:
        lines = name != "-" and one_a_line(given or format_for_name(name))
        cut = parallel_ok(name) if lines and jobs > 1 and parallel(fmt) else None
        if cut is None:
            yield from serial(name)
            continue
        for c in convert_ranges(cut, fmt, jobs, verify):
            for line in c.lines:
                said(line)
            if c.fatal is not None:
                raise Refused(c.fatal.removeprefix("texas42: "))
            if c.structural:
                raise Refused(
                    f"{name}:{c.line} is not a texas42-log match even in structure; nothing written"
                )
            if not c.valid and not force:
                refuse_invalid()
            tally.written += 1
            tally.lost_comments += c.comments
            counted(tally.written)
            yield renumbered(c.body, fmt, tally.written)
