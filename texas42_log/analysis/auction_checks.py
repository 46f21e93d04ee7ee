"""The checks of the auction's fair verdicts a log states (format 1.8).

A stated verdict is checked against itself and the replay (``validate``): the version
holds it, the winning bid's ``chance`` and ``best`` are what its own table says, the
``declared`` trump is the one the log declares, ``supported`` is what the table
supports (:mod:`texas42_log.analysis.calibration`), a declaration's ``best``,
``chance_lost`` and mark follow from its table. ``analyze --verify`` draws the worlds
again and compares every number (:func:`recomputed_auction`). Pure, no I/O.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..engine.errors import Diagnostic
from ..log.versions import (
    AUCTION_SINCE,
    CALL_VERDICT_FIELDS,
    CALL_VERDICTS_SINCE,
    CHANCES_SINCE,
    CONTRACT_VERDICTS_SINCE,
    version_key,
)
from . import as_stated
from .auction_fair import AuctionAnalysis
from .bidding import SUPPORT, Bid, parse_row
from .calibration import Correction, correction_of, kind_of
from .call_verdicts import CALL_BLUNDER, CALL_DUBIOUS, call_mark, stake
from .contract_checks import contract_problems
from .contract_checks import top_row as _top
from .fair import BLUNDER, DUBIOUS
from .fair_checks import analysis_problem

__all__ = ["auction_problems", "recomputed_auction"]


def _problem(pointer: str, message: str, hand: int) -> Diagnostic:
    return analysis_problem(pointer, message, hand)


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
    corr = correction_of(version)
    for h, hand in enumerate(doc.get("hands", [])):
        newer = _played_fields(hand, (hand.get("analysis") or {}).get("fair") or {}, version, h)
        if newer:  # its chances are as played: no older rule can check them
            out += newer
            continue
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
                where = f"/hands/{h}/auction/{k}/analysis/fair"
                out += _call_problems(fair, d, where, h, corr)
                stated = [key for key in CALL_VERDICT_FIELDS if key in fair]
                if stated and version_key(version) < version_key(CALL_VERDICTS_SINCE):
                    out.append(
                        _problem(
                            f"{where}/{stated[0]}",
                            f"a call's verdict as players bid came in format "
                            f"{CALL_VERDICTS_SINCE}, but the log says version {version}: write "
                            f"version {CALL_VERDICTS_SINCE}",
                            h,
                        )
                    )
                elif stated:
                    out += _verdict_problems(fair, c, where, h, corr)
                if "contract" in fair:
                    out += _contract_stated(fair, c, version, where, h)
        run = (hand.get("analysis") or {}).get("fair") or {}
        if "calls" in run and version_key(version) < version_key(CONTRACT_VERDICTS_SINCE):
            pointer = f"/hands/{h}/analysis/fair/calls"
            out.append(_newer(pointer, "a hand's calls header", version, h))
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


def _played_fields(
    hand: dict[str, Any], run: dict[str, Any], version: str, h: int
) -> list[Diagnostic]:
    """Chances as played (1.12: the hand's ``chances``, a table's ``open_table``, an end's
    ``made_open``) in a log that says an older version: the first one found."""
    if version_key(version) >= version_key(CHANCES_SINCE):
        return []
    found: list[str] = []
    if "chances" in run:
        found.append(f"/hands/{h}/analysis/fair/chances")
    for k, c in enumerate(hand.get("auction", [])):
        fair = (c.get("analysis") or {}).get("fair") or {}
        if "open_table" in fair:
            found.append(f"/hands/{h}/auction/{k}/analysis/fair/open_table")
        for e, end in enumerate((fair.get("contract") or {}).get("ends", [])):
            if "made_open" in end:
                found.append(f"/hands/{h}/auction/{k}/analysis/fair/contract/ends/{e}/made_open")
    d = hand.get("declaration")
    if isinstance(d, dict) and "open_table" in ((d.get("analysis") or {}).get("fair") or {}):
        found.append(f"/hands/{h}/declaration/analysis/fair/open_table")
    if not found:
        return []
    return [
        _problem(
            found[0],
            f"chances as played came in format {CHANCES_SINCE}, but the log says version "
            f"{version}: write version {CHANCES_SINCE}",
            h,
        )
    ]


def _newer(pointer: str, what: str, version: str, h: int) -> Diagnostic:
    since = CONTRACT_VERDICTS_SINCE
    return _problem(
        pointer,
        f"{what} came in format {since}, but the log says version {version}: write version {since}",
        h,
    )


def _contract_stated(
    fair: dict[str, Any], call: dict[str, Any], version: str, where: str, h: int
) -> list[Diagnostic]:
    """A call's worth by the contract its auction ends in (1.11), in a log that may hold it."""
    if version_key(version) < version_key(CONTRACT_VERDICTS_SINCE):
        return [_newer(f"{where}/contract", "a call's worth by its contract", version, h)]
    table: dict[str, dict[str, float]] = fair["table"]
    return contract_problems(fair, call, _made_key(call, table), where, h, correction_of(version))


