"""The auction's fair verdicts in ``texas42 analyze --fair``: text lines, JSON, CSV rows.

Pure: no I/O. Made from :mod:`texas42_log.analysis.auction_fair`'s results; the words of
each verdict are :data:`AUCTION_WORDS`, the same in the legend, ``--help`` and
docs/analysis.md.
"""

from __future__ import annotations

from typing import Any, Final

from ..engine.trumps import trump_words
from . import as_stated
from .auction_fair import AuctionAnalysis, CallNote, DeclarationNote
from .bidding import SUPPORT, Bid, Chance, Row
from .call_verdicts import ASSUMPTION, CALL_BLUNDER, CALL_DUBIOUS
from .continuation import ASSUMES, FLOOR_SHARE, SCALE, SOFT, ContractWorth, End
from .fair_hands import FairHand

__all__ = [
    "auction_lines",
    "auction_json",
    "auction_csv",
    "AUCTION_WORDS",
    "row_words",
    "lead_note",
    "LEAD_GAP",
]

#: From this gap between the declaration's chance and the first lead's best, the report
#: says why the two differ with nothing new seen.
LEAD_GAP: Final = 0.05

#: What the auction's words mean, one sentence each (the legend, ``--help``, the docs).
AUCTION_WORDS: Final[dict[str, str]] = {
    "table": "the chance the bid is made as the seats play it, each from its own view: the "
    "share of the deals of the 21 tiles its caller could not see in which it is made with "
    "best play and every hand open (the caller declaring and leading), corrected for that "
    "kind of contract",
    "pays best": "in a game of marks, the call of the highest worth: the expected marks of "
    "the contract its auction ends in, over the deals its caller could not tell apart — the "
    "rest of the auction called by the rule bidder, each declarer naming the trump that bidder "
    "would (the caller, its table's best) — a contract counting its stake × (2 × chance as "
    "played − 1) for the side that holds it, a new deal 0; ties to the lowest call",
    "ends in": "the contracts the call's auction ends in, the likeliest first: each one's "
    "share of the deals and its chance as played (all pass: a new deal)",
    "weighed": f"a deal in which the rule bidder would have made each call heard weighs 1, "
    f"one in which it would not exp(−points apart / {SCALE:g}) and never below {SOFT:g}; with "
    f"fewer effective deals than {FLOOR_SHARE:.0%} of those drawn the calls heard are too rare "
    "to weigh, and every deal weighs alike",
    "could go to": f"how high the hand could go if pushed: the highest bid whose best "
    f"chance as played is at least {SUPPORT:.0%} (the table's ceiling, not advice)",
    "marks": f"a call is marked ? from {CALL_DUBIOUS:g} expected marks given up against the "
    f"call that pays best and ?? from {CALL_BLUNDER:g} (a 1-mark contract swings 2 marks, so "
    "these are the plays' 5% and 20%), only past twice the error; uncertain: as large a loss "
    "within twice its error; in a points game calls are not judged",
    "supports": f"the highest bid whose best chance as played is at least {SUPPORT:.0%}; for "
    "a pass or a losing bid only what the table says, not knowing how the others would "
    "have answered",
    "as played": "every hand open flatters the declarer, and an all-tricks contract more "
    "than a 30: each kind of contract has its own correction, fitted to how often such "
    "contracts were made when every seat played from its own view (docs/analysis.md); made "
    "in every deal drawn stays 100%",
}


def row_words(row: Row) -> str:
    """``fives``, ``doubles``, ``no-trump``, ``Nel-O``, ``Nel-O low``, ``Sevens``: players'
    words (:data:`~texas42_log.engine.trumps.SUIT_WORDS`)."""
    if row.special == "nello":
        return "Nel-O" if row.doubles is None else f"Nel-O {row.doubles}"
    if row.special == "sevens":
        return "Sevens"
    assert row.trump is not None
    return trump_words(row.trump.value)


def _signed(x: float) -> str:
    return f"{x:+.2f}"


def _end_words(e: End) -> str:
    if e.by is None or e.bid is None or e.row is None:
        return f"all pass {e.share:.0%}"
    return f"{e.by}'s {e.bid.key} in {row_words(e.row)} {e.share:.0%} (made {e.made:.0%})"


