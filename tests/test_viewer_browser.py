"""The HTML viewer in headless Chromium (Debian's ``chromium``, installed by
``tools/install-chromium.sh``; driven by Playwright with ``executable_path``).

These tests do not skip: without Chromium they fail and say how to install it.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright import sync_api as playwright_api

from texas42_log.files.assets import viewer_asset
from texas42_log.files.validate import read_match
from texas42_log.log.model import Match
from texas42_log.play.generate import random_match
from texas42_log.views.html import render_html
from texas42_log.views.visibility import match_views

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("browser")]


FIX = Path(__file__).resolve().parent.parent / "fixtures" / "valid"
CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TILE = re.compile(r"\[[0-6]\|[0-6]\]")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.fail(
            "Chromium is missing: run `bash tools/install-chromium.sh` (Debian's chromium package)"
        )
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


class Page:
    """A rendered page opened from file://, recording errors, dialogs and requests."""

    def __init__(self, browser: Any, path: Path) -> None:
        self.path = path
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.requests: list[str] = []
        self.page = browser.new_page(viewport={"width": 1200, "height": 900})
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.goto(path.as_uri())

    def text(self, selector: str) -> str:
        return str(self.page.locator(selector).text_content())

    def tiles_in_dom(self) -> set[str]:
        return set(TILE.findall(self.page.content()))

    def press(self, key: str, times: int = 1) -> None:
        for _ in range(times):
            self.page.keyboard.press(key)

    def step_to(self, text: str, limit: int = 400) -> None:
        """→ until the position reads ``text``."""
        for _ in range(limit):
            if text in self.text("#position"):
                return
            self.press("ArrowRight")
        raise AssertionError(f"no moment {text!r} within {limit} steps")


def write(
    tmp_path: Path, match: Match, observer: str, lang: str = "en", name: str = "page.html"
) -> Path:
    out = tmp_path / name
    out.write_text(render_html(match, observer, lang, assets=viewer_asset), "utf-8")  # type: ignore[arg-type]
    return out


def view_tiles(v: dict[str, Any]) -> set[str]:
    """Every tile a view dict holds."""
    return set(TILE.findall(json.dumps(v)))


def test_step_with_keys_and_buttons_and_see_one_stack(browser: Any, tmp_path: Path) -> None:
    m = read_match((FIX / "seed-example-views.json").read_bytes())
    page = Page(browser, write(tmp_path, m, "public"))
    assert "Hand 1 · after call 1" in page.text("#position")
    page.press("PageDown")  # hand 2: all tricks, one stack
    assert "Hand 2 · after call 1" in page.text("#position")
    page.press("ArrowRight", 3)  # calls 2 and 3, then the last: the auction
    assert "Hand 2 · after the auction" in page.text("#position")
    page.press("ArrowRight", 15)  # the declaration, plays 1–12 and tricks 1 and 2 collected
    assert "Hand 2 · after play 12 (trick 3)" in page.text("#position")
    stacks = page.page.locator("#won .stack")
    assert stacks.count() == 3
    faces = {
        n: set(
            stacks.nth(n - 1)
            .locator("[data-tile]")
            .evaluate_all("els => els.map(e => e.dataset.tile)")
        )
        for n in (1, 2, 3)
    }
    assert faces == {1: set(), 2: set(), 3: {"[0|4]", "[1|4]", "[3|4]", "[4|4]"}}
    assert "covered" in (stacks.nth(0).get_attribute("class") or "")
    # The trick on the table: four tiles with their play-order numbers.
    orders = page.page.locator("#table .played").evaluate_all(
        "els => els.map(e => [e.dataset.order, e.querySelector('[data-tile]').dataset.tile])"
    )
    assert orders == [["1", "[4|4]"], ["2", "[0|4]"], ["3", "[1|4]"], ["4", "[3|4]"]]
    # The accessible label is the seeds' description of this moment.
    label = page.page.locator("#board").get_attribute("aria-label") or ""
    assert label.startswith(
        "Contract: All tricks · mark value: 1; No trump; During the hand only the last"
    )
    assert "Visible won faces: 3 (A+C) [0|4], [1|4], [3|4], [4|4]." in label
    # Back one play with the button, forward with the key, back a hand with the key.
    page.page.click("#prev")
    assert "after play 11 (trick 3)" in page.text("#position")
    assert page.page.locator("#won .stack:not(.covered)").count() == 1
    page.press("ArrowRight")
    assert "after play 12" in page.text("#position")
    page.page.click("#next")  # trick 3 collected: the table is empty, the trick in its stack
    assert "after trick 3" in page.text("#position")
    assert page.page.locator("#table .played").count() == 0
    page.page.click("#next")
    assert "after play 13 (trick 4)" in page.text("#position")
    page.press("PageUp")
    assert "Hand 1 · after call 1" in page.text("#position")
    page.press("ArrowLeft")  # already at the start: stays
    assert "Hand 1 · after call 1" in page.text("#position")
    assert page.page.locator("#prev").is_disabled()
    page.press("End")
    assert page.page.locator("#next").is_disabled()
    page.page.screenshot(path=str(tmp_path / "viewer.png"), full_page=True)
    assert (tmp_path / "viewer.png").stat().st_size > 10_000
    assert page.errors == [] and page.dialogs == []
    assert page.requests == [page.path.as_uri()]


