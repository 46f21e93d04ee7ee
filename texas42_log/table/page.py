"""The table's page: ``viewer/table.html`` with its script and style inlined. The page is
the same for every address and every match — it holds no token and no view; it asks the
server for those — and its Content-Security-Policy allows its own script and style, by
hash (its own, the wire's, shared with the board: ``viewer/wire.js``, and the
dominoes' drawing, shared with the viewer: ``viewer/domino.js``), and
requests to its own server (the actions and the push channel), nothing more."""

from __future__ import annotations

import html
from functools import cache

from .._version import __version__
from ..views.html import sha256_source, viewer_asset

__all__ = ["table_page"]


@cache
def table_page() -> tuple[str, str]:
    """The page and its Content-Security-Policy header."""
    wire, domino, script, style = (
        viewer_asset("wire.js"),
        viewer_asset("domino.js"),
        viewer_asset("table.js"),
        viewer_asset("table.css"),
    )
    csp = (
        f"default-src 'none'; script-src {sha256_source(wire)} {sha256_source(domino)} "
        f"{sha256_source(script)}; "
        f"style-src {sha256_source(style)}; connect-src 'self'; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    )
    page = viewer_asset("table.html")
    for key, value in (("{{STYLE}}", style), ("{{VERSION}}", html.escape(__version__))):
        assert key in page, key
        page = page.replace(key, value, 1)
    assert "{{WIRE}}" in page and "{{SCRIPT}}" in page and "{{DOMINO}}" in page
    page = page.replace("{{WIRE}}", wire, 1).replace("{{DOMINO}}", domino, 1)
    return page.replace("{{SCRIPT}}", script, 1), csp
