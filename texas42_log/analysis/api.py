"""Analysis on the public API: a match's hands with every hand open, and each play
judged by what its player could see — for a :class:`~texas42_log.log.model.Match`, one
hand of it, or the moment of a live :class:`~texas42_log.play.game.Game`.

::

    from texas42_log import fair_analysis, open_hand_analysis, read_match

    match = read_match(open("match.json", "rb").read())
    for hand in open_hand_analysis(match):          # every hand (or hand=2: the third)
        ...
    fair = fair_analysis(match, 2, worlds=100, seed=42)
    done = annotate_match(match, fair=(100, 42))   # the log with the analysis written in
    done.match                                     # a Match, its format version raised

``hand`` counts from 0, as ``match.hands`` does (the reports print it from 1).
Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..log.model import Match, match_json, minimal_version
from ..log.versions import at_least_version
from .fair import DEFAULT_SEED, DEFAULT_WORLDS, Decision
from .fair_hands import FairHand, fair_hand
from .open_hand import HandAnalysis, Skipped, analyze_match_doc

__all__ = [
    "open_hand_analysis",
    "fair_analysis",
    "fair_hands",
    "annotate_match",
    "reanalysed",
    "Annotated",
    "HandAnalysis",
    "Skipped",
    "FairHand",
    "Decision",
]


def open_hand_analysis(
    match: Match, hand: int | None = None, *, table: bool = True
) -> list[HandAnalysis | Skipped]:
    """The open-hand analysis of every hand of a valid ``match`` (or of hand ``hand``):
    each play's value against its best alternative, with every hand open
    (docs/analysis.md). A hand that cannot be analysed is :class:`Skipped`, with why."""
    from ..log.check import effective_rules

    return analyze_match_doc(effective_rules(match), match_json(match), table=table, only=hand)


def fair_analysis(
    match: Match,
    hand: int,
    *,
    worlds: int = DEFAULT_WORLDS,
    seed: int = DEFAULT_SEED,
    open_hand: bool = True,
    auction: bool = True,
) -> FairHand:
    """The fair analysis of every play of hand ``hand`` of a valid ``match``: each play
    valued over the deals its player could not tell apart, from that player's own
    views (docs/analysis.md). With ``open_hand`` (and a fully known deal) each play also
    carries its open-hand analysis, and so a verdict; with ``auction`` (and a contract)
    the hand's ``auction`` holds the fair verdicts of its calls and declaration."""
    if not 0 <= hand < len(match.hands):
        raise ValueError(
            f"the match has {len(match.hands)} hands, so no hand {hand} (counted from 0)"
        )
    notes = None
    if open_hand:
        a = open_hand_analysis(match, hand, table=False)[0]
        notes = a.plays if isinstance(a, HandAnalysis) else None
    return fair_hand(match, hand, worlds=worlds, seed=seed, open_notes=notes, auction=auction)


def annotated(
    doc: dict[str, Any],
    analyses: list[HandAnalysis | Skipped],
    fair: dict[int, FairHand] | None = None,
) -> dict[str, Any]:
    """``doc`` (a match's JSON form) with each analysed hand's and play's ``analysis``
    written in (an older analysis replaced), and with ``fair`` each hand's fair analysis in
    it too; a hand the open-hand analysis skipped keeps its analysis untouched, unless
    ``fair`` holds one of it (a deal not fully known): then that alone (format 1.6)."""
    hands = doc.get("hands", [])
    for a in analyses:
        f = None if fair is None else fair.get(a.hand)
        if isinstance(a, Skipped):
            if f is not None and (f.plays or f.skipped):
                # a deal not fully known (1.6): the fair analysis alone, of the plays whose
                # player's own tiles were known
                hand = hands[a.hand]
                hand["analysis"] = {"fair": f.as_dict()}
                for p in hand.get("plays", []):
                    p.pop("analysis", None)
                for fn in f.plays:
                    hand["plays"][fn.index]["analysis"] = {"fair": fn.as_dict()}
                _auction_written(hand, f)
            elif f is not None and f.auction is not None and f.auction.calls:
                # all four passed: the passes judged (format 1.10), how they were drawn
                hand = hands[a.hand]
                hand["analysis"] = {"fair": f.as_dict()}
                _auction_written(hand, f)
            continue
        hand = hands[a.hand]
        hand["analysis"] = a.as_dict()
        for p in hand.get("plays", []):
            p.pop("analysis", None)
        for note in a.plays:
            hand["plays"][note.index]["analysis"] = note.as_dict()
        if f is not None:
            hand["analysis"]["fair"] = f.as_dict()
            for fn in f.plays:
                hand["plays"][fn.index].setdefault("analysis", {})["fair"] = fn.as_dict()
            _auction_written(hand, f)
    return doc


