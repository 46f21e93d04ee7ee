"""Reading and writing every format the tool knows: one registry, no file I/O.

Readers take text and give :class:`Source` records (a JSON-ready document with
the source position of each JSON pointer); :func:`validated` turns them into
checked matches; writers take matches and give text. The CLI picks formats from
file names (:func:`format_for_name`) or ``--from``/``--to``.

=====================  ====================  =====  =====  ==========================
name                   file names            read   write  one file holds
=====================  ====================  =====  =====  ==========================
``json``               ``*.json``            yes    yes    one match
``jsonl``              ``*.jsonl``           yes    yes    many matches, one a line
``text``               ``*.t42``             yes    yes    many matches
``texas-42-receipt``   ``*.receipt``         yes    yes    one match
``plunge-code``        ``*.plunge``          yes    yes    one match, a code a hand
``plunge-hand-v2``     ``*.plunge.json[l]``  yes    yes    one match, a record a hand
``tricksy``            ``*.tricksy.json[l]`` yes    yes    many matches, a bundle each
``csv``                ``*.csv``             no     yes    many matches, a row a play
=====================  ====================  =====  =====  ==========================
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..log.foreign import CannotExport, ForeignFormatError
from ..log.inert import dumps
from ..log.model import Match, match_json
from ..log.notation import NotationError, ParsedMatch, parse_text, position, write_text
from ..log.strictjson import JSONError, loads
from .validate import ValidationResult, validate_bytes, validate_doc

__all__ = [
    "FORMATS",
    "READABLE",
    "WRITABLE",
    "ConvertError",
    "Source",
    "format_for_name",
    "format_named",
    "other_names",
    "ALIASES",
    "sniff",
    "read_sources",
    "validated",
    "match_json",
    "write_matches",
    "csv_rows",
    "CannotExport",
    "size_limit",
    "FILE_LIMIT",
]

FORMATS = ("json", "jsonl", "text", "texas-42-receipt", "plunge-code", "plunge-hand-v2", "tricksy", "csv")
READABLE = FORMATS[:-1]
WRITABLE = FORMATS
#: Formats whose file holds one match only.
SINGLE = {"json", "texas-42-receipt", "plunge-code", "plunge-hand-v2"}
EXTENSIONS = {
    "json": ".json", "jsonl": ".jsonl", "text": ".t42", "texas-42-receipt": ".receipt",
    "plunge-code": ".plunge", "plunge-hand-v2": ".plunge.jsonl", "tricksy": ".tricksy.json", "csv": ".csv",
}

#: The other names users type for a format (``--to t42``, ``--from receipt``): its
#: file extensions and the names other tools and people use. A format's own name and
#: its extension (with or without the dot) always work too (:func:`format_named`).
ALIASES = {
    "t42": "text", "notation": "text",
    "ndjson": "jsonl", "json-lines": "jsonl", "jsonlines": "jsonl",
    "receipt": "texas-42-receipt", "texas42-receipt": "texas-42-receipt",
    "plunge": "plunge-code", "plunge-replay-code": "plunge-code",
    "plunge-hand": "plunge-hand-v2", "plunge-record": "plunge-hand-v2", "plunge.json": "plunge-hand-v2",
    "plunge.jsonl": "plunge-hand-v2",
    "tricksy-json": "tricksy", "tricksy.json": "tricksy", "tricksy.jsonl": "tricksy",
}


def format_named(name: str) -> str | None:
    """The format a user means by ``name`` (``json``, ``t42``, ``.t42``, ``Receipt``), or None."""
    key = name.strip().lower().lstrip(".")
    if key in FORMATS:
        return key
    return ALIASES.get(key)


def other_names(fmt: str) -> list[str]:
    """The names besides its own that a user may type for ``fmt`` (not its extensions)."""
    return sorted(a for a, f in ALIASES.items() if f == fmt and "." not in a)


#: The most a file that holds many matches (text, tricksy bundles) may be when it is read whole.
FILE_LIMIT = 256 * 1024 * 1024


def size_limit(fmt: str | None) -> int:
    """The most bytes a file of format ``fmt`` (None: not known yet) is read whole:
    one match's worth for a one-match format, :data:`FILE_LIMIT` otherwise."""
    from .validate import DEFAULT_MAX_BYTES

    return DEFAULT_MAX_BYTES if fmt in SINGLE else FILE_LIMIT


