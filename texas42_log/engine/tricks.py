"""The play phase's trick (R13–R19), as one object every implementation asks.

:class:`TrickRules` answers, for a suit system (a trump choice and where the non-trump
doubles stand), which suit each tile leads and follows (:meth:`TrickRules.table`) and the
order that decides who wins a trick led in each suit (:meth:`TrickRules.win_keys`; the
hand's :meth:`~texas42_log.engine.hand.PlayState.winner_index` reads a trick by them).
:attr:`Rules.trick_rules <texas42_log.engine.rules.Rules.trick_rules>` is the object a
log plays under. The engine's :class:`~texas42_log.engine.hand.PlayState` takes its
tables from it once per hand, and everything else — both open-hand solvers, the bots,
the views, the fair analysis — reads them from the state, never from
:mod:`.trumps` directly, so a rule option that changes who follows or who wins a trick
changes :attr:`Rules.trick_rules` alone and every part plays by it.

Pure, no I/O. Not compiled: a test (or a scratch walk of a new option) may subclass
:class:`TrickRules`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .tiles import Tile
from .trumps import WIN_KEYS, DoublesMode, TileFacts, Trump, table_for

__all__ = ["TrickRules", "STANDARD_TRICK_RULES"]


@dataclass(frozen=True, slots=True)
class TrickRules:
    """Following and winning a trick (R15–R19), by the seed rules' tables."""

    def table(self, trump: Trump, doubles: DoublesMode) -> dict[Tile, TileFacts]:
        """Every tile's facts under the suit system: trump or not, the suit it leads,
        the suits it follows, its rank in each (R13–R16, R18–R19)."""
        return table_for(trump, doubles)

    def win_keys(self, trump: Trump, doubles: DoublesMode) -> dict[int, dict[Tile, int]]:
        """Per led suit, a number per tile that orders the trick (R17): the highest
        number played wins; a tile absent cannot win a trick led in that suit."""
        return WIN_KEYS[(trump, doubles)]


#: The seed rules' trick (R13–R19).
STANDARD_TRICK_RULES: Final = TrickRules()
