"""The log a board holds, who may see what of it, and the save that merges comments.

The board reads its log once at the start, in any format ``convert`` reads. It saves to
one JSON file: the log itself when it is our JSON, else the file ``--save`` names or a
JSON file beside it. A save reads that file again, applies the page's changes to what
is there now (:func:`texas42_log.log.comments.apply_changes`: everyone's additions
kept, two edits of one comment a conflict told with both texts), and writes it
atomically; a file changed beyond its comments meanwhile is not written over.

The version a page holds is a counter, raised by each change the board makes or sees
on disk; it is never derived from the log's bytes (a hash of the log would let a seat
test guesses of the tiles it cannot see).
"""

from __future__ import annotations

import json
import os
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from ..files.formats import write_matches
from ..files.inputs import InputError
from ..files.outputs import write_atomic
from ..files.reader import read_view_as
from ..files.validate import ValidationResult, validate_bytes
from ..log.annotate import Target
from ..log.comments import (
    MAX_AUTHOR,
    MAX_TEXT,
    Add,
    Change,
    CommentError,
    Edit,
    Remove,
    apply_changes,
    content_key,
)
from ..log.model import Match
from ..views.html import page_data
from ..views.locales import catalogue
from ..views.model import OBSERVERS, Observer

__all__ = [
    "OWNER",
    "Access",
    "Board",
    "BoardError",
    "StartError",
    "MAX_CHANGES",
    "parse_changes",
]

#: Whom the board's own address is for (every observer).
OWNER = "the board's user"
#: The most changes one save may carry.
MAX_CHANGES = 500


