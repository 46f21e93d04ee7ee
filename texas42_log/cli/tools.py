"""``texas42 generate``, ``schema``, ``rules`` and ``upgrade``: the commands that make or
migrate documents rather than read games."""

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from ..log.inert import dumps
from .app import ForceOpt, NoProgressOpt, OutOpt, OutputFormat, app, echo, say, usage_error
from .common import check_output, emit, refused, write_chunks, write_file
from .progress import Progress, wanted


@app.command()
def generate(
    matches: Annotated[int, typer.Option("--matches", "-n", min=1, help="How many matches.")] = 1,
    seed: Annotated[
        int, typer.Option("--seed", "-s", min=0, help="Seed: the same seed, the same matches.")
    ] = 0,
    preset: Annotated[
        str, typer.Option("--rules", help="The rules preset to play under.")
    ] = "standard",
    out: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            help="Write here (atomically), in the format its extension names; default or '-': "
            "standard output.",
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Overwrite an existing output file.")
    ] = False,
    players: Annotated[
        list[str] | None,
        typer.Option(
            "--players",
            metavar="BOT",
            help=(
                "Let four bots play each match, one bot for all four seats: random, rule, "
                "sampling or sampling-open (with settings: sampling,worlds=20), or "
                "FILE.py:CLASS; default: the "
                "random generator. Two bots against each other: texas42 arena BOT BOT."
            ),
        ),
    ] = None,
    no_progress: NoProgressOpt = False,
) -> None:
    """Legal matches, reproducible from a seed: JSON Lines (one match per
    line) on standard output or into .jsonl; one indented match into .json; or any
    format convert writes, by the output's extension (.t42, .csv, …).

    Match i of seed S is random_match(S * 1,000,000 + i): varied auctions and
    trumps, stacks, early ends and all-pass redeals. With --players BOT, four such
    bots play match i instead, each seeing only its own seat's view: with rule,
    games people would recognise (docs/bots.md). '-o -' is standard output.
    """
    from ..engine.presets import find_preset

    try:
        find_preset(preset)
    except ValueError as e:
        raise usage_error(f"--rules: {e}") from None
    make = _maker(_one_bot(players), preset)
    if out is not None and str(out) == "-":
        out = None
    fmt = "jsonl"
    if out is not None:
        from ..files.formats import SINGLE, WRITABLE, format_for_name

        check_output(out, [], force)
        fmt = format_for_name(str(out)) or ""
        if fmt not in WRITABLE:
            raise usage_error(
                f"cannot tell which format to write from the name {out}; use .jsonl (JSON Lines), "
                ".json (one match), .t42 (text) or another extension convert writes"
            )
        if fmt in SINGLE and matches > 1:
            raise usage_error(
                f"{out}: a {fmt} file holds one match, and --matches is {matches}; "
                "write .jsonl (JSON Lines) for several"
            )
    from ..files.formats import write_documents
    from ..log.foreign import CannotExport

    progress = Progress("generating", matches, enabled=out is not None and wanted(no_progress))

    def made(i: int) -> dict[str, Any]:
        progress.update(i + 1, f"{i + 1:,} of {matches:,} matches")
        return make(seed * 1_000_000 + i)

    chunks = write_documents((made(i) for i in range(matches)), fmt)
    try:
        write_chunks(chunks, out, force)
    except CannotExport as e:
        raise usage_error(f"{out}: {e}") from None
    finally:
        progress.close()


def _one_bot(players: list[str] | None) -> str | None:
    """The one bot --players names: given twice, or as a list of bots, it is refused
    with how to say what was meant (no option is silently dropped)."""
    if not players:
        return None
    if len(players) > 1:
        raise usage_error(
            f"--players is given {len(players)} times; it takes one bot, which plays all four "
            "seats (to set two bots against each other: texas42 arena BOT BOT)"
        )
    from ..bots import BOTS

    first, _, rest = players[0].partition(",")
    if rest and rest.split(",")[0].strip() in BOTS:
        raise usage_error(
            f"--players {players[0]}: one bot plays all four seats, and what follows a comma "
            f"is its settings (sampling,worlds=20); to set {first} against "
            f"{rest.split(',')[0].strip()}: texas42 arena {first} {rest.split(',')[0].strip()}"
        )
    return players[0]


def _maker(players: str | None, preset: str) -> Callable[[int], dict[str, Any]]:
    """The function that makes match ``seed``: the random generator, or four bots."""
    from ..engine.presets import find_preset
    from ..play.generate import random_match

    if players is None:
        rules = find_preset(preset)
        return lambda seed: random_match(seed, rules=rules, preset=preset)
    from ..bots.arena import bot_match
    from ..corpus.arena import resolve

    try:
        factory = resolve(players)
    except ValueError as e:
        raise usage_error(f"--players: {e}") from None
    from ..bots import bot_name

    name = bot_name(players)
    return lambda seed: bot_match(factory, name, seed, rules=preset)


@app.command()
def schema(
    out: Annotated[
        Path | None,
        typer.Option(
            "--output", "-o", help="Write to this file (atomically); '-' is standard output."
        ),
    ] = None,
    force: ForceOpt = False,
) -> None:
    """Print the JSON Schema of format v1, generated from the models."""
    from ..log.schema import schema_text

    text = schema_text()
    if out is None or str(out) == "-":
        echo(text, nl=False)
    else:
        check_output(out, [], force)
        write_file(out, text, replace=force)


