"""Comments by id (format 1.7): find, add, edit and remove them, and merge the changes
of several people into the log on disk. Pure: no I/O.

Every comment of a 1.7 log may carry an ``id``, unique in the document, random
(:func:`new_id`), never derived from the log — so it says nothing of the tiles. A
comment without one (written by an older tool, or by ``annotate add``) is named by its
place (:func:`place_key`: ``@hand 3 play 13#1``, its first comment — the target as
the views count it, never a JSON index, which would count rejected attempts) until a
save gives it an id (:func:`with_ids`).

A change is one of :class:`Add`, :class:`Edit` and :class:`Remove`. An edit and a
removal carry the text their writer last saw (``base``); :func:`apply_changes` applies
them to the log as it is now. An add always lands; an edit or a removal of a comment
whose text is no longer ``base`` (someone else edited it meanwhile), or an edit of a
comment someone removed, is a :class:`Conflict` — reported with both texts and not
applied, so that nothing anyone wrote is lost; a removal of a comment already gone is
done already.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.errors import Diagnostic
from .annotate import Target, TargetError, locate_target, place_key
from .model import Annotation, Match, lone_surrogate, match_json, minimal_version
from .versions import COMMENT_IDS_SINCE, at_least_version, version_key

__all__ = [
    "MAX_TEXT",
    "MAX_AUTHOR",
    "MAX_COMMENTS",
    "count_comments",
    "over_cap",
    "carry_comments",
    "take_comments",
    "Add",
    "Edit",
    "Remove",
    "Change",
    "Conflict",
    "Applied",
    "Outcome",
    "Writer",
    "OWNER_WRITER",
    "owns",
    "CommentError",
    "new_id",
    "place_key",
    "comments",
    "Located",
    "with_ids",
    "content_key",
    "raised",
    "apply_changes",
    "id_problems",
    "check_text",
]

#: The longest comment and author name a person may type (characters).
MAX_TEXT = 10_000
MAX_AUTHOR = 200
#: The most comments a texas42 writer (the board, annotate) leaves in a log it adds to:
#: a writers' limit, not a rule of the format (a log holding more stays valid).
MAX_COMMENTS = 10_000


class CommentError(ValueError):
    """A change that cannot be made: bad text, a target or comment that does not exist."""


def new_id() -> str:
    """A fresh comment id: 12 random URL-safe characters (72 bits)."""
    return secrets.token_urlsafe(9)


def check_text(text: str, author: str | None) -> None:
    """Refuse a comment's text or author a log cannot hold or a person should not send."""
    if not text.strip():
        raise CommentError("a comment needs some text")
    if len(text) > MAX_TEXT:
        raise CommentError(
            f"a comment holds at most {MAX_TEXT:,} characters; this one {len(text):,}"
        )
    if author is not None and len(author) > MAX_AUTHOR:
        raise CommentError(f"an author's name holds at most {MAX_AUTHOR} characters")
    for what, value in (("text", text), ("author", author or "")):
        half = lone_surrogate(value)
        if half is not None:
            raise CommentError(f"the comment's {what} holds {half}, half of a character")


@dataclass(frozen=True, slots=True)
class Located:
    """A comment where it is: its key (its id, or ``@`` and its pointer), its pointer, the
    target it is on, and the comment itself."""

    key: str
    pointer: str
    target: Target
    note: Annotation


def _containers(match: Match) -> list[tuple[Target | None, str, Any]]:
    """Every object that holds comments, with its target (None: a rejected attempt)."""
    out: list[tuple[Target | None, str, Any]] = [(Target(), "", match)]
    for i, hand in enumerate(match.hands, start=1):
        hp = f"/hands/{i - 1}"
        out.append((Target(i), hp, hand))
        n = 0
        for j, c in enumerate(hand.auction):
            n += 0 if c.rejected else 1
            out.append((None if c.rejected else Target(i, call=n), f"{hp}/auction/{j}", c))
        if hand.declaration is not None:
            out.append((Target(i, declaration=True), f"{hp}/declaration", hand.declaration))
        n = 0
        for j, p in enumerate(hand.plays):
            n += 0 if p.rejected else 1
            out.append((None if p.rejected else Target(i, play=n), f"{hp}/plays/{j}", p))
    return out


