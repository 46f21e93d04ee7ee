"""Hostile input: any JSON value anywhere in a valid log is reported, never raised,
and the two structural layers (JSON Schema, pydantic) always agree."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from texas42_log.files.validate import validate_bytes

from .helpers import layers_accept

pytestmark = pytest.mark.slow

BASE = json.loads(
    (
        Path(__file__).resolve().parent.parent
        / "fixtures"
        / "valid"
        / "annotations-extensions-rejected.json"
    ).read_text("utf-8")
)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
    | st.sampled_from(["[0|5]", "[5|0]", "A", "E", "pass", "marks", "doubles", "x-", "1.0", ""]),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=12,
)


def paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += paths(v, prefix + (i,))
    return out


ALL_PATHS = [p for p in paths(BASE) if p]


VALUES_ANYWHERE = (st.sampled_from(ALL_PATHS), json_values, st.booleans())


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(*VALUES_ANYWHERE)
def test_any_value_anywhere(path: tuple[Any, ...], value: Any, delete: bool) -> None:
    _any_value_at(path, value, delete)


@pytest.mark.long
@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(*VALUES_ANYWHERE)
def test_any_value_anywhere_at_length(path: tuple[Any, ...], value: Any, delete: bool) -> None:
    """The same, ten times as many (the long selection, conftest.py)."""
    _any_value_at(path, value, delete)


def _any_value_at(path: tuple[Any, ...], value: Any, delete: bool) -> None:
    """The log with ``value`` put at ``path`` (or the key there deleted): validation
    answers without raising, in sentences with rule ids; the schema and the models
    accept the same documents; the fast path and the full one say the same."""
    doc = json.loads(json.dumps(BASE))
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    text = json.dumps(doc)
    result = validate_bytes(text)  # must not raise
    for d in result.diagnostics:
        assert d.message and "\n" not in d.message
        assert d.rule
    schema_ok, model_ok = layers_accept(doc)
    assert schema_ok == model_ok, (path, value, delete)
    # The fast path (strict JSON + pydantic) and the full one (+ JSON Schema) agree.
    full = validate_bytes(text, fast=False)
    assert [(d.rule, d.pointer, d.message) for d in result.diagnostics] == [
        (d.rule, d.pointer, d.message) for d in full.diagnostics
    ]


@settings(max_examples=200, deadline=None)
@given(
    st.binary(max_size=200)
    | st.text(max_size=200).map(lambda s: s.encode("utf-8", "surrogatepass"))
)
def test_any_bytes(data: bytes) -> None:
    result = validate_bytes(data)
    assert not result.valid
    assert all(d.message for d in result.diagnostics)


def test_deep_nesting_inside_an_extension() -> None:
    doc = json.loads(json.dumps(BASE))
    text = json.dumps(doc)[:-1] + ', "x-deep": ' + "[" * 5000 + "]" * 5000 + "}"
    result = validate_bytes(text)
    assert [(d.rule, d.message) for d in result.errors] == [
        ("json", "not valid JSON: lists and objects are nested more than 200 deep")
    ]


def test_moderate_nesting_inside_an_extension_is_kept() -> None:
    doc = json.loads(json.dumps(BASE))
    doc["x-deep"] = json.loads("[" * 200 + "]" * 200)
    result = validate_bytes(json.dumps(doc))
    assert result.valid and result.match is not None
    assert result.match.model_dump(by_alias=True, exclude_unset=True)["x-deep"] == doc["x-deep"]


def _objects(node: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    if isinstance(node, dict):
        found.append(node)
        for v in node.values():
            found += _objects(v)
    elif isinstance(node, list):
        for v in node:
            found += _objects(v)
    return found


def test_an_extension_on_every_object_is_accepted_and_kept() -> None:
    doc = json.loads(json.dumps(BASE))
    for i, obj in enumerate(_objects(doc)):
        obj[f"x-test-{i}"] = {"n": i, "list": [None, True]}
    result = validate_bytes(json.dumps(doc))
    assert result.valid, [d.message for d in result.errors]
    assert result.match is not None
    assert result.match.model_dump(mode="json", by_alias=True, exclude_unset=True) == doc


def test_r3_context_keeps_the_hand_number() -> None:
    # The played tile is unknown in its owner's deal, and the player's 7 tiles are all
    # known without it: "not in the hand" (R3), whose context lists the player's tiles.
    path = (
        Path(__file__).resolve().parent.parent
        / "fixtures"
        / "invalid"
        / "R3-plays-a-tile-dealt-to-another.json"
    )
    doc = json.loads(path.read_text("utf-8"))
    hand = doc["hands"][1]
    leader = hand["plays"][0]["seat"]
    never_played = {t for tiles in hand["deal"].values() for t in tiles} - {
        p["tile"] for p in hand["plays"]
    }
    owner, tile = next(
        (s, t)
        for s, tiles in hand["deal"].items()
        if s != leader
        for t in tiles
        if t in never_played
    )
    hand["plays"][0]["tile"] = tile
    hand["deal"][owner] = [None if t == tile else t for t in hand["deal"][owner]]
    errors = validate_bytes(json.dumps(doc)).errors
    assert [(d.rule, d.pointer) for d in errors] == [("R3", "/hands/1/plays/0")]
    assert "is not in" in errors[0].message
    assert errors[0].context["hand"] == 2
    assert len(errors[0].context["hand_tiles"]) == 7