def test_dom_holds_only_what_the_observer_may_see_at_every_step(
    browser: Any, tmp_path: Path
) -> None:
    doc = random_match(77, max_hands=3)
    m = Match.model_validate(doc)
    for observer in ("C", "public"):
        expected = match_views(m, observer)  # type: ignore[arg-type]
        page = Page(browser, write(tmp_path, m, observer, name=f"{observer}.html"))
        for h, views in enumerate(expected):
            for i, v in enumerate(views):
                allowed = view_tiles(v.as_dict())
                shown = set(
                    page.page.locator("main [data-tile]").evaluate_all(
                        "els => els.map(e => e.dataset.tile)"
                    )
                )
                assert shown <= allowed, (observer, h, i, shown - allowed)
                text_tiles = set(TILE.findall(page.text("main")))
                assert text_tiles <= allowed, (observer, h, i)
                page.press("ArrowRight")
        assert page.errors == []


def test_page_source_has_no_tile_nobody_played(browser: Any, tmp_path: Path) -> None:
    """One hand that ended after trick 1: 24 tiles never played are nowhere in the file or DOM."""
    doc = json.loads((FIX / "seed-worked-example.json").read_text("utf-8"))
    doc["hands"] = doc["hands"][:1]
    doc["status"] = "unfinished"
    doc.pop("result")
    m = Match.model_validate(doc)
    played = {"[5|5]", "[3|5]", "[0|5]", "[6|6]"}
    a_hand = set(doc["hands"][0]["deal"]["A"])
    for observer, allowed in (("public", played), ("review", played), ("A", played | a_hand)):
        path = write(tmp_path, m, observer, name=f"{observer}.html")
        assert set(TILE.findall(path.read_text("utf-8"))) <= allowed, observer
        page = Page(browser, path)
        for _ in range(8):
            assert page.tiles_in_dom() <= allowed, observer
            page.press("ArrowRight")


def test_names_and_annotations_are_text_never_markup(browser: Any, tmp_path: Path) -> None:
    doc = json.loads((FIX / "annotations-extensions-rejected.json").read_text("utf-8"))
    doc = copy.deepcopy(doc)
    doc["players"] = {
        "A": "<script>window.__pwned = 1</script>",
        "B": "\"quoted\" & 'single' <b>bold</b>",
        "C": '<img src=x onerror="window.__pwned=2">',
        "D": "</script><script>alert(1)</script>",
    }
    doc["annotations"].append({"text": "<svg onload=alert(2)></svg> {{DATA}} \u2028 end"})
    m = Match.model_validate(doc)
    page = Page(browser, write(tmp_path, m, "public"))
    assert page.page.evaluate("typeof window.__pwned") == "undefined"
    assert page.page.locator("main img, main b, #text script").count() == 0
    body = page.text("#text")
    assert "<script>window.__pwned = 1</script>" in body  # shown, as text
    assert "\"quoted\" & 'single' <b>bold</b>" in body
    assert "<svg onload=alert(2)></svg> {{DATA}}" in body
    assert page.dialogs == [] and page.errors == []
    assert page.requests == [page.path.as_uri()]  # nothing outside the file is fetched
    csp = (
        page.page.locator("meta[http-equiv=Content-Security-Policy]").get_attribute("content") or ""
    )
    assert "default-src 'none'" in csp and "script-src 'sha256-" in csp


