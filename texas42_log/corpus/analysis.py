"""Open-hand analysis over corpora: ``texas42 analyze`` on files, folders, globs and JSON Lines.

The work is :func:`analyze_record`, a pure function of one record's bytes (as
:func:`texas42_log.corpus.validation.validate_record` is for ``validate``), so the same
scale-out recipe applies (docs/scale-out.md). Records are read as ``validate``
reads them (streamed; a JSON Lines file line by line) and go to worker processes
one at a time — a hand takes a fraction of a second, so even a small corpus is
worth the processes — with results in input order and a bounded window in flight.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any, NamedTuple

from ..analysis import ReportForm
from ..files.reader import Record, read_records, validated
from ..files.validate import DEFAULT_MAX_BYTES
from .pool import run_pool, tune_gc

if TYPE_CHECKING:
    from ..analysis.cards import Card
    from ..analysis.fair_hands import FairHand
    from ..analysis.open_hand import HandAnalysis, Skipped
    from ..engine.seats import Seat
    from .fair_pool import AuctionChoice, Done

__all__ = ["Analyzed", "analyze_record", "analyze_files", "Form", "Fair"]

#: The report's form: the analysis layer's one list (:data:`~texas42_log.analysis.REPORT_FORMS`).
Form = ReportForm
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
    #: ``--hand N`` and the match has fewer hands: nothing of it was analysed.
    no_hand: bool = False
    #: With a fair analysis: each hand's (from 0) score cards by seat, and the players'
    #: names by seat (``analyze --cards``, ``--by-player``).
    cards: dict[int, dict[Seat, Card]] = {}
    players: dict[Seat, str] = {}


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
    auction: bool = True,
) -> Analyzed:
    """Validate one match, then analyse every hand with a known deal (or hand ``hand``, from 0);
    ``values``: the text report lists every play's alternatives; ``fair`` (worlds, seed): each
    play's fair analysis beside the open-hand one (in this process; :func:`analyze_files`
    spreads a match's decisions over its processes)."""
    from .fair_pool import fair_matches

    if fair is None and not verify:
        return _open_only(record, form, hand, table, max_bytes, values)
    (done,) = fair_matches(
        [record],
        runs=fair_runs(fair, verify),
        hand=hand,
        table=table,
        max_bytes=max_bytes,
        auction=auction_choice(fair, auction),
    )
    return render(done, form, values=values, fair=fair, verify=verify)


def auction_choice(fair: Fair | None, auction: bool) -> AuctionChoice:
    """Whose calls and declaration are judged: with ``fair``, every hand with a contract
    (none when ``auction`` is off); by ``--verify`` alone, the hands whose log states it."""
    if not auction:
        return "none"
    return "all" if fair is not None else "stated"


def fair_runs(fair: Fair | None, verify: bool) -> Callable[[dict[str, Any]], dict[Fair, list[int]]]:
    """What to draw for a match (its JSON form): with ``fair``, every hand by that run; with
    ``verify``, each hand whose log states a fair analysis, by the run it states."""
    from ..analysis.checks import stated_runs

    def runs(doc: dict[str, Any]) -> dict[Fair, list[int]]:
        out: dict[Fair, list[int]] = {}
        if fair is not None:
            out[fair] = list(range(len(doc.get("hands", []))))
        if verify:
            for h, run in stated_runs(doc).items():
                if h not in out.get(run, []):
                    out.setdefault(run, []).append(h)
        return out

    return runs


def _invalid(record: Record, result: Any, where: str) -> Analyzed:
    from ..files.report import result_json, result_text

    return Analyzed(
        record.source,
        False,
        len(record.data),
        result_text(record.source, result, where),
        result_json(record.source, result),
        [],
        0,
        0,
        0,
        0,
    )


def _open_only(
    record: Record, form: Form, hand: int | None, table: bool, max_bytes: int, values: bool
) -> Analyzed:
    from ..analysis.open_hand import analyze_match_doc
    from ..log.check import effective_rules
    from ..log.model import match_json as doc_of

    result, where = validated(record, max_bytes)
    if not result.valid or result.match is None:
        return _invalid(record, result, where)
    match = result.match
    analyses = analyze_match_doc(effective_rules(match), doc_of(match), table=table, only=hand)
    text, js, rows = _forms(record.source, form, analyses, values, None)
    return _analysed(record, (text, js, rows), analyses, 0, hand, len(match.hands))


def _analysed(
    record: Record,
    forms: tuple[str, dict[str, Any], list[list[str]]],
    analyses: list[HandAnalysis | Skipped],
    differences: int,
    hand: int | None,
    hands: int,
    fairs: dict[int, FairHand] | None = None,
) -> Analyzed:
    """A valid record's result: its report in the form made, and the counts (a hand is
    analysed with every hand open or fairly:
    :func:`~texas42_log.analysis.report.analysed_hands`)."""
    from ..analysis.open_hand import HandAnalysis
    from ..analysis.report import analysed_hands

    done = [a for a in analyses if isinstance(a, HandAnalysis)]
    n = analysed_hands(analyses, fairs)
    return Analyzed(
        record.source,
        True,
        len(record.data),
        *forms,
        n,
        len(analyses) - n,
        differences,
        sum(a.nodes for a in done),
        _no_hand(analyses, hand, hands),
    )


def _no_hand(analyses: list[HandAnalysis | Skipped], hand: int | None, hands: int) -> bool:
    return hand is not None and not 0 <= hand < hands


