"""The board tells the hand's story, in the real browser (Debian's headless Chromium), on a
desktop and on a 390 × 844 phone: the list of calls and plays takes the board to its
moment, a marked play's dot on the graph jumps to it, the best fair play is ringed on its
tile at a judged decision with the numbers in a table, a seat's address shows no other
seat's line; at 1280 × 800 the list, the graph (its axes labelled) and the best play need
no scrolling, and the phone's first screen holds your tiles, the step buttons and the
mark of the move just made.

``story_path`` is also what ``tools/screenshot.py --board`` runs to take the pictures in
docs/board.md, so the pictures are of the path these tests prove."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .board_client import Board, start_board
from .test_board_browser import SAMPLE
from .test_viewer_browser import browser  # noqa: F401  (the module's Chromium)

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("browser")]

PHONE = {"width": 390, "height": 844}
END = "#hand-1-39"  # hand 1 of the sample, played to its last tile: its last moment


# names as long as a club's: a phone shows them whole, wrapped, never cut
NAMES = {
    "A": "Anastasia Pemberton",
    "B": "Bartholomew Kingsley",
    "C": "Cleopatra Vandermeer",
    "D": "Dovydas Sokolovsky",
}


def named_sample(log: Path) -> None:
    doc = json.loads(SAMPLE.read_text("utf-8"))
    doc["players"] = NAMES
    log.write_text(json.dumps(doc, indent=1), "utf-8")


@pytest.fixture
def board(tmp_path: Path) -> Iterator[Board]:
    log = tmp_path / "game.json"
    named_sample(log)
    b = start_board(log, "--worlds", "20")
    yield b
    b.stop()


def _page(browser: Any, url: str, errors: list[str], phone: bool = False) -> Any:  # noqa: F811
    if phone:
        page = browser.new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    else:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(url)
    page.wait_for_selector("#table .seat")
    return page


def _ask(page: Any) -> None:
    page.click("#ask")
    page.wait_for_selector("#ask-status:has-text('analysed')", timeout=300_000)


def _position(page: Any) -> str:
    return str(page.inner_text("#position"))


def _step_to_own_judged_decision(page: Any, seat: str) -> None:
    """Step on from the hand's first moment until ``seat``'s best fair play is ringed."""
    page.keyboard.press("Home")
    for _ in range(40):
        if page.locator(f".seat-{seat} .valued.fair.best").count():
            return
        page.keyboard.press("ArrowRight")
    raise AssertionError(f"no judged decision of {seat} in hand 1")


def story_path(browser: Any, b: Board, shots: Path | None = None) -> None:  # noqa: F811
    """The everything-view on a desktop, then seat B's address on a desktop and a phone.
    ``shots``: a folder for board-story.png (seat B, desktop) and board-phone.png."""
    errors: list[str] = []
    # everything: the open-hand graph, its marked dots, the list of every action
    page = _page(browser, b.url() + "&as=omniscient" + END, errors)
    _ask(page)
    page.wait_for_selector("#graph circle.marked")
    moves = page.locator("#moves .move")
    names = [str(t) for t in moves.all_text_contents()]
    # every call, the auction's last one included (once dropped), then the declaration
    assert names[:5] == ["A pass", "B 31", "C pass", "D 33", "D doubles"], names
    assert sum(1 for n in names if re.match(r"^[ABCD] \[\d\|\d\]", n)) == 28
    assert any(n.endswith("?") for n in names)  # the marked plays, inline
    # a play in the list takes the board there
    target = names.index(next(n for n in names[10:] if n.startswith("C [")))
    moves.nth(target).click()
    assert re.search(r"after play \d+", _position(page))
    here = page.locator("#moves .move.here")
    assert here.count() == 1 and here.text_content() == names[target]
    # a marked play's dot jumps to it: every dot shown is one up to this moment
    page.goto(b.url() + "&as=omniscient" + END)
    page.wait_for_selector("#graph circle.marked")
    dot = page.locator("#graph circle.marked").first
    n = dot.get_attribute("data-play")
    dot.click()
    assert f"after play {n} " in _position(page) + " ", (n, _position(page))
    # every seat's card and the teams', labelled
    cards = page.locator("#cards li").evaluate_all(
        "items => items.map(i => i.dataset.seat || i.dataset.team)"
    )
    assert cards == [*"ABCD", "A+C", "B+D"]
    _story_on_the_first_screen(page)
    page.close()

    # seat B's address: its own lines only, the best play ringed at its decision
    for phone in (False, True):
        page = _page(browser, b.url("seat B") + "&as=B" + END, errors, phone=phone)
        _ask(page)
        page.wait_for_selector("#cards li")
        assert page.locator("#cards li").evaluate_all(
            "items => items.map(i => i.dataset.seat || i.dataset.team)"
        ) == ["B"]
        own = [str(t) for t in page.locator("#moves .move").all_text_contents()]
        assert not [m for m in own if m.endswith("?") and not m.startswith("B ")], own
        assert page.locator(".valued:not(.fair)").count() == 0  # no open-hand figure
        _step_to_own_judged_decision(page, "B")
        best = page.locator(".seat-B .valued.fair.best svg").get_attribute("data-tile")
        assert page.locator("table.fair-now tr.best th").text_content() == best or str(
            page.locator("table.fair-now tr.best th").text_content()
        ).startswith(str(best))
        analysis = page.inner_text("#analysis")
        assert "Fair, from B" in analysis or "B to play" in analysis
        assert not re.search(r"Fair, from [ACD]\b", analysis)
        assert "Open hands" not in analysis
        if phone:
            _phone_first_screen(page)
            if shots is not None:
                page.screenshot(path=str(shots / "board-phone.png"))
        elif shots is not None:
            page.screenshot(path=str(shots / "board-story.png"))
        page.close()
    assert errors == [], errors


def _within(page: Any, selector: str, height: int) -> None:
    box = page.locator(selector).first.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, (
        selector,
        box,
    )


def _story_on_the_first_screen(page: Any) -> None:
    """At 1280 × 800 the hand's story needs no scrolling at a marked moment: the list of
    calls and plays, the graph with its axes labelled, the best play's values on the
    tiles and the moment's mark beside the position; on a 390 × 844 phone, that mark."""
    page.set_viewport_size({"width": 1280, "height": 800})
    page.keyboard.press("Home")
    for _ in range(40):
        if page.locator("#here-mark:not([hidden])").count():
            break
        page.keyboard.press("ArrowRight")
    mark = str(page.locator("#here-mark").text_content())
    assert mark in ("?", "??"), mark
    assert page.locator("#moves .move.here").text_content().endswith(mark)  # type: ignore[union-attr]
    page.evaluate("window.scrollTo(0, 0)")
    for sel in ("#moves", "#graph svg", ".valued", "#here-mark"):
        _within(page, sel, 800)
    ticks = page.locator("#graph text.tick").all_text_contents()
    assert {"0", "42", "1", "28", "play"} <= set(ticks), ticks
    page.set_viewport_size(PHONE)
    page.evaluate("window.scrollTo(0, 0)")
    _within(page, "#here-mark", PHONE["height"])


