"""The board's page: ``viewer/board.html`` with the viewer's script and style and the
board's own, inlined. The page is the same for every address and every log — it holds
no token, no view and no name; it asks the server for those — and its
Content-Security-Policy allows only its own two scripts and its style, by hash, and
requests to its own server."""

from __future__ import annotations

import html
from functools import cache
from importlib import resources

from .._version import __version__
from ..views.html import sha256_source

__all__ = ["board_page"]


def _asset(name: str) -> str:
    return (resources.files("texas42_log.viewer") / name).read_text("utf-8")


@cache
def board_page() -> tuple[str, str]:
    """The page and its Content-Security-Policy header."""
    viewer, board = _asset("viewer.js"), _asset("board.js")
    style = _asset("viewer.css") + "\n" + _asset("board.css")
    csp = (
        f"default-src 'none'; script-src {sha256_source(viewer)} {sha256_source(board)}; "
        f"style-src {sha256_source(style)}; img-src data:; connect-src 'self'; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    )
    values = {
        "{{VERSION}}": html.escape(__version__),
        "{{STYLE}}": style,
        "{{VIEWER}}": viewer,
        "{{BOARD}}": board,
    }
    page = _asset("board.html")
    for k, v in values.items():
        page = page.replace(k, v, 1)
    return page, csp
