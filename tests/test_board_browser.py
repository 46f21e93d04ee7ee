"""``texas42 board`` in the real browser (Debian's headless Chromium, as the viewer's
tests): a person's path — open, step, switch seats, ask, comment, save, reload — and
two pages editing one comment."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .board_client import Board, start_board
from .test_viewer_browser import browser  # noqa: F401  (the module's Chromium)

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("browser")]

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "fixtures" / "valid" / "random-seed-11.json"


@pytest.fixture
def running(tmp_path: Path) -> Iterator[tuple[Board, Path]]:
    log = tmp_path / "game.json"
    shutil.copyfile(SAMPLE, log)
    b = start_board(log, "--worlds", "40")
    yield b, log
    b.stop()


def _open(browser: Any, url: str, errors: list[str]) -> Any:  # noqa: F811
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("dialog", lambda d: (errors.append("a dialog: " + d.message), d.dismiss()))
    page.goto(url)
    page.wait_for_selector("#table .seat")
    return page


def person_path(browser: Any, b: Board, log: Path, shot: Path | None = None) -> None:  # noqa: F811
    """Open the board, step, switch to seat B, ask the analysis, add two comments, save,
    reload: the comments are there and the log is valid. ``shot``: a screenshot of the
    board at the moment the comments are on (docs/board.png)."""
    errors: list[str] = []
    page = _open(browser, b.url(), errors)
    first = page.inner_text("#position")
    page.keyboard.press("ArrowRight")
    page.click("#next")
    assert page.inner_text("#position") != first
    # seat B: B's tiles face up at the bottom, the others' hidden
    page.select_option("#as", "B")
    page.wait_for_selector("body[data-observer='B']")
    assert "player B" in page.inner_text("#observer")
    assert page.locator(".seat-A .hand svg.domino:not(.back)").count() == 0
    assert page.locator(".seat-B .hand svg.domino:not(.back)").count() > 0
    # ask the fair analysis of hand 1: the progress, then B's plays judged
    page.click("#ask")
    page.wait_for_selector("#ask-status:has-text('analysed')", timeout=120_000)
    page.goto(b.url() + "&as=B#hand-1-8")  # after play 3, which B made
    page.wait_for_selector("body[data-observer='B']")
    page.wait_for_selector("#analysis:has-text('Fair, from B')")
    assert "Fair, from A" not in page.inner_text("#analysis")
    # two comments: on the play (with markup that must stay text) and on the hand
    page.fill("#comment-author", "Ana")
    page.fill("#comment-text", "Trumped <script>alert(1)</script> too soon")
    page.click("#comment-add")
    page.select_option("#comment-on", label="hand 1 (shown at its end)")
    page.fill("#comment-text", "A hand to study.")
    page.click("#comment-add")
    # a third, undone before the save
    page.fill("#comment-text", "never mind")
    page.click("#comment-add")
    page.click("#undo")
    assert "never mind" not in page.inner_text("#comments")
    page.click("#save")
    page.wait_for_selector("#save-status:text-is('saved')")
    page.reload()
    page.wait_for_selector("body[data-observer='B']")
    page.wait_for_selector("#comments li[data-id]")
    assert "Trumped <script>alert(1)</script> too soon" in page.inner_text("#comments")
    assert page.locator("script").count() == 4  # the page's own three; none from a comment
    # the hand's comment is shown at the hand's last moment (a view's rule)
    page.keyboard.press("PageDown")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#comments:has-text('A hand to study.')")
    if shot is not None:
        page.goto(b.url() + "&as=B#hand-1-8")
        page.wait_for_selector("#comments li[data-id]")
        page.screenshot(path=str(shot))
    page.close()
    assert errors == []
    texts = sorted(
        a["text"]
        for h in json.loads(log.read_text("utf-8"))["hands"]
        for obj in [h, *h.get("plays", [])]
        for a in obj.get("annotations", [])
    )
    assert texts == ["A hand to study.", "Trumped <script>alert(1)</script> too soon"]
    r = subprocess.run(
        [sys.executable, "-m", "texas42_log", "validate", str(log)], capture_output=True, text=True
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_a_person_reviews_comments_saves_and_reloads(
    browser: Any,  # noqa: F811
    running: tuple[Board, Path],
    tmp_path: Path,
) -> None:
    b, log = running
    shot = tmp_path / "board.png"
    person_path(browser, b, log, shot)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_two_pages_editing_one_comment_the_second_sees_both_texts(
    browser: Any,  # noqa: F811
    running: tuple[Board, Path],
) -> None:
    b, log = running
    added = b.request(
        "POST",
        "/api/save",
        {"version": 1, "changes": [{"op": "add", "on": {"hand": 1, "play": 2}, "text": "first"}]},
        who="seat C",  # seat C wrote it: its address and the owner's may edit it
    ).json()
    errors: list[str] = []
    pages = [_open(browser, b.url(who) + "&as=" + s + "#hand-1-7", errors)
             for who, s in (("the board", "omniscient"), ("seat C", "C"))]  # fmt: skip
    for page, text in zip(pages, ("the board's edit", "seat C's edit"), strict=True):
        page.wait_for_selector("#comments li[data-id] .edit")
        page.click("#comments li[data-id] .edit")
        page.fill("#comment-text", text)
        page.click("#comment-add")
    pages[0].click("#save")
    pages[0].wait_for_selector("#save-status:text-is('saved')")
    pages[1].click("#save")
    pages[1].wait_for_selector("#conflicts li")
    said = pages[1].inner_text("#conflicts")
    assert "changed meanwhile" in said and "the board's edit" in said and "seat C's edit" in said
    # nothing lost: keep mine, and it lands on the text it now knows
    pages[1].click("#conflicts .keep-mine")
    pages[1].click("#save")
    pages[1].wait_for_selector("#save-status:text-is('saved')")
    assert "seat C's edit" in log.read_text("utf-8")
    assert added["ids"][0] in log.read_text("utf-8")
    for page in pages:
        page.close()
    assert errors == []


@pytest.mark.parametrize(
    ("lang", "ask", "comments"),
    [("tr", "Analizi iste", "Yorumlar"), ("uk", "Запитати аналіз", "Коментарі")],
)
def test_the_board_speaks_the_language_of_its_views(
    browser: Any,  # noqa: F811
    tmp_path: Path,
    lang: str,
    ask: str,
    comments: str,
) -> None:
    log = tmp_path / "game.json"
    shutil.copyfile(SAMPLE, log)
    b = start_board(log, "--lang", lang)
    errors: list[str] = []
    try:
        page = _open(browser, b.url(), errors)
        page.wait_for_selector(f"#ask:text-is('{ask}')")
        assert page.inner_text("#comments-title") == comments
        assert page.get_attribute("html", "lang") == lang
        page.close()
    finally:
        b.stop()
    assert errors == []
