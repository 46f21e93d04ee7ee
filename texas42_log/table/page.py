"""The table's page: ``viewer/table.html`` with its script and style inlined. The page is
the same for every address and every match — it holds no token and no view; it asks the
server for those — and its Content-Security-Policy allows its own script and style, by
hash (its own, the wire's, shared with the board: ``viewer/wire.js``, and the
dominoes' drawing, shared with the viewer: ``viewer/domino.js``), and
requests to its own server (the actions and the push channel), nothing more.

It speaks each seat's language (:func:`page_language`: the address's ``?lang=``, else the
browser's ``Accept-Language``, else English), from the views' catalogue: its own words
(the ``table.*`` keys) and the referee's refusals (``refusal.*``, by their message keys,
:data:`texas42_log.play.refusals.KEYS`), carried in the page as a JSON data block that
the script reads (not run, so outside the script hashes)."""

from __future__ import annotations

import html
import json
import re
from functools import cache

from .._version import __version__
from ..files.assets import viewer_asset
from ..views.html import sha256_source
from ..views.locales import DEFAULT_LANGUAGE, catalogue, languages

__all__ = ["table_page", "page_language"]

_TAG = re.compile(r"^[A-Za-z]{1,8}")


def page_language(asked: str | None, accept: str | None) -> str:
    """The language a page is served in: ``asked`` (``?lang=``) if there is a catalogue
    for it, else the first language of ``accept`` (``Accept-Language``, by its weights)
    that has one, else English."""
    known = languages()
    if asked and asked[:8].lower() in known:
        return asked[:8].lower()
    weighed: list[tuple[float, int, str]] = []
    for k, part in enumerate((accept or "")[:1000].split(",")[:30]):
        tag, _, params = part.strip().partition(";")
        m = _TAG.match(tag)
        if not m:
            continue
        q = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    q = float(value[:8])
                except ValueError:
                    q = 0.0
        if m.group(0).lower() in known and q > 0:
            weighed.append((-q, k, m.group(0).lower()))
    return min(weighed)[2] if weighed else DEFAULT_LANGUAGE


@cache
def table_page(lang: str = DEFAULT_LANGUAGE) -> tuple[str, str]:
    """The page in ``lang`` and its Content-Security-Policy header."""
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
    words = {k: v for k, v in catalogue(lang).items() if k.startswith(("table.", "refusal."))}
    data = json.dumps({"lang": lang, "words": words}, ensure_ascii=False)
    page = re.sub(r"\{\{T:([a-z_.]+)\}\}", lambda m: html.escape(words[m.group(1)]), page)
    for key, value in (
        ("{{STYLE}}", style),
        ("{{VERSION}}", html.escape(__version__)),
        ("{{LANG}}", lang),
        ("{{WORDS}}", data.replace("<", "\\u003c")),
    ):
        assert key in page, key
        page = page.replace(key, value, 1)
    assert "{{WIRE}}" in page and "{{SCRIPT}}" in page and "{{DOMINO}}" in page
    page = page.replace("{{WIRE}}", wire, 1).replace("{{DOMINO}}", domino, 1)
    return page.replace("{{SCRIPT}}", script, 1), csp