def _call_problems(
    fair: dict[str, Any], d: dict[str, Any] | None, where: str, h: int, corr: Correction
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
        if table[b] and _judged(table, b, corr) >= SUPPORT:
            supported = b
    if fair.get("supported") != supported:
        out.append(
            _problem(
                f"{where}/supported",
                f"the call's table supports {supported or 'no bid'} (the highest bid whose best "
                f"chance as played is at least {SUPPORT:.0%}), not {fair.get('supported')}",
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


def _judged(table: dict[str, dict[str, float]], key: str, corr: Correction) -> float:
    """The chance bid ``key`` is judged by, from its best stated cell (``corr``: the log's)."""
    cells = table[key]
    top = _top(cells)
    return corr.of_stated(cells[top], kind_of(Bid.parse(key), parse_row(top)))


def _worth(table: dict[str, dict[str, float]], key: str, corr: Correction) -> float:
    """A call's expected marks by its stated table (:func:`.call_verdicts.worth`)."""
    if key == "pass" or not table[key]:
        return 0.0
    return as_stated(stake(Bid.parse(key), "A") * (2 * _judged(table, key, corr) - 1))


def _made_key(call: dict[str, Any], table: dict[str, dict[str, float]]) -> str | None:
    """The call made as its table columns it (a mark bid in marks or, under mark_bid_units
    points, in multiples of 42: whichever the table holds)."""
    kind, bid, special = call.get("call"), call.get("bid"), call.get("special")
    if kind == "pass":
        return "pass"
    if kind == "points":
        return str(bid)
    if not isinstance(bid, int):
        return None
    prefix = f"{special} " if special else ""
    counts = [bid] + ([bid // 42] if bid % 42 == 0 and bid >= 42 else [])
    for n in counts:
        key = prefix + ("1 mark" if n == 1 else f"{n} marks")
        if key in table:
            return key
    return None


def _pays_best_problems(
    fair: dict[str, Any], table: dict[str, dict[str, float]], where: str, h: int, corr: Correction
) -> list[Diagnostic]:
    """The verdict's call that pays best, against its table: a bid of the table, worth
    what it says, the highest of the best (ties to the lowest), with its best trump."""
    best = fair["pays_best"]
    if best != "pass" and best not in table:
        return [_problem(f"{where}/pays_best", f"the call's table has no bid {best}", h)]
    top = _worth(table, best, corr)
    if fair["pays_best_expected"] != top:
        return [
            _problem(
                f"{where}/pays_best_expected",
                f"{best} is worth {top:g} expected marks by the call's table, not "
                f"{fair['pays_best_expected']:g}",
                h,
            )
        ]
    bids = sorted(table, key=lambda k: Bid.parse(k).size)
    for key in bids:
        mine = _worth(table, key, corr)
        if mine > top or (
            mine == top and best != "pass" and Bid.parse(key).size < Bid.parse(best).size
        ):
            return [
                _problem(
                    f"{where}/pays_best",
                    f"{key} pays at least as well as {best} by the call's table "
                    f"({mine:g} expected marks against {top:g}), and the call that "
                    "pays best is the highest, ties to the lowest",
                    h,
                )
            ]
    if best != "pass" and fair.get("pays_best_trump") != _top(table[best]):
        return [
            _problem(
                f"{where}/pays_best_trump",
                f"the best trump of {best} in the call's table is {_top(table[best])}, not "
                f"{fair.get('pays_best_trump')}",
                h,
            )
        ]
    return []


def _verdict_problems(
    fair: dict[str, Any], call: dict[str, Any], where: str, h: int, corr: Correction
) -> list[Diagnostic]:
    """A call's verdict as players bid (1.10) against its own table: the call that pays
    best, the expected marks, the marks given up and the mark."""
    table: dict[str, dict[str, float]] = fair["table"]
    missing = [
        k for k in ("expected", "pays_best", "pays_best_expected", "marks_lost") if k not in fair
    ]
    if missing:
        return [_problem(f"{where}", f"the call's verdict lacks {', '.join(missing)}", h)]
    settled = _pays_best_problems(fair, table, where, h, corr)
    if settled:
        return settled
    top = _worth(table, fair["pays_best"], corr)
    made = _made_key(call, table)
    expected = None if made is None else _worth(table, made, corr)
    if expected is not None and fair["expected"] != expected:
        return [
            _problem(
                f"{where}/expected",
                f"the call {made} is worth {expected:g} expected marks by its table, "
                f"not {fair['expected']:g}",
                h,
            )
        ]
    lost = as_stated(max(0.0, top - fair["expected"]))
    if fair["marks_lost"] != lost:
        return [
            _problem(
                f"{where}/marks_lost",
                f"the call gave up {lost:g} expected marks by its table, not "
                f"{fair['marks_lost']:g}",
                h,
            )
        ]
    mark = fair.get("mark")
    se = float(fair.get("marks_lost_se", 0.0))
    due = call_mark(lost, se)
    if mark != due:
        said = f"marked {mark}" if mark is not None else "not marked"
        return [
            _problem(
                f"{where}/mark",
                f"the call is {said}, but it gave up {lost:g} expected marks (± {se:g}), so "
                + (
                    f"its mark is {due} (? from {CALL_DUBIOUS:g}, ?? from {CALL_BLUNDER:g}, and "
                    "more than twice the error)"
                    if due is not None
                    else f"it has none (? from {CALL_DUBIOUS:g}, ?? from {CALL_BLUNDER:g}, and "
                    "more than twice the error)"
                ),
                h,
            )
        ]
    return []


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
    version = str(doc.get("version", "1.0"))
    # a log before 1.12 states its chances by the single curve: checked by the verdicts
    # drawn again by it (on the same worlds)
    if correction_of(version) != mine.correction and mine.older is not None:
        mine = mine.older
    for n in mine.calls:
        stated = (hand["auction"][n.index].get("analysis") or {}).get("fair")
        if stated is not None and "contract" not in stated:
            n = replace(n, contract=None)  # stated by 1.10's rule: checked by it
        pairs.append((f"/hands/{h}/auction/{n.index}/analysis/fair", stated, n.as_dict()))
    if mine.declaration is not None and isinstance(hand.get("declaration"), dict):
        stated = (hand["declaration"].get("analysis") or {}).get("fair")
        pairs.append((f"/hands/{h}/declaration/analysis/fair", stated, mine.declaration.as_dict()))
    older = version_key(version) < version_key(CALL_VERDICTS_SINCE)
    for where, stated, now in pairs:
        if stated is None:
            continue
        if older and "/auction/" in where:  # what its version could not hold is not asked
            now = {k: v for k, v in now.items() if k not in CALL_VERDICT_FIELDS}
        for key in sorted(set(stated) | set(now)):
            if stated.get(key) == now.get(key):
                continue
            if key == "table" and isinstance(stated.get(key), dict):
                parts, was, is_now = _first_cell(stated[key], now.get(key) or {})
                # each key of the cell is a token of its own: table/41/6, not table/41~16
                tokens = "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)
                out.append(
                    _problem(
                        f"{where}/table/{tokens}",
                        f"the stated table's cell {'/'.join(parts)} is {was}, and {is_now} {run}",
                        h,
                    )
                )
                continue
            out.append(
                _problem(
                    f"{where}/{key}",
                    f"the stated {key} differs from the one {run}: {stated.get(key)!r}, now "
                    f"{now.get(key)!r}",
                    h,
                )
            )
    return out


def _first_cell(stated: dict[str, Any], now: dict[str, Any]) -> tuple[tuple[str, ...], str, str]:
    """The first cell in which two tables differ, as its keys (``("30", "6")``, or ``("6",)``
    of a declaration's table), its stated value and the one drawn again (``absent`` where
    one has none)."""
    for key in sorted(set(stated) | set(now)):
        a, b = stated.get(key), now.get(key)
        if a == b:
            continue
        if isinstance(a, dict) and isinstance(b, dict):
            for row in sorted(set(a) | set(b)):
                if a.get(row) != b.get(row):
                    return (key, row), _said(a.get(row)), _said(b.get(row))
        return (key,), _said(a), _said(b)
    return (), "", ""  # pragma: no cover - called only where the tables differ


def _said(x: Any) -> str:
    if x is None:
        return "absent"
    if isinstance(x, float):
        return f"{x:.2%}"
    return "a row of its own" if isinstance(x, dict) else repr(x)
