"""The board's refusals: a request it refuses, and a board that cannot start."""

from __future__ import annotations

from typing import Any

__all__ = ["BoardError", "StartError"]


class BoardError(Exception):
    """A request the board refuses: ``status`` (400, 403, 404, 409, 429) and a sentence."""

    def __init__(self, status: int, message: str, extra: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra or {}


class StartError(Exception):
    """The board cannot start: ``usage`` (exit 2) or the log is refused (exit 1)."""

    def __init__(self, message: str, *, usage: bool = False, report: str = "") -> None:
        super().__init__(message)
        self.usage = usage
        self.report = report
