"""The checks of a log's stated open-hand analysis (format 1.3's ``analysis`` fields).

As with every fact a log states, the analysis is checked, never trusted: what
the replay can confirm cheaply is confirmed here for ``texas42 validate`` — the
alternatives are exactly the legal plays of the moment, the play made is among
them, the cost and the fate mark follow from the values, the hand's value and
``makeable`` agree with each other and with its first play, the table names only
trump choices the rules allow. That the values are the true open-hand values
takes the solver: ``texas42 analyze --verify`` recomputes them.

Rule id ``analysis``. Pure: no I/O.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..engine.errors import Diagnostic
from ..engine.hand import PlayState
from ..engine.rules import Rules
from ..engine.tiles import TILE_BY_NAME
from ..engine.values import makeable, maximiser, move_of
from ..log.versions import CALL_VERDICTS_SINCE, states_best_play, version_key
from .fair import Objective, objective_of
from .fair_checks import analysis_problem, fair_problems, legacy_play_dict
from .open_hand import HandAnalysis, Skipped, allowed_trumps, before_the_play, fate_of, move_key

if TYPE_CHECKING:
    from ..engine.auction import Contract
    from .fair_hands import FairHand

from .auction_checks import auction_problems, recomputed_auction

__all__ = ["analysis_problems", "recomputed_problems", "stated_runs"]


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "…"


def analysis_problems(rules: Rules, doc: dict[str, Any]) -> list[Diagnostic]:
    """What is wrong with the analysis a valid replay's log states (its JSON form), by the
    rule of the log's own format version (:mod:`texas42_log.analysis.fair_checks`)."""
    out: list[Diagnostic] = auction_problems(doc)
    version = str(doc.get("version", "1.0"))
    by_best = states_best_play(version)
    objective = objective_of(rules)
    for h, hand in enumerate(doc.get("hands", [])):
        plays = hand.get("plays", [])
        stated = [k for k, p in enumerate(plays) if "analysis" in p]
        if "analysis" not in hand and not stated:
            continue
        first = (
            f"/hands/{h}/analysis"
            if "analysis" in hand
            else f"/hands/{h}/plays/{stated[0]}/analysis"
        )
        deal = hand.get("deal")
        if hand.get("declaration") is None:
            if (
                set(hand.get("analysis") or {}) == {"fair"}
                and not stated
                and _judged_passes(hand, version)
            ):
                continue  # all four passed: how its passes were judged (1.10)
            out.append(
                analysis_problem(
                    first, f"hand {h + 1} has an open-hand analysis but no contract to analyse", h
                )
            )
            continue
        if deal is None or any(
            t is None for row in deal.values() if isinstance(row, list) for t in row
        ):
            if not by_best:
                out.append(
                    analysis_problem(
                        first,
                        f"hand {h + 1} has an analysis, but its deal is not fully known: the "
                        f"open-hand analysis needs every tile, and a log of version {version} "
                        "cannot hold a fair analysis alone (1.6 can)",
                        h,
                    )
                )
                continue
            out += _partial_problems(rules, hand, h, objective)
            continue
        missing = _open_missing(hand, h)
        if missing:
            out += missing
            continue
        out += _hand_problems(rules, hand, h, by_best, objective)
    return out


def _judged_passes(hand: dict[str, Any], version: str) -> bool:
    """Whether a hand without a declaration states its passes' verdicts, as a log of
    :data:`~texas42_log.log.versions.CALL_VERDICTS_SINCE` may (all four passed)."""
    return version_key(version) >= version_key(CALL_VERDICTS_SINCE) and any(
        "fair" in (c.get("analysis") or {}) for c in hand.get("auction", [])
    )


