"""Facts written once: a hand-written copy of a fact the package holds in one place fails
here, so the copies cannot drift (the format version, the default language, the special
contracts, the kinds of contract the chances are corrected by)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from texas42_log.analysis import REPORT_FORMS
from texas42_log.analysis.calibration import KINDS
from texas42_log.engine.rules import SPECIALS
from texas42_log.log.versions import FORMAT_VERSION
from texas42_log.views.locales import DEFAULT_LANGUAGE

PACKAGE = Path(__file__).resolve().parent.parent / "texas42_log"


#: Keywords whose values are history, not a copy: the version that brought an option or
#: one of its values (``option(..., since="1.12")``) stays that version after the next.
HISTORY = ("since", "value_since")


def _constants(path: Path) -> Iterator[tuple[int, object]]:
    """Every literal of a module: (line, value); a tuple or list of literals as a tuple.
    The values of the :data:`HISTORY` keywords are left out."""
    tree = ast.parse(path.read_text("utf-8"))
    history = {
        id(n)
        for k in ast.walk(tree)
        if isinstance(k, ast.keyword) and k.arg in HISTORY
        for n in ast.walk(k.value)
    }
    for node in ast.walk(tree):
        if id(node) in history:
            continue
        if isinstance(node, ast.Constant):
            yield node.lineno, node.value
        elif isinstance(node, ast.Tuple | ast.List) and all(
            isinstance(e, ast.Constant) for e in node.elts
        ):
            yield node.lineno, tuple(e.value for e in node.elts)  # type: ignore[attr-defined]


def _modules(*allowed: str) -> Iterator[Path]:
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if not any(rel == a or rel.startswith(a.rstrip("/") + "/") for a in allowed):
            yield path


def _copies(value: object, *allowed: str, same_set: bool = False) -> list[str]:
    found = []
    for path in _modules(*allowed):
        for line, got in _constants(path):
            hit = (
                isinstance(got, tuple) and set(got) == set(value)  # type: ignore[arg-type]
                if same_set
                else got == value
            )
            if hit:
                found.append(f"{path.relative_to(PACKAGE)}:{line}")
    return found


def test_the_format_version_is_written_once() -> None:
    assert _copies(FORMAT_VERSION, "log/versions.py") == []


def test_the_default_language_is_written_once() -> None:
    """Every default of ``lang`` is ``DEFAULT_LANGUAGE``; the catalogues name their own."""
    assert _copies(DEFAULT_LANGUAGE, "views/locales/") == []


@pytest.mark.parametrize(
    ("name", "value", "home", "typed"),
    [
        # engine/auction.py spells the type (``Special``) the list is checked against below
        ("SPECIALS", SPECIALS, "engine/rules.py", "engine/auction.py"),
        ("KINDS", KINDS, "analysis/calibration.py", ""),
        ("REPORT_FORMS", REPORT_FORMS, "analysis/__init__.py", ""),
    ],
)
def test_a_list_the_package_holds_is_not_copied(
    name: str, value: tuple[str, ...], home: str, typed: str
) -> None:
    assert _copies(value, home, *([typed] if typed else []), same_set=True) == [], name


def test_the_special_contracts_type_is_the_list() -> None:
    from typing import get_args

    from texas42_log.engine.auction import Special

    assert get_args(Special) == SPECIALS


def test_the_report_forms_are_the_analysis_layers_list() -> None:
    """``analyze --format`` offers exactly the forms the reports write, and a score card
    asked in a form that is not one of them is refused, never written as text."""
    from texas42_log.analysis.cards import match_card_output, season_output
    from texas42_log.cli.analyze import AnalyzeFormat

    assert tuple(f.value for f in AnalyzeFormat) == REPORT_FORMS
    for form in REPORT_FORMS:
        out = match_card_output(form, "x.json", {}, {})
        assert isinstance(out, {"text": str, "json": dict, "csv": list}[form])
        assert isinstance(season_output(form, {}), {"text": str, "json": dict, "csv": list}[form])
    with pytest.raises(ValueError, match="no report form 'xml'"):
        match_card_output("xml", "x.json", {}, {})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no report form 'xml'"):
        season_output("xml", {})  # type: ignore[arg-type]


def test_the_compiled_modules_are_listed_only_in_setup() -> None:
    """No page lists the compiled modules again (setup.py's ``COMPILED`` is the one list,
    held to the build by tests/test_design.py): a paragraph naming six or more of them
    is a copy that drifts."""
    from .test_design import COMPILED

    root = PACKAGE.parent
    stems = {name.rsplit("/", 1)[-1] for name in COMPILED}
    pages = [root / "README.md", root / "CONTRIBUTING.md", *sorted((root / "docs").glob("*.md"))]
    copies = []
    for page in pages:
        for k, para in enumerate(page.read_text("utf-8").split("\n\n")):
            named = {m for m in re.findall(r"`(?:[\w/]+/)?(\w+)(?:\.py)?`", para) if m in stems}
            if len(named) >= 6:
                copies.append(f"{page.name} paragraph {k}: {sorted(named)}")
    assert copies == []
