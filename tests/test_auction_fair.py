"""The fair makeable table and the auction's verdicts (analysis/bidding.py, auction_fair.py).

* Independent: on the same drawn worlds every chance of the table equals the share of
  worlds in which a plain full-hand solve by the reference Python solver makes that bid
  in that row (special contracts included).
* The worlds are uniform: a chi-square test of homogeneity against a naive sampler.
* The re-deal test: re-dealing what the seat cannot see leaves its table, its hint and
  its views byte-identical.
* The verdicts: the log's numbers agree with the table, marks follow the thresholds, a
  stated verdict is checked by ``validate`` and redrawn by ``--verify``.
"""

from __future__ import annotations

import csv
import io
import json
import math
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from texas42_log import Game
from texas42_log.analysis.auction_fair import AuctionHint, fair_auction
from texas42_log.analysis.bidding import (
    Bid,
    draw_deals,
    legal_bids,
    parse_row,
    seat_worlds,
)
from texas42_log.analysis.calibration import as_played, kind_of
from texas42_log.analysis.contract_checks import top_row
from texas42_log.engine.auction import BidKind
from texas42_log.engine.hand import PlayState
from texas42_log.engine.rules import Rules
from texas42_log.engine.seats import SEATS, partner
from texas42_log.engine.solver import Solver
from texas42_log.engine.tiles import TILES, Tile
from texas42_log.engine.trumps import Trump
from texas42_log.engine.values import makeable
from texas42_log.files.validate import read_match
from texas42_log.log.versions import CALL_VERDICT_FIELDS, FORMAT_VERSION

from .helpers import run_texas42

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "fixtures" / "valid" / "annotations-extensions-rejected.json"


def _tiles(seed: int, doubles: int = 0) -> frozenset[Tile]:
    rng = random.Random(seed)
    pool = [t for t in TILES if not t.is_double]
    ds = [t for t in TILES if t.is_double]
    rng.shuffle(pool)
    rng.shuffle(ds)
    return frozenset(ds[:doubles] + pool[: 7 - doubles])


def _reference(state: PlayState) -> int:
    """The exact value by the reference solver, whatever solver serves."""
    return Solver(state).value(state)


@pytest.mark.slow
@pytest.mark.long
@pytest.mark.parametrize(
    ("rules", "doubles"),
    [
        (Rules(), 0),
        (Rules(nello=True, sevens=True, plunge=True, nello_doubles="bidder-chooses"), 4),
    ],
    ids=["standard", "nello-sevens-plunge"],
)
def test_every_chance_is_the_share_of_reference_solves(rules: Rules, doubles: int) -> None:
    seat = "A"
    tiles = _tiles(7 + doubles, doubles)
    sw = seat_worlds(rules, seat, 0, tiles, worlds=5, seed=3)
    bids = legal_bids(rules, "D", [], tiles)
    table = sw.table(bids)
    assert len(table.made) == len(bids) > 10
    checked = 0
    for bid in bids:
        for row in table.made[bid]:
            contract = bid.contract(seat)
            trump = Trump.NO_TRUMP
            if row.special is not None:
                contract = contract.declare(row.special)
            else:
                assert row.trump is not None
                trump = row.trump
            made = []
            for w in sw.worlds:
                state = PlayState(
                    rules,
                    contract,
                    trump,
                    {s: set(w[s]) for s in SEATS},
                    nello_doubles=row.doubles,
                )
                made.append(makeable(contract, _reference(state), total=42))
            share = sum(made) / len(made)
            assert table.open_chance(bid, row).share == share, (bid, row)
            assert table.chance(bid, row).share == as_played(share, kind_of(bid, row)), (bid, row)
            checked += 1
    assert checked > 100
    if doubles:
        assert any(b.special == "plunge" for b in bids)
        assert any(r.special == "nello" for rows in table.made.values() for r in rows)


def _where(world: dict[str, frozenset[Tile]], tiles: list[Tile]) -> tuple[str, ...]:
    return tuple(next(s for s in SEATS if t in world[s]) for t in tiles)


