"""What several commands share: reading inputs, picking a match, checking and
writing outputs. Translation only: each helper calls the library — for input,
the one reader, :mod:`texas42_log.files.reader` — and turns its refusal into a
sentence and an exit code."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..files.reader import InputError, ReadError
from ..log.inert import inert, inert_value
from .app import echo, input_error, say, usage_error

if TYPE_CHECKING:
    from ..files.validate import ValidationResult
    from ..log.broken import Broken
    from ..log.model import Match
    from ..views.visibility import Observer

__all__ = [
    "read_text",
    "viewable_match",
    "write_edited",
    "pick",
    "player_or_observer",
    "language_arg",
    "format_of",
    "results_of",
    "matches_to_write",
    "check_output",
    "write_file",
    "emit",
    "write_data",
    "write_chunks",
    "our_formats",
    "refused",
    "rewriting",
]

#: ``--port`` of the commands that serve pages (board, table).
Port = Annotated[
    int, typer.Option("--port", min=0, max=65535, help="The port; 0 (default): a free one.")
]


def our_formats() -> tuple[str, ...]:
    """The texas42-log format's own spellings, from the registry (``Format.ours``)."""
    from ..files import formats

    return formats.OURS


def refused(e: InputError) -> typer.Exit:
    """An input the library refused: exit 2 when the name is wrong, else 1. A refusal
    that is a diagnostic line (``file:line:column: error …``) is printed as it is."""
    if isinstance(e, ReadError) and e.diagnostic:
        say(str(e), err=True)
        return typer.Exit(code=1)
    return usage_error(str(e)) if e.usage else input_error(str(e))


def read_text(name: str) -> str:
    """The whole UTF-8 text of input ``name``, or exit 1 saying where it is not."""
    from ..files.reader import read_text as text_of

    try:
        return text_of(name, stdin=sys.stdin.buffer)
    except InputError as e:
        raise refused(e) from None


def viewable_match(name: str, number: int | None = None) -> tuple[str, Match, dict[int, Broken]]:
    """Read and validate one log (any readable format; match ``number`` of several)
    for the view commands. A log that breaks rules is still shown, as far as it was
    played legally (:mod:`texas42_log.log.broken`): the flags come back by hand. A log
    that cannot be read as a match at all (not JSON, not the format) is exit 1."""
    from ..files.reader import read_view
    from ..files.report import result_text

    try:
        source, results = read_view(name, stdin=sys.stdin.buffer)
    except InputError as e:
        raise refused(e) from None
    if number is None and len(results) > 1:
        unreadable = [(k, r) for k, r in enumerate(results, 1) if r.match is None]
        if unreadable:  # a broken file first: which match to show comes after
            k, r = unreadable[0]
            say(result_text(f"{source} (match {k})", r), err=True, colour=True)
            say(
                f"texas42: {source} is not a valid log; views are shown only for valid logs",
                err=True,
            )
            raise typer.Exit(code=1)
    result = results[pick(len(results), number, source)]
    from ..views.policy import shown_match

    report = result.report
    shown = shown_match(result.match, result.valid, None if report is None else report.diagnostics)
    if shown.match is None:
        say(result_text(source, result), err=True, colour=True)
        say(f"texas42: {source} {shown.notices[0]}", err=True)
        raise typer.Exit(code=1)
    if shown.notices:  # it breaks rules: which hands, and how far each is shown
        say(f"texas42: {source} {shown.notices[0]}", err=True)
        for notice in shown.notices[1:]:
            say(f"texas42: {source}: {notice}", err=True)
    return source, shown.match, shown.broken


def pick(count: int, number: int | None, source: str) -> int:
    """The index of match ``number`` (from 1; may be omitted when there is one) of ``count``."""
    if count == 0:
        raise input_error(f"{source} holds no match (it is empty, or blank lines only)")
    if number is None:
        if count > 1:
            raise usage_error(f"{source} holds {count} matches; say which with --match N")
        number = 1
    if not 1 <= number <= count:
        raise usage_error(
            f"--match {number}: {source} holds {count} match{'es' if count != 1 else ''}"
        )
    return number - 1