def _open_missing(hand: dict[str, Any], h: int) -> list[Diagnostic]:
    """A fully known deal's analysis states its open-hand facts: the hand's value and
    makeable, each play's values and cost."""
    out: list[Diagnostic] = []
    a = hand.get("analysis")
    if a is not None and (a.get("value") is None or a.get("makeable") is None):
        out.append(
            analysis_problem(
                f"/hands/{h}/analysis",
                f"hand {h + 1}'s deal is fully known, so its analysis states the open-hand "
                "value and makeable",
                h,
            )
        )
    for k, p in enumerate(hand.get("plays", [])):
        pa = p.get("analysis")
        if (
            pa is not None
            and not p.get("rejected")
            and (pa.get("values") is None or pa.get("cost") is None)
        ):
            out.append(
                analysis_problem(
                    f"/hands/{h}/plays/{k}/analysis",
                    f"hand {h + 1}'s deal is fully known, so the analysis of {p['seat']}'s "
                    f"{p['tile']} states the open-hand values and cost",
                    h,
                )
            )
    return out


def _partial_problems(
    rules: Rules, hand: dict[str, Any], h: int, objective: Objective
) -> list[Diagnostic]:
    """A hand whose deal is not fully known (1.6): a fair analysis alone, of plays whose
    player's own tiles were known; no open-hand value, table or values."""
    out: list[Diagnostic] = []
    stated = hand.get("analysis")
    for key in ("value", "makeable", "table"):
        if stated is not None and stated.get(key) is not None:
            out.append(
                analysis_problem(
                    f"/hands/{h}/analysis/{key}",
                    f"hand {h + 1}'s deal is not fully known, so its analysis cannot state the "
                    f"open-hand {key} (it needs every tile)",
                    h,
                )
            )
    contract = before_the_play(rules, hand).contract
    assert contract is not None  # a valid replay declared a contract
    for k, p in enumerate(hand.get("plays", [])):
        a = p.get("analysis")
        ptr = f"/hands/{h}/plays/{k}/analysis"
        if a is None:
            continue
        if p.get("rejected"):
            out.append(
                analysis_problem(
                    ptr, "a rejected attempt (R30) has no analysis: it changed nothing", h
                )
            )
            continue
        for key in ("values", "cost", "fate"):
            if a.get(key) is not None:
                out.append(
                    analysis_problem(
                        f"{ptr}/{key}",
                        f"hand {h + 1}'s deal is not fully known, so the analysis of "
                        f"{p['seat']}'s {p['tile']} cannot state the open-hand {key}",
                        h,
                    )
                )
        if a.get("fair") is not None:
            made = move_key(move_of(TILE_BY_NAME[p["tile"]], p.get("led")))
            out += fair_problems(
                a["fair"],
                None,
                made,
                f"{ptr}/fair",
                f"{p['seat']}'s {p['tile']}",
                contract,
                p["seat"],
                stated,
                h,
                by_best=True,
                objective=objective,
            )
    return out


def _stated_hand_problems(
    rules: Rules, stated: dict[str, Any], contract: Contract, h: int
) -> list[Diagnostic]:
    """The hand's stated open analysis: its values within the hand's points (R6), its value
    against makeable, and its table's trumps against the rules (R12)."""
    out: list[Diagnostic] = []
    where = f"/hands/{h}/analysis"
    total = rules.count.total
    figures = [("value", stated["value"])]
    figures += [(f"table/{k}", v) for k, v in (stated.get("table") or {}).items()]
    for at, v in figures:
        if v is not None and v > total:
            out.append(
                analysis_problem(
                    f"{where}/{at}",
                    f"hand {h + 1}'s analysis gives {v} hand points, but a hand holds "
                    f"{total} under these rules (R6)",
                    h,
                )
            )
    if out:
        return out
    if stated["makeable"] != makeable(contract, stated["value"], total=total):
        out.append(
            analysis_problem(
                f"{where}/makeable",
                f"hand {h + 1}'s analysis says the contract is "
                f"{'' if stated['makeable'] else 'not '}makeable, but its value "
                f"{stated['value']} "
                f"says the opposite for {contract.describe()}",
                h,
            )
        )
    allowed = {t.value for t in allowed_trumps(rules)}
    for name in stated.get("table") or {}:
        if name not in allowed:
            out.append(
                analysis_problem(
                    f"{where}/table/{name}",
                    f"hand {h + 1}'s makeable table names trump "
                    f"{name}, which these rules do not allow (R12)",
                    h,
                )
            )
    return out