def test_the_worlds_are_uniform_against_a_naive_sampler() -> None:
    """Where three unseen tiles go (27 outcomes), 6,000 draws of ours against 6,000 of a
    naive sampler (random.sample of the 21 tiles, cut in three): a chi-square test of
    homogeneity at the 99.9th percentile. And a skewed sampler fails it."""
    seat = "B"
    tiles = _tiles(11)
    unseen = [t for t in TILES if t not in tiles]
    watched = unseen[:3]
    others = [s for s in SEATS if s != seat]

    def naive(rng: random.Random, skew: bool = False) -> dict[str, frozenset[Tile]]:
        order = rng.sample(unseen, len(unseen))
        if skew:  # the first watched tile to the first other seat a little more often
            if rng.random() < 0.15 and watched[0] in order[7:]:
                i = order.index(watched[0])
                order[0], order[i] = order[i], order[0]
        w = {seat: tiles}
        for k, s in enumerate(others):
            w[s] = frozenset(order[7 * k : 7 * k + 7])
        return w

    n = 6000
    ours = Counter(_where(w, watched) for w in draw_deals(seat, tiles, n, random.Random(1)))
    rng = random.Random(2)
    plain = Counter(_where(naive(rng), watched) for _ in range(n))
    rng = random.Random(3)
    skewed = Counter(_where(naive(rng, True), watched) for _ in range(n))

    def chi2(a: Counter[tuple[str, ...]], b: Counter[tuple[str, ...]]) -> tuple[float, float]:
        keys = sorted(set(a) | set(b))
        total = 0.0
        for k in keys:
            e = (a[k] + b[k]) / 2
            total += (a[k] - e) ** 2 / e + (b[k] - e) ** 2 / e
        df = len(keys) - 1
        return total, df * (1 - 2 / (9 * df) + 3.09 * math.sqrt(2 / (9 * df))) ** 3

    value, limit = chi2(ours, plain)
    assert value < limit, (value, limit)
    value, limit = chi2(skewed, plain)
    assert value > limit, (value, limit)


def _game_at_call(seed: int, calls: int) -> Game:
    g = Game(seed=seed)
    for _ in range(calls):
        legal = g.legal_actions()
        g.push(legal[0])  # passes
    return g


def _redealt(g: Game, seat: str, seed: int) -> Game:
    """The same game with the tiles ``seat`` cannot see dealt again among the others."""
    match = g.to_match()
    doc = json.loads(match.model_dump_json(by_alias=True, exclude_none=True))
    hand = doc["hands"][-1]
    others = [s for s in SEATS if s != seat]
    pool = [t for s in others for t in hand["deal"][s]]
    random.Random(seed).shuffle(pool)
    for k, s in enumerate(others):
        hand["deal"][s] = pool[7 * k : 7 * k + 7]
    return Game.from_match(read_match(json.dumps(doc).encode()))


def test_redealing_what_the_seat_cannot_see_changes_nothing_it_is_shown() -> None:
    for seed, calls in ((4, 0), (5, 2), (6, 3)):
        g = _game_at_call(seed, calls)
        turn = g.to_act
        assert turn is not None and turn.kind == "call"
        seat = turn.seat
        hint = g.hint(worlds=12)
        assert isinstance(hint, AuctionHint)
        view = json.dumps(g.view(seat).as_dict(), sort_keys=True)
        for k in range(3):
            other = _redealt(g, seat, 100 + k)
            h2 = other.hint(worlds=12)
            assert isinstance(h2, AuctionHint)
            assert json.dumps(h2.as_dict()) == json.dumps(hint.as_dict())
            assert json.dumps(other.view(seat).as_dict(), sort_keys=True) == view
            assert other.to_match().hands[-1].deal != g.to_match().hands[-1].deal


def test_the_hint_in_the_auction_and_at_the_declaration() -> None:
    g = Game(seed=3)
    seen = set()
    while g.to_act is not None and g.to_act.kind in ("call", "declare"):
        turn = g.to_act
        with pytest.raises(ValueError, match="a hint is for the seat to act"):
            g.hint(next(s for s in SEATS if s != turn.seat), worlds=4)
        h = g.hint(worlds=16)
        assert isinstance(h, AuctionHint) and h.kind == turn.kind
        assert h.suggestion in g.legal_actions()
        if h.chance is not None:
            assert 0 <= h.chance.share <= 1 and h.row is not None
        seen.add(turn.kind)
        g.push(h.suggestion)
    assert seen == {"call", "declare"}


