"""``texas42 table`` in the real browser (Debian's headless Chromium, as the board's
tests): four phones, one a seat, play a whole match by tapping; a renege tapped is
refused in the rule's words; the log is what the pages saw."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from texas42_log.engine.actions import Deal
from texas42_log.log.model import Match
from texas42_log.play.game import Game

from .table_client import Running, start_table
from .test_viewer_browser import browser  # noqa: F401  (the module's Chromium)

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("browser")]

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def running(tmp_path: Path) -> Iterator[tuple[Running, Path]]:
    log = tmp_path / "match.json"
    r = start_table(
        log,
        "--option",
        "match_goal_marks=2",
        *("--player", "A=Ana", "--player", "B=Ben", "--player", "C=Cleo", "--player", "D=Dan"),
    )
    yield r, log
    r.stop()


def _phone(browser: Any, url: str, errors: list[str]) -> Any:  # noqa: F811
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, has_touch=True)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(url)
    page.wait_for_selector("body[data-moment]")
    return page


def _moment(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.moment"))


def _annotations(doc: Any) -> Iterator[dict[str, Any]]:
    """Every comment of a log, wherever it is attached."""
    if isinstance(doc, dict):
        yield from doc.get("annotations", [])
        for value in doc.values():
            yield from _annotations(value)
    elif isinstance(doc, list):
        for value in doc:
            yield from _annotations(value)


def table_path(browser: Any, r: Running, log: Path, shots: Path | None = None) -> None:  # noqa: F811
    """Four phones play the match out by tapping (a renege tried once, and refused);
    the log holds exactly the actions tapped and every page's score is validate's.
    ``shots``: a folder for table-phone.png (seat A's phone, mid-trick)."""
    errors: list[str] = []
    pages = {s: _phone(browser, r.links[f"seat {s}"], errors) for s in "ABCD"}
    onlookers = _phone(browser, r.links["onlookers"], errors)
    rng = random.Random(7)
    tapped: list[tuple[str, str]] = []
    reneged = reviewed = shot = False
    for _ in range(2000):
        turn = pages["A"].evaluate("document.body.dataset.turn")
        if turn == "over":
            break
        seat, kind = turn.split(":")
        page = pages[seat]
        page.wait_for_selector(f"body[data-turn='{turn}']")
        before = _moment(page)
        assert not page.locator("#hand button.tile:enabled").count() or kind == "play"
        if kind == "play":
            hand = page.locator("#hand button.tile").evaluate_all("b => b.map(x => x.dataset.tile)")
            wrong = page.locator("#hand button.tile:enabled:not(.legal)")
            if not reneged and wrong.count():
                wrong.first.click()  # a renege: refused, in the rule's own words
                page.wait_for_selector("#status.problem")
                # a renege names R16 (with R14 when the lead's suit was its higher number)
                assert "R16" in page.inner_text("#status"), page.inner_text("#status")
                assert _moment(page) == before
                again = page.locator("#hand button.tile").evaluate_all(
                    "b => b.map(x => x.dataset.tile)"
                )
                assert again == hand  # the hand unchanged, in its order (R30)
                reneged = True
            choices = page.locator("#hand button.tile.legal")
            if (
                shots is not None
                and not shot
                and seat == "A"
                and pages["A"].locator("#trick .tile").count() >= 2
            ):
                page.screenshot(path=str(shots / "table-phone.png"))
                shot = True
        else:
            choices = page.locator("#calls button")
        pick = choices.nth(rng.randrange(choices.count()))
        text = pick.get_attribute("data-tile") or pick.get_attribute("data-action")
        pick.click()
        tapped.append((seat, text))
        for p in [*pages.values(), onlookers]:
            p.wait_for_function("m => Number(document.body.dataset.moment) > m", arg=before)
        if not reviewed and pages["B"].locator("#last").is_visible():
            pages["B"].click("#review-open")
            pages["B"].wait_for_selector("#review li")
            assert "→" in pages["B"].inner_text("#review")
            # B's fair analysis of its own calls and plays in that hand, in the board's words
            pages["B"].click("#mine-open")
            pages["B"].wait_for_selector("#mine li", timeout=120_000)
            mine = pages["B"].inner_text("#mine")
            assert "Fair, from B's" in mine and "Fair, from A's" not in mine, mine
            assert onlookers.locator("#mine-open").is_hidden()
            reviewed = True
    else:
        raise AssertionError("the match did not end")
    assert reneged and reviewed
    if shots is not None and not shot:  # a match whose deals never showed A mid-trick
        pages["A"].screenshot(path=str(shots / "table-phone.png"))
    doc = json.loads(log.read_text("utf-8"))
    history = Game.from_match(Match.model_validate(doc)).history
    taken = [(step.seat, str(step.action)) for step in history if not isinstance(step.action, Deal)]
    assert taken == tapped  # the log holds the actions tapped, in their order
    check = subprocess.run(
        [sys.executable, "-m", "texas42_log", "validate", str(log), "--format", "json"],
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    marks = doc["result"]["marks"]
    score = " – ".join(f"{t} {marks[t]}" for t in ("A+C", "B+D"))
    for p in [*pages.values(), onlookers]:
        assert p.inner_text("#score").startswith(score), (p.inner_text("#score"), score)
        assert "The match is over" in p.inner_text("#status")
    # the one refusal, which the browser reports on its console as a failed request
    refused = [e for e in errors if "status of 422" in e]
    assert len(refused) == 1 and [e for e in errors if e not in refused] == []
    # after the match, seat B's page opens the whole match on the board, at its own
    # address, and comments as seat B: the comment is in the log, B's
    board = pages["B"]
    board.click("#board-link")
    board.wait_for_selector("#table .seat")
    assert board.url.split("?")[0].endswith("/board")
    board.fill("#comment-text", "Well played, partner.")
    board.click("#comment-add")
    board.click("#save")
    board.wait_for_selector("#save-status:text-is('saved')")
    notes = list(_annotations(json.loads(log.read_text("utf-8"))))
    assert [(n["text"], n.get("seat")) for n in notes] == [("Well played, partner.", "B")]
    assert [e for e in errors if e not in refused] == []
    for p in [*pages.values(), onlookers]:
        p.context.close()


def test_four_phones_play_a_match_by_tapping(
    browser: Any,  # noqa: F811
    running: tuple[Running, Path],
    tmp_path: Path,
) -> None:
    r, log = running
    table_path(browser, r, log, shots=tmp_path)
    assert (tmp_path / "table-phone.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_page_says_at_once_when_the_table_is_gone_and_when_it_is_back(
    browser: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    """The table killed (as a crash): within 2 s the page says so and offers no action
    (it kept showing the old turn, 11 of 11 stops); started again on the same log, within
    2 s it says the table is back and its actions come again."""
    import os
    import signal
    import time

    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path / "state"))
    log = tmp_path / "m.json"
    r = start_table(log, "--player", "A=Ana", env=env)
    errors: list[str] = []
    page = _phone(browser, r.links["seat B"], errors)
    try:
        page.wait_for_selector("#calls button")  # B calls first: its choices are offered
        r.process.send_signal(signal.SIGKILL)
        r.process.wait(timeout=10)
        t0 = time.monotonic()
        page.wait_for_selector("#connection.down", timeout=2000)
        assert time.monotonic() - t0 < 2.0
        assert "not answering" in page.text_content("#connection")
        assert page.evaluate(
            "Array.from(document.querySelectorAll('#calls button')).every(b => b.disabled)"
        )
        again = start_table(log, env=env)  # the same links and port: the page comes back
        try:
            t0 = time.monotonic()
            page.wait_for_selector("#connection.back", timeout=4000)
            assert time.monotonic() - t0 < 3.0  # the browser's own retry is 1 s
            page.wait_for_selector("#calls button:enabled", timeout=2000)
        finally:
            again.stop()
    finally:
        page.context.close()
        if r.process.poll() is None:
            r.stop()
    # the browser's own line for a refused connection is no error of the page's
    assert [e for e in errors if "net::ERR" not in e and "Failed to load" not in e] == []


SUITS = ["blanks", "aces", "deuces", "treys", "fours", "fives", "sixes"]


def test_the_page_shows_the_trick_taken_and_each_sides_points_as_the_seat_sees_them(
    browser: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    """A point contract after a few tricks: seat A's page names the trump as players do,
    says what the bidders need and what each side has taken, and shows the trick just
    taken by its faces and winning team (R26, R28) — the numbers of A's own view."""
    from texas42_log.engine.live import random_deal
    from texas42_log.table.referee import Table

    from .table_client import served

    count = iter(range(1, 1000))
    table = Table.new(
        tmp_path / "m.json", "standard", deal=lambda d: random_deal(8, next(count), d)
    )
    rng = random.Random(4)
    while True:
        game = table.game
        turn = game.to_act
        assert turn is not None
        v = game.view("A").as_dict(notes=False)
        c = v["contract"]
        if c and c["kind"] == "points" and c["trump"] in list("0123456") and len(v["won"]) >= 2:
            break
        legal = [str(a) for a in game.legal_actions()]
        if (
            turn.kind == "call"
            and "30" in legal
            and not any(x["call"] != "pass" for x in v["auction"])
        ):
            action = "30"  # a point contract, so that the points are shown
        else:
            action = rng.choice(legal)
        table.act(turn.seat, table.moment, action, f"r{table.moment}")
    bidders = "A+C" if c["bidder"] in "AC" else "B+D"
    others = "B+D" if bidders == "A+C" else "A+C"
    last = v["won"][-1]
    with served(table) as w:
        errors: list[str] = []
        page = _phone(browser, f"http://127.0.0.1:{w.port}/?token={w.tokens['A']}", errors)
        try:
            contract = page.text_content("#contract")
            assert SUITS[int(c["trump"])] in contract and "trump " not in contract, contract
            tally = page.text_content("#tally")
            assert tally.startswith(f"{bidders} need {c['bid']}: {v['points'][bidders]} so far")
            assert f"{others} {v['points'][others]} point" in tally, tally
            shown = page.text_content("#last-trick")
            assert (
                shown.startswith(f"Trick {last['number']} (")
                and f"taken by {last['team']}" in shown
            )
            assert all(face in shown for face in last["faces"])
            assert not any(f" {s} [" in shown for s in "ABCD")  # by team, never by player
            assert " 1 tiles" not in page.text_content("#felt")
        finally:
            page.context.close()
    assert errors == []


def _until(page: Any, expression: str, seconds: float = 20.0) -> None:
    """Wait until ``expression`` holds in the page (polled: the page's CSP allows no
    eval, which Playwright's wait_for_function would need)."""
    import time

    end = time.monotonic() + seconds
    while not page.evaluate(expression):
        if time.monotonic() > end:
            raise AssertionError(f"not within {seconds} s: {expression}")
        time.sleep(0.02)


def test_a_hand_is_played_by_keyboard_alone_and_each_action_is_announced(
    browser: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    """Seat A against three rule bots plays a whole hand with Tab and Enter only; the
    page's live region announces every call, trump and play as it comes; at 200 % text
    the page needs no horizontal scrolling."""
    import os

    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path / "state"))
    bots = [a for s in "BCD" for a in ("--bot", f"{s}=rule")]
    r = start_table(tmp_path / "m.json", *bots, "--bot-delay", "0", env=env)
    errors: list[str] = []
    page = _phone(browser, r.links["seat A"], errors)
    said: list[str] = []
    page.expose_function("heard", lambda text: said.append(text))
    page.evaluate(
        "new MutationObserver(() => window.heard(document.getElementById('said').textContent))"
        ".observe(document.getElementById('said'), {childList: true, characterData: true,"
        " subtree: true})"
    )
    try:
        hand_of = "Number(document.getElementById('title').textContent.match(/hand (\\d+)/)[1])"
        first_play: int | None = None  # the hand in which A first played a tile
        for _ in range(400):
            _until(
                page,
                "document.body.dataset.turn.startsWith('A:') || "
                "document.body.dataset.turn === 'over' || "
                f"({hand_of}) > {first_play or 99}",
            )
            if first_play is not None and page.evaluate(hand_of) > first_play:
                break  # that hand is over, every action of A's by keyboard
            if not page.evaluate("document.body.dataset.turn.startsWith('A:')"):
                raise AssertionError("the match ended first")
            moment = _moment(page)
            kind = page.evaluate("document.body.dataset.turn.split(':')[1]")
            for _tab in range(40):  # Tab to a choice the turn offers, then Enter
                page.keyboard.press("Tab")
                focused = page.evaluate(
                    "(() => { const e = document.activeElement;"
                    " return !!e && !e.disabled && (e.closest('#calls') !== null ||"
                    " e.classList.contains('legal')); })()"
                )
                if focused:
                    break
            else:
                raise AssertionError("no choice of the turn is reached by Tab")
            page.keyboard.press("Enter")
            _until(page, f"Number(document.body.dataset.moment) > {moment}")
            if kind == "play" and first_play is None:
                first_play = page.evaluate(hand_of)
        else:
            raise AssertionError("the hand did not end")
        assert any(t.startswith("A ") for t in said) and any(" plays [" in t for t in said), said
        assert any(" bids " in t or " passes" in t for t in said), said
        page.evaluate("document.documentElement.style.fontSize = '200%'")
        wide = page.evaluate("document.documentElement.scrollWidth > window.innerWidth + 1")
        assert not wide, "200 % text scrolls sideways"
    finally:
        page.context.close()
        r.stop()
    assert errors == []


def test_a_seat_that_asks_is_buzzed_when_its_turn_comes(
    browser: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    """The box "Buzz or beep when it is my turn", ticked (and kept in the browser): when the
    turn comes back to seat A after the bots' actions, the page vibrates once (a tone where
    the device cannot); never on the page's first state, never when the box is not ticked."""
    import os

    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path / "state"))
    bots = [a for s in "BCD" for a in ("--bot", f"{s}=rule")]
    r = start_table(tmp_path / "m.json", *bots, "--bot-delay", "0", env=env)
    errors: list[str] = []
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, has_touch=True)
    context.add_init_script(
        "window.__buzz = 0; navigator.vibrate = function () { window.__buzz += 1; return true; };"
    )
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(r.links["seat A"])
        page.wait_for_selector("body[data-moment]")
        assert page.evaluate("window.__buzz") == 0
        page.click("#alert-turn")
        assert page.evaluate("localStorage.getItem('texas42-alert-turn')") == "1"
        for _ in range(60):
            _until(page, "document.body.dataset.turn.startsWith('A:') || window.__buzz > 0")
            if page.evaluate("window.__buzz > 0"):
                break
            before = _moment(page)
            page.locator("#calls button, #hand button:not([disabled])").first.click()
            _until(page, f"Number(document.body.dataset.moment) > {before} || window.__buzz > 0")
        assert page.evaluate("window.__buzz") >= 1
        assert page.evaluate("document.body.dataset.turn").startswith("A:")
    finally:
        context.close()
        r.stop()
    assert errors == []


