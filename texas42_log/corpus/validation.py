"""Whole corpora: many matches from files, directories, globs and JSON Lines.

This is the corpus I/O layer (beside the CLI): it finds input files, streams
their records, and spreads validation over processes. The work itself is
:func:`validate_record`, a pure function of one record's bytes — which is what
lets the same validation run on any engine that can map a function over
records (``docs/scale-out.md``; ``examples/dask_validate.py``).

* A ``.json`` file is one match; a ``.jsonl`` file (or ``-`` with ``--jsonl``)
  holds one match per line and is read line by line, never whole, so memory
  stays flat whatever its size.
* Results come back in input order, whatever the number of processes: at most
  a bounded window of batches is in flight at any time.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import chain
from typing import IO, Any, Literal, NamedTuple

from ..files.inputs import long_line
from ..files.reader import (
    CHUNK,
    InputError,
    Range,
    Record,
    error_record,
    expand_inputs,
    file_size,
    is_jsonl,
    range_lines,
    ranges,
    read_records,
    validated,
)
from ..files.report import result_json, result_text
from ..files.validate import DEFAULT_MAX_BYTES
from .pool import default_jobs, run_pool, tune_gc

__all__ = [
    "InputError",
    "Record",
    "RecordResult",
    "Summary",
    "expand_inputs",
    "read_records",
    "validate_record",
    "validated",
    "validate_records",
    "validate_files",
    "default_jobs",
    "summary_text",
]

#: Records per batch sent to a worker process: large enough to amortise the
#: pickling, small enough to keep the progress bar moving.
BATCH = 32


class RecordResult(NamedTuple):
    """What validating one record found, in forms ready to print. A named tuple:
    it travels back from worker processes by the thousand, and pickles cheaply."""

    source: str
    valid: bool
    hands: int
    rules: list[str]
    #: Bytes of the record (for progress by size).
    size: int
    #: What ``texas42 validate`` prints for this match (empty unless asked for).
    text: str
    #: The JSON object ``--format json`` prints (empty unless asked for).
    json: dict[str, Any]


@dataclass(slots=True)
class Summary:
    """Totals over a corpus."""

    matches: int = 0
    hands: int = 0
    valid: int = 0
    invalid: int = 0
    errors: int = 0
    rules: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    stopped: str | None = None

    def add(self, r: RecordResult) -> None:
        self.matches += 1
        self.hands += r.hands
        if r.valid:
            self.valid += 1
        else:
            self.invalid += 1
        self.errors += len(r.rules)
        self.rules.update(r.rules)

    def as_dict(self) -> dict[str, Any]:
        rate = self.hands / self.seconds if self.seconds > 0 else None
        return {
            "matches": self.matches,
            "hands": self.hands,
            "valid": self.valid,
            "invalid": self.invalid,
            "errors": self.errors,
            "rules": dict(self.rules.most_common()),
            "seconds": round(self.seconds, 3),
            "hands_per_second": None if rate is None else round(rate),
            "stopped": self.stopped,
        }


TextMode = Literal["all", "invalid", "none"]


def validate_record(
    record: Record,
    max_bytes: int = DEFAULT_MAX_BYTES,
    *,
    text: TextMode = "all",
    as_json: bool = True,
) -> RecordResult:
    """Validate one match: a pure function of the record (bytes in, result out).

    ``text`` (every match, invalid ones only, none) and ``as_json`` choose the
    printed forms to render — only what will be printed, so that less travels
    back from a worker process."""
    result, where = validated(record, max_bytes, models=False)
    report = result.report
    render = text == "all" or (text == "invalid" and not result.valid)
    return RecordResult(
        source=record.source,
        valid=result.valid,
        hands=report.hands if report is not None else 0,
        rules=[d.rule for d in result.errors],
        size=len(record.data),
        text=result_text(record.source, result, where) if render else "",
        json=result_json(record.source, result) if as_json else {},
    )


def _batch(
    records: list[Record], max_bytes: int, text: TextMode, as_json: bool
) -> list[RecordResult]:
    return [validate_record(r, max_bytes, text=text, as_json=as_json) for r in records]


def _batches(records: Iterable[Record], size: int) -> Iterator[list[Record]]:
    batch: list[Record] = []
    for r in records:
        batch.append(r)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def _range_task(r: Range, max_bytes: int, text: TextMode, as_json: bool) -> list[RecordResult]:
    out = []
    for number, line, size in range_lines(r, max_bytes):
        if line is None:
            record = error_record(f"{r.path}:{number}", long_line(size, max_bytes), "size", None)
        elif line.strip():
            record = Record(f"{r.path}:{number}", line, line=number)
        else:
            continue
        out.append(validate_record(record, max_bytes, text=text, as_json=as_json))
    return out


def validate_files(
    files: list[str],
    *,
    jobs: int = 1,
    max_bytes: int = DEFAULT_MAX_BYTES,
    text: TextMode = "all",
    as_json: bool = True,
    stdin: IO[bytes] | None = None,
    stdin_jsonl: bool = False,
) -> Iterator[RecordResult]:
    """Validate every match in ``files`` (see :func:`expand_inputs`), in input order.

    With several processes, JSON Lines files are cut into byte ranges that the
    workers read themselves; single ``.json`` files and standard input go in
    batches of records. A small input (under ``jobs`` ranges) runs here.
    """
    sizes = [file_size(f) for f in files]
    if jobs <= 1 or "-" in files or sum(sizes) <= jobs * CHUNK:
        yield from validate_records(
            read_records(files, stdin=stdin, stdin_jsonl=stdin_jsonl, max_bytes=max_bytes),
            jobs=jobs,
            max_bytes=max_bytes,
            text=text,
            as_json=as_json,
        )
        return

    def tasks() -> Iterator[tuple[Any, ...]]:
        pending: list[Record] = []
        for name in files:
            if is_jsonl(name) and file_size(name) > 0:
                if pending:
                    yield (_batch, pending, max_bytes, text, as_json)
                    pending = []
                for r in ranges(name):
                    yield (_range_task, r, max_bytes, text, as_json)
            else:
                pending.extend(read_records([name], max_bytes=max_bytes))
                if len(pending) >= BATCH:
                    yield (_batch, pending, max_bytes, text, as_json)
                    pending = []
        if pending:
            yield (_batch, pending, max_bytes, text, as_json)

    yield from run_pool(tasks(), jobs)


def validate_records(
    records: Iterable[Record],
    *,
    jobs: int = 1,
    max_bytes: int = DEFAULT_MAX_BYTES,
    text: TextMode = "all",
    as_json: bool = True,
) -> Iterator[RecordResult]:
    """Validate ``records`` on ``jobs`` processes; results in input order.

    With ``jobs`` 1 everything runs here. Otherwise batches go to a process pool,
    at most ``jobs × WINDOW`` batches at a time, so a huge input is never read
    ahead of the work. Stop consuming the iterator to stop early (``--fail-fast``).
    """
    it = iter(records)
    # A small corpus is done here: starting processes would cost more than it saves.
    head: list[Record] = []
    if jobs > 1:
        for r in it:
            head.append(r)
            if len(head) > jobs * BATCH:
                break
    if jobs <= 1 or len(head) <= jobs * BATCH:
        tune_gc()
        for r in chain(head, it):
            yield validate_record(r, max_bytes, text=text, as_json=as_json)
        return
    yield from run_pool(
        ((_batch, batch, max_bytes, text, as_json) for batch in _batches(chain(head, it), BATCH)),
        jobs,
    )


def summary_text(s: Summary, top: int = 5) -> list[str]:
    """The closing table, as lines."""
    rate = f"{s.hands / s.seconds:,.0f}" if s.seconds > 0 else "–"
    rows = [
        ("matches", f"{s.matches:,}"),
        ("hands", f"{s.hands:,}"),
        ("valid", f"{s.valid:,}"),
        ("invalid", f"{s.invalid:,}"),
        ("errors", f"{s.errors:,}"),
        ("hands/s", rate),
    ]
    if s.rules:
        rows.append(
            ("most broken", ", ".join(f"{rule} ×{n}" for rule, n in s.rules.most_common(top)))
        )
    if s.stopped:
        rows.append(("stopped", s.stopped))
    width = max(len(k) for k, _ in rows)
    return [f"{k:<{width}}  {v}" for k, v in rows]