def _open_value_problems(
    a: dict[str, Any],
    legal: list[str],
    made: str,
    what: str,
    high: bool,
    state: PlayState,
    first: dict[str, Any] | None,
    ptr: str,
    h: int,
) -> list[Diagnostic]:
    """A play's open-hand values (``a``): they value exactly the legal plays, and the
    stated cost and fate follow from them; ``first``, the hand's stated analysis at its
    first play, whose best value is the hand's."""
    out: list[Diagnostic] = []
    values: dict[str, int] = a["values"]
    total = state.count.total
    over = [f"{m} {v}" for m, v in values.items() if v > total]
    if over:
        return [
            analysis_problem(
                f"{ptr}/values",
                f"the analysis of {what} values {', '.join(over)} hand points, but a hand "
                f"holds {total} under these rules (R6)",
                h,
            )
        ]
    if sorted(values) != legal:
        missing = [m for m in legal if m not in values]
        extra = [m for m in values if m not in legal]
        said = "; ".join(
            part
            for part in (
                f"it leaves out {', '.join(missing)}" if missing else "",
                f"{', '.join(extra)} {'is' if len(extra) == 1 else 'are'} not legal then"
                if extra
                else "",
            )
            if part
        )
        out.append(
            analysis_problem(
                f"{ptr}/values",
                f"the analysis of {what} must value exactly the legal plays of that moment: {said}",
                h,
            )
        )
    elif made in values:
        best = max(values.values()) if high else min(values.values())
        cost = best - values[made] if high else values[made] - best
        if a["cost"] != cost:
            out.append(
                analysis_problem(
                    f"{ptr}/cost",
                    f"the analysis of {what} gives a cost of "
                    f"{a['cost']}, but its values make it {cost} (best {best}, played "
                    f"{values[made]})",
                    h,
                )
            )
        fate = fate_of(state.contract, high, best, values[made], state.count.total)
        if a.get("fate") != fate:
            out.append(
                analysis_problem(
                    f"{ptr}/fate",
                    f"the analysis of {what} marks its fate "
                    f"{a.get('fate') or 'none'}, but its values say {fate or 'none'}",
                    h,
                )
            )
        if first is not None and best != first["value"]:
            out.append(
                analysis_problem(
                    f"{ptr}/values",
                    f"the first play's best value {best} is not the hand's value {first['value']}",
                    h,
                )
            )
    return out


def _hand_problems(
    rules: Rules, hand: dict[str, Any], h: int, by_best: bool, objective: Objective
) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    live = before_the_play(rules, hand)
    state, contract = live.state, live.contract
    assert state is not None and contract is not None  # a valid replay declared a contract
    stated = hand.get("analysis")
    if stated is not None:
        out += _stated_hand_problems(rules, stated, contract, h)
    first = True
    for k, p in enumerate(hand.get("plays", [])):
        ptr = f"/hands/{h}/plays/{k}/analysis"
        if p.get("rejected"):
            if "analysis" in p:
                out.append(
                    analysis_problem(
                        ptr, "a rejected attempt (R30) has no analysis: it changed nothing", h
                    )
                )
            continue
        seat = p["seat"]
        tile = TILE_BY_NAME[p["tile"]]
        led = p.get("led")
        made = move_key(move_of(tile, led))
        a = p.get("analysis")
        if a is not None:
            legal = sorted({move_key(move_of(x.tile, x.led)) for x in live.legal_plays(seat)})
            out += _open_value_problems(
                a,
                legal,
                made,
                f"{seat}'s {tile}",
                maximiser(contract, seat),
                state,
                stated if first else None,
                ptr,
                h,
            )
            if a.get("fair") is not None:
                out += fair_problems(
                    a["fair"],
                    legal,
                    made,
                    f"{ptr}/fair",
                    f"{seat}'s {tile}",
                    contract,
                    seat,
                    stated,
                    h,
                    by_best=by_best,
                    objective=objective,
                )
        first = False
        state.apply(seat, tile, led)
    return out


def stated_runs(doc: dict[str, Any]) -> dict[int, tuple[int, int]]:
    """Hand (from 0) → (worlds, seed) of each fair analysis a log states (format 1.4)."""
    out: dict[int, tuple[int, int]] = {}
    for h, hand in enumerate(doc.get("hands", [])):
        run = (hand.get("analysis") or {}).get("fair")
        if run is not None:
            out[h] = (run["worlds"], run["seed"])
    return out