_OVERLAPS = (
    "(() => { const seats = Array.from(document.querySelectorAll('#felt .seat'))"
    ".map(e => e.getBoundingClientRect()); return Array.from(document.querySelectorAll("
    "'#trick .tile')).map(e => e.getBoundingClientRect()).filter(t => seats.some(s => "
    "t.left < s.right && s.left < t.right && t.top < s.bottom && s.top < t.bottom)).length; })()"
)


def test_no_played_tile_covers_a_seat_s_name_on_a_phone(
    browser: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    """Seat A against three rule bots on a 390 × 844 phone: at every moment of the first
    tricks, no tile on the table reaches into a seat's name and tile count — A's own
    played tile once sat on A's name."""
    import os

    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path / "state"))
    bots = [a for s in "BCD" for a in ("--bot", f"{s}=rule")]
    r = start_table(tmp_path / "m.json", *bots, "--bot-delay", "0.3", env=env)
    errors: list[str] = []
    page = _phone(browser, r.links["seat A"], errors)
    try:
        played = checked = 0
        for _ in range(200):
            if played >= 3:
                break
            assert page.evaluate(_OVERLAPS) == 0, page.evaluate("document.body.dataset.turn")
            checked += page.locator("#trick .tile").count()
            turn = page.evaluate("document.body.dataset.turn")
            if turn.startswith("A:"):
                before = _moment(page)
                page.locator("#calls button, #hand button.legal:enabled").first.click()
                _until(page, f"Number(document.body.dataset.moment) > {before}")
                played += turn == "A:play"
            else:
                page.wait_for_timeout(100)
        assert played >= 3 and checked >= 6
    finally:
        page.context.close()
        r.stop()
    assert errors == []


