"""The checks of a log's stated fair analysis (a play's ``analysis.fair``), by the rule of
the log's own format version.

* **Before 1.6** (1.4, 1.5): ``cost`` is measured against the best mean and
  ``chance_lost`` against the best chance; ``??`` needs a chance lost of 20 %, ``?``
  one of 5 % or a cost of 2 hand points.
* **Since 1.6**: both are measured against the one best fair play the log names
  (``best``: the best chance of the side's goal, ties broken by the mean; in a points
  game the best mean — :mod:`texas42_log.analysis.fair`), the best play is never marked,
  and a mark follows from the chance lost alone (in a points game from the cost).

What the replay can confirm is confirmed here for ``texas42 validate`` — the legal
plays, a forced play, the cost, the chance lost, the best play and the mark against
their thresholds; that the values are the true ones takes ``analyze --verify``. Where
the worlds were counted (no standard error), the best play and the mark are exact, and
checked exactly; where they were drawn, the tie within the standard error and the
two-errors rule need the worlds themselves, so only the thresholds are checked.

Rule id ``analysis``. Pure: no I/O.
"""

from __future__ import annotations

from typing import Any

from ..engine.auction import Contract
from ..engine.errors import Diagnostic
from ..engine.seats import Seat
from ..engine.values import Move, maximiser, move_key
from . import as_stated
from .fair import BLUNDER, BLUNDER_POINTS, DUBIOUS, DUBIOUS_POINTS, Decision, Objective

__all__ = [
    "fair_problems",
    "legacy_play_dict",
    "analysis_problem",
    "LEGACY_DUBIOUS",
    "LEGACY_BLUNDER",
]


#: Before 1.6: ``?`` at a chance lost of 5 % or a cost of 2 hand points; ``??`` at 20 %.
LEGACY_DUBIOUS = (0.05, 2.0)
LEGACY_BLUNDER = 0.20


def legacy_play_dict(d: Decision, move: Move) -> dict[str, Any]:
    """A play's fair object as a log before 1.6 states it: the values, the cost against the
    best mean, the chance lost against the best chance, and the mark by that rule (``??`` at
    20 % of the chance, ``?`` at 5 % or 2 hand points; a drawn loss only past twice its
    standard error) — what ``analyze --verify`` compares an older log's analysis with."""
    means = {m: v.mean for m, v in d.values.items()}
    best_mean = max(means.values()) if d.high else min(means.values())
    by_mean = next(m for m, v in means.items() if v == best_mean)
    by_share = max(d.values, key=lambda m: d.values[m].share)
    mine = d.values[move]
    cost = as_stated(best_mean - mine.mean if d.high else mine.mean - best_mean)
    lost = as_stated(d.values[by_share].share - mine.share)

    def real(best: Move, loss: float, share: bool) -> bool:
        return d.enumerated or move == best or loss > 2 * d.loss_se(move, best, share)

    mark = None
    if lost >= LEGACY_BLUNDER and real(by_share, lost, True):
        mark = "??"
    elif (lost >= LEGACY_DUBIOUS[0] and real(by_share, lost, True)) or (
        cost >= LEGACY_DUBIOUS[1] and real(by_mean, cost, False)
    ):
        mark = "?"
    out = {
        "worlds": d.worlds,
        "of": d.count,
        "enumerated": d.enumerated,
        "values": {move_key(m): v.as_dict() for m, v in d.values.items()},
        "cost": cost,
        "chance_lost": lost,
    }
    if mark is not None:
        out["mark"] = mark
    return out


def analysis_problem(pointer: str, message: str, hand: int) -> Diagnostic:
    """One problem of a stated analysis (rule id ``analysis``), placed in its hand."""
    return Diagnostic("analysis", message, pointer, context={"hand": hand + 1})


