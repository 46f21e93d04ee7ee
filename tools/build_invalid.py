"""Build fixtures/invalid/*.json: one mutation of a valid fixture each.

Run: python tools/build_invalid.py   (after tools/build_fixtures.py)

Every mutation states, by hand, the diagnostics it must produce (rule id and
JSON pointer); they go to fixtures/invalid-expected.json, which the test suite
compares with what the validator reports. The expectation is written here,
not copied from the validator's output.
"""

from __future__ import annotations

import copy
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# Fixtures go under FIXTURES_ROOT (argv[1], default: the repository) — tests rebuild them elsewhere.
FIXTURES_ROOT = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT
sys.path.insert(0, str(ROOT))

from texas42_log.engine.auction import Auction, BidKind  # noqa: E402
from texas42_log.engine.hand import PlayState  # noqa: E402
from texas42_log.engine.rules import STANDARD  # noqa: E402
from texas42_log.engine.seats import SEATS, next_seat  # noqa: E402
from texas42_log.engine.tiles import Tile  # noqa: E402
from texas42_log.engine.trumps import FACTS, TRUMP_SUIT, Trump  # noqa: E402

VALID = FIXTURES_ROOT / "fixtures" / "valid"
OUT = FIXTURES_ROOT / "fixtures" / "invalid"

Doc = dict[str, Any]


def load(name: str) -> Doc:
    doc: Doc = json.loads((VALID / name).read_text("utf-8"))
    return doc


def spots(doc: Doc) -> Iterator[tuple[int, int, PlayState, str]]:
    """Before each accepted play: (hand index, play index, state, seat)."""
    for hi, hand in enumerate(doc["hands"]):
        decl = hand.get("declaration")
        if not decl:
            continue
        auction = Auction(STANDARD, hand["dealer"])
        for c in hand["auction"]:
            if not c.get("rejected"):
                auction.apply(c["seat"], BidKind(c["call"]), c.get("bid"))
        contract = auction.contract()
        assert contract is not None
        known = {s: {Tile.parse(t) for t in hand["deal"][s] if t} for s in SEATS}
        state = PlayState(STANDARD, contract, Trump(decl["trump"]), known)
        for pi, play in enumerate(hand["plays"]):
            if play.get("rejected"):
                continue
            yield hi, pi, state, play["seat"]
            state.apply(play["seat"], Tile.parse(play["tile"]))


def renege(doc: Doc, kind: str) -> tuple[int, int, str]:
    """Find a play where the player could follow, and a tile that would be a renege of ``kind``."""
    for hi, pi, state, seat in spots(doc):
        trick = state.current
        if not trick.plays:
            continue
        table = FACTS[state.trump]
        lead = trick.plays[0][1]
        suit = table[lead].leads
        if not state.followers(seat):
            continue
        for t in sorted(state.held(seat)):
            f = table[t]
            if suit in f.follows:
                continue
            if kind == "R15" and suit == TRUMP_SUIT:
                return hi, pi, str(t)
            if suit == TRUMP_SUIT:
                continue
            if kind == "R13" and f.trump and t.shows(suit):
                return hi, pi, str(t)
            if (
                kind == "R14"
                and not f.trump
                and not lead.is_double
                and not table[lead].trump
                and t.shows(lead.low)
            ):
                return hi, pi, str(t)
            if kind == "R16" and not f.trump and not t.shows(lead.low) and not t.shows(lead.high):
                return hi, pi, str(t)
    raise LookupError(kind)


def stated_winner_spot(doc: Doc, kind: str) -> tuple[int, int, str]:
    """A completed trick and a wrong winner that misreads rule ``kind`` (R17/R18/R19)."""
    for hi, pi, state, seat in spots(doc):
        trick = state.current
        if len(trick.plays) != 3:
            continue
        # Look at the trick once its 4th tile is in.
        t4 = None
        hand = doc["hands"][hi]
        t4 = Tile.parse(hand["plays"][pi]["tile"])
        tiles = [t for _, t in trick.plays] + [t4]
        seats = [s for s, _ in trick.plays] + [seat]
        table = FACTS[state.trump]
        from texas42_log.engine.trumps import trick_winner_index

        w = trick_winner_index(tiles, state.trump)
        suit = table[tiles[0]].leads
        out = hand.get("outcome") or {}
        if not out.get("tricks") or len(out["tricks"]) < trick.number:
            continue
        for k, t in enumerate(tiles):
            if k == w:
                continue
            a, s = table[tiles[w]], table[t]
            if kind == "R19" and state.trump is Trump.DOUBLES and a.trump and s.trump:
                return hi, trick.number - 1, seats[k]
            if kind == "R18" and not a.trump and not s.trump and suit in s.follows:
                return hi, trick.number - 1, seats[k]
            if kind == "R17" and a.trump and not s.trump and suit in s.follows:
                return hi, trick.number - 1, seats[k]
    raise LookupError(kind)


