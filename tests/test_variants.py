"""Rule variants: the option registry, presets, and each option as the engine applies it."""

from __future__ import annotations

import json
import typing
from pathlib import Path

import pytest

from texas42_log.engine.actions import Call
from texas42_log.engine.auction import Auction, BidKind, Contract, count_doubles
from texas42_log.engine.errors import IllegalAction
from texas42_log.engine.hand import PlayState
from texas42_log.engine.presets import PRESETS
from texas42_log.engine.rules import OPTIONS, STANDARD, Rules
from texas42_log.engine.tiles import Tile
from texas42_log.engine.trumps import DOUBLES_SUIT, Trump, sevens_winner_index, table_for
from texas42_log.files.validate import validate_bytes
from texas42_log.log.model import minimal_version
from texas42_log.play.game import Game
from texas42_log.play.generate import random_match

T = Tile.parse
ROOT = Path(__file__).resolve().parent.parent


# -- the registry ---------------------------------------------------------------


def test_presets_are_named_bundles_of_options() -> None:
    assert PRESETS["standard"] == STANDARD == Rules()
    assert {"standard", "tournament", "casual"} <= set(PRESETS)
    assert PRESETS["casual"].nello and PRESETS["casual"].plunge and PRESETS["casual"].splash
    assert PRESETS["tricksy"].max_point_bid == 42 and PRESETS["tricksy"].hand_end == "all-tricks"


def test_unknown_option_lists_the_known_ones() -> None:
    doc = random_match(3)
    doc["rules"]["options"]["nelo"] = True
    (d,) = validate_bytes(json.dumps(doc)).errors
    assert d.pointer == "/rules/options/nelo"
    assert d.message.startswith(
        "unknown rule option 'nelo'; the options are dealer_draw, all_pass, min_point_bid"
    )
    assert "nello" in d.message


def test_a_log_overrides_single_options_of_its_preset() -> None:
    doc = random_match(3, rules=PRESETS["casual"].with_options(nello_min_marks=2), preset="casual")
    assert doc["rules"] == {"preset": "casual", "options": {"nello_min_marks": 2}}
    result = validate_bytes(json.dumps(doc))
    assert result.valid and result.report is not None
    assert result.report.rules == PRESETS["casual"].with_options(nello_min_marks=2)
    assert result.report.overrides == {"nello_min_marks": 2}


def test_minimal_version() -> None:
    assert minimal_version(random_match(1)) == "1.0"
    assert minimal_version(random_match(1, rules=PRESETS["casual"], preset="casual")) == "1.1"


# -- the auction ------------------------------------------------------------------


def auction(
    rules: Rules, calls: list[tuple[str, BidKind, int | None]], dealer: str = "D"
) -> Auction:
    a = Auction(rules, dealer)  # type: ignore[arg-type]
    for seat, kind, bid in calls:
        a.call(seat, kind, bid)  # type: ignore[arg-type]
    return a


PASS3 = [("A", BidKind.PASS, None), ("B", BidKind.PASS, None), ("C", BidKind.PASS, None)]


@pytest.mark.parametrize(
    "all_pass,kind,bid,ok",
    [
        ("redeal", BidKind.PASS, None, True),
        ("dealer-must-bid", BidKind.PASS, None, False),
        ("dealer-must-bid", BidKind.POINTS, 35, True),
        ("dealer-must-bid", BidKind.MARKS, 1, True),
        ("dealer-bids-30", BidKind.POINTS, 30, True),
        ("dealer-bids-30", BidKind.POINTS, 31, False),
        ("dealer-bids-31", BidKind.POINTS, 31, True),
        ("dealer-bids-31", BidKind.PASS, None, False),
    ],
)
def test_all_pass_options(all_pass: str, kind: BidKind, bid: int | None, ok: bool) -> None:
    a = auction(Rules(all_pass=all_pass), PASS3)  # type: ignore[arg-type]
    if ok:
        a.call("D", kind, bid)
    else:
        with pytest.raises(IllegalAction) as e:
            a.call("D", kind, bid)
        assert e.value.rule == "variant:all_pass" and e.value.message.endswith("(variant:all_pass)")
        assert a.calls == PASS3  # R30: unchanged


