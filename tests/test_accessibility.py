"""Every page is for every player: the table's page, the board and the HTML viewer,
checked in Debian's headless Chromium with axe-core (the accessibility engine, carried
by the test extra's axe-playwright-python) against the WCAG 2.2 A and AA rules, on a
390 × 844 phone and a 1280 × 800 desktop: no violation. Every page in each
of its languages (en, tr, uk), the table page too (docs/table.md)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from texas42_log.engine.live import random_deal
from texas42_log.table.referee import Table

from .board_client import start_board
from .table_client import served
from .test_viewer_browser import browser  # noqa: F401  (the module's Chromium)

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("browser")]

SAMPLE = Path(__file__).resolve().parent.parent / "fixtures" / "valid" / "random-seed-11.json"
SIZES = ({"width": 390, "height": 844}, {"width": 1280, "height": 800})
WCAG = {
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"],
    }
}


@pytest.fixture(scope="module")
def axe() -> Any:
    from axe_playwright_python.sync_playwright import Axe

    return Axe()


def _violations(browser: Any, axe: Any, url: str, ready: str) -> Iterator[str]:  # noqa: F811
    for size in SIZES:
        page = browser.new_page(viewport=size)
        try:
            page.goto(url)
            page.wait_for_selector(ready)
            found = axe.run(page, options=WCAG).response["violations"]
            for v in found:
                where = ", ".join(str(n["target"]) for n in v["nodes"][:3])
                yield f"{size['width']}px: {v['id']} ({v['impact']}) at {where}: {v['help']}"
        finally:
            page.close()


@pytest.mark.parametrize("lang", ["en", "tr", "uk"])
def test_the_table_page_has_no_wcag_violation(
    browser: Any,  # noqa: F811
    axe: Any,
    tmp_path: Path,
    lang: str,
) -> None:
    count = iter(range(1, 1000))
    table = Table.new(
        tmp_path / "m.json", "standard", deal=lambda d: random_deal(8, next(count), d)
    )
    with served(table) as w:
        for who in ("B", "A", "review"):  # the seat to call, another seat, the onlookers
            url = f"http://127.0.0.1:{w.port}/?token={w.tokens[who]}&lang={lang}"
            assert list(_violations(browser, axe, url, "body[data-moment]")) == [], who


@pytest.mark.parametrize("lang", ["en", "tr", "uk"])
def test_the_board_and_the_viewer_have_no_wcag_violation(
    browser: Any,  # noqa: F811
    axe: Any,
    tmp_path: Path,
    lang: str,
) -> None:
    log = tmp_path / "game.json"
    log.write_bytes(SAMPLE.read_bytes())
    html = tmp_path / "game.html"
    subprocess.run(
        [sys.executable, "-m", "texas42_log", "render", str(log), "--as", "omniscient"]
        + ["--lang", lang, "-o", str(html)],
        check=True,
        capture_output=True,
    )
    assert list(_violations(browser, axe, html.as_uri(), "#moves")) == []
    b = start_board(log, "--lang", lang)
    try:
        assert list(_violations(browser, axe, b.url(), "#moves .move")) == []
        assert list(_violations(browser, axe, b.url("seat A"), "#moves .move")) == []
    finally:
        b.stop()