Mutation = Callable[[], tuple[Doc, list[tuple[str, str]]]]
CASES: dict[str, Mutation] = {}


def case(name: str) -> Callable[[Mutation], Mutation]:
    def deco(fn: Mutation) -> Mutation:
        CASES[name] = fn
        return fn

    return deco


SEED = "seed-worked-example.json"
LADDER = "all-tricks-1-2-3-marks.json"
EXTRAS = "annotations-extensions-rejected.json"


@case("R1-seat-not-at-the-table")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    d["hands"][0]["plays"][0]["seat"] = "E"
    return d, [("R1", "/hands/0/plays/0/seat")]


@case("R2-tile-not-in-the-set")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    d["hands"][0]["deal"]["A"][1] = "[3|7]"
    return d, [("R2", "/hands/0/deal/A/1")]


@case("R2-tile-dealt-twice")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    d["hands"][1]["deal"]["B"][0] = d["hands"][1]["deal"]["A"][0]
    return d, [("R2", "/hands/1/deal/B/0")]


@case("R3-six-tiles-dealt")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    d["hands"][1]["deal"]["C"].pop()
    return d, [("R3", "/hands/1/deal/C")]


@case("R3-plays-a-tile-dealt-to-another")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    h = d["hands"][1]
    leader = h["plays"][0]["seat"]
    h["plays"][0]["tile"] = h["deal"][next_seat(leader, 2)][0]
    return d, [("R3", "/hands/1/plays/0")]


@case("R3-plays-the-same-tile-twice")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    h = d["hands"][1]
    first = h["plays"][0]
    k = next(i for i, p in enumerate(h["plays"]) if i > 3 and p["seat"] == first["seat"])
    h["plays"][k]["tile"] = first["tile"]
    return d, [("R3", f"/hands/1/plays/{k}")]


@case("R4-first-dealer-mismatch")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    d["first_dealer"] = "A"
    return d, [("R4", "/hands/0/dealer")]


@case("R4-deal-does-not-pass-clockwise")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    h = d["hands"][3]
    h["dealer"] = next_seat(h["dealer"], 2)
    # The calls, made in the true order, are now out of turn for the stated dealer.
    return d, [("R4", "/hands/3/dealer"), ("R7", "/hands/3/auction/0")]


@case("R5-running-score-wrong")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    d["hands"][2]["outcome"]["score"]["A+C"] += 1
    return d, [("R5", "/hands/2/outcome/score")]


@case("R6-trick-points-wrong")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    d["hands"][1]["outcome"]["tricks"][0]["points"] += 5
    return d, [("R6", "/hands/1/outcome/tricks/0/points")]


@case("R6-hand-points-divided-by-5")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    pts = d["hands"][0]["outcome"]["points"]
    pts["B+D"] = pts["B+D"] // 5  # R6: points are never divided by 5
    return d, [("R6", "/hands/0/outcome/points")]


@case("R7-call-out-of-turn")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    a = d["hands"][1]["auction"]
    a[0]["seat"], a[1]["seat"] = a[1]["seat"], a[0]["seat"]
    return d, [("R7", "/hands/1/auction/0")]


@case("R7-only-three-calls")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    d["hands"][1]["auction"].pop()
    return d, [("R7", "/hands/1/auction")]


@case("R7-fifth-call")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    a = d["hands"][1]["auction"]
    a.append({"seat": a[0]["seat"], "call": "pass"})
    return d, [("R7", "/hands/1/auction/4")]


@case("R8-bid-below-30")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    d["hands"][0]["auction"][0]["bid"] = 29
    return d, [("R8", "/hands/0/auction/0")]


@case("R8-bid-does-not-exceed")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    a = d["hands"][1]["auction"]  # B 30, C 31, D 35, A 39
    a[1]["bid"] = a[0]["bid"]
    return d, [("R8", "/hands/1/auction/1")]


