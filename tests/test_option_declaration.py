"""Each rule option is declared once, as a field of ``Rules`` (engine/rules.py), and the
rest derives from it: the format's ``RuleOptions`` model and so the schema's enums and
bounds, the prose of ``texas42 rules`` and the docs, the format version a log's rules
need. These tests hold the derivation, with a new option declared here as a fixture."""

from __future__ import annotations

import importlib.util
import typing
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Literal

import pytest
from pydantic import ValidationError

from texas42_log.engine.options import Option, option, option_of
from texas42_log.engine.presets import PRESET_LIST, PRESETS
from texas42_log.engine.rules import OPTIONS, STANDARD, Rules
from texas42_log.log.model import RuleOptions, RulesDeclaration, options_model
from texas42_log.log.rule_texts import options_block
from texas42_log.log.schema import generate_schema
from texas42_log.log.versions import LEGACY_OPTIONS, minimal_version, rules_version

ROOT = Path(__file__).resolve().parent.parent


def _docs_tool() -> Any:
    spec = importlib.util.spec_from_file_location(
        "build_rules_doc", ROOT / "tools/build_rules_doc.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


Shape = Literal["round", "square", "hexagonal"]


@dataclass(frozen=True)
class Extended:
    """A rules class with two options no release has: the fixture of a new variant."""

    tile_shape: Shape = option(
        "round",
        Shape,
        since="1.11",
        value_since={"hexagonal": "1.12"},
        doc="The shape of the tiles (a test's own option).",
        source="No rule: a fixture.",
    )
    spare_tiles: int | None = option(
        None, int, low=2, high=9, since="1.11", doc="Tiles kept aside.", source="No rule."
    )


NEW = {f.name: option_of(f) for f in fields(Extended)}


def test_every_field_of_rules_is_a_declared_option_in_the_format() -> None:
    assert list(OPTIONS) == [f.name for f in fields(Rules)]
    assert list(RuleOptions.model_fields) == list(OPTIONS)
    for name, o in OPTIONS.items():
        assert o.doc and o.source and o.values, name
        assert o.default == getattr(STANDARD, name)


def test_an_options_words_are_its_fields_own_type() -> None:
    """The values of a worded option are the Literal its field is typed with, passed to
    option() by name (read from the source: the compiled class keeps no annotations)."""
    import ast

    import texas42_log.engine.rules as rules

    tree = ast.parse((ROOT / "texas42_log" / "engine" / "rules.py").read_text("utf-8"))
    (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Rules"]
    seen = 0
    for node in cls.body:
        if not isinstance(node, ast.AnnAssign):
            continue
        assert isinstance(node.target, ast.Name) and isinstance(node.value, ast.Call)
        name, o = node.target.id, OPTIONS[node.target.id]
        given = ast.unparse(node.value.args[1])
        if o.kind == "enum":
            assert ast.unparse(node.annotation) == given, name
            assert o.choices == typing.get_args(getattr(rules, given)), name
        else:
            assert given == o.kind and ast.unparse(node.annotation).startswith(o.kind), name
        seen += 1
    assert seen == len(OPTIONS)


@pytest.mark.parametrize("name", list(OPTIONS))
def test_the_format_takes_exactly_the_values_an_option_declares(name: str) -> None:
    o = OPTIONS[name]
    if o.kind == "enum":
        good: list[Any] = list(o.choices)
        bad: list[Any] = ["no-such-value", 1, True]
    elif o.kind == "bool":
        good, bad = [True, False], ["yes", 1]
    else:
        good, bad = [o.low, o.high], [o.low - 1, o.high + 1, "3", 2.5]
    for value in good:
        assert RuleOptions.model_validate({name: value}).overrides() == {name: value}
        assert STANDARD.with_options(**{name: value}) is not None
    for value in bad:
        with pytest.raises(ValidationError):
            RuleOptions.model_validate({name: value})


def test_a_new_option_appears_in_the_model_the_schema_the_prose_and_the_versions() -> None:
    model = options_model(NEW)
    assert model.model_validate({"tile_shape": "square", "spare_tiles": 9}).overrides() == {
        "tile_shape": "square",
        "spare_tiles": 9,
    }
    for wrong in ({"tile_shape": "oval"}, {"spare_tiles": 10}, {"spare_tiles": 1}):
        with pytest.raises(ValidationError):
            model.model_validate(wrong)
    schema = model.model_json_schema()["properties"]
    assert schema["tile_shape"]["anyOf"][0]["enum"] == ["round", "square", "hexagonal"]
    assert schema["spare_tiles"]["anyOf"][0] == {"maximum": 9, "minimum": 2, "type": "integer"}

    assert NEW["spare_tiles"].values == "integer 2–9, or unset"
    assert NEW["tile_shape"].describe("square") == [
        'tile_shape = "square"    (round / square / hexagonal)',
        "    The shape of the tiles (a test's own option).",
        "    from: No rule: a fixture.",
    ]
    tool = _docs_tool()
    block = options_block(NEW)
    assert '<a id="opt-tile_shape"></a>**`tile_shape`** — round / square / hexagonal' in block
    assert "*From:* No rule: a fixture." in block
    tables = tool.tables(NEW)
    assert (
        '| `tile_shape` | `"round"` | round / square / hexagonal | 1.11 (hexagonal 1.12) |'
        in tables
    )
    assert "| `spare_tiles` | `null` | integer 2–9, or unset | 1.11 | Tiles kept aside. |" in tables

    def needs(**options: Any) -> str:
        return rules_version({"preset": "standard", "options": options}, NEW)

    assert needs(tile_shape="square") == "1.11"
    assert needs(tile_shape="hexagonal", spare_tiles=3) == "1.12"
    assert needs() == "1.0"  # nothing this rules class declares since 1.0 is left out


@pytest.mark.parametrize(
    ("options", "preset", "version"),
    [
        ({name: getattr(STANDARD, name) for name in LEGACY_OPTIONS}, "standard", "1.0"),
        ({name: getattr(STANDARD, name) for name in LEGACY_OPTIONS[1:]}, "standard", "1.1"),
        ({}, "standard", "1.1"),
        ({}, "casual", "1.1"),
        ({}, "mk5", "1.5"),
        ({"all_pass": "dealer-must-bid"}, "standard", "1.1"),
        ({"nello_doubles": "own-suit-or-low"}, "tricksy", "1.2"),
        ({"nello_doubles": "low"}, "tricksy", "1.1"),
        ({"dealer_draw": "fair"}, "standard", "1.2"),
        ({"nello_low_min_marks": 2}, "tricksy", "1.2"),
        ({"special_bids": "aside"}, "casual", "1.5"),
        ({"sevens_play": "closest"}, "tricksy", "1.5"),
        ({"x-club": "anything"}, "standard", "1.1"),
    ],
)
def test_the_declared_versions_are_the_formats_history(
    options: dict[str, Any], preset: str, version: str
) -> None:
    """What the format's versions brought (CHANGELOG.md): 1.0 spelled out nine options,
    1.1 made each optional and brought the presets and most options, 1.2 dealer_draw,
    nello_low_min_marks and own-suit-or-low, 1.5 the mk5 preset and its three options."""
    doc = {"rules": {"preset": preset, "options": options}, "hands": []}
    assert minimal_version(doc) == version
    RulesDeclaration.model_validate(doc["rules"])


def test_the_preset_names_of_the_format_are_the_registry() -> None:
    assert [p.name for p in PRESET_LIST] == list(PRESETS)
    enum = generate_schema()["$defs"]["RulesDeclaration"]["properties"]["preset"]["enum"]
    assert enum == list(PRESETS)
    with pytest.raises(ValidationError):
        RulesDeclaration.model_validate({"preset": "no-such-preset"})


def test_a_declaration_carries_nothing_a_field_does_not() -> None:
    assert {f.name for f in fields(Option)} >= {"name", "default", "doc", "source", "since"}


def test_the_options_of_format_1_0_are_those_declared_since_1_0() -> None:
    assert set(LEGACY_OPTIONS) == {n for n, o in OPTIONS.items() if o.since == "1.0"}
    assert len(LEGACY_OPTIONS) == 9