def _ends(c: ContractWorth) -> str:
    """The contracts the call made leads to, the likeliest first, and how the worlds were
    weighed."""
    ends = c.made.ends
    said = "ends in " + ", ".join(_end_words(e) for e in ends[:2])
    if len(ends) > 2:
        said += f", {len(ends) - 2} more"
    n = len(c.weights)
    if c.heard and c.weighed:
        said += f" · worlds weighed by the calls heard ({c.effective:.0f} effective of {n})"
    elif c.heard:
        said += " · the calls heard were too rare to weigh: every world alike"
    return said


def _verdict(n: CallNote) -> str:
    """The call judged as players bid (:mod:`.continuation`; before 1.11
    :mod:`.call_verdicts`): the call that pays best, how high the hand could go, what the
    call made gave up, and (by its contract) the contracts it leads to."""
    best = n.pays_best
    if best.bid is None:
        said = "pass pays best"
    else:
        assert best.row is not None and best.chance is not None
        # one chance per trump per line: the winning bid's best trump has said its own
        told = n.won and n.call == best.bid and n.best is not None and n.best[0] == best.row
        chance = "" if told else f"{best.chance:.0%}, "
        said = (
            f"bid {best.bid.key} in {row_words(best.row)} pays best "
            f"({chance}{_signed(best.expected)} expected marks)"
        )
    s = n.supported
    if s is not None and (best.bid is None or s[0] != best.bid or s[1] != best.row):
        said += f"; could go to {s[0].key} in {row_words(s[1])}"
    if n.marks_lost > 0:
        said += f" · gave up {n.marks_lost:.2f} ± {n.marks_lost_se:.2f} expected marks"
        if n.mark is None and n.marks_lost >= CALL_DUBIOUS:
            said += " (within twice its error: uncertain)"
    elif best.key == n.worth.key:
        said = "pays best: " + said.replace(" pays best", "", 1)
    else:
        said += " · as good"
    if n.contract is not None:
        said += " · " + _ends(n.contract)
    return said


def _pct(c: Chance) -> str:
    return f"{c.share:.0%} ± {c.se:.0%}"


def _bid_words(bid: Bid | None) -> str:
    return "pass" if bid is None else bid.key


def _supported(n: CallNote) -> str:
    s = n.supported
    if s is None:
        return "could go to no bid"
    bid, row = s
    return f"could go to {bid.key} in {row_words(row)} {_pct(n.table.chance(bid, row))}"


def _call_line(n: CallNote) -> str:
    mark = n.mark or ""
    head = f"    {n.seat} {_bid_words(n.call):<14}{mark:<3}"
    parts = []
    if n.won and n.call is not None:
        chance, best = n.chance, n.best
        if chance is not None and n.declared is not None:
            parts.append(f"won: {row_words(n.declared)} {_pct(chance)}")
        if best is not None:
            parts.append(f"best trump {row_words(best[0])} {best[1].share:.0%}")
    if n.judged:
        parts.append(_verdict(n))
    else:
        parts.append(_supported(n) + " (calls are not judged in a points game)")
    return head + " · ".join(parts)


def _grid(n: CallNote) -> list[str]:
    """The table of a call, a line per bid: each row's chance."""
    out = []
    for bid in n.table.bids:
        rows = n.table.made[bid]
        cells = " ".join(f"{row_words(r)} {n.table.chance(bid, r).share:.0%}" for r in sorted(rows))
        out.append(f"        {bid.key:>14}: {cells}")
    return out


def _declaration_line(d: DeclarationNote) -> str:
    text = (
        f"  declaration: {d.seat} {row_words(d.choice)} {_pct(d.chance)}"
        f" — best {row_words(d.best)} {d.best_chance.share:.0%}"
    )
    if d.choice != d.best and d.chance_lost:
        text += f", {d.chance_lost:.0%} of the chance given up"
    if d.mark:
        text += f"  {d.mark}"
    return text


def auction_lines(a: AuctionAnalysis, values: bool = False) -> list[str]:
    """The auction's lines of a hand's report (``values``: each call's whole table); a
    skipped call is named by its public words (``C pass: skipped: …``)."""
    assumes = ASSUMES if any(n.contract is not None for n in a.calls) else f"judged {ASSUMPTION}"
    lines = [
        f"  auction: each call from its caller's own tiles, {a.worlds} deals of the 21 it "
        f"could not see (seed {a.seed}); each call {assumes}"
    ]
    for n in a.calls:
        lines.append(_call_line(n).rstrip())
        if values:
            lines += _grid(n)
    for index, seat, reason in a.skipped:
        what = "declaration" if index < 0 else a.words.get(index, f"call {index + 1}")
        lines.append(f"    {seat} {what}: skipped: {reason}")
    if a.declaration is not None:
        lines.append(_declaration_line(a.declaration))
    return lines


