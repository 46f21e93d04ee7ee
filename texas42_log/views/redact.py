"""The log a spectator (or one player) could have recorded: ``texas42 redact``.

A redacted hand keeps the auction, the declaration, every accepted play and the
stated outcome; its deal lists, for each seat, only the tiles that seat was seen
to play (in play order; the order of dealing was never seen), then ``null`` for
each tile never shown. A player's redaction also keeps that player's own tiles.
Rejected attempts are left out (the views never show them), and so are
extension fields (``x-…``), whose meaning the tool cannot know — unless asked —
and always an open-hand analysis (format 1.3), which was computed with every
hand open.

The validator checks a redacted log as far as public facts allow (turn order,
bids, declarations, trick winners, scores, the early end) and still proves a
renege when a later play shows the player held the led suit. Pure.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..log.model import Match

__all__ = ["Redaction", "redact"]

SEATS = ("A", "B", "C", "D")


@dataclass(slots=True)
class Redaction:
    """What a redaction removed, to tell the user."""

    hidden_tiles: int = 0
    rejected: int = 0
    extensions: int = 0
    #: Open-hand analyses (a hand's or a play's) left out.
    analyses: int = 0


def _strip_extensions(value: Any, counter: Redaction) -> Any:
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k.startswith("x-"):
                counter.extensions += 1
                continue
            out[k] = _strip_extensions(v, counter)
        return out
    if isinstance(value, list):
        return [_strip_extensions(v, counter) for v in value]
    return value


def redact(
    match: Match, observer: str = "public", *, keep_extensions: bool = False
) -> tuple[Match, Redaction]:
    """``match`` as ``observer`` (``public`` or a seat ``A``–``D``) could have recorded it."""
    if observer not in ("public", *SEATS):
        raise ValueError(f"a redaction is for public or a seat A–D, not {observer!r}")
    counter = Redaction()
    doc = match.model_dump(mode="json", by_alias=True, exclude_defaults=True)
    doc["status"] = match.status
    for hand in doc.get("hands", []):
        # An analysis is computed with every hand open: it goes with the hidden tiles.
        counter.analyses += hand.pop("analysis", None) is not None
        for p in hand.get("plays", []):
            counter.analyses += p.pop("analysis", None) is not None
        plays = hand.get("plays", [])
        kept = [p for p in plays if not p.get("rejected")]
        counter.rejected += len(plays) - len(kept)
        if "plays" in hand:
            hand["plays"] = kept
        deal = hand.get("deal")
        if deal is None:
            continue
        shown: dict[str, list[str]] = {s: [] for s in SEATS}
        for p in kept:
            shown[p["seat"]].append(p["tile"])
        new_deal: dict[str, Any] = {k: v for k, v in deal.items() if k not in SEATS}
        for s in SEATS:
            dealt = deal.get(s, [])
            if s == observer:
                new_deal[s] = list(dealt)
                continue
            known = [t for t in dict.fromkeys(shown[s]) if t in dealt or None in dealt]
            counter.hidden_tiles += sum(1 for t in dealt if t is not None and t not in known)
            new_deal[s] = known + [None] * (max(len(dealt), 7) - len(known))
        if all(all(t is None for t in new_deal[s]) for s in SEATS):
            del hand["deal"]
        else:
            hand["deal"] = new_deal
    if not keep_extensions:
        doc = _strip_extensions(doc, counter)
    return Match.model_validate(doc), counter