def comments(match: Match) -> list[Located]:
    """Every comment on the match, a hand or an accepted action, in document order (a
    comment on a rejected attempt is on nothing a view shows, and is left out)."""
    out: list[Located] = []
    for target, pointer, obj in _containers(match):
        if target is None:
            continue
        for k, a in enumerate(obj.annotations):
            p = f"{pointer}/annotations/{k}"
            key = a.id if a.id is not None else place_key(target, k + 1)
            out.append(Located(key, p, target, a))
    return out


def content_key(match: Match, *, analysis: bool = True) -> str:
    """The log without its comments and its version (and, with ``analysis=False``,
    without its stated analysis), as one string: what two copies of a log must share
    for comments to merge between them."""
    drop = {"annotations"} if analysis else {"annotations", "analysis"}

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in drop}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    doc = strip(match_json(match))
    doc.pop("version", None)
    return json.dumps(doc, sort_keys=True, ensure_ascii=False)


def take_comments(ours: dict[str, Any], theirs: dict[str, Any]) -> int:
    """Copy into ``ours`` (a log as JSON, changed in place) the comments of ``theirs`` (the
    same match as another writer left it on disk: the board, ``annotate``) for every
    place both hold — the match, each hand, call, declaration and play — for a writer
    that writes no comments of its own (``texas42 record``). Returns how many of
    ``theirs``' comments are on places ``ours`` no longer holds (an entry undone)."""

    def places(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
        out = {"": doc}
        for i, hand in enumerate(doc.get("hands") or []):
            out[f"/hands/{i}"] = hand
            if isinstance(hand.get("declaration"), dict):
                out[f"/hands/{i}/declaration"] = hand["declaration"]
            for key in ("auction", "plays"):
                for j, item in enumerate(hand.get(key) or []):
                    out[f"/hands/{i}/{key}/{j}"] = item
        return out

    mine, other = places(ours), places(theirs)
    lost = 0
    for where, obj in other.items():
        notes = obj.get("annotations")
        if not notes:
            continue
        if where in mine:
            mine[where]["annotations"] = notes
        else:
            lost += len(notes)
    return lost


def count_comments(match: Match) -> int:
    """How many comments ``match`` holds, rejected attempts' included."""
    return sum(len(obj.annotations) for _, _, obj in _containers(match))


def over_cap(before: Match, after: Match) -> str | None:
    """Why a writer may not turn ``before`` into ``after``: it would hold more than
    :data:`MAX_COMMENTS` comments and more than it held (a log that holds more is
    valid; writers only add no more). None when the change is within the cap."""
    n = count_comments(after)
    if n > MAX_COMMENTS and n > count_comments(before):
        return (
            f"a log holds at most {MAX_COMMENTS:,} comments when texas42 adds one "
            f"(this change would make {n:,}): nothing was written"
        )
    return None


def carry_comments(written: Match, current: Match) -> Match | None:
    """``written`` (the log as a slow writer made it from an earlier read) with the
    comments of ``current`` (the log on disk now), so that a comment saved meanwhile is
    kept; None when the two differ beyond their comments and analysis."""
    if content_key(written, analysis=False) != content_key(current, analysis=False):
        return None
    new = written.model_copy(deep=True)
    for (_, _, mine), (_, _, now) in zip(_containers(new), _containers(current), strict=True):
        mine.annotations = now.annotations
    return raised(new)


def with_ids(match: Match) -> Match:
    """``match`` with an id on every comment that has none (a copy; the same match when
    every comment has one)."""
    if all(a.id is not None for _, _, obj in _containers(match) for a in obj.annotations):
        return match
    new = match.model_copy(deep=True)
    for _, _, obj in _containers(new):
        if any(a.id is None for a in obj.annotations):
            obj.annotations = tuple(
                a if a.id is not None else a.model_copy(update={"id": new_id()})
                for a in obj.annotations
            )
    return new


def _noted(match: Match) -> Iterator[tuple[str, Sequence[Annotation]]]:
    """(pointer, comments) of every object holding at least one comment, in document
    order: one pass that builds nothing for an object without comments (validation
    runs it on every log, :func:`id_problems`)."""
    if match.annotations:
        yield "", match.annotations
    for i, hand in enumerate(match.hands):
        if hand.annotations:
            yield f"/hands/{i}", hand.annotations
        for j, c in enumerate(hand.auction):
            if c.annotations:
                yield f"/hands/{i}/auction/{j}", c.annotations
        if hand.declaration is not None and hand.declaration.annotations:
            yield f"/hands/{i}/declaration", hand.declaration.annotations
        for j, p in enumerate(hand.plays):
            if p.annotations:
                yield f"/hands/{i}/plays/{j}", p.annotations


def id_problems(match: Match) -> list[Diagnostic]:
    """A comment id given twice in one document (format 1.7 asks each to be unique), and
    ids in a log that says an older version (a reader of that version would refuse them)."""
    seen: dict[str, str] = {}
    twice: list[Diagnostic] = []
    for pointer, notes in _noted(match):
        for k, a in enumerate(notes):
            if a.id is None:
                continue
            p = f"{pointer}/annotations/{k}/id"
            if a.id in seen:
                twice.append(
                    Diagnostic(
                        "format",
                        f"the comment id {a.id!r} is given twice (first at {seen[a.id]}); "
                        "each comment's id is unique in a log",
                        p,
                    )
                )
            else:
                seen[a.id] = p
    if seen and version_key(match.version) < version_key(COMMENT_IDS_SINCE):
        twice.insert(
            0,
            Diagnostic(
                "format",
                f"this log says version {match.version}, but its comments carry ids, which "
                f"came in format {COMMENT_IDS_SINCE}: write version {COMMENT_IDS_SINCE}",
                "/version",
            ),
        )
    return twice


@dataclass(frozen=True, slots=True)
class Add:
    """A new comment on ``target`` (its id is made when it is applied)."""

    target: Target
    text: str
    author: str | None = None


@dataclass(frozen=True, slots=True)
class Edit:
    """The comment ``key`` with new text (and author), where it read ``base``."""

    key: str
    base: str
    text: str
    author: str | None = None


@dataclass(frozen=True, slots=True)
class Remove:
    """The comment ``key`` removed, where it read ``base``."""

    key: str
    base: str


Change = Add | Edit | Remove


@dataclass(frozen=True, slots=True)
class Conflict:
    """A change not made: the comment ``key`` now reads ``theirs`` (None: removed
    meanwhile), not the ``base`` the change was made on; ``yours``: the change's text
    (None for a removal)."""

    index: int
    key: str
    base: str
    theirs: str | None
    yours: str | None

    def sentence(self) -> str:
        if self.theirs is None:
            return "this comment was removed meanwhile; your text is kept here, not saved"
        return "this comment was changed meanwhile; both texts are here, yours not saved"


#: Who makes a change: the log's owner, or the seat whose board address sent it.
Writer = str  # "owner", "A", "B", "C" or "D"
OWNER_WRITER = "owner"


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of one change: ``status`` is ``saved`` (applied), ``done`` (a removal
    of a comment already gone), ``conflict`` (not applied: the comment changed or went
    meanwhile, both texts in :attr:`Applied.conflicts`), ``not_yours`` (a seat's change
    to a comment it did not write, or one its address is not shown) or ``refused`` (past
    :data:`MAX_COMMENTS`); ``id`` the comment it touched; ``message`` one sentence."""

    status: str
    id: str | None
    message: str


@dataclass(slots=True)
class Applied:
    """What :func:`apply_changes` made: the new match, for each change the id it touched
    (the new id of an add) or None where it was not applied, the conflicts, and each
    change's :class:`Outcome`."""

    match: Match
    ids: list[str | None] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)

    def _out(self, status: str, key: str | None, message: str) -> None:
        self.ids.append(key if status in ("saved", "done") else None)
        self.outcomes.append(Outcome(status, key, message))


