"""The analysis a view holds: the open-hand analysis (format 1.3) only for a review or an
omniscient observer, the fair analysis of a decision (1.4, 1.8) for its own seat, a
review and an omniscient observer.

A review sees no tile that was never played (R29), nor any figure drawn from one: of a hand
that ended early it gets no open-hand analysis (every value depends on every hand) and no
fair figure of a decision whose player held a tile never played (its worlds are drawn from
its own hand); of a hand played to its last tile, every figure, and of an alternative
play only the tiles its player played in the hand — that a better play existed, never which.

Pure: no I/O. Split from :mod:`texas42_log.views.visibility` (the visibility boundary), which
calls it for those two observers only.
"""

from __future__ import annotations

from typing import Any

from ..engine.auction import Contract
from ..engine.seats import SEATS, Seat
from ..engine.tiles import Tile
from ..engine.values import makeable, maximiser, move_key, move_of
from ..log.model import Hand
from .model import (
    AnalysisView,
    AuctionFairView,
    FairPlayView,
    FairView,
    Observer,
    PlayAnalysisView,
)

__all__ = ["analysis_view", "fair_view", "auction_fair_view", "secret_holders"]


def secret_holders(
    observer: Observer, plays_made: list[tuple[Seat, Tile, int]], sits_out: Seat | None
) -> frozenset[Seat]:
    """The seats whose figures ``observer`` may not see at the end of a hand whose accepted
    plays were ``plays_made``: for a review of a hand that ended early, each seat that held a
    tile never played (R29); none for any other observer (a seat's own figures are its own,
    the public sees none, the omniscient observer all), nor for a hand played to its last
    tile (a Nel-O partner's tiles are then the ones nobody played)."""
    if observer != "review":
        return frozenset()
    played = dict.fromkeys(SEATS, 0)
    for seat, _, _ in plays_made:
        played[seat] += 1
    if all(played[s] == 7 for s in SEATS if s != sits_out):
        return frozenset()
    return frozenset(s for s in SEATS if played[s] < 7)


def auction_fair_view(
    hand: Hand,
    observer: Observer,
    calls_seen: int,
    declared: bool,
    secret: frozenset[Seat] = frozenset(),
) -> AuctionFairView | None:
    """The log's fair verdicts of ``hand``'s first ``calls_seen`` calls (accepted ones) and,
    with ``declared``, of its declaration, as ``observer`` may see them
    (:class:`~texas42_log.views.model.AuctionFairView`); None when there is none to show.
    ``secret``: the seats whose figures it may not see (:func:`secret_holders`)."""
    if observer == "public":
        return None

    def mine(seat: Seat) -> bool:
        if seat in secret:
            return False
        return observer in ("review", "omniscient") or observer == seat

    calls: list[dict[str, Any]] = []
    order = 0
    for c in hand.auction:
        if c.rejected:
            continue
        order += 1
        if order > calls_seen:
            break
        fair = c.analysis.fair if c.analysis is not None else None
        if fair is None or not mine(c.seat):
            continue
        bid = getattr(c, "bid", None)
        special = getattr(c, "special", None)
        said = "pass" if c.call == "pass" else f"{special + ' ' if special else ''}{bid} {c.call}"
        calls.append(
            {"order": order, "seat": c.seat, "call": said}
            | fair.model_dump(mode="json", exclude_none=True)
        )
    declaration = None
    d = hand.declaration
    if declared and d is not None and d.analysis is not None and d.analysis.fair is not None:
        if mine(d.seat):
            declaration = {"seat": d.seat} | d.analysis.fair.model_dump(
                mode="json", exclude_none=True
            )
    if not calls and declaration is None:
        return None
    return AuctionFairView(tuple(calls), declaration)


