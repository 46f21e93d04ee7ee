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
import io
import json
import os
from collections import Counter
from collections.abc import Iterable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from itertools import chain
from dataclasses import dataclass, field
from typing import IO, Any, Literal, NamedTuple

from ..files.inputs import InputError, bounded_lines, expand_inputs, long_line, open_input, read_bytes, read_stream, reading
from ..files.report import result_json, result_text
from ..engine.errors import Diagnostic
from ..files.validate import DEFAULT_MAX_BYTES, ValidationResult, size_message, validate_bytes, validate_doc

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


@dataclass(frozen=True, slots=True)
class Record:
    """One match's bytes and where it came from (``file`` or ``file:line``)."""

    source: str
    data: bytes
    #: ``json``: ``data`` is a texas42-log document; ``doc``: a JSON payload
    #: ``{"doc", "positions"}`` read from another notation; ``error``: that
    #: notation could not be read (``{"message", "line", "column"}``).
    kind: str = "json"
    #: For a line of a JSON Lines file: its line number there (``source`` ends ``:line``);
    #: diagnostics are placed at that line of the file.
    line: int | None = None


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


def _is_jsonl(path: str) -> bool:
    """A JSON Lines file of texas42-log documents (not the foreign formats' JSON Lines)."""
    return path.endswith((".jsonl", ".ndjson")) and not path.endswith((".plunge.jsonl", ".tricksy.jsonl"))


def _lines(name: str, handle: IO[bytes], max_bytes: int) -> Iterator[Record]:
    blank = True
    for number, line, size in bounded_lines(handle, max_bytes):
        if line is None:
            yield _error_record(f"{name}:{number}", long_line(size, max_bytes), "size", None)
            blank = False
        elif line.strip():
            blank = False
            yield Record(f"{name}:{number}", line, line=number)
    if blank:
        yield _error_record(name, "the file holds no match: it is empty, or blank lines only", "empty", None)


def _error_record(source: str, message: str, rule: str, line: int | None) -> Record:
    payload = {"message": message, "rule": rule, "line": line, "column": 1 if line is not None else None}
    return Record(source, json.dumps(payload).encode(), "error")


