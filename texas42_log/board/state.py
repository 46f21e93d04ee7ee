"""The log a board holds, who may see and change what of it, and the save that merges
comments.

The board reads its log once at the start, in any format ``convert`` reads. It saves to
one JSON file: the log itself when it is our JSON, else the file ``--save`` names or a
JSON file beside it. A save takes the log's writer lock
(:mod:`texas42_log.files.locking`) for its whole step: it reads that file again, applies
the page's changes to what is there now (:func:`texas42_log.log.comments.apply_changes`:
everyone's additions kept, each change applied or reported on its own), validates, and
replaces the file atomically; a file changed beyond its comments since the page read it
is not written over (409, the page re-reads).

Each seat owns its words: an address of a seat adds comments that record the seat
(format 1.9) and edits or removes only those; the owner's address may change any.

The version a page holds is the board's epoch and a counter, kept between runs with
the links (:mod:`texas42_log.board.links`); it is never derived from the log's bytes (a
hash of the log would let a seat test guesses of the tiles it cannot see).

Slow work — re-reading the log, building an observer's data, a save — runs on the
server's worker threads, never on its event loop; the data built is kept in a cache
bounded in bytes (:data:`CACHE_BYTES`).
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from ..files.formats import write_matches
from ..files.inputs import InputError
from ..files.locking import LockTimeout, lock_seconds, stamp, writer_lock
from ..files.outputs import sweep_leftovers, write_atomic
from ..files.reader import read_view_as
from ..files.validate import ValidationResult, validate_bytes
from ..log.comments import OWNER_WRITER, Change, CommentError, apply_changes, content_key
from ..log.model import Match
from ..views.html import page_data
from ..views.locales import DEFAULT_LANGUAGE, catalogue
from ..views.model import OBSERVERS, Observer
from .changes import MAX_CHANGES, Held, parse_changes
from .errors import BoardError, StartError
from .links import NAMES, Links, LinksNotKept, links_file, load_links, store_links

__all__ = [
    "OWNER",
    "REVIEW",
    "Access",
    "Board",
    "BoardError",
    "StartError",
    "MAX_CHANGES",
    "CACHE_BYTES",
    "parse_changes",
]

#: Whom the board's own address is for (every observer).
OWNER = "the board's user"
#: Whom the read-only review address is for (``--review-link``).
REVIEW = "the review"
#: The most bytes of built page data a board keeps (least recently used goes first).
CACHE_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Access:
    """What one token opens: who it is for, the observers it may choose, and who it
    writes as (``owner``, a seat, or None: it only reads)."""

    name: str
    observers: tuple[str, ...]
    writer: str | None = OWNER_WRITER

    @property
    def owner(self) -> bool:
        return self.observers == OBSERVERS

    @property
    def whose(self) -> str:
        """Its name as a possessive: "seat A's", "the onlookers'" (never "onlookers's")."""
        return f"{self.name}'" if self.name.endswith("s") else f"{self.name}'s"


#: Each kept link's access.
ACCESS = {
    "owner": Access(OWNER, OBSERVERS),
    **{s: Access(f"seat {s}", (s, "public"), s) for s in "ABCD"},
    "review": Access(REVIEW, ("review",), None),
}


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def access_by_token(tokens: dict[str, Access], token: str | None) -> Access | None:
    """The access ``token`` opens among ``tokens``, or None: every token is compared,
    each in constant time, so the time taken does not tell which one is near."""
    if not token:
        return None
    found = None
    for known, access in tokens.items():
        if secrets.compare_digest(known.encode(), token.encode("utf-8", "replace")):
            found = access
    return found


@dataclass
class Board:
    """The board's log and everything it has sent or saved (one per server)."""

    #: The log as shown in sentences, and where it is saved.
    source: str
    save_path: Path
    match: Match
    lang: str = DEFAULT_LANGUAGE
    #: Whether the log was read from the file it saves to.
    saves_in_place: bool = True
    version: int = 1
    #: The version at which the log's content beyond its comments last changed.
    content_version: int = 1
    #: The board's epoch: new with new links; a page of another epoch re-reads first.
    epoch: str = field(default_factory=lambda: secrets.token_urlsafe(6))
    tokens: dict[str, Access] = field(default_factory=dict)
    #: The kept links (tokens, last port, version), once :meth:`use_links` has run.
    links: Links | None = None
    #: Why the file on disk cannot be saved to now (invalid, another log), or None.
    disk_problem: str | None = None
    #: Why the links could not be kept at the last change, or None.
    links_problem: str | None = None
    _names: tuple[str, ...] = ()
    #: The links file (its path worked out once) and its stamp when last read or written.
    _links_path: Path | None = None
    _links_stamp: tuple[int, int, int] | None = None
    _stamp: tuple[int, int, int] | None = None
    _content: str = ""
    _cache: OrderedDict[tuple[int, str, int, str], tuple[bytes, frozenset[str]]] = field(
        default_factory=OrderedDict
    )
    _cached_bytes: int = 0
    #: Guards the board's state (match, version, stamp, cache): held briefly.
    _lock: threading.RLock = field(default_factory=threading.RLock)
    #: One save at a time in this process (the writer lock orders them with others).
    _saving: threading.Lock = field(default_factory=threading.Lock)
    #: One re-read of the file at a time.
    _reading: threading.Lock = field(default_factory=threading.Lock)

    # -- starting ----------------------------------------------------------------

    @classmethod
    def open(
        cls,
        name: str,
        *,
        number: int | None = None,
        save: str | None = None,
        lang: str = DEFAULT_LANGUAGE,
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
        board._stamp = stamp(target)
        sweep_leftovers(target.parent if str(target.parent) else Path("."))
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

    def use_links(self, *, seats: bool, review: bool, new: bool = False) -> None:
        """The addresses this run answers: the owner's, each seat's with ``seats``, the
        review's with ``review`` — the same as the last run's for this save file unless
        ``new`` (:mod:`texas42_log.board.links`); the version goes on from the last run's.
        :class:`StartError` (a usage error) when the links cannot be kept."""
        kept = None if new else load_links(self.save_path)
        key = _digest(self._content)
        issue = kept is None
        if kept is None:
            kept = Links(os.path.realpath(self.save_path), content=key)
        else:
            # Comments may have changed while the board was stopped: a new version; the
            # content version stays only when the content is what it was.
            kept.version += 1
            if kept.content != key:  # a page from before reads the log again first
                kept.content, kept.content_version = key, kept.version
                kept.epoch = secrets.token_urlsafe(6)
        self.links = kept
        self._names = tuple(
            n
            for n in NAMES
            if n == "owner" or (seats and n in "ABCD") or (review and n == "review")
        )
        self.epoch, self.version, self.content_version = (
            kept.epoch,
            kept.version,
            kept.content_version,
        )
        self._serve(kept)
        try:
            self._keep(issue=issue)
        except LinksNotKept as e:
            raise StartError(str(e.strerror), usage=True) from None

    def _serve(self, links: Links) -> None:
        """Answer ``links``' tokens (of the addresses this run has), no others."""
        self.tokens = {links.tokens[n]: ACCESS[n] for n in self._names}

    def _keep(self, port: int | None = None, *, issue: bool = False) -> None:
        """Store the links and the version (after a change of either), merged with what
        another run kept meanwhile: a revocation wins (:func:`store_links`), and this run
        then answers the new links only. :class:`LinksNotKept` when they cannot be kept."""
        links = self.links
        if links is None:
            return
        with self._lock:
            links.version, links.content_version = self.version, self.content_version
            if port is not None:
                links.port = port
            if store_links(self.save_path, links, issue=issue):
                self._serve(links)
                self.epoch = links.epoch
            self.version = links.version
            self._links_path = self._links_path or links_file(self.save_path)
            self._links_stamp = stamp(self._links_path)

    def _keep_or_say(self) -> None:
        """:meth:`_keep` during the run: a failure is said on the board's answers
        (:attr:`links_problem`), not raised into a save that did write the log."""
        try:
            self._keep()
            self.links_problem = None
        except LinksNotKept as e:
            self.links_problem = str(e.strerror)

    def listened(self, port: int) -> None:
        """The port this run listens on, kept for the next."""
        try:
            self._keep(port)
        except LinksNotKept as e:
            raise StartError(str(e.strerror), usage=True) from None

    @property
    def last_port(self) -> int | None:
        return None if self.links is None else self.links.port

    def token_for(self, name: str) -> str:
        return next(t for t, a in self.tokens.items() if a.name == name)

    def access(self, token: str | None) -> Access | None:
        """The access a token opens (compared in constant time), or None. Links another
        run made since (``--new-links``) are taken first: a revoked token opens nothing
        here either (a ``stat`` of the links file a request)."""
        path = self._links_path
        if self.links is not None and path is not None and stamp(path) != self._links_stamp:
            with self._lock:
                kept = load_links(self.save_path)
                self._links_stamp = stamp(path)
                if kept is not None and kept.tokens != self.links.tokens:
                    self.links.take(kept)
                    self.epoch = kept.epoch
                    self._serve(self.links)
        return access_by_token(self.tokens, token)

    # -- what a page sees ---------------------------------------------------------

    def changed_on_disk(self) -> bool:
        """Whether the save file is not the one last read or written (a cheap ``stat``)."""
        return stamp(self.save_path) != self._stamp

    def refresh(self) -> None:
        """Take in a change to the save file on disk (``annotate``, an editor): the
        version is raised, and the content version too if more than comments changed.
        Slow for a large log (it is read and validated): call it off the event loop."""
        with self._reading:
            now = stamp(self.save_path)
            if now is None or now == self._stamp:
                return
            try:
                _, fmt, results = _read(str(self.save_path))
                found = results[0].match if len(results) == 1 and results[0].valid else None
                problem = None if fmt == "json" and found is not None else "not a valid log now"
            except StartError as e:
                found, problem = None, str(e)
            with self._lock:
                self._stamp = now
                if found is None:
                    self.disk_problem = (
                        f"{self.save_path} changed on disk and is {problem}: the board saves "
                        "when it is a valid log again"
                    )
                    return
                self._took(found)

    def _took(self, found: Match) -> None:
        """``found`` is the log now: a new version (a new content version if more than
        its comments changed); the cache of the old one is dropped."""
        self.disk_problem = None
        self.match = found
        self.version += 1
        key = content_key(found)
        if key != self._content:
            self._content = key
            if self.links is not None:  # hashed once a content, not at every save
                self.links.content = _digest(key)
            self.content_version = self.version
        self._cache.clear()
        self._cached_bytes = 0
        self._keep_or_say()

    def check_observer(self, access: Access, observer: str) -> None:
        if observer not in OBSERVERS:
            raise BoardError(
                400, f"{observer[:20]!r} is no observer: one of {', '.join(OBSERVERS)}"
            )
        if observer not in access.observers:
            raise BoardError(
                403, f"this address is {access.whose}: it shows {' and '.join(access.observers)}"
            )

    def data(
        self,
        access: Access,
        observer: str,
        answers: int = 0,
        analysed: Callable[[], Match | None] | None = None,
        lang: str | None = None,
    ) -> bytes:
        """The response for a page of ``observer``: the version and the views
        (:func:`~texas42_log.views.html.page_data`) — of the log with the analysis asked
        so far (``analysed()``) when there is some — in ``lang`` (None: the board's own).
        Kept until the version changes or more answers come in (``answers``: how many the
        asker holds)."""
        self.check_observer(access, observer)
        return self._data(observer, answers, analysed, lang or self.lang)[0]

    def _data(
        self,
        observer: str,
        answers: int,
        analysed: Callable[[], Match | None] | None,
        lang: str | None = None,
    ) -> tuple[bytes, frozenset[str]]:
        lang = lang or self.lang
        with self._lock:
            version, match = self.version, self.match
            key = (version, observer, answers, lang)
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
        match = (analysed() if analysed is not None and answers else None) or match
        try:
            data = page_data(match, cast(Observer, observer), lang)
        except ValueError as e:  # a review before any hand has ended (R29)
            raise BoardError(400, str(e)) from None
        # the board's own labels in the views' language (the catalogue's board.* keys)
        data["board_ui"] = {k[6:]: v for k, v in catalogue(lang).items() if k.startswith("board.")}
        ids = frozenset(item[0] for g in data["notes"]["groups"] for item in g["items"])
        body = {"epoch": self.epoch, "version": version, "observer": observer, "data": data}
        out = (json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8"), ids)
        with self._lock:
            if version == self.version:
                self._cache[key] = out
                self._cached_bytes += len(out[0])
                while self._cached_bytes > CACHE_BYTES and len(self._cache) > 1:
                    _, (old, _) = self._cache.popitem(last=False)
                    self._cached_bytes -= len(old)
        return out

    def visible_comments(self, access: Access) -> frozenset[str]:
        """The keys of the comments this address's observers are shown (at some moment)."""
        out: frozenset[str] = frozenset()
        for observer in access.observers:
            try:
                out |= self._data(observer, 0, None)[1]  # the comments, with no analysis
            except BoardError:
                continue  # a review before any hand has ended shows none
        return out

    def about(self, access: Access) -> dict[str, Any]:
        """What the page asks first: the version, the observers this address may choose
        and whether it may write (the file's name only for the board's user). Quick: it
        reads nothing."""
        out: dict[str, Any] = {
            "epoch": self.epoch,
            "version": self.version,
            "observers": list(access.observers),
            "writes": access.writer is not None,
            "writer": access.writer,
        }
        if access.owner:
            out["saves_to"] = str(self.save_path)
            out["source"] = self.source
            if self.links_problem is not None:
                out["links_problem"] = self.links_problem
        return out

    # -- saving -------------------------------------------------------------------

    def save(
        self,
        access: Access,
        held: Held,
        changes: list[Change],
        *,
        deadline: float | None = None,
    ) -> dict[str, Any]:
        """Merge ``changes``, made on the version ``held``, into the save file under its
        writer lock (module docstring). Slow: call it off the event loop. Every wait —
        for this board's other saves, then for the writer lock — ends by ``deadline``
        (:func:`time.monotonic`; default :func:`lock_seconds` from now): past it the
        save answers 409 and nothing is written."""
        if access.writer is None:
            raise BoardError(403, f"this address is {access.whose}: it only reads")
        end = time.monotonic() + lock_seconds() if deadline is None else deadline
        busy = (
            f"{self._shown()} is being written by another save or texas42 command: "
            "nothing was saved, save again"
        )
        if not self._saving.acquire(timeout=max(0.0, end - time.monotonic())):
            raise BoardError(409, busy)
        try:
            with writer_lock(self.save_path, seconds=max(0.0, end - time.monotonic())):
                return self._save(access, held, changes)
        except LockTimeout:
            raise BoardError(409, busy) from None
        except OSError as e:
            raise BoardError(409, f"not saved: {getattr(e, 'strerror', None) or e}") from None
        finally:
            self._saving.release()

    def _save(self, access: Access, held: Held, changes: list[Change]) -> dict[str, Any]:
        """:meth:`save` with the writer lock held."""
        self.refresh()
        if self.disk_problem is not None:
            raise BoardError(409, self.disk_problem)
        epoch, version = held
        if (epoch is not None and epoch != self.epoch) or version < self.content_version:
            raise BoardError(
                409,
                f"{self._shown()} changed on disk beyond its comments since this page read "
                "it (or the board has new links): the page reads it again; your changes are "
                "kept there, not saved",
                {"reread": True},
            )
        visible = None if access.owner else self.visible_comments(access)
        assert access.writer is not None
        try:
            applied = apply_changes(self.match, changes, access.writer, visible)
        except CommentError as e:
            raise BoardError(400, str(e)) from None
        written = False
        # A save none of whose changes was made writes nothing (the ids and the version
        # it would give the file's comments are no change of the user's).
        if any(o.status == "saved" for o in applied.outcomes) and applied.match != self.match:
            text = write_matches([applied.match], "json")
            check = validate_bytes(text.encode("utf-8"))
            if not check.valid:  # never write a log validate would refuse
                raise BoardError(409, f"not saved: {check.errors[0].message}")
            if self.changed_on_disk():  # a writer that ignores the lock (an editor)
                raise BoardError(
                    409, f"{self._shown()} changed on disk just now: save again", {"reread": True}
                )
            try:
                write_atomic(self.save_path, text, replace=self.save_path.exists())
            except FileExistsError:
                raise BoardError(
                    409, f"{self._shown()} appeared on disk meanwhile: save again"
                ) from None
            with self._lock:
                self._stamp = stamp(self.save_path)
                self._took(applied.match)
            written = True
        out: dict[str, Any] = {
            "epoch": self.epoch,
            "version": self.version,
            "saved": written,
            "ids": applied.ids,
            "outcomes": [
                {"status": o.status, "id": o.id, "message": o.message} for o in applied.outcomes
            ],
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
        if not written:
            out["message"] = "nothing changed: no change of this save was made, nothing written"
        return out

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
