"""The viewer's board at phone to desktop widths, in every language, in Chromium:
no horizontal scroll, no two boxes overlapping (seats, tiles, captions, the score
box, the auction), pips at least 4 px across; the seeds' five example views are
moments of the viewer; the match page.

The layout is measured in the page: one script steps through every moment and
returns what it found wrong, so a width × language × log costs one page load.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.test_viewer_browser import FIX, Page, browser, write  # noqa: F401  (browser: a fixture)
from tests.test_views import SEED_TEXT, SEED_VIEWS
from texas42_log.files.validate import read_match
from texas42_log.log.model import Match
from texas42_log.play.generate import random_match

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("browser")]

WIDTHS = (360, 390, 800, 1280, 1920)
LANGS = ("en", "tr", "uk")


def _grid() -> list[Any]:
    """Every width × language: English at every width, the other languages at the
    narrowest and the widest; their middle widths in the long selection (conftest.py)."""
    return [
        pytest.param(
            width,
            lang,
            marks=[pytest.mark.long] if lang != "en" and width not in (360, 1920) else [],
        )
        for width in WIDTHS
        for lang in LANGS
    ]


#: Steps through up to ``limit`` moments from the first and returns every problem:
#: a page wider than the window, a box past its edge, two boxes that overlap (one
#: inside the other in the DOM is not an overlap: a tile in its seat), a box whose
#: content is wider than it, a pip under 4 px. Covered stacks are one box (their tiles lie on one
#: another on purpose).
MEASURE = """(limit) => {
  const problems = [];
  const W = window.innerWidth;
  const sel = ['.seat', '#table svg.domino', '#won svg.domino', '.pile', '.trick-caption', '#score',
               '#auction-box', '.order', '.stack .label', '#trick-area .trick-title'];
  const where = () => document.getElementById('position').textContent;
  for (let n = 0; n < limit; n++) {
    if (document.documentElement.scrollWidth > W) {
      problems.push(where() + ': the page is ' + document.documentElement.scrollWidth +
                    ' px wide in ' + W);
    }
    const items = [];
    for (const s of sel) {
      for (const e of document.querySelectorAll(s)) {
        if (e.closest('.pile') && e.tagName.toLowerCase() === 'svg') continue;
        const r = e.getBoundingClientRect();
        if (r.width < 0.5 || r.height < 0.5) continue;
        items.push([e, r, s]);
        if (r.left < -0.5 || r.right > W + 0.5) {
          problems.push(where() + ': ' + s + ' past the edge');
        }
      }
    }
    for (let i = 0; i < items.length; i++) {
      for (let j = i + 1; j < items.length; j++) {
        const [a, ra, sa] = items[i], [b, rb, sb] = items[j];
        if (a === b || a.contains(b) || b.contains(a)) continue;
        const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
        const h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
        if (w > 0.5 && h > 0.5) {
          problems.push(where() + ': ' + sa + ' ' + (a.dataset.tile || a.dataset.seat || '') +
                        ' overlaps ' + sb + ' ' + (b.dataset.tile || b.dataset.seat || '') +
                        ' by ' + w.toFixed(1) + '×' + h.toFixed(1));
        }
      }
    }
    const boxes = '#score, #auction-box, .seat, #won-area, #trick-area';
    for (const e of document.querySelectorAll(boxes)) {
      if (e.scrollWidth > e.clientWidth + 1) {
        problems.push(where() + ': ' + (e.id || e.className) + ' holds more than its width');
      }
    }
    for (const c of document.querySelectorAll('main svg.domino circle')) {
      const r = c.getBoundingClientRect();
      if (r.width < 3.99) {
        problems.push(where() + ': a pip ' + r.width.toFixed(2) + ' px across');
        break;
      }
    }
    if (document.getElementById('next').disabled) break;
    document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight'}));
  }
  return problems.slice(0, 12);
}"""


def _long_names(doc: dict[str, Any]) -> dict[str, Any]:
    doc["players"] = {
        "A": "Ana " * 30,
        "B": "\u202eBert" + "N" * 300,
        "C": "Cleo",
        "D": "Dov\u200b" * 20,
    }
    return doc


def _logs() -> dict[str, tuple[Match, str, str]]:
    """name → (match, observer, first moment): covered stacks, an analysed omniscient
    page (every seat's faces, the tile values), a seat with hostile long names."""
    from tests.test_viewer_browser import _analysed_worked_example

    views = read_match((FIX / "seed-example-views.json").read_bytes())
    seat = Match.model_validate(_long_names(random_match(5, max_hands=2)))
    return {
        "stacks": (views, "public", "#hand-2-1"),
        "omniscient": (_analysed_worked_example(), "omniscient", "#hand-3-1"),  # hand 3 analysed
        "seat-long-names": (seat, "B", "#hand-1-1"),
    }


@pytest.mark.parametrize(("width", "lang"), _grid())
def test_the_board_fits_and_nothing_overlaps(
    browser: Any, tmp_path: Path, width: int, lang: str
) -> None:
    for name, (match, observer, start) in _logs().items():
        path = write(tmp_path, match, observer, lang, name=f"{name}.html")
        page = browser.new_page(viewport={"width": width, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        page.goto(path.as_uri() + start)
        assert page.evaluate(MEASURE, 40) == [], (name, width, lang)
        # The match page fits too.
        page.keyboard.press("m")
        assert page.locator("#match-page").is_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= width, (name, "match page")
        assert errors == []
        page.close()


def test_the_own_hand_is_the_largest(browser: Any, tmp_path: Path) -> None:
    m = Match.model_validate(random_match(8, max_hands=1))
    for width in (360, 1280):
        page = browser.new_page(viewport={"width": width, "height": 900})
        page.goto(write(tmp_path, m, "C", name=f"c{width}.html").as_uri() + "#hand-1-2")
        sizes = page.eval_on_selector_all(
            ".seat",
            "els => els.map(e => [e.dataset.seat, e.classList.contains('at-bottom'),"
            " Math.max(0, ...[...e.querySelectorAll('svg.domino')].map(s => "
            "s.getBoundingClientRect().height))])",
        )
        own = [h for s, bottom, h in sizes if s == "C"]
        assert [s for s, bottom, _ in sizes if bottom] == ["C"]  # the observer sits at the bottom
        assert own and all(own[0] > h for s, _, h in sizes if s != "C"), sizes
        page.close()


def test_whose_turn_is_on_the_board(browser: Any, tmp_path: Path) -> None:
    m = read_match((FIX / "seed-worked-example.json").read_bytes())
    page = Page(browser, write(tmp_path, m, "public"))
    # D dealt: A calls first. After call 1 (A 30) B is to bid.
    first = page.page.locator(".seat.to-play")
    assert first.get_attribute("data-seat") == "B" and "to bid" in str(
        first.locator(".turn").text_content()
    )
    assert page.page.locator("#auction td.next").count() == 1
    page.step_to("after the declaration")  # A to play
    turn = page.page.locator(".seat.to-play")
    assert turn.count() == 1 and turn.get_attribute("data-seat") == "A"
    assert turn.locator(".turn").is_visible() and "to play" in str(
        turn.locator(".turn").text_content()
    )
    page.press("ArrowRight")  # A led: B to play
    assert page.page.locator(".seat.to-play").get_attribute("data-seat") == "B"
    # The score box: marks, hand points, tricks; the auction as a bidding box.
    assert page.page.locator("#score [data-marks='A+C']").text_content() == "0"
    assert page.page.locator("#score [data-tricks='B+D']").text_content() == "0"
    calls = page.page.locator("#auction td.call").evaluate_all(
        "els => els.map(e => [e.textContent, e.className])"
    )
    assert calls == [
        ["30", "call winning"],
        ["pass", "call pass"],
        ["pass", "call pass"],
        ["pass", "call pass"],
    ]
    heads = page.page.locator("#auction th").evaluate_all(
        "els => els.map(e => e.firstChild.textContent)"
    )
    assert heads == ["A", "B", "C", "D"]  # D dealt: A calls first
    page.press("ArrowRight", 3)  # trick 1 complete: D won 16, the hand is over
    assert page.page.locator(".seat.to-play").count() == 0
    assert page.page.locator("#score [data-points='B+D']").text_content() == "16"
    assert page.page.locator("#score [data-tricks='B+D']").text_content() == "1"
    assert page.errors == []


@pytest.mark.parametrize(
    "lang", [lang if lang == "en" else pytest.param(lang, marks=pytest.mark.long) for lang in LANGS]
)
def test_the_seeds_five_views_are_moments_of_the_viewer(
    browser: Any, tmp_path: Path, lang: str
) -> None:
    """Each of the seeds' example views is a moment the viewer steps to: its
    description (the board's label) is the seed's text, the won tricks are labelled
    as the seed draws them ("Löve 1 · B + D"), with the seed's legend."""
    from texas42_log.views.locales import catalogue

    m = catalogue(lang)
    found: dict[str, str] = {}
    pages: dict[str, Page] = {}
    for name, (fixture, hand, _) in SEED_VIEWS.items():
        if fixture not in pages:
            match = read_match((FIX / fixture).read_bytes())
            pages[fixture] = Page(
                browser, write(tmp_path, match, "public", lang, name=f"{Path(fixture).stem}.html")
            )
        page = pages[fixture]
        page.page.goto(page.path.as_uri() + f"#hand-{hand + 1}-1")
        page.page.reload()
        while True:
            label = page.page.locator("#board").get_attribute("aria-label") or ""
            if label == SEED_TEXT[lang][name]:
                found[name] = page.text("#position")
                break
            if page.page.locator("#next").is_disabled() or f"#hand-{hand + 2}-" in page.page.url:
                break
            page.press("ArrowRight")
        assert name in found, (name, lang)
        seed_labels = {
            "1-following-fives": [],
            "2-trump-wins-contract-fails": [(1, "B + D")],
            "3-point-contract-three-visible-tricks": [(1, "A + C"), (2, "A + C"), (3, "A + C")],
            "4-one-stack": [(1, "A + C"), (2, "A + C"), (3, "A + C")],
            "5-two-stacks": [(1, "A + C"), (2, "A + C"), (3, "A + C")],
        }[name]
        labels = page.page.locator("#won .stack .label").evaluate_all(
            "els => els.map(e => e.textContent)"
        )
        assert labels == [m["ui.won_label"].format(number=k, team=t) for k, t in seed_labels]
        assert page.text("#legend") == m["ui.legend"]
        if not seed_labels:
            assert page.text("#won") == m["ui.no_won"]
        if name == "2-trump-wins-contract-fails":
            assert page.text(".trick-caption") == m["trick.won"].format(
                number=1, seat="D", points=16
            )
        if name.startswith(("3", "4", "5")):
            assert (
                page.page.locator("#table .played").count() == 0
            )  # after trick 3: the table is empty
            covered = page.page.locator("#won .stack.covered .pile").count()
            assert covered == {"3": 0, "4": 2, "5": 1}[name[0]]
    # The seeds' words in the page's own language, letter for letter.
    assert {"tr": "Löve 1 · B + D", "uk": "Взятка 1 · B + D", "en": "Trick 1 · B + D"}[lang] == m[
        "ui.won_label"
    ].format(number=1, team="B + D")
    for p in pages.values():
        assert p.errors == []


def test_the_match_page_charts_the_marks_and_links_each_hand(browser: Any, tmp_path: Path) -> None:
    m = read_match((FIX / "seed-worked-example.json").read_bytes())
    page = Page(browser, write(tmp_path, m, "public"))
    page.page.click("#match-btn")
    assert (
        page.page.locator("#match-page").is_visible()
        and not page.page.locator("#hand-page").is_visible()
    )
    assert page.page.url.endswith("#match")
    data = json.loads(str(page.page.locator("#t42-data").text_content()))
    expected = [(h["number"], h["views"][-1]["view"]["marks"]) for h in data["hands"]]
    dots = page.page.locator("#chart circle").evaluate_all(
        "els => els.map(e => [e.dataset.team, Number(e.dataset.hand), Number(e.dataset.marks)])"
    )
    assert sorted(dots) == sorted([t, n, marks[t]] for n, marks in expected for t in ("A+C", "B+D"))
    final = expected[-1][1]
    assert max(final.values()) >= 7  # the match was won, and the chart ends there
    items = page.page.locator("#hand-list li")
    assert items.count() == len(m.hands)
    assert "Point bid: 30" in str(items.nth(0).text_content())
    assert "Contract set; marks to B+D: 1." in str(items.nth(0).text_content())
    page.page.click("#hand-list li:nth-child(3) a")
    assert page.page.locator("#hand-page").is_visible()
    assert page.text("#position").startswith("Hand 3 · after call 1")
    page.press("m")
    assert page.page.locator("#match-page").is_visible()
    page.press("Escape")
    assert page.text("#position").startswith("Hand 3")
    assert page.errors == [] and page.requests == [page.path.as_uri()]


def test_hostile_names_on_the_board_and_the_match_page_are_text(
    browser: Any, tmp_path: Path
) -> None:
    """The new parts (score box, bidding box, seats' labels, the match page) set log
    text as text, each string isolated: no markup, no script, no reordering."""
    doc = json.loads((FIX / "seed-worked-example.json").read_text("utf-8"))
    doc["players"] = {
        "A": '<img src=x onerror="window.__pwned=1">',
        "B": "\u202e[6|6] B",
        "C": "</bdi><b>C</b>",
        "D": "{{DATA}}\u2028D",
    }
    page = Page(browser, write(tmp_path, Match.model_validate(doc), "public"))
    for _ in range(12):
        page.press("ArrowRight")
        assert page.page.locator("main img, main b, main script").count() == 0
    names = page.page.eval_on_selector_all(".seat .name bdi", "els => els.map(e => e.textContent)")
    assert sorted(names) == sorted(doc["players"].values())
    page.press("m")
    assert page.page.locator("#match-page img, #match-page b, #match-page script").count() == 0
    assert page.page.evaluate("typeof window.__pwned") == "undefined"
    assert page.errors == [] and page.dialogs == [] and page.requests == [page.path.as_uri()]
