"""Structural fuzzing of every reader: the mutations, the samples, and the oracle.

Used by tests/test_structural_fuzz.py (hypothesis, bounded) and tools/fuzz.py (a
long run of a million inputs and more). A mutation is a short list of operations,
each a kind, two positions (fractions of the input) and a hostile payload; the
same list always gives the same input, so hypothesis can shrink a failure to the
smallest list that shows it, and a long run can print the list that broke.

The oracle reads a mutated input exactly as the CLI does (decode, the format's
reader, validation, and for an input that reads as valid: writing it back in its
own format and as JSON, and rendering its views) and accepts only the documented
outcomes: a one-sentence refusal with a position (``ConvertError``, a decoding
error, an ``InputError``), or a judged document whose diagnostics each have a rule
and a one-line message. Any other exception is a finding.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from texas42_log.files.formats import CannotExport, ConvertError, read_sources, write_matches
from texas42_log.files.reader import validate_source
from texas42_log.files.validate import validate_bytes
from texas42_log.log.inert import dumps
from texas42_log.log.model import Match
from texas42_log.log.notation import write_text

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "fixtures"

#: Operations on any input (bytes) and on JSON trees.
BYTE_OPS = (
    "flip",
    "truncate",
    "delete",
    "insert",
    "splice",
    "dup-line",
    "del-line",
    "swap-lines",
    "replace-token",
)
TREE_OPS = ("retype", "dup-key", "del-node", "dup-node", "deepen")
OPS = BYTE_OPS + TREE_OPS

#: What a hostile user puts in: the classes of the hostile-input catalogue, as tokens.
PAYLOADS: tuple[bytes, ...] = (
    b"9" * 5000,
    b"9" * 400,
    b"NaN",
    b"Infinity",
    b"-Infinity",
    b"1e999",
    b'"\\ud800"',
    b'"\\udc00x"',
    "\u0663\u0660".encode(),
    "3\u00b2".encode(),
    "\u0967".encode(),
    b"\x1b[2J",
    "\u202e".encode(),
    b"\x00",
    b"[" * 300,
    b'{"a":1,"a":2}',
    b"",
    b"null",
    b"true",
    b'"x"',
    b"-1",
    b"0",
    b"99999999",
    b"\xff\xfe",
    b"{",
    b"}",
    b"[",
    b"]",
    b'"',
    b",",
    b":",
    b"\n",
    b"\r\n",
    b"\t",
    "\ufeff".encode(),
    b"\\",
    b"{x}",
    b"&{}",
    b"@",
    b";",
    b"(rejected)",
    b"[6|9]",
    b"5-5",
    b"pass",
    b"2m plunge",
    b"Hand 2: dealer Q",
    b"trick 9:",
    b"%",
    b"%7E%3F",
    b"~",
    b"&s=",
    b"%C3%28",
    b"&i=AAAAAAAAAAAAAAAAAAAAAAAA",
    b"?",
    b"#",
)
#: Values a retyped node becomes.
VALUES: tuple[Any, ...] = (
    None,
    0,
    -1,
    10**30,
    1.5,
    "",
    "x",
    "[6|9]",
    "9-9",
    [],
    {},
    [1, 2],
    {"a": 1},
    True,
    "A",
    "E",
    "\u202e",
    "\x1b[2J",
    "\u0663",
    7,
    42,
    1_000_001,
    "NaN",
)


@dataclass(frozen=True)
class Sample:
    fmt: str
    data: bytes


def _load(path: Path) -> bytes:
    return path.read_bytes()


def _t42(name: str) -> bytes:
    return write_text(Match.model_validate_json((FIX / "valid" / name).read_bytes())).encode(
        "utf-8"
    )


def samples() -> list[Sample]:
    """One or two samples of every readable format."""
    small = json.loads((FIX / "valid" / "seed-worked-example.json").read_text("utf-8"))
    small["hands"] = small["hands"][:2]
    small["status"] = "unfinished"
    small.pop("result", None)
    line = json.dumps(small, separators=(",", ":")).encode()
    return [
        Sample("json", _load(FIX / "valid" / "annotations-extensions-rejected.json")),
        Sample("json", json.dumps(small, indent=1).encode()),
        Sample("jsonl", line + b"\n" + line + b"\n"),
        Sample("text", _t42("annotations-extensions-rejected.json")),
        Sample("text", _t42("variant-casual-nello-plunge-splash.json")),
        Sample("texas-42-receipt", _load(FIX / "foreign" / "texas-42" / "doubles_trump.receipt")),
        Sample(
            "plunge-code",
            _load(
                FIX / "foreign" / "plunge" / "P3_casual_plunge_partner_declares_and_leads.plunge"
            ),
        ),
        Sample("plunge-hand-v2", _load(FIX / "foreign" / "plunge" / "P1_record.plunge.json")),
        Sample(
            "tricksy",
            _load(
                FIX
                / "foreign"
                / "tricksy"
                / "T3_plunge_declined_then_accepted_doubles_trump.tricksy.json"
            ),
        ),
        Sample("mk5", _load(FIX / "foreign" / "mk5" / "sample-splash.url")),
        Sample("mk5", _load(FIX / "foreign" / "mk5" / "sample-tournament.url")),
    ]


Op = tuple[str, float, float, int]


def _at(n: int, f: float) -> int:
    return min(n, max(0, int(f * (n + 1))))


def _nodes(tree: Any) -> list[tuple[Any, Any]]:
    """(container, key) of every node under the root, in document order."""
    out: list[tuple[Any, Any]] = []
    stack = [tree]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            for k in v:
                out.append((v, k))
                stack.append(v[k])
        elif isinstance(v, list):
            for i in range(len(v)):
                out.append((v, i))
                stack.append(v[i])
    return out


def _tree_op(data: bytes, kind: str, a: float, b: float, k: int) -> bytes:
    try:
        tree = json.loads(data)
    except (ValueError, RecursionError):
        return data
    nodes = _nodes(tree)
    if not nodes:
        return data
    parent, key = nodes[_at(len(nodes) - 1, a)]
    value = VALUES[k % len(VALUES)]
    if kind == "retype":
        parent[key] = value
    elif kind == "del-node":
        del parent[key]
    elif kind == "dup-node" and isinstance(parent, list):
        parent.insert(key, parent[key])
    elif kind == "deepen":
        inner = parent[key]
        for _ in range(1 + int(b * 400)):
            inner = [inner]
        parent[key] = inner
    try:
        text = json.dumps(tree).encode("ascii")  # escaped: a lone surrogate stays an escape
    except (RecursionError, ValueError):
        return data  # deepened past what json writes: leave the input as it was
    if kind == "dup-key":
        # duplicate one key of the document's text: "k": v, "k": v
        objs = [(p, q) for p, q in nodes if isinstance(p, dict)]
        if objs:
            p, q = objs[_at(len(objs) - 1, b)]
            member = json.dumps({q: p[q]})[1:-1].encode("ascii")
            at = text.find(member)
            if at >= 0:
                text = text[:at] + member + b", " + text[at:]
    return text


def mutate(data: bytes, ops: list[Op], others: list[bytes]) -> bytes:
    """``data`` after ``ops`` (see the module's notes); ``others`` are splice sources."""
    for kind, a, b, k in ops:
        payload = PAYLOADS[k % len(PAYLOADS)]
        n = len(data)
        i = _at(n, a)
        j = min(n, i + _at(64, b))
        if kind == "flip" and n:
            pos = min(i, n - 1)
            data = data[:pos] + bytes([data[pos] ^ (1 << (k % 8))]) + data[pos + 1 :]
        elif kind == "truncate":
            data = data[:i]
        elif kind == "delete":
            data = data[:i] + data[j:]
        elif kind == "insert":
            data = data[:i] + payload + data[i:]
        elif kind == "replace-token":
            data = data[:i] + payload + data[j:]
        elif kind == "splice" and others:
            src = others[k % len(others)]
            s = _at(len(src), b)
            data = data[:i] + src[s : s + 1 + (k * 37) % 400] + data[i:]
        elif kind in ("dup-line", "del-line", "swap-lines"):
            lines = data.split(b"\n")
            x, y = _at(len(lines) - 1, a), _at(len(lines) - 1, b)
            if kind == "dup-line":
                lines.insert(x, lines[x])
            elif kind == "del-line":
                del lines[x]
            else:
                lines[x], lines[y] = lines[y], lines[x]
            data = b"\n".join(lines)
        elif kind in TREE_OPS:
            data = _tree_op(data, kind, a, b, k)
    return data


class Finding(AssertionError):
    """An outcome the oracle does not accept."""


def _check_result(result: Any) -> str:
    for d in result.diagnostics:
        if not d.rule or not d.message or "\n" in d.message:
            raise Finding(f"a diagnostic without a rule or a one-line message: {d!r}")
    return "valid" if result.valid else "judged"


def oracle(fmt: str, data: bytes, *, deep: bool = True) -> str:
    """Read ``data`` as format ``fmt`` as the CLI does; the outcome ("refused",
    "judged" or "valid"), or :class:`Finding`. ``deep``: for a valid match, also write
    it back and render its views."""
    if fmt == "json":
        result = validate_bytes(data)
        outcome = _check_result(result)
        if outcome == "valid" and deep:
            _round_trip(result.match, "json")
        return outcome if result.match is not None or result.errors else "judged"
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return "refused"  # the CLI says which byte, where
    try:
        sources = read_sources(text, fmt)
    except ConvertError as e:
        if not e.message or "\n" in e.message or (e.line is not None and e.line < 1):
            raise Finding(
                f"a refusal that is not one sentence with a position: {e.message!r} {e.line}"
            ) from e
        return "refused"
    outcome = "refused" if not sources else "valid"
    for src in sources:
        result = validate_source(src)
        r = _check_result(result)
        if r == "valid" and deep and result.match is not None:
            _round_trip(result.match, fmt)
        elif r != "valid":
            outcome = "judged"
    return outcome


def _round_trip(match: Any, fmt: str) -> None:
    from texas42_log.views.text import render_text
    from texas42_log.views.visibility import match_views

    for out in dict.fromkeys((fmt, "json", "text")):
        try:
            write_matches([match], out)
        except CannotExport:
            pass
    dumps(match.model_dump(mode="json", by_alias=True))
    for hand in match_views(match, "public")[:2]:
        render_text(list(hand[:3]))
