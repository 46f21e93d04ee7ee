"""Fair analysis (texas42_log.analysis.worlds, texas42_log.analysis.fair): worlds from a view,
and each play's fair values, against references that know nothing of them.

* Worlds: every consistent deal found by brute force — every way to give the
  unseen tiles to the other seats, kept when the recorded plays replay through the
  engine's *checked* path (a renege is refused there, R16) and a Plunge caller held
  its doubles — is exactly the set :class:`Worlds` lists; draws are uniform (a
  chi-square test) and each one is consistent.
* Fair values: with every world enumerated, each alternative's mean and share equal
  the mean of a plain minimax (tests/test_solver.py) over the brute-force worlds.
* Visibility: re-dealing what the seat cannot see leaves its fair analysis the same.
"""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from texas42_log.analysis.fair import decide
from texas42_log.analysis.fair_hands import fair_hand, knowledge_at
from texas42_log.analysis.worlds import Knowledge, World, Worlds
from texas42_log.engine.auction import BidKind, Contract
from texas42_log.engine.errors import IllegalAction
from texas42_log.engine.hand import PlayState
from texas42_log.engine.rules import Rules
from texas42_log.engine.seats import SEATS, Seat, team_of
from texas42_log.engine.tiles import TILES, Tile
from texas42_log.engine.trumps import Trump
from texas42_log.engine.values import makeable
from texas42_log.log.model import Match
from texas42_log.log.versions import FORMAT_VERSION
from texas42_log.views.visibility import hand_views

from .redeal import redeal_after
from .test_solver import SETTINGS, minimax, position

ROOT_FIXTURE = str(
    Path(__file__).resolve().parent.parent / "fixtures" / "valid" / "seed-worked-example.json"
)


def knowledge_of(st: PlayState, seat: Seat) -> Knowledge:
    """What ``seat`` knows at ``st``: its tiles and the plays so far (built without views)."""
    plays: list[tuple[Seat, Tile, int | None]] = []
    for trick in st.tricks:
        for j, (s, t) in enumerate(trick.plays):
            natural = None
            if j == 0 and trick.led is not None:
                from texas42_log.engine.trumps import table_for

                natural = (
                    None if table_for(st.trump, st.doubles)[t].leads == trick.led else trick.led
                )
            plays.append((s, t, natural))
    nello = st.doubles if st.contract.special == "nello" else None
    return Knowledge(
        st.rules, seat, st.contract, st.trump, nello, frozenset(st.known[seat]), tuple(plays)
    )


def brute_worlds(k: Knowledge, st: PlayState) -> list[World]:
    """Every consistent world, by trying every deal of the unseen tiles and replaying the
    plays through the checked path."""
    played = {t for _, t, _ in k.plays}
    unseen = [t for t in TILES if t not in played and t not in k.hand]
    others = [s for s in SEATS if s != k.seat]
    holds = [st.unknown[s] + len(st.known[s]) for s in others]
    out: list[World] = []

    def split(tiles: list[Tile], j: int) -> Any:
        if j == len(others) - 1:
            yield [tiles]
            return
        for chosen in itertools.combinations(tiles, holds[j]):
            rest = [t for t in tiles if t not in chosen]
            for tail in split(rest, j + 1):
                yield [list(chosen)] + tail

    for parts in split(unseen, 0):
        world: World = {s: frozenset(p) for s, p in zip(others, parts, strict=True)}
        world[k.seat] = k.hand
        dealt = {s: set(world[s]) | {t for s2, t, _ in k.plays if s2 == s} for s in SEATS}
        c = k.contract
        if c.special in ("plunge", "splash") and c.bidder != k.seat:
            need = (
                k.rules.plunge_min_doubles if c.special == "plunge" else k.rules.splash_min_doubles
            )
            if sum(1 for t in dealt[c.bidder] if t.is_double) < need:
                continue
        replay = PlayState(k.rules, c, k.trump, dealt, nello_doubles=k.nello_doubles)  # type: ignore[arg-type]
        try:
            for s, t, led in k.plays:
                replay.play(s, t, led)
        except IllegalAction:
            continue
        out.append(world)
    return out