def test_forced_dealer_only_when_three_passed() -> None:
    a = auction(Rules(all_pass="dealer-must-bid"), [("A", BidKind.POINTS, 30), *PASS3[1:]])
    a.call("D", BidKind.PASS)  # someone bid: the dealer may pass
    assert a.contract() == Contract("A", BidKind.POINTS, 30)


def test_free_mark_ladder_allows_jumps_up_to_the_maximum() -> None:
    free = Rules(mark_ladder="free", max_opening_mark_bid=7, max_mark_bid=7)
    a = auction(free, [("A", BidKind.MARKS, 2), ("B", BidKind.MARKS, 5)])
    with pytest.raises(IllegalAction, match="does not exceed"):
        a.call("C", BidKind.MARKS, 5)
    with pytest.raises(IllegalAction, match="highest mark bid is 7"):
        a.call("C", BidKind.MARKS, 8)
    with pytest.raises(IllegalAction, match="must be 3"):
        auction(STANDARD, [("A", BidKind.MARKS, 2)]).call("B", BidKind.MARKS, 5)


def dealt(hands: dict[str, list[str]]) -> dict[str, tuple[int, int]]:
    return count_doubles({s: [T(t) for t in ts] for s, ts in hands.items()})  # type: ignore[misc]


def test_a_plunge_jumps_freely_where_mark_bids_do() -> None:
    """docs/conversions.md tricksy: any size from the Plunge's least, above the high bid, up
    to 7."""
    rules = PRESETS["tricksy"]
    assert rules.mark_ladder == "free"
    four = ["[0|0]", "[1|1]", "[2|2]", "[3|3]", "[0|1]", "[0|2]", "[0|3]"]
    four_more = ["[4|4]", "[5|5]", "[6|6]", "[3|3]", "[1|2]", "[1|3]", "[1|4]"]
    a = Auction(rules, "D", dealt({"A": four, "B": four_more, "C": [], "D": []}))
    with pytest.raises(IllegalAction, match="4 to 7 marks"):
        a.call("A", BidKind.MARKS, 3, "plunge")
    with pytest.raises(IllegalAction, match="4 to 7 marks"):
        a.call("A", BidKind.MARKS, 8, "plunge")
    a.call("A", BidKind.MARKS, 6, "plunge")  # a jump past 4, which the exact ladder forbids
    with pytest.raises(IllegalAction, match="above the high bid"):
        a.call("B", BidKind.MARKS, 6, "plunge")
    a.call("B", BidKind.MARKS, 7, "plunge")
    # under the exact ladder the same 6 is refused: a Plunge is 4, or one more than the high bid
    exact = Auction(PRESETS["casual"], "D", dealt({"A": four, "B": [], "C": [], "D": []}))
    with pytest.raises(IllegalAction, match="Plunge is 4 marks"):
        exact.call("A", BidKind.MARKS, 6, "plunge")


def test_plunge_needs_four_doubles_and_is_four_marks_or_one_more() -> None:
    rules = PRESETS["casual"]
    four = ["[0|0]", "[1|1]", "[2|2]", "[3|3]", "[0|1]", "[0|2]", "[0|3]"]
    three = ["[4|4]", "[5|5]", "[6|6]", "[1|2]", "[1|3]", "[1|4]", "[1|5]"]
    doubles = dealt({"A": four, "B": three, "C": [], "D": []})
    a = Auction(rules, "D", doubles)
    with pytest.raises(IllegalAction, match="Plunge is 4 marks"):
        a.call("A", BidKind.MARKS, 3, "plunge")
    a.call("A", BidKind.MARKS, 4, "plunge")  # a jump over nothing
    with pytest.raises(IllegalAction, match="holding 3 doubles; a Plunge needs at least 4"):
        a.call("B", BidKind.MARKS, 5, "plunge")
    a.call("B", BidKind.PASS)
    a.call("C", BidKind.PASS)
    a.call("D", BidKind.PASS)
    contract = a.contract()
    assert contract is not None and contract.special == "plunge" and contract.declarer == "C"
    # Unknown tiles: the requirement cannot be disproved, so the bid stands.
    b = Auction(rules, "D", {"A": (2, 2), "B": (0, 7), "C": (0, 7), "D": (0, 7)})
    b.call("A", BidKind.MARKS, 4, "plunge")


