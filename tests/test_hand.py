"""Playing a hand: R16, R21, R22, R23, and the seeds' worked example."""

from __future__ import annotations

import pytest

from texas42_log.engine.auction import Auction, BidKind, Contract
from texas42_log.engine.errors import IllegalAction
from texas42_log.engine.hand import Outcome, PlayState
from texas42_log.engine.rules import STANDARD
from texas42_log.engine.seats import SEATS
from texas42_log.engine.tiles import TILES, Tile
from texas42_log.engine.trumps import Trump

T = Tile.parse

SEED_DEAL = {
    "A": ["[5|5]", "[1|1]", "[1|2]", "[2|2]", "[0|0]", "[0|1]", "[0|2]"],
    "B": ["[3|5]", "[1|3]", "[2|3]", "[3|3]", "[0|3]", "[3|4]", "[1|4]"],
    "C": ["[0|5]", "[1|5]", "[2|5]", "[4|5]", "[4|4]", "[2|4]", "[0|4]"],
    "D": ["[6|6]", "[0|6]", "[1|6]", "[2|6]", "[3|6]", "[4|6]", "[5|6]"],
}


def state(contract: Contract, trump: Trump, deal: dict[str, list[str]] = SEED_DEAL) -> PlayState:
    return PlayState(STANDARD, contract, trump, {s: {T(x) for x in deal[s]} for s in SEATS})  # type: ignore[misc]


def test_seed_worked_example_r22() -> None:
    """docs/rules.md R22: trick 1 to D with 16 hand points, the hand is over, 1 mark to B+D."""
    s = state(Contract("A", BidKind.POINTS, 30), Trump.SIXES)
    for seat, tile in [("A", "[5|5]"), ("B", "[3|5]"), ("C", "[0|5]")]:
        assert s.play(seat, T(tile)) is None  # type: ignore[arg-type]
    trick = s.play("D", T("[6|6]"))
    assert trick is not None and trick.winner == "D" and trick.points == 16
    assert s.over
    assert s.result is not None
    assert s.result.outcome is Outcome.SET
    assert s.result.tricks_played == 1
    assert s.result.points == {"A+C": 0, "B+D": 16}
    assert s.result.marks == {"A+C": 0, "B+D": 1}  # hand points never turn into marks (R23)
    with pytest.raises(IllegalAction) as e:
        s.play("D", T("[0|6]"))
    assert e.value.rule == "R22"


def test_r16_must_follow_but_need_not_trump() -> None:
    s = state(Contract("A", BidKind.POINTS, 30), Trump.SIXES)
    s.play("A", T("[5|5]"))
    with pytest.raises(IllegalAction) as e:
        s.play("B", T("[1|3]"))  # B holds [3|5]
    assert e.value.rule == "R16"
    assert e.value.context["could_follow"] == ["[3|5]"]
    s.play("B", T("[3|5]"))
    s.play("C", T("[0|5]"))
    # D has no five ([5|6] is a trump, R13): any tile is legal, trumping not required.
    s.check("D", T("[0|6]"))
    s.check("D", T("[6|6]"))


def test_r13_trump_showing_the_led_number_is_a_renege() -> None:
    deal = dict(SEED_DEAL)
    deal["B"] = ["[3|5]", "[5|6]", "[2|3]", "[3|3]", "[0|3]", "[3|4]", "[1|4]"]
    deal["D"] = ["[6|6]", "[0|6]", "[1|6]", "[2|6]", "[3|6]", "[4|6]", "[1|3]"]
    s = state(Contract("A", BidKind.POINTS, 30), Trump.SIXES, deal)
    s.play("A", T("[5|5]"))
    with pytest.raises(IllegalAction) as e:
        s.play("B", T("[5|6]"))
    assert e.value.rule == "R13"


def test_r21_turn_order_and_winner_leads() -> None:
    s = state(Contract("A", BidKind.POINTS, 41), Trump.FIVES)
    with pytest.raises(IllegalAction) as e:
        s.play("B", T("[3|5]"))
    assert e.value.rule == "R10"  # the bidder leads trick 1
    s.play("A", T("[1|1]"))
    with pytest.raises(IllegalAction) as e:
        s.play("C", T("[4|4]"))
    assert e.value.rule == "R21"
    s.play("B", T("[1|3]"))
    s.play("C", T("[1|5]"))  # a trump (fives): wins
    trick = s.play("D", T("[1|6]"))
    assert trick is not None and trick.winner == "C"
    assert s.to_play == "C"


def test_r3_tile_not_held() -> None:
    s = state(Contract("A", BidKind.POINTS, 30), Trump.SIXES)
    with pytest.raises(IllegalAction) as e:
        s.play("A", T("[6|6]"))
    assert e.value.rule == "R3" and "dealt to D" in str(e.value)


