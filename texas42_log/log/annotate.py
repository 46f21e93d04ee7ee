"""Adding, listing and removing comments: ``texas42 annotate``. Pure.

A target is the match, a hand (``hand``), or one action of a hand: a call
(``call``: the K-th accepted call), the declaration, or a play (``play``: the
K-th accepted play) — counted as the views count them, so ``--play 12`` is the
play ``texas42 replay --play 12`` shows.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .model import Annotation, Match, lone_surrogate

__all__ = [
    "Target",
    "TargetError",
    "locate_target",
    "place_key",
    "add",
    "add_all",
    "remove",
    "remove_at",
    "listing",
    "parse_target",
]


class TargetError(ValueError):
    """The target does not exist in the match."""


@dataclass(frozen=True, slots=True)
class Target:
    hand: int | None = None  # from 1
    call: int | None = None  # from 1, accepted calls
    play: int | None = None  # from 1, accepted plays
    declaration: bool = False

    def describe(self) -> str:
        if self.hand is None:
            return "match"
        what = f"hand {self.hand}"
        if self.call is not None:
            what += f" call {self.call}"
        elif self.play is not None:
            what += f" play {self.play}"
        elif self.declaration:
            what += " declaration"
        return what


def place_key(target: Target, k: int) -> str:
    """The key of comment ``k`` (from 1) of ``target`` when it has no id (format 1.7's
    ids aside): ``@hand 3 play 13#1`` — the target as the views count, never a JSON index."""
    return f"@{target.describe()}#{k}"


def parse_target(hand: int | None, call: int | None, play: int | None, declaration: bool) -> Target:
    if sum(x is not None and x is not False for x in (call, play, declaration or None)) > 1:
        raise TargetError("name one action: --call, --play or --declaration")
    if hand is None and (call is not None or play is not None or declaration):
        raise TargetError("an action belongs to a hand: give --hand N")
    return Target(hand, call, play, declaration)


def locate_target(match: Match, t: Target) -> tuple[str, Any]:
    """JSON pointer and object of the target."""
    if t.hand is None:
        return "", match
    if not 1 <= t.hand <= len(match.hands):
        raise TargetError(f"there is no hand {t.hand}; the match has {len(match.hands)}")
    hand = match.hands[t.hand - 1]
    hp = f"/hands/{t.hand - 1}"
    for number, key, what, items in (
        (t.call, "auction", "call", hand.auction),
        (t.play, "plays", "play", hand.plays),
    ):
        if number is None:
            continue
        accepted = [j for j, item in enumerate(items) if not item.rejected]
        if not 1 <= number <= len(accepted):
            raise TargetError(
                f"hand {t.hand} has {len(accepted)} {what}s; there is no {what} {number}"
            )
        j = accepted[number - 1]
        return f"{hp}/{key}/{j}", items[j]
    if t.declaration:
        if hand.declaration is None:
            raise TargetError(f"hand {t.hand} has no declaration")
        return f"{hp}/declaration", hand.declaration
    return hp, hand


def add(match: Match, target: Target, text: str, author: str | None = None) -> Match:
    """A copy of ``match`` with one more comment on ``target``."""
    return add_all(match, [(1, target, text, author)])


def _check_note(text: str, author: str | None) -> None:
    if not text.strip():
        raise TargetError("a comment needs some text")
    for what, value in (("text", text), ("author", author or "")):
        half = lone_surrogate(value)
        if half is not None:
            raise TargetError(
                f"the comment's {what} holds {half}, half of a character (a lone surrogate), which "
                "no "
                "log can hold: were its bytes in an encoding other than UTF-8?"
            )


def add_all(match: Match, notes: Iterable[tuple[int, Target, str, str | None]]) -> Match:
    """A copy of ``match`` with each of ``notes`` (its number, target, text, author) added,
    in order: one copy of the log whatever their number, so adding many is linear. When
    there are several, a :class:`TargetError` names the note that cannot be added by its
    number (``item K: …``); nothing is added then."""
    new = match.model_copy(deep=True)
    added: dict[int, tuple[Any, list[Annotation]]] = {}
    items = list(notes)
    for k, target, text, author in items:
        try:
            _check_note(text, author)
            _, obj = locate_target(new, target)
        except TargetError as e:
            if len(items) == 1:
                raise
            raise TargetError(f"item {k}: {e}") from None
        added.setdefault(id(obj), (obj, []))[1].append(Annotation(text=text, author=author))
    for obj, more in added.values():
        obj.annotations = (*obj.annotations, *more)
    return new


