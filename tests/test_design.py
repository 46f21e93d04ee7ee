"""Design rules that code review alone would miss: layering, typing, names."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import typing
from collections.abc import Iterator
from pathlib import Path

import pytest

from texas42_log.engine.tiles import TILES
from texas42_log.log import model

PACKAGE = Path(__file__).resolve().parent.parent / "texas42_log"
ROOT = PACKAGE.parent

#: The layers, inner to outer: a module may import its own layer and those before it,
#: never one after (docs/architecture.md). The package's own ``__init__``, ``__main__``
#: and ``entry`` are its face and its door, above every layer: no layer imports them.
#: ``_version`` is the floor below every layer (it imports nothing).
LAYERS = [
    "engine",
    "log",
    "views",
    "analysis",
    "play",
    "bots",
    "envs",
    "files",
    "corpus",
    "board",
    "table",
    "cli",
]


def _modules(layer: str) -> list[Path]:
    return sorted((PACKAGE / layer).rglob("*.py"))


def _imported(module: Path, package: Path = PACKAGE) -> Iterator[tuple[int, tuple[str, ...]]]:
    """Every module of the package that ``module`` imports, anywhere in it (functions
    and type-checking blocks included), as its path parts below the package."""
    for node in ast.walk(ast.parse(module.read_text("utf-8"))):
        targets: list[tuple[str, ...]] = []
        if isinstance(node, ast.ImportFrom) and node.level:
            base = module.parent
            for _ in range(node.level - 1):
                base = base.parent
            stem = base.joinpath(*node.module.split(".")) if node.module else base
            targets.append(stem.relative_to(package).parts)
            if not node.module:  # from . import x, y: the names may be modules
                targets += [(stem / a.name).relative_to(package).parts for a in node.names]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("texas42_log."):
            targets.append(tuple(node.module.split(".")[1:]))  # type: ignore[union-attr]
        elif isinstance(node, ast.Import):
            targets += [
                tuple(a.name.split(".")[1:])
                for a in node.names
                if a.name.startswith("texas42_log.")
            ]
        for t in targets:
            yield node.lineno, t


#: The package root's modules, as import targets: ``from .. import x`` names the root itself.
ROOT_FACE = {(), ("__init__",), ("__main__",), ("entry",)}


def layer_violations(package: Path, layers: list[str]) -> list[str]:
    """Each import of a layer above the importing module's own, as ``file:line: a -> b``."""
    out = []
    for me in layers:
        for module in sorted((package / me).rglob("*.py")):
            for line, target in _imported(module, package):
                if target in ROOT_FACE:
                    out.append(
                        f"{module.relative_to(package)}:{line}: {me} imports the package root"
                    )
                elif target and target[0] in layers and layers.index(target[0]) > layers.index(me):
                    out.append(
                        f"{module.relative_to(package)}:{line}: {me} imports {'.'.join(target)}"
                    )
    return out


