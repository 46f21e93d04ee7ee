"""Reading and writing every format the tool knows: one registry, no file I/O.

Readers take text and give :class:`Source` records (a JSON-ready document with
the source position of each JSON pointer); :func:`.reader.validate_source` turns them into
checked matches; writers take matches and give text. The CLI picks formats from
file names (:func:`format_for_name`) or ``--from``/``--to``.

Every format is one :class:`Format` in :data:`REGISTRY`, made known by :func:`register`;
what a format is, can hold and loses is a field of it, so that no command asks for a
format by its name. ``texas42 convert --help`` and docs/conversions.md list them.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..log.foreign import CannotExport
from ..log.inert import dumps
from ..log.model import Match, match_json
from ..log.positions import PositionedError
from ..log.strictjson import JSONError, loads
from .spreadsheet import csv_chunk, csv_file, csv_renumber, csv_rows

if TYPE_CHECKING:
    from ..log.notation import ParsedMatch

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
    "detect",
    "read_sources",
    "match_json",
    "write_matches",
    "write_losses",
    "csv_rows",
    "CannotExport",
    "size_limit",
    "FILE_LIMIT",
    "Format",
    "register",
    "register_format",
    "REGISTRY",
    "write_hand",
    "hand_formats",
    "holds_comments",
    "parallel",
    "one_a_line",
    "renumbered",
    "dropped_lines",
    "write_documents",
    "OURS",
]

#: Every format the tool knows, by name, in the order they were registered (:func:`register`).
REGISTRY: dict[str, Format] = {}


@dataclass(frozen=True, slots=True)
class Format:
    """One format the tool reads or writes. Register it with :func:`register`: that one
    call is all it takes for every command, the reader, ``--from``/``--to`` and the
    sniffer to know it.

    ``read`` turns a file's text into its matches (:class:`ConvertError` where it is
    not in the format); ``write`` turns matches into a file's text (a one-match format
    is given exactly one); ``chunk`` writes one match as a many-match file's first, so
    that a corpus streams (and ``renumber`` puts it in its place). ``looks_like`` tells
    the format from the start of a text whose name says nothing (standard input,
    ``.txt``)."""

    name: str
    #: File name endings, such as ``(".plunge.json", ".plunge.jsonl")``; the first is written.
    suffixes: tuple[str, ...]
    #: Other names a user may type for it (``--to t42``): its extensions always work too.
    aliases: tuple[str, ...] = ()
    read: Callable[[str], list[Source]] | None = None
    write: Callable[[list[Match]], str] | None = None
    chunk: Callable[[Match], str] | None = None
    #: A file of the format holds one match.
    single: bool = True
    looks_like: Callable[[str], bool] | None = None
    #: For the formats table of ``--help`` and docs/conversions.md.
    summary: str = ""
    #: Suffixes a folder search skips (a ``.url`` file links to anything at all): a file
    #: of one is still read when it is named.
    unsearched: tuple[str, ...] = ()
    #: What writing a match in the format leaves out or changes, each a sentence the
    #: commands say as a note (:func:`write_losses`). Said as each match is written, so
    #: a format with losses is converted in one process.
    losses: Callable[[Match], list[str]] | None = None
    #: A chunk written as the file's first made match ``number`` of it (CSV's header and
    #: first column, the text's blank line between matches); without it a chunk reads
    #: the same whatever its place.
    renumber: Callable[[str, int], str] | None = None
    #: A file of the format keeps the matches' comments.
    comments: bool = True
    #: The texas42-log format itself (JSON, JSON Lines, the text notation): what
    #: ``annotate`` and ``redact`` write.
    ours: bool = False
    #: A JSON-ready document written without building its match (``generate``'s fast way).
    document: Callable[[dict[str, Any]], str] | None = None
    #: One hand of a match as a text of its own (mk5's link that opens it at its deal).
    hand: Callable[[Match, int], str] | None = None
    #: The lines of a file that rewriting it drops (the notation's ``;`` remarks).
    dropped: Callable[[str], list[int]] | None = None
    #: A match a line: a file of it may be cut at any line end (a corpus converted or
    #: validated on several processes).
    lines: bool = False


def register(fmt: Format) -> Format:
    """Make ``fmt`` known to every command and to the reader (:mod:`.reader`). A name
    already registered is replaced. Returns ``fmt``."""
    REGISTRY[fmt.name] = fmt
    _refresh()
    return fmt


#: :func:`register` under the name the package exports it by.
register_format = register


# The tables below are rebound by each registration: read them as ``formats.READABLE``
# (or import them inside a function), not bound once at import time.
FORMATS: tuple[str, ...] = ()
READABLE: tuple[str, ...] = ()
WRITABLE: tuple[str, ...] = ()
#: Formats whose file holds one match only.
SINGLE: set[str] = set()
#: Formats a file of which holds many matches, written a match at a time.
STREAMED: tuple[str, ...] = ()
EXTENSIONS: dict[str, str] = {}
#: The texas42-log format's own spellings (:attr:`Format.ours`).
OURS: tuple[str, ...] = ()
#: The other names users type for a format (``--to t42``, ``--from receipt``): its
#: file extensions and the names other tools and people use. A format's own name and
#: its extension (with or without the dot) always work too (:func:`format_named`).
ALIASES: dict[str, str] = {}
_SUFFIXES: list[tuple[str, str]] = []


def _refresh() -> None:
    """The tables derived from :data:`REGISTRY` (kept as plain values: they are read often)."""
    global FORMATS, READABLE, WRITABLE, STREAMED, OURS
    fmts = list(REGISTRY.values())
    FORMATS = tuple(f.name for f in fmts)
    READABLE = tuple(f.name for f in fmts if f.read is not None)
    WRITABLE = tuple(f.name for f in fmts if f.write is not None or f.chunk is not None)
    STREAMED = tuple(f.name for f in fmts if f.chunk is not None)
    OURS = tuple(f.name for f in fmts if f.ours)
    SINGLE.clear()
    SINGLE.update(f.name for f in fmts if f.single)
    EXTENSIONS.clear()
    EXTENSIONS.update({f.name: f.suffixes[0] for f in fmts if f.suffixes})
    ALIASES.clear()
    for f in fmts:
        for alias in f.aliases + tuple(x.lstrip(".") for x in f.suffixes):
            if alias != f.name:
                ALIASES.setdefault(alias, f.name)
    _SUFFIXES[:] = sorted(
        ((x, f.name) for f in fmts for x in f.suffixes), key=lambda sx: -len(sx[0])
    )


def format_named(name: str) -> str | None:
    """The format a user means by ``name`` (``json``, ``t42``, ``.t42``, ``Receipt``), or None."""
    key = name.strip().lower().lstrip(".")
    if key in REGISTRY:
        return key
    if key in ALIASES:
        return ALIASES[key]
    return next((f for x, f in _SUFFIXES if x.lstrip(".") == key), None)


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


class ConvertError(PositionedError):
    """The input is not in its format (``line``/``column`` when known)."""


@dataclass(slots=True)
class Source:
    """One match as read: its number in the input (from 1), the first line it
    starts on, and either the raw JSON (our format) or a built document."""

    number: int
    line: int
    raw: str | None = None
    doc: dict[str, Any] | None = None
    positions: dict[str, tuple[int, int]] = field(default_factory=dict)


def searched_suffixes() -> tuple[str, ...]:
    """The file name endings a folder is searched for: every readable format's, from
    the registry (so a format registered from Python is found in folders too). A
    longer ending that a shorter one covers (``.plunge.json`` under ``.json``) is left
    out: the file is found, and its name then says its format."""
    ends = [
        x
        for f in REGISTRY.values()
        if f.read is not None
        for x in f.suffixes
        if x not in f.unsearched
    ]
    return tuple(x for x in dict.fromkeys(ends) if not any(x != y and x.endswith(y) for y in ends))


def format_list(names: Iterable[str]) -> str:
    """``names`` as a sentence's list: "a, b and c"."""
    items = list(names)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def format_for_name(name: str) -> str | None:
    """The format a file name says, or None."""
    lower = name.lower()
    return next((f for x, f in _SUFFIXES if lower.endswith(x)), None)