class ConvertError(ValueError):
    """The input is not in its format (``line``/``column`` when known)."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


@dataclass(slots=True)
class Source:
    """One match as read: its number in the input (from 1), the first line it
    starts on, and either the raw JSON (our format) or a built document."""

    number: int
    line: int
    raw: str | None = None
    doc: dict[str, Any] | None = None
    positions: dict[str, tuple[int, int]] = field(default_factory=dict)


def format_for_name(name: str) -> str | None:
    """The format a file name says, or None."""
    lower = name.lower()
    for suffix, fmt in (
        (".plunge.json", "plunge-hand-v2"), (".plunge.jsonl", "plunge-hand-v2"),
        (".tricksy.json", "tricksy"), (".tricksy.jsonl", "tricksy"),
        (".jsonl", "jsonl"), (".ndjson", "jsonl"), (".json", "json"), (".t42", "text"),
        (".receipt", "texas-42-receipt"), (".plunge", "plunge-code"), (".csv", "csv"),
    ):
        if lower.endswith(suffix):
            return fmt
    return None


def sniff(text: str) -> str | None:
    """The format of a text whose name says nothing (``.txt``, standard input)."""
    from ..log.foreign import receipt

    head = text.lstrip("\ufeff \t\r\n")
    if receipt.looks_like(head):
        return "texas-42-receipt"
    if head.startswith("v1") or head.startswith("#r=v1"):
        return "plunge-code"
    if head.startswith("[") and not head.startswith("[{") and not head.startswith("[\n"):
        return "text"
    if head.lower().startswith("hand "):
        return "text"
    if head.startswith("{"):
        first = head.split("\n", 1)[0]
        if re.search(r'"schema"\s*:\s*"plunge-(hand-v[12]|history-v1)"', head[:400]):
            return "plunge-hand-v2"
        if '"events"' in head and '"seats"' in head:
            return "tricksy"
        try:
            loads(first)
            return "jsonl" if "\n" in head.strip() else "json"
        except JSONError:
            return "json"
    return None


def read_sources(text: str, fmt: str) -> list[Source]:
    """Every match of ``text`` in format ``fmt``; :class:`ConvertError` if it is not in that format."""
    try:
        if fmt == "json":
            return [Source(1, 1, raw=text)]
        if fmt == "jsonl":
            out: list[Source] = []
            for ln, line in enumerate(text.split("\n"), start=1):
                if line.strip():
                    out.append(Source(len(out) + 1, ln, raw=line))
            return out
        if fmt == "text":
            return [_from_parsed(k + 1, pm) for k, pm in enumerate(parse_text(text))]
        if fmt == "texas-42-receipt":
            from ..log.foreign.receipt import read_receipt

            return [_from_parsed(1, read_receipt(text))]
        if fmt == "plunge-code":
            from ..log.foreign.plunge import read_codes

            return [_from_parsed(1, read_codes(text))]
        if fmt == "plunge-hand-v2":
            from ..log.foreign.plunge import read_records

            return [_from_parsed(1, read_records(text))]
        if fmt == "tricksy":
            from ..log.foreign.tricksy import read_bundles

            return [_from_parsed(k + 1, pm) for k, pm in enumerate(read_bundles(text))]
    except (NotationError, ForeignFormatError) as e:
        raise ConvertError(e.message, e.line, e.column) from None
    raise ConvertError(f"cannot read the format {fmt!r}; readable: {', '.join(READABLE)}")


def _from_parsed(number: int, pm: ParsedMatch) -> Source:
    return Source(number, pm.line, doc=pm.doc, positions=pm.positions)


def validated(src: Source) -> ValidationResult:
    """Validate one source (structure and rules), diagnostics placed in the source's text."""
    if src.raw is not None:
        result = validate_bytes(src.raw)
        if src.line != 1:  # a JSON Lines line: its line is the file's
            for d in result.diagnostics:
                if d.line is not None:
                    d.line += src.line - 1
                else:
                    d.line, d.column = src.line, 1
        return result
    assert src.doc is not None
    positions = src.positions
    return validate_doc(src.doc, lambda p: position(positions, p))


