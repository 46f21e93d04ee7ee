"""A call worth the contract its auction ends in (texas42_log.analysis.continuation, format
1.11), recounted another way: in each world the caller could not tell apart, a live
``Game`` is dealt that world, the calls heard are pushed, then the call, and four ``rule``
bots (texas42_log.bots.rule, through their own views) call the rest and declare; the
contract is solved by the reference solver. The weights are recounted the same way: the
rule bot's call at each heard call's moment against the call heard.

And the issue's questions of the worked example and of a match of rule bots: no pass made
while a bid stands is worth nothing; the passes behind a partner's bid are not ``??``
unless their line shows the partner's contract valued; ``Game.hint`` does not overbid a
partner whose contract is worth more.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from texas42_log import Game
from texas42_log.analysis.api import fair_analysis, open_hand_analysis
from texas42_log.analysis.auction_fair import AuctionHint, CallNote, plan_auction
from texas42_log.analysis.bidding import Bid, row_of, seat_worlds
from texas42_log.analysis.calibration import as_played, kind_of
from texas42_log.analysis.continuation import FLOOR_SHARE, SCALE, SOFT
from texas42_log.analysis.report import hand_text
from texas42_log.bots.base import situation
from texas42_log.bots.rule import RuleBot
from texas42_log.engine.actions import Call, Deal, Declare
from texas42_log.engine.auction import BidKind
from texas42_log.engine.hand import PlayState
from texas42_log.engine.seats import SEATS, Seat, partner
from texas42_log.engine.solver import Solver
from texas42_log.engine.tiles import Tile
from texas42_log.files.validate import read_match
from texas42_log.log.model import Match
from texas42_log.play.generate import random_match

ROOT = Path(__file__).resolve().parent.parent
WORKED = ROOT / "fixtures" / "valid" / "seed-worked-example.json"
WORLDS = 6


def _size(kind: BidKind, bid: int | None, least: int) -> int:
    if kind is BidKind.PASS or bid is None:
        return least - 2
    return bid * 42 if kind is BidKind.MARKS else bid


def _dealt(match: Match, h: int, world: dict[Seat, frozenset[Tile]]) -> Game:
    hand = match.hands[h]
    g = Game(match.rules.preset if match.rules.preset else "standard", first_dealer=hand.dealer)
    g.push(Deal.of({s: sorted(world[s]) for s in SEATS}))
    return g


def _recount(match: Match, h: int, n: CallNote) -> dict[str, float]:
    """Each checked call's worth, and the world weights, recounted at a live table."""
    plan = plan_auction(match, h)
    c = next(p for p in plan.calls if p.index == n.index)
    sw = seat_worlds(plan.rules, n.seat, h, plan.tiles[n.seat], worlds=WORLDS, seed=42)
    least = plan.rules.min_point_bid
    weights = []
    for world in sw.worlds:
        g = _dealt(match, h, world)
        w = 1.0
        for seat, kind, bid, special in c.before:
            if seat != n.seat:
                rule = RuleBot().act(situation(g))
                assert isinstance(rule, Call)
                if (rule.kind, rule.bid, rule.special) != (kind, bid, special):
                    apart = abs(_size(kind, bid, least) - _size(rule.kind, rule.bid, least))
                    w *= max(SOFT, math.exp(-apart / SCALE))
            g.push(Call(kind, bid, special))
        weights.append(w)
    effective = sum(weights) ** 2 / sum(x * x for x in weights)
    if effective < max(2.0, FLOOR_SHARE * WORLDS):
        weights = [1.0] * WORLDS
    assert n.contract is not None
    checked = {n.contract.made.key, n.contract.best.key, "pass"}
    out: dict[str, float] = {}
    for option in n.contract.options:
        if option.key not in checked:
            continue
        groups: dict[tuple[object, ...], list[float]] = defaultdict(lambda: [0.0, 0.0])
        for world, w in zip(sw.worlds, weights, strict=True):
            g = _dealt(match, h, world)
            for _seat, kind, bid, special in c.before:
                g.push(Call(kind, bid, special))
            b = option.call
            g.push(Call(BidKind.PASS) if b is None else Call(b.kind, b.bid, b.special))
            while g.to_act is not None and g.to_act.kind == "call":
                g.push(RuleBot().act(situation(g)))
            contract = g.contract
            if contract is None or g.to_act is None or g.to_act.kind != "declare":
                groups[("none",)][0] += w
                continue
            if contract.bidder == n.seat:
                row = n.table.best_row(Bid.of(contract))
                assert row is not None and row.trump is not None
                declared = Declare(trump=row.trump)
            else:
                got = RuleBot().act(situation(g))
                assert isinstance(got, Declare) and got.trump is not None
                declared = got
            assert declared.trump is not None
            state = PlayState(
                plan.rules, contract, declared.trump, {s: set(world[s]) for s in SEATS}
            )
            points = Solver(state).value(state)
            need = 42 if contract.kind is BidKind.MARKS else contract.bid
            key: tuple[object, ...] = (contract.bidder, contract.kind, contract.bid, declared.trump)
            groups[key][0] += w
            groups[key][1] += w if points >= need else 0.0
        total = sum(weights)
        worth = 0.0
        for key, (weight, hits) in groups.items():
            if key == ("none",):
                continue
            by, stake = key[0], 1 if key[1] is BidKind.POINTS else int(str(key[2]))
            side = 1 if by in (n.seat, partner(n.seat)) else -1
            kind = kind_of(Bid(key[1], key[2]), row_of(key[3], None, None))  # type: ignore[arg-type]
            share, made = round(weight / total, 4), round(as_played(hits / weight, kind), 4)
            worth += share * side * stake * (2 * made - 1)
        out[option.key] = round(worth, 4)
    return out