def test_plunge_over_a_mark_bid_is_one_more() -> None:
    a = Auction(PRESETS["casual"], "D")
    a.call("A", BidKind.MARKS, 2)
    a.call("B", BidKind.MARKS, 3)
    with pytest.raises(IllegalAction, match=r"\(4 here\)"):
        a.call("C", BidKind.MARKS, 5, "plunge")
    a.call("C", BidKind.MARKS, 4, "plunge")


def test_splash_sizes_and_rules_without_it() -> None:
    a = Auction(PRESETS["casual"], "D")
    a.call("A", BidKind.MARKS, 2)
    with pytest.raises(IllegalAction, match="Splash is 2 marks above a lower bid"):
        a.call("B", BidKind.MARKS, 2, "splash")  # not above the high bid
    a.call("B", BidKind.MARKS, 3, "splash")  # 3 directly over 2
    with pytest.raises(IllegalAction, match="no Splash: splash is false"):
        Auction(STANDARD, "D").call("A", BidKind.MARKS, 2, "splash")


@pytest.mark.parametrize("preset", ["casual", "plunge-c"])
@pytest.mark.parametrize(
    "before, legal",
    [
        ([], [2]),  # opening: 2 only, never 3
        ([(BidKind.POINTS, 30)], [2]),  # over points: 2 only
        ([(BidKind.MARKS, 1)], [2]),  # over 1 mark: 2 only
        ([(BidKind.MARKS, 2)], [3]),  # directly over 2 marks: 3
    ],
)
def test_a_3_mark_splash_only_directly_over_a_2_mark_bid(
    preset: str, before: list[tuple[BidKind, int]], legal: list[int]
) -> None:
    """The plunge app's Splash (docs/conversions.md plunge): 2 marks if it beats the high bid,
    3 only directly over a 2-mark bid; its own decoder refuses any other."""

    def legal_splashes(doubles: dict[str, tuple[int, int]]) -> list[int]:
        a = Auction(PRESETS[preset], "D", doubles)  # type: ignore[arg-type]
        for seat, (kind, bid) in zip("AB", before, strict=False):
            a.call(seat, kind, bid)  # type: ignore[arg-type]
        return [b for k, b, sp in a.legal_calls() if sp == "splash"]

    doubles = {s: (3, 0) for s in "ABCD"}
    assert legal_splashes(doubles) == legal


def test_tricksy_splash_jumps_freely() -> None:
    rules = PRESETS["tricksy"].with_options(splash=True, splash_max_marks=7)
    a = Auction(rules, "D", {s: (3, 0) for s in "ABCD"})  # type: ignore[arg-type]
    a.call("A", BidKind.POINTS, 30)
    assert [b for k, b, sp in a.legal_calls() if sp == "splash"] == [2, 3, 4, 5, 6, 7]


def test_legal_calls_come_from_the_checks() -> None:
    a = auction(Rules(all_pass="dealer-bids-30"), PASS3)
    assert a.legal_calls() == [(BidKind.POINTS, 30, None)]
    b = Auction(STANDARD, "D")
    calls = b.legal_calls()
    assert (BidKind.PASS, None, None) in calls and (BidKind.MARKS, 3, None) not in calls
    assert len([c for c in calls if c[0] is BidKind.POINTS]) == 12


# -- suits ------------------------------------------------------------------------


def test_no_trump_doubles_high_low_or_own_suit() -> None:
    high, low, own = (table_for(Trump.NO_TRUMP, m) for m in ("high", "low", "own-suit"))
    assert high[T("[4|4]")].rank_in[4] > high[T("[4|6]")].rank_in[4]
    assert low[T("[4|4]")].rank_in[4] < low[T("[0|4]")].rank_in[4]
    assert own[T("[4|4]")].leads == DOUBLES_SUIT and own[T("[4|4]")].follows == {DOUBLES_SUIT}
    assert own[T("[6|6]")].rank_in[DOUBLES_SUIT] > own[T("[0|0]")].rank_in[DOUBLES_SUIT]
    assert 4 not in own[T("[4|4]")].follows


