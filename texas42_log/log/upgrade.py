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

from .versions import READ_VERSIONS

__all__ = [
    "Step",
    "STEPS",
    "UpgradeError",
    "upgrade_doc",
    "is_current",
    "version_problem",
    "READ_VERSIONS",
]

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


_VERSION = re.compile(r"([0-9]{1,6})\.([0-9]{1,6})", re.ASCII)


def is_current(version: Any) -> bool:
    """A version this tool reads as it is: one of :data:`READ_VERSIONS`."""
    return isinstance(version, str) and version in READ_VERSIONS


def version_problem(version: Any) -> str:
    """Why ``version`` is not read as it is, in one clause (for any version not current)."""
    reads = f"{READ_VERSIONS[0]} to {READ_VERSIONS[-1]}"
    m = _VERSION.fullmatch(version) if isinstance(version, str) else None
    if m is not None:
        major, minor = int(m.group(1)), int(m.group(2))
        if major == 1 and minor > int(READ_VERSIONS[-1].split(".")[1]):
            return (
                f"version {version} is newer than this tool, which reads {reads}: a newer "
                "texas42-log wrote it (upgrade texas42-log to read it)"
            )
        if major > 1:
            return (
                f"version {version} is a later major version; this tool reads {reads} "
                f"and has no step from {version} down to them"
            )
    shown = (
        repr(version)
        if isinstance(version, str)
        else "missing"
        if version is None
        else type(version).__name__
    )
    return f"unsupported version {shown}; this tool reads {reads}"


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
            problem = version_problem(version)
            if problem.startswith("unsupported"):
                problem = (
                    f"no upgrade step from version {version!r} (steps known from: {known}); "
                    f"this tool reads {READ_VERSIONS[0]} to {READ_VERSIONS[-1]}"
                )
            raise UpgradeError(problem)
        current = step.run(dict(current))
        if current.get("version") != step.target:
            raise UpgradeError(
                f"the step {step.source}→{step.target} wrote version {current.get('version')!r}"
            )
        applied.append(step)
        if len(applied) > len(registry):
            raise UpgradeError("the upgrade steps form a cycle")
    return current, applied