def sniff(text: str) -> str | None:
    """The format of a text by its content alone: the first registered format that
    recognises its start, else JSON Lines (a first line that is a whole JSON object,
    and more lines after it), else JSON (an object), else None."""
    head = text.lstrip("\ufeff \t\r\n")
    for fmt in REGISTRY.values():
        if fmt.looks_like is not None and fmt.looks_like(head):
            return fmt.name
    if head.startswith("{"):
        first, newline, rest = head.partition("\n")
        if not newline or not rest.strip():
            return "json"  # one line: never parsed here, however long
        try:
            loads(first)
        except JSONError:
            return "json"
        return "jsonl"
    return None


def detect(name: str, text: str | None = None, given: str | None = None) -> str | None:
    """The format of an input, decided the same way by every reader (docs/conversions.md,
    "How a file's format is told"): what the user names (``given``, ``--from``) wins;
    otherwise the content where it is unambiguous — matches one a line (JSON Lines)
    read as JSON Lines when the name says JSON or nothing (``two.json``, ``two.txt``,
    standard input); otherwise the name; otherwise the content as :func:`sniff` tells
    it. ``text`` None: the content is not read yet, and only ``given`` or the name can
    tell (a ``.jsonl`` file, streamed a line at a time)."""
    if given is not None:
        return given
    named = format_for_name(name) if name != "-" else None
    if text is None or named not in (None, "json"):
        return named
    sniffed = sniff(text)
    if named == "json":
        return "jsonl" if sniffed == "jsonl" else named
    return sniffed