def _auction_written(hand: dict[str, Any], f: FairHand) -> None:
    """The fair verdicts of a hand's calls and declaration written in (format 1.8); an older
    one replaced."""
    for c in hand.get("auction", []):
        c.pop("analysis", None)
    if isinstance(hand.get("declaration"), dict):
        hand["declaration"].pop("analysis", None)
    a = f.auction
    if a is None:
        return
    for n in a.calls:
        hand["auction"][n.index]["analysis"] = {"fair": n.as_dict()}
    if a.declaration is not None:
        hand["declaration"]["analysis"] = {"fair": a.declaration.as_dict()}


def annotated_match(
    match: Match,
    analyses: list[HandAnalysis | Skipped],
    fair: dict[int, FairHand] | None = None,
    *,
    least: str = "1.0",
) -> Match:
    """``match`` with ``analyses`` (and ``fair``) written in (:func:`annotated`), its
    format version raised to the least that holds the result (and to ``least``), never
    lowered."""
    doc = annotated(match_json(match), analyses, fair)
    version = at_least_version(str(doc.get("version", "1.0")), minimal_version(doc))
    doc["version"] = at_least_version(version, least)
    return Match.model_validate(doc)


def fair_hands(
    match: Match, analyses: list[HandAnalysis | Skipped], worlds: int, seed: int
) -> dict[int, FairHand]:
    """The fair analysis of each hand of ``analyses`` (the open-hand analysis of the match),
    by hand number from 0: beside an analysed hand, with its verdicts from the open-hand
    values; for a hand it skipped (a deal not fully known), of every play whose player's own
    tiles were known; for a hand all four passed, its passes. A hand with no contract and no
    judged call has none."""
    out: dict[int, FairHand] = {}
    for a in analyses:
        if isinstance(a, HandAnalysis):
            out[a.hand] = fair_hand(match, a.hand, worlds=worlds, seed=seed, open_notes=a.plays)
        elif 0 <= a.hand < len(match.hands):
            f = fair_hand(match, a.hand, worlds=worlds, seed=seed)
            if f.contract is not None or (f.auction is not None and f.auction.calls):
                out[a.hand] = f
    return out


@dataclass(frozen=True)
class Annotated:
    """What :func:`annotate_match` made: the annotated ``match``, the numbers (from 0)
    of the hands it analysed, and the hands it skipped, each with why."""

    match: Match
    analysed: list[int]
    skipped: list[Skipped]


def annotate_match(
    match: Match,
    hand: int | None = None,
    *,
    table: bool = True,
    fair: tuple[int, int] | None = None,
) -> Annotated:
    """A valid ``match`` with its analysis written into the log (docs/analysis.md):
    each analysed hand's and play's open-hand ``analysis`` (an older one replaced), and
    with ``fair`` = (worlds, seed) each hand's fair analysis beside it. The format
    version is raised to the least that holds the result (:func:`minimal_version`),
    never lowered. ``hand`` (from 0) analyses that hand alone; ``table`` adds the
    makeable-contract table. Pure: the match given is not changed."""
    analyses = open_hand_analysis(match, hand, table=table)
    fairs = None if fair is None else fair_hands(match, analyses, *fair)
    return Annotated(
        annotated_match(match, analyses, fairs),
        [a.hand for a in analyses if isinstance(a, HandAnalysis)],
        [a for a in analyses if isinstance(a, Skipped)],
    )


def reanalysed(match: Match) -> Match | None:
    """A log before format 1.6 with a fair analysis, its analysis recomputed by 1.6's rule
    (cost and marks against the one best play, docs/analysis.md): every hand that states one,
    open-hand and fair, with the worlds and seed it states (and its makeable table if it had
    one); the version raised to 1.6 or more. None when there is nothing to recompute (no
    fair analysis, or one stated by 1.6's rule already). Pure: ``match`` is not changed."""
    from ..analysis.checks import stated_runs
    from ..log.check import effective_rules
    from ..log.versions import BEST_PLAY_SINCE, states_best_play

    doc = match_json(match)
    runs = stated_runs(doc)
    if not runs or states_best_play(doc.get("version")):
        return None
    rules = effective_rules(match)
    analyses: list[HandAnalysis | Skipped] = []
    fairs: dict[int, FairHand] = {}
    for h, (worlds, seed) in sorted(runs.items()):
        table = bool((doc["hands"][h].get("analysis") or {}).get("table"))
        (a,) = analyze_match_doc(rules, doc, table=table, only=h)
        analyses.append(a)
        notes = a.plays if isinstance(a, HandAnalysis) else None
        # what it states, by 1.6's rule: no verdicts of the auction it never held
        fairs[h] = fair_hand(match, h, worlds=worlds, seed=seed, open_notes=notes, auction=False)
    return annotated_match(match, analyses, fairs, least=BEST_PLAY_SINCE)
