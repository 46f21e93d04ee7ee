"""Which version of the texas42-log format a document needs: the lowest that holds
it (:func:`minimal_version`), and versions compared and raised. Works on JSON-ready
dicts, so that a writer can ask before it builds a model; :mod:`texas42_log.log.model`
re-exports :func:`minimal_version`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Final

from ..engine.options import Option
from ..engine.presets import PRESET_LIST
from ..engine.rules import OPTIONS

__all__ = [
    "FORMAT_VERSION",
    "READ_VERSIONS",
    "has_comment_ids",
    "COMMENT_IDS_SINCE",
    "COMMENT_SEATS_SINCE",
    "has_comment_seats",
    "CALL_VERDICTS_SINCE",
    "CONTRACT_VERDICTS_SINCE",
    "has_contract_verdicts",
    "CHANCES_SINCE",
    "has_played_chances",
    "CALL_VERDICT_FIELDS",
    "has_call_verdicts",
    "AUCTION_SINCE",
    "has_auction_analysis",
    "version_key",
    "at_least_version",
    "minimal_version",
    "LEGACY_OPTIONS",
    "rules_version",
]

#: The options format 1.0 spelled out, every one (those ``Rules`` declares since 1.0), in
#: the order its writers put them, which a log of the seed rules keeps byte for byte: the
#: two that say how a hand ends first, then the others as ``Rules`` declares them.
_ENDS_FIRST = ("all_pass", "hand_end")
LEGACY_OPTIONS: Final = _ENDS_FIRST + tuple(
    name for name, o in OPTIONS.items() if o.since == "1.0" and name not in _ENDS_FIRST
)


#: The newest version this library writes; it reads 1.0 to this one as they are
#: (:data:`READ_VERSIONS`). A document is written with the lowest version that holds it
#: (:func:`minimal_version`). The one place the current version is written.
FORMAT_VERSION: Final = "1.12"


def version_key(version: str) -> tuple[int, int]:
    """A format version ("1.4") as a pair that orders versions: (1, 4)."""
    major, _, minor = version.partition(".")
    return (int(major), int(minor or 0))


#: The versions this tool reads as they are: 1.0 to :data:`FORMAT_VERSION`.
READ_VERSIONS: Final = tuple(f"1.{k}" for k in range(version_key(FORMAT_VERSION)[1] + 1))


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

#: The first version whose calls are worth the contract their auction ends in (a call's
#: fair ``contract``, the hand's fair ``calls`` header; docs/analysis.md).
CONTRACT_VERDICTS_SINCE = "1.11"


#: The first version whose auction chances are stated as played, corrected by contract
#: kind (a call's and a declaration's ``table``; ``open_table`` the open-hand shares; the
#: hand's fair ``chances`` header; docs/analysis.md).
CHANCES_SINCE = "1.12"


def _stated_fair(
    doc: dict[str, Any], declaration: bool
) -> Iterator[tuple[dict[str, Any] | None, dict[str, Any] | None]]:
    """Each hand's fair header (its analysis's ``fair``), then each of its calls' (and,
    with ``declaration``, its declaration's) fair verdict, as (header, None) and
    (None, verdict) pairs; whatever is not an object is passed over."""
    for h in doc.get("hands", []) or []:
        if not isinstance(h, dict):
            continue
        run = (h.get("analysis") or {}).get("fair") if isinstance(h.get("analysis"), dict) else None
        if isinstance(run, dict):
            yield run, None
        d = h.get("declaration")
        steps = list(h.get("auction", []) or []) + ([d] if declaration else [])
        for c in steps:
            fair = ((c.get("analysis") or {}).get("fair")) if isinstance(c, dict) else None
            if isinstance(fair, dict):
                yield None, fair


def has_played_chances(doc: dict[str, Any]) -> bool:
    """Whether any hand of ``doc`` says its chances are stated as played (format 1.12), or
    any call or declaration states an open-hand table beside them."""
    return any(
        (run is not None and "chances" in run) or (fair is not None and "open_table" in fair)
        for run, fair in _stated_fair(doc, declaration=True)
    )


def has_contract_verdicts(doc: dict[str, Any]) -> bool:
    """Whether any call of ``doc`` states a verdict by the contract its auction ends in, or
    any hand says its calls were judged so (format 1.11)."""
    return any(
        (run is not None and "calls" in run) or (fair is not None and "contract" in fair)
        for run, fair in _stated_fair(doc, declaration=False)
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


_PRESET_SINCE: Final = {p.name: p.since for p in PRESET_LIST}


def rules_version(rules: dict[str, Any], declared: Mapping[str, Option] = OPTIONS) -> str:
    """The lowest format version that holds a log's ``rules`` object: the newest of its
    preset's and each option's (and value's) version as ``Rules`` declares them (or
    ``declared``); and
    1.1 unless it spells out exactly format 1.0's options, as 1.0 had to."""
    stated = rules.get("options") if isinstance(rules, dict) else None
    stated = stated if isinstance(stated, dict) else {}
    given = {k: v for k, v in stated.items() if not str(k).startswith("x-")}
    preset = rules.get("preset") if isinstance(rules, dict) else None
    needs = [_PRESET_SINCE.get(preset, "1.1") if isinstance(preset, str) else "1.1"]
    needs += [declared[k].version_of(v) for k, v in given.items() if k in declared]
    if set(given) != {k for k, o in declared.items() if o.since == "1.0"}:
        needs.append("1.1")
    return max(needs, key=version_key)


