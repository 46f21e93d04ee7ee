"""texas42-log: record, check and replay games of Texas 42.

The layers, inner to outer (python-chess style; the core never imports the outer):

* :mod:`.tiles`, :mod:`.trumps`, :mod:`.seats`, :mod:`.rules` — pure facts (R1–R19)
* :mod:`.auction`, :mod:`.hand` — replay state, checked and unchecked paths
* :mod:`.model`, :mod:`.schema` — the log format v1 (pydantic, JSON Schema)
* :mod:`.check`, :mod:`.validate` — replay a log, report every broken rule
* :mod:`.game`, :mod:`.actions` — live play: :class:`Game`, legal actions, push and pop
* :mod:`.worlds`, :mod:`.solver`, :mod:`.analysis`, :mod:`.fair`, :mod:`.analyze` — analysis:
  open hands, and each play judged over the deals its player could not tell apart
* :mod:`.cli` — the ``texas42`` command; it only translates
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .actions import Action, Call, Deal, Declare, Play, parse_action
    from .errors import Diagnostic, IllegalAction, MalformedLog
    from .game import Game, Step, Turn
    from .model import FORMAT_NAME, FORMAT_VERSION, Match
    from .rules import PRESETS, Rules
    from .tiles import TILES, Tile
    from .trumps import Trump
    from .analyze import fair_analysis, hint, open_hand_analysis
    from .validate import read_match

__version__ = "0.1.0"

#: The public names and their modules, imported when first used (PEP 562): importing
#: the package costs nothing, so the ``texas42`` command can set up its signal
#: handling before anything heavy loads.
_LAZY = {
    "Game": "game", "Turn": "game", "Step": "game",
    "Action": "actions", "Call": "actions", "Declare": "actions", "Play": "actions", "Deal": "actions",
    "parse_action": "actions",
    "Diagnostic": "errors", "IllegalAction": "errors", "MalformedLog": "errors",
    "FORMAT_NAME": "model", "FORMAT_VERSION": "model", "Match": "model",
    "PRESETS": "rules", "Rules": "rules", "TILES": "tiles", "Tile": "tiles", "Trump": "trumps",
    "open_hand_analysis": "analyze", "fair_analysis": "analyze", "hint": "analyze", "read_match": "validate",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        module = importlib.import_module(f".{_LAZY[name]}", __name__)
        _restore_docs(module)
        value = getattr(module, name)
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
            if cls is not None and doc and (not cls.__doc__ or cls.__doc__ == "mypyc filler docstring"):
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
    "hint",
    "read_match",
    "__version__",
]