def read_sources(text: str, fmt: str) -> list[Source]:
    """Every match of ``text`` in format ``fmt``; :class:`ConvertError` if it is not in that
    format."""
    reader = REGISTRY[fmt].read if fmt in REGISTRY else None
    if reader is None:
        raise ConvertError(f"cannot read the format {fmt!r}; readable: {', '.join(READABLE)}")
    try:
        return reader(text)
    except ConvertError:
        raise
    except PositionedError as e:  # the notation's, another program's, strict JSON's
        raise ConvertError(e.message, e.line, e.column) from None


def _from_parsed(number: int, pm: ParsedMatch) -> Source:
    return Source(number, pm.line, doc=pm.doc, positions=pm.positions)


def write_chunk(match: Match, fmt: str, number: int = 1) -> str:
    """Match ``number`` (from 1) of a file of format ``fmt`` in :data:`STREAMED`: the
    file is these chunks one after another, so a corpus of any size streams. Number 1
    is the match as a file of its own (what a worker writes, what a check reads back)."""
    chunk = REGISTRY[fmt].chunk if fmt in REGISTRY else None
    if chunk is None:
        raise CannotExport(f"a {fmt} file holds one match; it is not written a match at a time")
    return renumbered(chunk(match), fmt, number)


def renumbered(first: str, fmt: str, number: int) -> str:
    """A chunk written as match 1 of a ``fmt`` file, made match ``number`` of it."""
    renumber = REGISTRY[fmt].renumber
    return first if renumber is None or number == 1 else renumber(first, number)


def parallel(fmt: str) -> bool:
    """Whether a conversion to ``fmt`` may write its chunks on several processes: it
    streams and has no losses to say as each match is written."""
    f = REGISTRY.get(fmt)
    return f is not None and f.chunk is not None and f.losses is None


def one_a_line(fmt: str | None) -> bool:
    """Whether a ``fmt`` file holds a match a line (:attr:`Format.lines`)."""
    f = REGISTRY.get(fmt) if fmt is not None else None
    return f is not None and f.lines


def holds_comments(fmt: str) -> bool:
    """Whether a ``fmt`` file keeps the matches' comments."""
    f = REGISTRY.get(fmt)
    return f is None or f.comments


