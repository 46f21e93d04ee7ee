"""What ``texas42 analyze`` prints: a match's open-hand analysis as text, JSON or CSV rows.

Pure: no I/O. The forms are made from :mod:`texas42_log.analysis.open_hand`'s results.
"""

from __future__ import annotations

from typing import Any, Final

from ..engine.auction import Contract
from ..engine.seats import Seat, partner, team_of
from ..engine.trumps import Trump, trump_words
from .auction_report import AUCTION_WORDS, auction_csv, auction_json, auction_lines, lead_note
from .cards import Card, cards_json, cards_lines, hand_cards, match_cards
from .fair import MARKS
from .fair_hands import VERDICTS, FairHand, FairNote, best_text
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
    "legend",
    "analysed_hands",
]

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
    "fair_note",
    "chance_lost_se",
    "expected_marks",
    "pays_best",
    "marks_lost",
    "marks_lost_se",
)


def trump_word(trump: Trump | str) -> str:
    """A trump choice in players' words, as every English report writes it: ``sixes``,
    ``blanks``, ``doubles``, ``no-trump`` (:data:`~texas42_log.engine.trumps.SUIT_WORDS`)."""
    return trump_words(trump.value if isinstance(trump, Trump) else trump)


def _contract_words(c: Contract, trump: Trump | None) -> str:
    what = c.describe()
    if c.special in ("nello", "sevens") or trump is None:
        return what  # "C bid Nel-O for 2 marks": the contract says it, and there is no trump
    return f"{what}, trump {trump_word(trump)}"


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


#: The fair columns' heading, above :func:`_fair_cells`.
_FAIR_HEAD: Final = "chance   mean    lost   pts  mark  best fair play: chance mean"


def _pct(x: float) -> str:
    """A share as a percentage, "-" for none: 0.04 → "4%"."""
    return f"{x:.0%}" if x >= 0.005 else "-"


def _fair_cells(f: FairNote | None) -> str:
    """A play's fair columns: its chance and mean, the chance and the hand points it gave up
    against the best fair play, its mark, and that best play when it was not this one."""
    if f is None:
        return ""
    d = f.decision
    if d is None:
        return f"  {'forced':>6}"
    v = d.values[f.move]
    pts = f"{f.cost:.1f}" if f.cost >= 0.05 else "-"
    lost = _pct(f.chance_lost)
    if f.chance_lost >= 0.005 and f.chance_lost_se >= 0.005 and d.objective == "chance":
        lost += f"±{f.chance_lost_se * 100:.0f}"
    mark = f.mark or ("(?)" if f.uncertain else "")
    cells = f"  {v.share:>6.0%} {v.mean:>6.1f} {lost:>7} {pts:>5}  {mark:<4}"
    if f.move not in d.best_moves:
        # never a best play shown with a lower chance than the one made: a tie is "as good"
        if d.objective == "chance" and d.values[d.best].share <= v.share:
            cells += "  as good"
        else:
            cells += f"  {best_text(d)}"
    return cells


def _fair_values(f: FairNote) -> str:
    d = f.decision
    assert d is not None
    return " · ".join(f"{move_key(m)} {v.share:.0%} {v.mean:.1f}" for m, v in d.values.items())


def _fair_line(fair: FairHand) -> str:
    objective = (
        "the best fair play by the mean hand points (a points game)"
        if any(f.decision is not None and f.decision.objective == "points" for f in fair.plays)
        else "the best fair play by the chance of the side's goal"
    )
    return (
        f"  fair: each play from its player's own view, {fair.worlds} worlds a decision (seed "
        f"{fair.seed}; every world when there are at most {max(fair.worlds, ENUMERATE_LIMIT)}); "
        + objective
    )


def _fair_extra(f: FairNote | None, values: bool) -> list[str]:
    """The lines under a play's row: its note, and with ``values`` every play's fair values."""
    out: list[str] = []
    if f is not None and f.note:
        out.append(f"         note: {f.note}")
    if values and f is not None and f.decision is not None:
        out.append("    fair " + _fair_values(f))
    return out