def player_or_observer(text: str, match: Match) -> Observer:
    """--as: a seat, a role (public, review, omniscient), or a player's name as the
    log gives it (any case): that player's seat."""
    from ..views.visibility import parse_observer

    try:
        return parse_observer(text)
    except ValueError:
        pass
    players = match.players.model_dump() if match.players is not None else {}
    wanted = text.strip().casefold()
    seats = [
        seat
        for seat, name in players.items()
        if isinstance(name, str) and name.strip().casefold() == wanted
    ]
    if len(seats) == 1:
        return parse_observer(seats[0])
    named = ", ".join(f"{name} ({seat})" for seat, name in players.items() if name)
    if len(seats) > 1:
        raise usage_error(
            f"--as {text!r}: {len(seats)} seats have that name ({', '.join(seats)}); give the seat"
        )
    raise usage_error(
        f"--as {text!r}: not a seat (A, B, C, D), a role (public, review, omniscient)"
        + (
            f" or a player of this match ({named})"
            if named
            else ", and this match names no players"
        )
    )


def language_arg(lang: str) -> str:
    from ..views.locales import languages

    if lang not in languages():
        raise usage_error(
            f"--lang: no messages for {lang!r}; choose one of {', '.join(languages())}"
        )
    return lang


def format_option(given: str | None, option: str, allowed: tuple[str, ...]) -> str | None:
    """The format an option names, by any name a user types for it (``--to t42``)."""
    from ..files.formats import format_named, other_names

    if given is None:
        return None
    fmt = format_named(given)
    if fmt is None or fmt not in allowed:
        names = ", ".join(
            f"{f} ({', '.join(other_names(f))})" if other_names(f) else f for f in allowed
        )
        raise usage_error(f"{option} {inert_value(given)}: choose one of {names}")
    return fmt


def format_of(name: str, given: str | None, option: str, allowed: tuple[str, ...]) -> str:
    """The format of output ``name``: the one ``option`` gives, else the one its name says."""
    from ..files.formats import format_for_name

    given = format_option(given, option, allowed)
    fmt = given or format_for_name(name)
    if fmt is None:
        raise usage_error(f"cannot tell the format of {name}; give {option} ({', '.join(allowed)})")
    if fmt not in allowed:
        raise usage_error(f"{option} {fmt}: choose one of {', '.join(allowed)}")
    return fmt


def results_of(names: list[str], given: str | None) -> Iterator[tuple[str, ValidationResult]]:
    """Every match of every input (any readable format), validated, with its format
    (:func:`..files.reader.read_matches`); its diagnostics are printed on stderr as it
    goes. Exit 1 if an input cannot be read, or a match is not one even in structure."""
    from ..files.reader import read_matches as matches_of
    from ..files.report import diagnostic_line

    try:
        for read in matches_of(names, given, stdin=sys.stdin.buffer, expand=False):
            result = read.result
            for d in result.diagnostics:
                say(diagnostic_line(read.name, d), err=True, colour=True)
            if result.match is None:
                say(
                    f"texas42: {read.name} (match {read.number}) is not a texas42-log match even "
                    "in "
                    "structure; nothing written",
                    err=True,
                )
                raise typer.Exit(code=1)
            yield read.format, result
    except ReadError as e:
        if not e.diagnostic:  # an input with no match in it
            raise input_error(f"{e}; nothing written") from None
        raise refused(e) from None
    except InputError as e:
        raise refused(e) from None


def matches_to_write(
    names: list[str], given: str | None, *, need_valid: bool, force: bool = False
) -> tuple[list[Match], list[str]]:
    """The matches a command writes or rewrites: every match of every input, validated
    by the one reader (:func:`results_of`). Exit 1 if one is invalid and ``need_valid``
    without ``force``. Returns the matches and their formats."""
    matches: list[Match] = []
    formats: list[str] = []
    invalid = 0
    for fmt, result in results_of(names, given):
        assert result.match is not None
        invalid += not result.valid
        matches.append(result.match)
        formats.append(fmt)
    if invalid and need_valid and not force:
        say(
            f"texas42: not written: {invalid} of {len(matches)} "
            f"match{'es are' if len(matches) != 1 else ' is'} "
            "invalid (the errors above); pass --force to write anyway",
            err=True,
        )
        raise typer.Exit(code=1)
    return matches, formats


@contextmanager
def _translated() -> Iterator[None]:
    """The files layer's refusal of an output (:mod:`texas42_log.files.destination`) as a
    usage error: the policy is there, the sentence and exit 2 here."""
    from ..files.destination import OutputRefused

    try:
        yield
    except OutputRefused as e:
        raise usage_error(str(e)) from None


def output_kind(out: Path) -> str | None:
    """:func:`texas42_log.files.destination.output_kind`, its refusal a usage error."""
    from ..files.destination import output_kind as kind

    with _translated():
        return kind(out)


def check_output(out: Path, inputs: list[str], force: bool) -> None:
    """:meth:`Destination.check <texas42_log.files.destination.Destination.check>`."""
    from ..files.destination import Destination

    with _translated():
        Destination(out, tuple(inputs), force).check()