def hand_formats() -> list[str]:
    """The formats that write one hand of a match as a text of its own."""
    return [f.name for f in REGISTRY.values() if f.hand is not None]


def write_hand(match: Match, number: int, fmt: str) -> str:
    """Hand ``number`` (from 1) of ``match`` as a ``fmt`` text of its own."""
    hand = REGISTRY[fmt].hand if fmt in REGISTRY else None
    if hand is None:
        raise CannotExport(f"{fmt} writes no hand alone; {format_list(hand_formats())} does")
    return hand(match, number)


def dropped_lines(text: str, fmt: str) -> list[int]:
    """The lines of a ``fmt`` file's ``text`` that rewriting it drops."""
    f = REGISTRY.get(fmt)
    return [] if f is None or f.dropped is None else f.dropped(text)


def write_documents(docs: Iterable[dict[str, Any]], fmt: str) -> Iterator[str]:
    """JSON-ready documents (valid matches) written as a ``fmt`` file, chunk by chunk:
    straight from the documents for our JSON formats, through the models otherwise."""
    f = REGISTRY[fmt]
    if f.document is not None:
        yield from (f.document(doc) for doc in docs)
        return
    matches = [Match.model_validate(doc) for doc in docs]
    yield write_matches(matches, fmt)


def write_matches(matches: list[Match], fmt: str) -> str:
    """``matches`` in format ``fmt``; :class:`CannotExport` when the format cannot hold them."""
    if fmt not in WRITABLE:
        raise CannotExport(f"cannot write the format {fmt!r}; writable: {', '.join(WRITABLE)}")
    f = REGISTRY[fmt]
    if f.single and len(matches) != 1:
        raise CannotExport(
            f"a {fmt} file holds one match, and there are {len(matches)}; write .jsonl, "
            "or give a directory as the output to write one file per match"
        )
    if f.write is not None:
        return f.write(matches)
    return "".join(write_chunk(m, fmt, k) for k, m in enumerate(matches, start=1))


def write_losses(matches: list[Match], fmt: str) -> list[str]:
    """What writing ``matches`` in ``fmt`` leaves out or changes (the format's
    ``losses``), each sentence once, in order."""
    f = REGISTRY.get(fmt)
    if f is None or f.losses is None:
        return []
    return list(dict.fromkeys(line for m in matches for line in f.losses(m)))


# -- the formats ---------------------------------------------------------------------


def _parsed(
    read: Callable[[str], ParsedMatch | list[ParsedMatch]],
) -> Callable[[str], list[Source]]:
    """A reader of :class:`ParsedMatch`\\ es as a reader of sources."""

    def sources(text: str) -> list[Source]:
        got = read(text)
        return [
            _from_parsed(k + 1, pm) for k, pm in enumerate(got if isinstance(got, list) else [got])
        ]

    return sources


def _json_lines(text: str) -> list[Source]:
    out: list[Source] = []
    for ln, line in enumerate(text.split("\n"), start=1):
        if line.strip():
            out.append(Source(len(out) + 1, ln, raw=line))
    return out


def _lazy(module: str, name: str) -> Callable[..., Any]:
    """``name`` of ``texas42_log.log.<module>``, imported at its first call: a format's
    code loads when the format is used, not when the registry is."""
    found: list[Callable[..., Any]] = []

    def call(*args: Any) -> Any:
        if not found:
            found.append(getattr(importlib.import_module(f"..log.{module}", __package__), name))
        return found[0](*args)

    return call


def _one(write: Callable[[Match], str]) -> Callable[[list[Match]], str]:
    """The writer of a one-match format (:func:`write_matches` has checked there is one)."""
    return lambda matches: write(matches[0])


_write_text = _lazy("notation", "write_text")
_write_bundle = _lazy("foreign.tricksy_write", "write_bundle")
_write_mk5 = _lazy("foreign.mk5_write", "write_links")


def _text_looks_like(head: str) -> bool:
    if head[:18].lower() == "[internetshortcut]":
        return False  # a saved link (.url), not a tag
    return (
        head.startswith("[") and not head.startswith("[{") and not head.startswith("[\n")
    ) or head.lower().startswith("hand ")