def test_csp_blocks_what_the_page_did_not_bring(browser: Any, tmp_path: Path) -> None:
    """Even markup slipped into the page could not load or run anything."""
    m = read_match((FIX / "seed-worked-example.json").read_bytes())
    path = write(tmp_path, m, "public")
    page = Page(browser, path)
    violations, ran = page.page.evaluate(
        """() => new Promise(done => {
            const seen = [];
            document.addEventListener(
              'securitypolicyviolation', e => seen.push(e.violatedDirective));
            const s = document.createElement('script');
            s.textContent = 'window.__injected = 1';
            document.body.appendChild(s);
            const i = document.createElement('img');
            i.src = 'http://example.invalid/x.png';
            document.body.appendChild(i);
            const l = document.createElement('link');
            l.rel = 'stylesheet';
            l.href = 'http://example.invalid/x.css';
            document.head.appendChild(l);
            setTimeout(() => done([seen, typeof window.__injected]), 200);
        })"""
    )
    assert ran == "undefined"
    assert {"script-src-elem", "img-src", "style-src-elem"} <= set(violations), violations


@pytest.mark.parametrize("lang,word", [("tr", "Kontrat"), ("uk", "Контракт")])
def test_languages_in_the_page(browser: Any, tmp_path: Path, lang: str, word: str) -> None:
    m = read_match((FIX / "seed-worked-example.json").read_bytes())
    page = Page(browser, write(tmp_path, m, "B", lang=lang))
    assert page.page.locator("html").get_attribute("lang") == lang
    page.press("ArrowRight", 3)
    assert word in (page.page.locator("#board").get_attribute("aria-label") or "")
    assert page.errors == []


def test_omniscient_page_says_so(browser: Any, tmp_path: Path) -> None:
    m = read_match((FIX / "seed-worked-example.json").read_bytes())
    page = Page(browser, write(tmp_path, m, "omniscient"))
    assert page.page.locator("#observer.omniscient").count() == 1
    assert "OMNISCIENT" in page.text("#observer")
    assert "OMNISCIENT" in page.page.title()


def test_a_review_of_a_match_in_play_names_the_hand_it_cannot_show(
    browser: Any, tmp_path: Path
) -> None:
    m = read_match((FIX / "unfinished-mid-trick.json").read_bytes())
    page = Page(browser, write(tmp_path, m, "review"))
    note = page.page.locator("#in-play")
    assert note.is_visible() and note.text_content() == (
        "Hand 3 is still being played: a review shows a hand once it has ended (R29)."
    )
    hands = page.page.evaluate("JSON.parse(document.getElementById('t42-data').textContent).hands")
    assert [h["number"] for h in hands] == [1, 2]  # the finished hands, and nothing of hand 3
    page.press("PageDown")
    assert page.page.locator("#next-hand").is_disabled()  # hand 2 is the last one there is
    finished = read_match((FIX / "seed-worked-example.json").read_bytes())
    assert (
        Page(browser, write(tmp_path, finished, "review", name="done.html"))
        .page.locator("#in-play")
        .is_hidden()
    )
    assert page.errors == []


def test_nello_partner_is_shown_sitting_out(browser: Any, tmp_path: Path) -> None:
    m = read_match((FIX / "variant-plunge-l-forced-bid-nello.json").read_bytes())
    hand = next(
        i for i, h in enumerate(m.hands) if h.declaration and h.declaration.contract == "nello"
    )
    page = Page(browser, write(tmp_path, m, "public"))
    page.press("PageDown", hand)
    page.step_to("after play 3 (trick 1)")  # one trick of 3 tiles
    assert page.page.locator("#table .played").count() == 3
    seat = page.page.locator(".seat.sits-out")
    assert seat.count() == 1 and "sits out" in (seat.text_content() or "")
    assert page.errors == []


