"""Design rules that code review alone would miss: layering, typing, names."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import typing
from pathlib import Path

import pytest

from texas42_log import model
from texas42_log.tiles import TILES

PACKAGE = Path(__file__).resolve().parent.parent / "texas42_log"

# The engine does no I/O (DESIGN.md): no json, pathlib, typer, logging, print.
ENGINE = [
    "tiles.py", "trumps.py", "seats.py", "rules.py", "auction.py", "hand.py", "check.py", "stated.py", "broken.py", "generate.py",
    "views.py", "view_model.py", "view_analysis.py", "viewtext.py", "termtext.py", "actions.py", "declare.py", "live.py",
    "game.py", "render_svg.py", "recorder.py",
    "locales/__init__.py", "locales/en.py", "locales/tr.py", "locales/uk.py",
]
IO_MODULES = {"json", "pathlib", "typer", "logging", "os", "sys", "io", "rich", "click"}


@pytest.mark.parametrize("name", ENGINE)
def test_engine_does_no_io(name: str) -> None:
    tree = ast.parse((PACKAGE / name).read_text("utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert not {a.name.split(".")[0] for a in node.names} & IO_MODULES, name
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            assert node.module.split(".")[0] not in IO_MODULES, name
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in {"print", "open", "input"}, name


@pytest.mark.parametrize("name", ["tiles.py", "trumps.py", "seats.py", "rules.py", "auction.py", "hand.py"])
def test_core_never_imports_outer_layers(name: str) -> None:
    tree = ast.parse((PACKAGE / name).read_text("utf-8"))
    outer = {"model", "schema", "check", "validate", "cli", "report", "generate", "positions"}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            assert (node.module or "").split(".")[0] not in outer, name


def test_tile_names_in_the_model_are_the_set() -> None:
    assert list(typing.get_args(model.TileName)) == [str(t) for t in TILES]


def test_mypy_strict_is_clean() -> None:
    # In a subprocess: mypy raises the interpreter's recursion limit, which other tests rely on.
    p = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(PACKAGE.parent / "pyproject.toml"), str(PACKAGE)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert p.returncode == 0, p.stdout + p.stderr


@pytest.mark.parametrize("name", ["viewtext.py", "render_html.py", "render_svg.py"])
def test_renderers_never_touch_the_deal(name: str) -> None:
    """DESIGN.md: renderers render the view object only; the deal is the views module's business."""
    tree = ast.parse((PACKAGE / name).read_text("utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            assert node.attr != "deal", name
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            assert (node.module or "") not in {"hand", "auction", "check", "tiles"}, name


COMPILED = ["seats", "trumps", "rules", "errors", "auction", "hand", "stated", "check", "solver"]


@pytest.mark.parametrize("name", COMPILED)
def test_a_compiled_module_is_built_from_its_current_source(name: str) -> None:
    """setup.py compiles the replay core with mypyc; an editable install puts the
    extension beside the source, and Python imports it first. A stale extension
    would test old code: reinstall (pip install -e .) after editing the source."""
    import importlib

    module = importlib.import_module(f"texas42_log.{name}")
    source = PACKAGE / f"{name}.py"
    if module.__file__ and not module.__file__.endswith(".py"):
        built = Path(module.__file__).stat().st_mtime
        assert built >= source.stat().st_mtime, f"{module.__file__} is older than {source}: reinstall"
    elif os.environ.get("TEXAS42_EXPECT_COMPILED") == "1":
        pytest.fail(f"texas42_log.{name} runs as Python, but this run expects the compiled core")


def test_setup_compiles_exactly_the_core() -> None:
    text = (PACKAGE.parent / "setup.py").read_text("utf-8")
    assert [f"texas42_log/{n}.py" for n in COMPILED] == re.findall(r'"(texas42_log/\w+\.py)"', text)


def _relative_target(module: Path, node: ast.ImportFrom) -> list[Path]:
    base = module.parent
    for _ in range(node.level - 1):
        base = base.parent
    parts = (node.module or "").split(".") if node.module else []
    stem = base.joinpath(*parts) if parts else base
    targets = [stem.with_suffix(".py"), stem / "__init__.py"]
    if not node.module:  # from . import x, y
        targets += [base / f"{a.name}.py" for a in node.names] + [base / a.name / "__init__.py" for a in node.names]
    return [t for t in targets if t.is_file()]


def test_the_build_can_type_check_what_the_compiled_core_reaches() -> None:
    """The build type-checks the compiled core in an environment holding only the
    build requirements. mypy follows every import from those modules and from the
    package's __init__ (TYPE_CHECKING blocks included), so every third-party module
    it reaches must be a build requirement (or pydantic's own) or be listed in the
    ignore_missing_imports override of pyproject.toml. A stray import here once broke
    the build on a fresh machine while passing on one with a warm mypy cache."""
    import tomllib

    config = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text("utf-8"))
    requires = {re.split(r"[<>=\[ ]", r)[0].replace("-", "_") for r in config["build-system"]["requires"]}
    tolerated = {
        m.split(".")[0]
        for o in config["tool"]["mypy"].get("overrides", [])
        if o.get("ignore_missing_imports")
        for m in o["module"]
    }
    # What pydantic itself brings into the build environment.
    allowed = requires | tolerated | {"pydantic_core", "typing_extensions", "annotated_types", "typing_inspection"}
    todo = [PACKAGE / "__init__.py"] + [PACKAGE / f"{n}.py" for n in COMPILED]
    seen: set[Path] = set()
    reached: dict[str, Path] = {}
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        for node in ast.walk(ast.parse(module.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                todo += _relative_target(module, node)
            elif isinstance(node, ast.ImportFrom) and node.module:
                reached.setdefault(node.module.split(".")[0], module)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    reached.setdefault(a.name.split(".")[0], module)
    third_party = {m: p for m, p in reached.items() if m not in sys.stdlib_module_names and m != "texas42_log"}
    missing = {m: str(p.relative_to(PACKAGE.parent)) for m, p in third_party.items() if m not in allowed}
    assert not missing, f"the build's type check reaches modules it cannot find: {missing}"
    assert len(seen) > len(COMPILED)  # the walk really followed the package's imports