def _key(world: World) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(sorted(str(t) for t in world[s])) for s in SEATS)


@pytest.mark.parametrize("name,rules,contract,trump", SETTINGS, ids=[s[0] for s in SETTINGS])
def test_fair_values_are_the_mean_of_a_plain_minimax_over_every_world(
    name: str, rules: Rules, contract: Contract, trump: Trump
) -> None:
    """Positions with at most 2 tricks left, every world enumerated, every setting of
    the solver's own reference (each trump, all tricks, Nel-O three ways, Sevens, …)."""
    rng = random.Random(f"fair:{name}")
    checked = 0
    for n in range(12):
        st = position(rng, rules, contract, trump, 1 + n % 2)
        while (
            contract.special == "plunge"
            and _dealt_doubles(st, contract.bidder) < rules.plunge_min_doubles
        ):
            st = position(
                rng, rules, contract, trump, 1 + n % 2
            )  # a Plunge caller held its doubles
        seat = st.to_play
        assert seat is not None
        k = knowledge_of(st, seat)
        worlds = brute_worlds(k, st)
        space = Worlds(k)
        assert space.count == len(worlds), (name, n)
        assert sorted(map(_key, space.all())) == sorted(map(_key, worlds)), (name, n)
        d = decide(k, worlds=10**5, seed=n)
        assert d.enumerated and d.worlds == len(worlds)
        bidders = team_of(seat) == team_of(contract.bidder)
        for move, fv in d.values.items():
            values = []
            for w in worlds:
                child = k.state(w)
                # The reference plays every trick out, as the solver values them.
                child = _all_tricks(child)
                child.play(seat, move[0], move[1])
                values.append(minimax(child))
            mean = Fraction(sum(values), len(values))
            share = Fraction(
                sum(1 for v in values if makeable(contract, v, total=42) == bidders), len(values)
            )
            assert math.isclose(fv.mean, mean, abs_tol=1e-9), (name, n, move)
            assert math.isclose(fv.share, share, abs_tol=1e-9), (name, n, move)
            assert fv.se == 0 and fv.share_se == 0
            checked += 1
    assert checked >= 12


def _dealt_doubles(st: PlayState, seat: Seat) -> int:
    return sum(1 for t in st.known[seat] if t.is_double) + sum(
        1 for t, (_, by) in st.played.items() if by == seat and t.is_double
    )


def _all_tricks(st: PlayState) -> PlayState:
    """``st`` under rules that play all 7 tricks (the value counts them all)."""
    if st.rules.hand_end == "all-tricks":
        return st.copy()
    raise AssertionError("position() plays all tricks")


def _deep_position(seed: str) -> tuple[PlayState, Knowledge]:
    rng = random.Random(seed)
    st = position(rng, Rules(), Contract("A", BidKind.POINTS, 30), Trump.FIVES, 4)
    seat = st.to_play
    assert seat is not None
    return st, knowledge_of(st, seat)


def _small_spaces() -> Any:
    """(n, worlds, every world's key) of positions with 20–400 worlds: few enough to list."""
    for n in range(60):
        _, k = _deep_position(f"uniform:{n}")
        space = Worlds(k)
        if 20 <= space.count <= 400:
            yield n, space, {_key(w) for w in space.all()}


def _too_far_from_uniform(
    counts: Counter[tuple[tuple[str, ...], ...]], listed: set[Any]
) -> tuple[float, float]:
    """(chi-square of ``counts`` against the uniform distribution over ``listed``, its
    99.9th percentile by Wilson–Hilferty): a fair sampler exceeds it one time in a thousand."""
    draws = sum(counts.values())
    expected = draws / len(listed)
    chi2 = sum((counts.get(w, 0) - expected) ** 2 / expected for w in listed)
    df = len(listed) - 1
    return chi2, df * (1 - 2 / (9 * df) + 3.09 * math.sqrt(2 / (9 * df))) ** 3


