"""A chance as play makes it (docs/analysis.md, "How honest is the table?"): each kind of
contract corrected by its own curve, the ends kept, older logs by their own rule, and
tools/calibrate.py run small (it sets contracts, plays them out, fits and checks)."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from texas42_log.analysis.bidding import Bid, parse_row, seat_worlds
from texas42_log.analysis.calibration import (
    BY_KIND,
    KIND_CORRECTIONS,
    KINDS,
    SINGLE,
    SINGLE_CURVE,
    as_played,
    correction_of,
    kind_of,
    logistic,
)
from texas42_log.engine.auction import BidKind
from texas42_log.engine.presets import PRESETS
from texas42_log.engine.tiles import Tile
from texas42_log.play.game import Game

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "calibrate.py"


def _tool() -> Any:
    """tools/calibrate.py as a module (it is a script, not part of the package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("calibrate_tool", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("bid", "row", "kind"),
    [
        ("30", "5", "30–34"),
        ("34", "0", "30–34"),
        ("35", "6", "35–41"),
        ("41", "3", "35–41"),
        ("1 mark", "4", "1 mark"),
        ("2 marks", "4", "2+ marks"),
        ("3 marks", "1", "2+ marks"),
        ("31", "doubles", "doubles"),
        ("2 marks", "doubles", "doubles"),
        ("30", "no-trump", "follow-me"),
        ("1 mark", "nello", "nello"),
        ("2 marks", "nello low", "nello"),
        ("1 mark", "sevens", "sevens"),
        ("plunge 4 marks", "6", "plunge"),
        ("splash 2 marks", "doubles", "splash"),
    ],
)
def test_each_contract_has_its_kind(bid: str, row: str, kind: str) -> None:
    assert kind_of(Bid.parse(bid), parse_row(row)) == kind


def test_a_42_point_bid_is_every_trick_as_a_1_mark_bid() -> None:
    assert kind_of(Bid(BidKind.POINTS, 42), parse_row("5")) == "1 mark"


def test_a_lay_down_stays_a_lay_down_and_no_chance_reads_lower_for_a_higher_share() -> None:
    """Made in every world drawn: 100 %, whatever the kind's curve; below it, a higher
    open-hand share never reads a lower chance (every curve's slope is 0 or more)."""
    for kind in KINDS:
        assert as_played(1.0, kind) == 1.0
        assert KIND_CORRECTIONS[kind][1] >= 0
        inner = [as_played(p / 100, kind) for p in range(0, 100)]
        assert all(0.0 < q < 1.0 for q in inner)
        assert inner == sorted(inner)


def test_the_correction_follows_the_logs_version() -> None:
    """A log before 1.12 states open-hand shares, judged by the single curve; since 1.12
    the chance as played is stated and judged as it is."""
    assert correction_of("1.11") is SINGLE and correction_of("1.0") is SINGLE
    assert correction_of("1.12") is BY_KIND
    p = 0.7
    assert SINGLE.stated(p, "1 mark") == p
    assert SINGLE.played(p, "1 mark") == logistic(p, SINGLE_CURVE)
    assert SINGLE.of_stated(p, "1 mark") == logistic(p, SINGLE_CURVE)
    assert BY_KIND.stated(p, "1 mark") == as_played(p, "1 mark")
    assert BY_KIND.of_stated(0.42, "1 mark") == 0.42


def test_the_slope_is_the_curves_derivative() -> None:
    for kind in ("30–34", "1 mark", "nello"):
        for p in (0.1, 0.5, 0.83):
            h = 1e-6
            numeric = (as_played(p + h, kind) - as_played(p - h, kind)) / (2 * h)
            assert BY_KIND.slope(p, kind) == pytest.approx(numeric, rel=1e-4)
        assert BY_KIND.slope(1.0, kind) == 0.0


def test_the_fit_recovers_a_known_curve() -> None:
    """Contracts drawn as made with probability logistic(p, (a, b)): the tool's maximum
    likelihood finds (a, b) back, and its Brier score beats a wrong curve's."""
    tool = _tool()
    rng = random.Random(5)
    a, b = -0.6, 0.8
    rows = []
    for k in range(6000):
        p = rng.choice([0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95])
        made = rng.random() < logistic(p, (a, b))
        rows.append({"chance": p, "made": made, "kind": "1 mark", "held_out": k % 4 == 3})
    got = tool.fit([tool.logit(r["chance"]) for r in rows], [r["made"] for r in rows])
    assert got is not None
    assert got[0] == pytest.approx(a, abs=0.1) and got[1] == pytest.approx(b, abs=0.1)
    assert tool.brier(rows, got, True) < tool.brier(rows, (0.5, 1.5), True)


def test_the_report_checks_every_decile_with_enough_contracts() -> None:
    """A decile of 200 or more whose made rate is far from its stated chance fails the
    check, with a ✗ on its row; one within two standard errors passes."""
    tool = _tool()
    curve = (0.0, 1.0)  # stated = the share
    honest = [
        {"deal": k, "held_out": True, "kind": "30–34", "chance": 0.75, "made": k % 4 != 0}
        for k in range(400)
    ]
    lines, ok = tool.report(honest, {k: curve for k in KINDS})
    assert ok, "\n".join(lines)
    liar = [dict(r, made=r["deal"] % 2 == 0) for r in honest]  # made 50 %, stated 75 %
    lines, ok = tool.report(liar, {k: curve for k in KINDS})
    assert not ok and any("✗" in line for line in lines)


def test_the_fit_never_reads_a_higher_share_lower() -> None:
    """Where made falls as the share rises (noise in a rare kind), the curve is the made
    rate alone (b = 0), not a falling one."""
    tool = _tool()
    xs = [tool.logit(p) for p in (0.1, 0.2, 0.8, 0.9) for _ in range(50)]
    ys = [k % 10 == 0 if x > 0 else k % 5 == 0 for k, x in enumerate(xs)]
    got = tool.fit(xs, ys)
    assert got is not None and got[1] == 0.0
    assert logistic(0.5, got) == pytest.approx(sum(ys) / len(ys), abs=1e-3)


def test_the_stated_chance_is_the_share_of_worlds_made_through_the_kind() -> None:
    """A seat's table states, for a 1-mark bid in its best trump, the open-hand share of
    worlds in which every trick is taken, passed through the 1-mark curve."""
    rules = PRESETS["casual"]
    game = Game(rules, seed=11)
    deal = game.to_dict(hands=1)["hands"][0]["deal"]
    tiles = frozenset(Tile.parse(t) for t in deal["A"])
    sw = seat_worlds(rules, "A", 0, tiles, worlds=12, seed=3)
    bid = Bid(BidKind.MARKS, 1)
    table = sw.table([bid])
    for row in table.made[bid]:
        made = sw.made(bid, row)
        share = sum(made) / len(made)
        assert table.open_chance(bid, row).share == share
        assert table.chance(bid, row).share == as_played(share, kind_of(bid, row))


@pytest.mark.slow
def test_the_tool_sets_contracts_plays_them_fits_and_checks(tmp_path: Path) -> None:
    """tools/calibrate.py run small: every line is a contract of a known kind, set for a
    seat on its deal, its chance the seat's table's; ``fit`` prints a row per kind (the
    mark bids among them) and the check."""
    out = tmp_path / "contracts.jsonl"
    play = [sys.executable, str(TOOL), "play", "--deals", "4", "--worlds", "6", "--jobs", "1"]
    p = subprocess.run([*play, "--out", str(out)], capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stderr
    rows = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    assert {r["deal"] for r in rows} == {0, 1, 2, 3}
    assert all(r["kind"] in KINDS and 0 <= r["chance"] <= 1 for r in rows)
    assert all(r["held_out"] == (r["deal"] % 4 == 3) for r in rows)
    assert {"30–34", "35–41", "1 mark", "2+ marks", "nello", "sevens"} <= {r["kind"] for r in rows}
    for r in rows:
        assert kind_of(Bid.parse(r["bid"]), parse_row(r["row"])) == r["kind"]
    # a contract's chance is its seat's table's, drawn again
    tool = _tool()
    first = rows[0]
    from texas42_log.bots.arena import deal_seed, dealer_of

    game = Game(tool.rules_for_calibration(), seed=deal_seed(2026, 0), first_dealer=dealer_of(0))
    deal = game.to_dict(hands=1)["hands"][0]["deal"]
    tiles = frozenset(Tile.parse(t) for t in deal[first["seat"]])
    sw = seat_worlds(tool.rules_for_calibration(), first["seat"], 0, tiles, worlds=6, seed=2026)
    made = sw.made(Bid.parse(first["bid"]), parse_row(first["row"]))
    assert math.isclose(first["chance"], sum(made) / len(made))
    # played again, the file is not written twice
    again = subprocess.run([*play, "--out", str(out)], capture_output=True, text=True, timeout=600)
    assert again.returncode == 0 and len(out.read_text("utf-8").splitlines()) == len(rows)
    f = subprocess.run(
        [sys.executable, str(TOOL), "fit", str(out)], capture_output=True, text=True, timeout=600
    )
    assert f.returncode in (0, 1), f.stderr
    for kind in KINDS:
        assert f"| {kind} |" in f.stdout
    assert "check:" in f.stdout