def test_a_practice_match_against_three_sampling_bots_finishes_from_the_page_with_a_hint(
    browser: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    """Practice (docs/table.md): one person at seat A, three ``sampling`` bots. A's phone
    asks a hint once on its turn (the page shows the suggestion, from A's own view), then
    taps its way through the whole match; the match ends on every page and the log
    validates with the bots as its players."""
    log = tmp_path / "practice.json"
    r = start_table(
        log,
        *("--option", "match_goal_marks=2", "--player", "A=Ana", "--bot-delay", "0"),
        *("--bot", "B=sampling,worlds=4", "--bot", "C=sampling,worlds=4"),
        *("--bot", "D=sampling,worlds=4"),
    )
    try:
        errors: list[str] = []
        page = _phone(browser, r.links["seat A"], errors)
        rng = random.Random(3)
        hinted, said = False, ""
        for _ in range(400):
            page.wait_for_function(
                "() => { const t = document.body.dataset.turn;"
                " return t === 'over' || (t && t.startsWith('A:')) }",
                timeout=120_000,
            )
            turn = page.evaluate("document.body.dataset.turn")
            if turn == "over":
                break
            before = _moment(page)
            if not hinted and turn in ("A:call", "A:play"):
                page.click("#hint-ask")
                page.wait_for_function(
                    "() => document.getElementById('hint').textContent.startsWith('Hint: ')",
                    timeout=120_000,
                )
                said = page.inner_text("#hint")[len("Hint: ") :].split(" (")[0]
                hinted = True
            kind = turn.split(":")[1]
            choices = page.locator("#hand button.tile.legal" if kind == "play" else "#calls button")
            if said:  # the hint is one of the page's own choices: take it
                names = choices.evaluate_all(
                    "bs => bs.map(b => b.dataset.tile || b.dataset.action)"
                )
                assert said in names, (said, names)
                choices.nth(names.index(said)).click()
                said = ""
            else:
                choices.nth(rng.randrange(choices.count())).click()
            page.wait_for_function(
                "m => Number(document.body.dataset.moment) > m", arg=before, timeout=120_000
            )
        else:
            raise AssertionError("the practice match did not end")
        assert hinted
        assert "The match is over" in page.inner_text("#status")
        assert errors == []
    finally:
        r.stop()
    doc = json.loads(log.read_text("utf-8"))
    assert doc["result"]["winner"] in ("A+C", "B+D")
    check = subprocess.run(
        [sys.executable, "-m", "texas42_log", "validate", str(log)], capture_output=True, text=True
    )
    assert check.returncode == 0, check.stdout + check.stderr


@pytest.mark.parametrize(
    ("lang", "how", "words"),
    [
        ("tr", "link", ("Sıra sizde", "masası", "takip etmelisiniz")),
        ("uk", "browser", ("Ваша черга", "стіл", "мусите йти в масть")),
    ],
)
def test_each_seat_s_page_speaks_its_language_its_refusals_included(
    browser: Any,  # noqa: F811
    tmp_path: Path,
    lang: str,
    how: str,
    words: tuple[str, str, str],
) -> None:
    """The table page in the link's ``?lang=`` or the browser's language: its own words,
    the turn, and a renege refused by the referee in that language (its message key,
    the rule id kept); English stays for a seat that asks for nothing."""
    from texas42_log.engine.live import random_deal
    from texas42_log.table.referee import Table

    from .table_client import served

    count = iter(range(1, 1000))
    table = Table.new(
        tmp_path / "m.json", "standard", deal=lambda d: random_deal(5, next(count), d)
    )
    with served(table) as w:
        # the auction by the API: B bids 30, the others pass; B declares and leads
        for seat, call in (("B", "30"), ("C", "pass"), ("D", "pass"), ("A", "pass")):
            assert w.act(seat, call).status == 200
        trump = next(a for a in w.state("B")["legal"] if a.startswith("trump "))
        assert w.act("B", trump).status == 200
        assert w.act("B", w.state("B")["legal"][0]).status == 200
        url = f"http://127.0.0.1:{w.port}/?token={w.tokens['C']}"
        if how == "link":
            context = browser.new_context(viewport=PHONE)
            url += f"&lang={lang}"
        else:
            context = browser.new_context(viewport=PHONE, locale=lang)
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("body[data-turn='C:play']")
        assert page.evaluate("document.documentElement.lang") == lang
        assert words[0] in page.inner_text("#status")
        assert words[1] in page.inner_text("#title")
        wrong = page.locator("#hand button.tile:enabled:not(.legal)")
        if wrong.count():  # a renege, refused in C's language, its rule named
            wrong.first.click()
            page.wait_for_selector("#status.problem")
            said = page.inner_text("#status")
            assert words[2] in said and re.search(r"\(R1[456]\)", said), said
            assert "trumps" not in said and "must follow" not in said, said
        context.close()
        english = browser.new_context(viewport=PHONE, locale="en-US").new_page()
        english.goto(f"http://127.0.0.1:{w.port}/?token={w.tokens['A']}")
        english.wait_for_selector("body[data-moment]")
        assert english.evaluate("document.documentElement.lang") == "en"
        assert "texas42 table" in english.inner_text("#title")
        english.context.close()
