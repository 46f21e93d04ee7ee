"""Leak tests (after OpenSpiel's ResampleInfostateTest): re-deal the tiles an
observer cannot see, consistently with what they have seen, and their text,
JSON and HTML views must not change by a single byte (R25–R29).

Each case is a seeded random legal match; a failing seed reproduces with
``pytest tests/test_leaks.py -k 'seed-N'``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from texas42_log.engine.presets import PRESETS
from texas42_log.files.assets import viewer_asset
from texas42_log.log.model import Match
from texas42_log.play.generate import random_match
from texas42_log.views.html import render_html
from texas42_log.views.text import view_lines
from texas42_log.views.visibility import Moment, View, parse_observer, view_for

from .redeal import redeal_after, redeal_unplayed, truncate

MATCHES = 200
HTML_MATCHES = 200
OBSERVERS = ["A", "B", "C", "D", "public", "review"]
VARIANTS = ["casual", "tricksy", "plunge-l", "texas-42"]


def snapshot(doc: dict[str, Any], observer: str, hand: int, k: int) -> str:
    """Everything a user may be shown of that moment: the view, its text and its
    picture (``render --to svg``) in every language."""
    from texas42_log.views.svg import render_svg

    v = view_for(Match.model_validate(doc), parse_observer(observer), hand, Moment.after_play(k))
    return json.dumps(v.as_dict(), sort_keys=True) + "".join(
        "\n".join(view_lines(v, lang)) + render_svg(v, lang) for lang in ("en", "tr", "uk")
    )


def _choose(doc: dict[str, Any], rng: random.Random) -> tuple[int, int]:
    """A hand with plays and a moment in it; all-tricks hands that lasted are preferred
    now and then, so that covered stacks are well exercised."""
    hands = [i for i, h in enumerate(doc["hands"]) if h.get("plays")]
    long_marks = [
        i
        for i in hands
        if doc["hands"][i]["auction"]
        and "stacks" in doc["hands"][i]["declaration"]
        and len(doc["hands"][i]["plays"]) >= 8
    ]
    i = rng.choice(long_marks) if long_marks and rng.random() < 0.5 else rng.choice(hands)
    n = len(doc["hands"][i]["plays"])
    k = rng.randint(0, n - 1) if rng.random() < 0.8 else n
    return i, k


def _kinds(doc: dict[str, Any], i: int, k: int, observer: str) -> list[str]:
    """What one sampled moment exercises (the coverage test counts them)."""
    hand = doc["hands"][i]
    kinds = [f"observer {observer}"]
    if k % 4:
        kinds.append("mid-trick")
    if len(hand["plays"]) < 28:
        kinds.append("hand ended early")
    stacks = hand["declaration"].get("stacks")
    if stacks:
        view = view_for(
            Match.model_validate(truncate(doc, i)),
            parse_observer(observer),
            i,
            Moment.after_play(k),
        )
        if any(w.faces is None for w in view.won):
            kinds.append(f"covered trick, {stacks} stack(s)")
    return kinds


def _two_worlds(
    observer: str, rng: random.Random, match: Callable[[int], dict[str, Any]]
) -> tuple[dict[str, Any], int, int, dict[str, Any], dict[str, Any]]:
    """A match, a hand and moment in it, the match up to that hand, and a re-dealt
    world the observer cannot tell from it (trying up to 10 matches)."""
    for attempt in range(10):
        doc = match(attempt)
        i, k = _choose(doc, rng)
        original = truncate(doc, i)
        if observer == "review":
            k = len(doc["hands"][i]["plays"])  # R29: a review is of the hand as it ended
            # After the hand every play is known: only tiles nobody played may move.
            world = redeal_unplayed(original, None, rng, only=i)
        else:
            world = redeal_after(doc, i, observer, k, rng)
        if world is not None:
            return doc, i, k, original, world
    pytest.fail("no match in 10 gave a different legal deal fitting what the observer saw")


def _leak_case(seed: int) -> tuple[str, dict[str, Any], int, int, dict[str, Any], dict[str, Any]]:
    """Seed ``seed``'s observer, match, hand, moment, the match up to it, and its twin."""
    rng = random.Random(seed)
    observer = OBSERVERS[seed % len(OBSERVERS)]
    return observer, *_two_worlds(observer, rng, lambda a: random_match(1000 + seed + 100_000 * a))