def test_own_suit_doubles_are_not_trumps_of_their_number() -> None:
    table = table_for(Trump.SIXES, "own-suit")
    assert not table[T("[6|6]")].trump and table[T("[6|6]")].leads == DOUBLES_SUIT
    assert table[T("[5|6]")].trump
    assert table_for(Trump.DOUBLES, "own-suit")[
        T("[6|6]")
    ].trump  # doubles trump: the doubles suit is trumps


def test_sevens_closest_to_seven_ties_to_the_earliest() -> None:
    assert sevens_winner_index([T("[5|5]"), T("[0|4]"), T("[1|6]"), T("[3|4]")]) == 2
    assert (
        sevens_winner_index([T("[2|4]"), T("[4|4]"), T("[0|6]")]) == 0
    )  # 6 and 8 tie at 1 away; 6 first


# -- play -------------------------------------------------------------------------


NELLO_DEAL = {
    "A": ["[0|1]", "[0|2]", "[0|3]", "[0|4]", "[0|5]", "[0|6]", "[5|6]"],
    "B": ["[1|1]", "[1|3]", "[1|4]", "[1|5]", "[1|6]", "[2|2]", "[2|3]"],
    "C": ["[0|0]", "[4|4]", "[4|5]", "[4|6]", "[5|5]", "[1|2]", "[6|6]"],
    "D": ["[3|3]", "[2|4]", "[2|5]", "[2|6]", "[3|4]", "[3|5]", "[3|6]"],
}


def nello_state(rules: Rules, nello_doubles: str | None = None) -> PlayState:
    deal = {s: {T(x) for x in ts} for s, ts in NELLO_DEAL.items()}
    contract = Contract("A", BidKind.MARKS, 2).declare("nello")
    return PlayState(rules, contract, Trump.SIXES, deal, nello_doubles=nello_doubles)  # type: ignore[arg-type]


def test_nello_partner_sits_out_tricks_of_three_set_at_the_bidders_first_trick() -> None:
    s = nello_state(PRESETS["casual"])  # doubles a suit of their own
    assert s.seats == ("A", "B", "D") and s.trump is Trump.NO_TRUMP
    s.play("A", T("[0|1]"))
    assert s.to_play == "B"
    # [1|1] is a double, in its own suit: it does not follow ones.
    assert s.followers("B") == [T("[1|3]"), T("[1|4]"), T("[1|5]"), T("[1|6]")]
    s.play("B", T("[1|3]"))
    assert s.to_play == "D"  # C, the bidder's partner, sits out
    with pytest.raises(IllegalAction) as e:
        s.play("C", T("[1|2]"))
    assert e.value.rule == "variant:nello" and "sits out" in e.value.message
    done = s.play("D", T("[3|3]"))  # no ones: any tile
    assert done is not None and len(done.plays) == 3 and done.winner == "B"
    assert s.result is None and s.current.leader == "B"
    s.play("B", T("[1|6]"))
    s.play("D", T("[2|6]"))
    with pytest.raises(IllegalAction) as renege:
        s.play("A", T("[0|2]"))  # A holds sixes
    assert renege.value.rule == "R16"
    s.play("A", T("[5|6]"))  # the highest six: the bidder takes a trick
    assert s.result is not None and s.result.outcome.value == "set" and s.finished
    assert s.result.marks == {"A+C": 0, "B+D": 2} and s.result.tricks_played == 2


@pytest.mark.parametrize("mode,follows", [("own-suit", False), ("high", True), ("low", True)])
def test_nello_doubles_where_the_bidder_chose(mode: str, follows: bool) -> None:
    s = nello_state(PRESETS["tricksy"], nello_doubles=mode)
    assert s.doubles == mode
    s.play("A", T("[0|1]"))
    assert (T("[1|1]") in s.followers("B")) is follows


