"""Fair analysis on every core: each match's hands and decisions spread over processes.

A match's fair analysis is dozens of decisions, each a fraction of a second to a
second on its own (:func:`texas42_log.analysis.fair.decide`), so one match on one
core leaves the others idle. Here the parent validates each record and plans its
work — the open-hand analysis of each hand, and each play's decision with exactly
its player's knowledge (:func:`texas42_log.analysis.fair_hands.plan_hand`) — and
the tasks go to the shared pool (:func:`texas42_log.corpus.pool.run_pool`), a
bounded window at a time, across match boundaries. Results come back in task order,
so the matches are finished in input order, each as soon as its last task is in,
and ``progress`` is called after every task with the decisions done and known.

The numbers are those of the serial analysis to the bit: a decision's worlds depend
only on the seed, the hand and the plays before it (:func:`.fair.decision_seed`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Literal

from ..files.reader import Record, validated
from ..files.validate import DEFAULT_MAX_BYTES
from .pool import run_pool, tune_gc

if TYPE_CHECKING:
    from ..analysis.auction_fair import AuctionAnalysis, AuctionPlan
    from ..analysis.fair import Decision
    from ..analysis.fair_hands import FairHand, Pending
    from ..analysis.open_hand import HandAnalysis, Skipped
    from ..analysis.worlds import Knowledge
    from ..engine.rules import Rules
    from ..files.validate import ValidationResult
    from ..log.model import Match

__all__ = ["Done", "fair_matches", "Run", "AuctionChoice"]

#: How a hand's worlds are drawn: (worlds a decision, seed).
Run = tuple[int, int]

#: A slot's marker for a hand's auction task (beside its pending plays).
AUCTION: Final = "auction"

#: Which hands' calls and declaration are judged too: every hand with a contract, only
#: those whose log states a verdict (``--verify`` alone), or none (``--no-auction``).
AuctionChoice = Literal["all", "stated", "none"]


@dataclass
class Done:
    """One record, analysed: its validation, then (when valid) the open-hand analysis of
    the hands asked for and, per run, each hand's fair analysis (by hand from 0)."""

    record: Record
    result: ValidationResult
    where: str
    analyses: list[HandAnalysis | Skipped] = field(default_factory=list)
    fair: dict[Run, dict[int, FairHand]] = field(default_factory=dict)
    #: The one hand asked for (from 0), if one was.
    hand: int | None = None


@dataclass
class _Job:
    done: Done
    #: (hand, run or None for the open-hand task, the pending decision or None)
    slots: list[tuple[int, Run | None, Pending | str | None]]
    plans: dict[Run, dict[int, tuple[FairHand, list[Pending]]]]


def _open_task(
    rules: Rules, hand: dict[str, Any], index: int, table: bool
) -> list[HandAnalysis | Skipped]:
    from ..analysis.open_hand import analyze_hand

    return [analyze_hand(rules, hand, index, table=table)]


def _decide_task(knowledge: Knowledge, worlds: int, seed: int, hand: int) -> list[Decision]:
    from ..analysis.fair import decide

    return [decide(knowledge, worlds=worlds, seed=seed, hand=hand)]


def _auction_task(
    plan: AuctionPlan, worlds: int, seed: int, older: bool = False
) -> list[AuctionAnalysis]:
    from ..analysis.auction_fair import judge_auction

    return [judge_auction(plan, worlds=worlds, seed=seed, older=older)]


def _nothing() -> list[None]:
    return [None]


def _plan(
    item: Record | Match,
    *,
    hand: int | None,
    table: bool,
    max_bytes: int,
    runs: Callable[[dict[str, Any]], dict[Run, list[int]]],
    auction: AuctionChoice,
) -> tuple[_Job, list[tuple[Any, ...]]]:
    from ..analysis.auction_fair import plan_auction
    from ..analysis.calibration import BY_KIND, correction_of
    from ..analysis.fair_hands import passed_out, plan_hand
    from ..analysis.open_hand import Skipped
    from ..files.validate import ValidationResult
    from ..log.check import effective_rules
    from ..log.model import match_json

    if isinstance(item, Record):
        record, (result, where) = item, validated(item, max_bytes)
    else:  # a match read and validated already
        record, result, where = Record("", b""), ValidationResult(match=item), ""
    job = _Job(Done(record, result, where, hand=hand), [], {})
    if not result.valid or result.match is None:
        return job, [(_nothing,)]
    match = result.match
    rules = effective_rules(match)
    doc = match_json(match)
    hands = doc.get("hands", [])
    tasks: list[tuple[Any, ...]] = []
    if hand is not None and not 0 <= hand < len(hands):
        s = "s" if len(hands) != 1 else ""
        job.done.analyses = [
            Skipped(hand, f"the match has {len(hands)} hand{s}, so no hand {hand + 1}")
        ]
    else:
        for i, h in enumerate(hands):
            if hand is None or i == hand:
                job.slots.append((i, None, None))
                tasks.append((_open_task, rules, h, i, table))
    for run, wanted in runs(doc).items():
        plans = job.plans.setdefault(run, {})
        for i in wanted:
            if not 0 <= i < len(hands) or (hand is not None and i != hand):
                continue
            planned = plan_hand(match, i, worlds=run[0], seed=run[1])
            plans[i] = planned
            judged_calls = match.hands[i].declaration is not None or passed_out(match, i)
            if judged_calls and _judged(match, i, auction):
                job.slots.append((i, run, AUCTION))
                # a log before 1.12 is verified by the single curve: drawn by it too
                older = correction_of(match.version) != BY_KIND and _judged(match, i, "stated")
                tasks.append((_auction_task, plan_auction(match, i), run[0], run[1], older))
            for p in planned[1]:
                if p.knowledge is not None:
                    job.slots.append((i, run, p))
                    tasks.append((_decide_task, p.knowledge, run[0], run[1], i))
    return job, tasks or [(_nothing,)]