def test_draws_are_uniform_over_the_worlds() -> None:
    """Chi-square goodness of fit of 40 draws a world against the uniform distribution,
    on positions whose worlds are few enough to list and count."""
    tested = 0
    for n, space, listed in _small_spaces():
        assert len(listed) == space.count
        rng = random.Random(n)
        counts = Counter(_key(space.sample(rng)) for _ in range(40 * space.count))
        assert set(counts) <= listed
        chi2, limit = _too_far_from_uniform(counts, listed)  # fixed seeds: the same draws every run
        assert chi2 < limit, (n, space.count, chi2, limit)
        tested += 1
        if tested == 4:
            break
    assert tested == 4


def test_a_skewed_sampler_would_fail_the_uniformity_test() -> None:
    """The test above can fail: a sampler that deals each tile to a random seat with
    room (a common, biased way) is far off on the same kind of position."""
    for n, space, listed in _small_spaces():
        rng = random.Random(n)
        counts: Counter[tuple[tuple[str, ...], ...]] = Counter()
        while sum(counts.values()) < 40 * space.count:
            caps = list(space.holds)
            given: list[list[Tile]] = [[] for _ in space.seats]
            for i, t in enumerate(space.unseen):
                options = [j for j in space.allowed[i] if caps[j]]
                if not options:
                    break
                j = rng.choice(options)
                given[j].append(t)
                caps[j] -= 1
            else:
                counts[_key(space._world(given))] += 1
        chi2, limit = _too_far_from_uniform(counts, listed)
        if chi2 > limit:
            return
    raise AssertionError(
        "the naive sampler passed every position: the uniformity test has no power"
    )


def test_every_drawn_world_agrees_with_what_the_seat_saw() -> None:
    """Early positions (too many worlds to list): each draw replays through the checked path,
    each seat holds its count, and the seat's own hand is its own."""
    for n in range(6):
        rng = random.Random(f"consistent:{n}")
        rules = Rules(plunge=True) if n % 3 == 2 else Rules()
        contract = (
            Contract("A", BidKind.MARKS, 4, "plunge")
            if n % 3 == 2
            else Contract("A", BidKind.POINTS, 30)
        )
        st = position(rng, rules, contract, Trump.DOUBLES if n % 3 == 2 else Trump.SIXES, 6)
        seat = st.to_play
        assert seat is not None
        if n % 3 == 2 and seat == "A":
            continue
        k = knowledge_of(st, seat)
        space = Worlds(k)
        for _ in range(30):
            world = space.sample(rng)
            assert world[seat] == k.hand
            for s in SEATS:
                assert len(world[s]) == st.unknown[s] + len(st.known[s])
            assert brute_consistent(k, world)


def brute_consistent(k: Knowledge, world: World) -> bool:
    dealt = {s: set(world[s]) | {t for s2, t, _ in k.plays if s2 == s} for s in SEATS}
    c = k.contract
    if (
        c.special == "plunge"
        and sum(1 for t in dealt[c.bidder] if t.is_double) < k.rules.plunge_min_doubles
    ):
        return False
    replay = PlayState(k.rules, c, k.trump, dealt)
    try:
        for s, t, led in k.plays:
            replay.play(s, t, led)
    except IllegalAction:
        return False
    return True


def test_a_plunge_caller_holds_its_doubles_in_every_world() -> None:
    rules = Rules(plunge=True)
    contract = Contract("A", BidKind.MARKS, 4, "plunge")
    tiles = list(TILES)
    doubles = [t for t in tiles if t.is_double]
    rest = [t for t in tiles if not t.is_double]
    deal = {
        "A": set(doubles[:4] + rest[:3]),
        "B": set(rest[3:10]),
        "C": set(rest[10:17]),
        "D": set(doubles[4:] + rest[17:]),
    }
    st = PlayState(rules, contract, Trump.DOUBLES, deal)  # C (the partner) declares and leads
    k = knowledge_of(st, "C")
    space = Worlds(k)
    rng = random.Random(3)
    for _ in range(50):
        w = space.sample(rng)
        assert sum(1 for t in w["A"] if t.is_double) >= 4
    # Without the call's constraint the count would be larger: it is applied, not assumed.
    free = Worlds(
        Knowledge(Rules(), "C", Contract("A", BidKind.POINTS, 30), Trump.DOUBLES, None, k.hand, ())
    )
    assert space.count < free.count


