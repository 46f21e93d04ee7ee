"""Build fixtures/valid/*.json by playing scripted scenarios through the engine.

Run: python tools/build_fixtures.py   (rewrites fixtures/valid/; review the diff)

Each fixture is a real match: every hand is dealt, bid and played by the
engine's checked path, with some choices forced (a deal, an auction, a trump,
the first plays) and chance filling in the rest from a fixed seed.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# Fixtures go under FIXTURES_ROOT (argv[1], default: the repository) — tests rebuild them elsewhere.
FIXTURES_ROOT = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT
sys.path.insert(0, str(ROOT))

from texas42_log.engine.auction import Auction, BidKind, Contract  # noqa: E402
from texas42_log.engine.hand import PlayState  # noqa: E402
from texas42_log.engine.rules import STANDARD  # noqa: E402
from texas42_log.engine.seats import SEATS, Seat, next_seat  # noqa: E402
from texas42_log.engine.tiles import TILES, Tile  # noqa: E402
from texas42_log.engine.trumps import Trump  # noqa: E402
from texas42_log.play.generate import Policy, random_match  # noqa: E402

OUT = FIXTURES_ROOT / "fixtures" / "valid"

SEED_DEAL = {
    "A": ["[5|5]", "[1|1]", "[1|2]", "[2|2]", "[0|0]", "[0|1]", "[0|2]"],
    "B": ["[3|5]", "[1|3]", "[2|3]", "[3|3]", "[0|3]", "[3|4]", "[1|4]"],
    "C": ["[0|5]", "[1|5]", "[2|5]", "[4|5]", "[4|4]", "[2|4]", "[0|4]"],
    "D": ["[6|6]", "[0|6]", "[1|6]", "[2|6]", "[3|6]", "[4|6]", "[5|6]"],
}


#: The seeds' worked example (docs/rules.md R22): dealer D, A bids 30, sixes trump.
SEED_HAND: dict[str, Any] = {
    "deal": SEED_DEAL,
    "calls": [("points", 30), ("pass", None), ("pass", None), ("pass", None)],
    "trump": "6",
    "plays": ["[5|5]", "[3|5]", "[0|5]", "[6|6]"],
}


#: The seeds' third to fifth example views: A leads [6|6], [5|5], [4|4] at no-trump
#: and A+C win the three tricks; the rest of each hand is played by chance.
VIEWS_DEAL = {
    "A": ["[6|6]", "[5|5]", "[4|4]", "[0|0]", "[1|1]", "[2|2]", "[3|3]"],
    "B": ["[0|6]", "[0|5]", "[0|4]", "[0|1]", "[0|2]", "[0|3]", "[1|2]"],
    "C": ["[1|6]", "[1|5]", "[1|4]", "[1|3]", "[2|3]", "[2|4]", "[2|5]"],
    "D": ["[2|6]", "[3|5]", "[3|4]", "[3|6]", "[4|5]", "[4|6]", "[5|6]"],
}
VIEWS_PLAYS = [
    "[6|6]",
    "[0|6]",
    "[1|6]",
    "[2|6]",
    "[5|5]",
    "[0|5]",
    "[1|5]",
    "[3|5]",
    "[4|4]",
    "[0|4]",
    "[1|4]",
    "[3|4]",
]


def trumps_of(trump: Trump) -> list[Tile]:
    from texas42_log.engine.trumps import is_trump

    return [t for t in TILES if is_trump(t, trump)]


class Scripted(Policy):
    """Policy with per-hand overrides: spec keys deal, strong, calls, trump, stacks, plays."""

    def __init__(self, rng: random.Random, specs: dict[int, dict[str, Any]]) -> None:
        super().__init__(rng, STANDARD)
        self.specs = specs
        self._forced: dict[int, list[str]] = {}

    def _spec(self, i: int) -> dict[str, Any]:
        return self.specs.get(i, {})

    def deal(self, i: int, dealer: Seat) -> dict[Seat, list[Tile]]:
        spec = self._spec(i)
        if "deal" in spec:
            return {s: [Tile.parse(x) for x in spec["deal"][s]] for s in SEATS}
        if "strong" in spec:
            # The bidder holds every trump: it wins every trick it leads.
            seat, trump = spec["strong"]
            mine = trumps_of(Trump(trump))
            rest = [t for t in TILES if t not in mine]
            self.rng.shuffle(rest)
            hands: dict[Seat, list[Tile]] = {s: [] for s in SEATS}
            hands[seat] = list(mine)
            self.rng.shuffle(hands[seat])
            for s in SEATS:
                while len(hands[s]) < 7:
                    hands[s].append(rest.pop())
            return hands
        return super().deal(i, dealer)

    def call(self, i: int, auction: Auction, seat: Seat) -> tuple[BidKind, int | None]:
        calls = self._spec(i).get("calls")
        if calls is None:
            return super().call(i, auction, seat)
        kind, bid = calls[len(auction.calls)]
        return BidKind(kind), bid

    def trump(self, i: int, contract: Contract, hand: list[Tile]) -> Trump:
        spec = self._spec(i)
        if "trump" in spec:
            return Trump(spec["trump"])
        if "strong" in spec:
            return Trump(spec["strong"][1])
        return super().trump(i, contract, hand)

    def stacks(self, i: int, contract: Contract) -> int:
        return int(self._spec(i).get("stacks", super().stacks(i, contract)))

    def play(self, i: int, state: PlayState, seat: Seat, legal: list[Tile]) -> Tile:
        forced = self._spec(i).get("plays")
        if forced:
            n = sum(len(t.plays) for t in state.tricks)
            if n < len(forced):
                return Tile.parse(forced[n])
        spec = self._spec(i)
        if "strong" in spec and seat == spec["strong"][0]:
            return max(legal)  # lead trumps, high to low
        return super().play(i, state, seat, legal)


def passes_except(dealer: Seat, bidder: Seat, kind: str, bid: int) -> list[tuple[str, int | None]]:
    """Four calls from the dealer's left: the bidder bids, the rest pass."""
    order = [next_seat(dealer, k) for k in range(1, 5)]
    return [(kind, bid) if s == bidder else ("pass", None) for s in order]