def read_file(name: str, max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
    """The bytes of one file, at most ``max_bytes`` (:func:`texas42_log.files.inputs.read_bytes`)."""
    return read_bytes(name, max_bytes, " (raise the limit with --max-bytes)")


def read_records(
    files: Iterable[str], *, stdin: IO[bytes] | None = None, stdin_jsonl: bool = False,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> Iterator[Record]:
    """Every match in ``files``, streamed: one per ``.json`` file, one per non-blank
    line of a ``.jsonl`` file (read line by line, each line bounded by ``max_bytes``).
    An input that cannot be read is an :class:`InputError`; an over-long line or a
    file with no match at all is a record that fails validation, saying so."""
    for name in files:
        if name == "-":
            if stdin is None:
                raise InputError("- names standard input, which is not available here", usage=True)
            if stdin_jsonl:
                yield from _lines("<stdin>", stdin, max_bytes)
            else:
                # Standard input says what it is, as a file's name would: JSON, JSON Lines,
                # the text notation or another program's format (sniffed).
                data = read_stream(stdin, "standard input", max_bytes, " (raise the limit with --max-bytes)")
                if _sniffed(data) == "jsonl":
                    yield from _lines("<stdin>", io.BytesIO(data), max_bytes)
                else:
                    yield from _converted("<stdin>", data, only_foreign=True)
            continue
        try:
            if _is_jsonl(name):
                handle = open_input(name)
                with handle, reading(name):
                    yield from _lines(name, handle, max_bytes)
            elif name.endswith(".json") and not name.endswith((".plunge.json", ".tricksy.json")):
                with reading(name):
                    size = os.stat(name).st_size
                if size > max_bytes and os.path.isfile(name):
                    yield _error_record(name, size_message(size, max_bytes), "size", None)
                else:
                    yield Record(name, read_file(name, max_bytes))
            else:
                from ..files.formats import format_for_name, size_limit

                yield from _converted(name, read_bytes(name, max(max_bytes, size_limit(format_for_name(name)))))
        except InputError as e:
            # One unreadable input among many is reported, and the others are still read.
            if e.usage:
                raise
            message = str(e)
            yield _error_record(name, message[len(name):].lstrip(": ") if message.startswith(name) else message,
                                "input", None)


def _sniffed(data: bytes) -> str | None:
    from ..files.formats import sniff

    try:
        return sniff(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        return None


def _converted(name: str, data: bytes, *, only_foreign: bool = False) -> Iterator[Record]:
    """The matches of a file in another notation (text, a foreign format), one record each."""
    from ..files.formats import ConvertError, format_for_name, read_sources, sniff

    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        yield Record(name, data)  # the JSON path words the encoding error
        return
    fmt = sniff(text) if only_foreign else (format_for_name(name) or sniff(text))
    if fmt is None or fmt in ("json", "jsonl", "csv"):
        yield Record(name, data)
        return
    try:
        sources = read_sources(text, fmt)
    except ConvertError as e:
        payload: dict[str, Any] = {"message": f"not a {fmt} file: {e.message}", "line": e.line, "column": e.column}
        yield Record(name, json.dumps(payload).encode(), "error")
        return
    many = len(sources) > 1
    for src in sources:
        where = f"{name}#{src.number}" if many else name
        if src.raw is not None:
            yield Record(where, src.raw.encode("utf-8"))
        else:
            payload = {"doc": src.doc, "positions": src.positions}  # a JSON object for the worker
            yield Record(where, json.dumps(payload, ensure_ascii=False).encode("utf-8"), "doc")


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


def validated(record: Record, max_bytes: int = DEFAULT_MAX_BYTES) -> tuple[ValidationResult, str]:
    """One record validated, with the file its diagnostics are placed in (a JSON
    Lines record's diagnostics are moved to its line of the file)."""
    if record.kind == "json":
        result = validate_bytes(record.data, max_bytes=max_bytes)
        if not result.valid and result.errors[0].rule == "format":
            # Not our document: a foreign format's JSON named *.json? Read it as that.
            other = list(_converted(record.source, record.data, only_foreign=True))
            if len(other) == 1 and other[0].kind != "json":
                result = _validate_converted(other[0])
    else:
        result = _validate_converted(record)
    where = record.source
    if record.line is not None:
        # A JSON Lines record: its diagnostics point into the file, file:line:column.
        where = record.source.rsplit(":", 1)[0]
        for d in result.diagnostics:
            if d.line is None:
                d.line, d.column = record.line, 1
            else:
                d.line += record.line - 1
    return result, where


def _validate_converted(record: Record) -> ValidationResult:
    payload = json.loads(record.data)
    if record.kind == "error":
        d = Diagnostic(payload.get("rule", "format"), payload["message"], "", payload["line"], payload["column"])
        return ValidationResult(diagnostics=[d])
    positions = {k: (v[0], v[1]) for k, v in payload["positions"].items()}
    from ..log.notation import position

    return validate_doc(payload["doc"], lambda p: position(positions, p))


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


#: A JSON Lines file is handed to worker processes in ranges of about this many
#: bytes: each worker reads its own range, so the parent ships no data at all.
CHUNK = 1 << 20


@dataclass(frozen=True, slots=True)
class _Range:
    """Lines ``first_line``… of ``path`` between two byte offsets (whole lines)."""

    path: str
    start: int
    end: int
    first_line: int


def _ranges(path: str) -> Iterator[_Range]:
    """Cut a JSON Lines file into whole-line ranges of about :data:`CHUNK` bytes,
    counting lines as it goes. One pass, a block at a time: each block is searched
    once (linear however long a line is), and memory stays at one block."""
    block_size = 64 * 1024
    with open(path, "rb") as f:
        f.seek(0, os.SEEK_END)
        size = f.tell()
        start, line = 0, 1
        while start < size:
            # the first newline at or after start + CHUNK ends this range
            pos = min(start + CHUNK, size)
            f.seek(pos)
            end = size
            while pos < size:
                block = f.read(block_size)
                if not block:
                    break
                k = block.find(b"\n")
                if k >= 0:
                    end = pos + k + 1
                    break
                pos += len(block)
            f.seek(start)
            lines, left = 0, end - start
            while left > 0:
                block = f.read(min(block_size * 16, left))
                if not block:
                    break
                lines += block.count(b"\n")
                left -= len(block)
            yield _Range(path, start, end, line)
            start, line = end, line + lines


def _range_task(r: _Range, max_bytes: int, text: TextMode, as_json: bool) -> list[RecordResult]:
    out = []
    with open(r.path, "rb") as f:
        f.seek(r.start)
        if r.end - r.start <= 4 * CHUNK:
            # the common range: read whole, split in C
            for k, raw in enumerate(f.read(r.end - r.start).split(b"\n")):
                if raw.strip():
                    number = r.first_line + k
                    out.append(validate_record(Record(f"{r.path}:{number}", raw + b"\n", line=number), max_bytes,
                                               text=text, as_json=as_json))
            return out
        # a range made long by a long line: a line at a time, each bounded, never held whole
        pos = r.start
        for k, line, size in bounded_lines(f, max_bytes):
            number = r.first_line + k - 1
            if line is None:
                record = _error_record(f"{r.path}:{number}", long_line(size, max_bytes), "size", None)
                out.append(validate_record(record, max_bytes, text=text, as_json=as_json))
            elif line.strip():
                out.append(validate_record(Record(f"{r.path}:{number}", line, line=number), max_bytes, text=text,
                                           as_json=as_json))
            pos += size
            if pos >= r.end:
                break
    return out


def _size(name: str) -> int:
    """A regular file's size; 0 for standard input and anything else (read as a stream)."""
    try:
        return os.stat(name).st_size if name != "-" and os.path.isfile(name) else 0
    except OSError:
        return 0


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
    sizes = [_size(f) for f in files]
    if jobs <= 1 or "-" in files or sum(sizes) <= jobs * CHUNK:
        yield from validate_records(
            read_records(files, stdin=stdin, stdin_jsonl=stdin_jsonl, max_bytes=max_bytes),
            jobs=jobs, max_bytes=max_bytes, text=text, as_json=as_json,
        )
        return

    def tasks() -> Iterator[tuple[Any, ...]]:
        pending: list[Record] = []
        for name in files:
            if _is_jsonl(name) and _size(name) > 0:
                if pending:
                    yield (_batch, pending, max_bytes, text, as_json)
                    pending = []
                for r in _ranges(name):
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