@case("R9-opening-mark-bid-of-3")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(LADDER)
    d["hands"][0]["auction"][1]["bid"] = 3  # C opens at 3 marks
    return d, [("R9", "/hands/0/auction/1")]


@case("R9-mark-bid-jumps-by-2")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(LADDER)
    d["hands"][4]["auction"][1]["bid"] = 4  # B 2, C 4
    return d, [("R9", "/hands/4/auction/1")]


@case("R9-point-bid-after-mark-bid")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(LADDER)
    d["hands"][4]["auction"][2] = {"seat": "D", "call": "points", "bid": 41}
    return d, [("R9", "/hands/4/auction/2")]


@case("R10-declared-by-another-seat")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    d["hands"][0]["declaration"]["seat"] = "C"
    return d, [("R10", "/hands/0/declaration/seat")]


@case("R10-first-lead-by-another-seat")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    d["hands"][0]["plays"][0]["seat"] = "B"
    return d, [("R10", "/hands/0/plays/0")]


@case("R10-no-declaration")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    del d["hands"][1]["declaration"]
    return d, [("R10", "/hands/1")]


@case("R11-plays-after-all-pass")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    h = d["hands"][5]
    leader = next_seat(h["dealer"])
    h["plays"] = [{"seat": leader, "tile": h["deal"][leader][0]}]
    return d, [("R11", "/hands/5/plays/0")]


@case("R11-marks-after-all-pass")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    d["hands"][5]["outcome"]["marks"]["A+C"] = 1
    return d, [("R11", "/hands/5/outcome/marks")]


@case("R11-declaration-after-all-pass")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    d["hands"][5]["declaration"] = {"seat": "B", "trump": "3"}
    return d, [("R11", "/hands/5/declaration")]


@case("R12-no-such-trump")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    d["hands"][0]["declaration"]["trump"] = "7"
    return d, [("R12", "/hands/0/declaration/trump")]


def _renege_case(rule: str, source: str) -> Mutation:
    def build() -> tuple[Doc, list[tuple[str, str]]]:
        d = load(source)
        hi, pi, tile = renege(d, rule)
        d["hands"][hi]["plays"][pi]["tile"] = tile
        return d, [(rule, f"/hands/{hi}/plays/{pi}")]

    return build


CASES["R13-trump-tile-does-not-follow-its-number"] = _renege_case("R13", "random-seed-12.json")
CASES["R14-lower-number-does-not-lead"] = _renege_case("R14", "random-seed-12.json")
CASES["R15-only-trumps-follow-trumps"] = _renege_case("R15", "random-seed-12.json")
CASES["R16-renege"] = _renege_case("R16", "random-seed-12.json")


@case("R16-renege-proved-by-a-later-play")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    # In a spectator's record the deal shows only played tiles. Swap two plays of
    # one seat so that it discards while holding (as its later play proves) a follower.
    d = load("partly-known-deals.json")
    for hi, hand in enumerate(d["hands"]):
        if not hand.get("declaration"):
            continue
        trump = Trump(hand["declaration"]["trump"])
        table = FACTS[trump]
        plays = hand["plays"]
        for i in range(0, len(plays), 4):
            trick = plays[i : i + 4]
            lead = Tile.parse(trick[0]["tile"])
            suit = table[lead].leads
            for p in trick[1:]:
                x = Tile.parse(p["tile"])
                if suit not in table[x].follows:
                    continue
                for q in plays[i + 4 :]:
                    y = Tile.parse(q["tile"])
                    f = table[y]
                    if (
                        q["seat"] == p["seat"]
                        and not f.trump
                        and not y.shows(lead.low)
                        and not y.shows(lead.high)
                    ):
                        p["tile"], q["tile"] = q["tile"], p["tile"]
                        return d, [("R16", f"/hands/{hi}/plays/{plays.index(p)}")]
    raise LookupError("no swap")


def _winner_case(rule: str, source: str) -> Mutation:
    def build() -> tuple[Doc, list[tuple[str, str]]]:
        d = load(source)
        hi, k, seat = stated_winner_spot(d, rule)
        d["hands"][hi]["outcome"]["tricks"][k]["winner"] = seat
        return d, [(rule, f"/hands/{hi}/outcome/tricks/{k}/winner")]

    return build


CASES["R17-trump-beats-the-led-suit"] = _winner_case("R17", "random-seed-12.json")
CASES["R18-double-is-highest-in-its-suit"] = _winner_case("R18", "random-seed-12.json")
CASES["R19-doubles-trump-rank-by-pips"] = _winner_case("R19", "random-seed-12.json")


