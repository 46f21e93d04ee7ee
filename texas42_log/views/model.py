"""The view objects: what one observer may see at one moment of a hand, as plain data.

:mod:`texas42_log.views.visibility` builds them (the visibility rules R25–R29 are decided
there, once); every renderer reads them and nothing else. A :class:`View` holds
only what its observer may see, and :meth:`View.as_dict` is its JSON form
(``texas42-view`` version 1; keys are only ever added).

Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

from ..engine.seats import Seat, Team

__all__ = [
    "OBSERVERS",
    "Observer",
    "MomentKind",
    "Moment",
    "PlayedTile",
    "CurrentTrick",
    "WonTrick",
    "ContractView",
    "Note",
    "PlayAnalysisView",
    "AnalysisView",
    "FairPlayView",
    "FairView",
    "AuctionFairView",
    "View",
    "parse_observer",
    "VIEW_FORMAT",
    "VIEW_VERSION",
]

Observer = Literal["A", "B", "C", "D", "public", "review", "omniscient"]
OBSERVERS: Final[tuple[Observer, ...]] = ("A", "B", "C", "D", "public", "review", "omniscient")
MomentKind = Literal["call", "auction", "declaration", "play", "trick", "end"]
VIEW_FORMAT: Final = "texas42-view"
VIEW_VERSION: Final = 1


def parse_observer(text: str) -> Observer:
    """``"a"`` → ``"A"``, ``"Public"`` → ``"public"``; :class:`ValueError` lists the choices."""
    t = text.strip()
    for o in OBSERVERS:
        if t == o or (len(o) == 1 and t.upper() == o) or (len(o) > 1 and t.lower() == o):
            return o
    raise ValueError(f"unknown observer {text!r}; choose one of {', '.join(OBSERVERS)}")


@dataclass(frozen=True, slots=True)
class Moment:
    """A moment of a hand; see the module docs. ``number``: plays for ``play``, a trick for
    ``trick``."""

    kind: MomentKind
    number: int = 0

    @classmethod
    def auction(cls) -> Moment:
        return cls("auction")

    @classmethod
    def after_call(cls, k: int) -> Moment:
        """Just after the ``k``-th call (from 1) of the auction."""
        return cls("call", k)

    @classmethod
    def declaration(cls) -> Moment:
        return cls("declaration")

    @classmethod
    def after_play(cls, k: int) -> Moment:
        return cls("declaration") if k == 0 else cls("play", k)

    @classmethod
    def after_trick(cls, t: int) -> Moment:
        return cls("trick", t)

    @classmethod
    def end(cls) -> Moment:
        return cls("end")


@dataclass(frozen=True, slots=True)
class PlayedTile:
    """A tile on the table: its play-order number in the trick, who played it."""

    order: int
    seat: Seat
    tile: str


@dataclass(frozen=True, slots=True)
class CurrentTrick:
    """The trick on the table (R25): tiles with players and order, public."""

    number: int
    leader: Seat
    plays: tuple[PlayedTile, ...]
    winner: Seat | None = None
    points: int | None = None
    #: The suit its leader declared the lead tile to lead (option declared_lead), when
    #: not the suit the tile leads anyway (R14): said aloud at the table, so public.
    declared: int | None = None


@dataclass(frozen=True, slots=True)
class WonTrick:
    """A completed trick as the observer may see it (R26–R29).

    ``faces`` are sorted (R28), or ``None`` when the trick is covered (R27).
    ``plays`` and ``winner`` are given only after the hand (review, R29) and to
    the omniscient observer.
    """

    number: int
    team: Team
    faces: tuple[str, ...] | None
    points: int | None
    plays: tuple[PlayedTile, ...] | None = None
    winner: Seat | None = None


@dataclass(frozen=True, slots=True)
class ContractView:
    """The contract: public once the auction is over (R25)."""

    bidder: Seat
    kind: Literal["points", "marks"]
    bid: int
    marks: int
    trump: str | None
    #: "all" (R26), "last-1" or "last-2" (R27); None before the declaration.
    visibility: Literal["all", "last-1", "last-2"] | None
    #: "nello", "plunge", "splash", "sevens" (rule variants), or None.
    special: str | None = None
    #: Who declares and leads: the bidder, or its partner after a Plunge or Splash.
    declarer: Seat | None = None
    #: Where a Nel-O declaration put the doubles ("high", "low", "own-suit"), when it says.
    doubles: str | None = None


@dataclass(frozen=True, slots=True)
class Note:
    """An annotation, with what it is attached to ("match", "hand", "call 2", "play 5",
    "declaration")."""

    on: str
    text: str
    author: str | None = None
    #: The comment's id (format 1.7), or for one without an id where it is:
    #: ``@hand 2 play 13#1`` (the first comment on play 13 of hand 2).
    id: str = ""
    #: The seat whose board address wrote it (format 1.9); None: the log's owner.
    seat: str | None = None
    #: Who last edited it on the board, when not its writer alone ("owner" or a seat).
    edited_by: str | None = None


@dataclass(frozen=True, slots=True)
class PlayAnalysisView:
    """The stated open-hand analysis of one play, as the observer may see it.

    ``best`` and ``values`` name only tiles the observer may see: for ``review``
    the tiles each seat plays in the hand (R29: a tile never played stays hidden),
    for ``omniscient`` every one; ``hidden_best`` is set when a best play is a tile
    the observer may not see."""

    order: int
    seat: Seat
    tile: str
    value: int
    best_value: int
    cost: int
    fate: str | None
    best: tuple[str, ...]
    hidden_best: bool
    values: dict[str, int]


@dataclass(frozen=True, slots=True)
class AnalysisView:
    """A hand's stated open-hand analysis at a moment: only ever in a view for
    ``review`` (after the hand) or ``omniscient``; never for a seat or the public."""

    #: The bidders' hand points with best play from the first lead, and so makeable or not.
    value: int | None
    makeable: bool | None
    #: Trump choice → the bidders' hand points with best play, the bidder leading.
    table: dict[str, int] | None
    #: The plays made up to this moment that carry an analysis.
    plays: tuple[PlayAnalysisView, ...]
    #: The values of the plays open at this moment (the next play's alternatives), as visible.
    now: dict[str, int] | None
    #: The best of ``now`` for the seat to play.
    now_best: tuple[str, ...] = ()
    #: Trump choice → whether the contract is made with it (``table``'s values judged
    #: by the contract's own measure, :func:`texas42_log.engine.solver.makeable`).
    table_makeable: dict[str, bool] | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "makeable": self.makeable,
            "table": None if self.table is None else dict(self.table),
            "plays": [
                {
                    "order": p.order,
                    "seat": p.seat,
                    "tile": p.tile,
                    "value": p.value,
                    "best_value": p.best_value,
                    "cost": p.cost,
                    "fate": p.fate,
                    "best": list(p.best),
                    "hidden_best": p.hidden_best,
                    "values": dict(p.values),
                }
                for p in self.plays
            ],
            "now": None if self.now is None else dict(self.now),
            "now_best": list(self.now_best),
            "table_makeable": None if self.table_makeable is None else dict(self.table_makeable),
        }


@dataclass(frozen=True, slots=True)
class FairPlayView:
    """The stated fair analysis of one play (format 1.4), as the observer may see it:
    ``values`` (play → mean, share) and ``best`` name only tiles the observer may see;
    ``hidden_best`` is set when a best play is a tile it may not."""

    order: int
    seat: Seat
    tile: str
    forced: bool
    cost: float
    chance_lost: float
    mark: str | None
    best: tuple[str, ...]
    hidden_best: bool
    values: dict[str, tuple[float, float]]


@dataclass(frozen=True, slots=True)
class FairView:
    """A hand's stated fair analysis at a moment. A seat sees that of its own plays
    (it is a function of its own view) and, when it is to play, the values open to it
    now; ``review`` and ``omniscient`` see every play's; the public and the other
    seats see none."""

    plays: tuple[FairPlayView, ...]
    #: The fair values of the plays open at this moment (play → mean, share), as visible.
    now: dict[str, tuple[float, float]] | None
    #: The best fair play of this moment's decision, as the log states it (since 1.6), when
    #: the observer may see it; the page highlights its tile.
    now_best: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "plays": [
                {
                    "order": p.order,
                    "seat": p.seat,
                    "tile": p.tile,
                    "forced": p.forced,
                    "cost": p.cost,
                    "chance_lost": p.chance_lost,
                    "mark": p.mark,
                    "best": list(p.best),
                    "hidden_best": p.hidden_best,
                    "values": {k: {"mean": m, "share": sh} for k, (m, sh) in p.values.items()},
                }
                for p in self.plays
            ],
            "now": None
            if self.now is None
            else {k: {"mean": m, "share": sh} for k, (m, sh) in self.now.items()},
        } | ({} if self.now_best is None else {"now_best": self.now_best})


@dataclass(frozen=True, slots=True)
class AuctionFairView:
    """The stated fair verdicts of the auction (format 1.8) as the observer may see them:
    a seat those of its own calls and of its own declaration (each is a function of its
    own tiles), ``review`` and ``omniscient`` all; the public and the other seats none.
    Each verdict is the log's own object (docs/format.md) with where it is: ``order`` (the
    call's number among the calls, from 1), ``seat`` and ``call``."""

    calls: tuple[dict[str, Any], ...]
    declaration: dict[str, Any] | None

    def as_dict(self) -> dict[str, Any]:
        return {
            "calls": [dict(c) for c in self.calls],
            "declaration": None if self.declaration is None else dict(self.declaration),
        }