@pytest.mark.slow
def test_each_call_is_worth_what_a_table_of_rule_bots_recounts() -> None:
    match = Match.model_validate(random_match(5200, max_hands=3))
    checked = 0
    for h in range(len(match.hands)):
        fair = fair_analysis(match, h, worlds=WORLDS, seed=42)
        if fair.auction is None:
            continue
        for n in fair.auction.calls:
            assert n.contract is not None
            recount = _recount(match, h, n)
            for option in n.contract.options:
                if option.key in recount:
                    assert option.expected == pytest.approx(recount[option.key], abs=2e-4), (
                        h,
                        n.seat,
                        option.key,
                    )
                    checked += 1
    assert checked >= 8


def _rule_match(seed: int) -> Match:
    """Match 0 of ``texas42 generate -s SEED --players rule``: four rule bots."""
    from texas42_log.bots.arena import bot_match
    from texas42_log.corpus.arena import resolve

    return Match.model_validate(bot_match(resolve("rule"), "rule", seed * 1_000_000))


def _worked_hand(h: int) -> tuple[Match, list[CallNote]]:
    match = read_match(WORKED.read_bytes())
    fair = fair_analysis(match, h, worlds=40)
    assert fair.auction is not None
    return match, fair.auction.calls


def test_no_pass_behind_a_standing_bid_is_worth_nothing_and_a_partners_contract_is_valued() -> None:
    """Hand 7 of the worked example: C opens 34; A (C's partner) passes. The pass is worth
    C's contract — the line names it — and is not ``??``."""
    match, calls = _worked_hand(6)
    by_seat = {n.seat: n for n in calls}
    for n in calls:
        assert n.contract is not None
        standing = any(c.call is not None for c in calls if c.index < n.index)
        if n.call is None and standing:
            assert n.contract.made.expected != 0.0
            assert all(e.by is not None for e in n.contract.made.ends)
    a = by_seat["A"]
    assert a.contract is not None and a.mark != "??"
    assert all(e.by == "C" for e in a.contract.made.ends)  # partner's contract, every world
    fair = fair_analysis(match, 6, worlds=40)
    (opened,) = open_hand_analysis(match, 6, table=False)
    line = next(x for x in hand_text(opened, False, fair) if x.startswith("    A pass"))
    assert "ends in C's 34 in" in line, line


def test_the_hint_does_not_overbid_a_partner_whose_contract_is_worth_more() -> None:
    """At each pass made behind a partner's standing bid in the worked example and a match
    of rule bots, the hint's call is the one of the highest worth, and when the partner's
    contract (a pass) is worth at least any bid, the hint passes."""
    seen = 0
    for path_or_seed in (WORKED, 3):
        if isinstance(path_or_seed, Path):
            match = read_match(path_or_seed.read_bytes())
        else:
            match = _rule_match(path_or_seed)
        for h in range(min(len(match.hands), 8)):
            hand = match.hands[h]
            g = Game(
                match.rules.preset if match.rules.preset else "standard",
                first_dealer=hand.dealer,
            )
            assert hand.deal is not None
            g.push(Deal.of({s: list(getattr(hand.deal, s)) for s in SEATS}))
            high = None
            for c in hand.auction:
                if c.rejected:
                    continue
                if c.call == "pass" and high == partner(c.seat):
                    hint = g.hint(worlds=20)
                    assert isinstance(hint, AuctionHint) and hint.worth is not None
                    best = hint.worth.best
                    assert str(hint.suggestion).startswith(best.key.split(" ")[0]) or (
                        best.call is None and hint.suggestion.kind is BidKind.PASS  # type: ignore[union-attr]
                    )
                    passing = next(o for o in hint.worth.options if o.call is None)
                    if all(passing.expected >= o.expected for o in hint.worth.options):
                        assert hint.suggestion.kind is BidKind.PASS  # type: ignore[union-attr]
                    seen += 1
                bid = getattr(c, "bid", None)
                g.push(Call(BidKind(c.call), bid, getattr(c, "special", None)))
                if c.call != "pass":
                    high = c.seat
    assert seen >= 3


