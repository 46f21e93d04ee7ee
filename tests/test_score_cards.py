"""Each seat's score card (texas42_log.analysis.cards, ``analyze --cards``, ``--by-player``):
the cards equal a recount from the per-decision lines of the report's JSON, and the text,
the JSON and the CSV say the same; a club's season groups them by player name."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from texas42_log.corpus import Record, analyze_record
from texas42_log.log.inert import dumps
from texas42_log.play.generate import random_match

from .helpers import run_texas42

ROOT = Path(__file__).resolve().parent.parent
WORKED = ROOT / "fixtures" / "valid" / "seed-worked-example.json"


def _recount(hand: dict[str, Any]) -> dict[str, dict[str, list[float]]]:
    """Seat → part → [decisions, ?, ??, chance lost, at best], from the hand's lines."""
    out = {s: {"plays": [0.0] * 5, "calls": [0.0] * 5} for s in "ABCD"}

    def add(seat: str, part: str, lost: float, mark: str | None) -> None:
        row = out[seat][part]
        row[0] += 1
        row[1] += mark == "?"
        row[2] += mark == "??"
        row[3] += lost
        row[4] += lost == 0

    for p in hand.get("plays", []):
        f = p.get("fair")
        if f is None or f.get("forced"):
            continue
        add(p["seat"], "plays", f["chance_lost"], f.get("mark"))
    auction = hand.get("auction") or {}
    for c in auction.get("calls", []):
        f = c["fair"]
        if "contract" in f:  # format 1.11: worth the contract its auction ends in
            lost = f["contract"]["lost"]
            add(c["seat"], "calls", min(1.0, lost / 2), f["contract"].get("mark"))
        elif "marks_lost" in f:
            add(c["seat"], "calls", min(1.0, f["marks_lost"] / 2), f.get("mark"))
    d = auction.get("declaration")
    if d is not None:
        add(d["seat"], "calls", d["fair"]["chance_lost"], d["fair"].get("mark"))
    return out


def _same(card: dict[str, Any], counted: list[float]) -> None:
    n, q, qq, lost, best = counted
    assert card["decisions"] == n and card["marks"] == {"?": q, "??": qq}
    assert card["chance_lost"] == pytest.approx(lost, abs=1e-3)
    if n:
        assert card["accuracy"] == pytest.approx(1 - lost / n, abs=1e-3)
        assert card["at_best"] == pytest.approx(best / n, abs=1e-3)
    else:
        assert card["accuracy"] is None and card["at_best"] is None


@pytest.mark.parametrize("seed", [0, 1])
def test_the_cards_equal_a_recount_and_text_json_and_csv_agree(seed: int, tmp_path: Path) -> None:
    data = dumps(random_match(6200 + seed, max_hands=3)).encode()
    js = analyze_record(Record("m.json", data), "json", fair=(10, 5)).json
    totals = {s: {"plays": [0.0] * 5, "calls": [0.0] * 5} for s in "ABCD"}
    judged = 0
    for hand in js["hands"]:
        if "cards" not in hand:
            continue
        counted = _recount(hand)
        for seat in "ABCD":
            for part in ("plays", "calls"):
                _same(hand["cards"]["by_seat"][seat][part], counted[seat][part])
                totals[seat][part] = [
                    a + b for a, b in zip(totals[seat][part], counted[seat][part], strict=True)
                ]
                judged += int(counted[seat][part][0])
        for team, (x, y) in (("A+C", "AC"), ("B+D", "BD")):
            for part in ("plays", "calls"):
                both = [a + b for a, b in zip(counted[x][part], counted[y][part], strict=True)]
                _same(hand["cards"]["by_team"][team][part], both)
    assert judged > 10
    for seat in "ABCD":
        for part in ("plays", "calls"):
            _same(js["by_seat"][seat][part], totals[seat][part])
    # the same cards in --cards CSV and text
    path = tmp_path / "m.json"
    path.write_bytes(data)
    out = run_texas42(
        "analyze",
        str(path),
        "--fair",
        "--worlds",
        "10",
        "--seed",
        "5",
        "--cards",
        "--format",
        "csv",
    )
    text = run_texas42("analyze", str(path), "--fair", "--worlds", "10", "--seed", "5", "--cards")
    assert out.returncode == 0 and text.returncode == 0, out.stderr + text.stderr
    rows = list(csv.DictReader(io.StringIO(out.stdout)))
    for seat in "ABCD":
        for part in ("plays", "calls"):
            row = next(r for r in rows if (r["hand"], r["who"], r["part"]) == ("all", seat, part))
            card = js["by_seat"][seat][part]
            assert int(row["decisions"]) == card["decisions"]
            assert int(row["dubious"]) == card["marks"]["?"]
            assert float(row["chance_lost"]) == pytest.approx(card["chance_lost"])
            line = next(x for x in text.stdout.splitlines() if x.startswith(f"  {seat} "))
            if card["decisions"]:
                assert f"{part} {card['decisions']} judged" in line
                assert f"accuracy {card['accuracy']:.0%}" in line


def test_by_player_groups_a_season_by_name_and_needs_fair() -> None:
    season = ["--fair", "--worlds", "6", "--no-auction", "--by-player", "--format", "json"]
    one = run_texas42("analyze", str(WORKED), *season)
    two = run_texas42("analyze", str(WORKED), str(WORKED), *season)
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    a = json.loads(one.stdout.splitlines()[0])["by_player"]
    b = json.loads(two.stdout.splitlines()[0])["by_player"]
    assert set(a) == {"Ana", "Bert", "Cleo", "Dov"} == set(b)
    for name in a:
        assert b[name]["plays"]["decisions"] == 2 * a[name]["plays"]["decisions"] > 0
    refused = run_texas42("analyze", str(WORKED), "--by-player")
    assert refused.returncode == 2 and "--fair" in refused.stderr


def test_by_player_holds_every_judged_decision_when_seats_share_a_name(tmp_path: Path) -> None:
    """A match of four bots named ``rule``: --by-player once held a quarter of the
    decisions (the seats' cards, keyed by one name, overwrote each other). Every seat's
    card counts, each told apart by its seat; the cards of one name add up over matches."""
    doc = json.loads(WORKED.read_text("utf-8"))
    doc["players"] = {s: "rule" for s in "ABCD"}
    log = tmp_path / "bots.json"
    log.write_text(json.dumps(doc), "utf-8")
    base = ["--fair", "--worlds", "6", "--no-auction", "--format", "json"]
    cards = run_texas42("analyze", str(log), *base, "--cards")
    season = run_texas42("analyze", str(log), str(WORKED), *base, "--by-player")
    assert cards.returncode == 0 and season.returncode == 0, cards.stderr + season.stderr
    by_seat = json.loads(cards.stdout.splitlines()[0])["by_seat"]
    by_player = json.loads(season.stdout.splitlines()[0])["by_player"]
    assert {f"rule (seat {s})" for s in "ABCD"} <= set(by_player)
    for s in "ABCD":
        for part in ("plays", "calls"):
            got = by_player[f"rule (seat {s})"][part]["decisions"]
            assert got == by_seat[s][part]["decisions"]
    total = sum(p[part]["decisions"] for p in by_player.values() for part in ("plays", "calls"))
    held = sum(by_seat[s][part]["decisions"] for s in "ABCD" for part in ("plays", "calls"))
    assert total == 2 * held  # the bots' match and the worked example, whose seats differ