def fair_view(
    hand: Hand,
    plays_made: list[tuple[Seat, Tile, int]],
    contract: Contract,
    observer: Observer,
    k: int,
    secret: frozenset[Seat] = frozenset(),
) -> FairView | None:
    """The log's fair analysis of ``hand`` up to play ``k`` as ``observer`` may see it
    (see :class:`~texas42_log.views.model.FairView`); None when there is none to show.
    ``secret``: the seats whose figures it may not see (:func:`secret_holders`)."""
    if observer == "public":
        return None
    noted = [
        (n, a.fair if (a := hand.plays[j].analysis) is not None else None)
        for n, (_, _, j) in enumerate(plays_made)
    ]
    if all(f is None for _, f in noted):
        return None
    played: dict[Seat, set[str]] = {s: set() for s in SEATS}
    for seat, t, _ in plays_made:
        played[seat].add(str(t))

    def mine(seat: Seat) -> bool:  # whose plays' fair analysis the observer sees
        if seat in secret:
            return False
        return observer in ("review", "omniscient") or observer == seat

    def visible(seat: Seat, key: str) -> bool:  # which tiles it may see named
        return observer != "review" or key.split(" led ")[0] in played[seat]

    plays: list[FairPlayView] = []
    for n, f in noted[:k]:
        seat, t, j = plays_made[n]
        if f is None or not mine(seat):
            continue
        made = move_key(move_of(t, hand.plays[j].led))
        values = f.values or {}
        if f.best is not None:  # since 1.6: the one best fair play, as the log states it
            best = [f.best]
        else:  # before 1.6: the plays of the best mean
            high = maximiser(contract, seat)
            means = [v.mean for v in values.values()]
            top = (max(means) if high else min(means)) if means else 0.0
            best = [m for m, v in values.items() if v.mean == top]
        shown = tuple(m for m in best if visible(seat, m))
        plays.append(
            FairPlayView(
                n + 1,
                seat,
                made,
                bool(f.forced),
                f.cost or 0.0,
                f.chance_lost or 0.0,
                f.mark,
                shown,
                len(shown) < len(best),
                {m: (v.mean, v.share) for m, v in values.items() if visible(seat, m)},
            )
        )
    now = None
    now_best = None
    if k < len(noted) and noted[k][1] is not None:
        seat = plays_made[k][0]
        f = noted[k][1]
        assert f is not None
        if mine(seat) and f.values:
            now = {m: (v.mean, v.share) for m, v in f.values.items() if visible(seat, m)}
            if f.best is not None and f.best in now:
                now_best = f.best
    if not plays and now is None:
        return None
    return FairView(tuple(plays), now, now_best)


def analysis_view(
    hand: Hand,
    plays_made: list[tuple[Seat, Tile, int]],
    contract: Contract,
    observer: Observer,
    k: int,
    secret: frozenset[Seat] = frozenset(),
    *,
    total: int,
) -> AnalysisView | None:
    """The log's analysis of ``hand`` up to play ``k``, as a review or omniscient
    ``observer`` may see it; None when the hand carries none, or when a seat's figures are
    ``secret`` (:func:`secret_holders`: every open-hand value depends on every hand).
    ``total``: the hand's every point (the count's, R6), what an all-tricks contract needs.
    ``plays_made``: the hand's accepted plays as (seat, tile, index in ``hand.plays``)."""
    if secret:
        return None
    stated = hand.analysis
    if stated is not None and stated.value is None:
        stated = None  # a hand with only its fair analysis (1.6): no open-hand facts
    noted = [
        (n, a if a is not None and a.values is not None else None)
        for n, (_, _, j) in enumerate(plays_made)
        for a in (hand.plays[j].analysis,)
    ]
    if stated is None and all(a is None for _, a in noted):
        return None
    if observer == "omniscient":

        def visible(seat: Seat, key: str) -> bool:
            return True
    else:  # review: the tiles each seat plays in the hand, and no other (R29)
        played: dict[Seat, set[str]] = {s: set() for s in SEATS}
        for seat, t, _ in plays_made:
            played[seat].add(str(t))

        def visible(seat: Seat, key: str) -> bool:
            return key.split(" led ")[0] in played[seat]

    plays: list[PlayAnalysisView] = []
    for n, a in noted[:k]:
        if a is None or a.values is None:
            continue
        seat, t, j = plays_made[n]
        led = hand.plays[j].led
        made = move_key(move_of(t, led))
        best_value = max(a.values.values()) if maximiser(contract, seat) else min(a.values.values())
        best = [m for m, v in a.values.items() if v == best_value]
        shown_best = tuple(m for m in best if visible(seat, m))
        plays.append(
            PlayAnalysisView(
                n + 1,
                seat,
                made,
                a.values.get(made, best_value),
                best_value,
                a.cost or 0,
                a.fate,
                shown_best,
                len(shown_best) < len(best),
                {m: v for m, v in a.values.items() if visible(seat, m)},
            )
        )
    now = None
    now_best: tuple[str, ...] = ()
    if k < len(noted) and noted[k][1] is not None:
        seat = plays_made[k][0]
        now_a = noted[k][1]
        assert now_a is not None and now_a.values is not None
        now = {m: v for m, v in now_a.values.items() if visible(seat, m)}
        if now:
            top = max(now.values()) if maximiser(contract, seat) else min(now.values())
            now_best = tuple(m for m, v in now.items() if v == top)
    table = (
        None
        if stated is None or stated.table is None
        else {str(t): v for t, v in stated.table.items()}
    )
    return AnalysisView(
        None if stated is None else stated.value,
        None if stated is None else stated.makeable,
        table,
        tuple(plays),
        now,
        now_best,
        None
        if table is None
        else {t: makeable(contract, v, total=total) for t, v in table.items()},
    )