register(
    Format(
        "json",
        (".json",),
        read=lambda text: [Source(1, 1, raw=text)],
        write=lambda ms: dumps(match_json(ms[0]), indent=2) + "\n",
        ours=True,
        document=lambda doc: dumps(doc, indent=2) + "\n",
        summary="texas42-log JSON: one match",
    )
)
register(
    Format(
        "jsonl",
        (".jsonl", ".ndjson"),
        ("json-lines", "jsonlines"),
        read=_json_lines,
        chunk=lambda m: dumps(match_json(m), separators=(",", ":")) + "\n",
        single=False,
        lines=True,
        ours=True,
        document=lambda doc: dumps(doc, separators=(",", ":")) + "\n",
        summary="texas42-log JSON Lines: a match a line",
    )
)
register(
    Format(
        "text",
        (".t42",),
        ("notation",),
        read=_parsed(_lazy("notation", "parse_text")),
        chunk=_write_text,
        renumber=lambda first, n: "\n" + first,
        single=False,
        ours=True,
        dropped=_lazy("notation", "remark_lines"),
        looks_like=_text_looks_like,
        summary="the text notation (docs/notation.md): many matches",
    )
)
register(
    Format(
        "texas-42-receipt",
        (".receipt",),
        ("texas42-receipt",),
        read=_parsed(_lazy("foreign.receipt", "read_receipt")),
        write=_one(_lazy("foreign.receipt", "write_receipt")),
        comments=False,
        looks_like=_lazy("foreign.receipt", "looks_like"),
        summary="the texas-42 research engine's self-play receipt: one match",
    )
)
register(
    Format(
        "plunge-code",
        (".plunge",),
        ("plunge-replay-code",),
        read=_parsed(_lazy("foreign.plunge", "read_codes")),
        write=_one(_lazy("foreign.plunge", "write_codes")),
        looks_like=lambda head: head.startswith("v1") or head.startswith("#r=v1"),
        summary="the plunge app's replay codes: one match, a code a hand",
    )
)
register(
    Format(
        "plunge-hand-v2",
        (".plunge.jsonl", ".plunge.json"),
        ("plunge-hand", "plunge-record"),
        read=_parsed(_lazy("foreign.plunge", "read_records")),
        write=_one(_lazy("foreign.plunge", "write_records")),
        losses=_lazy("foreign.plunge", "record_losses"),
        comments=False,
        looks_like=lambda head: (
            head.startswith("{")
            and bool(re.search(r'"schema"\s*:\s*"plunge-(hand-v[12]|history-v1)"', head[:400]))
        ),
        summary="the plunge app's hand records: one match, a record a hand",
    )
)
register(
    Format(
        "tricksy",
        (".tricksy.json", ".tricksy.jsonl"),
        ("tricksy-json",),
        read=_parsed(_lazy("foreign.tricksy", "read_bundles")),
        chunk=_write_bundle,
        losses=_lazy("foreign.tricksy_write", "bundle_losses"),
        single=False,
        looks_like=lambda head: head.startswith("{") and '"events"' in head and '"seats"' in head,
        summary="the tricksy engine's event log: many matches, a bundle each",
    )
)
register(
    Format(
        "mk5",
        (".mk5", ".url"),
        ("mk5-link", "link"),
        unsearched=(".url",),
        read=_parsed(_lazy("foreign.mk5_replay", "read_links")),
        chunk=_write_mk5,
        hand=_lazy("foreign.mk5_write", "hand_text"),
        losses=_lazy("foreign.mk5_write", "link_losses"),
        single=False,
        looks_like=_lazy("foreign.mk5", "looks_like"),
        summary="the mk5 web app's share links: many matches, a link a line",
    )
)
register(
    Format(
        "csv",
        (".csv",),
        chunk=csv_chunk,
        renumber=csv_renumber,
        write=csv_file,
        comments=False,
        single=False,
        summary="a spreadsheet: a row a play (written only)",
    )
)
