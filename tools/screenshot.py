"""Render the screenshots of the HTML viewer kept in docs/.

Run: .venv/bin/python tools/screenshot.py

- docs/viewer.png — the README's picture: fixtures/valid/seed-example-views.json
  for a spectator, hand 2 after play 11 (all tricks, one stack: trick 1 covered,
  trick 2 face up, D to play), 1280 px wide.
- docs/screenshots/viewer-<width>-<lang>.png — the same moment at 360, 390,
  800, 1280 and 1920 px, in en, tr and uk (the widths the layout tests measure).
- docs/screenshots/omniscient-<width>.png — the worked example's hand 3 analysed,
  for the omniscient observer (every hand, the tile values, the analysis panel).
- docs/screenshots/match-1280.png — the match page (marks chart, hands).
- docs/screenshots/moment.svg — `texas42 render --to svg` of the same moment.
- docs/board.png — `texas42 board` as seat B, taken by the board's browser test itself
  (tests/test_board_browser.py's person_path: step, switch seats, ask, comment, save,
  reload), so the picture is of the path the test proves. ``--board`` takes it alone.
- docs/board-story.png and docs/board-phone.png — the hand's story on the board (seat B
  at its judged decision, desktop and a 390 × 844 phone), taken by
  tests/test_board_browser_story.py's story_path (with ``--board`` too).
- docs/table-phone.png — `texas42 table`: seat A's phone mid-trick, taken by
  tests/test_table_browser.py's table_path (four phones play a match). ``--table``
  takes it alone.

Opened in Debian's headless Chromium (Playwright with executable_path).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
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
WIDTHS = (360, 390, 800, 1280, 1920)
LANGS = ("en", "tr", "uk")
MOMENT = "#hand-2-18"  # hand 2, after play 11


def _texas42(*args: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "texas42_log", *args],
        check=True,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
    )


def main() -> None:
    shots = ROOT / "docs" / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        for lang in LANGS:
            _texas42(
                "render",
                "fixtures/valid/seed-example-views.json",
                "--as",
                "public",
                "--lang",
                lang,
                "-o",
                str(t / f"views-{lang}.html"),
            )
        _texas42(
            "analyze",
            "fixtures/valid/seed-worked-example.json",
            "--hand",
            "3",
            "--annotate",
            "-o",
            str(t / "analysed.json"),
            "--no-progress",
        )
        _texas42(
            "render",
            str(t / "analysed.json"),
            "--as",
            "omniscient",
            "-o",
            str(t / "omniscient.html"),
        )
        _texas42(
            "render",
            "fixtures/valid/seed-example-views.json",
            "--to",
            "svg",
            "--hand",
            "2",
            "--play",
            "11",
            "-o",
            str(shots / "moment.svg"),
            "--force",
        )
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)

            def shot(
                page_file: Path, fragment: str, width: int, out: Path, height: int = 900
            ) -> None:
                page = browser.new_page(viewport={"width": width, "height": height})
                page.goto(page_file.as_uri() + fragment)
                page.screenshot(path=str(out), full_page=True)
                page.close()
                print(f"wrote {out.relative_to(ROOT)}")

            shot(t / "views-en.html", MOMENT, 1280, ROOT / "docs" / "viewer.png", 820)
            for lang in LANGS:
                for width in WIDTHS:
                    shot(
                        t / f"views-{lang}.html",
                        MOMENT,
                        width,
                        shots / f"viewer-{width}-{lang}.png",
                    )
            for width in (360, 1280):
                shot(t / "omniscient.html", "#hand-3-9", width, shots / f"omniscient-{width}.png")
            shot(t / "views-en.html", "#match", 1280, shots / "match-1280.png")
            browser.close()
    board_shot()


def board_shot() -> None:
    """docs/board.png, by the browser test's own path."""
    import shutil

    sys.path.insert(0, str(ROOT))
    from tests.board_client import start_board
    from tests.test_board_browser import SAMPLE, person_path
    from tests.test_board_browser_story import named_sample, story_path

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        log = Path(tmp) / "game.json"
        shutil.copyfile(SAMPLE, log)
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        b = start_board("game.json", "--worlds", "40", cwd=Path(tmp))  # named as a user would
        try:
            person_path(browser, b, log, ROOT / "docs" / "board.png")
        finally:
            b.stop()
        named_sample(log)
        b = start_board("game.json", "--worlds", "20", cwd=Path(tmp))
        try:
            story_path(browser, b, ROOT / "docs")
        finally:
            b.stop()
            browser.close()
    print("wrote docs/board.png, docs/board-story.png, docs/board-phone.png")
    table_shot()


def table_shot() -> None:
    """docs/table-phone.png, by the table's browser test's own path."""
    sys.path.insert(0, str(ROOT))
    from tests.table_client import start_table
    from tests.test_table_browser import table_path

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        log = Path(tmp) / "match.json"
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        names = ("A=Ana", "B=Ben", "C=Cleo", "D=Dan")
        r = start_table(
            log, "--option", "match_goal_marks=2", *(a for n in names for a in ("--player", n))
        )
        try:
            table_path(browser, r, log, ROOT / "docs")
        finally:
            r.stop()
            browser.close()
    print("wrote docs/table-phone.png")


if __name__ == "__main__":
    if sys.argv[1:] == ["--board"]:
        board_shot()
    elif sys.argv[1:] == ["--table"]:
        table_shot()
    else:
        main()