def remove(match: Match, target: Target, index: int | None) -> tuple[Match, int]:
    """A copy without the target's comment ``index`` (from 1), or all of them (None); and how many
    went."""
    new = match.model_copy(deep=True)
    _, obj = locate_target(new, target)
    notes = obj.annotations
    if index is None:
        obj.annotations = ()
        return new, len(notes)
    if not 1 <= index <= len(notes):
        raise TargetError(
            f"{target.describe()} has {len(notes)} comment(s); there is no comment {index}"
        )
    obj.annotations = tuple(a for k, a in enumerate(notes, start=1) if k != index)
    return new, 1


def _index(digits: str) -> int:
    """An array index of a JSON pointer (RFC 6901: no leading zero); one longer than
    any list can be is no index (IndexError), never a 5,000-digit conversion."""
    if len(digits) > 9 or (digits.startswith("0") and digits != "0"):
        raise IndexError(digits)
    return int(digits)


def remove_at(match: Match, pointer: str) -> Match:
    """A copy without the comment at ``pointer`` (as :func:`listing` gives it)."""
    import re

    shown = pointer if len(pointer) <= 60 else pointer[:57] + "…"
    m = re.fullmatch(
        r"(?:/hands/(\d+)(?:/(auction|plays)/(\d+)|/(declaration))?)?/annotations/(\d+)",
        pointer,
        re.ASCII,
    )
    if m is None:
        raise TargetError(
            f"{shown!r} is not the pointer of a comment (as 'annotate list --format json' gives)"
        )

    new = match.model_copy(deep=True)
    obj: Any = new
    try:
        if m.group(1) is not None:
            obj = new.hands[_index(m.group(1))]
            if m.group(2) is not None:
                obj = (obj.auction if m.group(2) == "auction" else obj.plays)[_index(m.group(3))]
            elif m.group(4) is not None:
                obj = obj.declaration
                if obj is None:
                    raise IndexError
        k = _index(m.group(5))
        if not 0 <= k < len(obj.annotations):
            raise IndexError
    except IndexError:
        raise TargetError(f"there is no comment at {shown}") from None
    obj.annotations = tuple(a for j, a in enumerate(obj.annotations) if j != k)
    return new


def listing(match: Match) -> list[dict[str, Any]]:
    """Every comment with its target, in document order."""
    out: list[dict[str, Any]] = []

    def emit(target: Target, pointer: str, notes: Any) -> None:
        for k, a in enumerate(notes, start=1):
            out.append(
                {
                    "target": target.describe(),
                    "index": k,
                    "pointer": f"{pointer}/annotations/{k - 1}",
                    "author": a.author,
                    "text": a.text,
                    "id": a.id if a.id is not None else place_key(target, k),
                    **({"hand": target.hand} if target.hand else {}),
                    **({"call": target.call} if target.call else {}),
                    **({"play": target.play} if target.play else {}),
                    **({"declaration": True} if target.declaration else {}),
                }
            )

    def rejected(hand: int, pointer: str, what: str, notes: Any) -> None:
        """A rejected attempt is no numbered call or play: it is named by its JSON pointer."""
        for k, a in enumerate(notes, start=1):
            out.append(
                {
                    "target": f"hand {hand} rejected {what} {pointer}",
                    "index": k,
                    "pointer": f"{pointer}/annotations/{k - 1}",
                    "author": a.author,
                    "text": a.text,
                    **({"id": a.id} if a.id is not None else {}),
                    "hand": hand,
                }
            )

    emit(Target(), "", match.annotations)
    for i, hand in enumerate(match.hands, start=1):
        hp = f"/hands/{i - 1}"
        emit(Target(i), hp, hand.annotations)
        actions: list[tuple[str, str, Any]] = [
            ("call", "auction", hand.auction),
            ("play", "plays", hand.plays),
        ]
        for what, key, items in actions:
            if what == "play" and hand.declaration is not None:
                emit(Target(i, declaration=True), f"{hp}/declaration", hand.declaration.annotations)
            n = 0
            for j, item in enumerate(items):
                if item.rejected:
                    rejected(i, f"{hp}/{key}/{j}", what, item.annotations)
                    continue
                n += 1
                target = Target(i, call=n) if what == "call" else Target(i, play=n)
                emit(target, f"{hp}/{key}/{j}", item.annotations)
    return out
