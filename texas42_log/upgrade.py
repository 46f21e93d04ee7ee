"""Migrating logs between format versions: ``texas42 upgrade``.

A registry of steps, each from one version to the next, applied in a chain until
the document is of a version this tool reads. Version 1 is the only version so
far, so :data:`STEPS` is empty; the machinery is tested with a synthetic v0→v1
step. Within 1.x, versions are additive: a 1.0 log is a valid 1.1 log as it is.
Pure: documents in, documents out.
"""

from __future__ import annotations

import re

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["Step", "STEPS", "UpgradeError", "upgrade_doc", "is_current"]

Doc = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Step:
    """Turns a document of version ``source`` into one of version ``target``."""

    source: str
    target: str
    run: Callable[[Doc], Doc]
    summary: str


#: source version → its step. Empty: 1.x is the first and only major version.
STEPS: dict[str, Step] = {}


class UpgradeError(ValueError):
    """No chain of steps leads from the document's version to a current one."""


_CURRENT = re.compile(r"1\.(?:0|[1-9][0-9]{0,5})", re.ASCII)


def is_current(version: Any) -> bool:
    """A version this tool reads as it is: ``1.`` and a minor number in ASCII digits."""
    return isinstance(version, str) and _CURRENT.fullmatch(version) is not None


def upgrade_doc(doc: Doc, steps: Mapping[str, Step] | None = None) -> tuple[Doc, list[Step]]:
    """The document upgraded to a current version, and the steps applied (none if current)."""
    registry = STEPS if steps is None else steps
    applied: list[Step] = []
    current = doc
    while not is_current(current.get("version")):
        version = current.get("version")
        step = registry.get(str(version)) if version is not None else registry.get("")
        if step is None:
            known = ", ".join(sorted(registry)) or "none"
            raise UpgradeError(
                f"no upgrade step from version {version!r} (steps known from: {known}); "
                "this tool reads 1.x"
            )
        current = step.run(dict(current))
        if current.get("version") != step.target:
            raise UpgradeError(f"the step {step.source}→{step.target} wrote version {current.get('version')!r}")
        applied.append(step)
        if len(applied) > len(registry):
            raise UpgradeError("the upgrade steps form a cycle")
    return current, applied