def check_split_output(folder: Path, inputs: list[str]) -> None:
    """:meth:`Destination.check_folder <texas42_log.files.destination.Destination.check_folder>`."""
    from ..files.destination import Destination

    with _translated():
        Destination(folder, tuple(inputs)).check_folder()


def write_split(folder: Path, files: Iterable[tuple[str, str]], *, replace: bool) -> None:
    """:meth:`Destination.write_folder <texas42_log.files.destination.Destination.write_folder>`."""
    from ..files.destination import Destination

    with _translated():
        Destination(folder, replace=replace).write_folder(files)


def write_file(out: Path, data: str | bytes | Iterable[str], *, replace: bool) -> None:
    """:meth:`Destination.write <texas42_log.files.destination.Destination.write>`:
    atomically; ``replace`` only with ``--force`` or ``--in-place``."""
    from ..files.destination import Destination

    with _translated():
        Destination(out, replace=replace).write(data)


@contextmanager
def rewriting(file: str, in_place: bool) -> Iterator[None]:
    """Hold ``file``'s writer lock (:mod:`texas42_log.files.locking`) across a command's
    whole read–change–write when it rewrites ``file`` in place; nothing otherwise. A lock
    not had in time is one sentence, exit 1, and nothing written."""
    if not in_place or file == "-":
        yield
        return
    from ..files.locking import LockTimeout, writer_lock
    from ..files.outputs import OutputError

    with ExitStack() as stack:
        try:
            stack.enter_context(writer_lock(file))
        except LockTimeout as e:
            raise input_error(str(e.strerror)) from None
        except OutputError as e:
            raise usage_error(str(e.strerror)) from None
        yield


def write_data(text: str) -> None:
    """A command's data on standard output: as written, but inert on a terminal."""
    echo(inert(text) if sys.stdout.isatty() else text, nl=False)


def write_chunks(chunks: Iterable[str], target: Path | None, force: bool) -> None:
    """A command's output made a chunk at a time: into the file ``target`` (atomically,
    replacing it only with ``force``), or on standard output when ``target`` is None."""
    if target is None:
        for chunk in chunks:
            write_data(chunk)
    else:
        write_file(target, chunks, replace=force)


def emit(text: str, out: Path | None, in_place: str | None, inputs: list[str], force: bool) -> None:
    """Write a command's result: -o OUT, --in-place (the input, atomically), or standard output."""
    if in_place is not None:
        write_file(Path(in_place), text, replace=True)
        say(f"updated {in_place}", err=True)
    elif out is not None and str(out) != "-":
        check_output(out, inputs, force)
        write_file(out, text, replace=force)
        say(f"wrote {out}", err=True)
    else:
        write_data(text)


def annotated_format(out: Path | None, fmt: str) -> str:
    """The format to write: the input's, unless -o names another of ours by its extension
    (a name that says no format of ours is refused rather than written in the wrong one)."""
    if out is None or str(out) == "-":
        return fmt
    from ..files.formats import format_for_name

    named = format_for_name(str(out))
    if named is None:
        return fmt
    if named not in our_formats():
        raise usage_error(
            f"-o {out}: annotate writes a texas42-log ({', '.join(our_formats())}); "
            f"write one, then convert it to {named}"
        )
    return named


def keep_remarks_or_refuse(file: str, fmt: str, in_place: bool, force: bool) -> None:
    """A .t42 rewritten in place would lose its ; remarks (the notation keeps {comments},
    not remarks): say so, and do it only with --force."""
    if not in_place or force:
        return
    from ..files.formats import dropped_lines

    lines = dropped_lines(read_text(file), fmt)
    if lines:
        shown = ", ".join(map(str, lines[:5])) + (", …" if len(lines) > 5 else "")
        raise usage_error(
            f"{file} has {len(lines)} ; remark{'s' if len(lines) != 1 else ''} (line {shown}) that "
            "rewriting it drops; pass --force to drop them, or make them {comments} first"
        )


def write_edited(
    matches: list[Match], file: str, fmt: str, out: Path | None, in_place: bool, force: bool
) -> None:
    """Write the matches of ``file`` (format ``fmt``) after a change to them: to ``out``
    in the format it names, or back into ``file`` with ``in_place`` — a .t42's ;
    remarks are not dropped without ``force`` (:func:`keep_remarks_or_refuse`)."""
    from ..files.formats import write_matches

    keep_remarks_or_refuse(file, fmt, in_place, force)
    emit(
        write_matches(matches, annotated_format(out, fmt)),
        out,
        file if in_place else None,
        [file],
        force,
    )
