"""Which version of the texas42-log format a document needs: the lowest that holds
it (:func:`minimal_version`), and versions compared and raised. Works on JSON-ready
dicts, so that a writer can ask before it builds a model; :mod:`texas42_log.log.model`
re-exports :func:`minimal_version`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

__all__ = [
    "has_comment_ids",
    "COMMENT_IDS_SINCE",
    "COMMENT_SEATS_SINCE",
    "has_comment_seats",
    "CALL_VERDICTS_SINCE",
    "CALL_VERDICT_FIELDS",
    "has_call_verdicts",
    "AUCTION_SINCE",
    "has_auction_analysis",
    "version_key",
    "at_least_version",
    "minimal_version",
    "LEGACY_OPTIONS",
    "LEGACY_VALUES",
]

#: The nine options format 1.0 spelled out, and the values it knew for those that
#: later gained more.
LEGACY_OPTIONS = (
    "all_pass",
    "hand_end",
    "min_point_bid",
    "max_point_bid",
    "max_opening_mark_bid",
    "mark_bid_raise",
    "no_trump_doubles",
    "all_tricks_stacks",
    "match_goal_marks",
)
LEGACY_VALUES = {
    "all_pass": {"redeal"},
    "hand_end": {"when-decided"},
    "no_trump_doubles": {"high"},
    "all_tricks_stacks": {"bidder-chooses"},
}


def version_key(version: str) -> tuple[int, int]:
    """A format version ("1.4") as a pair that orders versions: (1, 4)."""
    major, _, minor = version.partition(".")
    return (int(major), int(minor or 0))


def at_least_version(version: str, least: str) -> str:
    """``version``, or ``least`` if that is newer: a version raised, never lowered."""
    return version if version_key(version) >= version_key(least) else least


#: The first format version whose fair analysis names its one best play (``best``) and
#: measures cost and marks against it; before it, against the best mean and chance.
BEST_PLAY_SINCE = "1.6"


def states_best_play(version: object) -> bool:
    """Whether a log of ``version`` states its fair analysis by 1.6's rule (the one best
    play), not the rule before it."""
    return version_key(str(version or "1.0")) >= version_key(BEST_PLAY_SINCE)


#: The first format version whose comments carry an ``id``.
COMMENT_IDS_SINCE = "1.7"
#: The first version whose calls and declaration may state a fair verdict.
AUCTION_SINCE = "1.8"
#: The first version whose comments say which seat wrote and who edited them.
COMMENT_SEATS_SINCE = "1.9"
#: The first version whose calls are judged as players bid: the call that pays best, the
#: expected marks given up, and a mark (docs/analysis.md).
CALL_VERDICTS_SINCE = "1.10"
#: The fields of a call's fair verdict that came in :data:`CALL_VERDICTS_SINCE`.
CALL_VERDICT_FIELDS = (
    "expected",
    "pays_best",
    "pays_best_trump",
    "pays_best_expected",
    "marks_lost",
    "marks_lost_se",
    "mark",
)


def has_auction_analysis(doc: dict[str, Any]) -> bool:
    """Whether any call or declaration of ``doc`` states an analysis (format 1.8)."""
    for h in doc.get("hands", []):
        if not isinstance(h, dict):
            continue
        if isinstance(h.get("declaration"), dict) and "analysis" in h["declaration"]:
            return True
        if any(isinstance(c, dict) and "analysis" in c for c in h.get("auction", []) or []):
            return True
    return False


def _comment_objects(doc: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every object of ``doc`` that may hold comments: the match, each hand, call,
    declaration and play."""
    yield doc
    for h in doc.get("hands", []) or []:
        if not isinstance(h, dict):
            continue
        yield h
        for key in ("auction", "plays"):
            for item in h.get(key, []) or []:
                if isinstance(item, dict):
                    yield item
        if isinstance(h.get("declaration"), dict):
            yield h["declaration"]


