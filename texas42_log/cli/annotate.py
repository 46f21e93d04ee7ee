"""``texas42 annotate add | list | remove``: comments on a match, a hand, a call, the
declaration or a play."""

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..log.inert import dumps, inert_value
from .app import (
    CallOpt,
    DeclOpt,
    ForceOpt,
    HandOpt,
    InPlaceOpt,
    MatchOpt,
    OutOpt,
    OutputFormat,
    PlayOpt,
    app,
    say,
    usage_error,
)
from .common import (
    matches_to_write,
    our_formats,
    pick,
    refused,
    rewriting,
    write_edited,
)

if TYPE_CHECKING:
    from ..log.annotate import Target
    from ..log.model import Match


#: The log every annotate command reads (and writes with -i).
FileArg = Annotated[
    str, typer.Argument(metavar="FILE", help="A texas42-log file: .json, .jsonl or .t42.")
]

annotate_app = typer.Typer(
    name="annotate",
    help="Add, list and remove comments on a match, a hand, a call, the declaration or a play.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(annotate_app)


def _one_of(file: str, number: int | None) -> "tuple[list[Match], str, int]":
    matches, formats = matches_to_write([file], None, need_valid=False)
    fmt = formats[0]
    if fmt not in our_formats():
        raise usage_error(
            f"{file} is {fmt}; annotate a texas42-log file ({', '.join(our_formats())}) — "
            "convert it first"
        )
    return matches, fmt, pick(len(matches), number, file)


def _target(hand: int | None, call: int | None, play: int | None, declaration: bool) -> "Target":
    from ..log.annotate import TargetError, parse_target

    try:
        return parse_target(hand, call, play, declaration)
    except TargetError as e:
        raise usage_error(str(e)) from None


@annotate_app.command("add")
def annotate_add(
    file: FileArg,
    text: Annotated[str | None, typer.Option("--text", "-t", help="The comment.")] = None,
    author: Annotated[str | None, typer.Option("--author", help="Who wrote it.")] = None,
    hand: HandOpt = None,
    call: CallOpt = None,
    play: PlayOpt = None,
    declaration: DeclOpt = False,
    bulk: Annotated[
        Path | None,
        typer.Option(
            "--from",
            help="Add many: a JSON list, JSON Lines or CSV of {match, hand, call, play, "
            "declaration, text, author}.",
        ),
    ] = None,
    match_no: MatchOpt = None,
    out: OutOpt = None,
    in_place: InPlaceOpt = False,
    force: ForceOpt = False,
) -> None:
    """Add a comment (--text), or many (--from); comments survive every conversion and appear
    in the views.

    The result goes to standard output, to -o OUT, or back into FILE with --in-place.
    """
    from ..log.annotate import Target, TargetError, add, add_all
    from ..log.comments import over_cap

    if (text is None) == (bulk is None):
        raise usage_error("give --text or --from, one of them")
    _in_place_alone(in_place, out, file)
    with rewriting(file, in_place):
        matches, fmt, index = _one_of(file, match_no if bulk is None else (match_no or 1))
        original = list(matches)
        count = 0
        try:
            if bulk is None:
                assert text is not None
                matches[index] = add(
                    matches[index], _target(hand, call, play, declaration), text, author
                )
                count = 1
            else:
                notes: dict[int, list[tuple[int, Target, str, str | None]]] = {}
                for k, item in enumerate(_bulk_items(bulk), start=1):
                    m = _int(item.get("match"))
                    m = 1 if m is None else m
                    if not 1 <= m <= len(matches):
                        raise TargetError(f"{bulk} item {k}: there is no match {m}")
                    t = _target(
                        _int(item.get("hand")),
                        _int(item.get("call")),
                        _int(item.get("play")),
                        _flag(item.get("declaration")),
                    )
                    if not isinstance(item.get("text"), str):
                        raise TargetError(f"{bulk} item {k} has no text")
                    author = item.get("author") or None
                    notes.setdefault(m - 1, []).append((k, t, item["text"], author))
                    count += 1
                for m, these in notes.items():  # one copy of each match, however many notes
                    try:
                        matches[m] = add_all(matches[m], these)
                    except TargetError as e:  # "item K: …" once there are several
                        prefix = "" if str(e).startswith("item ") else f"item {these[0][0]}: "
                        raise TargetError(f"{bulk} {prefix}{e}") from None
        except TargetError as e:
            raise usage_error(str(e)) from None
        for before, after in zip(original, matches, strict=True):
            too_many = over_cap(before, after)
            if too_many is not None:
                raise usage_error(too_many)
        write_edited(matches, file, fmt, out, in_place, force)
    say(f"added {count} comment{'s' if count != 1 else ''}", err=True)


def _in_place_alone(in_place: bool, out: Path | None, file: str) -> None:
    if in_place and (out is not None or file == "-"):
        raise usage_error(
            "--in-place writes FILE itself; it goes with neither -o nor standard input"
        )


def _int(v: object) -> int | None:
    if v in (None, ""):
        return None
    if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 10**9:
        return v
    text = str(v).strip() if isinstance(v, str) else ""
    if text.isascii() and text.isdigit() and len(text) <= 9:
        return int(text)
    raise usage_error(f"{_show(v)} is not a number (write it in the digits 0–9)")


def _show(v: object) -> str:
    text = repr(v) if not isinstance(v, str) else dumps(v)
    return inert_value(text if len(text) <= 40 else text[:37] + "…")


def _flag(v: object) -> bool:
    if isinstance(v, str):
        if v.strip().lower() in ("", "0", "false", "no"):
            return False
        if v.strip().lower() in ("1", "true", "yes"):
            return True
        raise usage_error(f"declaration {_show(v)}: write true or false")
    return bool(v)


def _bulk_items(path: Path) -> list[dict[str, Any]]:
    from ..files.documents import read_items
    from ..files.reader import InputError

    try:
        return read_items(str(path), stdin=sys.stdin.buffer)
    except InputError as e:
        raise refused(e) from None


@annotate_app.command("list")
def annotate_list(
    file: FileArg,
    match_no: MatchOpt = None,
    output: Annotated[
        OutputFormat, typer.Option("--format", "-f", help="text (default) or json.")
    ] = OutputFormat.text,
) -> None:
    """List every comment with what it is on."""
    from ..log.annotate import listing

    matches, _, index = _one_of(file, match_no)
    items = listing(matches[index])
    if output is OutputFormat.json:
        say(dumps(items, indent=2))
        return
    for it in items:
        by = f" — {it['author']}" if it["author"] else ""
        key = f" [{it['id']}]" if it.get("id") else ""
        say(f"{it['target']} #{it['index']}{key}: {inert_value(it['text'])}{inert_value(by)}")
    if not items:
        say("no comments", err=True)


@annotate_app.command("remove")
def annotate_remove(
    file: FileArg,
    hand: HandOpt = None,
    call: CallOpt = None,
    play: PlayOpt = None,
    declaration: DeclOpt = False,
    index: Annotated[
        int | None,
        typer.Option("--index", min=1, help="Which comment of the target, from 1 (as list shows)."),
    ] = None,
    every: Annotated[bool, typer.Option("--all", help="Every comment of the target.")] = False,
    pointer: Annotated[
        str | None,
        typer.Option(
            "--pointer",
            help="The comment at this JSON pointer (as list --format json shows; also for "
            "rejected attempts).",
        ),
    ] = None,
    comment_id: Annotated[
        str | None,
        typer.Option("--id", help="The comment with this id (format 1.7; as list shows)."),
    ] = None,
    match_no: MatchOpt = None,
    out: OutOpt = None,
    in_place: InPlaceOpt = False,
    force: ForceOpt = False,
) -> None:
    """Remove one comment (--index, --id) or all of a target's (--all)."""
    from ..log.annotate import TargetError, remove, remove_at

    if sum((index is not None, every, pointer is not None, comment_id is not None)) != 1:
        raise usage_error("give --index I, --all, --pointer P or --id ID, one of them")
    _in_place_alone(in_place, out, file)
    with rewriting(file, in_place):
        matches, fmt, k = _one_of(file, match_no)
        try:
            if comment_id is not None:
                matches[k], n = _by_id(matches[k], comment_id, None), 1
            elif pointer is not None:
                matches[k], n = remove_at(matches[k], pointer), 1
            else:
                matches[k], n = remove(matches[k], _target(hand, call, play, declaration), index)
        except TargetError as e:
            raise usage_error(str(e)) from None
        write_edited(matches, file, fmt, out, in_place, force)
    say(f"removed {n} comment{'s' if n != 1 else ''}", err=True)


def _by_id(match: "Match", key: str, text: str | None, author: str | None = None) -> "Match":
    """``match`` with comment ``key`` edited to ``text`` (None: removed)."""
    from ..log.comments import CommentError, Edit, Remove, apply_changes, comments

    found = next((c for c in comments(match) if c.key == key), None)
    if found is None:
        raise usage_error(
            f"there is no comment with the id {_show(key)} ('annotate list' shows them)"
        )
    base = found.note.text
    if author is None:
        author = found.note.author
    change = Remove(key, base) if text is None else Edit(key, base, text, author)
    try:
        return apply_changes(match, [change]).match
    except CommentError as e:
        raise usage_error(str(e)) from None


@annotate_app.command("edit")
def annotate_edit(
    file: FileArg,
    comment_id: Annotated[
        str, typer.Option("--id", help="The comment's id (format 1.7), as list shows it.")
    ],
    text: Annotated[str, typer.Option("--text", "-t", help="The comment's new text.")],
    author: Annotated[str | None, typer.Option("--author", help="Who wrote it.")] = None,
    match_no: MatchOpt = None,
    out: OutOpt = None,
    in_place: InPlaceOpt = False,
    force: ForceOpt = False,
) -> None:
    """Replace the text (and author) of the comment with id --id.

    Every comment of the result gets an id (format 1.7), as texas42 board gives them.
    """
    _in_place_alone(in_place, out, file)
    with rewriting(file, in_place):
        matches, fmt, k = _one_of(file, match_no)
        matches[k] = _by_id(matches[k], comment_id, text, author)
        write_edited(matches, file, fmt, out, in_place, force)
    say("edited 1 comment", err=True)