def build(name: str, seed: int, specs: dict[int, dict[str, Any]], **kw: Any) -> dict[str, Any]:
    rng = random.Random(seed)
    doc = random_match(seed, policy=Scripted(rng, specs), **kw)
    return doc


def scenarios() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}

    # 1. The seeds' worked example (docs/rules.md R22) as hand 1 of a full match.
    doc = build(
        "seed",
        1,
        {0: SEED_HAND},
        first_dealer="D",
        players={"A": "Ana", "B": "Bert", "C": "Cleo", "D": "Dov"},
    )
    doc["hands"][0]["annotations"] = [
        {
            "text": "The seeds' worked example: D trumps the fives with [6|6]; 16 hand points "
            "to B+D; A+C can reach at most 26 < 30, so the hand ends after trick 1 (R22)."
        }
    ]
    out["seed-worked-example.json"] = doc

    # 1b. The seeds' example views 3-5 (docs/rules.md): after three tricks won by A+C,
    #     hand 1 a point bid of 30, hands 2 and 3 all tricks for 1 mark with 1 and
    #     2 stacks (R26, R27); no-trump throughout.
    specs = {
        i: {
            "deal": VIEWS_DEAL,
            "calls": passes_except(dealer, "A", kind, bid),
            "trump": "no-trump",
            "plays": VIEWS_PLAYS,
            **({"stacks": stacks} if stacks else {}),
        }
        for i, (dealer, kind, bid, stacks) in enumerate(
            [("D", "points", 30, 0), ("A", "marks", 1, 1), ("B", "marks", 1, 2)]
        )
    }
    out["seed-example-views.json"] = build("views", 16, specs, first_dealer="D")

    # 2. All-pass redeals (R11, R4): twice in a row, then play on.
    specs = {
        0: {"calls": [("pass", None)] * 4},
        1: {"calls": [("pass", None)] * 4},
    }
    out["all-pass-redeal.json"] = build("allpass", 2, specs, first_dealer="B")

    # 3. All-tricks bids of 1, 2 and 3 marks, each made and set.
    def marks_hand(
        dealer: Seat, bidder: Seat, marks: int, strong: bool, trump: str
    ) -> dict[str, Any]:
        order = [next_seat(dealer, k) for k in range(1, 5)]
        if marks <= 2:
            calls = [("marks", marks) if s == bidder else ("pass", None) for s in order]
        else:
            # R9: open at 2, the bidder raises by exactly 1.
            opener = next(s for s in order if s != bidder)
            calls = []
            for s in order:
                if s == opener:
                    calls.append(("marks", marks - 1))
                elif s == bidder:
                    calls.append(("marks", marks))
                else:
                    calls.append(("pass", None))
            if order.index(opener) > order.index(bidder):
                raise ValueError("opener must call before the bidder")
        spec: dict[str, Any] = {"calls": calls, "trump": trump}
        if strong:
            spec["strong"] = (bidder, trump)
        return spec

    # Dealers A B C D A B; each bid made (strong bidder) or set (random play).
    specs = {
        0: marks_hand("A", "C", 1, True, "4"),  # C: 1 mark, made → A+C 1
        1: marks_hand("B", "D", 1, False, "2"),  # D: 1 mark, set → A+C 2
        2: marks_hand("C", "B", 2, True, "doubles"),  # B: 2 marks, made → B+D 2
        3: marks_hand("D", "A", 2, False, "no-trump"),  # A: 2 marks, set → B+D 4
        4: marks_hand("A", "C", 3, True, "0"),  # B opens 2, C raises to 3, made → A+C 5
        5: marks_hand("B", "D", 3, False, "5"),  # C opens 2, D raises to 3, set → A+C 8
    }
    specs[0]["stacks"], specs[2]["stacks"], specs[4]["stacks"] = 1, 2, 2
    specs[1]["stacks"], specs[3]["stacks"], specs[5]["stacks"] = 2, 1, 1
    out["all-tricks-1-2-3-marks.json"] = build("ladder", 3, specs, first_dealer="A")

    # 4. Every trump choice (R12) in turn, point bids.
    choices = ["0", "1", "2", "3", "4", "5", "6", "doubles", "no-trump"]
    specs = {}
    dealer: Seat = "C"
    for k, tr in enumerate(choices):
        bidder = next_seat(dealer, 1 + k % 4)
        specs[k] = {"calls": passes_except(dealer, bidder, "points", 30 + k), "trump": tr}
        dealer = next_seat(dealer)
    out["every-trump-choice.json"] = build("trumps", 4, specs, first_dealer="C")

    # 5. Point contracts decided early both ways (R22): made by a strong bidder
    #    before trick 7, set as soon as the defenders pass 42 - bid.
    specs = {
        0: {"calls": passes_except("B", "C", "points", 30), "strong": ("C", "3")},
        1: {"calls": passes_except("C", "D", "points", 41), "strong": ("D", "no-trump")},
        2: {"calls": passes_except("D", "A", "points", 36), "trump": "1"},
    }
    out["point-bids-early-end.json"] = build("early", 5, specs, first_dealer="B")

    # 6. A finish at 8 marks (R24: at least 7, no bust): 6 + a 2-mark contract.
    specs = {
        0: {"calls": passes_except("A", "B", "marks", 2), "strong": ("B", "6"), "stacks": 2},
        1: {"calls": passes_except("B", "D", "marks", 2), "strong": ("D", "5"), "stacks": 1},
        2: {"calls": passes_except("C", "B", "marks", 2), "strong": ("B", "doubles"), "stacks": 2},
        3: {"calls": passes_except("D", "D", "marks", 2), "strong": ("D", "0"), "stacks": 1},
    }
    out["finish-at-eight-marks.json"] = build("eight", 6, specs, first_dealer="A")

    # 7. Random matches from fixed seeds.
    out["random-seed-11.json"] = random_match(11)
    out["random-seed-12.json"] = random_match(12, first_dealer="D")

    # 8. A match in progress: stops in the middle of a trick.
    doc = random_match(13, max_hands=3)
    last = doc["hands"][-1]
    while "plays" not in last or len(last["plays"]) < 6:
        doc = random_match(13 + len(out), max_hands=3)
        last = doc["hands"][-1]
    last["plays"] = last["plays"][:6]
    last.pop("outcome", None)
    doc["annotations"] = [{"text": "Recorded live; play continues."}]
    out["unfinished-mid-trick.json"] = doc

    # 9. A spectator's record: tiles never played are unknown (null).
    doc = random_match(14)
    for hand in doc["hands"]:
        played = {p["tile"] for p in hand.get("plays", [])}
        for s in SEATS:
            hand["deal"][s] = [t if t in played else None for t in hand["deal"][s]]
    out["partly-known-deals.json"] = doc

    # 10. Annotations, extensions, a dealer draw, rejected attempts (R30).
    doc = build(
        "extras",
        15,
        {0: SEED_HAND},
        first_dealer="D",
        players={"A": "Ana <b>", "B": 'Bert "the bid"', "C": "Cleo", "D": "Dov"},
    )
    doc["x-recorder"] = {"app": "texas42-log fixtures", "table": 7}
    doc["dealer_draw"] = [
        {"seat": "A", "tile": "[1|2]"},
        {"seat": "B", "tile": "[0|3]"},
        {"seat": "C", "tile": "[2|2]"},
        {"seat": "D", "tile": "[5|6]", "x-note": "highest pip total"},
    ]
    doc["annotations"] = [{"text": "Club night, table 7.", "author": "director"}]
    h0 = doc["hands"][0]
    h0["x-table-clock"] = "19:42"
    # Rejected attempts: B's 29 (R8) and C's [4|4] renege attempt (R16) were refused.
    h0["auction"].insert(
        1,
        {
            "seat": "B",
            "call": "points",
            "bid": 29,
            "rejected": True,
            "annotations": [{"text": "Below 30: refused."}],
        },
    )
    h0["plays"].insert(2, {"seat": "C", "tile": "[4|4]", "rejected": True, "x-reason": "renege"})
    h0["plays"][0]["annotations"] = [{"text": "Leads the big five.", "author": "Ana"}]
    h0["plays"][4]["x-ms"] = 812
    out["annotations-extensions-rejected.json"] = doc

    # 11. Rule variants (issue: rule variants): one match per bundle, the first seed
    #     whose match shows the features named (searched in order, so reproducible).
    out.update(variant_scenarios())
    return out


