"""Corpora: many matches at once, on every core — validation
(:mod:`.validation`), conversion (:mod:`.conversion`) and analysis
(:mod:`.analysis`) of files, folders, globs and JSON Lines.

The names below are this layer's public face: what a scale-out engine (Dask,
Spark, Ray) needs to validate records on its own workers (docs/scale-out.md).
The modules themselves are the package's own, and may change between releases.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..files.reader import Record, read_records
    from .analysis import analyze_record
    from .season import annotate_record
    from .validation import RecordResult, validate_record

__all__ = [
    "Record",
    "RecordResult",
    "read_records",
    "validate_record",
    "analyze_record",
    "annotate_record",
]

_LAZY = {
    "Record": "..files.reader",
    "read_records": "..files.reader",
    "RecordResult": ".validation",
    "validate_record": ".validation",
    "analyze_record": ".analysis",
    "annotate_record": ".season",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