def _fair_differences(stated: dict[str, Any], mine: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    """Where a stated fair object differs from the one drawn again: (the field's path, the
    stated value, the new one), a value of each play by its own field (``values/[2|6]/mean``)."""
    out: list[tuple[str, Any, Any]] = []
    for key in sorted(set(stated) | set(mine)):
        was, now = stated.get(key), mine.get(key)
        if key == "values" and isinstance(was, dict) and isinstance(now, dict):
            for move in sorted(set(was) | set(now)):
                a, b = was.get(move), now.get(move)
                if isinstance(a, dict) and isinstance(b, dict):
                    out += [
                        (f"values/{move}/{k}", a.get(k), b.get(k))
                        for k in sorted(set(a) | set(b))
                        if a.get(k) != b.get(k)
                    ]
                elif a != b:
                    out.append((f"values/{move}", a, b))
        elif was != now:
            out.append((key, was, now))
    return out


def recomputed_problems(
    doc: dict[str, Any],
    analyses: list[HandAnalysis | Skipped],
    fair: dict[int, FairHand] | None = None,
) -> list[Diagnostic]:
    """Where the analysis a log states differs from the solver's (``analyze --verify``);
    a hand or play that states none is not compared. ``fair``: each hand's fair analysis
    recomputed with the worlds and seed the log states (:func:`stated_runs`)."""
    out: list[Diagnostic] = []
    hands_ = doc.get("hands", [])
    # a log before 1.6 states cost and marks by its own version's rule
    by_best = states_best_play(doc.get("version"))
    for h, f in (fair or {}).items():
        if f.auction is not None:
            out += recomputed_auction(doc, h, f.auction)
        for fn in f.plays:
            stated = (hands_[h]["plays"][fn.index].get("analysis") or {}).get("fair")
            if stated is None:
                continue
            mine = (
                fn.as_dict()
                if by_best or fn.decision is None
                else legacy_play_dict(fn.decision, fn.move)
            )
            where = f"/hands/{h}/plays/{fn.index}/analysis/fair"
            what = f"{fn.seat} {move_key(fn.move)}"
            run = f"drawn again with seed {f.seed} and {f.worlds} worlds"
            for path, was, now in _fair_differences(stated, mine):
                out.append(
                    analysis_problem(
                        f"{where}/{path}",
                        f"the stated fair {path.replace('/', ' ')} of {what} is {_short(was)}; "
                        f"{run} it is {_short(now)}",
                        h,
                    )
                )
    hands = doc.get("hands", [])
    for a in analyses:
        if isinstance(a, Skipped):
            continue
        h = a.hand
        hand = hands[h]
        stated = hand.get("analysis")
        if stated is not None:
            mine = a.as_dict()
            if stated["value"] != mine["value"]:
                out.append(
                    analysis_problem(
                        f"/hands/{h}/analysis/value",
                        f"hand {h + 1}'s stated value is "
                        f"{stated['value']}; with every hand open it is {mine['value']}",
                        h,
                    )
                )
            for name, v in (stated.get("table") or {}).items():
                if name in mine.get("table", {}) and mine["table"][name] != v:
                    out.append(
                        analysis_problem(
                            f"/hands/{h}/analysis/table/{name}",
                            f"hand {h + 1}'s makeable table "
                            f"gives {v} for trump {name}; with best play it is "
                            f"{mine['table'][name]}",
                            h,
                        )
                    )
        for note in a.plays:
            p = hand["plays"][note.index]
            if "analysis" not in p:
                continue
            values = p["analysis"]["values"]
            for move, v in note.values.items():
                key = move_key(move)
                if key in values and values[key] != v:
                    out.append(
                        analysis_problem(
                            f"/hands/{h}/plays/{note.index}/analysis/values/{key}",
                            f"the stated value of {note.seat} {key} is {values[key]}; with every "
                            "hand "
                            f"open it is {v}",
                            h,
                        )
                    )
    return out
