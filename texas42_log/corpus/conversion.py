"""Converting a JSON Lines corpus on every core (``texas42 convert big.jsonl -o big.t42``).

The file is cut into whole-line byte ranges (:func:`texas42_log.files.ranges.ranges`);
each worker reads its own range, validates each match and writes its part of
the output — the number-free body of its chunk — and the parent puts the
chunks together in input order (numbering, CSV header, separators), a bounded
window of ranges at a time, so memory stays flat and the output is exactly
what one process would have written. Nothing here prints: the caller says the
diagnostics the workers formatted.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..files.reader import CHUNK, Range, Record, range_lines, ranges, validated
from .pool import run_pool

__all__ = ["Converted", "convert_ranges", "parallel_ok", "assemble"]


@dataclass(slots=True)
class Converted:
    """One match of the corpus after a worker: where, its diagnostics (formatted), and
    the body of its chunk (text, or CSV rows) when it parsed as a match."""

    line: int
    lines: list[str] = field(default_factory=list)
    valid: bool = False
    structural: bool = False
    body: Any = None
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


def _body(match: Any, fmt: str) -> Any:
    from ..files.formats import csv_rows, write_chunk
    from ..log.notation_writer import write_text

    if fmt == "text":
        return write_text(match)
    if fmt == "csv":
        # the rows as CSV text, match number 0: the parent puts the real number in
        # (the first column, so every row starts "0,") — no rows pickled, no CSV in the parent
        # No field of these rows ever needs CSV quoting (numbers, seat letters, tile
        # names, suit and contract words): joined as the csv module would write them,
        # which the one-process path does (the tests compare the two byte for byte).
        from ..files.formats import CSV_COLUMNS

        return "".join(
            ",".join(str(row[c]) for c in CSV_COLUMNS) + "\n" for row in csv_rows([match], start=0)
        )
    return write_chunk(match, fmt, 1)


def _convert_range(r: Range, fmt: str, verify: bool) -> list[Converted]:
    from ..files.formats import READABLE, CannotExport, ConvertError
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
            c.body = _body(result.match, fmt)
        except (CannotExport, ValueError) as e:
            c.fatal = f"cannot write {fmt}: {e}"
            break
        if verify and fmt in READABLE:
            try:
                back = reread([assemble(c.body, fmt, 1)], fmt)
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
        c.comments = len(listing(result.match)) if fmt == "csv" else 0
    return out


def convert_ranges(
    ranges: list[Range], fmt: str, jobs: int, verify: bool = False
) -> Iterator[Converted]:
    """Every match of the ranges, converted on ``jobs`` processes, in input order;
    with ``verify``, each chunk is read back and must be the same valid match."""
    yield from run_pool(((_convert_range, r, fmt, verify) for r in ranges), jobs)


def assemble(body: Any, fmt: str, number: int) -> str:
    """Match ``number``'s chunk of the output file from its worker-written body."""
    if fmt == "text":
        return ("\n" if number > 1 else "") + str(body)
    if fmt == "csv":
        from ..files.formats import CSV_COLUMNS

        rows = str(body)
        header = ",".join(CSV_COLUMNS) + "\n" if number == 1 else ""
        if not rows:
            return header
        assert rows.startswith("0,")
        return header + f"{number}," + rows[2:].replace("\n0,", f"\n{number},")
    return str(body)
