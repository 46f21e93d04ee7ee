"""``texas42 convert``: between every format the tool reads and writes."""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .app import NoProgressOpt, app, say, usage_error
from .common import (
    check_output,
    check_split_output,
    format_of,
    format_option,
    matches_to_write,
    output_kind,
    results_of,
    write_chunks,
    write_data,
    write_file,
    write_split,
)
from .progress import Progress, wanted

if TYPE_CHECKING:
    from ..log.model import Match


@app.command()
def convert(
    inputs: Annotated[
        list[str],
        typer.Argument(
            metavar="IN...",
            help="Input files (several are joined); '-' reads standard input; an mk5 share link, "
            "quoted ('https://…/mk5-main/?s=…&a=…').",
        ),
    ],
    out: Annotated[
        str,
        typer.Option(
            "--output",
            "-o",
            help="The file to write, a directory (ending in /) for one file per match, or - for "
            "standard output.",
        ),
    ],
    from_format: Annotated[
        str | None,
        typer.Option(
            "--from",
            help="Input format (default: from the file name or its content); a format's name or "
            "its extension (t42, receipt, plunge, ndjson, …).",
        ),
    ] = None,
    to_format: Annotated[
        str | None,
        typer.Option(
            "--to",
            help="Output format (default: from the output's name); a format's name or its "
            "extension (t42, receipt, plunge, ndjson, …).",
        ),
    ] = None,
    force: Annotated[
        bool,
        typer.Option(
            "--force", help="Write even an invalid result, and replace an existing output."
        ),
    ] = False,
    no_progress: NoProgressOpt = False,
    verify: Annotated[
        bool,
        typer.Option(
            "--verify",
            help="Read each written match back and check it is the same valid match (slower; "
            "single-match formats are always read back).",
        ),
    ] = False,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs", "-j", min=1, help="Processes for a JSON Lines corpus (default: every core)."
        ),
    ] = None,
    hand: Annotated[
        int | None,
        typer.Option(
            "--hand",
            min=1,
            help="With --to mk5: hand N alone, as the i= link that opens it in mk5 at its deal "
            "(seats turned so that its dealer is mk5's player 3).",
        ),
    ] = None,
) -> None:
    """Convert between texas42-log JSON, JSON Lines, the text notation (.t42), the
    texas-42 receipt, plunge replay codes and records, tricksy event logs, mk5
    share links, and CSV.

    {formats} The result is
    validated and not written if invalid (unless --force); writing is atomic and
    never touches an input. Exit 1 if an input or the result is invalid, or the
    output format cannot hold the match; 2 on a usage error.

    An mk5 share link can be given in place of a file, whole or its query string
    alone. Quote it, as the shell takes ? and & for itself:

    \b
    texas42 convert -o game.json \\
        'https://jasonyandell.github.io/mk5-main/?s=lgvi&d=0&l=p&a=ANQ%7E%3FSr1uw5394'
    texas42 convert game.json --to mk5 --hand 1 -o -
    """
    from ..files.formats import (
        EXTENSIONS,
        READABLE,
        STREAMED,
        WRITABLE,
        CannotExport,
        format_list,
        hand_formats,
        write_losses,
        write_matches,
    )

    from_format = format_option(from_format, "--from", READABLE)
    to_format = format_option(to_format, "--to", WRITABLE)
    split = out.endswith("/") or (out != "-" and output_kind(Path(out)) == "folder")
    stdout = out == "-"
    target = Path(out)
    fmt = to_format or ("json" if split else None)
    if not (stdout and fmt is None):
        fmt = format_of(out, fmt, "--to", WRITABLE)
    if hand is not None and fmt not in hand_formats():
        raise usage_error(
            f"--hand {hand} writes one hand as a text of its own: it goes with --to "
            f"{format_list(hand_formats())}, not {fmt or 'json'}"
        )
    if split:
        check_split_output(target, inputs)
    elif not stdout:
        check_output(target, inputs, force)
    if hand is not None:
        assert fmt is not None
        _hand_links(inputs, from_format, hand, fmt, None if stdout else target, force)
        return
    if fmt in STREAMED and not split:
        from ..corpus.validation import default_jobs

        _convert_streaming(
            inputs,
            from_format,
            fmt,
            None if stdout else target,
            force,
            Progress("converting", enabled=wanted(no_progress) and not stdout),
            verify=verify,
            jobs=jobs or default_jobs(),
        )
        return
    matches, _ = matches_to_write(inputs, from_format, need_valid=True, force=force)
    if fmt is None:  # standard output: JSON for one match, JSON Lines for several
        fmt = "json" if len(matches) == 1 else "jsonl"
    try:
        texts = (
            [write_matches(matches, fmt)]
            if not split
            else [write_matches([m], fmt) for m in matches]
        )
    except (CannotExport, ValueError) as e:
        say(f"texas42: cannot write {fmt}: {e}", err=True)
        raise typer.Exit(code=1) from None
    if not force:
        _reread(texts, fmt, len(matches))
    _lost_comments(fmt, matches)
    for loss in write_losses(matches, fmt):
        say(f"texas42: note: {fmt}: {loss}", err=True)
    if stdout:
        write_data(texts[0])
        return
    if not split:
        write_file(target, texts[0], replace=force)
        say(f"wrote {out} ({len(matches)} match{'es' if len(matches) != 1 else ''}, {fmt})")
        return
    stem = Path(inputs[0]).name.split(".")[0] if inputs[0] != "-" else "match"
    names = [f"{stem}-{k:04d}{EXTENSIONS[fmt]}" for k in range(1, len(texts) + 1)]
    for name in names:
        check_output(target / name, inputs, force)
    write_split(target, zip(names, texts, strict=True), replace=force)
    say(f"wrote {len(names)} file{'s' if len(names) != 1 else ''} to {target} ({fmt})")


