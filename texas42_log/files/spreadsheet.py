"""The spreadsheet the tool writes (``--to csv``): a row a play, with where it was
played, who played what, and the trick's result. Written only; no file I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..log.model import Match

__all__ = ["CSV_COLUMNS", "csv_rows", "csv_chunk", "csv_renumber", "csv_file"]


def _led_name(suit: int | None) -> str:
    if suit is None:
        return ""
    return {7: "trumps", 8: "doubles"}.get(suit, str(suit))


CSV_COLUMNS = (
    "match",
    "hand",
    "trick",
    "play",
    "seat",
    "tile",
    "led_suit",
    "trump",
    "contract",
    "bidder",
    "winner",
    "points",
)


def csv_rows(matches: Iterable[Match], start: int = 1) -> Iterable[dict[str, Any]]:
    """One row per play (rejected attempts left out): where, who, what, and the trick's result.
    Matches are numbered from ``start``."""
    from ..log.replayed import replay_match

    for m_no, match in enumerate(matches, start=start):
        _, facts = replay_match(match)
        for f in facts:
            if f.contract is None or f.trump is None:
                continue
            contract = f.contract.special or f.contract.kind.value
            trump = "none" if f.contract.special in ("nello", "sevens") else f.trump.value
            k = 0
            for t in f.tricks:
                for seat, tile in t.plays:
                    k += 1
                    complete = t.winner is not None
                    yield {
                        "match": m_no,
                        "hand": f.index + 1,
                        "trick": t.number,
                        "play": k,
                        "seat": seat,
                        "tile": str(tile),
                        "led_suit": _led_name(t.led),
                        "trump": trump,
                        "contract": contract,
                        "bidder": f.contract.bidder,
                        "winner": t.winner if complete else "",
                        "points": t.points if complete else "",
                    }


def csv_chunk(match: Match) -> str:
    """The match's rows as match 1 of a CSV file, its header first. No field of these
    rows ever needs quoting (numbers, seat letters, tile names, suit and contract words),
    so they are joined as the csv module would write them."""
    rows = (",".join(str(row[c]) for c in CSV_COLUMNS) + "\n" for row in csv_rows([match]))
    return ",".join(CSV_COLUMNS) + "\n" + "".join(rows)


def csv_renumber(first: str, number: int) -> str:
    """Match 1's rows made match ``number``'s: the header gone, the first column set."""
    rows = first.split("\n", 1)[1]
    return "".join(f"{number}," + row.split(",", 1)[1] for row in rows.splitlines(keepends=True))


def csv_file(matches: list[Match]) -> str:
    if not matches:
        return ",".join(CSV_COLUMNS) + "\n"  # the header alone
    first = [csv_chunk(m) for m in matches]
    return "".join(t if k == 1 else csv_renumber(t, k) for k, t in enumerate(first, start=1))