def fair_problems(
    fair: dict[str, Any],
    legal: list[str] | None,
    made: str,
    ptr: str,
    what: str,
    contract: Contract,
    seat: Seat,
    stated: dict[str, Any] | None,
    h: int,
    *,
    by_best: bool,
    objective: Objective,
) -> list[Diagnostic]:
    """What the replay can confirm of a play's fair analysis ``fair``. ``legal``: the legal
    plays of the moment (None where the deal is not fully known: then the values are
    checked to hold the play made); ``by_best``: the log's version is 1.6 or later."""
    settled = _shape_problems(fair, legal, made, ptr, what, stated, h, by_best=by_best)
    if settled is not None:
        return settled
    values: dict[str, dict[str, float]] = fair["values"]
    out: list[Diagnostic] = []
    if fair["worlds"] > fair["of"]:
        out.append(
            analysis_problem(
                f"{ptr}/worlds",
                f"the fair analysis of {what} is over {fair['worlds']} worlds of {fair['of']}",
                h,
            )
        )
    counted = bool(fair["enumerated"])
    if counted and (
        fair["worlds"] != fair["of"] or any(v["se"] or v["share_se"] for v in values.values())
    ):
        out.append(
            analysis_problem(
                ptr,
                f"the fair analysis of {what} counts every world, so it is over all "
                f"{fair['of']} with no standard error",
                h,
            )
        )
    high = maximiser(contract, seat)
    mine = values[made]
    if not by_best:
        return out + _legacy(fair, values, mine, high, ptr, what, h)
    best = fair["best"]
    if best not in values:
        return out + [
            analysis_problem(
                f"{ptr}/best",
                f"the fair analysis of {what} names {best} its best play, which it does not value",
                h,
            )
        ]
    if counted:
        right = _best_counted(values, high, objective)
        if values[best] != values[right]:
            out.append(
                analysis_problem(
                    f"{ptr}/best",
                    f"the fair analysis of {what} names {best} its best play, but over every "
                    f"world {right} is better ({_by(objective)})",
                    h,
                )
            )
    b = values[best]
    cost = as_stated(max(0.0, b["mean"] - mine["mean"] if high else mine["mean"] - b["mean"]))
    lost = as_stated(max(0.0, b["share"] - mine["share"]))
    out += _cost_lost(fair, cost, lost, ptr, what, h, f"against its best play {best}")
    out += _mark_problems(fair, made, best, (cost, lost), objective, counted, ptr, what, h)
    return out


def _shape_problems(
    fair: dict[str, Any],
    legal: list[str] | None,
    made: str,
    ptr: str,
    what: str,
    stated: dict[str, Any] | None,
    h: int,
    *,
    by_best: bool,
) -> list[Diagnostic] | None:
    """The verdict on a fair analysis that its shape settles (how its worlds were drawn
    unsaid, a forced play, a figure left out, the plays it values), or None: its figures
    are to be checked."""
    if stated is None or stated.get("fair") is None:
        return [
            analysis_problem(
                ptr,
                f"the fair analysis of {what} does not say how its worlds were drawn: the hand's "
                'analysis needs its "fair" (worlds and seed)',
                h,
            )
        ]
    if fair.get("forced"):
        if (legal is not None and len(legal) != 1) or len(fair) != 1:
            return [
                analysis_problem(
                    ptr,
                    f"the fair analysis of {what} calls it forced, but "
                    + (
                        f"{len(legal)} plays were legal then"
                        if legal is not None and len(legal) != 1
                        else "a forced play states nothing else"
                    ),
                    h,
                )
            ]
        return []
    needed = ("worlds", "of", "enumerated", "values", "cost", "chance_lost") + (
        ("best",) if by_best else ()
    )
    missing = [k for k in needed if fair.get(k) is None]
    if missing:
        return [
            analysis_problem(ptr, f"the fair analysis of {what} leaves out {', '.join(missing)}", h)
        ]
    values: dict[str, dict[str, float]] = fair["values"]
    if legal is not None and sorted(values) != legal:
        return [
            analysis_problem(
                f"{ptr}/values",
                f"the fair analysis of {what} must value exactly the legal plays of "
                f"that moment ({', '.join(legal)})",
                h,
            )
        ]
    if made not in values:
        return [
            analysis_problem(
                f"{ptr}/values",
                f"the fair analysis of {what} must value the play made, {made}",
                h,
            )
        ]
    if len(values) == 1:
        return [
            analysis_problem(
                ptr,
                f"the fair analysis of {what} draws worlds for the only legal play; it is forced",
                h,
            )
        ]
    return None


