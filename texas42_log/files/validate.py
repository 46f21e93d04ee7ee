"""Validate a log from its bytes: encoding, JSON, format and version, schema, rules.

The structural layer checks every document with both the JSON Schema
(``jsonschema``) and the pydantic models; a test shows they agree on every
fixture. Then the replay (:mod:`texas42_log.log.check`) reports broken rules.
Every diagnostic gets the line and column of its JSON pointer.

No file I/O here: callers pass bytes or text (python-chess ``read_game(handle)``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import jiter
from pydantic import ValidationError

from ..engine.errors import Diagnostic, MalformedLog
from ..engine.tiles import Tile
from ..log.check import MatchReport, check_match
from ..log.model import FORMAT_NAME, Match
from ..log.plain import plain_report
from ..log.positions import escape_pointer_token, line_column, value_positions
from ..log.schema import packaged_schema
from ..log.strictjson import JSONError, loads
from ..log.upgrade import is_current, version_problem

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError as SchemaError

__all__ = [
    "ValidationResult",
    "validate_bytes",
    "validate_doc",
    "parse_match",
    "read_match",
    "DEFAULT_MAX_BYTES",
]

#: A single match is a few hundred KB at most; larger input is refused up front.
DEFAULT_MAX_BYTES = 16 * 1024 * 1024


@dataclass(slots=True)
class ValidationResult:
    """Everything known about one document after validation."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    match: Match | None = None
    report: MatchReport | None = None
    #: The decoded source, kept to place diagnostics without decoding twice.
    text: str | None = field(default=None, repr=False)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def valid(self) -> bool:
        return not self.errors


def _is_integer(checker: Any, value: Any) -> bool:
    # JSON Schema counts 30.0 as an integer; a canonical log writes 30, as pydantic wants.
    return isinstance(value, int) and not isinstance(value, bool)


@lru_cache(maxsize=1)
def _schema_validator() -> Any:
    # Imported here: only the full path (a log the fast path refused) needs it,
    # and importing jsonschema is a tenth of a cold start.
    from jsonschema import Draft202012Validator, validators

    checker = Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer)
    extend: Any = validators.extend
    return extend(Draft202012Validator, type_checker=checker)(packaged_schema())


def _rule_for(e: SchemaError) -> str:
    """Which rule a structural error speaks for: a bad tile R2, seat R1, trump R12."""
    schema = e.schema if isinstance(e.schema, dict) else {}
    enum = schema.get("enum") or []
    if len(enum) == 28:
        return "R2"
    if enum == ["A", "B", "C", "D"]:
        return "R1"
    if "doubles" in enum:
        return "R12"
    return "schema"


def _model_diagnostics(e: ValidationError) -> list[Diagnostic]:
    """The models' refusal in their words, one diagnostic an error, each at its JSON
    pointer (the call's kind, a tagged union's tag, left out of the path)."""
    out = []
    for err in e.errors():
        loc = [
            p for p in err["loc"] if not (isinstance(p, str) and p in ("pass", "points", "marks"))
        ]
        out.append(Diagnostic("schema", err["msg"], _pointer(loc)))
    return out


def _pointer(path: Any) -> str:
    return "".join(f"/{escape_pointer_token(str(p))}" for p in path)