@app.command()
def rules(
    rule: Annotated[
        str | None,
        typer.Argument(
            metavar="[RULE]",
            help="A rule id (R16) or an option name (splash): print its text from docs/rules.md.",
            show_default=False,
        ),
    ] = None,
    preset: Annotated[str, typer.Option(help="The preset to show.")] = "standard",
    output: Annotated[OutputFormat, typer.Option("--format", "-f")] = OutputFormat.text,
    list_presets: Annotated[bool, typer.Option("--list", help="List the presets.")] = False,
) -> None:
    """Show the rules: one rule's text (texas42 rules R16), or a preset's options with
    their values and the rule text behind each. Every rule id and option is written
    out in docs/rules.md (installed with the package)."""
    from ..engine.presets import PRESET_DOCS, PRESETS, find_preset
    from ..engine.rules import OPTIONS, STANDARD
    from ..log.rule_texts import RuleNotFound, rule_text

    if rule is not None:
        try:
            text = rule_text(rule)
        except RuleNotFound as e:
            raise usage_error(str(e)) from None
        if output is OutputFormat.json:
            say(dumps({"rule": rule, "text": text}, indent=2))
        else:
            say(text)
        return

    if list_presets:
        if output is OutputFormat.json:
            say(dumps({name: PRESET_DOCS[name] for name in PRESETS}, indent=2))
            return
        for name in PRESETS:
            changed = ", ".join(
                f"{k}={json.dumps(v)}" for k, (v, _) in PRESETS[name].differences(STANDARD).items()
            )
            say(f"{name}: {PRESET_DOCS[name]}")
            if changed:
                say(f"    differs from standard: {changed}")
        return
    try:
        chosen = find_preset(preset)
    except ValueError as e:
        raise usage_error(str(e)) from None
    if output is OutputFormat.json:
        say(dumps({"preset": preset, "options": chosen.as_dict()}, indent=2))
        return
    say(f"preset {preset}: {PRESET_DOCS[preset]}")
    say("  (every rule id and option in words: docs/rules.md, or texas42 rules R16)")
    for name, value in chosen.as_dict().items():
        for line in OPTIONS[name].describe(value):
            say(f"  {line}")


def _reanalyse(file: str, docs: list[dict[str, Any]]) -> list[str]:
    """Each document's fair analysis of a version before 1.6 recomputed by 1.6's rule, in
    place in ``docs``; what was done, a line a document."""
    from ..analysis.api import reanalysed
    from ..files.reader import Record, validated
    from ..files.report import diagnostic_line
    from ..log.model import match_json

    done: list[str] = []
    for k, doc in enumerate(docs):
        result, _ = validated(Record(file, dumps(doc).encode("utf-8")))
        if not result.valid or result.match is None:
            for d in result.errors[:3]:
                say(diagnostic_line(file, d), err=True, colour=True)
            say(
                f"texas42: {file} (match {k + 1}) is invalid; its analysis is not recomputed",
                err=True,
            )
            raise typer.Exit(code=1)
        again = reanalysed(result.match)
        if again is not None:
            was = doc.get("version")
            docs[k] = match_json(again)
            done.append(
                f"match {k + 1}: the fair analysis of version {was} recomputed by 1.6's rule"
            )
    return done


@app.command()
def upgrade(
    file: Annotated[
        str,
        typer.Argument(
            metavar="FILE", help="A texas42-log JSON or JSON Lines file of any version."
        ),
    ],
    out: OutOpt = None,
    force: Annotated[
        bool, typer.Option("--force", help="Replace an existing output file.")
    ] = False,
    reanalyse: Annotated[
        bool,
        typer.Option(
            "--reanalyse",
            help="Recompute a fair analysis stated by a log before 1.6 by 1.6's rule (cost "
            "and marks against the one best play), with the worlds and seed it states; the "
            "version becomes 1.6.",
        ),
    ] = False,
) -> None:
    """Migrate a log to the current format version through the registered steps.

    Version 1 is the only major version so far: a 1.x log is read as it is and
    nothing is written, unless --reanalyse finds a fair analysis of a log before 1.6 to
    recompute (1.4 and 1.5 measured cost against the best mean; 1.6 against the
    one best play). Exit 1 if no chain of steps leads to a current version, or
    with --reanalyse a log is invalid.
    """
    from ..files.documents import read_documents
    from ..files.reader import InputError, is_jsonl
    from ..log.upgrade import UpgradeError, upgrade_doc

    try:
        read = read_documents(file, stdin=sys.stdin.buffer)
    except InputError as e:
        raise refused(e) from None
    # JSON Lines by its name, or by its content under another (files/formats.detect).
    jsonl = is_jsonl(file) or len(read) > 1
    docs: list[dict[str, Any]] = []
    applied: list[str] = []
    for first, doc in read:
        try:
            new, steps = upgrade_doc(doc)
        except UpgradeError as e:
            say(f"{file}:{first}: error format: {e}", err=True)
            raise typer.Exit(code=1) from None
        docs.append(new)
        applied += [f"{s.source} → {s.target}: {s.summary}" for s in steps]
    if reanalyse:
        applied += _reanalyse(file, docs)
    if not applied:
        versions = sorted({str(d.get("version")) for d in docs})
        from ..log.versions import FORMAT_VERSION

        said = ", ".join(versions)
        say(
            f"{file} is version {said}, which this tool reads as it is (1.0 to "
            f"{FORMAT_VERSION}: format 1 has no step to take); nothing written"
        )
        return
    for line in dict.fromkeys(applied):
        say(line, err=True)
    if jsonl:
        out_text = "".join(dumps(d, separators=(",", ":")) + "\n" for d in docs)
    else:
        out_text = dumps(docs[0], indent=2) + "\n"
    emit(out_text, out, None, [file], force)