def test_log_strings_are_bidi_isolated_and_held_once(browser: Any, tmp_path: Path) -> None:
    """A U+202E in a name cannot carry the text after it (a count, a tile) into the
    name's direction: every log string stands in its own <bdi>. And a long name or
    note is in the page once, not once per moment."""
    doc = json.loads((FIX / "seed-worked-example.json").read_text("utf-8"))
    fake = "\u202e[6|6] (7) "
    doc["players"] = {"A": fake + "Ana", "B": "N" * 100_000, "C": "Cleo", "D": "Dov"}
    doc["hands"][0]["annotations"] = [{"text": "W" * 100_000, "author": "\u202ecoach"}]
    m = Match.model_validate(doc)
    path = write(tmp_path, m, "public")
    source = path.read_text("utf-8")
    assert source.count("N" * 100_000) == 1 and source.count("W" * 100_000) == 1
    assert len(source) < 600_000  # 11 hands, dozens of moments: the strings are not repeated
    page = Page(browser, path)
    names = page.page.eval_on_selector_all(
        ".seat .name", "els => els.map(e => [e.textContent, e.querySelectorAll('bdi').length])"
    )
    assert [n for _, n in names] == [1, 1, 1, 1]
    a = page.page.locator(".seat-A .name bdi").text_content()
    assert a == fake + "Ana"  # the name itself, whole, inside its isolate
    # the count stays outside the name's isolate, where the seat label puts it
    assert (
        page.page.locator(".seat-A .name").evaluate("e => e.lastChild.textContent").startswith(" (")
    )
    # every log string in the text column is isolated too
    isolated = page.page.eval_on_selector_all("#text bdi", "els => els.map(e => e.textContent)")
    assert fake + "Ana" in isolated and "Cleo" in isolated
    label = page.page.locator("#board").get_attribute("aria-label") or ""
    assert "\ue000" not in label and "\ue000" not in (page.text("#text") + page.text("#table"))
    assert page.errors == []


def _analysed_worked_example() -> Match:
    from texas42_log.analysis.api import annotated
    from texas42_log.analysis.open_hand import analyze_match_doc
    from texas42_log.files.formats import match_json
    from texas42_log.log.check import effective_rules
    from texas42_log.log.model import minimal_version

    m = read_match((FIX / "seed-worked-example.json").read_bytes())
    doc = annotated(match_json(m), analyze_match_doc(effective_rules(m), match_json(m), only=2))
    doc["version"] = minimal_version(doc)
    return Match.model_validate(doc)


