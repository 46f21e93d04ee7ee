"""The two kinds of error, both ``ValueError`` (after python-chess's
``InvalidMoveError`` / ``IllegalMoveError``), and the diagnostic record."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["Diagnostic", "IllegalAction", "MalformedLog", "cite"]

Severity = Literal["error", "warning"]


class MalformedLog(ValueError):
    """The input is not a well-formed log: bytes, JSON or structure.

    ``diagnostics`` holds every problem found; ``str()`` is the first one.
    """

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        first = diagnostics[0] if diagnostics else None
        where = f" at {first.pointer}" if first and first.pointer else ""
        super().__init__(f"{first.rule}{where}: {first.message}" if first else "malformed log")
        self.diagnostics = diagnostics


def cite(rule: str, message: str) -> str:
    """A message ends by citing its rule: a variant rule (``variant:plunge``) is appended
    here; the R-numbered rules are cited by each message itself ("… (R16)")."""
    if rule.startswith("variant:") and not message.endswith(f"({rule})"):
        return f"{message} ({rule})"
    return message


class IllegalAction(ValueError):
    """An action breaks a rule. ``rule`` is its id (``R16``, or ``variant:<option>`` for a
    rule option's own rule); ``context`` the game state."""

    def __init__(self, rule: str, message: str, context: dict[str, Any] | None = None) -> None:
        message = cite(rule, message)
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.context: dict[str, Any] = context or {}


@dataclass(slots=True)
class Diagnostic:
    """One problem found in a log.

    ``rule`` is a rule id (``R1``–``R31``), ``variant:<option>`` for the rule of
    a rule option (``variant:plunge``), or, for problems below the rules, one of
    ``encoding``, ``json``, ``format``, ``schema``, ``size``.
    ``pointer`` is a JSON pointer into the document; ``line``/``column`` are
    1-based positions of that value in the source text, when known.
    """

    rule: str
    message: str
    pointer: str = ""
    line: int | None = None
    column: int | None = None
    severity: Severity = "error"
    context: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "severity": self.severity,
            "rule": self.rule,
            "pointer": self.pointer,
            "line": self.line,
            "column": self.column,
            "message": self.message,
            "context": self.context,
        }
