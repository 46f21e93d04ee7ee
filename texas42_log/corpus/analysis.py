"""Open-hand analysis over corpora: ``texas42 analyze`` on files, folders, globs and JSON Lines.

The work is :func:`analyze_record`, a pure function of one record's bytes (as
:func:`texas42_log.corpus.validation.validate_record` is for ``validate``), so the same
scale-out recipe applies (docs/scale-out.md). Records are read as ``validate``
reads them (streamed; a JSON Lines file line by line) and go to worker processes
one at a time — a hand takes a fraction of a second, so even a small corpus is
worth the processes — with results in input order and a bounded window in flight.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any, Literal, NamedTuple

from ..files.reader import Record, read_records, validated
from ..files.validate import DEFAULT_MAX_BYTES
from .pool import run_pool, tune_gc

if TYPE_CHECKING:
    from ..analysis.fair_hands import FairHand

__all__ = ["Analyzed", "analyze_record", "analyze_files", "Form", "Fair"]

Form = Literal["text", "json", "csv"]
#: The fair analysis asked for: (worlds a decision, seed).
Fair = tuple[int, int]


class Analyzed(NamedTuple):
    """One match after analysis, in the printed form asked for."""

    source: str
    valid: bool
    size: int
    #: The report (text), or the validator's diagnostics when the match is invalid.
    text: str
    json: dict[str, Any]
    rows: list[list[str]]
    hands: int
    skipped: int
    #: ``--verify``: how many stated values differ from the solver's.
    differences: int
    nodes: int


def analyze_record(
    record: Record,
    form: Form = "text",
    *,
    hand: int | None = None,
    table: bool = True,
    verify: bool = False,
    max_bytes: int = DEFAULT_MAX_BYTES,
    values: bool = False,
    fair: Fair | None = None,
) -> Analyzed:
    """Validate one match, then analyse every hand with a known deal (or hand ``hand``, from 0);
    ``values``: the text report lists every play's alternatives; ``fair`` (worlds, seed): each
    play's fair analysis beside the open-hand one."""
    from ..analysis.api import fair_hands
    from ..analysis.checks import recomputed_problems, stated_runs
    from ..analysis.open_hand import HandAnalysis, analyze_match_doc
    from ..analysis.report import csv_rows, match_json, match_text
    from ..files.report import diagnostic_line, result_json, result_text
    from ..log.check import effective_rules
    from ..log.model import match_json as doc_of

    result, where = validated(record, max_bytes)
    size = len(record.data)
    if not result.valid or result.match is None:
        return Analyzed(
            record.source,
            False,
            size,
            result_text(record.source, result, where),
            result_json(record.source, result),
            [],
            0,
            0,
            0,
            0,
        )
    match = result.match
    doc = doc_of(match)
    analyses = analyze_match_doc(effective_rules(match), doc, table=table, only=hand)
    done = [a for a in analyses if isinstance(a, HandAnalysis)]
    fairs = None if fair is None else fair_hands(match, analyses, *fair)
    text, js, rows = "", {}, []
    if form == "text":
        text = match_text(record.source, analyses, values, fairs)
    elif form == "json":
        js = match_json(record.source, analyses, fairs)
    else:
        rows = csv_rows(record.source, analyses, fairs)
    differences = 0
    if verify:
        runs = stated_runs(doc)
        again: dict[int, FairHand] = {}
        by_run: dict[tuple[int, int], dict[int, FairHand]] = (
            {} if fair is None or fairs is None else {fair: fairs}
        )
        for h, run in runs.items():
            if run not in by_run:
                by_run[run] = fair_hands(
                    match, [a for a in analyses if a.hand in runs and runs[a.hand] == run], *run
                )
            if h in by_run[run]:
                again[h] = by_run[run][h]
        problems = recomputed_problems(doc, analyses, again)
        differences = len(problems)
        if form == "text":
            text = "\n".join([diagnostic_line(where, d) for d in problems] + [text])
        elif form == "json":
            js["differences"] = [d.as_dict() for d in problems]
    return Analyzed(
        record.source,
        True,
        size,
        text,
        js,
        rows,
        len(done),
        len(analyses) - len(done),
        differences,
        sum(a.nodes for a in done),
    )


def _one(
    record: Record,
    form: Form,
    hand: int | None,
    table: bool,
    verify: bool,
    max_bytes: int,
    values: bool,
    fair: Fair | None,
) -> list[Analyzed]:
    return [
        analyze_record(
            record,
            form,
            hand=hand,
            table=table,
            verify=verify,
            max_bytes=max_bytes,
            values=values,
            fair=fair,
        )
    ]


def analyze_files(
    files: list[str],
    form: Form = "text",
    *,
    jobs: int = 1,
    hand: int | None = None,
    table: bool = True,
    verify: bool = False,
    max_bytes: int = DEFAULT_MAX_BYTES,
    stdin: IO[bytes] | None = None,
    stdin_jsonl: bool = False,
    values: bool = False,
    fair: Fair | None = None,
) -> Iterator[Analyzed]:
    """Every match of ``files`` analysed, in input order, on ``jobs`` processes."""
    records: Iterable[Record] = read_records(
        files, stdin=stdin, stdin_jsonl=stdin_jsonl, max_bytes=max_bytes
    )
    if jobs <= 1:
        tune_gc()
        for r in records:
            yield analyze_record(
                r,
                form,
                hand=hand,
                table=table,
                verify=verify,
                max_bytes=max_bytes,
                values=values,
                fair=fair,
            )
        return
    yield from run_pool(
        ((_one, r, form, hand, table, verify, max_bytes, values, fair) for r in records), jobs
    )