class BoardError(Exception):
    """A request the board refuses: ``status`` (400, 403, 404, 409, 429) and a sentence."""

    def __init__(self, status: int, message: str, extra: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra or {}


class StartError(Exception):
    """The board cannot start: ``usage`` (exit 2) or the log is refused (exit 1)."""

    def __init__(self, message: str, *, usage: bool = False, report: str = "") -> None:
        super().__init__(message)
        self.usage = usage
        self.report = report


@dataclass(frozen=True, slots=True)
class Access:
    """What one token opens: who it is for and the observers it may choose."""

    name: str
    observers: tuple[str, ...]

    @property
    def owner(self) -> bool:
        return self.observers == OBSERVERS


def _stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


@dataclass
class Board:
    """The board's log and everything it has sent or saved (one per server)."""

    #: The log as shown in sentences, and where it is saved.
    source: str
    save_path: Path
    match: Match
    lang: str = "en"
    #: Whether the log was read from the file it saves to.
    saves_in_place: bool = True
    version: int = 1
    #: The version at which the log's content beyond its comments last changed.
    content_version: int = 1
    tokens: dict[str, Access] = field(default_factory=dict)
    #: Why the file on disk cannot be saved to now (invalid, another log), or None.
    disk_problem: str | None = None
    _stamp: tuple[int, int, int] | None = None
    _content: str = ""
    _cache: dict[tuple[int, str, int], tuple[bytes, frozenset[str]]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    # -- starting ----------------------------------------------------------------

    @classmethod
    def open(
        cls, name: str, *, number: int | None = None, save: str | None = None, lang: str = "en"
    ) -> Board:
        """Read log ``name`` (match ``number`` of several, from 1) and choose where it saves:
        ``save``, the log itself if it is our JSON file, else a JSON file beside it."""
        if name == "-":
            raise StartError(
                "the board saves comments into a file: give the log's file name, not '-'",
                usage=True,
            )
        source, fmt, results = _read(name)
        broken = [(k, r) for k, r in enumerate(results, 1) if not r.valid]
        if number is None and len(results) > 1 and broken:  # a broken match first
            k, r = broken[0]
            raise StartError(
                f"{source} (match {k}) is not a valid log; the board opens valid logs only",
                report=_report(f"{source} (match {k})", r),
            )
        if number is None and len(results) > 1:
            raise StartError(
                f"{source} holds {len(results)} matches: give --match N (from 1)", usage=True
            )
        k = (number or 1) - 1
        if not 0 <= k < len(results):
            raise StartError(f"--match {k + 1}: {source} holds {len(results)}", usage=True)
        result = results[k]
        if not result.valid or result.match is None:
            raise StartError(
                f"{source} is not a valid log; the board opens valid logs only",
                report=_report(source, result),
            )
        is_file = os.path.isfile(name)
        ours = fmt == "json" and is_file and len(results) == 1
        if save is not None:
            target = Path(save)
            if target.suffix.lower() != ".json":
                raise StartError(f"--save {save}: the board saves a .json file", usage=True)
        elif ours:
            target = Path(name)
        elif is_file:
            stem = Path(name).with_suffix("")
            target = Path(f"{stem}-{k + 1}.json" if len(results) > 1 else f"{stem}.json")
        else:
            raise StartError(
                f"{source} is not a file to save beside: give --save FILE.json", usage=True
            )
        board = cls(source, target, result.match, lang)
        board.saves_in_place = save is None and ours
        if not board.saves_in_place and target.exists():
            board._continue_from(target)
        board._content = content_key(board.match)
        board._stamp = _stamp(target)
        return board

    def _continue_from(self, target: Path) -> None:
        """A save file from an earlier board of the same log: start from it (its comments)."""
        try:
            _, fmt, results = _read(str(target))
        except StartError as e:
            raise StartError(f"{target} exists and cannot be read: {e}", usage=True) from None
        found = results[0].match if len(results) == 1 and results[0].valid else None
        if fmt != "json" or found is None or content_key(found) != content_key(self.match):
            raise StartError(
                f"{target} exists and holds another log (or not a valid one): give --save "
                "with a new file name",
                usage=True,
            )
        self.match = found

    def add_tokens(self, seats: bool) -> None:
        """The board's user's token (every observer) and, with ``seats``, one per seat."""
        self.tokens[secrets.token_urlsafe(24)] = Access(OWNER, OBSERVERS)
        if seats:
            for s in "ABCD":
                self.tokens[secrets.token_urlsafe(24)] = Access(f"seat {s}", (s, "public"))

    def token_for(self, name: str) -> str:
        return next(t for t, a in self.tokens.items() if a.name == name)

    def access(self, token: str | None) -> Access | None:
        """The access a token opens (compared in constant time), or None."""
        if not token:
            return None
        found = None
        for known, access in self.tokens.items():
            if secrets.compare_digest(known.encode(), token.encode("utf-8", "replace")):
                found = access
        return found

    # -- what a page sees ---------------------------------------------------------

    def refresh(self) -> None:
        """Take in a change to the save file on disk (``annotate``, an editor): the
        version is raised, and the content version too if more than comments changed."""
        stamp = _stamp(self.save_path)
        if stamp is None or stamp == self._stamp:
            return
        try:
            _, fmt, results = _read(str(self.save_path))
            found = results[0].match if len(results) == 1 and results[0].valid else None
            problem = None if fmt == "json" and found is not None else "not a valid log now"
        except StartError as e:
            found, problem = None, str(e)
        self._stamp = stamp
        if found is None:
            self.disk_problem = (
                f"{self.save_path} changed on disk and is {problem}: the board saves when it is "
                "a valid log again"
            )
            return
        self.disk_problem = None
        self.match = found
        self.version += 1
        key = content_key(found)
        if key != self._content:
            self._content = key
            self.content_version = self.version
        self._cache.clear()

    def check_observer(self, access: Access, observer: str) -> None:
        if observer not in OBSERVERS:
            raise BoardError(
                400, f"{observer[:20]!r} is no observer: one of {', '.join(OBSERVERS)}"
            )
        if observer not in access.observers:
            raise BoardError(
                403, f"this address is {access.name}'s: it shows {' and '.join(access.observers)}"
            )

    def data(
        self,
        access: Access,
        observer: str,
        answers: int = 0,
        analysed: Callable[[], Match | None] | None = None,
    ) -> bytes:
        """The response for a page of ``observer``: the version and the views
        (:func:`~texas42_log.views.html.page_data`) — of the log with the analysis asked
        so far (``analysed()``) when there is some. Kept until the version changes or
        more answers come in (``answers``: how many the asker holds)."""
        self.check_observer(access, observer)
        return self._data(observer, answers, analysed)[0]

    def _data(
        self, observer: str, answers: int, analysed: Callable[[], Match | None] | None
    ) -> tuple[bytes, frozenset[str]]:
        key = (self.version, observer, answers)
        if key in self._cache:
            return self._cache[key]
        match = (analysed() if analysed is not None and answers else None) or self.match
        try:
            data = page_data(match, cast(Observer, observer), self.lang)
        except ValueError as e:  # a review before any hand has ended (R29)
            raise BoardError(400, str(e)) from None
        # the board's own labels in the views' language (the catalogue's board.* keys)
        data["board_ui"] = {
            k[6:]: v for k, v in catalogue(self.lang).items() if k.startswith("board.")
        }
        ids = frozenset(
            n["id"] for h in data["hands"] for e in h["views"] for n in e["view"]["notes"]
        )
        body = {"version": self.version, "observer": observer, "data": data}
        out = (json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8"), ids)
        self._cache = {k: v for k, v in self._cache.items() if k[0] == self.version}
        self._cache[key] = out
        return out

    def visible_comments(self, access: Access) -> frozenset[str]:
        """The keys of the comments this address's observers are shown (at some moment)."""
        out: frozenset[str] = frozenset()
        for observer in access.observers:
            out |= self._data(observer, 0, None)[1]  # the comments, with no analysis
        return out

    def about(self, access: Access) -> dict[str, Any]:
        """What the page asks first: the version and the observers this address may choose
        (the file's name only for the board's user)."""
        out: dict[str, Any] = {"version": self.version, "observers": list(access.observers)}
        if access.owner:
            out["saves_to"] = str(self.save_path)
            out["source"] = self.source
        return out

    # -- saving -------------------------------------------------------------------

    def save(self, access: Access, version: int, changes: list[Change]) -> dict[str, Any]:
        """Merge ``changes``, made on ``version``, into the save file (module docstring)."""
        with self._lock:
            for _ in range(5):  # the file changed between reading and writing: merge again
                out = self._save(access, version, changes)
                if out is not None:
                    return out
            raise BoardError(409, f"{self._shown()} keeps changing on disk: save again")

    def _save(self, access: Access, version: int, changes: list[Change]) -> dict[str, Any] | None:
        """One try of :meth:`save`; None when the file changed on disk meanwhile."""
        self.refresh()
        if self.disk_problem is not None:
            raise BoardError(409, self.disk_problem)
        if version < self.content_version:
            raise BoardError(
                409,
                f"{self._shown()} changed on disk beyond its comments since this page read "
                "it: the page reloads it; your changes are kept here, not saved",
            )
        if not access.owner:
            visible = self.visible_comments(access)
            for c in changes:
                if isinstance(c, Edit | Remove) and c.key not in visible:
                    raise BoardError(
                        403, f"no comment {c.key[:40]!r} is shown at {access.name}'s address"
                    )
        try:
            applied = apply_changes(self.match, changes)
        except CommentError as e:
            raise BoardError(400, str(e)) from None
        written = False
        if applied.match != self.match:
            text = write_matches([applied.match], "json")
            check = validate_bytes(text.encode("utf-8"))
            if not check.valid:  # never write a log validate would refuse
                raise BoardError(409, f"not saved: {check.errors[0].message}")
            if _stamp(self.save_path) != self._stamp:
                return None
            try:
                write_atomic(self.save_path, text, replace=self.save_path.exists())
            except FileExistsError:
                raise BoardError(
                    409, f"{self._shown()} appeared on disk meanwhile: save again"
                ) from None
            except OSError as e:
                raise BoardError(409, f"not saved: {e}") from None
            self.match = applied.match
            self._stamp = _stamp(self.save_path)
            self.version += 1
            written = True
        return {
            "version": self.version,
            "saved": written,
            "ids": applied.ids,
            "conflicts": [
                {
                    "index": c.index,
                    "id": c.key,
                    "base": c.base,
                    "theirs": c.theirs,
                    "yours": c.yours,
                    "message": c.sentence(),
                }
                for c in applied.conflicts
            ],
        }

    def _shown(self) -> str:
        return self.save_path.name


def _read(name: str) -> tuple[str, str, list[ValidationResult]]:
    try:
        return read_view_as(name)
    except InputError as e:
        raise StartError(str(e), usage=e.usage) from None


def _report(source: str, result: ValidationResult) -> str:
    from ..files.report import result_text

    return result_text(source, result)


# -- a save's changes, as a page sends them --------------------------------------------


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


def parse_changes(body: Any) -> tuple[int, list[Change]]:
    """A save request's version and changes: ``{"version": 3, "changes": [{"op": "add",
    "on": {"hand": 2, "play": 13}, "text": …, "author": …}, {"op": "edit", "id": …,
    "base": …, "text": …}, {"op": "remove", "id": …, "base": …}]}``."""
    if not isinstance(body, dict):
        raise BoardError(400, "a save is a JSON object with version and changes")
    version = body.get("version")
    items = body.get("changes")
    if not isinstance(version, int) or isinstance(version, bool) or not 0 < version < 2**53:
        raise BoardError(400, "a save names the version its page holds (a whole number)")
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
                author = _str(item, "author", k, MAX_AUTHOR, need=False)
                assert text is not None
                out.append(Edit(key, base, text, author or None))
        else:
            raise BoardError(400, f"change {k}: op is add, edit or remove")
    return version, out
