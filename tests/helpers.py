"""Small helpers shared by tests."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from texas42_log.model import Match
from texas42_log.validate import _schema_validator


def layers_accept(doc: Any) -> tuple[bool, bool]:
    """Whether (JSON Schema, pydantic) each accept ``doc``; they must agree."""
    schema_ok = not any(True for _ in _schema_validator().iter_errors(doc))
    try:
        Match.model_validate(doc)
    except ValidationError:
        return schema_ok, False
    return schema_ok, True