def _html_case(seed: int) -> tuple[str, dict[str, Any], dict[str, Any]]:
    rng = random.Random(seed)
    observer = OBSERVERS[seed % len(OBSERVERS)]
    keep = observer if len(observer) == 1 else None
    for attempt in range(10):
        doc = random_match(5000 + seed + 100_000 * attempt, max_hands=4)
        world = redeal_unplayed(doc, keep, rng)
        if world is not None:
            return observer, doc, world
    pytest.fail("no match in 10 left a tile unplayed that could be dealt elsewhere")


def _variant_case(
    preset: str, seed: int
) -> tuple[str, dict[str, Any], int, int, dict[str, Any], dict[str, Any]]:
    rng = random.Random(seed)
    # Not "review": where all 7 tricks are played no tile is left unplayed to re-deal.
    observer = OBSERVERS[seed % 5]
    return observer, *_two_worlds(
        observer,
        rng,
        lambda a: random_match(7000 + seed + 100_000 * a, rules=PRESETS[preset], preset=preset),
    )


@pytest.mark.parametrize("seed", [pytest.param(s, id=f"seed-{s}") for s in range(MATCHES)])
def test_redealing_hidden_tiles_changes_no_view(seed: int) -> None:
    observer, doc, i, k, original, world = _leak_case(seed)
    new, old = world["hands"][i]["deal"], original["hands"][i]["deal"]
    assert any(sorted(new[s]) != sorted(old[s]) for s in "ABCD")
    assert snapshot(world, observer, i, k) == snapshot(original, observer, i, k)


@pytest.mark.parametrize("seed", [pytest.param(s, id=f"seed-{s}") for s in range(HTML_MATCHES)])
def test_redealing_unplayed_tiles_changes_no_html_page(seed: int) -> None:
    observer, doc, world = _html_case(seed)
    assert render_html(
        Match.model_validate(world), parse_observer(observer), "en", assets=viewer_asset
    ) == render_html(Match.model_validate(doc), parse_observer(observer), "en", assets=viewer_asset)


@pytest.mark.parametrize("preset", VARIANTS)
@pytest.mark.parametrize("seed", range(12))
def test_redealing_changes_no_view_under_variants(preset: str, seed: int) -> None:
    """The same leak test under rule variants: Nel-O's sitting-out partner, Plunge's
    declaring partner, Sevens, play to all 7 tricks, stacks all visible."""
    observer, doc, i, k, original, world = _variant_case(preset, seed)
    assert snapshot(world, observer, i, k) == snapshot(original, observer, i, k)


def test_covered_trick_faces_appear_nowhere_in_the_view() -> None:
    """Direct check of R27 over many all-tricks hands: a covered trick's tiles are in
    no part of the view, its text or its JSON (they are in no hand and not on the table)."""
    checked = 0
    for seed in range(300):
        doc = random_match(9000 + seed)
        m = Match.model_validate(doc)
        for i, hand in enumerate(doc["hands"]):
            if "stacks" not in hand.get("declaration", {}):
                continue
            tricks = [hand["plays"][j : j + 4] for j in range(0, len(hand["plays"]), 4)]
            for k in range(len(hand["plays"]) + 1):
                v = view_for(m, "public", i, Moment.after_play(k))
                covered = [w.number for w in v.won if w.faces is None]
                if not covered:
                    continue
                text = json.dumps(v.as_dict()) + "\n".join(view_lines(v))
                for n in covered:
                    for p in tricks[n - 1]:
                        assert p["tile"] not in text, (seed, i, k, n, p)
                checked += 1
    assert checked >= 50


def test_the_leak_tests_covered_what_they_must() -> None:
    """The sampled cases of the tests above include every kind that must be covered.
    The cases are made again here from their seeds (cheap: no views compared), so the
    check holds whichever process ran which test."""
    covered: Counter[str] = Counter()
    for seed in range(MATCHES):
        observer, doc, i, k, _, _ = _leak_case(seed)
        covered.update(_kinds(doc, i, k, observer))
    covered["html page"] += sum(1 for seed in range(HTML_MATCHES) if _html_case(seed))
    for preset in VARIANTS:
        for seed in range(12):
            _, doc, i, _, _, _ = _variant_case(preset, seed)
            covered[f"variant {preset}"] += 1
            special = (doc["hands"][i].get("declaration") or {}).get("contract")
            if special:
                covered[f"special {special}"] += 1
    for kind in [
        "mid-trick",
        "hand ended early",
        "covered trick, 1 stack(s)",
        "covered trick, 2 stack(s)",
        "html page",
        "special nello",
        *(f"observer {o}" for o in OBSERVERS),
        *(f"variant {p}" for p in VARIANTS),
    ]:
        assert covered[kind] > 0, (kind, dict(covered))
    assert covered["observer A"] + covered["observer public"] >= 40, dict(covered)