def _fair_only(fair: FairHand, values: bool) -> list[str]:
    """The rows of a hand with no open-hand analysis: its fair plays, and the plays skipped."""
    lines = [f"  trick  play          {_FAIR_HEAD}"]
    rows: list[tuple[int, str, list[str]]] = []
    for f in fair.plays:
        row = f"  {f.trick:<5}  {f.seat} {move_key(f.move):<11}" + _fair_cells(f)
        rows.append((f.index, row.rstrip(), _fair_extra(f, values)))
    for sk in fair.skipped:
        rows.append(
            (
                sk.index,
                f"  {sk.trick:<5}  {sk.seat} {move_key(sk.move):<11}  skipped: {sk.reason}",
                [],
            )
        )
    for _, row, extra in sorted(rows, key=lambda r: r[0]):
        lines += [row, *extra]
    return lines


def hand_text(
    a: HandAnalysis | Skipped, values: bool = False, fair: FairHand | None = None
) -> list[str]:
    """One hand's report, as lines; with ``values``, each play's alternatives and their values;
    with ``fair``, each play's fair analysis beside its open-hand one (a hand the open-hand
    analysis skipped: the fair analysis of the plays whose player's tiles were known)."""
    if isinstance(a, Skipped):
        if fair is not None and fair.contract is None and fair.auction is not None:
            # all four passed: the passes judged (format 1.10)
            return [
                f"Hand {a.hand + 1}: all four passed, no contract",
                *auction_lines(fair.auction, values),
            ]
        if fair is None or fair.contract is None:
            return [f"Hand {a.hand + 1}: skipped: {a.reason}"]
        return [
            f"Hand {a.hand + 1}: {_contract_words(fair.contract, fair.trump)}",
            f"  open hands: skipped: {a.reason}",
            *([] if fair.auction is None else auction_lines(fair.auction, values)),
            *lead_note(fair),
            _fair_line(fair),
            *_fair_only(fair, values),
        ]
    c = a.contract
    team = team_of(c.bidder)
    verdict = "makeable" if a.makeable else "not makeable"
    lines = [
        f"Hand {a.hand + 1}: {_contract_words(c, a.trump)}",
        f"  open hands: {team} take {a.value} with best play from the first lead — {verdict} "
        f"({_need(a)})",
    ]
    if a.table:
        cells = " · ".join(f"{trump_word(t)} {v}" for t, v in a.table.items())
        lines.append(f"  makeable table, {c.bidder} declaring and leading: {cells}")
    notes = {} if fair is None else {f.index: f for f in fair.plays}
    if fair is not None and fair.auction is not None:
        lines += auction_lines(fair.auction, values)
    if fair is not None:
        lines += lead_note(fair)
        lines.append(_fair_line(fair))
    if a.plays and fair is None:
        lines.append("  trick  play          after  cost  best play")
    elif a.plays:
        lines.append(f"  trick  play          after  cost  {_FAIR_HEAD}")
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
        if fair is not None:
            lines += _fair_extra(f, values)
    if a.plays:
        lost = sum(n.cost for n in a.plays if team_of(n.seat) == team)
        given = sum(n.cost for n in a.plays if team_of(n.seat) != team)
        defenders = "B+D" if team == "A+C" else "A+C"
        sitting = f" ({partner(c.bidder)} sits out)" if c.special == "nello" else ""
        lines.append(
            f"  cost of the plays: {team} {lost}, {defenders} {given} hand points{sitting}"
        )
    return lines


def legend(fair: bool) -> list[str]:
    """What the text report's columns and words mean, one line each: under a fair report
    (``--no-legend`` leaves it out); the same sentences as ``--help`` and docs/analysis.md."""
    lines = [
        "Legend:",
        "  after: the bidders' hand points in all 7 tricks with best play from then on, every "
        "hand open",
        "  cost: the hand points the play gave away against its side's best play, every hand open",
        "  LOST / LET MAKE: the play turned a makeable contract unmakeable / a contract that "
        "could be set into one that makes",
    ]
    if fair:
        lines += [
            "  chance: the share of the worlds its player could not tell apart in which the "
            "side reaches its goal (the contract made for the bidders, set for the defenders)",
            "  mean: the bidders' mean hand points over those worlds",
            "  lost: the chance given up against the best fair play, ± its standard error "
            "(measured world by world); pts: the hand points of the mean given up against it",
            "  (?): a loss as large as a mark's, left unmarked because it is within twice its "
            "error: uncertain",
            "  as good: another play was chosen as best, but not with a higher chance than "
            "this one",
            "  best fair play: the best chance (ties broken by the mean; in a points game the "
            "best mean), with its chance and mean",
            *(f"  {mark}: {text}" for mark, text in MARKS.items()),
            "  (when the worlds were drawn rather than counted, a play is marked only when its "
            "loss is more than twice its standard error)",
            *(f"  {name}: {text}" for name, text in VERDICTS.items()),
            *(f"  auction {name}: {text}" for name, text in AUCTION_WORDS.items()),
            "  declaration ? / ??: the chance of the contract won given up against the best "
            "trump, by the thresholds of the plays",
        ]
    return lines


