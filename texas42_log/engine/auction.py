"""The one-round auction (R7–R11) and its variants. Pure: no I/O.

Variants come from :class:`~texas42_log.engine.rules.Rules`: a dealer forced to bid
after three passes (seeds 003/004), the mark ladder (exact raise or free
jumps), and the bid-time special contracts Plunge and Splash, which need the
bidder to hold enough doubles (seed 004, docs/conversions.md). Nel-O and Sevens are
declared after a mark bid (see :meth:`Contract.declare`).
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from typing import Final, Literal

from .errors import IllegalAction
from .rules import Rules
from .seats import SEATS, Seat, next_seat, partner
from .tiles import Tile

__all__ = [
    "BidKind",
    "Contract",
    "Auction",
    "Special",
    "BidSpecial",
    "count_doubles",
    "MARK_SIZE",
]

#: A mark in the auction's order (R8): a 1-mark bid ranks as a bid of 42 points, above
#: every point bid. The bids' order, not the count (:mod:`.count` says what a hand holds).
MARK_SIZE: Final = 42


class BidKind(enum.StrEnum):
    """The kind of a call (R7–R9)."""

    PASS = "pass"
    POINTS = "points"
    MARKS = "marks"


Special = Literal["nello", "plunge", "splash", "sevens"]
BidSpecial = Literal["plunge", "splash"]


def declared_special_floor(rules: Rules) -> int | None:
    """The fewest marks a special contract declared after a plain mark bid (Nel-O,
    Sevens) takes under ``rules``, or ``None`` when neither is played: where mark bids
    must be special contracts (``plain_mark_bids`` false), the lowest mark bid that can be
    declared one (:mod:`.declare` checks the declaration itself)."""
    least: list[int] = []
    if rules.nello:
        least.append(rules.nello_min_marks)
        choosing = rules.nello_doubles in ("bidder-chooses", "own-suit-or-low")
        if choosing and rules.nello_low_min_marks is not None:
            least.append(rules.nello_low_min_marks)
    if rules.sevens:
        least.append(rules.sevens_min_marks)
    return min(least) if least else None


def highest_mark_bid(rules: Rules, above: int | None = None) -> int:
    """The most marks any call of one auction under ``rules`` can bid (plain, Plunge or
    Splash; 0 if none), found by playing out every auction of passes, mark calls and
    the lowest and highest point bids (point bids of other sizes open no other mark
    call). For parts of the tool that hold a call in a fixed space (the environments).
    With ``above``, the search stops at the first bid past it (that bid is returned): a
    space's question needs no more."""
    cached = _HIGHEST.get(rules)
    if cached is not None:
        return cached
    best = 0
    Calls = list[tuple[Seat, BidKind, "int | None", "BidSpecial | None"]]
    stack: list[Calls] = [[]]
    while stack:
        calls = stack.pop()
        auction = Auction(rules, "D")
        for seat, kind, bid, special in calls:
            auction.apply(seat, kind, bid, special)
        caller = auction.to_call
        if caller is None:
            continue
        for kind, bid, special in auction.legal_calls():
            if kind is BidKind.POINTS and bid not in (rules.min_point_bid, rules.max_point_bid):
                continue
            if kind is BidKind.MARKS and bid is not None:
                best = max(best, bid)
                if above is not None and best > above:
                    return best  # not cached: not the most
            stack.append([*calls, (caller, kind, bid, special)])
    if len(_HIGHEST) >= 256:  # rules of one's own, made without end: kept bounded
        _HIGHEST.clear()
    _HIGHEST[rules] = best
    return best


_HIGHEST: dict[Rules, int] = {}


@dataclass(frozen=True, slots=True)
class Contract:
    """The winning bid: who, what kind, how much (R8–R10, R23), and a special contract."""

    bidder: Seat
    kind: BidKind
    bid: int
    special: Special | None = None

    def __reduce__(self) -> tuple[type[Contract], tuple[Seat, BidKind, int, Special | None]]:
        """Pickled by its fields (the compiled class has no setattr for pickle's default way)."""
        return Contract, (self.bidder, self.kind, self.bid, self.special)

    @property
    def marks(self) -> int:
        """R23: a point contract is worth 1 mark, a mark contract its bid."""
        return 1 if self.kind is BidKind.POINTS else self.bid

    @property
    def all_tricks(self) -> bool:
        """The bidders must win every trick (plain mark bids, Plunge, Splash, Sevens)."""
        return self.kind is BidKind.MARKS and self.special != "nello"

    @property
    def declarer(self) -> Seat:
        """Who declares trumps and leads trick 1: the partner after a Plunge or Splash."""
        return partner(self.bidder) if self.special in ("plunge", "splash") else self.bidder

    def declare(self, special: Literal["nello", "sevens"]) -> Contract:
        """This mark contract played as Nel-O or Sevens."""
        return replace(self, special=special)

    def describe(self) -> str:
        if self.kind is BidKind.POINTS:
            return f"{self.bidder} bid {self.bid} points"
        unit = "mark" if self.bid == 1 else "marks"
        what = {
            None: "all tricks",
            "nello": "Nel-O",
            "plunge": "a Plunge",
            "splash": "a Splash",
            "sevens": "Sevens",
        }
        return f"{self.bidder} bid {what[self.special]} for {self.bid} {unit}"