# -- live games ------------------------------------------------------------------------
# Game.view builds the view through the same view model; these re-deal the hidden
# tiles of a live game, mid-hand, and replay the same actions on the new deal.

LIVE_GAMES = 80


def _live_snapshot(view: View) -> str:
    from texas42_log.views.svg import render_svg

    return (
        json.dumps(view.as_dict(), sort_keys=True)
        + "".join("\n".join(view_lines(view, lang)) for lang in ("en", "tr", "uk"))
        + render_svg(view)
    )


def _twin(game: Any, new_deal: dict[str, list[str]]) -> Any:
    """The same game with the current hand dealt ``new_deal``: every deal entered, every
    action pushed again. None if an action is illegal on the new deal."""
    from texas42_log import Game, IllegalAction

    doc = game.to_dict()
    twin = Game(game.preset, first_dealer=doc["first_dealer"], players=doc.get("players"))
    steps = game.history
    hands = doc["hands"]
    k = 0
    try:
        for n, hand in enumerate(hands, start=1):
            twin.deal(new_deal if n == len(hands) else hand["deal"])
            while k < len(steps) and steps[k].hand == n:
                twin.push(steps[k].action, seat=steps[k].seat)
                k += 1
    except IllegalAction:
        return None
    return twin


@pytest.mark.parametrize("seed", [pytest.param(s, id=f"live-{s}") for s in range(LIVE_GAMES)])
def test_redealing_hidden_tiles_of_a_live_game_changes_no_view(seed: int) -> None:
    from texas42_log import Game

    from .redeal import _shuffle_among

    rng = random.Random(f"live {seed}")
    preset = ["standard", "casual", "tricksy", "plunge-l", "texas-42"][seed % 5]
    observer = ["A", "B", "C", "D", "public"][seed % 5 if seed % 10 < 5 else (seed + 2) % 5]
    for attempt in range(10):
        game = Game(preset, seed=seed * 100 + attempt, first_dealer="ABCD"[seed % 4])
        stop = rng.randint(1, 60)
        while game.to_act is not None and stop:
            game.push(rng.choice(game.legal_actions()))
            stop -= 1
        if game.to_act is None or game.to_act.kind != "play":
            continue
        hand = game.to_dict()["hands"][-1]
        played = {p["tile"] for p in hand.get("plays", [])}
        deal = hand["deal"]
        movable = {s: [t for t in deal[s] if t not in played and s != observer] for s in "ABCD"}
        for _ in range(30):
            new_deal = _shuffle_among(rng, deal, movable)
            if all(sorted(new_deal[s]) == sorted(deal[s]) for s in "ABCD"):
                continue
            twin = _twin(game, new_deal)
            if twin is None:
                continue
            assert twin.to_dict()["hands"][-1]["deal"] == new_deal
            assert _live_snapshot(twin.view(observer)) == _live_snapshot(game.view(observer))
            return
    pytest.fail("no live game in 10 gave a different legal deal fitting what the observer saw")


def test_the_live_snapshot_does_see_the_observers_own_tiles() -> None:
    """The control: re-dealing the observer's own tiles changes its live view, so the
    equality above is not the snapshot seeing nothing."""
    from texas42_log import Game

    game = Game("standard", seed=5, first_dealer="D")
    for text in ("30", "pass", "pass", "pass", "trump 6"):
        game.push(text)
    deal = game.to_dict()["hands"][-1]["deal"]
    swapped = {s: list(deal[s]) for s in "ABCD"}
    swapped["A"][0], swapped["B"][0] = deal["B"][0], deal["A"][0]
    twin = _twin(game, swapped)
    assert twin is not None
    assert _live_snapshot(twin.view("A")) != _live_snapshot(game.view("A"))
    assert _live_snapshot(twin.view("C")) == _live_snapshot(game.view("C"))
