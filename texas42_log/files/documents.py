"""Inputs that are not (yet) matches: the texas42-log documents of any format version
(``texas42 upgrade``), and files of items (the comments ``annotate add --from`` adds).

They are read through :mod:`.reader` (its limits, refusals and format detection), and
nothing here validates a match.
"""

from __future__ import annotations

import io
from typing import IO, Any

from .reader import ReadError, read_chunks, read_text

__all__ = ["read_documents", "read_items"]


def read_documents(name: str, stdin: IO[bytes] | None = None) -> list[tuple[int, dict[str, Any]]]:
    """The texas42-log documents of a JSON or JSON Lines input, of any format version
    (for ``upgrade``: nothing is validated but their being documents), each with the
    line it starts on. :class:`ReadError` where one is not JSON, not an object, or not
    a texas42-log document."""
    from ..log.strictjson import JSONError, loads
    from ..log.upgrade import STEPS

    chunks = read_chunks(name, stdin)
    if not any(chunk.strip() for _, chunk in chunks):
        raise ReadError(f"{name} is empty; there is no log to upgrade")
    docs = []
    for first, chunk in chunks:
        try:
            doc = loads(chunk)
        except JSONError as e:
            raise ReadError(
                f"{name}:{first + (e.line or 1) - 1}:{e.column or 1}: error json: {e.message}",
                diagnostic=True,
            ) from None
        if not isinstance(doc, dict):
            raise ReadError(
                f"{name}:{first}: error format: a log is a JSON object", diagnostic=True
            )
        if doc.get("format") != "texas42-log" and str(doc.get("version")) not in STEPS:
            raise ReadError(
                f'{name}:{first}: error format: not a texas42-log document (it needs "format": '
                '"texas42-log" and a "version")',
                diagnostic=True,
            )
        docs.append((first, doc))
    return docs


def read_items(name: str, stdin: IO[bytes] | None = None) -> list[dict[str, Any]]:
    """The objects of a file of items (comments to add: ``annotate add --from``): a JSON
    array or object, JSON Lines, or CSV with a header row (by its ``.csv`` name)."""
    import csv

    text = read_text(name, stdin)
    items: list[Any]
    if name.lower().endswith(".csv"):
        try:
            items = list(csv.DictReader(io.StringIO(text)))
        except csv.Error as e:
            raise ReadError(f"{name}: not a CSV file of comments ({e})") from None
    else:
        items = _json_items(name, text)
    if not all(isinstance(x, dict) for x in items):
        raise ReadError(
            f'{name}: each item is an object such as {{"hand": 3, "play": 12, "text": "…"}}'
        )
    if not items:
        raise ReadError(f"{name} holds no comments to add; nothing written")
    return items


def _json_items(name: str, text: str) -> list[Any]:
    """A JSON value (a list of items, or one) or JSON Lines (an item a line)."""
    from ..log.strictjson import JSONError, loads

    try:
        value = loads(text)
        return value if isinstance(value, list) else [value]
    except JSONError as whole:
        lines = [(n, line) for n, line in enumerate(text.split("\n"), start=1) if line.strip()]
        if len(lines) < 2:
            raise ReadError(f"{name}:{whole.line}:{whole.column}: {whole.message}") from None
        items = []
        for n, line in lines:
            try:
                items.append(loads(line))
            except JSONError as e:
                raise ReadError(
                    f"{name}:{n}:{e.column}: neither JSON nor JSON Lines ({e.message})"
                ) from None
        return items