def _forms(
    source: str,
    form: Form,
    analyses: list[HandAnalysis | Skipped],
    values: bool,
    fairs: dict[int, FairHand] | None,
    players: dict[Seat, str] | None = None,
) -> tuple[str, dict[str, Any], list[list[str]]]:
    from ..analysis.report import csv_rows, match_json, match_text

    if form == "text":
        return match_text(source, analyses, values, fairs, players), {}, []
    if form == "json":
        return "", match_json(source, analyses, fairs), []
    return "", {}, csv_rows(source, analyses, fairs)


def render(
    done: Done, form: Form = "text", *, values: bool = False, fair: Fair | None, verify: bool
) -> Analyzed:
    """One analysed record (:func:`texas42_log.corpus.fair_pool.fair_matches`) in the printed
    form asked for; with ``verify``, each stated value compared with the one computed again,
    and a closing line per run of the fair decisions drawn again."""
    from ..analysis.checks import recomputed_problems, stated_runs
    from ..files.report import diagnostic_line
    from ..log.model import match_json as doc_of

    record, result = done.record, done.result
    if not result.valid or result.match is None:
        return _invalid(record, result, done.where)
    analyses = done.analyses
    fairs = None if fair is None else done.fair.get(fair, {})
    players = _players(result.match)
    text, js, rows = _forms(record.source, form, analyses, values, fairs, players)
    differences = 0
    if verify:
        doc = doc_of(result.match)
        runs = stated_runs(doc)
        again = {
            h: done.fair[run][h]
            for h, run in runs.items()
            if run in done.fair and h in done.fair[run]
        }
        problems = recomputed_problems(doc, analyses, again)
        differences = len(problems)
        closing = _verify_lines(doc, again, problems)
        if form == "text":
            text = "\n".join([diagnostic_line(done.where, d) for d in problems] + [text] + closing)
        elif form == "json":
            js["differences"] = [d.as_dict() for d in problems]
            js["verified"] = closing
    from ..analysis.cards import hand_cards

    analysed = _analysed(
        record,
        (text, js, rows),
        analyses,
        differences,
        done.hand,
        len(result.match.hands),
        fairs,
    )
    if not fairs:
        return analysed
    cards = {h: hand_cards(f) for h, f in sorted(fairs.items())}
    return analysed._replace(cards=cards, players=players)


def _players(match: Any) -> dict[Seat, str]:
    """The players' names of a match by seat (those it names)."""
    from ..engine.seats import SEATS

    p = match.players
    if p is None:
        return {}
    return {s: name for s in SEATS if (name := getattr(p, s)) is not None}


def _verify_lines(
    doc: dict[str, Any], again: dict[int, FairHand], problems: list[Any]
) -> list[str]:
    """``--verify``'s closing lines: per run, how many stated fair decisions were drawn
    again, and whether all were equal (else how many differ)."""
    differing = {
        d.pointer.split("/analysis/fair")[0] for d in problems if "/analysis/fair" in d.pointer
    }
    # per run: [plays, calls, declarations] drawn again, and how many of them differ
    counts: dict[tuple[int, int], list[int]] = {}

    def count(f: FairHand, kind: int, stated: Any, where: str) -> None:
        if not stated:
            return
        n = counts.setdefault((f.worlds, f.seed), [0, 0, 0, 0])
        n[kind] += 1
        n[3] += where in differing

    for h, f in sorted(again.items()):
        hand = doc["hands"][h]
        for fn in f.plays:
            if fn.decision is not None:
                stated = (hand["plays"][fn.index].get("analysis") or {}).get("fair")
                count(f, 0, stated, f"/hands/{h}/plays/{fn.index}")
        if f.auction is not None:
            for cn in f.auction.calls:
                stated = (hand["auction"][cn.index].get("analysis") or {}).get("fair")
                count(f, 1, stated, f"/hands/{h}/auction/{cn.index}")
            if f.auction.declaration is not None and isinstance(hand.get("declaration"), dict):
                stated = (hand["declaration"].get("analysis") or {}).get("fair")
                count(f, 2, stated, f"/hands/{h}/declaration")
    out = []
    for (worlds, seed), (plays, calls, decls, wrong) in sorted(counts.items()):
        verdict = "all equal" if not wrong else f"{wrong} differ{'s' if wrong == 1 else ''}"
        parts = [
            f"{n} {what}{'' if n == 1 else 's'}"
            for n, what in ((plays, "fair decision"), (calls, "call"), (decls, "declaration"))
            if n or what == "fair decision"
        ]
        out.append(
            f"{', '.join(parts)} drawn again with seed {seed} and {worlds} worlds: " + verdict
        )
    return out


def _one(
    record: Record, form: Form, hand: int | None, table: bool, max_bytes: int, values: bool
) -> list[Analyzed]:
    return [_open_only(record, form, hand, table, max_bytes, values)]


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
    progress: Callable[[int, int], None] | None = None,
    auction: bool = True,
) -> Iterator[Analyzed]:
    """Every match of ``files`` analysed, in input order, on ``jobs`` processes: a match at a
    time for the open-hand analysis, a decision at a time with ``fair`` or ``verify``
    (``progress(done, known)`` after each decision)."""
    from .fair_pool import fair_matches

    records: Iterable[Record] = read_records(
        files, stdin=stdin, stdin_jsonl=stdin_jsonl, max_bytes=max_bytes
    )
    if fair is not None or verify:
        for done in fair_matches(
            records,
            runs=fair_runs(fair, verify),
            jobs=jobs,
            hand=hand,
            table=table,
            max_bytes=max_bytes,
            progress=progress,
            auction=auction_choice(fair, auction),
        ):
            yield render(done, form, values=values, fair=fair, verify=verify)
        return
    if jobs <= 1:
        tune_gc()
        for r in records:
            yield _open_only(r, form, hand, table, max_bytes, values)
        return
    yield from run_pool(((_one, r, form, hand, table, max_bytes, values) for r in records), jobs)