def _led_name(suit: int | None) -> str:
    if suit is None:
        return ""
    return {7: "trumps", 8: "doubles"}.get(suit, str(suit))


CSV_COLUMNS = ("match", "hand", "trick", "play", "seat", "tile", "led_suit", "trump", "contract",
               "bidder", "winner", "points")


def csv_rows(matches: Iterable[Match], start: int = 1) -> Iterable[dict[str, Any]]:
    """One row per play (rejected attempts left out): where, who, what, and the trick's result.
    Matches are numbered from ``start``."""
    from ..log.replayed import replay_match

    for m_no, match in enumerate(matches, start=start):
        _, facts = replay_match(match)
        for f in facts:
            if f.contract is None or f.trump is None:
                continue
            contract = f.contract.special or f.contract.kind.value
            trump = "none" if f.contract.special in ("nello", "sevens") else f.trump.value
            k = 0
            for t in f.tricks:
                for seat, tile in t.plays:
                    k += 1
                    complete = t.winner is not None
                    yield {
                        "match": m_no, "hand": f.index + 1, "trick": t.number, "play": k, "seat": seat,
                        "tile": str(tile), "led_suit": _led_name(t.led), "trump": trump, "contract": contract,
                        "bidder": f.contract.bidder, "winner": t.winner if complete else "",
                        "points": t.points if complete else "",
                    }


#: Formats a file of which holds many matches, written a match at a time.
STREAMED = ("jsonl", "text", "csv", "tricksy")


def write_chunk(match: Match, fmt: str, number: int) -> str:
    """Match ``number`` (from 1) of a file of format ``fmt`` in :data:`STREAMED`: the
    file is these chunks one after another, so a corpus of any size streams."""
    if fmt == "jsonl":
        return dumps(match_json(match), separators=(",", ":")) + "\n"
    if fmt == "text":
        return ("\n" if number > 1 else "") + write_text(match)
    if fmt == "tricksy":
        from ..log.foreign.tricksy import write_bundle

        return write_bundle(match)
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=CSV_COLUMNS, lineterminator="\n")
        if number == 1:
            w.writeheader()
        for row in csv_rows([match], start=number):
            w.writerow(row)
        return buf.getvalue()
    raise CannotExport(f"a {fmt} file holds one match; it is not written a match at a time")


def write_matches(matches: list[Match], fmt: str) -> str:
    """``matches`` in format ``fmt``; :class:`CannotExport` when the format cannot hold them."""
    if fmt in SINGLE and len(matches) != 1:
        raise CannotExport(f"a {fmt} file holds one match, and there are {len(matches)}; write .jsonl, "
                           "or give a directory as the output to write one file per match")
    if fmt in STREAMED:
        if fmt == "csv" and not matches:
            return ",".join(CSV_COLUMNS) + "\n"  # the header alone
        return "".join(write_chunk(m, fmt, k) for k, m in enumerate(matches, start=1))
    if fmt == "json":
        return dumps(match_json(matches[0]), indent=2) + "\n"
    if fmt == "texas-42-receipt":
        from ..log.foreign.receipt import write_receipt

        return write_receipt(matches[0])
    if fmt == "plunge-code":
        from ..log.foreign.plunge import write_codes

        return write_codes(matches[0])
    if fmt == "plunge-hand-v2":
        from ..log.foreign.plunge import write_records

        return write_records(matches[0])
    raise CannotExport(f"cannot write the format {fmt!r}; writable: {', '.join(WRITABLE)}")

