"""Render validation results as text or JSON (no I/O: returns strings)."""

from __future__ import annotations

import json
from typing import Any

from ..engine.errors import Diagnostic
from ..log.check import MatchReport
from .validate import ValidationResult

__all__ = ["diagnostic_line", "result_text", "result_json"]

_CONTEXT_ORDER = (
    "hand",
    "trick",
    "led_suit",
    "led_by",
    "seat",
    "tile",
    "could_follow",
    "hand_tiles",
)


def _context_text(ctx: dict[str, Any]) -> str:
    parts: list[str] = []
    for key in sorted(
        ctx, key=lambda k: (_CONTEXT_ORDER.index(k) if k in _CONTEXT_ORDER else 99, k)
    ):
        value = ctx[key]
        if isinstance(value, list):
            value = " ".join(str(v) for v in value) or "none"
        elif isinstance(value, dict):
            value = ", ".join(f"{k} {v}" for k, v in value.items())
        parts.append(f"{key.replace('_', ' ')}: {value}")
    return "; ".join(parts)


def diagnostic_line(source: str, d: Diagnostic) -> str:
    """``file:line:col: error R16 at /hands/0/plays/6: sentence`` and an indented context line."""
    where = source
    if d.line is not None:
        where += f":{d.line}:{d.column}"
    pointer = f" at {d.pointer}" if d.pointer else ""
    text = f"{where}: {d.severity} {d.rule}{pointer}: {d.message}"
    if d.context:
        text += f"\n    {_context_text(d.context)}"
    return text


def _summary(report: MatchReport | None) -> str:
    if report is None:
        return ""
    bits = [f"{report.hands} hand{'s' if report.hands != 1 else ''}"]
    unit = report.rules.match_goal if report.rules else "marks"
    if report.score is not None:
        bits.append(f"{unit} A+C {report.score['A+C']}, B+D {report.score['B+D']}")
    if report.winner:
        bits.append(f"winner {report.winner}")
    rules = f"rules: {report.preset}"
    if report.overrides:
        rules += " with " + ", ".join(f"{k}={json.dumps(v)}" for k, v in report.overrides.items())
    bits.append(rules)
    return " (" + "; ".join(bits) + ")"


def result_text(source: str, result: ValidationResult, where: str | None = None) -> str:
    """All diagnostics of one match (placed in file ``where``, default ``source``), then
    its verdict line."""
    lines = [diagnostic_line(where or source, d) for d in result.diagnostics]
    n = len(result.errors)
    if result.valid:
        lines.append(f"{source}: valid{_summary(result.report)}")
    else:
        lines.append(
            f"{source}: invalid, {n} error{'s' if n != 1 else ''}{_summary(result.report)}"
        )
    return "\n".join(lines)


def result_json(source: str, result: ValidationResult) -> dict[str, Any]:
    """One file's result as a JSON-ready dict."""
    out: dict[str, Any] = {
        "file": source,
        "valid": result.valid,
        "errors": len(result.errors),
        "diagnostics": [d.as_dict() for d in result.diagnostics],
    }
    report = result.report
    if report is not None:
        out["summary"] = {
            "hands": report.hands,
            "score": report.score,
            "winner": report.winner,
            "preset": report.preset,
            "overrides": report.overrides,
            "rules": report.rules.as_dict() if report.rules else None,
        }
    return out


def dumps(obj: Any) -> str:
    return json.dumps(obj, indent=2, ensure_ascii=False)
