"""The two kinds of error, both ``ValueError`` (after python-chess's
``InvalidMoveError`` / ``IllegalMoveError``), and the diagnostic record."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["Diagnostic", "IllegalAction", "MalformedLog", "Refusal", "cite"]

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
    rule option's own rule); ``context`` the game state; ``recorded``, from a live game
    that keeps refused attempts (R30): whether this one was written into its log, None
    when it is not a kind the log keeps (or the game keeps none)."""

    def __init__(self, rule: str, message: str, context: dict[str, Any] | None = None) -> None:
        message = cite(rule, message)
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.context: dict[str, Any] = context or {}
        self.recorded: bool | None = None


class Refusal(IllegalAction):
    """An action refused to a seat, in words drawn only from what that seat may see
    (:mod:`texas42_log.play.refusals` builds it). An :class:`IllegalAction`: ``rule``
    the rule id, ``str()`` the English sentence, ``key`` and ``params`` the same
    sentence for a page to say in its own words
    (:data:`texas42_log.play.refusals.KEYS`)."""

    def __init__(self, rule: str, key: str, params: dict[str, Any], message: str) -> None:
        super().__init__(rule, message, {})
        self.key = key
        self.params: dict[str, Any] = {"rule": rule, **params}
        self.context = dict(self.params)

    def as_dict(self) -> dict[str, Any]:
        """The refusal as a page is sent it: the sentence, its rule, key and parameters."""
        return {"error": self.message, "rule": self.rule, "key": self.key, "params": self.params}


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
