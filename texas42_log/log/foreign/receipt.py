"""The texas-42 research engine's self-play receipt (docs/conversions.md).

Import: one receipt → one match under the preset ``texas-42`` (the seed rules,
every hand played to 7 tricks). The receipt records no auction and no deal: the
deal is each seat's seven played tiles (certain), the auction the winner's bid
and three passes (assumed, said in ``source.warnings``). Trick winners, points,
verdicts, marks and the running score are kept as the log's stated outcome, so
the validator checks every one of them. The title, player and statistics lines
are kept under ``x-texas-42`` so the receipt can be written back byte for byte.

Export: only what the receipt can say — texas-42 rules, hands played to the
last tile, a winning point bid with three passes, a pip, doubles or no-trump
declaration. Anything else raises :class:`CannotExport`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ...engine.presets import PRESETS
from ...engine.seats import Team
from ..model import Match
from ..notation import ParsedMatch
from ..replayed import replay_match
from . import INDEX_OF, SEAT_OF, CannotExport, ForeignFormatError, brief, canonical_tile, high_low

__all__ = ["FORMAT", "looks_like", "read_receipt", "write_receipt"]

FORMAT = "texas-42-receipt"
TITLE = "rob player self-play verification: PASS"
EXTENSION = "x-texas-42"
ASSUMED_AUCTION = (
    "the receipt records no auction, only the winner and its bid: each hand's auction is "
    "assumed to be that bid with the other three players passing"
)

_HAND = re.compile(r"^hand ([0-9]{1,6}): (.*)$")
#: A line that begins as a hand or a trick does, whatever stands for its number.
_NUMBERED = re.compile(r"^(hand|trick) (\S*?): ")
_TRICK = re.compile(r"^trick ([0-9]{1,6}): (.*?) -> S([0-3]) \+([0-9]{1,6})$")
_PLAY = re.compile(r"^S([0-3]):([0-6])-([0-6])$")
_RESULT = re.compile(
    r"^result: declaring T([01]) ([0-9]{1,6}) points -> (made|set) "
    r"\(([0-9]{1,6}) mark(s?) to T([01])\); "
    r"marks T0 ([0-9]{1,6}) - ([0-9]{1,6}) T1$"
)
_MATCH = re.compile(r"^match result: T0 ([0-9]{1,6}) - ([0-9]{1,6}) T1 after ([0-9]{1,6}) hands$")
_DECL = {
    **{f"P{k}": str(k) for k in range(7)},
    "DT": "doubles",
    "D": "doubles",
    "NT": "no-trump",
    "N": "no-trump",
}
_TEAM = ("A+C", "B+D")


def _number_problem(line: str) -> str | None:
    """What is wrong with the number of a line that begins as a hand or a trick does."""
    m = _NUMBERED.match(line)
    if m is None:
        return None
    kind, number = m.groups()
    if not (number.isascii() and number.isdigit()):
        return f"a {kind} is numbered in the digits 0–9, not {brief(number)}"
    if len(number) > 6:
        return (
            f"a {kind} number of {len(number):,} digits is no {kind} of a match "
            f"(a receipt numbers them from {0 if kind == 'hand' else 1}, in order)"
        )
    return None


def looks_like(text: str) -> bool:
    first = text.lstrip("\ufeff").split("\n", 1)[0].strip()
    return first.startswith("rob player self-play verification") or bool(_HAND.match(first))


def _hand_of(
    m: re.Match[str], bad: Callable[[str], ForeignFormatError]
) -> tuple[dict[str, Any], str]:
    """A hand line's hand, before its tricks (the auction a receipt assumes: the bidder
    bids, the others pass), and its declaration as the receipt wrote it."""
    fields: dict[str, str] = {}
    for part in m.group(2).split(", "):
        key, _, value = part.rpartition(" ")
        if key not in ("shaker", "bidder", "bid", "declaration") or key in fields:
            raise bad(
                f"a hand line has the fields shaker, bidder, bid and declaration, not {brief(key)}"
            )
        fields[key] = value
    if set(fields) != {"shaker", "bidder", "bid", "declaration"}:
        raise bad("a hand line names the shaker, the bidder, the bid and the declaration")
    seats = []
    for key in ("shaker", "bidder"):
        sm = re.match(r"^S([0-3])$", fields[key])
        if sm is None:
            raise bad(f"the {key} is a seat S0–S3")
        seats.append(SEAT_OF[int(sm.group(1))])
    bm = re.match(r"^P\(([0-9]{1,6})\)$", fields["bid"])
    if bm is None:
        raise bad("the bid is written P(n)")
    word = fields["declaration"]
    if word not in _DECL:
        raise bad("the declaration is P0–P6, DT or NT")
    dealer, bidder = seats
    auction = [
        {"seat": s, "call": "points", "bid": int(bm.group(1))}
        if s == bidder
        else {"seat": s, "call": "pass"}
        for s in (SEAT_OF[(INDEX_OF[dealer] + k) % 4] for k in range(1, 5))
    ]
    hand: dict[str, Any] = {
        "dealer": dealer,
        "deal": {s: [] for s in SEAT_OF},
        "auction": auction,
        "declaration": {"seat": bidder, "trump": _DECL[word]},
        "plays": [],
        "outcome": {"tricks": []},
    }
    return hand, word


def _add_trick(
    m: re.Match[str],
    index: int,
    hand: dict[str, Any],
    start: tuple[int, int],
    at: dict[str, tuple[int, int]],
    ext: dict[str, Any],
    bad: Callable[[str], ForeignFormatError],
) -> None:
    """A trick line's four plays (each placed at its column from ``start``) and the
    trick's winner and points, into hand ``index``; a tile written low end first is
    noted in ``ext``."""
    plays = m.group(2).split(" ")
    if len(plays) != 4:
        raise bad("a trick line has four plays")
    ln, offset = start
    for token in plays:
        pm_ = _PLAY.match(token)
        if pm_ is None:
            raise bad(f"{brief(token)} is not a play such as S1:6-0")
        seat = SEAT_OF[int(pm_.group(1))]
        tile = canonical_tile(int(pm_.group(2)), int(pm_.group(3)))
        if int(pm_.group(2)) < int(pm_.group(3)):
            ext.setdefault("low_first", []).append([index, len(hand["plays"])])
        at[f"/hands/{index}/plays/{len(hand['plays'])}"] = (ln, offset)
        hand["plays"].append({"seat": seat, "tile": tile})
        hand["deal"][seat].append(tile)
        offset += len(token) + 1
    hand["outcome"]["tricks"].append(
        {"winner": SEAT_OF[int(m.group(3))], "points": int(m.group(4))}
    )


def _set_result(m: re.Match[str], out: dict[str, Any]) -> bool:
    """A result line into the hand's outcome: the points, made or set, the marks and the
    score; whether it wrote "marks" for one mark."""
    declaring = _TEAM[int(m.group(1))]
    points = int(m.group(2))
    total = PRESETS["texas-42"].count.total  # a receipt's rules are texas-42's
    split = {declaring: points, _TEAM[1 - int(m.group(1))]: total - points}
    out["points"] = {"A+C": split["A+C"], "B+D": split["B+D"]}
    out["result"] = m.group(3)
    to = _TEAM[int(m.group(6))]
    out["marks"] = {
        "A+C": int(m.group(4)) if to == "A+C" else 0,
        "B+D": int(m.group(4)) if to == "B+D" else 0,
    }
    out["score"] = {"A+C": int(m.group(7)), "B+D": int(m.group(8))}
    return bool(m.group(5))


def _misnumbered(number: str, i: int) -> dict[str, Any]:
    """The warning for hand ``i`` (from 0) that the receipt numbers ``number``."""
    return {
        "hand": i + 1,
        "text": f"the receipt numbers this hand {number}, not {i}: "
        "a deal may be missing (an all-pass redeal has no syntax in a receipt)",
    }


def read_receipt(text: str) -> ParsedMatch:
    """One receipt → one match (a JSON-ready document with each part's line)."""
    pm = ParsedMatch({}, {})
    at = pm.positions
    ext: dict[str, Any] = {}
    hands: list[dict[str, Any]] = []
    warnings: list[dict[str, Any]] = [{"text": ASSUMED_AUCTION}]
    first_dealer: str | None = None
    final: tuple[int, int, int, int] | None = None
    stats: list[str] | None = None
    lines = text.lstrip("\ufeff").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    else:
        ext["no_final_newline"] = True
    for ln, raw in enumerate(lines, start=1):
        line = raw.strip()
        col = len(raw) - len(raw.lstrip()) + 1

        def bad(why: str, raw: str = raw, ln: int = ln, col: int = col) -> ForeignFormatError:
            return ForeignFormatError(f"{why}: {brief(raw.strip())}", ln, col)

        if stats is not None:
            stats.append(raw)
            continue
        if not line:
            continue
        if ln == 1 and line.startswith("rob player"):
            ext["title"] = raw
            continue
        if line.startswith("player: "):
            ext["player"] = raw
            m = re.search(r"first shaker S([0-3])$", line)
            if m:
                first_dealer = SEAT_OF[int(m.group(1))]
            continue
        if line.startswith("non-normative statistics"):
            stats = [raw]
            continue
        if (m := _HAND.match(line)) is not None:
            hand, word = _hand_of(m, bad)
            i = len(hands)
            hp = f"/hands/{i}"
            if int(m.group(1)) != i:
                warnings.append(_misnumbered(m.group(1), i))
            if word in ("D", "N"):
                ext.setdefault("short_declarations", []).append(i)
            hands.append(hand)
            for p in (hp, hp + "/dealer", hp + "/auction", hp + "/declaration", hp + "/deal"):
                at[p] = (ln, col)
            if first_dealer is None:
                first_dealer = hand["dealer"]
            continue
        if (problem := _number_problem(line)) is not None:
            raise bad(problem)
        if not hands:
            raise bad("a receipt's lines after its header are hand blocks")
        hand = hands[-1]
        hp = f"/hands/{len(hands) - 1}"
        if (m := _TRICK.match(line)) is not None:
            _add_trick(m, len(hands) - 1, hand, (ln, col + line.index(": ") + 2), at, ext, bad)
            at[f"{hp}/outcome/tricks/{len(hand['outcome']['tricks']) - 1}"] = (ln, col)
            continue
        if (m := _RESULT.match(line)) is not None:
            if _set_result(m, hand["outcome"]):
                ext.setdefault("plural_marks", []).append(len(hands) - 1)
            at[hp + "/outcome"] = (ln, col)
            continue
        if (m := _MATCH.match(line)) is not None:
            final = (int(m.group(1)), int(m.group(2)), int(m.group(3)), ln)
            continue
        raise bad("not a line of a texas-42 receipt")
    if not hands:
        raise ForeignFormatError("a texas-42 receipt has at least one 'hand N: …' block", 1, 1)
    pm.doc = _receipt_doc(hands, first_dealer, final, stats, warnings, ext, at)
    return pm


def write_receipt(match: Match) -> str:
    """A receipt for ``match`` (which must be valid), or :class:`CannotExport` saying why not."""
    rules, facts = replay_match(match)
    if rules != PRESETS["texas-42"]:
        diff = ", ".join(f"{k}={v[0]!r}" for k, v in rules.differences(PRESETS["texas-42"]).items())
        raise CannotExport(
            f"a receipt's games follow the texas-42 rules; this match differs: {diff}"
        )
    found = (match.__pydantic_extra__ or {}).get(EXTENSION)
    ext: dict[str, Any] = dict(found) if isinstance(found, dict) else {}
    short = set(ext.get("short_declarations", []))
    low_first = {tuple(x) for x in ext.get("low_first", [])}
    plural = set(ext.get("plural_marks", []))
    lines: list[str] = [str(ext.get("title", TITLE))]
    if "player" in ext:
        lines.append(str(ext["player"]))
    for f, hand in zip(facts, match.hands, strict=True):
        n = f.index + 1
        if any(c.rejected for c in hand.auction) or any(p.rejected for p in hand.plays):
            raise CannotExport(f"hand {n} has rejected attempts; a receipt has no syntax for them")
        if f.contract is None or f.trump is None:
            raise CannotExport(
                f"hand {n} has no contract played out; a receipt holds only hands played to the "
                "last tile"
            )
        bids = [c for c in f.calls if c[1].value != "pass"]
        if len(bids) != 1 or f.contract.kind.value != "points" or f.contract.special is not None:
            raise CannotExport(
                f"hand {n}'s auction is not one point bid and three passes; a receipt records only "
                "the winner's point bid"
            )
        if len(f.tricks) != 7 or not f.finished or f.result is None:
            raise CannotExport(
                f"hand {n} is not played to the 7th trick; a receipt needs every tile played"
            )
        decl = {str(k): f"P{k}" for k in range(7)} | {"doubles": "DT", "no-trump": "NT"}
        code = decl[f.trump.value]
        if f.index in short:
            code = code[0]
        seat = f.contract.bidder
        lines.append(
            f"hand {f.index}: shaker S{INDEX_OF[f.dealer]}, bidder S{INDEX_OF[seat]}, "
            f"bid P({f.contract.bid}), declaration {code}"
        )
        k = 0
        for t in f.tricks:
            plays = []
            for s, tile in t.plays:
                hi, lo = high_low(str(tile))
                plays.append(
                    f"S{INDEX_OF[s]}:{lo}-{hi}"
                    if (f.index, k) in low_first
                    else f"S{INDEX_OF[s]}:{hi}-{lo}"
                )
                k += 1
            assert t.winner is not None
            lines.append(
                f"  trick {t.number}: {' '.join(plays)} -> S{INDEX_OF[t.winner]} +{t.points}"
            )
        team: Team = "A+C" if INDEX_OF[seat] % 2 == 0 else "B+D"
        got = f.result.marks
        to = max(got, key=lambda x: got[x])
        unit = "marks" if f.index in plural else "mark"  # the writer's singular, whatever the stake
        lines.append(
            f"  result: declaring T{_TEAM.index(team)} {f.result.points[team]} points -> "
            f"{f.result.outcome.value} "
            f"({got[to]} {unit} to T{_TEAM.index(to)}); marks T0 {f.score['A+C']} - "
            f"{f.score['B+D']} T1"
        )
    final = facts[-1].score if facts else {"A+C": 0, "B+D": 0}
    if match.status == "complete" or ext.get("match_line"):
        lines.append(
            f"match result: T0 {final['A+C']} - {final['B+D']} T1 after {len(facts)} hands"
        )
    lines += [str(x) for x in ext.get("statistics", [])]
    return "\n".join(lines) + ("" if ext.get("no_final_newline") else "\n")


def _receipt_doc(
    hands: list[dict[str, Any]],
    first_dealer: str | None,
    final: tuple[int, int, int, int] | None,
    stats: list[str] | None,
    warnings: list[dict[str, Any]],
    ext: dict[str, Any],
    at: dict[str, tuple[int, int]],
) -> dict[str, Any]:
    """The match the receipt's lines made: its hands, the result its match line gives
    (``final``: the marks, the hands and the line), what the reading noted, and what the
    receipt holds that the format does not."""
    doc: dict[str, Any] = {
        "format": "texas42-log",
        "version": "1.1",
        "rules": {"preset": "texas-42"},
        "first_dealer": first_dealer,
        "status": "unfinished",
        "hands": hands,
    }
    goal = PRESETS["texas-42"].goal
    if final is not None:
        t0, t1, count, ln = final
        if count != len(hands):
            raise ForeignFormatError(
                f"the match line says {count} hands, but the receipt has {len(hands)}", ln, 1
            )
        if max(t0, t1) >= goal:
            doc["status"] = "complete"
            doc["result"] = {"winner": "A+C" if t0 > t1 else "B+D", "marks": {"A+C": t0, "B+D": t1}}
            at["/result"] = (ln, 1)
        else:
            ext["match_line"] = True
    if stats is not None:
        ext["statistics"] = stats
    doc["source"] = {"format": FORMAT, "warnings": warnings}
    if ext:
        doc[EXTENSION] = ext
    return doc