def _hands_version(hands: list[Any]) -> str:
    """The lowest version that holds the hands' analyses and contracts (before 1.7)."""
    if any(
        ("analysis" in h and "value" not in (h.get("analysis") or {}))
        or any("best" in ((p.get("analysis") or {}).get("fair") or {}) for p in h.get("plays", []))
        for h in hands
    ):
        return BEST_PLAY_SINCE
    if any(
        "fair" in (h.get("analysis") or {})
        or any("fair" in (p.get("analysis") or {}) for p in h.get("plays", []))
        for h in hands
    ):
        return "1.4"
    if any("analysis" in h or any("analysis" in p for p in h.get("plays", [])) for h in hands):
        return "1.3"
    for hand in hands:
        if any("special" in c for c in hand.get("auction", [])):
            return "1.1"
        decl = hand.get("declaration") or {}
        if "contract" in decl or "doubles" in decl or ("trump" not in decl and decl):
            return "1.1"
        if any("led" in p for p in hand.get("plays", [])):
            return "1.1"
    return "1.0"


def minimal_version(doc: dict[str, Any]) -> str:
    """The lowest format version that can hold ``doc`` (a JSON-ready dict): "1.12" if its
    auction chances are stated as played (by contract kind); "1.11" if a
    call states its worth by the contract its auction ends in; "1.10" if a
    call states a verdict as players bid (the call that pays best); "1.9" if a
    comment says its seat or its editor; "1.8" if a call or the declaration states an
    analysis; "1.7" if a comment carries an id; "1.6" if it holds a fair analysis by
    1.6's rule (a play's fair ``best``; a hand's analysis with no open-hand value, in a
    deal not fully known); "1.4" if it holds a fair analysis; "1.3" if it holds an
    open-hand analysis; "1.1" if it uses something added in 1.1 (special contracts,
    declared leads, an import's source); and at least what its rules need
    (:func:`rules_version`: the version each preset, option and value came in, as
    ``Rules`` declares it)."""
    if has_played_chances(doc):
        return CHANCES_SINCE
    if has_contract_verdicts(doc):
        return CONTRACT_VERDICTS_SINCE
    if has_call_verdicts(doc):
        return CALL_VERDICTS_SINCE
    if has_comment_seats(doc):
        return COMMENT_SEATS_SINCE
    if has_auction_analysis(doc):
        return AUCTION_SINCE
    if has_comment_ids(doc):
        return COMMENT_IDS_SINCE
    needs = [rules_version(doc.get("rules", {})), _hands_version(doc.get("hands", []))]
    if "source" in doc:
        needs.append("1.1")
    return max(needs, key=version_key)
