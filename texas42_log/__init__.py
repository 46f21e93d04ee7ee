"""texas42-log: record, check and replay games of Texas 42.

The layers, inner to outer (python-chess style; the core never imports the outer):

* :mod:`.tiles`, :mod:`.trumps`, :mod:`.seats`, :mod:`.rules` — pure facts (R1–R19)
* :mod:`.auction`, :mod:`.hand` — replay state, checked and unchecked paths
* :mod:`.model`, :mod:`.schema` — the log format v1 (pydantic, JSON Schema)
* :mod:`.check`, :mod:`.validate` — replay a log, report every broken rule
* :mod:`.game`, :mod:`.actions` — live play: :class:`Game`, legal actions, push and pop
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
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    "__version__",
]
