"""What ``texas42 analyze`` prints: a match's open-hand analysis as text, JSON or CSV rows.

Pure: no I/O. The forms are made from :mod:`texas42_log.analysis.open_hand`'s results.
"""

from __future__ import annotations

from typing import Any, Final

from ..engine.seats import partner, team_of
from ..engine.trumps import Trump
from .fair_hands import FairHand, FairNote, best_text
from .open_hand import HandAnalysis, PlayNote, Skipped, move_key
from .worlds import ENUMERATE_LIMIT

__all__ = [
    "hand_text",
    "match_text",
    "match_json",
    "csv_rows",
    "CSV_COLUMNS",
    "FAIR_COLUMNS",
    "trump_word",
    "fair_json",
]

_TRUMP_WORDS: Final = {
    "0": "blanks",
    "1": "ones",
    "2": "twos",
    "3": "threes",
    "4": "fours",
    "5": "fives",
    "6": "sixes",
    "doubles": "doubles",
    "no-trump": "no-trump",
}

CSV_COLUMNS: Final = (
    "source",
    "hand",
    "contract",
    "trump",
    "hand_value",
    "makeable",
    "trick",
    "seat",
    "play",
    "value",
    "best",
    "cost",
    "fate",
    "best_plays",
    "skipped",
)
#: With ``--fair``, these follow :data:`CSV_COLUMNS`.
FAIR_COLUMNS: Final = (
    "fair_worlds",
    "fair_enumerated",
    "fair_mean",
    "fair_share",
    "fair_cost",
    "chance_lost",
    "mark",
    "fair_best",
    "verdict",
)


def trump_word(trump: Trump | str) -> str:
    return _TRUMP_WORDS[trump.value if isinstance(trump, Trump) else trump]


def _contract_words(a: HandAnalysis) -> str:
    c = a.contract
    what = c.describe()
    if c.special in ("nello", "sevens"):
        return what  # "C bid Nel-O for 2 marks": the contract says it, and there is no trump
    assert a.trump is not None
    return f"{what}, trump {trump_word(a.trump)}"


def _need(a: HandAnalysis) -> str:
    c = a.contract
    if c.special == "nello":
        return "Nel-O needs 0: no trick"
    if c.all_tricks:
        return "all tricks need 42"
    return f"{c.bid} needed"


def _fate_words(note: PlayNote) -> str:
    if note.fate == "lost":
        return "LOST: the contract could be made until this play"
    if note.fate == "let-make":
        return "LET MAKE: the contract could be set until this play"
    return ""


def _best_text(note: PlayNote) -> str:
    shown = [move_key(m) for m in note.best_moves][:3]
    more = len(note.best_moves) - len(shown)
    return ", ".join(shown) + (f" +{more}" if more > 0 else "") + f" → {note.best}"


def _fair_cells(f: FairNote | None) -> str:
    """A play's fair columns: its fair cost, the chance it gave up, the mark, the best fair play."""
    if f is None:
        return ""
    if f.decision is None:
        return f"  {'forced':>6}"
    cost = f"{f.cost:.1f}" if f.cost >= 0.05 else "-"
    lost = f"-{f.chance_lost:.0%}" if f.chance_lost >= 0.005 else ""
    cells = f"  {cost:>6} {lost:>5} {f.mark or '':<2}"
    if f.cost >= 0.05 or f.chance_lost >= 0.005:
        cells += f" {best_text(f.decision)}"
    return cells


def _fair_values(f: FairNote) -> str:
    d = f.decision
    assert d is not None
    return " · ".join(f"{move_key(m)} {v.mean:.1f} ({v.share:.0%})" for m, v in d.values.items())


def hand_text(
    a: HandAnalysis | Skipped, values: bool = False, fair: FairHand | None = None
) -> list[str]:
    """One hand's report, as lines; with ``values``, each play's alternatives and their values;
    with ``fair``, each play's fair analysis beside its open-hand one."""
    if isinstance(a, Skipped):
        return [f"Hand {a.hand + 1}: skipped: {a.reason}"]
    c = a.contract
    team = team_of(c.bidder)
    verdict = "makeable" if a.makeable else "not makeable"
    lines = [
        f"Hand {a.hand + 1}: {_contract_words(a)}",
        f"  open hands: {team} take {a.value} with best play from the first lead — {verdict} "
        f"({_need(a)})",
    ]
    if a.table:
        cells = " · ".join(f"{trump_word(t)} {v}" for t, v in a.table.items())
        lines.append(f"  makeable table, {c.bidder} declaring and leading: {cells}")
    notes = {} if fair is None else {f.index: f for f in fair.plays}
    if fair is not None:
        lines.append(
            f"  fair: each play from its player's own view, {fair.worlds} worlds a decision (seed "
            f"{fair.seed}; every world when there are at most {max(fair.worlds, ENUMERATE_LIMIT)})"
        )
    if a.plays and fair is None:
        lines.append("  trick  play          after  cost  best play")
    elif a.plays:
        lines.append(
            "  trick  play          after  cost    fair  lost  mark  best fair play, mean (chance)"
        )
    for n in a.plays:
        tile = move_key(n.move)
        cost = str(n.cost) if n.cost else "-"
        f = notes.get(n.index)
        if fair is None:
            best = _best_text(n) if n.cost else ""
            row = f"  {n.trick:<5}  {n.seat} {tile:<11} {n.value:>5}  {cost:>4}  {best}"
        else:
            row = f"  {n.trick:<5}  {n.seat} {tile:<11} {n.value:>5}  {cost:>4}" + _fair_cells(f)
        if n.fate:
            row += f"  {_fate_words(n)}"
        if f is not None and f.verdict:
            row += f"  — {f.verdict}"
        lines.append(row.rstrip())
        if values and len(n.values) > 1:
            lines.append(
                "         " + " · ".join(f"{move_key(m)} {v}" for m, v in n.values.items())
            )
            if f is not None and f.decision is not None:
                lines.append("    fair " + _fair_values(f))
    if a.plays:
        lost = sum(n.cost for n in a.plays if team_of(n.seat) == team)
        given = sum(n.cost for n in a.plays if team_of(n.seat) != team)
        defenders = "B+D" if team == "A+C" else "A+C"
        sitting = f" ({partner(c.bidder)} sits out)" if c.special == "nello" else ""
        lines.append(
            f"  cost of the plays: {team} {lost}, {defenders} {given} hand points{sitting}"
        )
    return lines


