"""The checks of the auction's fair verdicts a log states (format 1.8).

A stated verdict is checked against itself and the replay (``validate``): the version
holds it, the winning bid's ``chance`` and ``best`` are what its own table says, the
``declared`` trump is the one the log declares, ``supported`` is what the table
supports (:func:`texas42_log.analysis.bidding.corrected`), a declaration's ``best``,
``chance_lost`` and mark follow from its table. ``analyze --verify`` draws the worlds
again and compares every number (:func:`recomputed_auction`). Pure, no I/O.
"""

from __future__ import annotations

from typing import Any

from ..engine.errors import Diagnostic
from ..log.versions import AUCTION_SINCE, version_key
from . import as_stated
from .auction_fair import AuctionAnalysis
from .bidding import SUPPORT, Bid, corrected, parse_row
from .fair import BLUNDER, DUBIOUS
from .fair_checks import analysis_problem

__all__ = ["auction_problems", "recomputed_auction"]


def _problem(pointer: str, message: str, hand: int) -> Diagnostic:
    return analysis_problem(pointer, message, hand)


def _top(cells: dict[str, float]) -> str:
    """The first row with the highest chance, in the rows' order."""
    order = sorted(cells, key=lambda k: parse_row(k))
    return max(order, key=lambda k: cells[k])


def _declared_key(d: dict[str, Any]) -> str:
    if d.get("contract") == "nello":
        return "nello" if d.get("doubles") is None else f"nello {d['doubles']}"
    if d.get("contract") == "sevens":
        return "sevens"
    return str(d.get("trump"))


def auction_problems(doc: dict[str, Any]) -> list[Diagnostic]:
    """What is wrong with the auction verdicts ``doc`` (a valid replay's JSON) states."""
    out: list[Diagnostic] = []
    version = str(doc.get("version", "1.0"))
    old = version_key(version) < version_key(AUCTION_SINCE)
    for h, hand in enumerate(doc.get("hands", [])):
        d = hand.get("declaration")
        for k, c in enumerate(hand.get("auction", [])):
            fair = (c.get("analysis") or {}).get("fair")
            if "analysis" in c and old:
                out.append(
                    _problem(
                        f"/hands/{h}/auction/{k}/analysis",
                        f"a call's analysis came in format {AUCTION_SINCE}, but the log says "
                        f"version {version}: write version {AUCTION_SINCE}",
                        h,
                    )
                )
                return out
            if fair is not None:
                out += _call_problems(fair, d, f"/hands/{h}/auction/{k}/analysis/fair", h)
        fair = (d.get("analysis") or {}).get("fair") if isinstance(d, dict) else None
        if isinstance(d, dict) and "analysis" in d and old:
            out.append(
                _problem(
                    f"/hands/{h}/declaration/analysis",
                    f"a declaration's analysis came in format {AUCTION_SINCE}, but the log says "
                    f"version {version}: write version {AUCTION_SINCE}",
                    h,
                )
            )
            return out
        if fair is not None and isinstance(d, dict):
            out += _declaration_problems(fair, d, f"/hands/{h}/declaration/analysis/fair", h)
    return out


def _call_problems(
    fair: dict[str, Any], d: dict[str, Any] | None, where: str, h: int
) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    table: dict[str, dict[str, float]] = fair["table"]
    try:
        bids = sorted(table, key=lambda k: Bid.parse(k).size)
        for cells in table.values():
            for key in cells:
                parse_row(key)
    except ValueError as e:
        return [_problem(f"{where}/table", f"the call's table {e}", h)]
    supported = None
    for b in bids:
        if table[b] and corrected(table[b][_top(table[b])]) >= SUPPORT:
            supported = b
    if fair.get("supported") != supported:
        out.append(
            _problem(
                f"{where}/supported",
                f"the call's table supports {supported or 'no bid'} (the highest bid whose best "
                f"corrected chance is at least {SUPPORT:.0%}), not {fair.get('supported')}",
                h,
            )
        )
    elif supported is not None and fair.get("supported_trump") != _top(table[supported]):
        out.append(
            _problem(
                f"{where}/supported_trump",
                f"the best trump of {supported} in the call's table is "
                f"{_top(table[supported])}, not {fair.get('supported_trump')}",
                h,
            )
        )
    declared = fair.get("declared")
    if declared is not None and d is not None and declared != _declared_key(d):
        out.append(
            _problem(
                f"{where}/declared",
                f"the call's analysis says {declared} was declared; the log declares "
                f"{_declared_key(d)}",
                h,
            )
        )
    return out


def _declaration_problems(
    fair: dict[str, Any], d: dict[str, Any], where: str, h: int
) -> list[Diagnostic]:
    table: dict[str, float] = fair["table"]
    try:
        for key in table:
            parse_row(key)
    except ValueError as e:
        return [_problem(f"{where}/table", f"the declaration's table {e}", h)]
    mine = _declared_key(d)
    if mine not in table:
        return [_problem(f"{where}/table", f"the declaration's table has no row {mine}", h)]
    best = _top(table)
    out: list[Diagnostic] = []
    if fair["best"] != best:
        out.append(_problem(f"{where}/best", f"the table's best is {best}, not {fair['best']}", h))
        return out
    lost = as_stated(max(0.0, table[best] - table[mine]))
    if fair["chance_lost"] != lost:
        out.append(
            _problem(
                f"{where}/chance_lost",
                f"the declaration gave up {lost} of the chance by its table, not "
                f"{fair['chance_lost']}",
                h,
            )
        )
    mark = fair.get("mark")
    least = BLUNDER if mark == "??" else DUBIOUS
    if mark is not None and (mine == best or lost < least):
        out.append(
            _problem(
                f"{where}/mark",
                f"the declaration is marked {mark}, but it gave up {lost:.0%} of the chance "
                f"({mark} needs at least {least:.0%})",
                h,
            )
        )
    return out


def recomputed_auction(doc: dict[str, Any], h: int, mine: AuctionAnalysis) -> list[Diagnostic]:
    """Where hand ``h``'s stated auction verdicts differ from ``mine`` (drawn again)."""
    out: list[Diagnostic] = []
    hand = doc["hands"][h]
    run = f"drawn again with seed {mine.seed} and {mine.worlds} worlds"
    pairs: list[tuple[str, dict[str, Any] | None, dict[str, Any]]] = []
    for n in mine.calls:
        stated = (hand["auction"][n.index].get("analysis") or {}).get("fair")
        pairs.append((f"/hands/{h}/auction/{n.index}/analysis/fair", stated, n.as_dict()))
    if mine.declaration is not None and isinstance(hand.get("declaration"), dict):
        stated = (hand["declaration"].get("analysis") or {}).get("fair")
        pairs.append((f"/hands/{h}/declaration/analysis/fair", stated, mine.declaration.as_dict()))
    for where, stated, now in pairs:
        if stated is None:
            continue
        for key in sorted(set(stated) | set(now)):
            if stated.get(key) != now.get(key):
                what = "table" if key == "table" else key
                out.append(
                    _problem(
                        f"{where}/{key}",
                        f"the stated {what} differs from the one {run}"
                        + (
                            "" if key == "table" else f": {stated.get(key)!r}, now {now.get(key)!r}"
                        ),
                        h,
                    )
                )
    return out
