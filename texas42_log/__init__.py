"""texas42-log: record, check and replay games of Texas 42.

The package is its architecture: one folder per layer, inner to outer, and no
module imports a layer above its own (tests/test_design.py; docs/architecture.md).

* :mod:`.engine` — the game, pure: tiles, trumps, seats, rules (R1–R19), the auction,
  the declaration, a hand played out, actions, the open-hand solver
* :mod:`.log` — the format: models, schema, strict JSON, upgrades, the replay of a log
  (every broken rule), the text notation, other programs' formats
* :mod:`.views` — what one observer may see (R25–R29), as text, SVG and HTML
* :mod:`.analysis` — open-hand and fair analysis
* :mod:`.play` — live play: :class:`Game`, the recorder, random matches
* :mod:`.bots` — players that see only their seat's view, and the duplicate arena
* :mod:`.envs` — the PettingZoo and OpenSpiel environments (optional extras)
* :mod:`.files` — the one reader (names → validated matches), the formats' registry,
  the verdict on a file, atomic writes
* :mod:`.corpus` — many matches on every core
* :mod:`.board` — the review board: a local server that sends each page only its
  observer's views
* :mod:`.table` — a match played from four screens: the referee, its bots and its
  server
* :mod:`.cli` — the ``texas42`` command; it only translates

The names below are the public API; everything else is the package's own.
"""

from __future__ import annotations

import importlib
from types import ModuleType  # loaded with the interpreter: free

from ._version import __version__ as __version__

#: ``typing`` is not imported here: what runs before :mod:`.entry` takes Ctrl-C is kept
#: to the least (mypy reads any ``TYPE_CHECKING`` as true).
TYPE_CHECKING = False

if TYPE_CHECKING:  # the public names, written once: the loader below reads this block
    from .analysis.api import Annotated as Annotated
    from .analysis.api import annotate_match as annotate_match
    from .analysis.api import fair_analysis as fair_analysis
    from .analysis.api import open_hand_analysis as open_hand_analysis
    from .engine.actions import Action as Action
    from .engine.actions import Call as Call
    from .engine.actions import Deal as Deal
    from .engine.actions import Declare as Declare
    from .engine.actions import Play as Play
    from .engine.actions import parse_action as parse_action
    from .engine.errors import Diagnostic as Diagnostic
    from .engine.errors import IllegalAction as IllegalAction
    from .engine.errors import MalformedLog as MalformedLog
    from .engine.presets import PRESETS as PRESETS
    from .engine.rules import Rules as Rules
    from .engine.tiles import TILES as TILES
    from .engine.tiles import Tile as Tile
    from .engine.trumps import Trump as Trump
    from .files.formats import Format as Format
    from .files.formats import register_format as register_format
    from .files.reader import InputError as InputError
    from .files.reader import Read as Read
    from .files.reader import ReadError as ReadError
    from .files.reader import read_matches as read_matches
    from .files.validate import ValidationResult as ValidationResult
    from .files.validate import read_match as read_match
    from .files.validate import validate_bytes as validate_bytes
    from .log.model import FORMAT_NAME as FORMAT_NAME
    from .log.model import FORMAT_VERSION as FORMAT_VERSION
    from .log.model import Match as Match
    from .play.game import Game as Game
    from .play.game import Step as Step
    from .play.game import Turn as Turn
    from .play.game_views import hint as hint
    from .views.model import View as View


#: The public names and their modules, imported when
#: first used (PEP 562): importing the package costs nothing, so the ``texas42`` command
#: can set up its signal handling before anything heavy loads. Read from the
#: TYPE_CHECKING block above at the first use, so that the names are written once.
_LAZY: dict[str, str] = {}


def _public() -> dict[str, str]:
    if not _LAZY:
        import ast
        from pathlib import Path

        tree = ast.parse(Path(__file__).read_text("utf-8"))
        block = next(n for n in tree.body if isinstance(n, ast.If))
        for node in block.body:
            assert isinstance(node, ast.ImportFrom) and node.module
            for alias in node.names:
                _LAZY[alias.asname or alias.name] = node.module
    return _LAZY


def __getattr__(name: str) -> object:
    if name == "__all__":
        return [*_public(), "__version__"]
    if name in _public():
        module = importlib.import_module(f".{_public()[name]}", __name__)
        _restore_docs(module)
        value = getattr(module, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _restore_docs(module: ModuleType) -> None:
    """A module compiled by mypyc (setup.py) has lost its docstrings: put the module's
    and its classes' back from the source installed beside it, so that ``help()``
    explains the public names in the compiled install as in the pure one.
    (Methods of compiled classes keep none: their ``__doc__`` cannot be set.)"""
    file = getattr(module, "__file__", None) or ""
    if file.endswith(".py") or getattr(module, "_docs_restored", False):
        return
    import ast
    from pathlib import Path

    source = Path(file).with_name(module.__name__.rsplit(".", 1)[-1] + ".py")
    try:
        tree = ast.parse(source.read_text("utf-8"))
    except (OSError, SyntaxError, ValueError):
        return
    if not module.__doc__:
        module.__doc__ = ast.get_docstring(tree)
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            cls = getattr(module, node.name, None)
            doc = ast.get_docstring(node)
            if (
                cls is not None
                and doc
                and (not cls.__doc__ or cls.__doc__ == "mypyc filler docstring")
            ):
                try:
                    cls.__doc__ = doc
                except (AttributeError, TypeError):
                    pass
    try:
        setattr(module, "_docs_restored", True)  # noqa: B010 (a name no stub declares)
    except AttributeError:
        pass


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_public()))