def _formats_sentence() -> str:
    """The formats paragraph of ``convert --help``, from the registry."""
    from ..files.formats import READABLE, WRITABLE, format_list

    both = [f for f in READABLE if f in WRITABLE]
    only_read = [f for f in READABLE if f not in WRITABLE]
    only_written = [f for f in WRITABLE if f not in READABLE]
    lines = [f"Formats read and written: {format_list(both)}."]
    if only_read:
        lines.append(f"Read only: {format_list(only_read)}.")
    if only_written:
        lines.append(f"Written only: {format_list(only_written)}.")
    return " ".join(lines)


convert.__doc__ = (convert.__doc__ or "").replace("{formats}", _formats_sentence())


def _convert_streaming(
    inputs: list[str],
    given: str | None,
    fmt: str,
    target: Path | None,
    force: bool,
    progress: Progress,
    *,
    verify: bool = False,
    jobs: int = 1,
) -> None:
    """Convert to a many-match format a match at a time
    (:func:`texas42_log.corpus.conversion.convert_stream`): memory stays flat whatever the
    corpus. The first invalid match (without --force) stops it, and nothing is written."""
    from ..corpus.conversion import Refused, Streamed, convert_stream

    tally = Streamed()
    chunks = convert_stream(
        inputs,
        given,
        fmt,
        tally,
        lambda name: (result for _, result in results_of([name], given)),
        force=force,
        verify=verify,
        jobs=jobs,
        said=lambda line: say(line, err=True, colour=True),
        noted=lambda line: say(f"texas42: note: {line}", err=True),
        counted=lambda n: progress.update(n, f"{n:,} matches"),
    )
    try:
        write_chunks(chunks, target, force)
    except Refused as e:
        progress.close()
        say(f"texas42: {e}", err=True)
        raise typer.Exit(code=1) from None
    finally:
        progress.close()
    _lost_comments(fmt, [], tally.lost_comments)
    if target is not None:
        written = tally.written
        say(f"wrote {target} ({written} match{'es' if written != 1 else ''}, {fmt})")


def _lost_comments(fmt: str, matches: "list[Match]", counted: int = 0) -> None:
    """Say so when the output format has no room for the matches' comments
    (``counted``: those already counted by the workers)."""
    from ..files.formats import holds_comments
    from ..log.annotate import listing

    if holds_comments(fmt):
        return

    lost = counted + sum(len(listing(m)) for m in matches)
    if lost:
        say(
            f"texas42: note: {fmt} has no room for comments; {lost} "
            f"comment{'s are' if lost != 1 else ' is'} "
            "not in the output (keep the JSON or .t42 for them)",
            err=True,
        )


def _reread(texts: list[str], fmt: str, expected: int) -> None:
    """The written text, read back as its format, must give as many valid matches
    (:func:`texas42_log.corpus.conversion.read_back`); else nothing is written."""
    from ..corpus.conversion import read_back

    problem = read_back(texts, fmt, expected)
    if problem is not None:
        say(f"texas42: {problem}", err=True)
        raise typer.Exit(code=1)


def _hand_links(
    inputs: list[str],
    from_format: str | None,
    number: int,
    fmt: str,
    target: Path | None,
    force: bool,
) -> None:
    """``--to mk5 --hand N``: hand N of each match as a text of its own (an mk5 ``i=``
    link that opens it in mk5)."""
    from ..files.formats import CannotExport, write_hand

    matches, _ = matches_to_write(inputs, from_format, need_valid=True, force=force)
    lines: list[str] = []
    for m in matches:
        try:
            lines.append(write_hand(m, number, fmt))
        except CannotExport as e:
            say(f"texas42: cannot write {fmt}: {e}", err=True)
            raise typer.Exit(code=1) from None
    if target is None:
        write_data("".join(lines))
        return
    write_file(target, "".join(lines), replace=force)
    say(
        f"wrote {target} (hand {number} of {len(matches)} "
        f"match{'es' if len(matches) != 1 else ''}, {fmt})"
    )
