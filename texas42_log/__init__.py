"""texas42-log: record, check and replay games of Texas 42.

The layers, inner to outer (python-chess style; the core never imports the outer):

* :mod:`.tiles`, :mod:`.trumps`, :mod:`.seats`, :mod:`.rules` — pure facts (R1–R19)
* :mod:`.auction`, :mod:`.hand` — replay state, checked and unchecked paths
* :mod:`.model`, :mod:`.schema` — the log format v1 (pydantic, JSON Schema)
* :mod:`.check`, :mod:`.validate` — replay a log, report every broken rule
* :mod:`.cli` — the ``texas42`` command; it only translates
"""

from .errors import Diagnostic, IllegalAction, MalformedLog
from .model import FORMAT_NAME, FORMAT_VERSION, Match
from .rules import PRESETS, Rules
from .tiles import TILES, Tile
from .trumps import Trump

__version__ = "0.1.0"

__all__ = [
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