def test_nello_is_made_after_seven_tricks_without_one() -> None:
    rules = PRESETS["casual"]
    deal = {s: {T(x) for x in ts} for s, ts in NELLO_DEAL.items()}
    contract = Contract("A", BidKind.MARKS, 2).declare("nello")
    s = PlayState(rules, contract, Trump.NO_TRUMP, deal)
    # B and D always win: A plays its lowest legal tile; the others their highest.
    import random

    rng = random.Random(0)
    while not s.over:
        seat = s.to_play
        assert seat is not None
        legal = s.legal_tiles(seat)
        s.play(seat, legal[0] if seat == "A" else rng.choice(legal))
    assert s.result is not None
    won_by_a = [t.number for t in s.tricks if t.winner == "A"]
    assert (s.result.outcome.value == "made") == (not won_by_a)
    if s.result.outcome.value == "made":
        assert len(s.tricks) == 7 and s.result.marks == {"A+C": 2, "B+D": 0}


def test_all_seven_tricks_are_played_and_the_decision_stands() -> None:
    doc = random_match(8, rules=PRESETS["texas-42"], preset="texas-42")
    for hand in doc["hands"]:
        if "plays" in hand:
            assert len(hand["plays"]) == 28
            outcome = hand["outcome"]
            assert sum(outcome["points"].values()) == 42
    assert validate_bytes(json.dumps(doc)).valid


def test_declared_lead_makes_the_lower_number_the_suit() -> None:
    rules = Rules(declared_lead="always")
    deal = {"A": {T("[2|5]")}, "B": {T("[2|3]"), T("[5|6]")}, "C": set(), "D": set()}
    s = PlayState(
        rules, Contract("A", BidKind.POINTS, 30), Trump.ONES, deal, {"A": 6, "B": 5, "C": 7, "D": 7}
    )  # type: ignore[arg-type]
    s.play("A", T("[2|5]"), led=2)
    assert s.current.led == 2
    assert s.followers("B") == [T("[2|3]")]
    with pytest.raises(IllegalAction, match="reneges"):
        s.play("B", T("[5|6]"))
    with pytest.raises(IllegalAction, match="only the leader declares"):
        s.play("B", T("[2|3]"), led=3)
    s2 = PlayState(
        STANDARD,
        Contract("A", BidKind.POINTS, 30),
        Trump.ONES,
        deal,
        {"A": 6, "B": 5, "C": 7, "D": 7},
    )  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="declared_lead is never"):
        s2.play("A", T("[2|5]"), led=2)


# -- checking a log ----------------------------------------------------------------


def first_hand_with(doc: dict[str, typing.Any], call: str) -> int:
    return next(
        i
        for i, h in enumerate(doc["hands"])
        if any(c["call"] == call for c in h["auction"]) and "declaration" in h
    )


def errors(doc: dict[str, typing.Any]) -> list[tuple[str, str]]:
    return [(d.rule, d.pointer) for d in validate_bytes(json.dumps(doc)).errors]


def test_no_trump_and_doubles_trump_can_be_switched_off() -> None:
    doc = random_match(21)
    i = next(
        i
        for i, h in enumerate(doc["hands"])
        if (h.get("declaration") or {}).get("trump") == "no-trump"
    )
    doc["rules"] = {"preset": "standard", "options": {"no_trump": False}}
    assert errors(doc)[0] == ("R12", f"/hands/{i}/declaration/trump")
    doc = random_match(21)
    j = next(
        i
        for i, h in enumerate(doc["hands"])
        if (h.get("declaration") or {}).get("trump") == "doubles"
    )
    doc["rules"] = {"preset": "standard", "options": {"doubles_trump": False}}
    assert errors(doc)[0] == ("R12", f"/hands/{j}/declaration/trump")


def test_plain_mark_bids_can_be_switched_off() -> None:
    doc = random_match(21)
    i = first_hand_with(doc, "marks")
    k = next(k for k, c in enumerate(doc["hands"][i]["auction"]) if c["call"] == "marks")
    # With Nel-O played, the mark bid stands and its plain declaration is refused;
    doc["rules"] = {"preset": "standard", "options": {"plain_mark_bids": False, "nello": True}}
    assert errors(doc)[0] == ("variant:plain_mark_bids", f"/hands/{i}/declaration")
    # with no special contract to declare after it, the mark bid itself is (no dead end).
    doc["rules"] = {"preset": "standard", "options": {"plain_mark_bids": False}}
    assert errors(doc)[0] == ("variant:plain_mark_bids", f"/hands/{i}/auction/{k}")
    game = Game(Rules(plain_mark_bids=False), seed=4)
    assert not [a for a in game.legal_actions() if isinstance(a, Call) and a.kind is BidKind.MARKS]