def match_text(
    source: str,
    analyses: list[HandAnalysis | Skipped],
    values: bool = False,
    fair: dict[int, FairHand] | None = None,
) -> str:
    """A match's report: the source, then each hand (with ``fair``, its fair analysis too)."""
    what = "open-hand and fair analysis" if fair is not None else "open-hand analysis"
    lines = [f"{source}: {what}, {_count(analyses)}"]
    for a in analyses:
        lines += hand_text(a, values, None if fair is None else fair.get(a.hand))
    return "\n".join(lines)


def _count(analyses: list[HandAnalysis | Skipped]) -> str:
    done = sum(1 for a in analyses if isinstance(a, HandAnalysis))
    skipped = len(analyses) - done
    return f"{done} hand{'s' if done != 1 else ''} analysed" + (
        f", {skipped} skipped" if skipped else ""
    )


def fair_json(f: FairNote) -> dict[str, Any]:
    """A play's fair analysis in the report's JSON: the format's object, with the best plays and
    verdict."""
    out = f.as_dict()
    if f.decision is not None:
        out["best_plays"] = [move_key(m) for m in f.decision.best_moves]
    out["verdict"] = f.verdict
    return out


def _play_json(n: PlayNote, f: FairNote | None = None) -> dict[str, Any]:
    return ({} if f is None else {"fair": fair_json(f)}) | {
        "index": n.index,
        "trick": n.trick,
        "seat": n.seat,
        "play": move_key(n.move),
        "value": n.value,
        "best": n.best,
        "cost": n.cost,
        "fate": n.fate,
        "best_plays": [move_key(m) for m in n.best_moves],
        "values": {move_key(m): v for m, v in n.values.items()},
    }


def hand_json(a: HandAnalysis | Skipped, fair: FairHand | None = None) -> dict[str, Any]:
    if isinstance(a, Skipped):
        return {"hand": a.hand + 1, "skipped": a.reason}
    c = a.contract
    notes = {} if fair is None else {f.index: f for f in fair.plays}
    return ({} if fair is None else {"fair": fair.as_dict()}) | {
        "hand": a.hand + 1,
        "contract": {"bidder": c.bidder, "kind": c.kind.value, "bid": c.bid, "special": c.special},
        "trump": a.trump.value if a.trump is not None else None,
        "objective": a.objective,
        "value": a.value,
        "makeable": a.makeable,
        "table": {t.value: v for t, v in a.table.items()},
        "plays": [_play_json(n, notes.get(n.index)) for n in a.plays],
        "nodes": a.nodes,
    }


def match_json(
    source: str, analyses: list[HandAnalysis | Skipped], fair: dict[int, FairHand] | None = None
) -> dict[str, Any]:
    """A match's analysis as one JSON-ready object."""
    return {
        "file": source,
        "valid": True,
        "hands": [hand_json(a, None if fair is None else fair.get(a.hand)) for a in analyses],
    }


def _fair_row(f: FairNote | None) -> list[str]:
    if f is None:
        return [""] * len(FAIR_COLUMNS)
    d = f.decision
    if d is None:
        return ["0", "", "", "", "0", "0", "", "forced", ""]
    v = d.values[f.move]
    return [
        str(d.worlds),
        "yes" if d.enumerated else "no",
        f"{v.mean:.4f}",
        f"{v.share:.4f}",
        f"{f.cost:g}",
        f"{f.chance_lost:g}",
        f.mark or "",
        " ".join(move_key(m) for m in d.best_moves),
        f.verdict or "",
    ]


def csv_rows(
    source: str, analyses: list[HandAnalysis | Skipped], fair: dict[int, FairHand] | None = None
) -> list[list[str]]:
    """One row per play (a skipped hand: one row saying why), columns :data:`CSV_COLUMNS`
    (and :data:`FAIR_COLUMNS` with ``fair``)."""
    rows: list[list[str]] = []
    extra = 0 if fair is None else len(FAIR_COLUMNS)
    for a in analyses:
        if isinstance(a, Skipped):
            rows.append([source, str(a.hand + 1)] + [""] * 12 + [a.reason] + [""] * extra)
            continue
        notes = (
            {} if fair is None or a.hand not in fair else {f.index: f for f in fair[a.hand].plays}
        )
        c = a.contract
        head = [
            source,
            str(a.hand + 1),
            c.describe() + (f" {c.special}" if c.special else ""),
            a.trump.value if a.trump is not None else "",
            str(a.value),
            "yes" if a.makeable else "no",
        ]
        if not a.plays:
            rows.append(head + [""] * (9 + extra))
        for n in a.plays:
            rows.append(
                head
                + [
                    str(n.trick),
                    n.seat,
                    move_key(n.move),
                    str(n.value),
                    str(n.best),
                    str(n.cost),
                    n.fate or "",
                    " ".join(move_key(m) for m in n.best_moves),
                    "",
                ]
                + ([] if fair is None else _fair_row(notes.get(n.index)))
            )
    return rows
