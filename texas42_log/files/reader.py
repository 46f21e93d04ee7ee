"""The one reader: whatever a user names becomes records, and records become matches.

Every command and the Python API read through this module. Input names are files,
folders (searched for logs), globs, and ``-`` (standard input); a format is told one
way for every reader (:func:`.formats.detect`: what the user names, then the content
where it is unambiguous, then the name);
every format of the registry (:mod:`.formats`) is read. JSON Lines are streamed a
line at a time, so memory stays flat whatever the corpus. The limits and the
refusals of :mod:`.inputs` hold everywhere: a file too large, a FIFO with no
writer, a device, a link that leads nowhere, a line too long, bytes that are not
UTF-8 — each is one sentence naming the input, raised as an :class:`InputError`
(``usage`` when the name itself is wrong: nothing by that name).

Three ways in, for three kinds of caller:

* :func:`read_records` — records (bytes and where they came from), for validation
  spread over processes (:func:`validated` is a pure function of one record);
* :func:`read_matches` — every match of every input, validated, in order;
* :func:`read_view` — every match of one input, validated, for showing one of them.

:func:`read_text`, :func:`read_chunks` and :func:`read_bytes_of` give the text of
an input that is not a match (a file of remarks, a log of an old version), which
:mod:`.documents` reads.
"""

from __future__ import annotations

import io
import json
import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO, Any

from ..engine.errors import Diagnostic
from . import formats
from .formats import (
    ConvertError,
    Source,
    detect,
    format_for_name,
    read_sources,
    size_limit,
    sniff,
)
from .inputs import (
    InputError,
    bounded_lines,
    expand_inputs,
    long_line,
    open_input,
    read_bytes,
    read_stream,
    reading,
)
from .ranges import CHUNK, Range, range_lines, ranges
from .validate import (
    DEFAULT_MAX_BYTES,
    ValidationResult,
    size_message,
    validate_bytes,
    validate_doc,
)

__all__ = [
    "InputError",
    "ReadError",
    "error_record",
    "CHUNK",
    "expand_inputs",
    "Record",
    "read_records",
    "validated",
    "validate_source",
    "read_file",
    "read_view_as",
    "is_jsonl",
    "CHUNK",
    "Range",
    "ranges",
    "range_lines",
    "file_size",
    "total_bytes",
    "read_bytes_of",
    "decode",
    "read_text",
    "read_chunks",
    "jsonl_lines",
    "Read",
    "read_matches",
    "read_view",
    "reread",
    "DEFAULT_MAX_BYTES",
]


class ReadError(InputError):
    """An input was read but is not what it should be: not UTF-8, not in its format,
    no match in it. Never a usage error (exit 1). With ``diagnostic``, the message is a
    diagnostic line, ``file:line:column: error RULE: sentence``, to be printed as it is."""

    def __init__(self, message: str, *, diagnostic: bool = False) -> None:
        super().__init__(message)
        self.diagnostic = diagnostic


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


def is_jsonl(path: str) -> bool:
    """A JSON Lines file of texas42-log documents, by its name (not the foreign formats' JSON
    Lines)."""
    return format_for_name(path) == "jsonl"


def _lines(name: str, handle: IO[bytes], max_bytes: int) -> Iterator[Record]:
    blank = True
    for number, line, size in bounded_lines(handle, max_bytes):
        if line is None:
            yield error_record(f"{name}:{number}", long_line(size, max_bytes), "size", None)
            blank = False
        elif line.strip():
            blank = False
            yield Record(f"{name}:{number}", line, line=number)
    if blank:
        yield error_record(
            name, "the file holds no match: it is empty, or blank lines only", "empty", None
        )


def error_record(source: str, message: str, rule: str, line: int | None) -> Record:
    payload = {
        "message": message,
        "rule": rule,
        "line": line,
        "column": 1 if line is not None else None,
    }
    return Record(source, json.dumps(payload).encode(), "error")


