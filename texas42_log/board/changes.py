"""A save request as a page sends it: its version and its changes, each checked before
anything is applied (a malformed request is refused whole with a sentence, status 400)."""

from __future__ import annotations

from typing import Any

from ..log.annotate import Target
from ..log.comments import MAX_AUTHOR, MAX_TEXT, Add, Change, Edit, Remove
from .errors import BoardError

__all__ = ["MAX_CHANGES", "parse_changes", "Held"]

#: The most changes one save may carry.
MAX_CHANGES = 500


def _int(item: dict[str, Any], key: str, k: int) -> int | None:
    v = item.get(key)
    if v is None:
        return None
    if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 100_000:
        raise BoardError(400, f"change {k}: {key} must be a whole number from 1")
    return v


def _str(item: dict[str, Any], key: str, k: int, limit: int, need: bool = True) -> str | None:
    v = item.get(key)
    if v is None and not need:
        return None
    if not isinstance(v, str):
        raise BoardError(400, f"change {k}: {key} must be text")
    if len(v) > limit:
        raise BoardError(400, f"change {k}: {key} holds more than {limit:,} characters")
    return v


#: The version a page holds: the board's epoch (None: not said, the counter alone is
#: compared) and its counter.
Held = tuple[str | None, int]


def _held(body: dict[str, Any]) -> Held:
    version, epoch = body.get("version"), body.get("epoch")
    if not isinstance(version, int) or isinstance(version, bool) or not 0 < version < 2**53:
        raise BoardError(400, "a save names the version its page holds (a whole number)")
    if epoch is not None and (not isinstance(epoch, str) or len(epoch) > 16):
        raise BoardError(400, "a save names the board's epoch its page holds (a short text)")
    return epoch, version


def parse_changes(body: Any) -> tuple[Held, list[Change]]:
    """A save request's version and changes: ``{"epoch": "…", "version": 3, "changes":
    [{"op": "add", "on": {"hand": 2, "play": 13}, "text": …, "author": …}, {"op":
    "edit", "id": …, "base": …, "text": …}, {"op": "remove", "id": …, "base": …}]}``.
    An edit's author is not taken: an edit keeps who wrote the comment."""
    if not isinstance(body, dict):
        raise BoardError(400, "a save is a JSON object with version and changes")
    held = _held(body)
    items = body.get("changes")
    if not isinstance(items, list) or not 1 <= len(items) <= MAX_CHANGES:
        raise BoardError(400, f"a save carries 1 to {MAX_CHANGES} changes")
    out: list[Change] = []
    for k, item in enumerate(items, start=1):
        if not isinstance(item, dict):
            raise BoardError(400, f"change {k} is not an object")
        op = item.get("op")
        if op == "add":
            on = item.get("on")
            if not isinstance(on, dict):
                raise BoardError(400, f"change {k}: an add names what it is on ('on')")
            hand = _int(on, "hand", k)
            call, play = _int(on, "call", k), _int(on, "play", k)
            declaration = on.get("declaration") is True
            if sum((call is not None, play is not None, declaration)) > 1 or (
                hand is None and (call or play or declaration)
            ):
                raise BoardError(400, f"change {k}: on the match, a hand, or one action of it")
            text = _str(item, "text", k, MAX_TEXT)
            author = _str(item, "author", k, MAX_AUTHOR, need=False)
            assert text is not None
            out.append(Add(Target(hand, call, play, declaration), text, author or None))
        elif op in ("edit", "remove"):
            key = _str(item, "id", k, 80)
            base = _str(item, "base", k, MAX_TEXT)
            assert key is not None and base is not None
            if op == "remove":
                out.append(Remove(key, base))
            else:
                text = _str(item, "text", k, MAX_TEXT)
                _str(item, "author", k, MAX_AUTHOR, need=False)  # checked, not taken
                assert text is not None
                out.append(Edit(key, base, text, None))
        else:
            raise BoardError(400, f"change {k}: op is add, edit or remove")
    return held, out