@case("R21-play-out-of-turn")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    p = d["hands"][1]["plays"]
    p[5]["seat"], p[6]["seat"] = p[6]["seat"], p[5]["seat"]
    return d, [("R21", "/hands/1/plays/5")]


@case("R21-wrong-leader-after-a-trick")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    p = d["hands"][1]["plays"]
    winner = d["hands"][1]["outcome"]["tricks"][0]["winner"]
    p[4]["seat"] = next_seat(winner)
    return d, [("R21", "/hands/1/plays/4")]


@case("R22-play-after-the-hand-was-decided")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    d["hands"][0]["plays"].append({"seat": "D", "tile": "[0|6]"})
    return d, [("R22", "/hands/0/plays/4")]


@case("R22-tricks-listed-after-the-end")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    d["hands"][0]["outcome"]["tricks"].append({"winner": "D"})
    return d, [("R22", "/hands/0/outcome/tricks")]


@case("R23-marks-to-the-wrong-team")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    m = d["hands"][1]["outcome"]["marks"]
    m["A+C"], m["B+D"] = m["B+D"], m["A+C"]
    return d, [("R23", "/hands/1/outcome/marks")]


@case("R23-set-recorded-as-made")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    d["hands"][1]["outcome"]["result"] = "made"
    return d, [("R23", "/hands/1/outcome/result")]


@case("R23-all-tricks-worth-its-marks")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(LADDER)
    d["hands"][4]["outcome"]["marks"]["A+C"] = 1  # a 3-mark contract made
    return d, [("R23", "/hands/4/outcome/marks")]


@case("R24-hand-after-the-match-was-won")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    extra = copy.deepcopy(d["hands"][5])  # an all-pass hand
    extra["dealer"] = next_seat(d["hands"][-1]["dealer"])
    d["hands"].append(extra)
    return d, [("R24", f"/hands/{len(d['hands']) - 1}")]


@case("R24-complete-without-a-winner")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    d["hands"] = d["hands"][:5]
    del d["result"]
    return d, [("R24", "/hands")]


@case("R24-wrong-match-winner")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    d["result"]["winner"] = "A+C"
    return d, [("R24", "/result/winner")]


@case("R24-unfinished-but-won")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    d["status"] = "unfinished"
    del d["result"]
    return d, [("R24", "/status")]


@case("R27-all-tricks-without-stacks")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(LADDER)
    del d["hands"][0]["declaration"]["stacks"]
    return d, [("R27", "/hands/0/declaration")]


@case("R27-three-stacks")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(LADDER)
    d["hands"][0]["declaration"]["stacks"] = 3
    return d, [("R27", "/hands/0/declaration/stacks")]


@case("R27-stacks-in-a-point-contract")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    d["hands"][0]["declaration"]["stacks"] = 1
    return d, [("R27", "/hands/0/declaration/stacks")]


@case("R30-rejected-play-was-legal")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(EXTRAS)
    d["hands"][0]["plays"][2]["tile"] = "[0|5]"  # C's real play, marked refused
    return d, [("R30", "/hands/0/plays/2")]


@case("R30-rejected-bid-was-legal")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(EXTRAS)
    d["hands"][0]["auction"][1]["bid"] = 31
    return d, [("R30", "/hands/0/auction/1")]


@case("R31-remaining-tricks-claimed")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    h = d["hands"][1]
    h["plays"] = h["plays"][:8]
    return d, [("R31", "/hands/1/plays")]


@case("several-errors-in-one-match")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    # Every problem is reported, hand after hand; a broken hand is skipped.
    d = load(SEED)
    d["hands"][0]["auction"][0]["bid"] = 29
    d["hands"][2]["auction"][2]["bid"] = 3
    d["hands"][6]["declaration"]["seat"] = "A"
    return d, [
        ("R8", "/hands/0/auction/0"),
        ("R9", "/hands/2/auction/2"),
        ("R10", "/hands/6/declaration/seat"),
    ]


# -- rule variants: the typical illegal case of each option -------------------