def test_the_analysis_shows_for_review_and_omniscient_only(browser: Any, tmp_path: Path) -> None:
    """Hand 3 of the worked example, analysed: A's [2|6] in trick 2 lost a makeable
    all-tricks contract; [4|5], the best lead, was never played."""
    m = _analysed_worked_example()
    omni = Page(browser, write(tmp_path, m, "omniscient", name="omni.html"))
    omni.page.goto(omni.path.as_uri() + "#hand-3-1")
    omni.page.reload()
    omni.step_to("Hand 3 · after play 4 (trick 1)")  # A to lead trick 2
    assert omni.page.locator("#analysis-area").is_visible()
    assert "A+C take 42 with best play from the first lead — makeable" in omni.text("#analysis")
    # A's tiles carry their values now; the best, [4|5], is marked.
    best = omni.page.locator(".seat-A .valued.best")
    assert best.count() == 1 and best.get_attribute("data-value") == "42"
    assert best.locator("svg").get_attribute("data-tile") == "[4|5]"
    # and they say whose points they are: the bidders', whoever is to play
    assert "A+C's hand points" in omni.text(".seat-A .values-whose")
    omni.press("ArrowRight", 2)  # trick 1 collected, then A leads [2|6]
    assert "LOST: the contract could be made until this play" in omni.text("#analysis")
    lost = omni.page.locator("#analysis li.fate-lost")
    assert lost.count() == 1 and "−41" in str(lost.text_content())
    assert [t.get_attribute("data-tile") for t in lost.locator("svg").all()] == ["[2|6]", "[4|5]"]

    review = Page(browser, write(tmp_path, m, "review", name="review.html"))
    review.page.goto(review.path.as_uri() + "#hand-3-1")
    review.page.reload()
    # Hand 3 ended after trick 2: every open-hand figure is drawn from tiles never played,
    # so the review is shown none (R29).
    assert not review.page.locator("#analysis-area").is_visible()
    assert review.page.locator("#analysis li.fate-lost").count() == 0
    # Nor does the page's data of that hand ([4|5] is played in hand 2, so it is in the page).
    data = json.loads(str(review.page.locator("#t42-data").text_content()))
    assert "[4|5]" not in json.dumps(data["hands"][2])

    for observer in ("public", "A"):
        page = Page(browser, write(tmp_path, m, observer, name=f"{observer}.html"))
        for _ in range(40):
            assert not page.page.locator("#analysis-area").is_visible()
            assert page.page.locator("#analysis").inner_html() == ""
            page.press("ArrowRight")
        data = json.loads(str(page.page.locator("#t42-data").text_content()))
        entries = [e for h in data["hands"] for e in h["views"]]
        assert entries and all(
            "analysis" not in e["view"] and e["analysis_lines"] == [] for e in entries
        )
        assert not page.errors
    assert not omni.errors and not review.errors


def test_the_move_list_tells_the_hand_and_takes_the_board_there(
    browser: Any, tmp_path: Path
) -> None:
    """Every call, the declaration and every play by trick, each a button to its moment;
    the marks of this observer's own fair lines inline, and no other seat's."""
    from texas42_log.analysis.api import annotate_match

    m = annotate_match(
        read_match((FIX / "seed-worked-example.json").read_bytes()), 2, fair=(8, 42)
    ).match
    page = Page(browser, write(tmp_path, m, "omniscient", name="moves.html"))
    page.page.goto(page.path.as_uri() + "#hand-3-1")
    page.page.reload()
    # at the first call, only that call: never an action still to come
    first = [str(b.text_content()) for b in page.page.locator("#moves .move").all()]
    assert first == ["C pass ??"], first  # C's pass, judged
    page.page.goto(page.path.as_uri() + "#hand-3-14")  # the hand's end: its whole story
    moves = page.page.locator("#moves .move")
    names = [str(b.text_content()) for b in moves.all()]
    assert names[0].startswith("C ") and any(n.startswith("A [2|6]") for n in names), names
    assert sum(1 for n in names if "[" in n) == 8  # the hand's eight plays
    calls = [n for n in names if "[" not in n][:4]  # every call, the last one included
    assert [n.split()[0] for n in calls] == ["C", "D", "A", "B"], names
    assert page.page.locator("#moves li.trick").count() == 2
    assert any(n.endswith("?") for n in names)  # a marked call or play, inline
    moves.filter(has_text="A [2|6]").first.click()
    assert "after play 5" in page.text("#position")
    here = page.page.locator("#moves .move.here")
    assert here.count() == 1 and str(here.text_content()).startswith("A [2|6]")
    # A seat's list carries A's own marks only: B's marked play shows no mark.
    seat = Page(browser, write(tmp_path, m, "A", name="moves-a.html"))
    seat.page.goto(seat.path.as_uri() + "#hand-3-1")
    seat.page.reload()
    seat.page.goto(seat.path.as_uri() + "#hand-3-14")
    b_moves = [str(x.text_content()) for x in seat.page.locator("#moves .move").all()]
    assert all(not n.rstrip().endswith("?") for n in b_moves if n.startswith(("B ", "C ", "D ")))
    assert not page.errors and not seat.errors