def test_r22_point_contract_made_early() -> None:
    # D holds every six; sixes trump; D bids 30 and leads trumps: made once D+B have 30.
    s = PlayState(
        STANDARD,
        Contract("D", BidKind.POINTS, 30),
        Trump.SIXES,
        {seat: {T(x) for x in SEED_DEAL[seat]} for seat in SEATS},  # type: ignore[misc]
    )
    order = {"A": list(SEED_DEAL["A"]), "B": list(SEED_DEAL["B"]), "C": list(SEED_DEAL["C"])}
    sixes = ["[6|6]", "[5|6]", "[4|6]", "[3|6]", "[2|6]", "[1|6]", "[0|6]"]
    tricks = 0
    while not s.over:
        s.play("D", T(sixes[tricks]))
        for seat in ("A", "B", "C"):
            s.play(seat, T(order[seat].pop(0)))  # type: ignore[arg-type]
        tricks += 1
    assert s.result is not None and s.result.outcome is Outcome.MADE
    # 16 + 1 + 16: the bidders pass 30 in trick 3 and the hand stops there.
    assert tricks == 3 and s.result.points == {"A+C": 0, "B+D": 33}
    assert s.result.marks == {"A+C": 0, "B+D": 1}


def test_r22_all_tricks_set_at_first_defender_trick() -> None:
    s = state(Contract("A", BidKind.MARKS, 2), Trump.SIXES)
    for seat, tile in [("A", "[5|5]"), ("B", "[3|5]"), ("C", "[0|5]"), ("D", "[6|6]")]:
        s.play(seat, T(tile))  # type: ignore[arg-type]
    assert s.result is not None
    assert s.result.outcome is Outcome.SET and s.result.marks == {"A+C": 0, "B+D": 2}


def test_unknown_tiles_renege_only_when_proved() -> None:
    # A spectator's knowledge: B's hand unknown except [3|5].
    known = {s: {T(x) for x in SEED_DEAL[s]} for s in SEATS}
    known["B"] = {T("[3|5]")}
    s = PlayState(STANDARD, Contract("A", BidKind.POINTS, 30), Trump.SIXES, known, {"B": 6})  # type: ignore[arg-type]
    s.play("A", T("[5|5]"))
    with pytest.raises(IllegalAction) as e:
        s.play("B", T("[1|3]"))  # not known to be B's, but B is known to hold a five
    assert e.value.rule == "R16"
    known["B"] = set()
    s = PlayState(STANDARD, Contract("A", BidKind.POINTS, 30), Trump.SIXES, known, {"B": 7})  # type: ignore[arg-type]
    s.play("A", T("[5|5]"))
    s.play("B", T("[1|3]"))  # nothing proves B held a five


def test_every_point_contract_is_decided_by_trick_7() -> None:
    import random

    rng = random.Random(7)
    for _ in range(50):
        tiles = list(TILES)
        rng.shuffle(tiles)
        deal = {s: set(tiles[i * 7 : i * 7 + 7]) for i, s in enumerate(SEATS)}
        s = PlayState(
            STANDARD, Contract("A", BidKind.POINTS, rng.randint(30, 41)), Trump.NO_TRUMP, deal
        )  # type: ignore[arg-type]
        while not s.over:
            seat = s.to_play
            assert seat is not None
            s.play(seat, rng.choice(s.legal_tiles(seat)))
        assert s.result is not None and s.result.tricks_played <= 7


def test_copy_is_independent() -> None:
    from texas42_log.play.generate import random_match

    doc = random_match(4)
    hand = next(h for h in doc["hands"] if len(h.get("plays", [])) >= 6)
    a = Auction(STANDARD, hand["dealer"])
    for c in hand["auction"]:
        a.apply(c["seat"], BidKind(c["call"]), c.get("bid"))
    contract = a.contract()
    assert contract is not None
    state = PlayState(
        STANDARD,
        contract,
        Trump(hand["declaration"]["trump"]),
        {s: {T(t) for t in hand["deal"][s]} for s in "ABCD"},
    )
    for p in hand["plays"][:5]:
        state.play(p["seat"], T(p["tile"]))
    twin = state.copy()
    before = (
        len(state.tricks),
        [list(t.plays) for t in state.tricks],
        {s: set(v) for s, v in state.known.items()},
    )
    p = hand["plays"][5]
    twin.play(p["seat"], T(p["tile"]))
    assert (
        len(state.tricks),
        [list(t.plays) for t in state.tricks],
        {s: set(v) for s, v in state.known.items()},
    ) == before
    state.play(p["seat"], T(p["tile"]))
    assert [t.plays for t in state.tricks] == [
        t.plays for t in twin.tricks
    ] and state.points == twin.points
