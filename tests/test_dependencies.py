"""What users install is what we test: every module the package imports is a
declared runtime dependency (or the standard library), and nothing else makes it
work. The tests, tools and examples may also use the test extra.

The check reads the source, not the running interpreter: every ``import`` and
``from … import`` anywhere in a file (a function's body and ``TYPE_CHECKING``
blocks included), and every ``importlib.import_module("x")`` or
``importlib.util.find_spec("x")`` with a literal name. A module found only through
``find_spec`` is optional by construction (the code asks whether it is there): it
must be named by an extra, so that ``pip install texas42-log[extra]`` brings it.
A module is mapped to the distributions that install it with
``importlib.metadata.packages_distributions()``, so the check needs the test
install (where every such module is present) and fails, naming the module, if one
is imported but installed by nothing.
"""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))

#: Our own top-level names: the package and the folders run from a checkout.
LOCAL = {"texas42_log", "tests", "tools", "examples"}


def normalized(name: str) -> str:
    """A distribution's name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(requirement: str) -> str:
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    assert match, requirement
    return normalized(match.group(1))


def runtime_dependencies() -> set[str]:
    return {requirement_name(r) for r in PYPROJECT["project"]["dependencies"]}


def extras() -> dict[str, set[str]]:
    """Each extra's distributions, an extra that names our own package's extras
    (``texas42-log[rl,openspiel]``) holding theirs too."""
    declared = PYPROJECT["project"].get("optional-dependencies", {})
    own = normalized(PYPROJECT["project"]["name"])

    def names(extra: str, seen: frozenset[str] = frozenset()) -> set[str]:
        out: set[str] = set()
        for r in declared[extra]:
            name = requirement_name(r)
            if name != own:
                out.add(name)
                continue
            inner = re.search(r"\[([^\]]*)\]", r)
            for e in inner.group(1).split(",") if inner else []:
                if e.strip() not in seen:
                    out |= names(e.strip(), seen | {extra})
        return out

    return {extra: names(extra) for extra in declared}


@dataclass(frozen=True)
class Use:
    module: str  # the top-level name
    where: str  # file:line
    optional: bool  # only asked for through find_spec


def _literal_call(node: ast.Call) -> tuple[str, str] | None:
    """``("find_spec", "x")`` for ``importlib.util.find_spec("x")`` and the like."""
    func = node.func
    name = (
        func.attr
        if isinstance(func, ast.Attribute)
        else func.id
        if isinstance(func, ast.Name)
        else ""
    )
    if name in {"import_module", "find_spec", "__import__"} and node.args:
        first = node.args[0]
        if (
            isinstance(first, ast.Constant)
            and isinstance(first.value, str)
            and not first.value.startswith(".")
        ):
            return name, first.value
    return None


def uses_in_source(source: str, where: str) -> list[Use]:
    """Every absolute import in ``source`` (relative imports are the file's own package)."""
    found: list[Use] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [
                Use(a.name.split(".")[0], f"{where}:{node.lineno}", False) for a in node.names
            ]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append(Use(node.module.split(".")[0], f"{where}:{node.lineno}", False))
        elif isinstance(node, ast.Call) and (call := _literal_call(node)):
            kind, name = call
            found.append(Use(name.split(".")[0], f"{where}:{node.lineno}", kind == "find_spec"))
    # A file that asks find_spec for a module and then imports it (an optional feature
    # refusing to load without its extra) imports it optionally: an extra must name it.
    looked_for = {u.module for u in found if u.optional}
    return [Use(u.module, u.where, u.optional or u.module in looked_for) for u in found]


def uses_in(folders: Iterable[str]) -> list[Use]:
    found: list[Use] = []
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.py")):
            found += uses_in_source(path.read_text("utf-8"), str(path.relative_to(ROOT)))
    return found


def problems(
    uses: Iterable[Use],
    allowed: set[str],
    optional_allowed: set[str],
    installers: Mapping[str, list[str]],
    local: set[str],
) -> list[str]:
    """One sentence per module that nothing declared installs."""
    out: dict[str, str] = {}
    for use in uses:
        if use.module in sys.stdlib_module_names or use.module in local or use.module in out:
            continue
        dists = {normalized(d) for d in installers.get(use.module, [])}
        if not dists and use.optional:  # not installed here: an extra must name it by that name
            dists = {normalized(use.module)}
        if not dists:
            out[use.module] = (
                f"{use.where}: `{use.module}` is imported but no installed distribution provides it"
            )
        elif use.optional and not dists & (allowed | optional_allowed):
            out[use.module] = (
                f"{use.where}: `{use.module}` (from {', '.join(sorted(dists))}) is looked for "
                "but named by no extra in pyproject.toml"
            )
        elif not use.optional and not dists & allowed:
            out[use.module] = (
                f"{use.where}: `{use.module}` (from {', '.join(sorted(dists))}) is imported "
                "but is not a declared dependency in pyproject.toml"
            )
    return sorted(out.values())


def _local_names() -> set[str]:
    names = set(LOCAL)
    for folder in ("tests", "tools", "examples", "tests/benchmarks"):
        names |= {p.stem for p in (ROOT / folder).glob("*.py")}
    return names


INSTALLERS = importlib.metadata.packages_distributions()
ALL_EXTRAS = set().union(*extras().values())
#: What the extras a user installs bring (png, docs, rl, openspiel): not the test extra's own tools.
USER_EXTRAS = set().union(*(names for extra, names in extras().items() if extra != "test"))


def test_the_package_imports_only_its_runtime_dependencies() -> None:
    found = problems(
        uses_in(["texas42_log"]), runtime_dependencies(), USER_EXTRAS, INSTALLERS, {"texas42_log"}
    )
    assert found == [], "\n".join(found)


def test_tests_tools_and_examples_import_only_declared_dependencies() -> None:
    found = problems(
        uses_in(["tests", "tools", "examples"]),
        runtime_dependencies() | extras()["test"],
        ALL_EXTRAS,
        INSTALLERS,
        _local_names(),
    )
    assert found == [], "\n".join(found)


def test_every_runtime_dependency_is_used() -> None:
    """A declared dependency that nothing imports is weight every user installs."""
    imported = {
        normalized(d) for use in uses_in(["texas42_log"]) for d in INSTALLERS.get(use.module, [])
    }
    assert runtime_dependencies() - imported == set()


# The check itself, on sources that break it: it must catch what it was made for.
FAKE_INSTALLERS = {
    "click": ["click"],
    "typer": ["typer"],
    "cairosvg": ["CairoSVG"],
    "yaml": ["PyYAML"],
}


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("import click\n", "`click` (from click) is imported but is not a declared dependency"),
        ("from click.exceptions import Abort\n", "`click` (from click) is imported"),
        ("def f():\n    import yaml\n", "`yaml` (from pyyaml) is imported"),
        (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import click\n",
            "`click` (from click)",
        ),
        (
            "import importlib\nm = importlib.import_module('yaml')\n",
            "`yaml` (from pyyaml) is imported",
        ),
        (
            "import importlib.util\nif importlib.util.find_spec('cairosvg'):\n    pass\n",
            "`cairosvg` (from cairosvg) is looked for but named by no extra",
        ),
        (
            "import not_installed_anywhere\n",
            "`not_installed_anywhere` is imported but no installed distribution",
        ),
        (
            "import importlib.util\nimportlib.util.find_spec('absent')\n",
            "`absent` (from absent) is looked for",
        ),
        (
            "import importlib.util\nif importlib.util.find_spec('cairosvg') is None:\n    raise "
            "ImportError\nimport cairosvg\n",
            "`cairosvg` (from cairosvg) is looked for but named by no extra",
        ),
    ],
)
def test_the_check_catches_an_undeclared_module(source: str, expected: str) -> None:
    found = problems(uses_in_source(source, "m.py"), {"typer"}, set(), FAKE_INSTALLERS, set())
    assert len(found) == 1 and expected in found[0], found


@pytest.mark.parametrize(
    "source",
    [
        "import typer\nimport json\nfrom os import path\nfrom . import sibling\n",
        "import importlib.util\nif importlib.util.find_spec('cairosvg'):\n    pass\n",
        "import importlib.util\nif importlib.util.find_spec('cairosvg') is None:\n    raise "
        "ImportError\nimport cairosvg\n",
    ],
)
def test_the_check_passes_what_is_declared(source: str) -> None:
    assert (
        problems(uses_in_source(source, "m.py"), {"typer"}, {"cairosvg"}, FAKE_INSTALLERS, set())
        == []
    )
