"""Open-hand analysis of recorded hands: which play cost the hand.

For each hand of a match whose deal is fully known, with every hand open
(:mod:`texas42_log.engine.solver`, exact):

* the **value** at the first lead — the hand points the bidders' team takes in
  all 7 tricks when both sides play their best — and whether the contract could
  be made;
* for every play: the value after each legal alternative, the **cost** of the
  play made (hand points its side gave away against its best play), and a
  **fate** mark where the play decided the contract — ``lost`` (a bidders' play
  turned a makeable contract unmakeable) or ``let-make`` (a defenders' play let
  a contract that could be set be made);
* the **makeable table** of the deal: for each trump choice the rules allow, the
  hand points the bidders' team takes with best play when the bidder declares it
  and leads (a point contract).

A hand that cannot be analysed is :class:`Skipped` with the reason. Pure: no I/O.
The analysis goes into a log as format 1.3's ``analysis`` fields (:func:`annotated`,
docs/format.md), which every conversion keeps.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from ..engine.auction import BidKind, Contract
from ..engine.hand import PlayState
from ..engine.live import LiveHand
from ..engine.rules import Rules
from ..engine.search import OpenSolver, open_solver
from ..engine.seats import Seat
from ..engine.tiles import TILE_BY_NAME, Tile
from ..engine.trumps import Trump
from ..engine.values import Move, NotSolvable, makeable, maximiser, move_key, move_of

__all__ = [
    "PlayNote",
    "HandAnalysis",
    "Skipped",
    "Fate",
    "analyze_hand",
    "analyze_match_doc",
    "move_key",
    "makeable_table",
    "allowed_trumps",
]

Fate = Literal["lost", "let-make"]


@dataclass(frozen=True, slots=True)
class PlayNote:
    """The open-hand analysis of one play."""

    #: Its index in the hand's ``plays`` (rejected attempts included): /hands/h/plays/index.
    index: int
    trick: int
    seat: Seat
    move: Move
    #: The value (the bidders' final hand points) after each legal play, in tile order.
    values: dict[Move, int]
    #: The value with the seat's best play (before the play).
    best: int
    #: The value after the play made.
    value: int
    #: Hand points the play gave away against its side's best play (≥ 0).
    cost: int
    fate: Fate | None

    @property
    def best_moves(self) -> list[Move]:
        return [m for m, v in self.values.items() if v == self.best]

    def as_dict(self) -> dict[str, Any]:
        """The format's ``analysis`` object of a play (docs/format.md)."""
        out: dict[str, Any] = {
            "values": {move_key(m): v for m, v in self.values.items()},
            "cost": self.cost,
        }
        if self.fate is not None:
            out["fate"] = self.fate
        return out


@dataclass(frozen=True, slots=True)
class Skipped:
    """A hand the analysis passes over, and why."""

    hand: int
    reason: str


@dataclass(slots=True)
class HandAnalysis:
    """The open-hand analysis of one hand (``hand`` counts from 0, as the log's pointers do)."""

    hand: int
    contract: Contract
    trump: Trump | None
    #: The bidders' final hand points with best play from the first lead.
    value: int
    makeable: bool
    #: Trump choice → the bidders' hand points with best play, the bidder leading.
    table: dict[Trump, int] = field(default_factory=dict)
    plays: list[PlayNote] = field(default_factory=list)
    #: Search nodes visited (the benchmark's figure).
    nodes: int = 0

    @property
    def objective(self) -> Literal["max", "min"]:
        return "min" if self.contract.special == "nello" else "max"

    def as_dict(self) -> dict[str, Any]:
        """The format's ``analysis`` object of a hand (docs/format.md)."""
        out: dict[str, Any] = {"value": self.value, "makeable": self.makeable}
        if self.table:
            out["table"] = {t.value: v for t, v in self.table.items()}
        return out


def allowed_trumps(rules: Rules) -> list[Trump]:
    """The trump choices the rules let a declarer make (R12; options no_trump, doubles_trump)."""
    return [
        t
        for t in Trump
        if not (t is Trump.NO_TRUMP and not rules.no_trump)
        and not (t is Trump.DOUBLES and not rules.doubles_trump)
    ]


def makeable_table(
    rules: Rules, bidder: Seat, deal: dict[Seat, set[Tile]]
) -> tuple[dict[Trump, int], int]:
    """For each trump choice: the bidders' hand points with best play when ``bidder``
    declares it and leads (a point contract); and the nodes searched."""
    out: dict[Trump, int] = {}
    nodes = 0
    for trump in allowed_trumps(rules):
        state = PlayState(rules, Contract(bidder, BidKind.POINTS, rules.min_point_bid), trump, deal)
        solver = open_solver(state)
        out[trump] = solver.value(state)
        nodes += solver.nodes
    return out, nodes


