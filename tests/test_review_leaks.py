"""The analysis leaks no tile that was never played (R29), tested by re-dealing.

A log is annotated with its analysis (open-hand, its makeable table, and the fair
analysis of every call, the declaration and every play); then the tiles an observer may
not see are dealt again (still a legal record), and that world is annotated afresh — its
figures computed from its own deal. What the observer is shown of the two (the views'
JSON, text and picture at every moment, and the page) must be byte-identical:

* the review observer, re-dealing among all four seats the tiles nobody played: of a
  hand that ended early it is shown no open-hand analysis and no fair figure of a
  decision whose player held a tile never played;
* each seat, re-dealing the tiles of the other three that nobody played: it is shown
  its own fair figures only, which its own tiles and the public actions determine.

A hand played to its last tile leaves nothing unplayed: its review shows the analysis.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from texas42_log.analysis.api import annotate_match
from texas42_log.files.assets import viewer_asset
from texas42_log.files.formats import match_json
from texas42_log.log.model import Match
from texas42_log.play.generate import random_match
from texas42_log.views.html import render_html
from texas42_log.views.visibility import Moment, parse_observer, view_for

from .redeal import redeal_unplayed
from .test_leaks import snapshot

WORLDS = 4


def analysed(doc: dict[str, Any], hand: int) -> dict[str, Any]:
    """``doc`` with hand ``hand``'s whole analysis written in, computed from its own deal."""
    done = annotate_match(Match.model_validate(doc), hand, fair=(WORLDS, 1))
    assert done.analysed == [hand]
    return match_json(done.match)


def everything_shown(doc: dict[str, Any], observer: str, hand: int) -> list[str]:
    """The hand as ``observer`` is shown it (a review: as it ended, R29; a seat: every third
    moment and the end), and its page."""
    n = len(doc["hands"][hand]["plays"])
    moments = [n] if observer == "review" else [*range(0, n, 3), n]
    out = [snapshot(doc, observer, hand, k) for k in moments]
    out.append(
        render_html(Match.model_validate(doc), parse_observer(observer), "en", assets=viewer_asset)
    )
    return out


def _ended_early(seed: int, keep: str | None) -> tuple[dict[str, Any], dict[str, Any], int]:
    """A match, a hand of it that ended early (plays made, tiles left), and its twin with
    that hand's unplayed tiles dealt again (the seat ``keep``'s kept)."""
    rng = random.Random(f"review-leak-{seed}")
    for attempt in range(20):
        doc = random_match(31_000 + seed + 1000 * attempt, max_hands=3)
        hands = [
            i
            for i, h in enumerate(doc["hands"])
            if h.get("plays") and len(h["plays"]) < 28 and "contract" not in h["declaration"]
        ]
        if not hands:
            continue
        i = rng.choice(hands)
        world = redeal_unplayed(doc, keep, rng, only=i)
        if world is not None:
            return doc, world, i
    pytest.fail("no hand left a tile unplayed that could be dealt elsewhere")


@pytest.mark.parametrize("seed", range(6))
def test_the_review_of_a_hand_that_ended_early_shows_no_figure_drawn_from_unplayed_tiles(
    seed: int,
) -> None:
    original, world, i = _ended_early(seed, None)
    a, b = analysed(original, i), analysed(world, i)
    # The figures differ (they are drawn from different deals) …
    assert a["hands"][i]["analysis"] != b["hands"][i]["analysis"] or any(
        p.get("analysis") != q.get("analysis")
        for p, q in zip(a["hands"][i]["plays"], b["hands"][i]["plays"], strict=True)
    )
    # … and the review is shown none of them.
    assert everything_shown(a, "review", i) == everything_shown(b, "review", i)
    end = view_for(Match.model_validate(a), "review", i, Moment.end())
    assert end.analysis is None and end.fair is None and end.auction_fair is None


@pytest.mark.parametrize("seed", range(4))
def test_a_seat_is_shown_its_own_fair_figures_and_nothing_drawn_from_other_hands(
    seed: int,
) -> None:
    seat = "ABCD"[seed]
    original, world, i = _ended_early(100 + seed, seat)
    a, b = analysed(original, i), analysed(world, i)
    assert everything_shown(a, seat, i) == everything_shown(b, seat, i)
    mine = view_for(Match.model_validate(a), seat, i, Moment.end())
    assert mine.analysis is None
    assert mine.fair is None or {p.seat for p in mine.fair.plays} <= {seat}


def test_the_review_of_a_hand_played_to_its_last_tile_shows_its_analysis() -> None:
    """The control: nothing was left unplayed, so every figure may be shown."""
    for attempt in range(40):
        doc = random_match(47_000 + attempt, max_hands=3)
        full = [
            i
            for i, h in enumerate(doc["hands"])
            if len(h.get("plays", [])) == 28 and "contract" not in h["declaration"]
        ]
        if full:
            break
    else:
        pytest.fail("no hand of 40 matches was played to its last tile")
    i = full[0]
    a = analysed(doc, i)
    end = view_for(Match.model_validate(a), "review", i, Moment.end())
    assert end.analysis is not None and end.analysis.value is not None
    assert end.fair is not None and {p.seat for p in end.fair.plays} == set("ABCD")
