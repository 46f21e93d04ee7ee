"""Analysis: the exact value of every play with all hands open, and its fair
value over the deals its player could not tell apart.

:mod:`.api` is the public face (``open_hand_analysis``, ``fair_analysis``,
``hint``); :mod:`.checks` checks an analysis a log states.

The supported names are those of :mod:`texas42_log` itself; the modules here are the
package's own, and may change between releases.
"""

from typing import Final

#: Worlds drawn for a fair decision unless asked otherwise (here, where the command
#: line reads it, so that ``texas42`` starts without loading the analysis).
DEFAULT_WORLDS: Final = 100
#: The fair analysis's seed unless asked otherwise: the same for every run, so reports agree.
DEFAULT_SEED: Final = 42