def test_250_points_scores_the_hand_points_taken() -> None:
    doc = random_match(30, rules=Rules(match_goal="points"))
    last = doc["hands"][-1]["outcome"]["score"]
    assert max(last.values()) >= 250
    total = {"A+C": 0, "B+D": 0}
    for h in doc["hands"]:
        for team in total:
            total[team] += h["outcome"].get("points", {}).get(team, 0)
    assert total == last
    assert validate_bytes(json.dumps(doc)).valid


def test_views_follow_the_variants() -> None:
    from texas42_log.log.model import Match
    from texas42_log.views.text import describe
    from texas42_log.views.visibility import Moment, view_for

    doc = json.loads(
        open(
            ROOT / "fixtures/valid/variant-plunge-l-forced-bid-nello.json", encoding="utf-8"
        ).read()
    )
    m = Match.model_validate(doc)
    i = next(
        i
        for i, h in enumerate(doc["hands"])
        if (h.get("declaration") or {}).get("contract") == "nello"
    )
    v = view_for(m, "public", i, Moment.after_play(3))
    assert (
        v.sits_out == "B" and v.counts["B"] == 7 and v.trick is not None and len(v.trick.plays) == 3
    )
    assert v.contract is not None and v.contract.special == "nello" and v.contract.trump is None
    assert describe(v).startswith(
        "Contract: Nel-O · mark value: 2; No trump; All won tricks visible."
    )
    assert describe(v, "tr").startswith("Kontrat: Nel-O · karşılaşma işareti bedeli: 2; Kozsuz;")


def test_views_score_in_points_when_the_goal_is_points() -> None:
    from texas42_log.log.model import Match
    from texas42_log.views.text import view_lines
    from texas42_log.views.visibility import match_views

    doc = json.loads(
        open(ROOT / "fixtures/valid/variant-options-250-points.json", encoding="utf-8").read()
    )
    hands = match_views(Match.model_validate(doc), "public")
    assert hands[-1][-1].marks == doc["hands"][-1]["outcome"]["score"]
    assert any(line.startswith("Match points: ") for line in view_lines(hands[-1][-1]))


def test_the_format_reference_documents_every_option_and_preset() -> None:
    text = open(ROOT / "docs/format.md", encoding="utf-8").read()
    for name in OPTIONS:
        assert f"| `{name}` | `{json.dumps(getattr(STANDARD, name))}` |" in text, name
    for name in PRESETS:
        assert f"| `{name}` |" in text, name


def _fixture(name: str) -> typing.Any:
    from texas42_log.log.model import Match

    doc = json.loads((ROOT / "fixtures" / "valid" / name).read_text("utf-8"))
    return doc, Match.model_validate(doc)


def test_views_show_fixed_stacks() -> None:
    from texas42_log.views.visibility import Moment, view_for

    doc, m = _fixture("variant-options-84-notation-low-doubles-declared-leads.json")
    i = first_hand_with(doc, "marks")
    assert len(doc["hands"][i]["plays"]) >= 12 and "stacks" not in doc["hands"][i]["declaration"]
    v = view_for(m, "public", i, Moment.after_play(12))
    assert v.contract is not None and v.contract.visibility == "last-2"
    assert [w.number for w in v.won if w.faces is not None] == [2, 3]
    assert [w.number for w in v.won if w.faces is None] == [1]


def test_views_show_the_partner_who_declares_after_a_plunge() -> None:
    from texas42_log.views.text import view_lines
    from texas42_log.views.visibility import Moment, view_for

    doc, m = _fixture("variant-casual-nello-plunge-splash.json")
    i = next(
        i
        for i, h in enumerate(doc["hands"])
        if any(c.get("special") == "plunge" for c in h["auction"])
    )
    v = view_for(m, "public", i, Moment.after_play(0))
    assert v.contract is not None and v.contract.special == "plunge"
    assert v.contract.declarer == doc["hands"][i]["declaration"]["seat"] != v.contract.bidder
    assert v.to_play == v.contract.declarer
    assert f"Declares and leads: {v.contract.declarer}." in view_lines(v)
    assert "Plunge · mark value: 4" in view_lines(v)[1]