def _views_decision(match: Match, hand: int, k: int, worlds: int) -> str:
    """The fair decision of the seat to make play ``k`` (from 0), from its views, as JSON text."""
    h = match.hands[hand]
    seat = [p for p in h.plays if not p.rejected][k].seat
    views = hand_views(match, seat, hand)
    from texas42_log.log.check import effective_rules

    knowledge = knowledge_at(views, k, effective_rules(match))
    return json.dumps(decide(knowledge, worlds=worlds, seed=5, hand=hand).as_dict(), sort_keys=True)


def test_redealing_what_the_seat_cannot_see_leaves_its_fair_analysis_unchanged() -> None:
    with open(ROOT_FIXTURE, "rb") as f:
        doc = json.load(f)
    match = Match.model_validate(doc)
    rng = random.Random("fair-redeal")
    compared = 0
    for hand, k in ((1, 9), (1, 13), (2, 5), (3, 8), (10, 10)):
        seat = [p for p in match.hands[hand].plays if not p.rejected][k].seat
        before = _views_decision(match, hand, k, 6)
        world = redeal_after(doc, hand, seat, k, rng)
        assert world is not None, (hand, k)
        other = Match.model_validate(world)
        assert other.hands[hand].deal != match.hands[hand].deal
        assert _views_decision(other, hand, k, 6) == before, (hand, k)
        compared += 1
    assert compared == 5


def test_the_fair_analysis_is_the_same_for_the_same_seed_and_differs_for_another() -> None:
    with open(ROOT_FIXTURE, "rb") as f:
        match = Match.model_validate(json.load(f))
    a = fair_hand(match, 1, worlds=5, seed=1)
    b = fair_hand(match, 1, worlds=5, seed=1)
    c = fair_hand(match, 1, worlds=5, seed=2)
    assert [n.as_dict() for n in a.plays] == [n.as_dict() for n in b.plays]
    assert [n.as_dict() for n in a.plays] != [n.as_dict() for n in c.plays]


def _game_at(doc: dict[str, Any], hand: int, k: int) -> Any:
    """A live Game at the moment before play ``k`` (from 0) of hand ``hand``."""
    from texas42_log import Game

    from .redeal import truncate

    cut = truncate(doc, hand)
    cut["hands"][-1]["plays"] = cut["hands"][-1]["plays"][:k]
    return Game.from_match(Match.model_validate(cut))


def test_game_hint_is_the_fair_decision_of_the_seat_to_play_and_leaks_nothing() -> None:
    with open(ROOT_FIXTURE, "rb") as f:
        doc = json.load(f)
    match = Match.model_validate(doc)
    hand, k = 1, 9
    seat = [p for p in match.hands[hand].plays if not p.rejected][k].seat
    game = _game_at(doc, hand, k)
    hint = game.hint(seat, worlds=6, seed=5)
    assert json.dumps(hint.as_dict(), sort_keys=True) == _views_decision(match, hand, k, 6)
    other = next(s for s in SEATS if s != seat)
    with pytest.raises(ValueError, match=f"it is {seat}'s turn"):
        game.hint(other)
    # Re-deal what the seat cannot see: the hint is the same.
    world = redeal_after(doc, hand, seat, k, random.Random("hint"))
    assert world is not None
    again = _game_at(world, hand, k).hint(worlds=6, seed=5)
    assert again.as_dict() == hint.as_dict()
    # The suggestion is the best play, as an action the game takes.
    assert (hint.suggestion.tile, hint.suggestion.led) == hint.best
    before = len(game.history)
    step = game.push(hint.suggestion)
    assert len(game.history) == before + 1 and step.action == hint.suggestion


def test_the_public_api_analyses_a_match_without_internal_modules() -> None:
    import texas42_log

    with open(ROOT_FIXTURE, "rb") as f:
        match = texas42_log.read_match(f.read())
    (third,) = texas42_log.open_hand_analysis(match, 2, table=False)
    assert not isinstance(third, texas42_log.analysis.api.Skipped) and third.value == 42
    fair = texas42_log.fair_analysis(match, 2, worlds=4)
    lost = next(n for n in fair.plays if n.open is not None and n.open.fate == "lost")
    assert str(lost.move[0]) == "[2|6]"
    # the contract was lost with every hand open: punished when marked, unlucky when best
    expected = (
        "wrong and punished"
        if lost.mark
        else "right but unlucky"
        if lost.chance_lost == 0
        else None
    )
    assert lost.verdict == expected
    with pytest.raises(ValueError, match="no hand 99"):
        texas42_log.fair_analysis(match, 99)


