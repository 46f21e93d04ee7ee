"""The JSON Schema of format v1: generated from the models, shipped in the package.

``generate_schema()`` is the source of truth; ``schema/texas42-log.v1.schema.json``
and the copy inside the package are that output, committed (a test checks).
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

from ..engine.seats import SEATS, TEAMS
from ..engine.tiles import TILES
from ..engine.trumps import Trump
from .model import FORMAT_VERSION, SCHEMA_ID, Match

__all__ = ["generate_schema", "schema_text", "packaged_schema", "SCHEMA_FILENAME"]

SCHEMA_FILENAME = "texas42-log.v1.schema.json"

_NAMED: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    (
        "Tile",
        {"enum": [str(t) for t in TILES], "type": "string"},
        {
            "description": "R2: one of the 28 tiles of the double-six set, in the "
            'canonical form [low|high], e.g. "[0|5]".',
        },
    ),
    (
        "Seat",
        {"enum": list(SEATS), "type": "string"},
        {"description": "R1: a seat, A B C D clockwise; A+C play against B+D."},
    ),
    (
        "Trump",
        {"enum": [t.value for t in Trump], "type": "string"},
        {"description": "R12: a numbered suit 0–6, doubles, or no-trump (doubles high)."},
    ),
    (
        "Team",
        {"enum": list(TEAMS), "type": "string"},
        {"description": "R1: a partnership."},
    ),
]


def _name_shared(node: Any) -> Any:
    if isinstance(node, dict):
        for name, shape, _ in _NAMED:
            if {k: v for k, v in node.items() if k in ("enum", "type")} == shape and set(node) <= {
                "enum",
                "type",
                "title",
            }:
                return {"$ref": f"#/$defs/{name}"}
        return {k: _name_shared(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_name_shared(v) for v in node]
    return node


def generate_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of format v1, from the pydantic models."""
    raw = Match.model_json_schema(by_alias=True)
    body = _name_shared(raw)
    defs = body.pop("$defs")
    for name, shape, extra in _NAMED:
        defs[name] = {**shape, **extra}
    body.pop("title", None)
    description = body.pop("description", "")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": f"texas42-log {FORMAT_VERSION}",
        "description": description
        + " Format reference: docs/format.md. Rules (R1–R31 and every rule option): docs/rules.md.",
        **body,
        "$defs": dict(sorted(defs.items())),
    }


def schema_text() -> str:
    """The schema as committed: 2-space JSON, sorted $defs, trailing newline."""
    return json.dumps(generate_schema(), indent=2, ensure_ascii=False) + "\n"


@lru_cache(maxsize=1)
def packaged_schema() -> dict[str, Any]:
    """The schema file shipped inside the package: schema/ of the repository, installed
    as ``texas42_log.schemas``."""
    text = resources.files("texas42_log.schemas").joinpath(SCHEMA_FILENAME).read_text("utf-8")
    result: dict[str, Any] = json.loads(text)
    return result
