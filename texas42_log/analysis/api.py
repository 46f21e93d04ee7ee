"""Analysis on the public API: a match's hands with every hand open, and each play
judged by what its player could see — for a :class:`~texas42_log.log.model.Match`, one
hand of it, or the moment of a live :class:`~texas42_log.play.game.Game`.

::

    from texas42_log import fair_analysis, open_hand_analysis, read_match

    match = read_match(open("match.json", "rb").read())
    for hand in open_hand_analysis(match):          # every hand (or hand=2: the third)
        ...
    fair = fair_analysis(match, 2, worlds=100, seed=42)

``hand`` counts from 0, as ``match.hands`` does (the reports print it from 1).
Pure: no I/O.
"""

from __future__ import annotations

from .open_hand import HandAnalysis, Skipped, analyze_match_doc
from .fair import DEFAULT_SEED, DEFAULT_WORLDS, Decision
from .fair_hands import FairHand, fair_hand
from ..log.model import Match


__all__ = ["open_hand_analysis", "fair_analysis", "HandAnalysis", "Skipped", "FairHand", "Decision"]


def open_hand_analysis(match: Match, hand: int | None = None, *, table: bool = True) -> list[HandAnalysis | Skipped]:
    """The open-hand analysis of every hand of a valid ``match`` (or of hand ``hand``):
    each play's value against its best alternative, with every hand open
    (docs/analysis.md). A hand that cannot be analysed is :class:`Skipped`, with why."""
    from ..log.check import effective_rules
    from ..log.model import match_json

    return analyze_match_doc(effective_rules(match), match_json(match), table=table, only=hand)


def fair_analysis(
    match: Match, hand: int, *, worlds: int = DEFAULT_WORLDS, seed: int = DEFAULT_SEED, open_hand: bool = True
) -> FairHand:
    """The fair analysis of every play of hand ``hand`` of a valid ``match``: each play
    valued over the deals its player could not tell apart, from that player's own
    views (docs/analysis.md). With ``open_hand`` (and a fully known deal) each play also
    carries its open-hand analysis, and so a verdict."""
    if not 0 <= hand < len(match.hands):
        raise ValueError(f"the match has {len(match.hands)} hands, so no hand {hand} (counted from 0)")
    notes = None
    if open_hand:
        a = open_hand_analysis(match, hand, table=False)[0]
        notes = a.plays if isinstance(a, HandAnalysis) else None
    return fair_hand(match, hand, worlds=worlds, seed=seed, open_notes=notes)