CASUAL = "variant-casual-nello-plunge-splash.json"
TRICKSY = "variant-tricksy-sevens-nello-forced-bid.json"
TEXAS42 = "variant-texas-42-all-seven-tricks.json"
PLUNGE_L = "variant-plunge-l-forced-bid-nello.json"
NOTATION = "variant-options-84-notation-low-doubles-declared-leads.json"
OWN_SUIT = "variant-options-own-suit-doubles-first-trick-lead.json"
BIDS_30 = "variant-options-dealer-bids-30.json"
POINTS_250 = "variant-options-250-points.json"


def _doubles(hand: Doc, seat: str) -> int:
    return sum(1 for t in hand["deal"][seat] if t and Tile.parse(t).is_double)


def _hand_where(d: Doc, test: Callable[[Doc], bool]) -> int:
    return next(i for i, h in enumerate(d["hands"]) if test(h))


def _special_bid_without_doubles(
    special: str, bid: int, need: int
) -> tuple[Doc, list[tuple[str, str]]]:
    d = load(CASUAL)
    i = _hand_where(d, lambda h: _doubles(h, h["auction"][0]["seat"]) < need)
    d["hands"][i]["auction"][0] = {
        "seat": d["hands"][i]["auction"][0]["seat"],
        "call": "marks",
        "bid": bid,
        "special": special,
    }
    return d, [(f"variant:{special}", f"/hands/{i}/auction/0")]


@case("variant-plunge-without-4-doubles")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    return _special_bid_without_doubles("plunge", 4, 4)


@case("variant-splash-without-3-doubles")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    return _special_bid_without_doubles("splash", 2, 3)


@case("variant-plunge-of-the-wrong-size")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(CASUAL)
    i = _hand_where(d, lambda h: any(c.get("special") == "plunge" for c in h["auction"]))
    j = next(j for j, c in enumerate(d["hands"][i]["auction"]) if c.get("special") == "plunge")
    d["hands"][i]["auction"][j]["bid"] += 1  # over a 1-mark bid a Plunge is 4, not 5
    return d, [("variant:plunge", f"/hands/{i}/auction/{j}")]


@case("variant-plunge-bidder-declares-instead-of-partner")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(CASUAL)
    i = _hand_where(d, lambda h: any(c.get("special") == "plunge" for c in h["auction"]))
    bidder = next(c["seat"] for c in d["hands"][i]["auction"] if c.get("special") == "plunge")
    d["hands"][i]["declaration"]["seat"] = bidder
    return d, [("R10", f"/hands/{i}/declaration/seat")]


@case("variant-nello-bidder-wins-a-trick-but-play-continues")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(PLUNGE_L)
    i = _hand_where(
        d,
        lambda h: (
            (h.get("declaration") or {}).get("contract") == "nello"
            and h["outcome"]["result"] == "set"
            and len(h["plays"]) < 21
        ),
    )
    h = d["hands"][i]
    played = {p["tile"] for p in h["plays"]}
    winner = h["outcome"]["tricks"][-1]["winner"]
    tile = next(t for t in h["deal"][winner] if t not in played)
    h["plays"].append({"seat": winner, "tile": tile})
    return d, [("R22", f"/hands/{i}/plays/{len(h['plays']) - 1}")]


@case("variant-nello-partner-plays")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(PLUNGE_L)
    i = _hand_where(d, lambda h: (h.get("declaration") or {}).get("contract") == "nello")
    h = d["hands"][i]
    bidder = h["declaration"]["seat"]
    partner = next_seat(bidder, 2)
    played = {p["tile"] for p in h["plays"]}
    h["plays"][1] = {
        "seat": partner,
        "tile": next(t for t in h["deal"][partner] if t not in played),
    }
    return d, [("variant:nello", f"/hands/{i}/plays/1")]


@case("variant-nello-not-in-these-rules")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    i = _hand_where(
        d, lambda h: any(c["call"] == "marks" for c in h["auction"]) and "declaration" in h
    )
    decl = d["hands"][i]["declaration"]
    d["hands"][i]["declaration"] = {"seat": decl["seat"], "contract": "nello"}
    return d, [("variant:nello", f"/hands/{i}/declaration/contract")]


@case("variant-nello-below-its-least-bid")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(PLUNGE_L)
    d["rules"]["options"]["nello_min_marks"] = 3  # the Nel-O hands bid 2 marks
    hands = [
        i
        for i, h in enumerate(d["hands"])
        if (h.get("declaration") or {}).get("contract") == "nello"
    ]
    assert len(hands) == 2
    return d, [("variant:nello", f"/hands/{i}/declaration/contract") for i in hands]


