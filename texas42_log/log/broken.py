"""A log that breaks rules, made viewable: every hand as far as it was played
legally, as a PGN viewer shows a game up to its illegal move.

:func:`viewable` takes a parsed match and its validation errors and returns a
match that the views can replay — each broken hand cut just before its first
illegal action (the rest of that hand is not shown: nothing after an illegal
action can be trusted) — and, per broken hand, a :class:`Broken` flag saying
which rule was broken and where. The flag holds the rule id and the place only,
never the diagnostic's message: a message may name tiles a seat holds ("C
reneges holding [2|5]"), which an observer may not see (R25). Pure: no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..engine.errors import Diagnostic
from .model import Match

__all__ = ["Broken", "viewable"]

_PLACE = re.compile(
    r"^/hands/([0-9]+)(?:/(auction|plays|declaration|deal|outcome|dealer)(?:/([0-9]+))?)?"
)


@dataclass(frozen=True, slots=True)
class Broken:
    """Hand ``hand`` (from 1) breaks ``rule`` at ``where`` ("call 2", "play 10", …);
    it is shown up to ``shown`` ("the auction", "play 9", …)."""

    hand: int
    rule: str
    pointer: str
    where: str
    shown: str

    def text(self) -> str:
        return (
            f"hand {self.hand} breaks a rule ({self.rule}) at {self.where}; it is shown up to "
            f"{self.shown}, and no further"
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "rule": self.rule,
            "pointer": self.pointer,
            "where": self.where,
            "shown": self.shown,
            "text": self.text(),
        }


def viewable(match: Match, errors: list[Diagnostic]) -> tuple[Match, dict[int, Broken]]:
    """The match with each broken hand cut before its first illegal action, and the
    flags by hand index (from 0). Errors that do not stop a hand (a wrong stated
    outcome, a wrong dealer, the match's end) leave the hand whole; a stated outcome
    that is wrong is dropped from the view's input."""
    doc = match.model_dump(mode="json", by_alias=True, exclude_none=True)
    flags: dict[int, Broken] = {}
    for d in errors:
        m = _PLACE.match(d.pointer or "")
        if m is None:
            continue
        i = int(m.group(1))
        if i in flags or i >= len(doc["hands"]):
            continue
        hand = doc["hands"][i]
        part, index = m.group(2), m.group(3)
        n = i + 1
        if part == "outcome":
            hand.pop("outcome", None)
            continue
        if part is None and d.rule == "R24":
            # played after the match was won: the checker stops there, and so does the view
            flags[i] = Broken(
                n,
                d.rule,
                d.pointer or "",
                "the hand (the match was already won)",
                "nothing: it and the hands after it are not shown",
            )
            doc["hands"] = doc["hands"][:i]
            break
        if part == "dealer":
            continue  # the hand itself may be replayed as it is
        hand.pop("outcome", None)
        if part == "auction" and index is not None:
            k = int(index)
            hand["auction"] = hand["auction"][:k]
            hand.pop("declaration", None)
            hand.pop("plays", None)
            where, shown = f"call {k + 1}", "the call before it" if k else "the deal"
        elif part == "plays" and index is not None:
            k = int(index)
            hand["plays"] = hand["plays"][:k]
            where, shown = f"play {k + 1}", f"play {k}" if k else "the declaration"
        elif part in ("auction", "plays"):  # the list as a whole: too few calls, a hand cut short
            where, shown = (
                "its " + ("auction" if part == "auction" else "plays"),
                "its last recorded action",
            )
        elif part == "declaration" or part is None:
            hand.pop("declaration", None)
            hand.pop("plays", None)
            where, shown = "the declaration" if part else "the hand", "the auction"
        else:  # the deal: nothing of the hand can be replayed
            hand.pop("deal", None)
            hand["auction"] = []
            hand.pop("declaration", None)
            hand.pop("plays", None)
            where, shown = "the deal", "its dealer (the deal is not shown)"
        flags[i] = Broken(n, d.rule, d.pointer or "", where, shown)
    if flags:
        doc["status"] = "unfinished"
        doc.pop("result", None)
    return Match.model_validate(doc), flags