def test_every_module_is_in_a_layer() -> None:
    loose = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert loose == ["__init__.py", "__main__.py", "_version.py", "entry.py"]
    folders = sorted(p.name for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__")
    assert folders == sorted(
        LAYERS + ["data"]
    )  # data: the schema and rules text, installed as files


def test_no_module_imports_a_layer_above_its_own() -> None:
    assert layer_violations(PACKAGE, LAYERS) == []


def test_the_layer_rule_sees_an_upward_import(tmp_path: Path) -> None:
    """The check has teeth: a deferred import of a higher layer, inside a function, is found."""
    for layer, text in {
        "engine": "def f() -> None:\n    from ..play.game import Game\n",
        "play": "X = 1\n",
        "views": "from .. import __version__\n",
    }.items():
        (tmp_path / layer).mkdir()
        (tmp_path / layer / "__init__.py").write_text("")
        (tmp_path / layer / "m.py").write_text(text)
    assert layer_violations(tmp_path, ["engine", "views", "play"]) == [
        "engine/m.py:2: engine imports play.game",
        "views/m.py:1: views imports the package root",
    ]


def test_the_version_is_written_once() -> None:
    """pyproject.toml's version is dynamic, read from texas42_log/_version.py; no other
    file of the package or the build writes a version number of its own."""
    text = (ROOT / "pyproject.toml").read_text("utf-8")
    assert 'dynamic = ["version"]' in text
    assert not re.search(r'^version\s*=\s*"', text, re.M)
    found = [
        str(p.relative_to(ROOT))
        for p in [*PACKAGE.rglob("*.py"), ROOT / "setup.py"]
        if re.search(r"^__version__\s*=", p.read_text("utf-8"), re.M)
    ]
    assert found == ["texas42_log/_version.py"]
    from importlib.metadata import version

    import texas42_log

    assert texas42_log.__version__ == version("texas42-log")


# The engine does no I/O (docs/architecture.md): no json, pathlib, typer, logging, print; nor do the
# views, the analysis and live play, which are pure functions of the engine's state.
PURE = [
    p for layer in ("engine", "views", "analysis", "play", "bots", "envs") for p in _modules(layer)
] + [
    PACKAGE / "log" / n
    for n in ("check.py", "stated.py", "replayed.py", "broken.py", "annotate.py", "model.py")
]
IO_MODULES = {"json", "pathlib", "typer", "logging", "os", "sys", "io", "rich", "click"}
#: Writing JSON text is not I/O: the HTML page embeds its data, and a stated analysis is
#: compared in its written form. The engine has no use for it at all.
WRITES_JSON_TEXT = {"views/html.py", "analysis/checks.py"}


#: Reading one setting from the environment is not I/O: engine/search.py reads
#: TEXAS42_SOLVER (which solver serves) each time it chooses, and how many cores it may
#: use (``search_threads``), and nothing else of os.
READS_ONE_SETTING = {"engine/search.py": "TEXAS42_SOLVER"}
OS_FACTS = {"environ", "sched_getaffinity", "cpu_count"}


@pytest.mark.parametrize("module", PURE, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_pure_layers_do_no_io(module: Path) -> None:
    name = str(module.relative_to(PACKAGE))
    banned = IO_MODULES - {"json"} if name in WRITES_JSON_TEXT else IO_MODULES
    if name in READS_ONE_SETTING:
        banned = banned - {"os"}
        uses = [
            n
            for n in ast.walk(ast.parse(module.read_text("utf-8")))
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "os"
        ]
        assert uses and all(u.attr in OS_FACTS for u in uses), (
            f"{name} may read os.environ and the cores only"
        )
        assert READS_ONE_SETTING[name] in module.read_text("utf-8")
    tree = ast.parse(module.read_text("utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert not {a.name.split(".")[0] for a in node.names} & banned, name
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            assert node.module.split(".")[0] not in banned, name
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in {"print", "open", "input"}, name


def test_the_words_of_seats_trumps_and_tiles_are_the_engines() -> None:
    """The log's seat, trump and tile words are the engine's (declared once there): the
    models, the schema's enums and the foreign formats' seat numbers use them."""
    from texas42_log.engine.seats import SEATS
    from texas42_log.engine.trumps import Trump, TrumpWord
    from texas42_log.log.foreign import SEAT_OF
    from texas42_log.log.schema import generate_schema

    assert list(typing.get_args(model.TileName)) == [str(t) for t in TILES]
    assert list(typing.get_args(TrumpWord)) == [t.value for t in Trump]
    assert model.TrumpName is TrumpWord and SEAT_OF is SEATS
    defs = generate_schema()["$defs"]
    assert defs["Trump"]["enum"] == [t.value for t in Trump]
    assert defs["Seat"]["enum"] == list(SEATS)
    assert defs["Tile"]["enum"] == [str(t) for t in TILES]


def test_mypy_strict_is_clean() -> None:
    # In a subprocess: mypy raises the interpreter's recursion limit, which other tests rely on.
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(PACKAGE.parent / "pyproject.toml"),
            str(PACKAGE),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert p.returncode == 0, p.stdout + p.stderr


@pytest.mark.parametrize("name", ["views/text.py", "views/html.py", "views/svg.py"])
def test_renderers_never_touch_the_deal(name: str) -> None:
    """docs/architecture.md: renderers render the view object only; the deal is the views module's
    business."""
    tree = ast.parse((PACKAGE / name).read_text("utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            assert node.attr != "deal", name
    for _, target in _imported(PACKAGE / name):
        assert ".".join(target) not in {
            "engine.hand",
            "engine.auction",
            "log.check",
            "engine.tiles",
        }, name


def _compiled() -> list[str]:
    """The modules setup.py compiles with mypyc, read from setup.py itself (one list)."""
    import ast

    tree = ast.parse((PACKAGE.parent / "setup.py").read_text("utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", "") for t in node.targets] == [
            "COMPILED"
        ]:
            paths: list[str] = ast.literal_eval(node.value)
            return [p.removeprefix("texas42_log/").removesuffix(".py") for p in paths]
    raise AssertionError("setup.py names no COMPILED list")


COMPILED = _compiled()


@pytest.mark.parametrize("name", COMPILED)
def test_a_compiled_module_is_built_from_its_current_source(name: str) -> None:
    """setup.py compiles the replay core with mypyc; an editable install puts the
    extension beside the source, and Python imports it first. A stale extension
    would test old code: reinstall (pip install -e .) after editing the source."""
    import importlib

    module = importlib.import_module("texas42_log." + name.replace("/", "."))
    source = PACKAGE / f"{name}.py"
    if module.__file__ and not module.__file__.endswith(".py"):
        built = Path(module.__file__).stat().st_mtime
        assert built >= source.stat().st_mtime, (
            f"{module.__file__} is older than {source}: reinstall"
        )
    elif os.environ.get("TEXAS42_EXPECT_COMPILED") == "1":
        pytest.fail(f"texas42_log/{name} runs as Python, but this run expects the compiled core")


def test_the_suite_runs_on_the_native_solver_when_ci_expects_it() -> None:
    """.ci/run sets TEXAS42_EXPECT_NATIVE=1: there the native solver must be built, be
    the one chosen, and be built from the current source. Elsewhere (a machine without
    a compiler) the reference serves, and the equality tests say so by name."""
    from texas42_log.engine import native, search

    if native.AVAILABLE:  # a stale build would test old code: reinstall (pip install -e .)
        from texas42_log.engine import _native

        assert _native.__file__ is not None
        built = Path(_native.__file__).stat().st_mtime
        assert built >= (PACKAGE / "engine" / "_native.c").stat().st_mtime, (
            f"{_native.__file__} is older than _native.c"
        )
    if os.environ.get("TEXAS42_EXPECT_NATIVE") == "1":
        assert native.AVAILABLE, (
            "this run expects the native solver, but texas42_log.engine._native is not built"
        )
        assert search.solver_choice() == "native", (
            "TEXAS42_SOLVER chooses another solver in a run that expects native"
        )


def test_setup_compiles_exactly_the_core() -> None:
    text = (PACKAGE.parent / "setup.py").read_text("utf-8")
    assert [f"texas42_log/{n}.py" for n in COMPILED] == re.findall(
        r'"(texas42_log/[\w/]+\.py)"', text
    )


def _relative_target(module: Path, node: ast.ImportFrom) -> list[Path]:
    base = module.parent
    for _ in range(node.level - 1):
        base = base.parent
    parts = (node.module or "").split(".") if node.module else []
    stem = base.joinpath(*parts) if parts else base
    targets = [stem.with_suffix(".py"), stem / "__init__.py"]
    if not node.module:  # from . import x, y
        targets += [base / f"{a.name}.py" for a in node.names] + [
            base / a.name / "__init__.py" for a in node.names
        ]
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
    requires = {
        re.split(r"[<>=\[ ]", r)[0].replace("-", "_") for r in config["build-system"]["requires"]
    }
    tolerated = {
        m.split(".")[0]
        for o in config["tool"]["mypy"].get("overrides", [])
        if o.get("ignore_missing_imports")
        for m in o["module"]
    }
    # What pydantic itself brings into the build environment.
    allowed = (
        requires
        | tolerated
        | {"pydantic_core", "typing_extensions", "annotated_types", "typing_inspection"}
    )
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
    third_party = {
        m: p for m, p in reached.items() if m not in sys.stdlib_module_names and m != "texas42_log"
    }
    missing = {
        m: str(p.relative_to(PACKAGE.parent)) for m, p in third_party.items() if m not in allowed
    }
    assert not missing, f"the build's type check reaches modules it cannot find: {missing}"
    assert len(seen) > len(COMPILED)  # the walk really followed the package's imports


#: What the CLI may take from the layers below for input: the one reader, whole. From
#: the formats' registry only what names and writes formats; nothing that opens, sniffs,
#: limits or validates input (docs/architecture.md, "where to add a format").
CLI_FORMATS_NAMES = {
    "EXTENSIONS",
    "READABLE",
    "STREAMED",
    "WRITABLE",
    "CannotExport",
    "ConvertError",
    "write_matches",
    "write_losses",
    "write_chunk",
    "write_hand",
    "hand_formats",
    "holds_comments",
    "parallel",
    "one_a_line",
    "renumbered",
    "dropped_lines",
    "write_documents",
    "SINGLE",
    "format_for_name",
    "format_named",
    "other_names",
    "format_list",
    "searched_suffixes",
}
CLI_NEVER = {
    "files.inputs",
    "files.validate",
    "log.strictjson",
    "log.notation_tokens",
    "log.notation_header",
    "log.positions",
}
#: The terminal's own keystrokes (the recorder's prompts, the stepper's keys) are read
#: by the CLI itself: that is the terminal, not an input log.
READS_THE_TERMINAL = {"record.py", "stepper.py"}


def _cli_imports() -> Iterator[tuple[str, int, str, list[str], bool]]:
    """(module, line, target, names, type-only) for each import of the package in cli/."""
    for module in sorted((PACKAGE / "cli").glob("*.py")):
        tree = ast.parse(module.read_text("utf-8"))
        type_only = {
            id(n)
            for node in ast.walk(tree)
            if isinstance(node, ast.If)
            and isinstance(node.test, ast.Name)
            and node.test.id == "TYPE_CHECKING"
            for n in ast.walk(node)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 2 and node.module:
                yield (
                    module.name,
                    node.lineno,
                    node.module,
                    [a.name for a in node.names],
                    id(node) in type_only,
                )


def test_no_command_asks_for_a_format_by_its_name() -> None:
    """What a format is, holds and loses is a field of its ``Format``: no comparison in
    cli/ against a registered format's name (the choices offered in help are fine)."""
    from texas42_log.files.formats import REGISTRY

    names = set(REGISTRY)
    found = []
    for module in sorted((PACKAGE / "cli").glob("*.py")):
        for node in ast.walk(ast.parse(module.read_text("utf-8"))):
            if not isinstance(node, ast.Compare):
                continue
            sides = [node.left, *node.comparators]
            if any(
                (isinstance(x, ast.Name) and x.id == "output")
                or (isinstance(x, ast.Attribute) and x.attr == "form")
                for x in sides
            ):
                continue  # a report's --format (text, json, csv), not a file's format
            for side in sides:
                words = [side] if isinstance(side, ast.Constant) else getattr(side, "elts", [])
                said = {w.value for w in words if isinstance(w, ast.Constant)} & names
                if said:
                    found.append(f"cli/{module.name}:{node.lineno}: compares with {sorted(said)}")
    assert not found, "\n".join(found)


def test_the_commands_carry_their_annotations_evaluated() -> None:
    """typer reads every command's signature on every run (``get_type_hints``); an
    annotation left a string (``from __future__ import annotations``) is compiled then, a
    few dozen milliseconds of each command's start. A module that defines commands writes
    real annotations; a name imported only for the type checker is quoted where used."""
    found = []
    for module in sorted((PACKAGE / "cli").glob("*.py")):
        tree = ast.parse(module.read_text("utf-8"))
        commands = any(
            isinstance(node, ast.FunctionDef)
            and any("command" in ast.unparse(d) for d in node.decorator_list)
            for node in ast.walk(tree)
        )
        future = any(
            isinstance(node, ast.ImportFrom)
            and node.module == "__future__"
            and any(a.name == "annotations" for a in node.names)
            for node in tree.body
        )
        if commands and future:
            found.append(f"cli/{module.name}")
    assert not found, found


def test_the_cli_reads_input_only_through_the_reader() -> None:
    found = []
    for name, line, target, names, type_only in _cli_imports():
        if target in CLI_NEVER and not (type_only and target == "files.validate"):
            found.append(f"cli/{name}:{line}: imports {target}")
        if target == "files.formats" and set(names) - CLI_FORMATS_NAMES:
            found.append(
                f"cli/{name}:{line}: takes {sorted(set(names) - CLI_FORMATS_NAMES)} from the "
                "formats"
            )
        if target == "corpus.validation" and set(names) - {
            "Summary",
            "default_jobs",
            "summary_text",
            "validate_files",
        }:
            found.append(f"cli/{name}:{line}: takes {names} from corpus.validation")
    for module in sorted((PACKAGE / "cli").glob("*.py")):
        for node in ast.walk(ast.parse(module.read_text("utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "open"
            ):
                found.append(f"cli/{module.name}:{node.lineno}: opens a file itself")
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in {"read", "readline", "read_bytes", "read_text", "readlines"}
                and module.name not in READS_THE_TERMINAL
            ):
                found.append(f"cli/{module.name}:{node.lineno}: reads with .{node.func.attr}()")
    assert found == []
    # and the check looks where it should: the CLI does read through the reader
    assert any(t == "files.reader" for _, _, t, _, _ in _cli_imports())


def private_imports(package: Path) -> list[str]:
    """Each import of a private name (``_x``) of another module of the package, as
    ``file:line: module.name``. A package may import its own private module (``from .
    import _native`` in the module that wraps it); no module takes another's private
    functions, classes or constants."""
    out = []
    for module in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(module.read_text("utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            if not (node.level or (node.module or "").startswith("texas42_log")):
                continue
            for a in node.names:
                if not a.name.startswith("_") or a.name.startswith("__"):
                    continue
                base = module.parent
                for _ in range(max(node.level - 1, 0)):
                    base = base.parent
                own_module = node.module is None and (base / f"{a.name}.py").exists()
                own_c_module = node.module is None and (base / f"{a.name}.c").exists()
                if not (own_module or own_c_module):
                    where = f"{module.relative_to(package)}:{node.lineno}"
                    out.append(f"{where}: {'.' * node.level}{node.module or ''}.{a.name}")
    return out


def test_no_module_imports_another_modules_private_names(tmp_path: Path) -> None:
    assert private_imports(PACKAGE) == []
    (tmp_path / "a.py").write_text("from .b import _helper\nfrom . import _native\n")
    (tmp_path / "b.py").write_text("def _helper() -> None: ...\n")
    (tmp_path / "_native.c").write_text("")
    assert private_imports(tmp_path) == ["a.py:1: .b._helper"]


def test_every_readers_error_is_one_positioned_error() -> None:
    """One base for what a reader found wrong and where (message, line, column): strict
    JSON, the text notation, the other programs' formats and a conversion. Any other
    error class of the readers that carries a line is held to it too."""
    from texas42_log.files.formats import ConvertError
    from texas42_log.log.foreign import ForeignFormatError
    from texas42_log.log.notation_tokens import NotationError
    from texas42_log.log.positions import PositionedError
    from texas42_log.log.strictjson import JSONError

    for cls in (ConvertError, ForeignFormatError, NotationError, JSONError):
        assert issubclass(cls, PositionedError), cls
    for path in [*(PACKAGE / "log").rglob("*.py"), *(PACKAGE / "files").glob("*.py")]:
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and node.name.endswith("Error"):
                text = ast.get_source_segment(path.read_text("utf-8"), node) or ""
                if "self.line" in text or "self.column" in text:
                    assert node.name == "PositionedError", (
                        f"{path.name}: {node.name} keeps its own line and column; "
                        "derive it from log.positions.PositionedError"
                    )


def test_the_contract_vocabulary_comes_from_engine_values() -> None:
    """engine/solver.py holds the reference search only; what a value means for the
    contract (makeable, goal, maximiser, a Move and its key) is engine/values.py's, and
    nobody takes it from the solver."""
    words = {"Move", "NotSolvable", "goal", "makeable", "maximiser", "move_key", "move_of"}
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("solver"):
                taken = {a.name for a in node.names} & words
                assert not taken, f"{path.relative_to(PACKAGE)} takes {taken} from the solver"


def test_the_public_names_are_written_once() -> None:
    """texas42_log/__init__.py lists the public API in one place, its TYPE_CHECKING
    imports (each ``X as X``, so mypy sees it exported); ``__all__`` and the lazy loader
    follow from that block: no other list of the names in the file."""
    import texas42_log

    tree = ast.parse((PACKAGE / "__init__.py").read_text("utf-8"))
    blocks = [n for n in tree.body if isinstance(n, ast.If)]
    assert len(blocks) == 1
    names = []
    for node in blocks[0].body:
        assert isinstance(node, ast.ImportFrom)
        for a in node.names:
            assert a.asname == a.name, a.name
            names.append(a.name)
    assert texas42_log.__all__ == [*names, "__version__"]
    assigned = {
        t.id
        for n in tree.body
        if isinstance(n, ast.Assign)
        for t in n.targets
        if isinstance(t, ast.Name)
    }
    assert "__all__" not in assigned
    said = [  # a name spelled as a string anywhere else is a second list
        n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and n.value in names
    ]
    assert not said, said
    for name in names:
        assert getattr(texas42_log, name) is not None


#: The longest a module may grow: past it, a module is doing two jobs (CONTRIBUTING.md).
MODULE_LINES = 600
#: The longest a function's body may be (its statements after the docstring; a command's
#: options are its signature, not its body).
FUNCTION_LINES = 80
#: The functions still longer, each with its reason: a new one is a failure, and one
#: that shrinks under the bound must leave the list (the list only shrinks).
LONG_FUNCTIONS = {
    "engine/declare.py:declaration_problems": "every rule of a declaration (R12, the "
    "special contracts), each a sentence; compiled hot path",
    "log/notation_tokens.py:tokens": "the tokenizer's one state machine (a loop over "
    "characters); compiled-style hot path",
    "log/check.py:_check_hand": "the replay of one hand, R7–R24 in order; compiled hot path",
    "log/plain.py:_hand": "the verdict path's one hand, as strict as the models; compiled "
    "hot path (a call per hand)",
    "log/notation_header.py:tag": "one branch per header tag",
    "files/validate.py:_schema_message": "one sentence per kind of schema error",
    "views/svg.py:_auction": "the auction panel's drawing, top to bottom",
}


def _function_bodies() -> Iterator[tuple[str, int]]:
    for module in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(module.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                body = node.body
                first = body[0]
                if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                    body = body[1:]
                if body:
                    where = f"{module.relative_to(PACKAGE).as_posix()}:{node.name}"
                    yield where, (body[-1].end_lineno or 0) - body[0].lineno + 1


def test_every_module_is_under_its_bound() -> None:
    long = {
        m.relative_to(PACKAGE).as_posix(): n
        for m in PACKAGE.rglob("*.py")
        if (n := len(m.read_text("utf-8").splitlines())) >= MODULE_LINES
    }
    assert not long, f"split these along their seam: {long}"


def test_functions_over_the_bound_are_only_those_listed() -> None:
    long = {where: n for where, n in _function_bodies() if n > FUNCTION_LINES}
    assert set(long) <= set(LONG_FUNCTIONS), sorted(set(long) - set(LONG_FUNCTIONS))
    assert set(LONG_FUNCTIONS) <= set(long), (
        f"under the bound now, leave the list: {sorted(set(LONG_FUNCTIONS) - set(long))}"
    )


def test_the_views_read_no_package_data() -> None:
    """The views are pure: the viewer's files reach them from the files layer
    (texas42_log/files/assets.py), never read by a view."""
    reads = re.compile(
        r"\bimportlib\.resources\b|\bfrom importlib import resources\b|"
        r"\.read_text\(|\.read_bytes\(|\bopen\("
    )
    found = [
        f"{p.relative_to(PACKAGE)}:{n}"
        for p in sorted((PACKAGE / "views").rglob("*.py"))
        for n, line in enumerate(p.read_text("utf-8").splitlines(), 1)
        if reads.search(line)
    ]
    assert found == []