def test_a_phone_shows_your_tiles_and_the_step_buttons_on_the_first_screen(
    browser: Any, tmp_path: Path
) -> None:
    """390 × 844 with touch: a seat's own tiles and the step buttons need no scrolling, no
    seat's name is cut, and there is no keyboard hint."""
    m = read_match((FIX / "seed-worked-example.json").read_bytes())
    path = write(tmp_path, m, "A", name="phone.html")
    page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    for at in ("#hand-3-1", "#hand-3-7", "#hand-2-12"):
        page.goto(path.as_uri() + at)
        page.reload()
        assert page.evaluate("window.scrollY") == 0
        for selector in (".at-bottom .hand", "#next", "#prev"):
            box = page.locator(selector).bounding_box()
            assert box is not None and box["y"] + box["height"] <= 844, (at, selector, box)
        cut = page.locator(".seat .name").evaluate_all(
            "names => names.filter(n => n.scrollWidth > n.clientWidth).map(n => n.textContent)"
        )
        assert cut == [], (at, cut)
        assert not page.locator("#keys").is_visible()
    assert not errors
    page.close()


def test_at_a_judged_decision_the_best_fair_play_is_on_its_tile_and_in_a_table(
    browser: Any, tmp_path: Path
) -> None:
    """Hand 2 of the worked example annotated fairly: at B's first decision B's page rings
    the best fair play on its tile, lists every play's chance and mean in a table (not
    prose), with the legend one click away; A's page at the same moment shows none of it."""
    from texas42_log.analysis.api import annotate_match
    from texas42_log.views.visibility import Moment, view_for

    m = annotate_match(
        read_match((FIX / "seed-worked-example.json").read_bytes()), 1, fair=(8, 42)
    ).match
    v = view_for(m, "B", 1, Moment.after_play(1))
    assert v.fair is not None and v.fair.now and v.fair.now_best is not None
    page = Page(browser, write(tmp_path, m, "B", name="b.html"))
    page.page.goto(page.path.as_uri() + "#hand-2-6")
    page.page.reload()
    assert "after play 1" in page.text("#position")
    best = page.page.locator(".seat-B .valued.fair.best")
    assert best.count() == 1
    assert best.locator("svg").get_attribute("data-tile") == v.fair.now_best.split(" led ")[0]
    rows = page.page.locator("table.fair-now tr").all_text_contents()
    assert len(rows) == 1 + len(v.fair.now)
    assert page.page.locator("table.fair-now tr.best th").text_content() == v.fair.now_best
    assert "Fair values now, from" not in page.text("#analysis")  # a table, not prose
    legend = page.page.locator("details.fair-legend")
    assert not legend.locator("p").is_visible()
    legend.locator("summary").click()
    assert "chance:" in str(legend.locator("p").text_content())
    other = Page(browser, write(tmp_path, m, "A", name="a.html"))
    other.page.goto(other.path.as_uri() + "#hand-2-6")
    other.page.reload()
    assert other.page.locator(".valued.fair").count() == 0
    assert other.page.locator("table.fair-now").count() == 0
    assert not page.errors and not other.errors


def test_the_graph_dot_of_a_marked_play_jumps_to_it(browser: Any, tmp_path: Path) -> None:
    """The omniscient observer at the end of hand 3: the open-hand value after each play,
    A's [2|6] (LOST) a dot that takes the board to play 5; the graph never runs past the
    moment shown."""
    m = _analysed_worked_example()
    page = Page(browser, write(tmp_path, m, "omniscient", name="graph.html"))
    page.page.goto(page.path.as_uri() + "#hand-3-14")
    page.page.reload()
    dots = page.page.locator("#graph circle")
    assert dots.count() == 8
    marked = page.page.locator("#graph circle.marked")
    assert marked.count() == 1 and marked.get_attribute("data-play") == "5"
    marked.click()
    assert "after play 5" in page.text("#position")
    assert page.page.locator("#graph circle").count() == 5  # up to the moment shown
    page.page.goto(page.path.as_uri() + "#hand-3-1")
    assert not page.page.locator("#graph-box").is_visible()
    assert not page.errors