def test_a_log_annotated_under_1_10_stays_valid_and_is_checked_by_its_own_rule(
    tmp_path: Path,
) -> None:
    """tests/data/fair-1.10.json: hand 7 of the worked example, analysed and annotated by the
    tool before format 1.11 (12 worlds). It validates and verifies as it is, its calls are
    checked by 1.10's rule (a tampered ``marks_lost`` is caught), and a seat's view shows
    its call as 1.10 judged it."""
    import json

    from texas42_log.views.text import view_lines
    from texas42_log.views.visibility import Moment, view_for

    from .helpers import run_texas42

    old = ROOT / "tests" / "data" / "fair-1.10.json"
    doc = json.loads(old.read_text("utf-8"))
    assert doc["version"] == "1.10"
    assert run_texas42("validate", str(old)).returncode == 0
    verify = run_texas42("analyze", str(old), "--verify")
    assert verify.returncode == 0 and "all equal" in verify.stdout, verify.stdout
    calls = doc["hands"][6]["auction"]
    k = next(i for i, c in enumerate(calls) if "marks_lost" in c["analysis"]["fair"])
    calls[k]["analysis"]["fair"]["marks_lost"] += 0.5
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), "utf-8")
    r = run_texas42("validate", str(bad))
    assert r.returncode == 1 and f"/hands/6/auction/{k}/analysis/fair/marks_lost" in r.stdout
    match = read_match(old.read_bytes())
    seat = calls[2]["seat"]
    lines = "\n".join(view_lines(view_for(match, seat, 6, Moment.after_call(3)), "en"))
    assert "As if the auction ended with it unless outbid" in lines, lines


def test_a_log_annotated_under_1_11_states_open_hand_chances_and_is_checked_by_them(
    tmp_path: Path,
) -> None:
    """tests/data/fair-1.11.json: hand 7 of the worked example, analysed and annotated by the
    tool before format 1.12 (12 worlds): its tables hold open-hand shares, judged by the
    single curve. It validates and verifies as it is; a worth that does not follow from its
    contracts by the single curve is caught; annotated again it states chances as played
    (1.12), each its open-hand share through its kind's curve."""
    import json

    from texas42_log.analysis.bidding import parse_row
    from texas42_log.analysis.calibration import as_played, kind_of

    from .helpers import run_texas42

    old = ROOT / "tests" / "data" / "fair-1.11.json"
    doc = json.loads(old.read_text("utf-8"))
    assert doc["version"] == "1.11" and "chances" not in doc["hands"][6]["analysis"]["fair"]
    assert run_texas42("validate", str(old)).returncode == 0
    verify = run_texas42("analyze", str(old), "--verify")
    assert verify.returncode == 0 and "all equal" in verify.stdout, verify.stdout
    calls = doc["hands"][6]["auction"]
    c = calls[0]["analysis"]["fair"]["contract"]
    c["worth"] = round(c["worth"] + 0.25, 4)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), "utf-8")
    r = run_texas42("validate", str(bad))
    assert r.returncode == 1 and "/hands/6/auction/0/analysis/fair/contract/worth" in r.stdout
    new = tmp_path / "new.json"
    again = run_texas42(
        "analyze", str(old), "--fair", "--worlds", "12", "--hand", "7", "--annotate", "-o", str(new)
    )
    assert again.returncode == 0, again.stderr
    now = json.loads(new.read_text("utf-8"))
    assert now["version"] == "1.12" and now["hands"][6]["analysis"]["fair"]["chances"] == "kind"
    was_fair = json.loads(old.read_text("utf-8"))["hands"][6]["auction"]
    for k, call in enumerate(now["hands"][6]["auction"]):
        fair = call["analysis"]["fair"]
        assert fair["open_table"] == was_fair[k]["analysis"]["fair"]["table"]
        for bid, cells in fair["open_table"].items():
            for row, share in cells.items():
                kind = kind_of(Bid.parse(bid), parse_row(row))
                assert fair["table"][bid][row] == pytest.approx(as_played(share, kind), abs=5e-4)


_CALL = re.compile(r"^    (?P<seat>[ABCD]) (?P<call>.{14})(?P<mark>\?\?|\? |   )(?P<rest>.*)$")


