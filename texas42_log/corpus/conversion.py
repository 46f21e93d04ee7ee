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

from collections.abc import Iterator
from dataclasses import dataclass, field

from ..files.reader import CHUNK, Range, Record, range_lines, ranges, validated
from .pool import run_pool

__all__ = ["Converted", "convert_ranges", "parallel_ok"]


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
    from ..files.formats import READABLE, CannotExport, ConvertError, holds_comments, write_chunk
    from ..files.reader import reread
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
        if verify and fmt in READABLE:
            try:
                back = reread([c.body], fmt)
            except ConvertError as e:
                back, problem = [], e.message
            else:
                problem = next((b.errors[0].message for b in back if not b.valid), "")
            if (problem or len(back) != 1) and c.valid:
                c.fatal = (
                    f"texas42: not written: match at {r.path}:{number} does not read back from "
                    f"{fmt} as the "
                    f"same valid match ({problem or f'{len(back)} matches'}); please report this"
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