def test_the_verdicts_agree_with_their_tables() -> None:
    match = read_match(FIXTURE.read_bytes())
    marked = 0
    for h, hand in enumerate(match.hands):
        if hand.declaration is None:
            continue
        a = fair_auction(match, h, worlds=20, seed=1)
        won = [n for n in a.calls if n.won]
        assert len(won) == 1
        n = won[0]
        assert n.call is not None and n.chance is not None and n.best is not None
        assert n.best[1].share >= n.chance.share
        assert n.best[1].share == max(n.table.chance(n.call, r).share for r in n.table.made[n.call])
        for c in a.calls:
            s = c.supported
            if s is not None:
                assert c.table.played(*s) >= 0.5
                assert c.table.chance(*s).share == as_played(
                    c.table.open_chance(*s).share, kind_of(*s)
                )
                higher = [b for b in c.table.bids if b.size > s[0].size]
                for b in higher:
                    row = c.table.best_row(b)
                    assert row is not None and c.table.played(b, row) < 0.5
        d = a.declaration
        assert d is not None
        assert d.best_chance.share >= d.chance.share
        if d.choice == d.best:
            assert d.mark is None and d.chance_lost == 0
        if d.mark is not None:
            marked += 1
            assert d.chance_lost >= (0.2 if d.mark == "??" else 0.05)
            assert d.chance_lost > 2 * d.loss_se
        if d.seat == n.seat and n.declared is not None:
            # one seat's worlds: its bid's chance with the trump it declared is its
            # declaration's chance
            assert n.chance == d.chance
    assert marked >= 1


def test_keys_parse_back() -> None:
    for b in (
        Bid(BidKind.POINTS, 30),
        Bid(BidKind.MARKS, 1),
        Bid(BidKind.MARKS, 2),
        Bid(BidKind.MARKS, 4, "plunge"),
    ):
        assert Bid.parse(b.key) == b
    for bad in ("29x", "1 marks", "plunge", "9" * 100, "\ud800"):
        with pytest.raises(ValueError):
            Bid.parse(bad)
    for key in ("5", "doubles", "no-trump", "nello", "nello low", "sevens"):
        assert parse_row(key).key == key
    with pytest.raises(ValueError):
        parse_row("fives")


def test_a_plunge_row_is_the_partner_declaring() -> None:
    rules = Rules(plunge=True)
    tiles = _tiles(9, 4)
    bids = legal_bids(rules, "D", [], tiles)
    plunge = [b for b in bids if b.special == "plunge"]
    assert plunge
    sw = seat_worlds(rules, "A", 0, tiles, worlds=4, seed=0)
    table = sw.table(plunge)
    row = next(iter(table.made[plunge[0]]))
    assert row.trump is not None
    made = []
    for w in sw.worlds:
        c = plunge[0].contract("A")
        state = PlayState(rules, c, row.trump, {s: set(w[s]) for s in SEATS})
        assert c.declarer == partner("A")
        made.append(makeable(c, _reference(state), total=42))
    assert table.open_chance(plunge[0], row).share == sum(made) / len(made)