def match_text(
    source: str,
    analyses: list[HandAnalysis | Skipped],
    values: bool = False,
    fair: dict[int, FairHand] | None = None,
    players: dict[Seat, str] | None = None,
) -> str:
    """A match's report: the source, then each hand (with ``fair``, its fair analysis too,
    and under the hands each seat's and team's score card; ``players``: their names)."""
    what = "open-hand and fair analysis" if fair is not None else "open-hand analysis"
    lines = [f"{source}: {what}, {_count(analyses, fair)}"]
    for a in analyses:
        lines += hand_text(a, values, None if fair is None else fair.get(a.hand))
    if fair:
        lines += cards_text(match_cards(fair.values()), players or {})
    return "\n".join(lines)


def cards_text(cards: dict[Seat, Card], players: dict[Seat, str]) -> list[str]:
    """The score cards under a report: a line per seat (with its player's name) and team."""
    return ["Score cards (the fair analysis; forced plays are not judged):"] + cards_lines(
        cards, players
    )


def analysed_hands(
    analyses: list[HandAnalysis | Skipped], fair: dict[int, FairHand] | None = None
) -> int:
    """The hands analysed: with every hand open, or fairly (a player's own record: its own
    plays and calls; a hand all four passed: its passes)."""
    return sum(
        1
        for a in analyses
        if isinstance(a, HandAnalysis)
        or (
            fair is not None
            and (f := fair.get(a.hand)) is not None
            and (f.plays or (f.auction is not None and (f.auction.calls or f.auction.declaration)))
        )
    )


def _count(analyses: list[HandAnalysis | Skipped], fair: dict[int, FairHand] | None) -> str:
    done = analysed_hands(analyses, fair)
    skipped = len(analyses) - done
    return f"{done} hand{'s' if done != 1 else ''} analysed" + (
        f", {skipped} skipped" if skipped else ""
    )


def fair_json(f: FairNote) -> dict[str, Any]:
    """A play's fair analysis in the report's JSON: the format's object, with the best plays,
    the verdict and the note."""
    out = f.as_dict()
    if f.decision is not None:
        out["best_plays"] = [move_key(m) for m in f.decision.best_moves]
        out["objective"] = f.decision.objective
        out["chance_lost_se"] = f.chance_lost_se
        out["uncertain"] = f.uncertain
    out["verdict"] = f.verdict
    out["note"] = f.note
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


def _fair_skipped(fair: FairHand) -> list[dict[str, Any]]:
    return [
        {
            "index": sk.index,
            "trick": sk.trick,
            "seat": sk.seat,
            "play": move_key(sk.move),
            "reason": sk.reason,
        }
        for sk in fair.skipped
    ]


def _contract_json(c: Contract) -> dict[str, Any]:
    return {"bidder": c.bidder, "kind": c.kind.value, "bid": c.bid, "special": c.special}