def _phone_first_screen(page: Any) -> None:
    """Your tiles and the step buttons need no scrolling; no name is cut; no keyboard
    hint on touch; the comment form's Save is beside its Add button."""
    page.evaluate("window.scrollTo(0, 0)")
    for sel in ("#prev", "#next", ".seat-B .hand"):
        box = page.locator(sel).bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (
            sel,
            box,
        )
    here = _position(page)
    page.keyboard.press("Home")
    for _ in range(39):  # every moment of the hand: whoever is to play, whatever the names
        cut = page.locator(".seat .name, .seat .turn").evaluate_all(
            "items => items.filter(i => i.offsetParent && i.scrollWidth > i.clientWidth + 1)"
            ".map(i => i.textContent)"
        )
        assert cut == [], (_position(page), cut)
        page.keyboard.press("ArrowRight")
    while _position(page) != here:
        page.keyboard.press("ArrowLeft")
    assert not page.locator("#keys").is_visible()
    add = page.locator("#comment-add").bounding_box()
    save = page.locator("#comment-save").bounding_box()
    assert add is not None and save is not None
    assert abs(add["y"] - save["y"]) < 4 and 0 < save["x"] - (add["x"] + add["width"]) < 40


def test_the_board_tells_the_hand_s_story_on_a_desktop_and_a_phone(
    browser: Any,  # noqa: F811
    board: Board,
    tmp_path: Path,
) -> None:
    story_path(browser, board, tmp_path)
    for name in ("board-story.png", "board-phone.png"):
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_comment_form_s_save_saves_and_says_so_beside_the_form(
    browser: Any,  # noqa: F811
    board: Board,
    tmp_path: Path,
) -> None:
    """On a phone, a comment is added and saved without scrolling back to the bar."""
    errors: list[str] = []
    page = _page(browser, board.url("seat B") + "&as=B#hand-1-8", errors, phone=True)
    assert page.locator("#comment-save").is_disabled()
    page.fill("#comment-text", "saved from the form")
    page.click("#comment-add")
    assert page.locator("#comment-save").is_enabled()
    page.click("#comment-save")
    page.wait_for_selector("#comment-status:text-is('saved')")
    assert page.locator("#comment-save").is_disabled()
    page.close()
    log = tmp_path / "game.json"
    assert "saved from the form" in log.read_text("utf-8")
    assert errors == [], errors


def test_the_review_of_a_hand_that_ended_early_shows_its_moves_and_says_why_no_analysis(
    browser: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    """Hand 2 of random-seed-11 ended after its first trick: the review's page lists its
    calls, declaration and plays (a review has one view of a hand, as it ended: the list
    is that view's own), and asking its analysis says why none is shown (R29) — where the
    page once listed nothing and said "hand 2 analysed" with nothing after it."""
    import shutil

    log = tmp_path / "game.json"
    shutil.copyfile(Path(__file__).parent.parent / "fixtures/valid/random-seed-11.json", log)
    b = start_board(log, "--review-link", "--worlds", "6")
    errors: list[str] = []
    try:
        page = _page(browser, b.url("the review") + "&as=review#hand-2-1", errors)
        assert _position(page).startswith("Hand 2 ")
        moves = [str(t) for t in page.locator("#moves .move").all_text_contents()]
        assert any(re.match(r"^[ABCD] \[\d\|\d\]", m) for m in moves), moves
        assert any(m.endswith(("pass", "30", "31", "32", "33", "34", "35")) for m in moves)
        page.click("#ask")
        page.wait_for_selector("#ask-status:has-text('R29')", timeout=60_000)
        said = page.inner_text("#ask-status")
        assert "ended before every tile was played" in said and "hand 2 analysed" not in said, said
        page.close()
    finally:
        b.stop()
    # the refusal is an HTTP 400, which the browser's console notes; nothing else may be
    assert [e for e in errors if "status of 400" not in e] == [], errors