def _has(doc: dict[str, Any], feature: str) -> bool:
    hands = doc["hands"]
    calls = [c for h in hands for c in h["auction"]]
    decls = [h["declaration"] for h in hands if "declaration" in h]
    if feature in ("plunge", "splash"):
        return any(c.get("special") == feature for c in calls)
    if feature in ("nello", "sevens"):
        return any(d.get("contract") == feature for d in decls)
    if feature == "nello-doubles":
        return len({d.get("doubles") for d in decls if d.get("contract") == "nello"} - {None}) >= 2
    if feature == "forced":
        return any(
            [c["call"] for c in h["auction"][:3]] == ["pass"] * 3
            and h["auction"][3]["call"] != "pass"
            for h in hands
        )
    if feature == "led":
        return any("led" in p for h in hands for p in h.get("plays", []))
    if feature == "marks":
        return any(c["call"] == "marks" for c in calls)
    if feature == "no-trump":
        return any(d.get("trump") == "no-trump" for d in decls)
    if feature == "doubles":
        return any(d.get("trump") == "doubles" for d in decls)
    if feature == "early-set":  # a point hand decided before trick 7, played on
        return any(h.get("outcome", {}).get("result") == "set" for h in hands)
    if feature == "point-42":
        return any(c["call"] == "points" and c["bid"] == 42 for c in calls)
    raise KeyError(feature)