def owns(by: Writer, note: Annotation) -> bool:
    """Whether ``by`` may edit and remove ``note``: the owner any comment, a seat those
    its address wrote (format 1.9's ``seat``)."""
    return by == OWNER_WRITER or note.seat == by


def apply_changes(
    match: Match,
    changes: list[Change],
    by: Writer = OWNER_WRITER,
    visible: frozenset[str] | None = None,
) -> Applied:
    """``changes`` by ``by`` applied in order to ``match`` (not changed itself), merged as
    the module says, each on its own (:class:`Outcome`): a stale change is reported, the
    others are applied. An add by a seat records the seat; an edit keeps the comment's
    author and seat and records its editor. ``visible``: the comment keys ``by``'s
    address is shown (None: all). Every comment of the result has an id (:func:`with_ids`).

    Raises :class:`CommentError` for a change that can never be made (no such target,
    text that no log can hold); nothing is applied then."""
    new = match.model_copy(deep=True)
    done = Applied(new)
    total = count_comments(new)
    for k, change in enumerate(changes):
        if isinstance(change, Add):
            check_text(change.text, change.author)
            try:
                _, obj = locate_target(new, change.target)
            except TargetError as e:
                raise CommentError(f"change {k + 1}: {e}") from None
            if total >= MAX_COMMENTS:
                done._out(
                    "refused",
                    None,
                    f"a log holds at most {MAX_COMMENTS:,} comments when texas42 adds one: "
                    "this one is kept here, not saved",
                )
                continue
            seat = None if by == OWNER_WRITER else by
            note = Annotation(text=change.text, author=change.author or None, id=new_id())
            if seat is not None:
                note = note.model_copy(update={"seat": seat})
            obj.annotations = (*obj.annotations, note)
            total += 1
            done._out("saved", note.id, "saved")
            continue
        if isinstance(change, Edit):
            check_text(change.text, change.author)
        found = _find(new, change.key)
        if found is None:
            if isinstance(change, Remove):
                done._out("done", change.key, "this comment was removed already")
            else:
                done.conflicts.append(Conflict(k, change.key, change.base, None, change.text))
                done._out("conflict", None, done.conflicts[-1].sentence())
            continue
        obj, j = found
        current = obj.annotations[j]
        if (visible is not None and change.key not in visible) or not owns(by, current):
            whose = "the board's owner" if current.seat is None else f"seat {current.seat}"
            done._out(
                "not_yours",
                None,
                f"this comment is {whose}'s: a seat's address edits and removes only the "
                "comments it wrote; kept here, not saved",
            )
            continue
        if current.text != change.base:
            yours = change.text if isinstance(change, Edit) else None
            done.conflicts.append(Conflict(k, change.key, change.base, current.text, yours))
            done._out("conflict", None, done.conflicts[-1].sentence())
            continue
        if isinstance(change, Remove):
            obj.annotations = tuple(a for i, a in enumerate(obj.annotations) if i != j)
            total -= 1
            done._out("saved", change.key, "saved")
        else:
            update: dict[str, Any] = {"text": change.text, "id": current.id or new_id()}
            # edited_by names the last editor when it is not the comment's writer; the
            # writer's own edit, last, clears it (its words are its own again)
            update["edited_by"] = by if by != (current.seat or OWNER_WRITER) else None
            if change.author is not None:
                update["author"] = change.author or None
            edited = current.model_copy(update=update)
            obj.annotations = tuple(edited if i == j else a for i, a in enumerate(obj.annotations))
            done._out("saved", edited.id, "saved")
    done.match = raised(with_ids(new))
    return done


def raised(match: Match) -> Match:
    """``match`` with its format version raised to one that holds its comments' ids."""
    version = at_least_version(match.version, minimal_version(match_json(match)))
    return match if version == match.version else match.model_copy(update={"version": version})


def _find(match: Match, key: str) -> tuple[Any, int] | None:
    """The object holding comment ``key`` and its index there."""
    for target, _, obj in _containers(match):
        if target is None:
            continue
        for j, a in enumerate(obj.annotations):
            if a.id == key or (a.id is None and key == place_key(target, j + 1)):
                return obj, j
    return None
