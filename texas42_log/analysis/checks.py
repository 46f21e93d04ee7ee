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

from ..engine.auction import Contract
from ..engine.errors import Diagnostic
from ..engine.rules import Rules
from ..engine.seats import Seat
from ..engine.solver import makeable, maximiser, move_of
from ..engine.tiles import TILE_BY_NAME
from .fair import BLUNDER, DUBIOUS
from .open_hand import HandAnalysis, Skipped, allowed_trumps, before_the_play, fate_of, move_key

if TYPE_CHECKING:
    from .fair_hands import FairHand

__all__ = ["analysis_problems", "recomputed_problems", "stated_runs"]


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "…"


def _problem(pointer: str, message: str, hand: int) -> Diagnostic:
    return Diagnostic("analysis", message, pointer, context={"hand": hand + 1})


def analysis_problems(rules: Rules, doc: dict[str, Any]) -> list[Diagnostic]:
    """What is wrong with the analysis a valid replay's log states (its JSON form)."""
    out: list[Diagnostic] = []
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
            out.append(
                _problem(
                    first, f"hand {h + 1} has an open-hand analysis but no contract to analyse", h
                )
            )
            continue
        if deal is None or any(
            t is None for row in deal.values() if isinstance(row, list) for t in row
        ):
            out.append(
                _problem(
                    first,
                    f"hand {h + 1} has an open-hand analysis, but its deal is not fully "
                    "known, and the analysis needs every tile",
                    h,
                )
            )
            continue
        out += _hand_problems(rules, hand, h)
    return out


def _hand_problems(rules: Rules, hand: dict[str, Any], h: int) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    live = before_the_play(rules, hand)
    state, contract = live.state, live.contract
    assert state is not None and contract is not None  # a valid replay declared a contract
    stated = hand.get("analysis")
    where = f"/hands/{h}/analysis"
    if stated is not None:
        if stated["makeable"] != makeable(contract, stated["value"]):
            out.append(
                _problem(
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
                    _problem(
                        f"{where}/table/{name}",
                        f"hand {h + 1}'s makeable table names trump "
                        f"{name}, which these rules do not allow (R12)",
                        h,
                    )
                )
    first = True
    for k, p in enumerate(hand.get("plays", [])):
        ptr = f"/hands/{h}/plays/{k}/analysis"
        if p.get("rejected"):
            if "analysis" in p:
                out.append(
                    _problem(ptr, "a rejected attempt (R30) has no analysis: it changed nothing", h)
                )
            continue
        seat = p["seat"]
        tile = TILE_BY_NAME[p["tile"]]
        led = p.get("led")
        made = move_key(move_of(tile, led))
        a = p.get("analysis")
        if a is not None:
            legal = sorted({move_key(move_of(x.tile, x.led)) for x in live.legal_plays(seat)})
            values: dict[str, int] = a["values"]
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
                    _problem(
                        f"{ptr}/values",
                        f"the analysis of {seat}'s {tile} must value exactly the "
                        f"legal plays of that moment: {said}",
                        h,
                    )
                )
            elif made in values:
                high = maximiser(contract, seat)
                best = max(values.values()) if high else min(values.values())
                cost = best - values[made] if high else values[made] - best
                if a["cost"] != cost:
                    out.append(
                        _problem(
                            f"{ptr}/cost",
                            f"the analysis of {seat}'s {tile} gives a cost of "
                            f"{a['cost']}, but its values make it {cost} (best {best}, played "
                            f"{values[made]})",
                            h,
                        )
                    )
                fate = fate_of(contract, high, best, values[made])
                if a.get("fate") != fate:
                    out.append(
                        _problem(
                            f"{ptr}/fate",
                            f"the analysis of {seat}'s {tile} marks its fate "
                            f"{a.get('fate') or 'none'}, but its values say {fate or 'none'}",
                            h,
                        )
                    )
                if first and stated is not None and best != stated["value"]:
                    out.append(
                        _problem(
                            f"{ptr}/values",
                            f"the first play's best value {best} is not the "
                            f"hand's value {stated['value']}",
                            h,
                        )
                    )
            if a.get("fair") is not None:
                out += _fair_problems(
                    a["fair"],
                    legal,
                    made,
                    f"{ptr}/fair",
                    f"{seat}'s {tile}",
                    contract,
                    seat,
                    stated,
                    h,
                )
        first = False
        state.apply(seat, tile, led)
    return out