def test_analyze_fair_reports_annotates_validates_and_verifies(tmp_path: Path) -> None:
    out = run_texas42(*["analyze", str(FIXTURE), "--fair", "--worlds", "12", "--hand", "1"])
    assert out.returncode == 0, out.stderr
    assert "  auction: each call from its caller's own tiles, 12 deals" in out.stdout
    assert "  declaration: A sixes" in out.stdout
    assert "auction pays best:" in out.stdout  # the legend
    assert "worth the contract its auction ends in" in out.stdout
    assert "pays best" in out.stdout and "the table alone would" not in out.stdout
    js = run_texas42(
        *["analyze", str(FIXTURE), "--fair", "--worlds", "12", "--hand", "1", "--format", "json"]
    )
    doc = json.loads(js.stdout.splitlines()[0])
    auction = doc["hands"][0]["auction"]
    assert [c["seat"] for c in auction["calls"]] == ["A", "B", "C", "D"]
    declared = auction["declaration"]["fair"]
    # the best row is the one of the best chance as played (ties: the first in row order);
    # the open-hand shares beside it say the same rows
    assert declared["best"] == top_row(declared["table"]) == "no-trump"
    assert set(declared["open_table"]) == set(declared["table"])
    csv = run_texas42(
        *["analyze", str(FIXTURE), "--fair", "--worlds", "12", "--hand", "1", "--format", "csv"]
    )
    lines = [line for line in csv.stdout.splitlines() if ",auction," in line]
    assert len(lines) == 4
    assert sum(1 for line in csv.stdout.splitlines() if ",declaration," in line) == 1
    target = tmp_path / "a.json"
    done = run_texas42(
        *["analyze", str(FIXTURE), "--fair", "--worlds", "12", "--hand", "1"],
        *["--annotate", "-o", str(target)],
    )
    assert done.returncode == 0, done.stderr
    written = json.loads(target.read_text("utf-8"))
    assert written["version"] == FORMAT_VERSION
    assert written["hands"][0]["analysis"]["fair"]["calls"] == "contract"
    assert written["hands"][0]["analysis"]["fair"]["chances"] == "kind"
    assert "analysis" in written["hands"][0]["auction"][0]
    stated = written["hands"][0]["auction"][0]["analysis"]["fair"]
    assert "contract" in stated and "pays_best" not in stated  # 1.11's fields, not 1.10's
    assert run_texas42(*["validate", str(target)]).returncode == 0
    verify = run_texas42(*["analyze", str(target), "--verify"])
    assert verify.returncode == 0 and "all equal" in verify.stdout, verify.stdout
    # a tampered verdict is refused, with its pointer
    written["hands"][0]["declaration"]["analysis"]["fair"]["chance_lost"] = 0.0
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(written), "utf-8")
    r = run_texas42(*["validate", str(bad)])
    assert r.returncode == 1
    assert "/hands/0/declaration/analysis/fair/chance_lost" in r.stdout + r.stderr
    # a call's stated verdict that does not follow from its table
    written = json.loads(target.read_text("utf-8"))
    call = written["hands"][0]["auction"][0]["analysis"]["fair"]
    call["contract"]["lost"] = call["contract"]["lost"] + 0.5
    bad.write_text(json.dumps(written), "utf-8")
    r = run_texas42(*["validate", str(bad)])
    assert r.returncode == 1 and "/hands/0/auction/0/analysis/fair/contract/" in r.stdout
    # its worth is what the contracts its auction ends in add up to
    for edit, pointer in (
        (lambda c: c.update(worth=round(c["worth"] + 0.25, 4)), "worth"),
        (lambda c: c["ends"][0].update(share=round(c["ends"][0]["share"] / 2, 4)), "ends"),
        (lambda c: c["ends"][0].update(made=round(1 - c["ends"][0]["made"], 4)), "worth"),
    ):
        written = json.loads(target.read_text("utf-8"))
        calls = written["hands"][0]["auction"]
        k = max(i for i, c in enumerate(calls) if "analysis" in c)  # the last call judged
        edit(calls[k]["analysis"]["fair"]["contract"])
        bad.write_text(json.dumps(written), "utf-8")
        r = run_texas42(*["validate", str(bad)])
        assert r.returncode == 1 and f"/auction/{k}/analysis/fair/contract/{pointer}" in r.stdout, (
            r.stdout
        )
    # an edited cell: --verify names it and both numbers
    written = json.loads(target.read_text("utf-8"))
    cells = written["hands"][0]["auction"][0]["analysis"]["fair"]["table"]["30"]
    row = min(sorted(cells), key=lambda r: cells[r])  # not the best row: validate sees nothing
    cells[row] = round(cells[row] / 2, 4) if cells[row] > 0 else 0.0123
    bad.write_text(json.dumps(written), "utf-8")
    r = run_texas42(*["analyze", str(bad), "--verify"])
    said = r.stdout + r.stderr
    assert f"table's cell 30/{row} is " in said and "drawn again" in said, said
    # the pointer names the cell, each key a token of its own (once table/30~1…)
    pointer = f"/hands/0/auction/0/analysis/fair/table/30/{row}"
    assert pointer in said, said
    node: Any = written
    for token in pointer.split("/")[1:]:
        node = node[int(token)] if isinstance(node, list) else node[token]
    assert node == cells[row]
    # and a log that says a version before 1.12 with 1.12's chances as played, before 1.8,
    # or before 1.11 with 1.11's fields (its chances as played taken out)
    for version in ("1.7", "1.10", "1.11"):
        written = json.loads(target.read_text("utf-8")) | {"version": version}
        bad.write_text(json.dumps(written), "utf-8")
        r = run_texas42(*["validate", str(bad)])
        assert r.returncode == 1 and "came in format 1.12" in r.stdout + r.stderr

    def without_played(version: str) -> dict[str, Any]:
        doc = json.loads(target.read_text("utf-8")) | {"version": version}
        hand = doc["hands"][0]
        hand["analysis"]["fair"].pop("chances")
        for step in [*hand["auction"], hand["declaration"]]:
            fair = step.get("analysis", {}).get("fair", {})
            fair.pop("open_table", None)
            for end in fair.get("contract", {}).get("ends", []):
                end.pop("made_open", None)
        return doc

    bad.write_text(json.dumps(without_played("1.7")), "utf-8")
    r = run_texas42(*["validate", str(bad)])
    assert r.returncode == 1 and "came in format 1.8" in r.stdout + r.stderr
    for version in ("1.9", "1.10"):
        bad.write_text(json.dumps(without_played(version)), "utf-8")
        r = run_texas42(*["validate", str(bad)])
        assert r.returncode == 1 and "came in format 1.11" in r.stdout + r.stderr
    # a log annotated by 1.8's rule (no verdict as players bid; open-hand tables, as the
    # tool wrote them before 1.12) stays valid and verifies
    was = ROOT / "tests" / "data" / "fair-1.11.json"
    old = json.loads(was.read_text("utf-8")) | {"version": "1.8"}
    old["hands"][6]["analysis"]["fair"].pop("calls")
    for c in old["hands"][6]["auction"]:
        for key in (*CALL_VERDICT_FIELDS, "contract"):
            c.get("analysis", {}).get("fair", {}).pop(key, None)
    bad.write_text(json.dumps(old), "utf-8")
    assert run_texas42(*["validate", str(bad)]).returncode == 0
    verify = run_texas42(*["analyze", str(bad), "--verify"])
    assert verify.returncode == 0 and "all equal" in verify.stdout, verify.stdout