def _judged(match: Match, i: int, auction: AuctionChoice) -> bool:
    """Whether hand ``i``'s calls and declaration are to be judged (see AuctionChoice)."""
    if auction == "stated":
        h = match.hands[i]
        return any(c.analysis is not None for c in h.auction) or (
            h.declaration is not None and h.declaration.analysis is not None
        )
    return auction == "all"


def _map(tasks: Iterable[tuple[Any, ...]], jobs: int) -> Iterator[Any]:
    if jobs > 1:
        yield from run_pool(tasks, jobs)
        return
    tune_gc()
    for fn, *args in tasks:
        yield from fn(*args)


def fair_matches(
    records: Iterable[Record | Match],
    *,
    runs: Callable[[dict[str, Any]], dict[Run, list[int]]],
    jobs: int = 1,
    hand: int | None = None,
    table: bool = True,
    max_bytes: int = DEFAULT_MAX_BYTES,
    progress: Callable[[int, int], None] | None = None,
    auction: AuctionChoice = "all",
) -> Iterator[Done]:
    """Each record validated (a :class:`Match` given is valid already) and analysed, in
    input order: the open-hand analysis of its
    hands (or hand ``hand``, from 0) and, for each run ``runs(doc)`` names, the fair
    analysis of the hands it lists; on ``jobs`` processes, task by task. ``progress(done,
    known)`` is called after each decision (the decisions finished, and planned so far).
    ``auction``: whose calls and declaration are judged besides (:data:`AuctionChoice`)."""
    from ..analysis.fair_hands import finish_hand
    from ..analysis.open_hand import HandAnalysis

    planned: deque[tuple[_Job, int]] = deque()
    known = [0]

    def tasks() -> Iterator[tuple[Any, ...]]:
        for record in records:
            job, ts = _plan(
                record, hand=hand, table=table, max_bytes=max_bytes, runs=runs, auction=auction
            )
            planned.append((job, len(ts)))
            known[0] += sum(1 for _, run, _ in job.slots if run is not None)
            yield from ts

    results = _map(tasks(), jobs)
    done = 0
    try:
        for first in results:
            job, n = planned.popleft()
            got = [first]
            for k in range(n):
                if k:
                    got.append(next(results))
                if k < len(job.slots) and job.slots[k][1] is not None:
                    done += 1  # a decision is in: say so now, not when the match is whole
                    if progress is not None:
                        progress(done, known[0])
            if not job.slots:
                yield job.done
                continue
            opened: dict[int, HandAnalysis | Skipped] = {}
            decided: dict[tuple[Run, int], list[Decision | None]] = {}
            auctions: dict[tuple[Run, int], AuctionAnalysis] = {}
            for (i, run, slot), value in zip(job.slots, got, strict=True):
                if run is None:
                    opened[i] = value
                elif isinstance(slot, str):
                    auctions[(run, i)] = value
                else:
                    decided.setdefault((run, i), []).append(value)
            job.done.analyses = [opened[i] for i in sorted(opened)]
            for run, plans in job.plans.items():
                for i, (fh, pending) in plans.items():
                    a = opened.get(i)
                    notes = a.plays if isinstance(a, HandAnalysis) else None
                    fh = finish_hand(fh, pending, iter(decided.get((run, i), [])), notes)
                    fh.auction = auctions.get((run, i))
                    if fh.contract is not None or (fh.auction is not None and fh.auction.calls):
                        job.done.fair.setdefault(run, {})[i] = fh
            yield job.done
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()