def read_file(name: str, max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
    """The bytes of one file, at most ``max_bytes``
    (:func:`texas42_log.files.inputs.read_bytes`)."""
    return read_bytes(name, max_bytes, " (raise the limit with --max-bytes)")


def read_records(
    files: Iterable[str],
    *,
    stdin: IO[bytes] | None = None,
    stdin_jsonl: bool = False,
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
                data = read_stream(
                    stdin, "standard input", max_bytes, " (raise the limit with --max-bytes)"
                )
                yield from _converted("<stdin>", data, max_bytes)
            continue
        try:
            named = format_for_name(name)
            if named == "jsonl":
                handle = open_input(name)
                with handle, reading(name):
                    yield from _lines(name, handle, max_bytes)
            elif named == "json":
                with reading(name):
                    size = os.stat(name).st_size
                if size > max_bytes and os.path.isfile(name):
                    yield error_record(name, size_message(size, max_bytes), "size", None)
                else:
                    yield from _converted(name, read_file(name, max_bytes), max_bytes)
            else:
                data = read_bytes(name, max(max_bytes, size_limit(named)))
                yield from _converted(name, data, max_bytes)
        except InputError as e:
            # One unreadable input among many is reported, and the others are still read.
            if e.usage:
                raise
            message = str(e)
            yield error_record(
                name,
                message[len(name) :].lstrip(": ") if message.startswith(name) else message,
                "input",
                None,
            )


def _converted(
    name: str, data: bytes, max_bytes: int = DEFAULT_MAX_BYTES, *, only_foreign: bool = False
) -> Iterator[Record]:
    """The matches of an input read whole, one record each, in the format
    :func:`.formats.detect` tells: our JSON as it is, JSON Lines a line at a time (saved
    as ``.txt`` or ``.json``, or on standard input), another notation converted.
    ``only_foreign``: the content alone decides, and only another program's format is
    converted (a ``.json`` file our format refused)."""

    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        yield Record(name, data)  # the JSON path words the encoding error
        return
    fmt = sniff(text) if only_foreign else detect(name, text)
    if fmt == "jsonl" and not only_foreign:
        yield from _lines(name, io.BytesIO(data), max_bytes)
        return
    if fmt is None or fmt in ("json", "jsonl", "csv"):
        yield Record(name, data)
        return
    try:
        sources = read_sources(text, fmt)
    except ConvertError as e:
        payload: dict[str, Any] = {
            "message": f"not {_article(fmt)} {fmt} file: {e.message}",
            "line": e.line,
            "column": e.column,
        }
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


def validated(
    record: Record, max_bytes: int = DEFAULT_MAX_BYTES, *, models: bool = True
) -> tuple[ValidationResult, str]:
    """One record validated, with the file its diagnostics are placed in (a JSON
    Lines record's diagnostics are moved to its line of the file). ``models=False``:
    the verdict and report are wanted, not the match (see :func:`.validate.validate_bytes`)."""
    if record.kind == "json":
        result = validate_bytes(record.data, max_bytes=max_bytes, models=models)
        if not result.valid and result.errors[0].rule == "format":
            # Not our document: a foreign format's JSON named *.json? Read it as that.
            other = list(_converted(record.source, record.data, only_foreign=True))
            if len(other) == 1 and other[0].kind != "json":
                result = _validate_converted(other[0])
    else:
        result = _validate_converted(record)
    if record.line is None:
        return result, record.source
    # A JSON Lines record: its diagnostics point into the file, file:line:column.
    return _placed(result, record.line), record.source.rsplit(":", 1)[0]


def validate_source(src: Source) -> ValidationResult:
    """One match as a format's reader gave it (:func:`.formats.read_sources`), validated:
    structure and rules, its diagnostics placed in the source's text."""
    if src.raw is None:
        assert src.doc is not None
        return _validate_document(src.doc, src.positions)
    result = validate_bytes(src.raw)
    return _placed(result, src.line) if src.line != 1 else result


def _placed(result: ValidationResult, line: int) -> ValidationResult:
    """The diagnostics of a match that starts on ``line`` of its file, moved there."""
    for d in result.diagnostics:
        if d.line is None:
            d.line, d.column = line, 1
        else:
            d.line += line - 1
    return result


def _validate_document(
    doc: dict[str, Any], positions: dict[str, tuple[int, int]]
) -> ValidationResult:
    """A document read from another notation, validated, each diagnostic placed by the
    positions the reader recorded."""
    from ..log.notation import position

    return validate_doc(doc, lambda p: position(positions, p))


def _validate_converted(record: Record) -> ValidationResult:
    payload = json.loads(record.data)
    if record.kind == "error":
        d = Diagnostic(
            payload.get("rule", "format"),
            payload["message"],
            "",
            payload["line"],
            payload["column"],
        )
        return ValidationResult(diagnostics=[d])
    return _validate_document(
        payload["doc"], {k: (v[0], v[1]) for k, v in payload["positions"].items()}
    )


def file_size(name: str) -> int:
    """A regular file's size; 0 for standard input and anything else (read as a stream)."""
    try:
        return os.stat(name).st_size if name != "-" and os.path.isfile(name) else 0
    except OSError:
        return 0


def total_bytes(files: list[str]) -> int | None:
    """The inputs' size, for a progress bar; None when one is standard input."""
    if "-" in files:
        return None
    try:
        return sum(os.path.getsize(f) for f in files)
    except OSError:
        return None


# -- the text of an input -----------------------------------------------------------


def read_bytes_of(
    name: str, limit: int | None = None, hint: str = "", stdin: IO[bytes] | None = None
) -> bytes:
    """The bytes of input ``name`` (``-``: standard input), at most ``limit`` (default:
    what the format its name says may hold)."""
    if limit is None:
        limit = size_limit(None if name == "-" else format_for_name(name))
    if name == "-":
        return read_stream(
            stdin if stdin is not None else sys.stdin.buffer, "standard input", limit, hint
        )
    return read_bytes(name, limit, hint)


def decode(name: str, data: bytes, first_line: int = 1) -> str:
    """UTF-8 text (a BOM dropped); :class:`ReadError` naming the first byte that is not
    (``first_line``: the line of ``name`` that ``data`` starts on)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        good = data[: e.start].decode("utf-8", "replace")
        line = good.count("\n") + first_line
        col = len(good) - (good.rfind("\n") + 1) + 1
        raise ReadError(
            f"{name}:{line}:{col}: error encoding: not UTF-8 (byte 0x{data[e.start]:02x} at byte "
            "offset "
            f"{e.start}); save it as UTF-8",
            diagnostic=True,
        ) from None


def read_text(name: str, stdin: IO[bytes] | None = None) -> str:
    """The whole text of input ``name``, within its limit."""
    shown = "<stdin>" if name == "-" else name
    return decode(shown, read_bytes_of(name, stdin=stdin))


def jsonl_lines(name: str, stdin: IO[bytes] | None = None) -> Iterator[tuple[int, str]]:
    """The non-blank lines of the JSON Lines file ``name`` (``-``: standard input), each
    with its number, a line at a time. A line over one match's limit, or bytes that are
    not UTF-8: :class:`ReadError`, naming the line."""
    handle = open_input(name) if name != "-" else (stdin if stdin is not None else sys.stdin.buffer)
    try:
        with reading(name):
            for number, line, size in bounded_lines(handle, DEFAULT_MAX_BYTES):
                if line is None:
                    raise ReadError(
                        f"{name}:{number}: error size: {long_line(size, DEFAULT_MAX_BYTES)}",
                        diagnostic=True,
                    )
                if line.strip():
                    yield number, decode(name, line, number)
    finally:
        if name != "-":
            handle.close()


def read_chunks(name: str, stdin: IO[bytes] | None = None) -> list[tuple[int, str]]:
    """The documents of input ``name`` as text, each with the line it starts on: a JSON
    Lines file's lines (streamed, each bounded), or the whole of any other file."""
    if is_jsonl(name):
        return list(jsonl_lines(name, stdin))
    text = read_text(name, stdin)
    if detect(name, text) == "jsonl":  # JSON Lines under another name (formats.detect)
        return [(n, line) for n, line in enumerate(text.split("\n"), start=1) if line.strip()]
    return [(1, text)]


# -- matches ------------------------------------------------------------------------


@dataclass(slots=True)
class Read:
    """One match of an input, validated: where it came from (``name``: the input as
    shown, ``<stdin>`` for standard input), its number there (from 1), its format."""

    name: str
    number: int
    format: str
    result: ValidationResult


def _format_error(shown: str, fmt: str, e: ConvertError) -> ReadError:
    where = f"{shown}:{e.line}:{e.column}" if e.line is not None else shown
    return ReadError(
        f"{where}: error format: not {_article(fmt)} {fmt} file: {e.message}", diagnostic=True
    )


def _article(fmt: str) -> str:
    """ "an mk5 file", "a json file": the article as the name is said."""
    return "an" if fmt[:1] in ("a", "e", "i", "o", "m") else "a"


def _no_match(shown: str) -> ReadError:
    return ReadError(f"{shown} holds no match (it is empty, or blank lines only)")


def read_matches(
    names: Iterable[str],
    fmt: str | None = None,
    *,
    stdin: IO[bytes] | None = None,
    expand: bool = True,
) -> Iterator[Read]:
    """Every match of every input, validated, in order: the format ``fmt`` (``--from``)
    or the one each name says, else sniffed. A JSON Lines file is read a line at a time,
    so a corpus of any size streams. With ``expand``, a folder stands for the logs in it
    and a glob for the files it matches (:func:`expand_inputs`); ``-`` is ``stdin``
    (default: the process's standard input). :class:`InputError` for an input that
    cannot be read; :class:`ReadError` for one not in its format, or holding no match."""
    if expand:
        names = expand_inputs(names)
    for name in names:
        shown = "<stdin>" if name == "-" else name
        given = fmt or (format_for_name(name) if is_jsonl(name) else None)
        sources: Iterable[Source]
        if given == "jsonl" and name != "-":
            sources = (Source(number, number, raw=line) for number, line in jsonl_lines(name))
        else:
            text = decode(
                shown, read_bytes_of(name, None if fmt is None else size_limit(fmt), stdin=stdin)
            )
            given = detect(name, text, given)
            if given is None:
                raise InputError(
                    f"cannot tell the format of {shown}; give --from "
                    f"({', '.join(formats.READABLE)})",
                    usage=True,
                )
            if given not in formats.READABLE:
                raise InputError(
                    f"--from {given}: choose one of {', '.join(formats.READABLE)}", usage=True
                )
            try:
                sources = read_sources(text, given)
            except ConvertError as e:
                raise _format_error(shown, given, e) from None
        count = 0
        for src in sources:
            count += 1
            yield Read(shown, src.number, given, validate_source(src))
        if count == 0:
            raise _no_match(shown)


def read_view(name: str, stdin: IO[bytes] | None = None) -> tuple[str, list[ValidationResult]]:
    """Every match of one input (any readable format), validated, for showing one of
    them: our JSON first (the fast path), and what is not JSON, or not ours, is tried
    as the format it looks like. Returns the input as shown and the results."""
    source, _, results = read_view_as(name, stdin)
    return source, results


def read_view_as(
    name: str, stdin: IO[bytes] | None = None
) -> tuple[str, str, list[ValidationResult]]:
    """:func:`read_view`, and the format the input was read as (``json`` for our JSON)."""
    data = read_bytes_of(name, stdin=stdin)
    source = "<stdin>" if name == "-" else name
    fmt = detect(name)
    text: str | None = None
    if fmt in (None, "json"):
        result = validate_bytes(data)
        if result.valid or result.errors[0].rule not in ("json", "format"):
            return source, "json", [result]
        text = decode(source, data)
        fmt = detect(name, text)
        if fmt in (None, "json"):
            return source, "json", [result]
    assert fmt is not None
    if text is None:
        text = decode(source, data)
    try:
        results = [validate_source(s) for s in read_sources(text, fmt)]
    except ConvertError as e:
        raise _format_error(source, fmt, e) from None
    if not results:
        raise _no_match(source)
    return source, fmt, results


def reread(texts: Iterable[str], fmt: str) -> list[ValidationResult]:
    """Text just written in format ``fmt``, read back and validated (a writer's check
    that what it wrote is what it was given); :class:`ConvertError` if it is not in that format."""
    return [validate_source(s) for text in texts for s in read_sources(text, fmt)]