class Auction:
    """One auction. :meth:`call` is the checked path: it raises :class:`IllegalAction`
    and leaves the auction unchanged (R30)."""

    __slots__ = (
        "rules",
        "dealer",
        "calls",
        "doubles",
        "_high_points",
        "_high_marks",
        "_winner",
        "_special",
        "_order",
        "_last",
        "_h",
        "_best",
    )

    def __init__(
        self, rules: Rules, dealer: Seat, doubles: dict[Seat, tuple[int, int]] | None = None
    ) -> None:
        """``doubles``: per seat, (doubles known to be held, tiles not known) — for the
        Plunge and Splash requirements; without it they are taken as met."""
        self.rules = rules
        self.dealer = dealer
        self.calls: list[tuple[Seat, BidKind, int | None]] = []
        self.doubles = doubles
        self._high_points: int | None = None
        self._high_marks: int | None = None
        self._winner: Seat | None = None
        self._special: BidSpecial | None = None
        # Option special_bids "aside": the last bid made (kind, size, special), the highest
        # mark, Plunge or Splash size so far, and the best bid (its value, seat, kind, size,
        # special).
        self._last: tuple[BidKind, int, BidSpecial | None] | None = None
        self._h = 0
        self._best: tuple[int, Seat, BidKind, int, BidSpecial | None] | None = None
        # R7: the four calls in turn, from the dealer's left.
        self._order: tuple[Seat, ...] = tuple(next_seat(dealer, k) for k in range(1, 5))

    @property
    def to_call(self) -> Seat | None:
        """R7: whose call it is, starting left of the dealer; None when all four have called."""
        n = len(self.calls)
        return self._order[n] if n < 4 else None

    @property
    def done(self) -> bool:
        return len(self.calls) >= 4

    @property
    def high_bid(self) -> str:
        """The current highest bid, in words, for messages."""
        if self._best is not None:
            b = self._best
            return self._describe(b[2], b[3], b[4])
        if self._high_marks is not None:
            return f"{self._high_marks} marks"
        if self._high_points is not None:
            return f"{self._high_points} points"
        return "no bid yet"

    def contract(self) -> Contract | None:
        """The contract once all four have called; None if all passed (R11) or not done."""
        if not self.done or self._winner is None:
            return None
        if self._best is not None:
            _, seat, kind, size, special = self._best
            return Contract(seat, kind, size, special)
        if self._high_marks is not None:
            return Contract(self._winner, BidKind.MARKS, self._high_marks, self._special)
        assert self._high_points is not None
        return Contract(self._winner, BidKind.POINTS, self._high_points)

    def check(
        self, seat: Seat, kind: BidKind, bid: int | None, special: BidSpecial | None = None
    ) -> None:
        """Raise :class:`IllegalAction` if this call is illegal now; change nothing."""
        expected = self.to_call
        if expected is None:
            raise IllegalAction(
                "R7", f"{seat} makes a fifth call; each player calls exactly once (R7)"
            )
        if seat != expected:
            raise IllegalAction(
                "R7",
                f"{seat} calls out of turn; it is {expected}'s call "
                f"(calls go clockwise from the dealer {self.dealer}'s left) (R7)",
                {"expected_seat": expected},
            )
        r = self.rules
        if kind is BidKind.PASS and r.all_pass == "redeal":
            return  # R7, R11: anyone may pass
        forced = r.all_pass != "redeal" and seat == self.dealer and self._winner is None
        if forced:
            self._check_forced(seat, kind, bid)
        if kind is BidKind.MARKS and special is None and not r.plain_mark_bids:
            assert bid is not None
            self._check_plain_marks(seat, bid)
        if r.special_bids == "aside":
            self._check_aside(seat, kind, bid, special)
        elif special is not None:
            assert bid is not None and kind is BidKind.MARKS
            self._check_special(seat, bid, special)
        elif kind is BidKind.POINTS:
            assert bid is not None
            if self._high_marks is not None:
                raise IllegalAction(
                    "R9",
                    f"{seat} bids {bid} points after an all-tricks bid of {self._high_marks} "
                    "marks; no point bid beats a mark bid (R9)",
                    {"high_bid": self.high_bid},
                )
            if not (r.min_point_bid <= bid <= r.max_point_bid):
                raise IllegalAction(
                    "R8",
                    f"{seat} bids {bid} points; a point bid is {r.min_point_bid}–"
                    f"{r.max_point_bid} (R8)",
                )
            if self._high_points is not None and bid <= self._high_points:
                raise IllegalAction(
                    "R8",
                    f"{seat} bids {bid} points, which does not exceed the current "
                    f"{self._high_points} (R8)",
                    {"high_bid": self.high_bid},
                )
        elif kind is BidKind.MARKS:
            assert bid is not None
            if bid > r.max_mark_bid:
                raise IllegalAction(
                    "R9", f"{seat} bids {bid} marks; the highest mark bid is {r.max_mark_bid} (R9)"
                )
            if self._high_marks is None:
                if not (1 <= bid <= r.max_opening_mark_bid):
                    raise IllegalAction(
                        "R9",
                        f"{seat} opens the all-tricks bidding at {bid} marks; the first "
                        f"all-tricks bid is 1 to {r.max_opening_mark_bid} marks (R9)",
                    )
            elif r.mark_ladder == "free":
                if bid <= self._high_marks:
                    raise IllegalAction(
                        "R9",
                        f"{seat} bids {bid} marks, which does not exceed the current "
                        f"{self._high_marks} marks (R9)",
                        {"high_bid": self.high_bid},
                    )
            elif bid != self._high_marks + r.mark_bid_raise:
                raise IllegalAction(
                    "R9",
                    f"{seat} bids {bid} marks over {self._high_marks}; a later all-tricks "
                    f"bid adds exactly {r.mark_bid_raise} mark, so it must be "
                    f"{self._high_marks + r.mark_bid_raise} (R9)",
                    {"high_bid": self.high_bid},
                )

    def _check_plain_marks(self, seat: Seat, bid: int) -> None:
        """Option plain_mark_bids false: a mark bid stands only where a special contract
        declared after it (Nel-O, Sevens) can follow, so no declaration is left with no
        legal choice."""
        floor = declared_special_floor(self.rules)
        if floor is None or bid < floor:
            raise IllegalAction(
                "variant:plain_mark_bids",
                f"{seat} bids {bid} mark{'s' if bid != 1 else ''}; under these rules a mark "
                "bid is a special contract (plain_mark_bids = false), and "
                + (
                    "none is declared after a mark bid here (nello and sevens are false)"
                    if floor is None
                    else f"Nel-O or Sevens needs at least {floor} marks"
                ),
            )

    def _check_aside(
        self, seat: Seat, kind: BidKind, bid: int | None, special: BidSpecial | None
    ) -> None:
        """Option special_bids "aside" (the mk5 app): each bid is judged against the last bid
        made, a Plunge or Splash counting as no points; a Plunge or Splash may always be bid."""
        r = self.rules
        if kind is BidKind.PASS:
            return
        assert bid is not None
        if special is not None:
            self._check_special(seat, bid, special)
            return
        last = self._last
        base = (
            0
            if last is None
            else (
                0
                if last[2] is not None
                else (last[1] if last[0] is BidKind.POINTS else MARK_SIZE * last[1])
            )
        )
        after = "no bid yet" if last is None else self._describe(last[0], last[1], last[2])
        if kind is BidKind.POINTS:
            if not (r.min_point_bid <= bid <= r.max_point_bid):
                raise IllegalAction(
                    "R8",
                    f"{seat} bids {bid} points; a point bid is {r.min_point_bid}–{r.max_point_bid} "
                    "(R8)",
                )
            if bid <= base:
                rule = "R9" if last is not None and last[0] is BidKind.MARKS else "R8"
                raise IllegalAction(
                    rule,
                    f"{seat} bids {bid} points after {after}; a bid must be worth more than the "
                    "last bid "
                    f"made ({rule}; special_bids is aside)",
                    {"last_bid": after},
                )
            return
        if not (1 <= bid <= r.max_mark_bid):
            raise IllegalAction(
                "R9", f"{seat} bids {bid} marks; a mark bid is 1 to {r.max_mark_bid} marks (R9)"
            )
        if last is None or last[0] is BidKind.POINTS:
            if bid > r.max_opening_mark_bid:
                raise IllegalAction(
                    "R9",
                    f"{seat} opens the all-tricks bidding at {bid} marks after {after}; the first "
                    f"all-tricks bid is 1 to {r.max_opening_mark_bid} marks (R9)",
                )
        elif last[2] is None and bid != last[1] + r.mark_bid_raise:
            raise IllegalAction(
                "R9",
                f"{seat} bids {bid} marks after {after}; a later all-tricks bid adds exactly "
                f"{r.mark_bid_raise} mark to the last, so it must be {last[1] + r.mark_bid_raise} "
                "(R9)",
                {"last_bid": after},
            )

    @staticmethod
    def _describe(kind: BidKind, size: int, special: BidSpecial | None) -> str:
        if special is not None:
            return f"a {special.capitalize()} of {size} marks"
        return (
            f"{size} points" if kind is BidKind.POINTS else f"{size} mark{'s' if size != 1 else ''}"
        )

    def _check_forced(self, seat: Seat, kind: BidKind, bid: int | None) -> None:
        """Seeds 003/004: after three passes the dealer may not pass (option all_pass)."""
        r = self.rules
        if kind is BidKind.PASS:
            what = "must bid" if r.all_pass == "dealer-must-bid" else f"must bid {r.all_pass[-2:]}"
            raise IllegalAction(
                "variant:all_pass",
                f"{seat} passes, but after three passes the dealer {what}: all_pass is "
                f"{r.all_pass}, the seeds' forced bid in place of R11's redeal",
            )
        if r.all_pass in ("dealer-bids-30", "dealer-bids-31"):
            need = int(r.all_pass[-2:])
            if kind is not BidKind.POINTS or bid != need:
                raise IllegalAction(
                    "variant:all_pass",
                    f"{seat} bids {bid} {kind.value}, but after three passes the dealer bids "
                    f"exactly {need} points: all_pass is {r.all_pass}",
                )

    def _doubles_short(self, seat: Seat, need: int) -> int | None:
        """How many doubles ``seat`` is known to hold, if that proves it holds fewer than
        ``need``."""
        if self.doubles is None:
            return None
        known, unknown = self.doubles[seat]
        return known if known + unknown < need else None

    def _check_special(self, seat: Seat, bid: int, special: BidSpecial) -> None:
        """Plunge and Splash (seed 004, docs/conversions.md plunge): doubles held, and the bid's
        size."""
        r = self.rules
        rule = f"variant:{special}"
        name = special.capitalize()
        if not (r.plunge if special == "plunge" else r.splash):
            raise IllegalAction(
                rule, f"{seat} bids a {name}, but these rules have no {name}: {special} is false"
            )
        need = r.plunge_min_doubles if special == "plunge" else r.splash_min_doubles
        held = self._doubles_short(seat, need)
        if held is not None:
            raise IllegalAction(
                rule,
                f"{seat} bids a {name} holding {held} double{'s' if held != 1 else ''}; a {name} "
                f"needs at least {need}",
                {"doubles_held": held},
            )
        high = self._high_marks or 0
        if r.special_bids == "aside":
            # The mk5 app: its own size, from the highest mark-sized bid so far; always allowed.
            h = self._h
            if special == "plunge":
                size, how = max(r.plunge_marks, h + 1), f"max({r.plunge_marks}, h + 1)"
            else:
                size = min(r.splash_max_marks, max(r.splash_min_marks, h + 1))
                how = f"min({r.splash_max_marks}, max({r.splash_min_marks}, h + 1))"
            if bid != size:
                raise IllegalAction(
                    rule,
                    f"{seat} bids a {name} of {bid} marks; here a {name} is {size} marks: {how}, "
                    f"h = {h} the highest mark, Plunge or Splash bid so far (special_bids is "
                    "aside)",
                )
            return
        if special == "plunge" and r.mark_ladder == "free":
            # Free jumps (docs/conversions.md tricksy): any size from the Plunge's least, above the
            # high bid.
            if bid < r.plunge_marks or bid <= high or bid > r.max_mark_bid:
                raise IllegalAction(
                    rule,
                    f"{seat} bids a Plunge of {bid} marks; with free jumps a Plunge is "
                    f"{r.plunge_marks} to {r.max_mark_bid} marks and above the high bid "
                    f"({self.high_bid})",
                    {"high_bid": self.high_bid},
                )
        elif special == "plunge":
            expected = max(r.plunge_marks, high + 1)
            if bid != expected:
                raise IllegalAction(
                    rule,
                    f"{seat} bids a Plunge of {bid} marks; a Plunge is {r.plunge_marks} marks, "
                    f"or one more than the high mark bid ({expected} here)",
                    {"high_bid": self.high_bid},
                )
        elif r.mark_ladder == "free":
            # Free jumps (docs/conversions.md tricksy): any size in the Splash's range, above the
            # high bid.
            if not (r.splash_min_marks <= bid <= r.splash_max_marks) or bid <= high:
                raise IllegalAction(
                    rule,
                    f"{seat} bids a Splash of {bid} marks; with free jumps a Splash is "
                    f"{r.splash_min_marks} to "
                    f"{r.splash_max_marks} marks and above the high bid ({self.high_bid})",
                    {"high_bid": self.high_bid},
                )
        else:
            # The plunge app: the least Splash when it beats the high bid, or one more
            # than the high mark bid directly over it (3 directly over 2), never a jump.
            least = r.splash_min_marks
            raise_ok = self._high_marks is not None and high >= least and bid == high + 1
            if bid > r.splash_max_marks or bid <= high or not (bid == least or raise_ok):
                ways = f"{least} marks above a lower bid"
                if r.splash_max_marks > least:
                    ways += f", or one more than a mark bid of {least} or more, directly over it"
                raise IllegalAction(
                    rule,
                    f"{seat} bids a Splash of {bid} marks (high bid: {self.high_bid}); a Splash is "
                    f"{ways}, "
                    f"at most {r.splash_max_marks}",
                    {"high_bid": self.high_bid},
                )

    def call(
        self, seat: Seat, kind: BidKind, bid: int | None = None, special: BidSpecial | None = None
    ) -> None:
        """Checked: validate then apply one call."""
        self.check(seat, kind, bid, special)
        self.apply(seat, kind, bid, special)

    def apply(
        self, seat: Seat, kind: BidKind, bid: int | None = None, special: BidSpecial | None = None
    ) -> None:
        """Unchecked: apply one call of an already-validated log."""
        self.calls.append((seat, kind, bid))
        if self.rules.special_bids == "aside":
            if kind is BidKind.PASS or bid is None:
                return
            self._last = (kind, bid, special)
            if kind is BidKind.MARKS:
                self._h = max(self._h, bid)
            value = bid if kind is BidKind.POINTS else MARK_SIZE * bid
            if self._best is None or value > self._best[0]:  # a tie goes to the earlier bid
                self._best = (value, seat, kind, bid, special)
            self._winner = self._best[1]
            return
        if kind is BidKind.POINTS:
            self._high_points = bid
            self._winner = seat
        elif kind is BidKind.MARKS:
            self._high_marks = bid
            self._winner = seat
            self._special = special

    def lowest_point_bid(self) -> int | None:
        """The lowest point bid the seat to call may make now (R8 and every option of
        the auction), or None when it may make none: what a generator or a bot raises
        from, asked of the auction instead of read from the rules' fields."""
        seat = self.to_call
        if seat is None:
            return None
        r = self.rules
        for b in range(r.min_point_bid, r.max_point_bid + 1):
            try:
                self.check(seat, BidKind.POINTS, b, None)
            except IllegalAction:
                continue
            return b
        return None

    def legal_calls(self) -> list[tuple[BidKind, int | None, BidSpecial | None]]:
        """Every legal call for the seat to call now (for generators and tools)."""
        seat = self.to_call
        if seat is None:
            return []
        r = self.rules
        candidates: list[tuple[BidKind, int | None, BidSpecial | None]] = [
            (BidKind.PASS, None, None)
        ]
        candidates += [
            (BidKind.POINTS, b, None) for b in range(r.min_point_bid, r.max_point_bid + 1)
        ]
        top = max(r.max_mark_bid, r.plunge_marks + 4, r.splash_max_marks)
        for b in range(1, top + 1):
            candidates.append((BidKind.MARKS, b, None))
            candidates.append((BidKind.MARKS, b, "plunge"))
            candidates.append((BidKind.MARKS, b, "splash"))
        out = []
        for kind, bid, special in candidates:
            try:
                self.check(seat, kind, bid, special)
            except IllegalAction:
                continue
            out.append((kind, bid, special))
        return out


def count_doubles(known: Mapping[Seat, Collection[Tile]]) -> dict[Seat, tuple[int, int]]:
    """(doubles known, tiles unknown) per seat, from each seat's known tiles (7 dealt)."""
    out: dict[Seat, tuple[int, int]] = {}
    for s in SEATS:
        tiles = known.get(s, ())
        out[s] = (sum(1 for t in tiles if t.is_double), 7 - len(tiles))
    return out
