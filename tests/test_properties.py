"""Property tests (hypothesis): random legal matches validate, and every single
mutation that breaks a rule is caught first, with the right rule id, at the
place it was made."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from texas42_log.engine.auction import Auction
from texas42_log.engine.hand import PlayState
from texas42_log.engine.presets import PRESETS
from texas42_log.engine.seats import SEATS, next_seat
from texas42_log.engine.tiles import Tile
from texas42_log.engine.trumps import FACTS, Trump
from texas42_log.files.validate import validate_bytes
from texas42_log.log.check import call_args, effective_rules
from texas42_log.log.model import Match
from texas42_log.play.generate import random_match

Doc = dict[str, Any]
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def validate(doc: Doc) -> list[tuple[str, str]]:
    return [(d.rule, d.pointer) for d in validate_bytes(json.dumps(doc)).errors]


@st.composite
def matches(draw: st.DrawFn, preset: str = "standard") -> Doc:
    return random_match(draw(st.integers(0, 2**32 - 1)), rules=PRESETS[preset], preset=preset)


#: The core properties run under every preset: the seed rules with the full number
#: of examples, the other presets with fewer each (they share most of the engine).
VARIANTS = [p for p in PRESETS if p != "standard"]
FEW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(matches())
def test_random_legal_matches_validate(doc: Doc) -> None:
    assert validate(doc) == []


@pytest.mark.parametrize("preset", VARIANTS)
def test_random_legal_matches_validate_under_every_preset(preset: str) -> None:
    @FEW
    @given(matches(preset))
    def check(doc: Doc) -> None:
        assert validate(doc) == []

    check()


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.integers(1, 6), st.sampled_from(list(PRESETS)))
def test_unfinished_matches_validate(seed: int, hands: int, preset: str) -> None:
    doc = random_match(seed, max_hands=hands, rules=PRESETS[preset], preset=preset)
    assume(doc["status"] == "unfinished")  # else the match ended within those hands
    last = doc["hands"][-1]
    if last.get("plays"):
        last["plays"] = last["plays"][: len(last["plays"]) // 2]
        last.pop("outcome", None)
    assert validate(doc) == []


def play_spots(doc: Doc) -> list[tuple[int, int, PlayState, str]]:
    """(hand, play index, state before the play, seat) for every play, states copied."""
    out = []
    match = Match.model_validate(doc)
    rules = effective_rules(match)
    for hi, hand in enumerate(match.hands):
        decl = hand.declaration
        if decl is None:
            continue
        a = Auction(rules, hand.dealer)
        for c in hand.auction:
            a.apply(c.seat, *call_args(rules, c))
        contract = a.contract()
        assert contract is not None
        if decl.contract is not None:
            contract = contract.declare(decl.contract)
        trump = Trump(decl.trump) if decl.trump is not None else Trump.NO_TRUMP
        known = {s: {Tile.parse(t) for t in doc["hands"][hi]["deal"][s]} for s in SEATS}
        state = PlayState(rules, contract, trump, known, nello_doubles=decl.doubles)
        for pi, p in enumerate(hand.plays):
            out.append((hi, pi, state.copy(), p.seat))
            state.apply(p.seat, Tile.parse(p.tile), p.led)
    return out


Mutation = Callable[[Doc, st.DataObject], tuple[str | set[str], str]]


def renege(doc: Doc, data: st.DataObject) -> tuple[str | set[str], str]:
    spots = []
    for hi, pi, s, seat in play_spots(doc):
        if s.current.plays and s.followers(seat):
            follows = set(s.followers(seat))
            off = [t for t in sorted(s.held(seat)) if t not in follows]
            if off:
                spots.append((hi, pi, off))
    assume(spots)
    hi, pi, off = data.draw(st.sampled_from(spots))
    doc["hands"][hi]["plays"][pi]["tile"] = str(data.draw(st.sampled_from(off)))
    return {"R13", "R14", "R15", "R16"}, f"/hands/{hi}/plays/{pi}"


def out_of_turn(doc: Doc, data: st.DataObject) -> tuple[str | set[str], str]:
    spots = [(hi, pi, seat) for hi, pi, s, seat in play_spots(doc) if s.current.plays]
    assume(spots)
    hi, pi, seat = data.draw(st.sampled_from(spots))
    doc["hands"][hi]["plays"][pi]["seat"] = next_seat(seat, data.draw(st.integers(1, 3)))
    return {"R21", "variant:nello"}, f"/hands/{hi}/plays/{pi}"  # Nel-O: the partner sits out


def tile_not_held(doc: Doc, data: st.DataObject) -> tuple[str | set[str], str]:
    spots = [
        (hi, pi, others)
        for hi, pi, s, seat in play_spots(doc)
        if (others := sorted(t for o in SEATS if o != seat for t in s.held(o)))  # type: ignore[misc]
    ]
    assume(spots)
    hi, pi, others = data.draw(st.sampled_from(spots))
    doc["hands"][hi]["plays"][pi]["tile"] = str(data.draw(st.sampled_from(others)))
    return "R3", f"/hands/{hi}/plays/{pi}"


def low_bid(doc: Doc, data: st.DataObject) -> tuple[str | set[str], str]:
    spots = [
        (hi, ci)
        for hi, h in enumerate(doc["hands"])
        for ci, c in enumerate(h["auction"])
        if c["call"] == "points"
    ]
    assume(spots)
    hi, ci = data.draw(st.sampled_from(spots))
    doc["hands"][hi]["auction"][ci]["bid"] = data.draw(st.integers(-5, 29))
    return "R8", f"/hands/{hi}/auction/{ci}"


def mark_jump(doc: Doc, data: st.DataObject) -> tuple[str | set[str], str]:
    # With free jumps (option mark_ladder) a bigger mark bid may be legal; Plunge and
    # Splash have sizes of their own.
    assume(effective_rules(Match.model_validate(doc)).mark_ladder == "exact-raise")
    spots = [
        (hi, ci)
        for hi, h in enumerate(doc["hands"])
        for ci, c in enumerate(h["auction"])
        if c["call"] == "marks" and "special" not in c
    ]
    assume(spots)
    hi, ci = data.draw(st.sampled_from(spots))
    doc["hands"][hi]["auction"][ci]["bid"] += 2  # opening 3+, or a raise of 3
    return "R9", f"/hands/{hi}/auction/{ci}"


def hand_with_plays(doc: Doc, data: st.DataObject) -> int:
    spots = [hi for hi, h in enumerate(doc["hands"]) if h.get("plays")]
    assume(spots)
    return data.draw(st.sampled_from(spots))


def play_after_decided(doc: Doc, data: st.DataObject) -> tuple[str | set[str], str]:
    hi = hand_with_plays(doc, data)
    plays = doc["hands"][hi]["plays"]
    seat = data.draw(st.sampled_from(SEATS))
    played = {p["tile"] for p in plays}
    left = [t for t in doc["hands"][hi]["deal"][seat] if t not in played]
    assume(left)
    plays.append({"seat": seat, "tile": data.draw(st.sampled_from(left))})
    return "R22", f"/hands/{hi}/plays/{len(plays) - 1}"


def stated_marks(doc: Doc, data: st.DataObject) -> tuple[str | set[str], str]:
    hi = data.draw(st.integers(0, len(doc["hands"]) - 1))
    marks = doc["hands"][hi]["outcome"]["marks"]
    team = data.draw(st.sampled_from(["A+C", "B+D"]))
    marks[team] += data.draw(st.integers(1, 3))
    rule = "R11" if "declaration" not in doc["hands"][hi] else "R23"
    return rule, f"/hands/{hi}/outcome/marks"


def stated_score(doc: Doc, data: st.DataObject) -> tuple[str | set[str], str]:
    hi = data.draw(st.integers(0, len(doc["hands"]) - 1))
    doc["hands"][hi]["outcome"]["score"][data.draw(st.sampled_from(["A+C", "B+D"]))] += 1
    return "R5", f"/hands/{hi}/outcome/score"


def stated_points(doc: Doc, data: st.DataObject) -> tuple[str | set[str], str]:
    spots = [hi for hi, h in enumerate(doc["hands"]) if "points" in h["outcome"]]
    assume(spots)
    hi = data.draw(st.sampled_from(spots))
    doc["hands"][hi]["outcome"]["points"]["A+C"] += data.draw(st.integers(1, 5))
    return "R6", f"/hands/{hi}/outcome/points"


def stated_winner(doc: Doc, data: st.DataObject) -> tuple[str | set[str], str]:
    spots = [
        (hi, k)
        for hi, h in enumerate(doc["hands"])
        for k in range(len(h["outcome"].get("tricks", [])))
    ]
    assume(spots)
    hi, k = data.draw(st.sampled_from(spots))
    trick = doc["hands"][hi]["outcome"]["tricks"][k]
    trick["winner"] = next_seat(trick["winner"], data.draw(st.integers(1, 3)))
    return {
        "R17",
        "R18",
        "R19",
        "variant:sevens",
        "variant:nello",
    }, f"/hands/{hi}/outcome/tricks/{k}/winner"


def hand_after_end(doc: Doc, data: st.DataObject) -> tuple[str | set[str], str]:
    extra = copy.deepcopy(doc["hands"][data.draw(st.integers(0, len(doc["hands"]) - 1))])
    extra["dealer"] = next_seat(doc["hands"][-1]["dealer"])
    doc["hands"].append(extra)
    return "R24", f"/hands/{len(doc['hands']) - 1}"


def wrong_dealer(doc: Doc, data: st.DataObject) -> tuple[str | set[str], str]:
    hi = data.draw(st.integers(0, len(doc["hands"]) - 1))
    h = doc["hands"][hi]
    h["dealer"] = next_seat(h["dealer"], data.draw(st.integers(1, 3)))
    return "R4", f"/hands/{hi}/dealer"


def claim(doc: Doc, data: st.DataObject) -> tuple[str | set[str], str]:
    hi = hand_with_plays(doc, data)
    plays = doc["hands"][hi]["plays"]
    del plays[data.draw(st.integers(0, len(plays) - 1)) :]
    # Under hand_end = all-tricks a cut after the decision breaks that option instead.
    return {"R31", "variant:hand_end"}, f"/hands/{hi}/plays"


MUTATIONS: list[Mutation] = [
    renege,
    out_of_turn,
    tile_not_held,
    low_bid,
    mark_jump,
    play_after_decided,
    stated_marks,
    stated_score,
    stated_points,
    stated_winner,
    hand_after_end,
    wrong_dealer,
    claim,
]


def _check_mutation(doc: Doc, mutate: Mutation, data: st.DataObject) -> None:
    rule, pointer = mutate(doc, data)
    errors = validate(doc)
    assert errors, f"{mutate.__name__} went unnoticed"
    first_rule, first_pointer = errors[0]
    rules = rule if isinstance(rule, set) else {rule}
    assert first_rule in rules and first_pointer == pointer, (mutate.__name__, errors)


@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(matches(), st.sampled_from(MUTATIONS), st.data())
def test_single_mutations_are_caught(doc: Doc, mutate: Mutation, data: st.DataObject) -> None:
    _check_mutation(doc, mutate, data)


@pytest.mark.parametrize("preset", VARIANTS)
def test_single_mutations_are_caught_under_every_preset(preset: str) -> None:
    @settings(
        max_examples=60,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    @given(matches(preset), st.sampled_from(MUTATIONS), st.data())
    def check(doc: Doc, mutate: Mutation, data: st.DataObject) -> None:
        _check_mutation(doc, mutate, data)

    check()


@SETTINGS
@given(st.sampled_from(list(PRESETS)).flatmap(matches), st.data())
def test_knowing_less_never_makes_a_legal_match_illegal(doc: Doc, data: st.DataObject) -> None:
    for hand in doc["hands"]:
        if data.draw(st.booleans()):
            del hand["deal"]
            continue
        for seat in SEATS:
            tiles = hand["deal"][seat]
            hidden = data.draw(st.sets(st.integers(0, 6)))
            hand["deal"][seat] = [None if i in hidden else t for i, t in enumerate(tiles)]
    assert validate(doc) == []


@SETTINGS
@given(matches(), st.data())
def test_a_renege_in_a_spectator_record_is_caught_when_a_later_play_proves_it(
    doc: Doc, data: st.DataObject
) -> None:
    """Swap two plays of one seat so that it discards while holding (as its later
    play shows) a follower; hide every tile that was never played."""
    candidates = []
    for hi, hand in enumerate(doc["hands"]):
        if "declaration" not in hand:
            continue
        table = FACTS[Trump(hand["declaration"]["trump"])]
        plays = hand["plays"]
        for i in range(0, len(plays) - 4, 4):
            suit = table[Tile.parse(plays[i]["tile"])].leads
            for j in range(i + 1, i + 4):
                if suit not in table[Tile.parse(plays[j]["tile"])].follows:
                    continue
                for k in range(i + 4, len(plays)):
                    y = Tile.parse(plays[k]["tile"])
                    if plays[k]["seat"] == plays[j]["seat"] and suit not in table[y].follows:
                        candidates.append((hi, j, k))
    assume(candidates)
    hi, j, k = data.draw(st.sampled_from(candidates))
    plays = doc["hands"][hi]["plays"]
    plays[j]["tile"], plays[k]["tile"] = plays[k]["tile"], plays[j]["tile"]
    for hand in doc["hands"]:
        played = {p["tile"] for p in hand.get("plays", [])}
        for seat in SEATS:
            hand["deal"][seat] = [t if t in played else None for t in hand["deal"][seat]]
    errors = validate(doc)
    assert (
        errors
        and errors[0][0] in {"R13", "R14", "R15", "R16"}
        and errors[0][1] == f"/hands/{hi}/plays/{j}"
    )