@dataclass(frozen=True, slots=True)
class View:
    """One moment of one hand as one observer may see it. Plain data; see :meth:`as_dict`."""

    observer: Observer
    hand: int
    dealer: Seat
    #: "marks" (R24), or "points" when the match is played to 250 points (seed 004).
    score_unit: str
    #: Nel-O: the bidder's partner, who plays no tile this hand.
    sits_out: Seat | None
    moment: MomentKind
    #: Tiles played so far in this hand.
    play: int
    #: True once the contract is decided (or all four passed).
    over: bool
    players: dict[Seat, str]
    marks: dict[Team, int]
    #: Calls as (seat, call, bid, special); mark bids in marks.
    auction: tuple[tuple[Seat, str, int | None, str | None], ...]
    contract: ContractView | None
    trick: CurrentTrick | None
    counts: dict[Seat, int]
    won: tuple[WonTrick, ...]
    tricks_won: dict[Team, int]
    #: Hand points per team, when every won face is visible to this observer.
    points: dict[Team, int] | None
    #: Tiles the observer may see in each seat's hand (only seats with some).
    hands: dict[Seat, tuple[str, ...]]
    #: Tiles in each seat's hand the observer may not see.
    hidden: dict[Seat, int]
    to_play: Seat | None
    #: "made", "set" or "no-contract" once over; marks this hand gave.
    result: str | None
    result_marks: dict[Team, int] | None
    notes: tuple[Note, ...]
    #: The log's open-hand analysis (format 1.3), for review and omniscient only.
    analysis: AnalysisView | None = None
    #: The log's fair analysis (format 1.4) as this observer may see it (see :class:`FairView`).
    fair: FairView | None = None
    #: The log's fair verdicts of the auction (format 1.8) as this observer may see them.
    auction_fair: AuctionFairView | None = None

    def as_dict(self, *, notes: bool = True) -> dict[str, Any]:
        """The view as JSON-ready data (key order fixed); ``notes=False``: its comments
        left for the caller to put (an empty list)."""
        c = self.contract
        t = self.trick
        return (
            {
                "format": VIEW_FORMAT,
                "version": VIEW_VERSION,
                "observer": self.observer,
                "hand": self.hand,
                "dealer": self.dealer,
                "score_unit": self.score_unit,
                "sits_out": self.sits_out,
                "moment": self.moment,
                "play": self.play,
                "over": self.over,
                "players": dict(self.players),
                "marks": dict(self.marks),
                "auction": [
                    {"seat": s, "call": k}
                    | ({} if b is None else {"bid": b})
                    | ({} if sp is None else {"special": sp})
                    for s, k, b, sp in self.auction
                ],
                "contract": None
                if c is None
                else {
                    "bidder": c.bidder,
                    "kind": c.kind,
                    "bid": c.bid,
                    "marks": c.marks,
                    "trump": c.trump,
                    "visibility": c.visibility,
                    "special": c.special,
                    "declarer": c.declarer,
                }
                | ({} if c.doubles is None else {"doubles": c.doubles}),
                "trick": None
                if t is None
                else {
                    "number": t.number,
                    "leader": t.leader,
                    "plays": [_played(p) for p in t.plays],
                    "winner": t.winner,
                    "points": t.points,
                }
                | ({} if t.declared is None else {"declared": t.declared}),
                "counts": dict(self.counts),
                "won": [
                    {
                        "number": w.number,
                        "team": w.team,
                        "faces": None if w.faces is None else list(w.faces),
                        "points": w.points,
                    }
                    | (
                        {}
                        if w.plays is None
                        else {"plays": [_played(p) for p in w.plays], "winner": w.winner}
                    )
                    for w in self.won
                ],
                "tricks_won": dict(self.tricks_won),
                "points": None if self.points is None else dict(self.points),
                "hands": {s: list(ts) for s, ts in self.hands.items()},
                "hidden": dict(self.hidden),
                "to_play": self.to_play,
                "result": self.result,
                "result_marks": None if self.result_marks is None else dict(self.result_marks),
                "notes": [
                    {"on": n.on, "text": n.text}
                    | ({} if n.author is None else {"author": n.author})
                    | ({"id": n.id} if n.id else {})
                    | ({} if n.seat is None else {"seat": n.seat})
                    | ({} if n.edited_by is None else {"edited_by": n.edited_by})
                    for n in (self.notes if notes else ())
                ],
            }
            | ({} if self.analysis is None else {"analysis": self.analysis.as_dict()})
            | ({} if self.fair is None else {"fair": self.fair.as_dict()})
            | ({} if self.auction_fair is None else {"auction_fair": self.auction_fair.as_dict()})
        )


def _played(p: PlayedTile) -> dict[str, Any]:
    return {"order": p.order, "seat": p.seat, "tile": p.tile}