def fate_of(contract: Contract, high: bool, best: int, value: int, total: int) -> Fate | None:
    """The fate mark of a play by a seat that plays for high values (``high``) or low, in a
    hand worth ``total`` points."""
    before, after = makeable(contract, best, total=total), makeable(contract, value, total=total)
    bidders_side = high != (contract.special == "nello")
    if bidders_side and before and not after:
        return "lost"
    if not bidders_side and not before and after:
        return "let-make"
    return None


def before_the_play(rules: Rules, hand: dict[str, Any]) -> LiveHand:
    """A valid hand (its JSON form) replayed to its trump declaration, no tile played
    yet: the start both the analysis and its checks step through the plays from."""
    live = LiveHand(
        rules,
        {k: v for k, v in hand.items() if k not in ("plays", "outcome")},
        False,
        {"A+C": 0, "B+D": 0},
    )
    live.rebuild()
    return live


def analyze_hand(
    rules: Rules, hand: dict[str, Any], index: int, *, plays: bool = True, table: bool = True
) -> HandAnalysis | Skipped:
    """The analysis of one hand of a **valid** log (a format-v1 hand as a dict)."""
    deal = hand.get("deal")
    if hand.get("declaration") is None:
        if (
            not hand.get("auction")
            or len([c for c in hand["auction"] if not c.get("rejected")]) < 4
        ):
            return Skipped(index, "the hand stops before its trump declaration")
        return Skipped(index, "all four passed: there is no contract to analyse (R11)")
    if deal is None:
        return Skipped(index, "the deal is not recorded")
    unknown = sum(1 for row in deal.values() if isinstance(row, list) for t in row if t is None)
    if unknown:
        return Skipped(
            index,
            f"the deal is not fully known ({unknown} tile{'s' if unknown != 1 else ''} unknown); "
            "open-hand analysis needs every tile",
        )
    live = before_the_play(rules, hand)
    state, contract = live.state, live.contract
    assert state is not None and contract is not None, "analyze_hand needs a valid log"
    dealt = {s: set(state.known[s]) for s in state.known}
    try:
        solver = open_solver(state)
    except NotSolvable as e:  # pragma: no cover - the checks above leave nothing unknown
        return Skipped(index, str(e))
    value = solver.value(state)
    result = HandAnalysis(
        index,
        contract,
        live.trump if contract.special not in ("nello", "sevens") else None,
        value,
        makeable(contract, value, total=state.count.total),
    )
    if plays:
        result.plays = list(_play_notes(solver, state, contract, hand.get("plays", []), value))
    result.nodes = solver.nodes
    if table:
        result.table, nodes = makeable_table(rules, contract.bidder, dealt)
        result.nodes += nodes
    return result


def _play_notes(
    solver: OpenSolver,
    state: PlayState,
    contract: Contract,
    entries: list[dict[str, Any]],
    value: int,
) -> Iterator[PlayNote]:
    guess = value
    for k, p in enumerate(entries):
        if p.get("rejected"):
            continue
        if state.finished:
            break  # pragma: no cover - a valid log has no play after the hand ended
        seat: Seat = p["seat"]
        move = move_of(TILE_BY_NAME[p["tile"]], p.get("led"))
        values = solver.play_values(state, guess)  # guess: the value of this moment
        high = maximiser(contract, seat)
        best = max(values.values()) if high else min(values.values())
        made = values[move]
        cost = best - made if high else made - best
        yield PlayNote(
            k,
            state.current.number,
            seat,
            move,
            values,
            best,
            made,
            cost,
            fate_of(contract, high, best, made, state.count.total),
        )
        guess = made
        state.apply(seat, move[0], p.get("led"))


def analyze_match_doc(
    rules: Rules,
    doc: dict[str, Any],
    *,
    plays: bool = True,
    table: bool = True,
    only: int | None = None,
) -> list[HandAnalysis | Skipped]:
    """Every hand of a valid match (its JSON form), or hand ``only`` (from 0)."""
    out: list[HandAnalysis | Skipped] = []
    hands = doc.get("hands", [])
    if only is not None and not 0 <= only < len(hands):
        return [
            Skipped(
                only,
                f"the match has {len(hands)} hand{'s' if len(hands) != 1 else ''}, so no hand "
                f"{only + 1}",
            )
        ]
    for i, hand in enumerate(hands):
        if only is None or i == only:
            out.append(analyze_hand(rules, hand, i, plays=plays, table=table))
    return out
