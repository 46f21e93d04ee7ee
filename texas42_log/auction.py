"""The one-round auction (R7–R11). Pure: no I/O."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .errors import IllegalAction
from .rules import Rules
from .seats import Seat, next_seat

__all__ = ["BidKind", "Contract", "Auction"]


class BidKind(enum.StrEnum):
    """The kind of a call (R7–R9)."""

    PASS = "pass"
    POINTS = "points"
    MARKS = "marks"


@dataclass(frozen=True, slots=True)
class Contract:
    """The winning bid: who, what kind, how much (R8–R10, R23)."""

    bidder: Seat
    kind: BidKind
    bid: int

    @property
    def marks(self) -> int:
        """R23: a point contract is worth 1 mark, an all-tricks contract its bid."""
        return 1 if self.kind is BidKind.POINTS else self.bid

    @property
    def all_tricks(self) -> bool:
        return self.kind is BidKind.MARKS

    def describe(self) -> str:
        if self.kind is BidKind.POINTS:
            return f"{self.bidder} bid {self.bid} points"
        unit = "mark" if self.bid == 1 else "marks"
        return f"{self.bidder} bid all tricks for {self.bid} {unit}"


class Auction:
    """One auction. :meth:`call` is the checked path: it raises :class:`IllegalAction`
    and leaves the auction unchanged (R30)."""

    __slots__ = ("rules", "dealer", "calls", "_high_points", "_high_marks", "_winner")

    def __init__(self, rules: Rules, dealer: Seat) -> None:
        self.rules = rules
        self.dealer = dealer
        self.calls: list[tuple[Seat, BidKind, int | None]] = []
        self._high_points: int | None = None
        self._high_marks: int | None = None
        self._winner: Seat | None = None

    @property
    def to_call(self) -> Seat | None:
        """R7: whose call it is, starting left of the dealer; None when all four have called."""
        if len(self.calls) >= 4:
            return None
        return next_seat(self.dealer, 1 + len(self.calls))

    @property
    def done(self) -> bool:
        return len(self.calls) >= 4

    @property
    def high_bid(self) -> str:
        """The current highest bid, in words, for messages."""
        if self._high_marks is not None:
            return f"{self._high_marks} marks"
        if self._high_points is not None:
            return f"{self._high_points} points"
        return "no bid yet"

    def contract(self) -> Contract | None:
        """The contract once all four have called; None if all passed (R11) or not done."""
        if not self.done or self._winner is None:
            return None
        if self._high_marks is not None:
            return Contract(self._winner, BidKind.MARKS, self._high_marks)
        assert self._high_points is not None
        return Contract(self._winner, BidKind.POINTS, self._high_points)

    def check(self, seat: Seat, kind: BidKind, bid: int | None) -> None:
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
        if kind is BidKind.POINTS:
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
            if self._high_marks is None:
                if not (1 <= bid <= r.max_opening_mark_bid):
                    raise IllegalAction(
                        "R9",
                        f"{seat} opens the all-tricks bidding at {bid} marks; the first "
                        f"all-tricks bid is 1 to {r.max_opening_mark_bid} marks (R9)",
                    )
            elif bid != self._high_marks + r.mark_bid_raise:
                raise IllegalAction(
                    "R9",
                    f"{seat} bids {bid} marks over {self._high_marks}; a later all-tricks "
                    f"bid adds exactly {r.mark_bid_raise} mark, so it must be "
                    f"{self._high_marks + r.mark_bid_raise} (R9)",
                    {"high_bid": self.high_bid},
                )

    def call(self, seat: Seat, kind: BidKind, bid: int | None = None) -> None:
        """Checked: validate then apply one call."""
        self.check(seat, kind, bid)
        self.apply(seat, kind, bid)

    def apply(self, seat: Seat, kind: BidKind, bid: int | None = None) -> None:
        """Unchecked: apply one call of an already-validated log."""
        self.calls.append((seat, kind, bid))
        if kind is BidKind.POINTS:
            self._high_points = bid
            self._winner = seat
        elif kind is BidKind.MARKS:
            self._high_marks = bid
            self._winner = seat
