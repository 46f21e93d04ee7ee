"""The checks of a call's worth by the contract its auction ends in (format 1.11).

A log of 1.11 states, for a call of a game of marks, the contracts its auction ends in
(each one's share of the worlds and the share in which it is made), its worth, the call
that pays best and its worth, what the call gave up and its mark
(:mod:`.continuation`). ``validate`` checks each against the others and the call's own
table: the worth is what the stated contracts add up to, the call that pays best is open
to the caller and pays at least as well, the worth given up and the mark follow. What
cannot be checked without drawing the worlds again (the shares themselves, the worth of a
call not made) ``analyze --verify`` draws again. Pure, no I/O.
"""

from __future__ import annotations

from typing import Any

from ..engine.errors import Diagnostic
from ..engine.seats import partner
from . import as_stated
from .bidding import Bid, parse_row
from .calibration import Correction, kind_of
from .call_verdicts import CALL_BLUNDER, CALL_DUBIOUS, call_mark
from .continuation import end_value
from .fair_checks import analysis_problem

__all__ = ["contract_problems", "top_row"]

#: How far the stated shares of the contracts may add up from 1 (each is rounded).
_SUM_SLACK = 0.0001


def top_row(cells: dict[str, float]) -> str:
    """The first row with the highest chance, in the rows' order."""
    order = sorted(cells, key=lambda k: parse_row(k))
    return max(order, key=lambda k: cells[k])


def _worth_of(ends: list[dict[str, Any]], seat: str, correction: Correction) -> float:
    total = 0.0
    for e in ends:
        by, bid = e.get("by"), e.get("bid")
        if by is None or bid is None:
            continue
        side = 1 if by in (seat, partner(seat)) else -1  # type: ignore[arg-type]
        b = Bid.parse(bid)
        judged = correction.of_stated(float(e["made"]), kind_of(b, parse_row(e["trump"])))
        total += end_value(float(e["share"]), judged, side, b.contract(by).marks)
    return as_stated(total)


def _ends_problems(
    c: dict[str, Any], ends: list[dict[str, Any]], where: str, h: int, correction: Correction
) -> list[Diagnostic]:
    for k, e in enumerate(ends):
        none = [e.get(x) is None for x in ("by", "bid", "trump")]
        if any(none) and not all(none):
            return [
                analysis_problem(
                    f"{where}/ends/{k}",
                    "a contract the auction ends in names its bidder, bid and trump, or none "
                    "of them (all passed)",
                    h,
                )
            ]
        try:
            if e.get("bid") is not None:
                Bid.parse(e["bid"])
                parse_row(e["trump"])
        except ValueError as err:
            return [analysis_problem(f"{where}/ends/{k}", f"the contract {err}", h)]
    total = sum(float(e["share"]) for e in ends)
    if abs(total - 1.0) > _SUM_SLACK * max(1, len(ends)):
        return [
            analysis_problem(
                f"{where}/ends",
                f"the contracts the call's auction ends in add up to {total:.4f} of the worlds, "
                "not 1",
                h,
            )
        ]
    worth = _worth_of(ends, str(c.get("seat")), correction)
    if c["worth"] != worth:
        return [
            analysis_problem(
                f"{where}/worth",
                f"the contracts the call's auction ends in make it worth {worth:g} expected "
                f"marks, not {c['worth']:g}",
                h,
            )
        ]
    return []


def contract_problems(
    fair: dict[str, Any],
    call: dict[str, Any],
    made: str | None,
    where: str,
    h: int,
    correction: Correction,
) -> list[Diagnostic]:
    """What is wrong with a call's stated ``contract`` object (``where`` its pointer;
    ``made``: the call as its table columns it; ``correction``: the log's version's)."""
    c = fair["contract"]
    at = f"{where}/contract"
    table: dict[str, dict[str, float]] = fair["table"]
    out = _ends_problems(c | {"seat": call.get("seat")}, c["ends"], at, h, correction)
    if out:
        return out
    best = c["best"]
    if best != "pass" and best not in table:
        return [analysis_problem(f"{at}/best", f"the call's table has no bid {best}", h)]
    if best != "pass" and table[best] and c.get("best_trump") != top_row(table[best]):
        return [
            analysis_problem(
                f"{at}/best_trump",
                f"the trump its caller would name for {best} is its table's best, "
                f"{top_row(table[best])}, not {c.get('best_trump')}",
                h,
            )
        ]
    if c["best_worth"] < c["worth"] or (made == best and c["best_worth"] != c["worth"]):
        return [
            analysis_problem(
                f"{at}/best_worth",
                f"the call that pays best ({best}) is worth {c['best_worth']:g} expected marks, "
                f"which the call made ({c['worth']:g}) cannot beat",
                h,
            )
        ]
    lost = as_stated(max(0.0, c["best_worth"] - c["worth"]))
    if c["lost"] != lost:
        return [
            analysis_problem(
                f"{at}/lost",
                f"the call gave up {lost:g} expected marks, not {c['lost']:g}",
                h,
            )
        ]
    due = call_mark(lost, float(c["lost_se"]))
    if c.get("mark") != due:
        said = f"marked {c.get('mark')}" if c.get("mark") is not None else "not marked"
        return [
            analysis_problem(
                f"{at}/mark",
                f"the call is {said}, but it gave up {lost:g} expected marks (± "
                f"{c['lost_se']:g}), so its mark is {due or 'none'} (? from {CALL_DUBIOUS:g}, "
                f"?? from {CALL_BLUNDER:g}, and more than twice the error)",
                h,
            )
        ]
    return []