def test_score_cards_on_the_page_follow_the_observer(browser: Any, tmp_path: Path) -> None:
    """Hand 2 of the worked example annotated fairly, at its end: the omniscient page holds
    every seat's card, equal to the report's; a seat's page its own card only; the review
    of this hand, which ended early, none (R29)."""
    from texas42_log.analysis.api import annotate_match, fair_analysis
    from texas42_log.analysis.cards import hand_cards, team_cards

    whole = read_match((FIX / "seed-worked-example.json").read_bytes())
    m = annotate_match(whole, 1, fair=(8, 42)).match
    cards = hand_cards(fair_analysis(whole, 1, worlds=8, seed=42))
    end = len(match_views(m, "omniscient")[1])  # type: ignore[arg-type]
    seen: dict[str, list[str]] = {}
    for observer in ("omniscient", "B", "review"):
        page = Page(browser, write(tmp_path, m, observer, name=f"cards-{observer}.html"))
        page.page.goto(page.path.as_uri() + f"#hand-2-{end if observer != 'review' else 1}")
        page.page.reload()
        seen[observer] = page.page.locator("#cards li").evaluate_all(
            "items => items.map(i => (i.dataset.seat || i.dataset.team) + ' ' + i.textContent)"
        )
        assert not page.errors
    assert [x.split(" ")[0] for x in seen["omniscient"]] == [*"ABCD", "A+C", "B+D"]
    teams = team_cards(cards)
    for line in seen["omniscient"]:
        who = line.split(" ")[0]
        c = cards[who] if who in cards else teams[who]  # type: ignore[index]
        assert (
            f"plays {c.plays.decisions} judged · {c.plays.dubious} ? · {c.plays.blunders} ??"
            in line
        )
        assert f"calls {c.calls.decisions} judged" in line
    assert [x[0] for x in seen["B"]] == ["B"]
    assert seen["review"] == []


def test_the_match_page_sums_each_hands_cards_for_its_observer(
    browser: Any, tmp_path: Path
) -> None:
    """Hands 1 and 2 of a generated match annotated fairly: the match page's cards are the
    report's match cards (the seats' and the teams'); a seat's page has its own only; the
    review's has those of the hand it may see whole (hand 1 was played to its last tile,
    hand 2 ended after a trick: R29)."""
    from texas42_log.analysis.api import annotate_match, fair_analysis
    from texas42_log.analysis.cards import match_cards, team_cards

    whole = read_match((FIX / "random-seed-11.json").read_bytes())
    m = annotate_match(annotate_match(whole, 0, fair=(8, 42)).match, 1, fair=(8, 42)).match
    fairs = [fair_analysis(whole, i, worlds=8, seed=42) for i in (0, 1)]
    cards: dict[str, Any] = {**match_cards(fairs), **team_cards(match_cards(fairs))}
    seen: dict[str, dict[str, str]] = {}
    for observer in ("omniscient", "C", "review"):
        page = Page(browser, write(tmp_path, m, observer, name=f"match-{observer}.html"))
        page.page.click("#match-btn")
        items = page.page.locator("#match-cards li").evaluate_all(
            "items => items.map(i => [i.dataset.seat || i.dataset.team, i.textContent])"
        )
        seen[observer] = dict(items)
        assert not page.errors
    assert list(seen["omniscient"]) == [*"ABCD", "A+C", "B+D"]
    for who, line in seen["omniscient"].items():
        for part in ("plays", "calls"):
            c = getattr(cards[who], part)
            assert f"{part} {c.decisions} judged · {c.dubious} ? · {c.blunders} ??" in line
    assert list(seen["C"]) == ["C"]
    assert seen["C"]["C"] == seen["omniscient"]["C"]
    # the review: hand 2 ended early, so only hand 1's figures count
    hand1 = {**match_cards(fairs[:1]), **team_cards(match_cards(fairs[:1]))}
    assert list(seen["review"]) == [*"ABCD", "A+C", "B+D"]
    for who, line in seen["review"].items():
        assert f"plays {hand1[who].plays.decisions} judged" in line
    assert seen["review"] != seen["omniscient"]  # hand 2's judged decisions are left out
