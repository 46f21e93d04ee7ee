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

import gc
import os
from collections import Counter
from collections.abc import Iterable, Iterator
from concurrent.futures import Future
from itertools import chain
from dataclasses import dataclass, field
from typing import IO, Any, Literal, NamedTuple

from ..files.inputs import long_line
from ..files.reader import (
    CHUNK, InputError, Range, Record, expand_inputs, error_record, file_size, is_jsonl, range_lines, ranges,
    read_records, validated,
)
from ..files.report import result_json, result_text
from ..files.validate import DEFAULT_MAX_BYTES

__all__ = [
    "InputError",
    "Record",
    "RecordResult",
    "Summary",
    "expand_inputs",
    "read_file",
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
#: Batches in flight per worker: bounds memory however large the corpus.
WINDOW = 4


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
    record: Record, max_bytes: int = DEFAULT_MAX_BYTES, *, text: TextMode = "all", as_json: bool = True
) -> RecordResult:
    """Validate one match: a pure function of the record (bytes in, result out).

    ``text`` (every match, invalid ones only, none) and ``as_json`` choose the
    printed forms to render — only what will be printed, so that less travels
    back from a worker process."""
    result, where = validated(record, max_bytes)
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


def worker_init(parent: int | None = None) -> None:
    """A worker process: the parent alone answers Ctrl-C (it stops the workers), so a
    worker ignores SIGINT — no worker prints a traceback when the terminal's Ctrl-C
    reaches the whole process group — and takes the default SIGTERM. It ends with its
    parent (``parent``: the parent's process id), however the parent ends."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    if parent is not None:
        _end_with_parent(parent)
    tune_gc()


def _end_with_parent(parent: int) -> None:
    """Have the system send this process SIGTERM when its parent dies (Linux), and end
    now if the parent is gone already. The parent stops its workers itself; this is for
    the worker it never heard of: one being started when a Ctrl-C arrived, which would
    otherwise wait for work forever, holding the command's output pipe open."""
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the parent's own stop is all there is
        pass
    if os.getppid() != parent:
        os._exit(0)


def tune_gc() -> None:
    """Make the garbage collector cheap for a long validation run.

    Validation allocates many short-lived objects (models, tricks) and keeps none,
    so the default thresholds make the collector walk the long-lived import-time
    objects (modules, pydantic's schemas) again and again: freezing those and
    collecting the young generation less often is worth ~12% (tests/benchmarks).
    Nothing is kept alive that would not be anyway.
    """
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)


def _batch(records: list[Record], max_bytes: int, text: TextMode, as_json: bool) -> list[RecordResult]:
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
            jobs=jobs, max_bytes=max_bytes, text=text, as_json=as_json,
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

    yield from _run_pool(tasks(), jobs)


def _run_pool(tasks: Iterable[tuple[Any, ...]], jobs: int) -> Iterator[Any]:
    """Run ``(function, *args)`` tasks on ``jobs`` processes, a bounded window at a
    time, yielding the items of the lists they return, in task order."""
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(max_workers=jobs, initializer=worker_init, initargs=(os.getpid(),))
    window: list[Future[list[Any]]] = []
    finished = False
    try:
        for fn, *args in tasks:
            window.append(pool.submit(fn, *args))
            if len(window) >= jobs * WINDOW:
                yield from window.pop(0).result()
        while window:
            yield from window.pop(0).result()
        finished = True
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:
            _stop(pool)


def _stop(pool: Any) -> None:
    """Stop a pool at once (Ctrl-C, an early stop, an error): its workers are ended,
    not waited for — a worker in the middle of a large batch would otherwise hold the
    parent until it finished."""
    processes = list(getattr(pool, "_processes", {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        if p.is_alive():
            p.terminate()
    for p in processes:
        p.join(timeout=1)
        if p.is_alive():
            p.kill()


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
    yield from _run_pool(
        ((_batch, batch, max_bytes, text, as_json) for batch in _batches(chain(head, it), BATCH)), jobs
    )


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


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
        rows.append(("most broken", ", ".join(f"{rule} ×{n}" for rule, n in s.rules.most_common(top))))
    if s.stopped:
        rows.append(("stopped", s.stopped))
    width = max(len(k) for k, _ in rows)
    return [f"{k:<{width}}  {v}" for k, v in rows]