def has_comment_seats(doc: dict[str, Any]) -> bool:
    """Whether any comment of ``doc`` says its seat or its editor (format 1.9)."""
    return any(
        isinstance(a, dict) and ("seat" in a or "edited_by" in a)
        for obj in _comment_objects(doc)
        for a in obj.get("annotations", []) or []
    )


def has_call_verdicts(doc: dict[str, Any]) -> bool:
    """Whether any call of ``doc`` states a verdict as players bid (format 1.10)."""
    return any(
        isinstance(c, dict)
        and any(k in (((c.get("analysis") or {}).get("fair")) or {}) for k in CALL_VERDICT_FIELDS)
        for h in doc.get("hands", []) or []
        if isinstance(h, dict)
        for c in h.get("auction", []) or []
    )


def has_comment_ids(doc: dict[str, Any]) -> bool:
    """Whether any comment of ``doc`` carries an id (format 1.7)."""
    return any(
        isinstance(a, dict) and "id" in a
        for obj in _comment_objects(doc)
        for a in obj.get("annotations", []) or []
    )


def minimal_version(doc: dict[str, Any]) -> str:
    """The lowest format version that can hold ``doc`` (a JSON-ready dict): "1.10" if a
    call states a verdict as players bid (the call that pays best); "1.9" if a
    comment says its seat or its editor; "1.8" if a call
    or the declaration states an analysis; "1.7" if a
    comment carries an id; "1.6" if it
    holds a fair analysis by 1.6's rule (a play's fair ``best``; a hand's analysis with no
    open-hand value, in a deal not fully known); "1.5" if it
    is played under the preset mk5 or sets special_bids, special_no_trump or sevens_play;
    "1.4" if it holds a fair analysis; "1.3" if it holds an open-hand analysis; "1.2" if it
    uses an option added in 1.2 (dealer_draw, nello_low_min_marks, nello_doubles
    own-suit-or-low); "1.1" if it uses something added in 1.1 (another preset, new
    options or values, special contracts, declared leads, an import's source); else "1.0"."""
    if has_call_verdicts(doc):
        return CALL_VERDICTS_SINCE
    if has_comment_seats(doc):
        return COMMENT_SEATS_SINCE
    if has_auction_analysis(doc):
        return AUCTION_SINCE
    if has_comment_ids(doc):
        return COMMENT_IDS_SINCE
    hands = doc.get("hands", [])
    rules = doc.get("rules", {})
    options = rules.get("options", {})
    if any(
        ("analysis" in h and "value" not in (h.get("analysis") or {}))
        or any("best" in ((p.get("analysis") or {}).get("fair") or {}) for p in h.get("plays", []))
        for h in hands
    ):
        return BEST_PLAY_SINCE
    if rules.get("preset") == "mk5" or {"special_bids", "special_no_trump", "sevens_play"} & set(
        options
    ):
        return "1.5"
    if any(
        "fair" in (h.get("analysis") or {})
        or any("fair" in (p.get("analysis") or {}) for p in h.get("plays", []))
        for h in hands
    ):
        return "1.4"
    if any("analysis" in h or any("analysis" in p for p in h.get("plays", [])) for h in hands):
        return "1.3"
    legacy = (
        rules.get("preset") == "standard"
        and set(k for k in options if not k.startswith("x-")) == set(LEGACY_OPTIONS)
        and all(options[k] in allowed for k, allowed in LEGACY_VALUES.items())
    )
    if options.get("nello_doubles") == "own-suit-or-low" or {
        "dealer_draw",
        "nello_low_min_marks",
    } & set(options):
        return "1.2"
    if not legacy or "source" in doc:
        return "1.1"
    for hand in doc.get("hands", []):
        if any("special" in c for c in hand.get("auction", [])):
            return "1.1"
        decl = hand.get("declaration") or {}
        if "contract" in decl or "doubles" in decl or ("trump" not in decl and decl):
            return "1.1"
        if any("led" in p for p in hand.get("plays", [])):
            return "1.1"
    return "1.0"