def _fair_problems(
    fair: dict[str, Any],
    legal: list[str],
    made: str,
    ptr: str,
    what: str,
    contract: Contract,
    seat: Seat,
    stated: dict[str, Any] | None,
    h: int,
) -> list[Diagnostic]:
    """What the replay can confirm of a play's fair analysis (format 1.4): that it values
    exactly the legal plays, that cost, chance lost and mark follow from the values, that
    counted worlds have no error; the values themselves take ``analyze --verify``."""
    if stated is None or stated.get("fair") is None:
        return [
            _problem(
                ptr,
                f"the fair analysis of {what} does not say how its worlds were drawn: the hand's "
                'analysis needs its "fair" (worlds and seed)',
                h,
            )
        ]
    if fair.get("forced"):
        if len(legal) != 1 or len(fair) != 1:
            return [
                _problem(
                    ptr,
                    f"the fair analysis of {what} calls it forced, but "
                    + (
                        f"{len(legal)} plays were legal then"
                        if len(legal) != 1
                        else "a forced play states nothing else"
                    ),
                    h,
                )
            ]
        return []
    missing = [
        k
        for k in ("worlds", "of", "enumerated", "values", "cost", "chance_lost")
        if fair.get(k) is None
    ]
    if missing:
        return [_problem(ptr, f"the fair analysis of {what} leaves out {', '.join(missing)}", h)]
    values: dict[str, dict[str, float]] = fair["values"]
    if sorted(values) != legal:
        return [
            _problem(
                f"{ptr}/values",
                f"the fair analysis of {what} must value exactly the legal plays of "
                f"that moment ({', '.join(legal)})",
                h,
            )
        ]
    if len(legal) == 1:
        return [
            _problem(
                ptr,
                f"the fair analysis of {what} draws worlds for the only legal play; it is forced",
                h,
            )
        ]
    out: list[Diagnostic] = []
    if fair["worlds"] > fair["of"]:
        out.append(
            _problem(
                f"{ptr}/worlds",
                f"the fair analysis of {what} is over {fair['worlds']} worlds of {fair['of']}",
                h,
            )
        )
    if fair["enumerated"]:
        if fair["worlds"] != fair["of"] or any(v["se"] or v["share_se"] for v in values.values()):
            out.append(
                _problem(
                    ptr,
                    f"the fair analysis of {what} counts every world, so it is over all "
                    f"{fair['of']} with no standard error",
                    h,
                )
            )
    high = maximiser(contract, seat)
    means = [v["mean"] for v in values.values()]
    best = max(means) if high else min(means)
    mine = values[made]
    cost = round(best - mine["mean"] if high else mine["mean"] - best, 4)
    lost = round(max(v["share"] for v in values.values()) - mine["share"], 4)
    if fair["cost"] != cost:
        out.append(
            _problem(
                f"{ptr}/cost",
                f"the fair analysis of {what} gives a cost of {fair['cost']}, but "
                f"its values make it {cost}",
                h,
            )
        )
    if fair["chance_lost"] != lost:
        out.append(
            _problem(
                f"{ptr}/chance_lost",
                f"the fair analysis of {what} gives a chance lost of "
                f"{fair['chance_lost']}, but its values make it {lost}",
                h,
            )
        )
    mark = fair.get("mark")
    least = {"??": (BLUNDER, 99.0), "?": DUBIOUS}.get(mark or "")
    if least is not None and lost < least[0] and cost < least[1]:
        out.append(
            _problem(
                f"{ptr}/mark",
                f"the fair analysis of {what} marks it {mark}, but it gave up "
                f"only {lost:.0%} of the chance and {cost} hand points",
                h,
            )
        )
    return out


def stated_runs(doc: dict[str, Any]) -> dict[int, tuple[int, int]]:
    """Hand (from 0) → (worlds, seed) of each fair analysis a log states (format 1.4)."""
    out: dict[int, tuple[int, int]] = {}
    for h, hand in enumerate(doc.get("hands", [])):
        run = (hand.get("analysis") or {}).get("fair")
        if run is not None:
            out[h] = (run["worlds"], run["seed"])
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
    for h, f in (fair or {}).items():
        for fn in f.plays:
            stated = (hands_[h]["plays"][fn.index].get("analysis") or {}).get("fair")
            if stated is None:
                continue
            mine = fn.as_dict()
            where = f"/hands/{h}/plays/{fn.index}/analysis/fair"
            for key in sorted(set(stated) | set(mine)):
                if stated.get(key) != mine.get(key):
                    out.append(
                        _problem(
                            f"{where}/{key}",
                            f"the stated fair {key} of {fn.seat} {move_key(fn.move)} "
                            f"is {_short(stated.get(key))}; drawn again with seed {f.seed} and "
                            f"{f.worlds} worlds it is {_short(mine.get(key))}",
                            h,
                        )
                    )
                    break
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
                    _problem(
                        f"/hands/{h}/analysis/value",
                        f"hand {h + 1}'s stated value is "
                        f"{stated['value']}; with every hand open it is {mine['value']}",
                        h,
                    )
                )
            for name, v in (stated.get("table") or {}).items():
                if name in mine.get("table", {}) and mine["table"][name] != v:
                    out.append(
                        _problem(
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
                        _problem(
                            f"/hands/{h}/plays/{note.index}/analysis/values/{key}",
                            f"the stated value of {note.seat} {key} is {values[key]}; with every "
                            "hand "
                            f"open it is {v}",
                            h,
                        )
                    )
    return out