@case("variant-forced-dealer-passes")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(PLUNGE_L)
    i = _hand_where(
        d, lambda h: [c["call"] for c in h["auction"]] == ["pass", "pass", "pass", "points"]
    )
    d["hands"][i]["auction"][3] = {"seat": d["hands"][i]["auction"][3]["seat"], "call": "pass"}
    return d, [("variant:all_pass", f"/hands/{i}/auction/3")]


@case("variant-dealer-bids-31-where-30-is-forced")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(BIDS_30)
    i = _hand_where(
        d, lambda h: [c["call"] for c in h["auction"]] == ["pass", "pass", "pass", "points"]
    )
    d["hands"][i]["auction"][3]["bid"] = 31
    return d, [("variant:all_pass", f"/hands/{i}/auction/3")]


@case("variant-sevens-wrong-trick-winner")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(TRICKSY)
    i = _hand_where(d, lambda h: (h.get("declaration") or {}).get("contract") == "sevens")
    tricks = d["hands"][i]["outcome"]["tricks"]
    plays = d["hands"][i]["plays"]
    seats = [p["seat"] for p in plays[:4]]
    tricks[0]["winner"] = next(s for s in seats if s != tricks[0]["winner"])
    return d, [("variant:sevens", f"/hands/{i}/outcome/tricks/0/winner")]


@case("variant-all-tricks-rules-hand-stops-at-the-decision")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(TEXAS42)
    i = _hand_where(d, lambda h: len(h.get("plays", [])) == 28)
    d["hands"][i]["plays"] = d["hands"][i]["plays"][:24]
    d["hands"][i].pop("outcome")
    return d, [("variant:hand_end", f"/hands/{i}/plays")]


@case("variant-mark-bid-in-points-not-a-multiple-of-42")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(NOTATION)
    i = _hand_where(d, lambda h: any(c["call"] == "marks" for c in h["auction"]))
    j = next(j for j, c in enumerate(d["hands"][i]["auction"]) if c["call"] == "marks")
    d["hands"][i]["auction"][j]["bid"] = 80
    return d, [("variant:mark_bid_units", f"/hands/{i}/auction/{j}/bid")]


@case("variant-declared-lead-not-in-these-rules")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(SEED)
    for i, h in enumerate(d["hands"]):
        if "declaration" not in h:
            continue
        lead = Tile.parse(h["plays"][0]["tile"])
        if not lead.is_double and not FACTS[Trump(h["declaration"]["trump"])][lead].trump:
            h["plays"][0]["led"] = lead.low
            return d, [("variant:declared_lead", f"/hands/{i}/plays/0/led")]
    raise LookupError


@case("variant-declared-lead-after-the-first-trick")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(OWN_SUIT)
    for i, h in enumerate(d["hands"]):
        plays = h.get("plays", [])
        if len(plays) > 4 and "trump" in h["declaration"]:
            lead = Tile.parse(plays[4]["tile"])
            if not lead.is_double and not lead.shows(
                int(h["declaration"]["trump"]) if h["declaration"]["trump"].isdigit() else -1
            ):
                plays[4]["led"] = lead.low
                return d, [("variant:declared_lead", f"/hands/{i}/plays/4/led")]
    raise LookupError


@case("variant-stacks-differ-from-the-fixed-number")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(NOTATION)
    i = _hand_where(d, lambda h: any(c["call"] == "marks" for c in h["auction"]))
    d["hands"][i]["declaration"]["stacks"] = 1
    return d, [("R27", f"/hands/{i}/declaration/stacks")]


@case("variant-250-points-complete-before-the-goal")
def _() -> tuple[Doc, list[tuple[str, str]]]:
    d = load(POINTS_250)
    d["hands"] = d["hands"][:-1]
    d.pop("result")
    return d, [("R24", "/hands")]


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.json"):
        old.unlink()
    expected: dict[str, list[dict[str, str]]] = {}
    for name, build in CASES.items():
        doc, expect = build()
        (OUT / f"{name}.json").write_text(
            json.dumps(doc, indent=2, ensure_ascii=False) + "\n", "utf-8"
        )
        expected[f"{name}.json"] = [{"rule": r, "pointer": p} for r, p in expect]
    (FIXTURES_ROOT / "fixtures" / "invalid-expected.json").write_text(
        json.dumps(expected, indent=2) + "\n", "utf-8"
    )
    print(f"wrote {len(CASES)} invalid fixtures")


if __name__ == "__main__":
    main()
