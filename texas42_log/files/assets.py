"""The viewer's files, installed with the package (``texas42_log.viewer``: the page, its
scripts and styles), read here and handed to the pages that are made of them — the
viewer (:func:`texas42_log.views.html.render_html`), the board and the table. The views
read no package data themselves: they are given the files.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

__all__ = ["viewer_asset"]


@cache
def viewer_asset(name: str) -> str:
    """One file of the viewer (``texas42_log.viewer``), read once."""
    return (resources.files("texas42_log.viewer") / name).read_text("utf-8")
