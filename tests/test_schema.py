"""The committed schema is what the models generate; pydantic and jsonschema agree."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from texas42_log.log.model import Match
from texas42_log.log.schema import SCHEMA_FILENAME, generate_schema, packaged_schema, schema_text

from .helpers import layers_accept

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


def test_committed_schema_is_generated() -> None:
    committed = (ROOT / "schema" / SCHEMA_FILENAME).read_text("utf-8")
    assert committed == schema_text(), "run: texas42 schema -o schema/" + SCHEMA_FILENAME


def test_packaged_schema_is_the_committed_one() -> None:
    assert packaged_schema() == json.loads((ROOT / "schema" / SCHEMA_FILENAME).read_text("utf-8"))


def test_schema_is_draft_2020_12_with_id() -> None:
    schema = generate_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"].endswith("texas42-log.v1.schema.json")
    Draft202012Validator.check_schema(schema)
    assert {"Tile", "Seat", "Trump", "Team", "Hand", "Play", "Deal"} <= set(schema["$defs"])


def _documents() -> list[tuple[str, Any]]:
    docs: list[tuple[str, Any]] = []
    for folder in ("valid", "invalid", "bad-input"):
        for path in sorted((FIXTURES / folder).iterdir()):
            try:
                doc = json.loads(path.read_bytes().decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                continue  # not JSON: neither layer sees it
            docs.append((f"{folder}/{path.name}", doc))
    return docs


@pytest.mark.parametrize(("name", "doc"), _documents(), ids=[n for n, _ in _documents()])
def test_pydantic_and_jsonschema_agree(name: str, doc: Any) -> None:
    schema_ok, model_ok = layers_accept(doc)
    assert schema_ok == model_ok


def test_extensions_survive_a_round_trip() -> None:
    doc = json.loads(
        (FIXTURES / "valid" / "annotations-extensions-rejected.json").read_text("utf-8")
    )
    match = Match.model_validate(doc)
    again = match.model_dump(mode="json", by_alias=True, exclude_unset=True)
    assert again == doc
