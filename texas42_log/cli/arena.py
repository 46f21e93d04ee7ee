"""``texas42 arena``: two bots in duplicate play, with the verdict a statistician accepts."""

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer

from .app import NoProgressOpt, OutputFormat, app, say, usage_error
from .progress import Progress, wanted

BOT_HELP = (
    "A bot: random, rule, sampling (it bids from its fair makeable table), sampling-contract "
    "(it bids by the contract each call leads to) or sampling-open (the sampling bot's "
    "earlier, open-hand bidder); settings after commas: "
    "sampling,worlds=20; or a class of your own as FILE.py:CLASS or MODULE:CLASS "
    "(docs/bots.md)."
)


@app.command()
def arena(
    x: Annotated[str, typer.Argument(metavar="BOT", help=BOT_HELP)],
    y: Annotated[str, typer.Argument(metavar="BOT", help="The other bot, named the same way.")],
    deals: Annotated[
        int,
        typer.Option(
            "--deals", "-n", min=1, max=1_000_000, help="Deals to play, each at two tables."
        ),
    ] = 100,
    seed: Annotated[
        int,
        typer.Option(
            "--seed",
            "-s",
            min=0,
            max=2**63 - 1,
            help="Seed: the same seed, the same deals, choices and logs.",
        ),
    ] = 0,
    preset: Annotated[
        str,
        typer.Option("--rules", help="The rules preset to play under (texas42 rules lists them)."),
    ] = "standard",
    jobs: Annotated[
        int | None,
        typer.Option("--jobs", "-j", min=1, help="Processes to use (default: every core)."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--logs",
            metavar="FOLDER",
            help="Write each table's log into this "
            "folder (deal-1-table-1.json …, the deal's number as wide as the last one's: "
            "deal-001-table-1.json from 100 deals), atomically; a new folder, or --force.",
        ),
    ] = None,
    force: Annotated[
        bool,
        typer.Option(
            "--force", help="Write into an existing folder, replacing logs of the same names."
        ),
    ] = False,
    output_format: Annotated[
        OutputFormat, typer.Option("--format", "-f", help="The verdict as text or as JSON.")
    ] = OutputFormat.text,
    no_progress: NoProgressOpt = False,
) -> None:
    """Two bots in duplicate play: each deal is played twice with the pairs
    swapped (BOT 1 holds A and C at table 1, B and D at table 2), so the luck of
    the deal cancels. Says each bot's mean marks per hand with a 95 % interval,
    the difference paired by deal, the contracts bid, made and set, and McNemar's
    exact test on the deals one bot won at both tables.

    Every table's log validates (a match of one hand). The same seed gives
    byte-identical logs on any number of processes.

    Example: texas42 arena rule random --deals 200 --logs arena-logs
    """
    from ..bots.arena import report
    from ..bots.base import BotError
    from ..corpus.arena import log_name, log_text, resolve, run_deals
    from ..corpus.validation import default_jobs
    from ..engine.presets import find_preset
    from ..files.outputs import OutputError, write_folder

    try:
        find_preset(preset)
    except ValueError as e:
        raise usage_error(f"--rules: {e}") from None
    for spec in (x, y):
        try:
            resolve(spec)
        except ValueError as e:
            raise usage_error(f"{spec[:80]}: {e}") from None
    if out is not None and out.exists() and not force:
        if not out.is_dir():
            raise usage_error(f"{out}: not a folder; --logs names a folder for the logs")
        if any(out.glob("deal-*-table-*.json")):
            raise usage_error(
                f"{out} already holds arena logs; use --force to replace them, or another folder"
            )
    names = _names(x, y)
    progress = Progress("arena", deals, enabled=wanted(no_progress))
    results = []
    width = len(str(deals))

    def played() -> Iterator[tuple[str, str]]:
        for deal in run_deals(
            (x, y), deals, seed=seed, rules=preset, jobs=jobs or default_jobs(), names=names
        ):
            results.append(deal)
            progress.update(len(results), f"{len(results):,} of {deals:,} deals")
            if out is not None:
                for table in (1, 2):
                    yield log_name(deal, table, width), log_text(deal, table)
                    deal.tables[table - 1].log.clear()  # written: keep no copy

    try:
        if out is None:
            for _ in played():
                pass
        else:
            write_folder(out, played(), replace=force)
    except BotError as e:
        say(f"texas42: the arena stopped: {e}", err=True)
        raise typer.Exit(code=1) from None
    except (OutputError, OSError) as e:
        raise usage_error(
            f"{out}: cannot be written ({getattr(e, 'strerror', None) or e})"
        ) from None
    finally:
        progress.close()
    verdict = report(results, names, seed=seed, rules=preset)
    if output_format is OutputFormat.json:
        say(json.dumps(verdict.as_dict(), indent=2, ensure_ascii=False))
    else:
        for line in verdict.text():
            say(line)
        if out is not None:
            say(f"wrote {2 * deals:,} logs into {out}")


def _names(x: str, y: str) -> tuple[str, str]:
    """The bots' names for the logs and the verdict: a class of your own by its class
    name; two bots of one name told apart."""
    from ..bots import bot_name

    a, b = bot_name(x), bot_name(y)
    return (a, b) if a != b else (f"{a} (1)", f"{b} (2)")
