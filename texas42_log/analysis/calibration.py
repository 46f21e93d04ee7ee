"""A chance as play makes it: the table's open-hand chance corrected by contract kind.

The fair makeable table (:mod:`.bidding`) solves each world with every hand open, which
flatters the declarer — and not by the same amount for every contract: taking every trick
needs far more than finding 30 points, a follow-me or doubles contract plays otherwise
than a suit, and Nel-O, Plunge, Splash and Sevens each have their own shape. So each
**kind** of contract (:func:`kind_of`) has its own correction, fitted by
``tools/calibrate.py`` to how often such contracts were made when every seat played from
its own view (the ``sampling`` bots on both sides; docs/analysis.md, "How honest is the
table?", holds the data, the fit and its check on held-out deals):

    logit(as played) = a + b · logit(open-hand chance)

A lay-down is kept: a contract made in every world drawn stays at 100 % — no curve turns
it into a doubt. The other end is not: a Nel-O the defenders could always break with
every hand open is made now and then at the table, where they cannot see.

Pure, no I/O.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from ..log.versions import CHANCES_SINCE, version_key

if TYPE_CHECKING:
    from .bidding import Bid, Row

__all__ = [
    "KINDS",
    "KIND_CORRECTIONS",
    "SINGLE_CURVE",
    "EDGE",
    "METHOD",
    "kind_of",
    "as_played",
    "logistic",
    "Correction",
    "BY_KIND",
    "SINGLE",
    "correction_of",
]


#: The kinds of contract, in the order the docs' table lists them.
KINDS: Final = (
    "30–34",
    "35–41",
    "1 mark",
    "2+ marks",
    "doubles",
    "follow-me",
    "nello",
    "plunge",
    "splash",
    "sevens",
)

#: The method the stored chances were corrected by (a log's header names it, since 1.12).
METHOD: Final = "kind"

#: The single curve every contract was corrected by before 1.12 (fitted to plain-trump
#: point and mark contracts alone); kept to check a 1.11 log by its own rule.
SINGLE_CURVE: Final = (-0.447, 0.682)

#: Per kind, (a, b) of ``logit(as played) = a + b · logit(chance)``: fitted by
#: ``tools/calibrate.py`` (docs/analysis.md has the data and the check).
KIND_CORRECTIONS: Final[dict[str, tuple[float, float]]] = {
    "30–34": (-0.906, 0.613),
    "35–41": (-1.222, 0.718),
    "1 mark": (-1.356, 0.833),
    "2+ marks": (-1.356, 0.833),
    "doubles": (-1.138, 0.803),
    "follow-me": (-1.203, 0.847),
    "nello": (1.322, 0.742),
    "plunge": (-1.411, 1.221),
    "splash": (-1.36, 0.703),
    "sevens": (-2.383, 0.72),
}

#: A chance is clipped to [EDGE, 1 − EDGE] before a curve (logit(0) is infinite).
EDGE: Final = 0.005


def kind_of(bid: Bid, row: Row) -> str:
    """The kind of the contract ``bid`` played as ``row`` (one of :data:`KINDS`): Nel-O
    and Sevens by the declaration, Plunge and Splash by the bid, doubles and follow-me by
    the trump, and a plain trump by the bid's size (a 42-point bid, every point, is a
    1-mark bid's every trick)."""
    if row.special is not None:
        return row.special
    if bid.special is not None:
        return bid.special
    trump = row.trump.value if row.trump is not None else ""
    if trump == "doubles":
        return "doubles"
    if trump == "no-trump":
        return "follow-me"
    if bid.kind.value == "marks":
        return "1 mark" if bid.bid == 1 else "2+ marks"
    if bid.bid >= 42:
        return "1 mark"
    return "30–34" if bid.bid <= 34 else "35–41"


def logistic(chance: float, curve: tuple[float, float]) -> float:
    """``curve`` = (a, b) applied to ``chance``: 1 / (1 + exp(−(a + b · logit(chance)))),
    the chance clipped to [EDGE, 1 − EDGE] first."""
    a, b = curve
    p = min(1.0 - EDGE, max(EDGE, chance))
    z = a + b * math.log(p / (1.0 - p))
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def as_played(chance: float, kind: str) -> float:
    """The chance that a contract of ``kind`` the table gives ``chance`` (its share of
    worlds made with every hand open) is made as the seats play it from their own views.
    Made in every world: 1."""
    if chance >= 1.0:
        return 1.0
    return logistic(chance, KIND_CORRECTIONS[kind])


def _slope(chance: float, curve: tuple[float, float]) -> float:
    """d logistic(chance, curve) / d chance (0 past the clip)."""
    if not EDGE < chance < 1.0 - EDGE:
        return 0.0
    q = logistic(chance, curve)
    return q * (1.0 - q) * curve[1] / (chance * (1.0 - chance))


@dataclass(frozen=True, slots=True)
class Correction:
    """How a table's open-hand share becomes the chance a bid is judged by: ``kind`` (since
    1.12, :func:`as_played`, and the format states that chance) or ``single`` (before
    1.12: one curve for every contract, and the format states the open-hand share)."""

    method: str

    def played(self, share: float, kind: str) -> float:
        """The chance a contract of ``kind`` with open-hand ``share`` is judged by."""
        if self.method == "single":
            return logistic(share, SINGLE_CURVE)
        return as_played(share, kind)

    def stated(self, share: float, kind: str) -> float:
        """The chance the format states for ``share``: as played, or (before 1.12) the share."""
        return share if self.method == "single" else as_played(share, kind)

    def of_stated(self, stated: float, kind: str) -> float:
        """The chance a bid is judged by, from the chance the format states."""
        return logistic(stated, SINGLE_CURVE) if self.method == "single" else stated

    def slope(self, share: float, kind: str) -> float:
        """d :meth:`played` / d share at ``share`` (0 at a lay-down or past the clip)."""
        if self.method == "single":
            return _slope(share, SINGLE_CURVE)
        if share >= 1.0:
            return 0.0
        return _slope(share, KIND_CORRECTIONS[kind])

    def stated_slope(self, share: float, kind: str) -> float:
        """d :meth:`stated` / d share (1 before 1.12: the share itself is stated)."""
        return 1.0 if self.method == "single" else self.slope(share, kind)


#: Since 1.12: each kind its own curve, the format stating the chance as played.
BY_KIND: Final = Correction("kind")
#: Before 1.12: the single curve, the format stating the open-hand share.
SINGLE: Final = Correction("single")


def correction_of(version: str) -> Correction:
    """The correction a log of format ``version`` states its chances by."""
    try:
        newer = version_key(version) >= version_key(CHANCES_SINCE)
    except ValueError:
        newer = True
    return BY_KIND if newer else SINGLE
