"""Re-dealing what an observer cannot see (after OpenSpiel's ResampleInfostateTest).

Given a legal match, an observer and a moment, build another legal match that
agrees with everything the observer may know at that moment but deals the
tiles they cannot see differently. If the views leak nothing, the observer's
view of the two matches is byte-identical.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from texas42_log.engine.auction import Auction
from texas42_log.engine.errors import IllegalAction
from texas42_log.engine.hand import PlayState
from texas42_log.engine.seats import SEATS, Seat
from texas42_log.engine.tiles import TILE_BY_NAME, Tile
from texas42_log.engine.trumps import Trump
from texas42_log.log.check import call_args, check_match, effective_rules
from texas42_log.log.model import Match


def truncate(doc: dict[str, Any], hand_index: int) -> dict[str, Any]:
    """The match up to and including hand ``hand_index``, as an unfinished record."""
    out = copy.deepcopy(doc)
    out["hands"] = out["hands"][: hand_index + 1]
    out["status"] = "unfinished"
    out.pop("result", None)
    out["hands"][-1].pop("outcome", None)
    return out


def _shuffle_among(
    rng: random.Random, deal: dict[str, list[str]], movable: dict[str, list[str]]
) -> dict[str, list[str]]:
    """Deal the ``movable`` tiles of each seat out again among those seats, same counts."""
    pool = [t for s in SEATS for t in movable[s]]
    rng.shuffle(pool)
    new: dict[str, list[str]] = {}
    for s in SEATS:
        fixed = [t for t in deal[s] if t not in movable[s]]
        take = len(movable[s])
        new[s] = fixed + pool[:take]
        pool = pool[take:]
    return new


def _legal(doc: dict[str, Any]) -> bool:
    return not check_match(Match.model_validate(doc)).errors


def redeal_after(
    doc: dict[str, Any], hand_index: int, observer: str, k: int, rng: random.Random, tries: int = 40
) -> dict[str, Any] | None:
    """Another legal record of ``doc`` truncated after hand ``hand_index``, identical
    up to play ``k`` of that hand, in which every tile not yet played and not in the
    observer's own hand is dealt again; the rest of the hand is played out anew by
    random legal plays. None if no different legal re-deal was found."""
    base = truncate(doc, hand_index)
    hand = base["hands"][-1]
    plays = hand["plays"][:k]
    played = {p["tile"] for p in plays}
    deal = hand["deal"]
    movable = {s: [t for t in deal[s] if t not in played and s != observer] for s in SEATS}
    for _ in range(tries):
        new_deal = _shuffle_among(rng, deal, movable)
        if all(sorted(new_deal[s]) == sorted(deal[s]) for s in SEATS):
            continue
        world = copy.deepcopy(base)
        h = world["hands"][-1]
        h["deal"] = new_deal
        rest = _play_out(world, new_deal, plays, rng)
        if rest is None:
            continue
        h["plays"] = plays + rest
        if _legal(world):
            return world
    return None


def _play_out(
    world: dict[str, Any],
    deal: dict[str, list[str]],
    plays: list[dict[str, Any]],
    rng: random.Random,
) -> list[dict[str, Any]] | None:
    """Replay ``plays`` on the new deal (None if one is now illegal) and play on at random."""
    match = Match.model_validate(world)
    rules = effective_rules(match)
    h = match.hands[-1]
    auction = Auction(rules, h.dealer)
    for c in h.auction:
        auction.apply(c.seat, *call_args(rules, c))
    contract = auction.contract()
    decl = h.declaration
    assert contract is not None and decl is not None
    if decl.contract is not None:
        contract = contract.declare(decl.contract)
    trump = Trump(decl.trump) if decl.trump is not None else Trump.NO_TRUMP
    known: dict[Seat, set[Tile]] = {s: {TILE_BY_NAME[t] for t in deal[s]} for s in SEATS}
    state = PlayState(rules, contract, trump, known, nello_doubles=decl.doubles)
    for p in plays:
        try:
            state.play(p["seat"], TILE_BY_NAME[p["tile"]], p.get("led"))
        except IllegalAction:
            return None
    rest: list[dict[str, Any]] = []
    while not state.over:
        seat = state.to_play
        assert seat is not None
        t = rng.choice(state.legal_tiles(seat))
        state.play(seat, t)
        rest.append({"seat": seat, "tile": str(t)})
    return rest


def redeal_unplayed(
    doc: dict[str, Any],
    keep: str | None,
    rng: random.Random,
    tries: int = 40,
    only: int | None = None,
) -> dict[str, Any] | None:
    """``doc`` with, in every hand (or hand ``only``), the tiles nobody played dealt
    again among the seats other than ``keep`` (all plays kept). None if no hand
    could change legally."""
    world = copy.deepcopy(doc)
    changed = False
    for i, hand in enumerate(world["hands"]):
        if only is not None and i != only:
            continue
        if "plays" not in hand or "deal" not in hand:
            continue
        played = {p["tile"] for p in hand["plays"]}
        deal = hand["deal"]
        movable = {s: [t for t in deal[s] if t not in played and s != keep] for s in SEATS}
        if sum(len(v) for v in movable.values()) < 2:
            continue
        for _ in range(tries):
            new_deal = _shuffle_among(rng, deal, movable)
            if all(sorted(new_deal[s]) == sorted(deal[s]) for s in SEATS):
                continue
            hand["deal"] = new_deal
            # Only this hand changed so far: check it alone (earlier ones were legal).
            if _legal(truncate(world, i)):
                changed = True
                break
            hand["deal"] = deal
    return world if changed and _legal(world) else None