def lead_note(fair: FairHand) -> list[str]:
    """Why the declarer's chance at the first lead differs from its declaration's, with
    nothing new seen between them: a line when they are :data:`LEAD_GAP` apart or more."""
    a = fair.auction
    d = None if a is None else a.declaration
    first = fair.plays[0] if fair.plays else None
    if d is None or first is None or first.decision is None or first.seat != d.seat:
        return []
    said = d.table.open_chance(d.bid, d.choice).share  # both shares of worlds, hands open
    lead = first.decision.values[first.decision.best].share
    if abs(said - lead) < LEAD_GAP:
        return []
    return [
        f"  note: the declaration's open-hand {said:.0%} and the first lead's best {lead:.0%} "
        "differ with nothing new seen: the declaration's table lets each deal have its own best "
        "lead (every hand open from the first trick), a lead is one tile for every deal, and the "
        "two are drawn over different deals"
    ]


def _chance_json(c: Chance | None) -> dict[str, float] | None:
    """A chance as played and its standard error."""
    if c is None:
        return None
    return {"share": as_stated(c.share), "se": as_stated(c.se)}


def auction_json(a: AuctionAnalysis) -> dict[str, Any]:
    """The auction's verdicts in the report's JSON: each call's and the declaration's format
    object, with the chances' standard errors."""
    calls = []
    for n in a.calls:
        s = n.supported
        calls.append(
            {
                "index": n.index,
                "seat": n.seat,
                "call": _bid_words(n.call),
                "won": n.won,
                "fair": n.as_dict(),
                "supported_chance": None if s is None else _chance_json(n.table.chance(*s)),
                "chance": _chance_json(n.chance),
            }
        )
    out: dict[str, Any] = {
        "worlds": a.worlds,
        "seed": a.seed,
        "calls": calls,
        "skipped": [{"index": i, "seat": s, "reason": r} for i, s, r in a.skipped],
        "declaration": None,
    }
    d = a.declaration
    if d is not None:
        out["declaration"] = {
            "seat": d.seat,
            "declared": d.choice.key,
            "fair": d.as_dict(),
            "chance": _chance_json(d.chance),
            "best_chance": _chance_json(d.best_chance),
        }
    return out


def auction_csv(a: AuctionAnalysis, head: list[str], width: int) -> list[list[str]]:
    """A row per call and one for the declaration: ``trick`` is ``auction`` or
    ``declaration``, ``play`` the call or the trump, the fair columns its chance, the
    best row, the mark and, in ``fair_note``, what the table supports."""
    rows: list[tuple[int, list[str]]] = []
    for index, seat, reason in a.skipped:
        # a call (or the declaration, -1) not judged — its caller's tiles unknown, as in a
        # player's own record — is still a row, in its place, saying why
        why = ["", "", "", "", "", reason, *[""] * width]  # the "skipped" column, as a play's
        if index < 0:
            rows.append((10_000, head + ["declaration", seat, "", *why]))
        else:
            rows.append((index, head + ["auction", seat, a.words.get(index, ""), *why]))
    for n in a.calls:
        chance = n.chance
        best = n.best
        cells = [""] * width
        cells[0] = str(a.worlds)
        cells[1] = "no"
        cells[3] = "" if chance is None else f"{chance.share:.4f}"
        cells[7] = "" if best is None else best[0].key
        cells[9] = _supported(n)
        if n.judged and width > 10:
            cells[6] = n.mark or ""
            cells[11] = f"{n.worth.expected:g}"
            cells[12] = n.pays_best.key
            cells[13] = f"{n.marks_lost:g}"
            cells[14] = f"{n.marks_lost_se:g}"
        rows.append((n.index, head + ["auction", n.seat, _bid_words(n.call)] + [""] * 6 + cells))
    d = a.declaration
    if d is not None:
        cells = [""] * width
        cells[0] = str(a.worlds)
        cells[1] = "no"
        cells[3] = f"{d.chance.share:.4f}"
        cells[5] = f"{d.chance_lost:g}"
        cells[6] = d.mark or ""
        cells[7] = d.best.key
        rows.append((10_000, head + ["declaration", d.seat, d.choice.key] + [""] * 6 + cells))
    return [row for _, row in sorted(rows, key=lambda r: r[0])]