def hand_json(a: HandAnalysis | Skipped, fair: FairHand | None = None) -> dict[str, Any]:
    """A hand's analysis as JSON; a hand the open-hand analysis skipped says why, and with
    ``fair`` holds the fair analysis of the plays whose player's tiles were known."""
    if isinstance(a, Skipped):
        out: dict[str, Any] = {"hand": a.hand + 1, "skipped": a.reason}
        if fair is not None and fair.contract is not None:
            out |= {
                "fair": fair.as_dict(),
                "contract": _contract_json(fair.contract),
                "trump": fair.trump.value if fair.trump is not None else None,
                "plays": [
                    {
                        "index": f.index,
                        "trick": f.trick,
                        "seat": f.seat,
                        "play": move_key(f.move),
                        "fair": fair_json(f),
                    }
                    for f in fair.plays
                ],
                "fair_skipped": _fair_skipped(fair),
                "auction": None if fair.auction is None else auction_json(fair.auction),
            }
        if fair is not None and (fair.contract is not None or fair.auction is not None):
            out |= {"cards": cards_json(hand_cards(fair))}
            if fair.contract is None and fair.auction is not None:
                out["auction"] = auction_json(fair.auction)  # all four passed: the passes
        return out
    notes = {} if fair is None else {f.index: f for f in fair.plays}
    return (
        {}
        if fair is None
        else {
            "fair": fair.as_dict(),
            "fair_skipped": _fair_skipped(fair),
            "auction": None if fair.auction is None else auction_json(fair.auction),
            "cards": cards_json(hand_cards(fair)),
        }
    ) | {
        "hand": a.hand + 1,
        "contract": _contract_json(a.contract),
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
    out: dict[str, Any] = {
        "file": source,
        "valid": True,
        "hands": [hand_json(a, None if fair is None else fair.get(a.hand)) for a in analyses],
    }
    if fair:
        out |= cards_json(match_cards(fair.values()))
    return out


def _fair_row(f: FairNote | None) -> list[str]:
    if f is None:
        return [""] * len(FAIR_COLUMNS)
    d = f.decision
    if d is None:
        return ["0", "", "", "", "0", "0", "", "forced", "", "", "", "", "", "", ""]
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
        f.note or "",
        f"{f.chance_lost_se:g}",
        "",
        "",
        "",
        "",
    ]


def _head(source: str, hand: int, c: Contract, trump: Trump | None) -> list[str]:
    return [
        source,
        str(hand + 1),
        c.describe() + (f" {c.special}" if c.special else ""),
        trump.value if trump is not None else "",
    ]


def csv_rows(
    source: str, analyses: list[HandAnalysis | Skipped], fair: dict[int, FairHand] | None = None
) -> list[list[str]]:
    """One row per play (a skipped hand: one row saying why), columns :data:`CSV_COLUMNS`
    (and :data:`FAIR_COLUMNS` with ``fair``). A hand the open-hand analysis skipped but the
    fair analysis did not: a row per play, its open-hand columns empty and ``skipped``
    saying why (a play the fair analysis skipped too: why in ``skipped``, no fair columns)."""
    rows: list[list[str]] = []
    extra = 0 if fair is None else len(FAIR_COLUMNS)
    for a in analyses:
        f_hand = None if fair is None else fair.get(a.hand)
        if isinstance(a, Skipped):
            if f_hand is not None and f_hand.contract is None and f_hand.auction is not None:
                # all four passed: a row per judged pass
                rows += auction_csv(f_hand.auction, [source, str(a.hand + 1)] + [""] * 4, extra)
                continue
            if f_hand is None or f_hand.contract is None:
                rows.append([source, str(a.hand + 1)] + [""] * 12 + [a.reason] + [""] * extra)
                continue
            head = _head(source, a.hand, f_hand.contract, f_hand.trump) + ["", ""]
            if f_hand.auction is not None:
                rows += auction_csv(f_hand.auction, head, extra)
            by_index: list[tuple[int, list[str]]] = []
            for f in f_hand.plays:
                by_index.append(
                    (
                        f.index,
                        head
                        + [str(f.trick), f.seat, move_key(f.move), "", "", "", "", "", ""]
                        + _fair_row(f),
                    )
                )
            for sk in f_hand.skipped:
                by_index.append(
                    (
                        sk.index,
                        head
                        + [str(sk.trick), sk.seat, move_key(sk.move), "", "", "", "", "", sk.reason]
                        + [""] * extra,
                    )
                )
            rows += [r for _, r in sorted(by_index, key=lambda x: x[0])]
            continue
        notes = {} if f_hand is None else {f.index: f for f in f_hand.plays}
        head = _head(source, a.hand, a.contract, a.trump) + [
            str(a.value),
            "yes" if a.makeable else "no",
        ]
        if f_hand is not None and f_hand.auction is not None:
            rows += auction_csv(f_hand.auction, head, extra)
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