def _mark_problems(
    fair: dict[str, Any],
    made: str,
    best: str,
    cost_lost: tuple[float, float],
    objective: Objective,
    counted: bool,
    ptr: str,
    what: str,
    h: int,
) -> list[Diagnostic]:
    """The play's stated mark (?, ??) against what it gave up to its best play: the mean
    in a points game, the chance in a marks game."""
    cost, lost = cost_lost
    out: list[Diagnostic] = []
    mark = fair.get("mark")
    loss, least, unit = (
        (cost, (BLUNDER_POINTS, DUBIOUS_POINTS), "hand points")
        if objective == "points"
        else (lost, (BLUNDER, DUBIOUS), "of the chance")
    )
    shown = f"{loss:g} {unit}" if objective == "points" else f"{loss:.0%} {unit}"
    if mark is not None and made == best:
        out.append(
            analysis_problem(
                f"{ptr}/mark", f"the fair analysis of {what} marks its own best play {mark}", h
            )
        )
    elif mark is not None and loss < {"??": least[0], "?": least[1]}[mark]:
        out.append(
            analysis_problem(
                f"{ptr}/mark",
                f"the fair analysis of {what} marks it {mark}, but it gave up only {shown} "
                f"against its best play {best}",
                h,
            )
        )
    elif counted and made != best:
        due = "??" if loss >= least[0] else "?" if loss >= least[1] else None
        if due != mark:
            out.append(
                analysis_problem(
                    f"{ptr}/mark",
                    f"the fair analysis of {what} "
                    + (f"marks it {mark}" if mark else "leaves it unmarked")
                    + f", but over every world it gave up {shown}, which "
                    + (f"makes it {due}" if due else "is no mark"),
                    h,
                )
            )
    return out


def _by(objective: Objective) -> str:
    return (
        "the best mean, in a points game"
        if objective == "points"
        else "the best chance, ties broken by the mean"
    )


def _best_counted(values: dict[str, dict[str, float]], high: bool, objective: Objective) -> str:
    """The best play over every world: by chance then mean, or (a points game) by mean."""

    def mean(k: str) -> float:
        return values[k]["mean"] if high else -values[k]["mean"]

    if objective == "points":
        return max(values, key=lambda k: (mean(k), values[k]["share"]))
    return max(values, key=lambda k: (values[k]["share"], mean(k)))


def _cost_lost(
    fair: dict[str, Any], cost: float, lost: float, ptr: str, what: str, h: int, against: str
) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    if fair["cost"] != cost:
        out.append(
            analysis_problem(
                f"{ptr}/cost",
                f"the fair analysis of {what} gives a cost of {fair['cost']}, but "
                f"its values make it {cost} {against}",
                h,
            )
        )
    if fair["chance_lost"] != lost:
        out.append(
            analysis_problem(
                f"{ptr}/chance_lost",
                f"the fair analysis of {what} gives a chance lost of "
                f"{fair['chance_lost']}, but its values make it {lost} {against}",
                h,
            )
        )
    return out


def _legacy(
    fair: dict[str, Any],
    values: dict[str, dict[str, float]],
    mine: dict[str, float],
    high: bool,
    ptr: str,
    what: str,
    h: int,
) -> list[Diagnostic]:
    """Before 1.6: cost against the best mean, chance lost against the best chance."""
    means = [v["mean"] for v in values.values()]
    best = max(means) if high else min(means)
    cost = as_stated(best - mine["mean"] if high else mine["mean"] - best)
    lost = round(max(v["share"] for v in values.values()) - mine["share"], 4)
    out = _cost_lost(fair, cost, lost, ptr, what, h, "(a log before 1.6: the best mean and chance)")
    mark = fair.get("mark")
    least = {"??": (LEGACY_BLUNDER, 99.0), "?": LEGACY_DUBIOUS}.get(mark or "")
    if least is not None and lost < least[0] and cost < least[1]:
        out.append(
            analysis_problem(
                f"{ptr}/mark",
                f"the fair analysis of {what} marks it {mark}, but it gave up "
                f"only {lost:.0%} of the chance and {cost} hand points",
                h,
            )
        )
    return out
