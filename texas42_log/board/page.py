"""The board's page: the viewer's page (``viewer/viewer.html``) with the board's parts
(``viewer/board-parts.html``: its bar and its comments) put in, and the viewer's script
and style, the wire (``viewer/wire.js``, shared with the table) and the board's own
inlined, with the dominoes' drawing (``viewer/domino.js``). The page is the same for
every address and every log — it holds no token, no view and no name; it asks the
server for those — and its Content-Security-Policy allows only its own four scripts and
its style, by hash, and requests to its own server."""

from __future__ import annotations

import html
import re
from functools import cache

from .._version import __version__
from ..files.assets import viewer_asset
from ..views.html import sha256_source
from ..views.locales import DEFAULT_LANGUAGE

__all__ = ["board_page"]


@cache
def board_page() -> tuple[str, str]:
    """The page and its Content-Security-Policy header."""
    viewer, board = viewer_asset("viewer.js"), viewer_asset("board.js")
    wire, domino = viewer_asset("wire.js"), viewer_asset("domino.js")
    style = viewer_asset("viewer.css") + "\n" + viewer_asset("board.css")
    csp = (
        f"default-src 'none'; script-src {sha256_source(domino)} {sha256_source(viewer)} "
        f"{sha256_source(wire)} "
        f"{sha256_source(board)}; "
        f"style-src {sha256_source(style)}; img-src data:; connect-src 'self'; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    )
    page = viewer_asset("viewer.html")
    parts = dict(
        (name, text.strip())
        for name, text in re.findall(
            r"<!-- part: (\w+)[^>]*-->\n(.*?)(?=\n<!-- part:|\Z)",
            viewer_asset("board-parts.html"),
            re.S,
        )
    )
    scripts = f"<script>{viewer}</script>\n<script>{wire}</script>\n<script>{board}</script>"
    data = (
        '<script type="application/json" id="t42-data">{{DATA}}</script>\n'
        "<script>{{SCRIPT}}</script>"
    )
    values = {
        "{{LANG}}": DEFAULT_LANGUAGE,
        # frame-ancestors works in the header only (a browser ignores it in a <meta>)
        "{{CSP}}": html.escape(csp.replace("; frame-ancestors 'none'", "")),
        "{{VERSION}}": html.escape(__version__),
        "{{TITLE}}": "texas42 board",
        "{{HEADING}}": "texas42 board",
        "{{STYLE}}": style,
        "{{DOMINO}}": domino,
    }
    for at, text in (
        ('<nav id="nav">', parts["bar"] + "\n"),
        ('    <section id="text-area">', "    " + parts["comments"] + "\n"),
    ):
        assert at in page, at
        page = page.replace(at, text + at, 1)
    assert data in page
    page = page.replace(data, "\x00SCRIPTS\x00", 1)
    for k, v in values.items():
        page = page.replace(k, v, 1)
    return page.replace("\x00SCRIPTS\x00", scripts, 1), csp