def test_text_json_csv_and_the_board_say_each_call_the_same_way(tmp_path: Path) -> None:
    """Hands 1, 3 and 7 of the worked example, analysed by the command line: each call's
    line holds for its numbers (the call that pays best and its trump, the worth given up,
    the mark, the likeliest contract), *could go to* names its trump, and the text, the
    JSON report, the CSV rows and the board's data (the seat's view of the annotated log)
    say the same of every call."""
    import csv
    import io
    import json

    from texas42_log.views.visibility import hand_views

    from .helpers import run_texas42

    lines: list[re.Match[str]] = []
    calls: list[tuple[dict[str, Any], dict[str, Any]]] = []
    auction_rows: list[dict[str, str]] = []
    for number in (1, 3, 7):
        common = ["analyze", str(WORKED), "--fair", "--worlds", "10", "--hand", str(number)]
        text = run_texas42(*common, "--no-legend").stdout
        js = json.loads(run_texas42(*common, "--format", "json").stdout.splitlines()[0])
        rows = csv.DictReader(io.StringIO(run_texas42(*common, "--format", "csv").stdout))
        lines += [m for line in text.splitlines() if (m := _CALL.match(line))]
        calls += [(h, c) for h in js["hands"] for c in h["auction"]["calls"]]
        auction_rows += [r for r in rows if r["trick"] == "auction"]
    target = tmp_path / "annotated.json"
    for number in (1, 3, 7):
        source = target if target.exists() else WORKED
        out = tmp_path / f"annotated-{number}.json"
        ran = run_texas42(
            "analyze",
            str(source),
            "--fair",
            "--worlds",
            "10",
            "--hand",
            str(number),
            "--annotate",
            "-o",
            str(out),
        )
        assert ran.returncode == 0, ran.stderr
        out.replace(target)
    match = read_match(target.read_bytes())
    assert len(lines) == len(calls) == len(auction_rows) >= 12
    for line, (h, c), row in zip(lines, calls, auction_rows, strict=True):
        f = c["fair"]["contract"]
        rest = line["rest"]
        assert line["seat"] == c["seat"] == row["seat"]
        assert line["mark"].strip() == f.get("mark", "") == row["mark"]
        assert row["pays_best"] == f["best"] and float(row["marks_lost"]) == f["lost"]
        assert float(row["expected_marks"]) == f["worth"]
        if f["best"] == "pass":
            assert "pass pays best" in rest or "pays best: pass" in rest, rest
        else:
            trump = f["best_trump"]
            words = {"doubles": "doubles", "no-trump": "no-trump"}.get(trump, "")
            assert f"bid {f['best']} in " in rest or f"pays best: bid {f['best']} in " in rest
            assert words in rest
        if f["lost"] > 0:
            assert f"gave up {f['lost']:.2f} ± {f['lost_se']:.2f} expected marks" in rest
        first = f["ends"][0]
        if "by" in first:
            assert f"ends in {first['by']}'s {first['bid']} in " in rest, rest
        else:
            assert "ends in all pass" in rest
        went = re.search(r"could go to (\S+(?: marks?)?) in ([a-z-]+)", rest)
        s = c["fair"]["supported"]
        if went is not None:
            assert went[1] == s
        # the board: the caller's own view of the annotated log after its call
        hand = int(h["hand"]) - 1
        views = [v.as_dict() for v in hand_views(match, c["seat"], hand)]
        said = [
            x
            for v in views
            for x in (v.get("auction_fair") or {}).get("calls", [])
            if x["seat"] == c["seat"] and x["call"] == c["fair"].get("said", x["call"])
        ]
        assert said and said[-1]["contract"]["best"] == f["best"]
        assert said[-1]["contract"].get("mark") == f.get("mark")


@pytest.mark.slow
def test_over_the_worked_example_and_a_rule_bot_match_no_pass_behind_a_bid_is_worth_nothing() -> (
    None
):
    """Every pass made while a bid stood, over the worked example and match 0 of
    ``texas42 generate -s 3 --players rule`` (once all 39 were worth 0): each is worth the
    contract it leaves standing, and its line names that contract. The bot match's hand 13,
    D's pass behind partner B's 30 (made), is not ``??``."""
    from texas42_log.analysis.auction_fair import fair_auction

    standing = 0
    for match in (read_match(WORKED.read_bytes()), _rule_match(3)):
        for h in range(len(match.hands)):
            hand = match.hands[h]
            if hand.declaration is None:
                continue
            a = fair_auction(match, h, worlds=12)
            bid_seen = False
            for n in a.calls:
                assert n.contract is not None
                if n.call is None and bid_seen:
                    standing += 1
                    assert n.contract.made.expected != 0.0, (h, n.seat)
                    assert all(e.by is not None for e in n.contract.made.ends)
                bid_seen = bid_seen or n.call is not None
    assert standing >= 30
    d = next(n for n in fair_auction(_rule_match(3), 12, worlds=40).calls if n.seat == "D")
    assert d.call is None and d.mark != "??"