def _first(preset: str, features: list[str], limit: int = 400, **options: Any) -> dict[str, Any]:
    from texas42_log.engine.presets import PRESETS

    rules = PRESETS[preset].with_options(**options)
    for seed in range(limit):
        doc = random_match(seed, rules=rules, preset=preset)
        if all(_has(doc, f) for f in features):
            doc["annotations"] = [
                {
                    "text": f"Generated: random_match({seed}) under {preset}"
                    + (f" with {options}" if options else "")
                    + f"; shows {', '.join(features)}."
                }
            ]
            return doc
    raise LookupError((preset, features, options))


def variant_scenarios() -> dict[str, dict[str, Any]]:
    return {
        "variant-casual-nello-plunge-splash.json": _first("casual", ["nello", "plunge", "splash"]),
        "variant-tricksy-sevens-nello-forced-bid.json": _first(
            "tricksy", ["sevens", "nello", "forced"]
        ),
        "variant-texas-42-all-seven-tricks.json": _first("texas-42", ["marks", "early-set"]),
        "variant-plunge-l-forced-bid-nello.json": _first("plunge-l", ["forced", "nello"]),
        "variant-options-84-notation-low-doubles-declared-leads.json": _first(
            "standard",
            ["marks", "no-trump", "led"],
            mark_bid_units="points",
            no_trump_doubles="low",
            declared_lead="always",
            all_tricks_stacks="fixed-2",
        ),
        "variant-options-own-suit-doubles-first-trick-lead.json": _first(
            "standard",
            ["doubles", "led", "marks"],
            doubles="own-suit",
            declared_lead="first-trick",
            mark_ladder="free",
            max_opening_mark_bid=3,
        ),
        "variant-options-dealer-bids-30.json": _first(
            "standard", ["forced"], all_pass="dealer-bids-30"
        ),
        "variant-options-250-points.json": _first(
            "standard", ["no-trump", "point-42"], match_goal="points", max_point_bid=42
        ),
    }


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, doc in scenarios().items():
        (OUT / name).write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", "utf-8")
        print(f"wrote {OUT / name}")


if __name__ == "__main__":
    main()
