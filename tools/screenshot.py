"""Render the README's screenshot of the HTML viewer.

Run: .venv/bin/python tools/screenshot.py   (writes docs/viewer.png)

It renders fixtures/valid/seed-example-views.json for a spectator with
`texas42 render`, opens the page in Debian's headless Chromium, steps to hand 2
after play 12 (all tricks, one stack: only trick 3 face up) and saves a PNG.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def main() -> None:
    out = ROOT / "docs" / "viewer.png"
    with tempfile.TemporaryDirectory() as tmp:
        page_path = Path(tmp) / "views.html"
        subprocess.run(
            [sys.executable, "-m", "texas42_log", "render", "fixtures/valid/seed-example-views.json",
             "--as", "public", "-o", str(page_path)],
            check=True, cwd=ROOT,
        )
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            page = browser.new_page(viewport={"width": 1200, "height": 820})
            page.goto(page_path.as_uri() + "#hand-2-14")
            page.screenshot(path=str(out))
            browser.close()
    print(f"wrote {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