def _annotated(doc: dict[str, Any], hand: int, worlds: int) -> Match:
    """``doc`` with hand ``hand``'s open-hand and fair analysis written in (as --annotate does)."""
    from texas42_log.analysis.api import annotated, fair_hands
    from texas42_log.files.formats import match_json
    from texas42_log.log.check import effective_rules

    match = Match.model_validate(doc)
    body = match_json(match)
    from texas42_log.analysis.open_hand import analyze_match_doc

    analyses = analyze_match_doc(effective_rules(match), body, table=False, only=hand)
    out = annotated(body, analyses, fair_hands(match, analyses, worlds, 9))
    out["version"] = "1.4"
    return Match.model_validate(out)


def test_views_show_a_seat_its_own_fair_analysis_and_nobody_else_and_leak_nothing() -> None:
    with open(ROOT_FIXTURE, "rb") as f:
        doc = json.load(f)
    hand, k = 2, 5
    match = _annotated(doc, hand, 4)
    seat = [p for p in match.hands[hand].plays if not p.rejected][k].seat
    seen_own = 0
    for observer in ("A", "B", "C", "D", "public", "omniscient"):
        for v in hand_views(match, observer, hand):  # type: ignore[arg-type]
            d = v.as_dict()
            if observer == "public":
                assert "fair" not in d and "analysis" not in d
                continue
            if v.fair is None:
                continue
            if observer in SEATS:
                assert {p.seat for p in v.fair.plays} <= {observer}
                assert v.fair.now is None or v.to_play == observer
                seen_own += len(v.fair.plays)
    assert seen_own
    # Re-deal what the seat cannot see after play k: its views up to then are the same,
    # fair analysis included (the open-hand analysis differs, and the seat never sees it).
    world = redeal_after(doc, hand, seat, k, random.Random("fair-views"))
    assert world is not None
    other = _annotated(world, hand, 4)
    assert (
        other.hands[hand].analysis != match.hands[hand].analysis
        or other.hands[hand].deal != match.hands[hand].deal
    )

    def seat_views(m: Match) -> list[str]:
        return [
            json.dumps(v.as_dict(), sort_keys=True)
            for v in hand_views(m, seat, hand)
            if v.moment in ("declaration", "play") and v.play <= k
        ]

    mine, theirs = seat_views(match), seat_views(other)
    assert any('"fair"' in x for x in mine) and mine == theirs


def _cli(*args: str, cwd: Any = None) -> Any:
    from .forked_cli import completed

    return completed(list(args), text=True, cwd=cwd)


def test_analyze_fair_reports_text_json_and_csv_the_same_numbers(tmp_path: Any) -> None:
    import csv
    import io

    log = ROOT_FIXTURE
    common = [
        "analyze",
        log,
        "--hand",
        "3",
        "--no-table",
        "--fair",
        "--worlds",
        "12",
        "--seed",
        "3",
    ]
    text = _cli(*common)
    assert text.returncode == 0, text.stderr
    assert "fair: each play from its player's own view, 12 worlds a decision (seed 3" in text.stdout
    assert "LOST" in text.stdout and "forced" in text.stdout
    js = _cli(*common, "--format", "json")
    assert js.returncode == 0, js.stderr
    first = json.loads(js.stdout.splitlines()[0])
    plays = first["hands"][0]["plays"]
    assert first["hands"][0]["fair"] == {
        "worlds": 12,
        "seed": 3,
        "calls": "contract",
        "chances": "kind",
    }
    assert (
        sum(1 for p in plays if p["fair"] == {"forced": True, "verdict": None, "note": None}) == 2
    )
    lost = next(p for p in plays if p["fate"] == "lost")
    rows = list(csv.DictReader(io.StringIO(_cli(*common, "--format", "csv").stdout)))
    row = next(r for r in rows if r["fate"] == "lost")
    assert float(row["fair_cost"]) == lost["fair"]["cost"] and row["mark"] == (
        lost["fair"].get("mark") or ""
    )
    assert row["verdict"] == (lost["fair"]["verdict"] or "")
    assert f"{lost['fair']['cost']:.1f}" in text.stdout
    # Same seed, same numbers; another seed, other numbers.
    assert _cli(*common).stdout == text.stdout
    assert _cli(*common[:-1], "4").stdout != text.stdout