def _declared_game(seed: int) -> Game:
    g = Game(seed=seed)
    while g.to_act is not None and g.to_act.kind in ("call", "declare"):
        h = g.hint(worlds=6)
        assert isinstance(h, AuctionHint)
        g.push(h.suggestion)
    return g


def test_an_annotated_auction_shows_each_seat_only_its_own_verdicts_whatever_the_others_hold() -> (
    None
):
    """The views (JSON and the HTML page) of a seat, of a log whose auction verdicts are
    written in, are byte-identical when the tiles it cannot see are dealt again (and the
    whole log analysed again); the public sees no verdict at all."""
    from texas42_log.analysis.api import annotate_match
    from texas42_log.files.assets import viewer_asset
    from texas42_log.views.html import render_html
    from texas42_log.views.visibility import hand_views

    for seed in (2, 8):
        g = _declared_game(seed)
        base = annotate_match(g.to_match(), fair=(10, 5)).match
        assert base.version == FORMAT_VERSION
        for seat in SEATS:
            pages = []
            for k in range(3):
                m = (
                    base
                    if k == 0
                    else annotate_match(
                        _redealt(g, seat, 7 * k + seed).to_match(), fair=(10, 5)
                    ).match
                )
                views = [v.as_dict() for v in hand_views(m, seat, 0)]
                assert any("auction_fair" in v for v in views)
                for v in views:
                    for c in v.get("auction_fair", {}).get("calls", []):
                        assert c["seat"] == seat
                pages.append(
                    (json.dumps(views, sort_keys=True), render_html(m, seat, assets=viewer_asset))
                )
            assert pages[1] == pages[0] and pages[2] == pages[0], seat
        # what the page holds of the match (its data; the viewer's own script names the keys)
        public = (
            render_html(base, "public", assets=viewer_asset)
            .split('id="t42-data">', 1)[1]
            .split("</script>")[0]
        )
        for leak in ("auction_fair", "supported_trump", "own tiles"):
            assert leak not in public


def test_a_players_own_record_in_csv_lists_every_call_in_its_place(tmp_path: Path) -> None:
    """A player's own record (redact --as A): the others' calls cannot be judged (their
    tiles are unknown), and CSV once left them out; each is a row, in auction order,
    saying why in the ``skipped`` column — as a play's row and the text report do."""
    own = tmp_path / "a.json"
    done = run_texas42("redact", str(FIXTURE), "--as", "A", "-o", str(own))
    assert done.returncode == 0, done.stderr
    out = run_texas42(
        *["analyze", str(own), "--fair", "--worlds", "8", "--hand", "1", "--format", "csv"]
    )
    assert out.returncode == 0, out.stderr
    rows = list(csv.reader(io.StringIO(out.stdout)))
    head = rows[0]
    calls = [r for r in rows[1:] if r[head.index("trick")] == "auction"]
    auction = json.loads(own.read_text("utf-8"))["hands"][0]["auction"]
    accepted = [c for c in auction if not c.get("rejected")]
    assert [r[head.index("seat")] for r in calls] == [c["seat"] for c in accepted]
    for row, c in zip(calls, accepted, strict=True):
        why = row[head.index("skipped")]
        assert (c["seat"] == "A") != ("own tiles are not all known" in why), (row, c)
        assert (c["seat"] == "A") == bool(row[head.index("fair_worlds")]), (row, c)
