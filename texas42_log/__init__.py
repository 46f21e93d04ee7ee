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
* :mod:`.cli` — the ``texas42`` command; it only translates

The names below are the public API; everything else is the package's own.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .analysis.api import Annotated, annotate_match, fair_analysis, open_hand_analysis
    from .engine.actions import Action, Call, Deal, Declare, Play, parse_action
    from .engine.errors import Diagnostic, IllegalAction, MalformedLog
    from .engine.presets import PRESETS
    from .engine.rules import Rules
    from .engine.tiles import TILES, Tile
    from .engine.trumps import Trump
    from .files.formats import Format
    from .files.formats import register as register_format
    from .files.reader import InputError, Read, ReadError, read_matches
    from .files.validate import ValidationResult, read_match, validate_bytes
    from .log.model import FORMAT_NAME, FORMAT_VERSION, Match
    from .play.game import Game, Step, Turn
    from .play.game_views import hint
    from .views.model import View

from ._version import __version__

#: The public names and their modules, imported when first used (PEP 562): importing
#: the package costs nothing, so the ``texas42`` command can set up its signal
#: handling before anything heavy loads.
_LAZY = {
    "Game": "play.game",
    "Turn": "play.game",
    "Step": "play.game",
    "Action": "engine.actions",
    "Call": "engine.actions",
    "Declare": "engine.actions",
    "Play": "engine.actions",
    "Deal": "engine.actions",
    "parse_action": "engine.actions",
    "Diagnostic": "engine.errors",
    "IllegalAction": "engine.errors",
    "MalformedLog": "engine.errors",
    "FORMAT_NAME": "log.model",
    "FORMAT_VERSION": "log.model",
    "Match": "log.model",
    "PRESETS": "engine.presets",
    "Rules": "engine.rules",
    "TILES": "engine.tiles",
    "Tile": "engine.tiles",
    "Trump": "engine.trumps",
    "open_hand_analysis": "analysis.api",
    "fair_analysis": "analysis.api",
    "annotate_match": "analysis.api",
    "Annotated": "analysis.api",
    "hint": "play.game_views",
    "read_match": "files.validate",
    "validate_bytes": "files.validate",
    "ValidationResult": "files.validate",
    "read_matches": "files.reader",
    "Read": "files.reader",
    "InputError": "files.reader",
    "ReadError": "files.reader",
    "Format": "files.formats",
    "register_format": "files.formats:register",
    "View": "views.model",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        where, _, attribute = _LAZY[name].partition(":")
        module = importlib.import_module(f".{where}", __name__)
        _restore_docs(module)
        value = getattr(module, attribute or name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _restore_docs(module: Any) -> None:
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
        module._docs_restored = True
    except AttributeError:
        pass


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "Action",
    "Call",
    "Deal",
    "Declare",
    "Game",
    "Play",
    "Step",
    "Turn",
    "parse_action",
    "Diagnostic",
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "IllegalAction",
    "MalformedLog",
    "Match",
    "PRESETS",
    "Rules",
    "TILES",
    "Tile",
    "Trump",
    "open_hand_analysis",
    "fair_analysis",
    "annotate_match",
    "Annotated",
    "hint",
    "read_match",
    "read_matches",
    "Read",
    "InputError",
    "ReadError",
    "validate_bytes",
    "ValidationResult",
    "View",
    "Format",
    "register_format",
    "__version__",
]
