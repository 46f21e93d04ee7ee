"""The draw for the first dealer (R2, R4 and the option ``dealer_draw``), checked.

Part of the checked replay (:mod:`.check`): the recorded draw, and the first dealer it
decides — by the highest pip total (seed 004) or by who holds [0|1] (seed 003). Each
problem is reported through the replay's :class:`~.stated.StatedFacts`. Pure, no I/O.
"""

from __future__ import annotations

from ..engine.seats import SEATS, Seat, next_seat
from ..engine.tiles import TILE_BY_NAME
from .model import DrawnTile, Match
from .stated import StatedFacts

__all__ = ["check_draw"]


def check_draw(facts: StatedFacts, match: Match) -> None:
    """R2, R4 and the option dealer_draw: the recorded draw, and what it decides."""
    how = facts.rules.dealer_draw
    draw = match.dealer_draw or []
    if how == "highest-pips":
        _highest(facts, match, draw)
        return
    seen_seats: set[str] = set()
    seen_tiles: dict[str, str] = {}
    for j, d in enumerate(draw):
        p = f"/dealer_draw/{j}"
        if d.seat in seen_seats:
            facts.error("R4", f"{p}/seat", f"{d.seat} draws twice for the first dealer (R4)")
        seen_seats.add(d.seat)
        if d.tile in seen_tiles:
            facts.error(
                "R2",
                f"{p}/tile",
                f"{d.tile} is drawn twice, by {seen_tiles[d.tile]} and {d.seat}; "
                "the set has one of each tile (R2)",
            )
        seen_tiles[d.tile] = d.seat
    if how == "blank-one-bids-first":
        _blank_one(facts, match, draw)


def _highest(facts: StatedFacts, match: Match, draw: list[DrawnTile]) -> None:
    """Seed 004: each draws a tile, the highest pip total deals; those tied for it
    draw again, one tile each, until one is highest."""
    if not draw:
        return
    drawing: list[Seat] = list(SEATS)
    at = 0
    while True:
        chunk = draw[at : at + len(drawing)]
        names = " ".join(drawing)
        if len(chunk) < len(drawing) or sorted(d.seat for d in chunk) != drawing:
            facts.error(
                "variant:dealer_draw",
                f"/dealer_draw/{at}",
                f"the draw for the first dealer goes by rounds: {names} "
                f"{'each draw' if len(drawing) > 1 else 'draws'} one tile"
                f"{' (tied for the highest pip total, they draw again)' if at else ''}, "
                "but the log records "
                f"{', '.join(f'{d.seat} {d.tile}' for d in chunk) or 'nothing'} "
                "there (dealer_draw is highest-pips)",
            )
            return
        tiles = [d.tile for d in chunk]
        twice = next((t for t in tiles if tiles.count(t) > 1), None)
        if twice is not None:
            facts.error(
                "R2",
                f"/dealer_draw/{at + tiles.index(twice, tiles.index(twice) + 1)}/tile",
                f"{twice} is drawn twice in one round of the draw for the first dealer; "
                "the set has one of each tile (R2)",
            )
            return
        totals = {d.seat: TILE_BY_NAME[d.tile].pips for d in chunk}
        top = max(totals.values())
        best = sorted(seat for seat, total in totals.items() if total == top)
        at += len(chunk)
        if len(best) == 1:
            break
        drawing = best
    winner = best[0]
    if at < len(draw):
        facts.error(
            "variant:dealer_draw",
            f"/dealer_draw/{at}",
            f"{winner} drew the highest pip total ({top}), which ends the draw for the first "
            f"dealer, but the log records {len(draw) - at} more "
            f"draw{'s' if len(draw) - at != 1 else ''} "
            "(dealer_draw is highest-pips)",
        )
    if winner != match.first_dealer:
        tile = next(d.tile for d in reversed(draw[:at]) if d.seat == winner)
        facts.error(
            "variant:dealer_draw",
            "/first_dealer",
            f"the first dealer is {match.first_dealer}, but {winner} drew the highest pip "
            f"total ({tile}, {top}) and deals first (dealer_draw is highest-pips; seed 004)",
        )


def _blank_one(facts: StatedFacts, match: Match, draw: list[DrawnTile]) -> None:
    """Seed 003: whoever draws [0|1] bids first, so the seat on their right deals."""
    holder: Seat | None = next((d.seat for d in draw if d.tile == "[0|1]"), None)
    where = "draws [0|1] for the first dealer"
    if holder is None and match.hands and match.hands[0].deal is not None:
        deal = match.hands[0].deal
        holder = next((s for s in SEATS if "[0|1]" in (getattr(deal, s) or [])), None)
        where = "holds [0|1] in the first deal"
    if holder is None:
        return
    dealer = next_seat(holder, 3)
    if dealer != match.first_dealer:
        facts.error(
            "variant:dealer_draw",
            "/first_dealer",
            f"the first dealer is {match.first_dealer}, but {holder} {where} and so bids "
            f"first; the player on their right, {dealer}, deals (dealer_draw is "
            "blank-one-bids-first; seed 003)",
        )
