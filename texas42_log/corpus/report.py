"""The report of ``texas42 analyze``, a match at a time: every match of the files
analysed (:func:`~texas42_log.corpus.analysis.analyze_files`) and written as the chosen
form — text, JSON Lines or CSV — with the score cards, the legend and the JSON summary,
as chunks to write in order. The command only reads its options, writes the chunks and
says the tally (:class:`Tally`); nothing here prints.
"""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from ..log.inert import dumps
from .analysis import Fair, Form, analyze_files

__all__ = ["ReportOptions", "Tally", "NothingToReport", "report_chunks"]


@dataclass(frozen=True, slots=True)
class ReportOptions:
    """What to analyse and how to write it (``texas42 analyze --help`` says each)."""

    form: Form = "text"
    #: One hand of each match, counted from 1; None: every hand.
    hand: int | None = None
    table: bool = True
    verify: bool = False
    jobs: int = 1
    max_bytes: int | None = None
    stdin_jsonl: bool = False
    values: bool = False
    fair: Fair | None = None
    legend: bool = True
    auction: bool = True
    #: Score cards instead of the report: "cards" (each match's), "player" (the
    #: season's by player, said once at the end), or None.
    cards: str | None = None


@dataclass(slots=True)
class Tally:
    """What the report went through, filled in as its chunks are made."""

    matches: int = 0
    invalid: int = 0
    hands: int = 0
    skipped: int = 0
    differences: int = 0
    #: The inputs that named no file (said by the caller), counted as invalid.
    problems: list[str] = field(default_factory=list)
    #: The matches with fewer hands than ``--hand`` asks for.
    no_hand: list[str] = field(default_factory=list)
    started: float = field(default_factory=time.perf_counter)

    @property
    def all_invalid(self) -> int:
        return self.invalid + len(self.problems)

    def summary(self) -> dict[str, int | float]:
        """The JSON report's closing ``summary``."""
        return {
            "matches": self.matches,
            "invalid": self.all_invalid,
            "hands": self.hands,
            "skipped": self.skipped,
            "differences": self.differences,
            "seconds": round(time.perf_counter() - self.started, 3),
        }


class NothingToReport(ValueError):
    """``--hand N`` is past the last hand of every valid match: nothing to report."""


def _csv_text(rows: list[list[Any]] | list[tuple[Any, ...]]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue()


def _card_chunk(out: str | dict[str, Any] | list[list[str]]) -> str:
    """One score-card output as the chunk the report writes."""
    if isinstance(out, str):
        return out + "\n"
    if isinstance(out, dict):
        return dumps(out) + "\n"
    return _csv_text(out)


def report_chunks(
    files: list[str],
    options: ReportOptions,
    tally: Tally,
    *,
    stdin: IO[bytes] | None = None,
    decided: Callable[[int, int], None] | None = None,
    analysed: Callable[[int], None] | None = None,
    before_chunk: Callable[[], None] | None = None,
    invalid_aside: Callable[[str], None] | None = None,
) -> Iterator[str]:
    """The report of ``files``, a chunk at a time, filling ``tally``.

    ``decided(done, known)`` follows a fair (or verified) run decision by decision;
    ``analysed(size)`` after each match (its bytes, added up); ``before_chunk()`` before a
    match's chunk (a progress line cleared); ``invalid_aside(text)`` takes an invalid
    match's diagnostics when the form is CSV, where they have no place.
    :class:`NothingToReport` when ``hand`` is past every valid match's last hand."""
    from ..analysis.cards import (
        CARD_COLUMNS,
        Card,
        add_player_cards,
        match_card_output,
        season_output,
    )
    from ..analysis.report import CSV_COLUMNS, FAIR_COLUMNS, legend
    from ..files.validate import DEFAULT_MAX_BYTES

    o = options
    season: dict[str, Card] = {}
    if o.form == "csv":
        header = CARD_COLUMNS if o.cards else CSV_COLUMNS + (FAIR_COLUMNS if o.fair else ())
        yield _csv_text([list(header)])
    done = 0
    for r in analyze_files(
        files,
        o.form,
        jobs=o.jobs,
        hand=None if o.hand is None else o.hand - 1,
        table=o.table,
        verify=o.verify,
        max_bytes=DEFAULT_MAX_BYTES if o.max_bytes is None else o.max_bytes,
        stdin=stdin,
        stdin_jsonl=o.stdin_jsonl,
        values=o.values,
        fair=o.fair,
        progress=decided if o.fair or o.verify else None,
        auction=o.auction,
    ):
        tally.matches += 1
        tally.invalid += not r.valid
        tally.hands += r.hands
        tally.skipped += r.skipped
        tally.differences += r.differences
        if r.no_hand:
            tally.no_hand.append(r.source)  # said at the end, by the caller
            continue
        if before_chunk is not None:
            before_chunk()
        if o.cards and r.valid:
            if o.cards == "player":  # said once, at the end
                for by_seat in r.cards.values():
                    add_player_cards(season, by_seat, r.players)
            else:
                yield _card_chunk(match_card_output(o.form, r.source, r.cards, r.players))
        elif o.form == "json":
            yield dumps(r.json) + "\n"
        elif o.form == "csv" and not r.valid:
            if invalid_aside is not None:
                invalid_aside(r.text)
        elif o.form == "csv":
            yield _csv_text(r.rows)
        else:
            yield r.text + "\n"
        done += r.size
        if analysed is not None:
            analysed(done)
    valid = tally.matches - tally.invalid
    if tally.no_hand and len(tally.no_hand) == valid:
        more = len(tally.no_hand)
        raise NothingToReport(
            f"--hand {o.hand}: {tally.no_hand[0]} has fewer than {o.hand} hands"
            + (f", and so has every other match given ({more})" if more > 1 else "")
        )
    shown = valid - len(tally.no_hand)
    if o.cards == "player":
        yield _card_chunk(season_output(o.form, season))
    elif o.cards is None and o.form == "text" and o.legend and o.fair is not None and shown:
        yield "\n".join(legend(True)) + "\n"
    if o.form == "json":
        yield dumps({"summary": tally.summary()}) + "\n"
