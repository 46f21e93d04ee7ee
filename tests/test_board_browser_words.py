"""Every word kept, in the real browser: a seat's page changes only its own comments,
an edit keeps who wrote the comment, a page's unsaved comment survives a restart of
the board and lands, and the step keys step the moment wherever the focus is."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .board_client import Board, start_board
from .test_board_browser import _open
from .test_viewer_browser import browser  # noqa: F401  (the module's Chromium)

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("browser")]

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "fixtures" / "valid" / "random-seed-11.json"


@pytest.fixture
def log(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "game.json"
    shutil.copyfile(SAMPLE, path)
    yield path


def _add(b: Board, text: str, who: str, author: str | None = None) -> str:
    v = b.request("GET", "/api/about").json()["version"]
    change: dict[str, Any] = {"op": "add", "on": {"hand": 1, "play": 2}, "text": text}
    if author:
        change["author"] = author
    r = b.request("POST", "/api/save", {"version": v, "changes": [change]}, who=who)
    assert r.status == 200 and r.json()["saved"], r.body
    key: str = r.json()["ids"][0]
    return key


def _notes(log: Path) -> list[dict[str, Any]]:
    doc = json.loads(log.read_text("utf-8"))
    return [a for h in doc["hands"] for p in h["plays"] for a in p.get("annotations", [])]


def test_a_seat_page_changes_only_its_own_and_an_edit_keeps_the_writer(
    browser: Any,  # noqa: F811
    log: Path,
) -> None:
    b = start_board(log)
    errors: list[str] = []
    try:
        owners = _add(b, "the owner's note", "the board")
        mine = _add(b, "A's own note", "seat A", author="Ana")
        page = _open(browser, b.url("seat A") + "&as=A#hand-1-7", errors)
        page.wait_for_selector(f"#comments li[data-id='{mine}']")
        assert page.locator(f"#comments li[data-id='{owners}'] .edit").count() == 0
        assert page.locator(f"#comments li[data-id='{owners}'] .remove").count() == 0
        assert page.locator(f"#comments li[data-id='{mine}'] .edit").count() == 1
        page.close()
        # the owner edits A's note: the Author field stays the owner's own
        page = _open(browser, b.url() + "&as=omniscient#hand-1-7", errors)
        page.fill("#comment-author", "Teacher")
        page.wait_for_selector(f"#comments li[data-id='{mine}'] .edit")
        page.click(f"#comments li[data-id='{mine}'] .edit")
        assert page.input_value("#comment-author") == "Teacher"
        page.fill("#comment-text", "A's note, corrected")
        page.click("#comment-add")
        page.click("#save")
        page.wait_for_selector("#save-status:text-is('saved')")
        page.wait_for_selector(f"#comments li[data-id='{mine}']:has-text('— Ana')")
        assert "Teacher" not in page.inner_text(f"#comments li[data-id='{mine}']")
        page.close()
    finally:
        b.stop()
    by_id = {n["id"]: n for n in _notes(log)}
    assert by_id[mine]["text"] == "A's note, corrected"
    assert (by_id[mine]["author"], by_id[mine]["seat"], by_id[mine]["edited_by"]) == (
        "Ana",
        "A",
        "owner",
    )
    assert errors == []


def test_an_unsaved_comment_survives_a_restart_and_a_seat_link_still_works(
    browser: Any,  # noqa: F811
    log: Path,
) -> None:
    b = start_board(log)
    errors: list[str] = []
    page = _open(browser, b.url("seat B") + "&as=B#hand-1-7", errors)
    page.fill("#comment-text", "written before the restart")
    page.click("#comment-add")
    b.stop()
    again = start_board(log)
    try:
        assert again.tokens == b.tokens and again.port == b.port
        page.click("#save")
        page.wait_for_selector("#save-status:text-is('saved')")
        # the link handed round before the restart opens after it; at B's decision the
        # comment went on B's coming play (On's first choice there), shown from play 3 on
        other = _open(browser, b.url("seat B") + "&as=B#hand-1-8", errors)
        other.wait_for_selector("#comments:has-text('written before the restart')")
        other.close()
    finally:
        again.stop()
    page.close()
    (note,) = [n for n in _notes(log) if n["text"] == "written before the restart"]
    assert note["seat"] == "B"
    assert errors == [] or all("Failed to load resource" in e for e in errors), errors


def test_a_page_keeps_its_changes_while_the_board_is_away_and_saves_them_on_return(
    browser: Any,  # noqa: F811
    log: Path,
) -> None:
    b = start_board(log)
    errors: list[str] = []
    page = _open(browser, b.url() + "&as=omniscient#hand-1-7", errors)
    page.fill("#comment-text", "saved once the board is back")
    page.click("#comment-add")
    b.stop()
    page.click("#save")
    page.wait_for_selector("#save-status.problem")
    assert "kept here" in page.inner_text("#save-status")
    again = start_board(log)
    try:  # the page looks every 4 s; once the board answers it saves what it kept
        page.wait_for_selector("#save-status:text-is('saved')", timeout=30_000)
    finally:
        again.stop()
    page.close()
    assert [n["text"] for n in _notes(log)] == ["saved once the board is back"]


def test_with_the_observer_menu_focused_the_step_keys_step_the_moment(
    browser: Any,  # noqa: F811
    log: Path,
) -> None:
    b = start_board(log)
    errors: list[str] = []
    try:
        page = _open(browser, b.url() + "&as=B", errors)
        page.focus("#as")
        before = page.inner_text("#position")
        for key in ("ArrowRight", "ArrowDown", "PageDown", "ArrowUp", "ArrowRight"):
            page.keyboard.press(key)
        assert page.inner_text("#position") != before
        assert page.input_value("#as") == "B"
        assert page.get_attribute("body", "data-observer") == "B"
        # typed into a text field, a key is text, not a step
        at = page.inner_text("#position")
        page.focus("#comment-text")
        page.keyboard.press("ArrowRight")
        assert page.inner_text("#position") == at
        page.close()
    finally:
        b.stop()
    assert errors == []


def test_on_offers_the_action_at_hand(browser: Any, log: Path) -> None:  # noqa: F811
    """At a seat's decision (it is to play), the comment's "On" offers the play just made
    and the play the seat to play is about to make (the action at hand): chosen first on
    the address of the seat to play, second on the owner's."""
    b = start_board(log)
    errors: list[str] = []
    try:
        for who, observer in (("seat B", "B"), ("the board", "omniscient")):
            page = _open(browser, b.url(who) + f"&as={observer}#hand-1-7", errors)
            page.wait_for_selector("#comment-on option", state="attached")
            position = str(page.locator("#position").text_content())
            played = int(re.search(r"after play (\d+)", position)[1])  # type: ignore[index]
            to_play = str(page.locator(".seat.to-play .name").first.text_content())[0]
            assert to_play == "B"
            labels = page.locator("#comment-on option").all_text_contents()
            coming, just = (0, 1) if observer == "B" else (1, 0)
            assert labels[just].startswith(f"play {played}") and "·" not in labels[just], labels
            assert labels[coming].startswith(f"play {played + 1}"), labels
            assert labels[coming].endswith(to_play), labels
            chosen = page.eval_on_selector("#comment-on", "s => s.options[s.selectedIndex].text")
            assert chosen == labels[0]
            page.close()
        assert not errors
    finally:
        b.stop()