@pytest.mark.parametrize(
    "args,words",
    [
        (["--worlds", "5"], "give --fair with them"),
        (["--fair", "--worlds", "0"], "--worlds"),
        (["--fair", "--worlds", "100001"], "--worlds"),
        (["--fair", "--seed", "-1"], "--seed"),
        (["--fair", "--seed", "9" * 5000], "--seed"),
    ],
)
def test_bad_fair_options_are_usage_errors(args: list[str], words: str) -> None:
    ran = _cli("analyze", ROOT_FIXTURE, *args)
    assert ran.returncode == 2 and words in ran.stderr and "Traceback" not in ran.stderr, ran.stderr


def test_an_annotated_fair_analysis_validates_verifies_and_survives_every_conversion(
    tmp_path: Any,
) -> None:
    out = tmp_path / "fair.json"
    ran = _cli(
        "analyze",
        ROOT_FIXTURE,
        "--hand",
        "3",
        "--fair",
        "--worlds",
        "5",
        "--annotate",
        "-o",
        str(out),
    )
    assert ran.returncode == 0, ran.stderr
    doc = json.loads(out.read_text("utf-8"))
    assert doc["version"] == FORMAT_VERSION and doc["hands"][2]["analysis"]["fair"] == {
        "worlds": 5,
        "seed": 42,
        "calls": "contract",
        "chances": "kind",
    }
    assert _cli("validate", str(out)).returncode == 0
    assert _cli("analyze", str(out), "--hand", "3", "--verify").returncode == 0
    for ext in ("t42", "jsonl"):
        there = tmp_path / f"fair.{ext}"
        back = tmp_path / f"back-{ext}.json"
        assert _cli("convert", str(out), "-o", str(there)).returncode == 0
        assert _cli("convert", str(there), "-o", str(back)).returncode == 0
        assert json.loads(back.read_text("utf-8"))["hands"] == doc["hands"], ext
    # A stated fair value changed: validate sees the cost no longer follows, --verify the value.
    play = doc["hands"][2]["plays"][4]["analysis"]["fair"]
    key = next(iter(play["values"]))
    play["values"][key]["mean"] = 41.0 if play["values"][key]["mean"] < 40 else 1.0
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), "utf-8")
    v = _cli("analyze", str(bad), "--hand", "3", "--verify")
    assert v.returncode == 1 and "/analysis/fair/" in v.stdout + v.stderr


def test_the_html_page_shows_a_seat_its_own_fair_analysis_and_the_public_none() -> None:
    from texas42_log.files.assets import viewer_asset
    from texas42_log.views.html import render_html

    with open(ROOT_FIXTURE, "rb") as f:
        doc = json.load(f)
    match = _annotated(doc, 2, 4)
    match.hands[:] = match.hands[:3]
    seat_page = render_html(match, "B", assets=viewer_asset)
    assert "Fair, from B's own view" in seat_page and "Fair, from A's own view" not in seat_page
    # what the page holds of the match (its data; the viewer's own script names the keys)
    data = json.loads(
        render_html(match, "public", assets=viewer_asset)
        .split('id="t42-data">', 1)[1]
        .split("</script>")[0]
    )
    data.pop("ui")  # the page's words (its legend speaks of a chance's share)
    public_page = json.dumps(data, separators=(",", ":"))
    for leak in ("Fair, from", '"fair":{', '"fair": {', "chance_lost", "share"):
        assert leak not in public_page, leak
    assert '"fair":{' in seat_page.replace('"fair": {', '"fair":{')