def _describe_value(v: Any) -> str:
    text = json.dumps(v, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "…"


_TYPE_NAMES = {
    "string": "a string",
    "integer": "an integer",
    "boolean": "true or false",
    "array": "a list",
    "object": "an object",
    "null": "null",
}


def _json_type(v: Any) -> str:
    """The JSON type of a parsed value, in words ("a number" for a non-integral one)."""
    if isinstance(v, float):
        return "a number"
    kinds = (
        (type(None), "null"),
        (bool, "boolean"),
        (int, "integer"),
        (str, "string"),
        (list, "array"),
    )
    return _TYPE_NAMES[next((name for t, name in kinds if isinstance(v, t)), "object")]


def _schema_message(e: SchemaError) -> tuple[str, list[str | int], SchemaError]:
    """One readable sentence for a schema error, and the path it is about."""
    path: list[str | int] = list(e.absolute_path)
    v = e.validator
    instance: Any = e.instance
    value: Any = e.validator_value
    schema: Any = e.schema
    if v == "oneOf" and isinstance(instance, dict):
        # A call: explain against the branch its "call" names, not all three.
        branch = _branch_for(e)
        subs = [sub for sub in e.context or [] if sub.relative_schema_path[0] == branch]
        if subs:
            return _schema_message(subs[0])
        return (
            f"{_describe_value(instance.get('call'))} is not a call; a call is "
            '"pass", "points" or "marks"',
            path + ["call"],
            e,
        )
    if v == "anyOf" and e.context:
        # "X or null": report the non-null branch's complaint.
        best = min(e.context, key=lambda s: s.validator == "type" and s.validator_value == "null")
        return _schema_message(best)
    if v == "required":
        missing = e.message.split("'")[1] if "'" in e.message else e.message
        return f"missing required field {missing!r}", path, e
    if v == "additionalProperties":
        extras = sorted(set(instance) - set(schema.get("properties", {})))
        extras = [x for x in extras if not x.startswith("x-")]
        if path == ["rules", "options"] and extras:
            from ..engine.rules import OPTIONS

            return (
                f"unknown rule option {extras[0]!r}; the options are {', '.join(OPTIONS)} "
                "(extension fields start with 'x-')",
                path + [extras[0]],
                e,
            )
        return (
            f"unknown field {extras[0]!r}; extension fields must start with 'x-'",
            path + [extras[0]] if extras else path,
            e,
        )
    if v == "type":
        want = value
        wants = want if isinstance(want, list) else [want]
        names = " or ".join(_TYPE_NAMES.get(str(w), str(w)) for w in wants)
        return (
            f"expected {names}, found {_json_type(instance)} {_describe_value(instance)}",
            path,
            e,
        )
    if v == "enum" and path and path[-1] == "preset":
        from ..engine.presets import PRESETS

        known = ", ".join(sorted(PRESETS))
        return f"{_describe_value(instance)} is not a rules preset; known presets: {known}", path, e
    if v == "enum":
        options = value
        if len(options) == 28:
            if isinstance(instance, str):
                try:
                    canonical = str(Tile.parse(instance))
                except ValueError:
                    pass
                else:
                    return (
                        f"{_describe_value(instance)} is not the canonical spelling of a tile; "
                        f'the JSON log writes it "{canonical}" (low half first)',
                        path,
                        e,
                    )
            return (
                f"{_describe_value(instance)} is not a tile; tiles are written low half "
                'first as "[0|5]", halves 0–6',
                path,
                e,
            )
        if options == ["A", "B", "C", "D"]:
            return (
                f"{_describe_value(instance)} is not a seat; the seats are A, B, C and D",
                path,
                e,
            )
        if "doubles" in options:
            return (
                f"{_describe_value(instance)} is not a trump choice; trumps are a number "
                '"0"–"6", "doubles" or "no-trump"',
                path,
                e,
            )
        listed = ", ".join(str(o) for o in options)
        return f"{_describe_value(instance)} is not one of {listed}", path, e
    if v == "const" and path and path[-1] == "preset":
        from ..engine.presets import PRESETS

        known = ", ".join(sorted(PRESETS))
        return f"{_describe_value(instance)} is not a rules preset; known presets: {known}", path, e
    if v == "const":
        return f"{_describe_value(instance)} should be {_describe_value(value)}", path, e
    if v == "pattern" and path and path[-1] == "version":
        return version_problem(instance), path, e
    if v in ("minimum", "maximum"):
        return f"{_describe_value(instance)} is out of range ({v} {value})", path, e
    return e.message, path, e


def _branch_for(e: SchemaError) -> int | None:
    """The oneOf branch that the instance's discriminator value names."""
    schema: Any = e.schema if isinstance(e.schema, dict) else {}
    instance: Any = e.instance
    mapping = schema.get("discriminator", {}).get("mapping", {})
    key = instance.get(schema.get("discriminator", {}).get("propertyName", ""))
    if not isinstance(key, str):
        return None
    ref = mapping.get(key)
    for i, branch in enumerate(schema.get("oneOf", [])):
        if branch.get("$ref") == ref:
            return i
    return None


#: Strings longer than this are cut before the JSON Schema sees them: jsonschema puts
#: the repr of the value it checks into every error it makes, so one 50 MB string in
#: a broken log would be copied into each message. No enum or pattern of the schema
#: matches a string this long, and a free-text field accepts the cut one as well.
_SCHEMA_STRING = 1000


def _shrunk(value: Any) -> Any:
    if isinstance(value, str):
        return value if len(value) <= _SCHEMA_STRING else value[:_SCHEMA_STRING] + "…"
    if isinstance(value, dict):
        return {_shrunk(k): _shrunk(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shrunk(v) for v in value]
    return value


def _structural(doc: Any) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for e in sorted(
        _schema_validator().iter_errors(_shrunk(doc)), key=lambda e: list(map(str, e.absolute_path))
    ):
        message, path, leaf = _schema_message(e)
        rule = _rule_for(leaf)
        out.append(
            Diagnostic(rule, message + (f" ({rule})" if rule != "schema" else ""), _pointer(path))
        )
    return out


def _header(doc: Any) -> Diagnostic | None:
    if not isinstance(doc, dict):
        return Diagnostic(
            "format",
            f"a texas42-log document is a JSON object, but this is {_json_type(doc)}",
            "",
        )
    fmt = doc.get("format")
    if fmt != FORMAT_NAME:
        found = 'no "format" field' if fmt is None else f"format {_describe_value(fmt)}"
        return Diagnostic(
            "format",
            f'not a texas42-log document: {found}; expected "format": "{FORMAT_NAME}"',
            "/format" if fmt is not None else "",
        )
    version = doc.get("version")
    if not is_current(version):
        return Diagnostic(
            "format",
            version_problem(version),
            "/version" if version is not None else "",
        )
    return None


def size_message(size: int, max_bytes: int) -> str:
    """Why a match of ``size`` bytes is refused."""
    return (
        f"the input is {size / 1e6:.1f} MB; one match log is at most "
        f"{max_bytes / 1e6:.1f} MB (raise the limit with --max-bytes)"
    )


def _decode(data: bytes | str, max_bytes: int) -> tuple[str | None, Diagnostic | None]:
    size = len(data)
    if size > max_bytes:
        return None, Diagnostic("size", size_message(size, max_bytes))
    if isinstance(data, str):
        return data, None
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as e:
        good = data[: e.start].decode("utf-8")
        line, col = line_column(good, len(good))
        return None, Diagnostic(
            "encoding",
            f"the input is not UTF-8: byte 0x{data[e.start]:02x} at byte offset {e.start} "
            "cannot be decoded; save the log as UTF-8",
            "",
            line,
            col,
        )


def parse_match(data: bytes | str, *, max_bytes: int = DEFAULT_MAX_BYTES) -> ValidationResult:
    """Structural layer only: decode, parse, check format, version, schema and models."""
    result = ValidationResult()
    text, problem = _decode(data, max_bytes)
    if problem is not None or text is None:
        result.diagnostics.append(problem or Diagnostic("encoding", "unreadable input"))
        return result
    result.text = text
    try:
        doc = loads(text)
    except JSONError as e:
        result.diagnostics.append(Diagnostic("json", e.message, "", e.line, e.column))
        return result
    header = _header(doc)
    if header is not None:
        result.diagnostics.append(header)
        _place(text, result.diagnostics)
        return result
    structural = _structural(doc)
    try:
        match = Match.model_validate(doc)
    except ValidationError as e:
        if not structural:
            # The schema accepted what the models refuse: report the models' words.
            structural += _model_diagnostics(e)
        result.diagnostics.extend(structural)
        _place(text, result.diagnostics)
        return result
    if structural:
        result.diagnostics.extend(structural)
        _place(text, result.diagnostics)
        return result
    result.match = match
    return result


def _strict(data: bytes | str, max_bytes: int) -> tuple[bytes, Any] | None:
    """The bytes of a log within ``max_bytes`` and their strict parse (jiter: no
    duplicate keys, no NaN), or None to take the full path, which words what is wrong."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if len(raw) > max_bytes:
        return None
    try:
        doc = jiter.from_json(
            raw, allow_inf_nan=False, catch_duplicate_keys=True, cache_mode="keys"
        )
    except ValueError:
        return None
    return raw, doc


def _parse_fast(raw: bytes) -> Match | None:
    """The fast structural path for a log :func:`_strict` parsed, or None to take the full
    one: pydantic builds the models straight from the bytes. The JSON Schema layer is
    skipped here: it accepts exactly what the models accept (tests/test_schema.py and the
    fuzz tests check that on every fixture and thousands of mutated documents), so it only
    runs on the full path, where its messages explain what is wrong.
    """
    try:
        return Match.model_validate_json(raw)
    except ValueError:  # pydantic's ValidationError is a ValueError too
        return None


def _check(match: Match) -> MatchReport:
    """The checked replay, then (for a log that states one, since 1.3) its open-hand
    analysis, when the replay found nothing wrong (:mod:`texas42_log.analysis.checks`)."""
    report = check_match(match)
    from ..log.comments import id_problems

    report.diagnostics.extend(id_problems(match))
    if not report.errors and report.analysed:
        from ..analysis.checks import analysis_problems
        from ..log.check import effective_rules

        doc = match.model_dump(mode="json", by_alias=True, exclude_none=True)
        report.diagnostics.extend(analysis_problems(effective_rules(match), doc))
    return report


def validate_bytes(
    data: bytes | str,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    fast: bool = True,
    models: bool = True,
) -> ValidationResult:
    """Validate one log: structure, then a checked replay under its declared rules.

    ``fast=False`` takes the full structural path (JSON Schema and pydantic) even
    for a well-formed log; the verdict and diagnostics are the same (tested).
    ``models=False`` is for a caller that wants the verdict and the report only (``texas42
    validate``): a plain, valid log is then settled over its parsed JSON
    (:mod:`texas42_log.log.plain`) and the result holds no match; any other log takes
    the path above, so the diagnostics are the same (tested)."""
    parsed = _strict(data, max_bytes) if fast else None
    if parsed is not None and not models:
        settled = plain_report(parsed[1])
        if settled is not None:
            return ValidationResult(report=settled)
    match = _parse_fast(parsed[0]) if parsed is not None else None
    if match is not None:
        report = _check(match)
        result = ValidationResult(match=match, report=report)
        if report.diagnostics:
            result.diagnostics.extend(report.diagnostics)
            text = data if isinstance(data, str) else data.decode("utf-8")
            result.text = text
            _place(text, result.diagnostics)
        return result
    result = parse_match(data, max_bytes=max_bytes)
    if result.match is None:
        return result
    report = _check(result.match)
    result.report = report
    if report.diagnostics:
        result.diagnostics.extend(report.diagnostics)
        assert result.text is not None  # a parsed match always has its text
        _place(result.text, result.diagnostics)
    return result


def validate_doc(
    doc: Any, place: Callable[[str], tuple[int, int] | None] | None = None
) -> ValidationResult:
    """Validate a JSON-ready document built from another notation (text, a foreign
    format): format, schema, models, then the rules. ``place`` gives the source's
    line and column for a JSON pointer, so diagnostics point into what the user wrote."""
    result = ValidationResult()
    header = _header(doc)
    if header is not None:
        result.diagnostics.append(header)
    else:
        # As on the fast path: the models decide; the JSON Schema, which accepts exactly
        # what they accept, runs only for a refused document, for its messages.
        structural: list[Diagnostic] = []
        try:
            result.match = Match.model_validate(doc)
        except ValidationError as e:
            structural = _structural(doc)
            if not structural:
                structural = _model_diagnostics(e)
        result.diagnostics.extend(structural)
        if structural:
            result.match = None
        if result.match is not None:
            result.report = _check(result.match)
            result.diagnostics.extend(result.report.diagnostics)
    if place is not None:
        for d in result.diagnostics:
            if d.line is None and (at := place(d.pointer)) is not None:
                d.line, d.column = at
    return result


def _place(text: str, diagnostics: list[Diagnostic]) -> None:
    """Fill in line:column for each diagnostic's pointer (nearest existing ancestor)."""
    if all(d.line is not None for d in diagnostics):
        return
    try:
        positions = value_positions(text, (d.pointer for d in diagnostics if d.line is None))
    except (AssertionError, IndexError, RecursionError):
        return
    placed: list[tuple[int, Diagnostic]] = []
    for d in diagnostics:
        if d.line is not None:
            continue
        pointer = d.pointer
        while pointer not in positions and pointer:
            pointer = pointer.rsplit("/", 1)[0]
        offset = positions.get(pointer)
        if offset is not None:
            placed.append((offset, d))
    # Lines counted once, in order: linear in the text however many diagnostics there are.
    placed.sort(key=lambda p: p[0])
    line, at, line_start = 1, 0, 0
    for offset, d in placed:
        newlines = text.count("\n", at, offset)
        if newlines:
            line += newlines
            line_start = text.rfind("\n", at, offset) + 1
        at = offset
        d.line, d.column = line, offset - line_start + 1


def read_match(data: bytes | str, *, max_bytes: int = DEFAULT_MAX_BYTES) -> Match:
    """The parsed match, or :class:`MalformedLog` with every structural problem.

    Structure only: a well-formed log that breaks a rule is returned; use
    :func:`validate_bytes` or :func:`texas42_log.log.check.check_match` for the rules.
    """
    result = parse_match(data, max_bytes=max_bytes)
    if result.match is None:
        raise MalformedLog(result.errors)
    return result.match
