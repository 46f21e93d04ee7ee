"""One hand of a live :class:`~texas42_log.play.game.Game`: its log entry and its replay state.

The log entry (a format-v1 hand, a plain dict) is what the game has accepted; the
state (auction, contract, play) is replayed from it, unchecked — every entry got
there through :class:`~texas42_log.play.game.Game`'s checks. Also the pieces of an
action's life the game needs beside the checks: its log entry, the refusal of the
wrong kind of action for a turn, a deal's own checks (R2, R3), the tool's
reproducible deals.

Pure: no I/O.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .actions import Action, ActionKind, Call, Deal, Declare, Play
from .auction import Auction, BidKind, Contract, count_doubles
from .declare import Choice, declaration_problems
from .errors import IllegalAction
from .hand import PlayState
from .rules import Rules
from .seats import SEATS, TEAMS, Seat, Team, next_seat
from .tiles import TILE_BY_NAME, TILES, Tile
from .trumps import Trump

__all__ = [
    "LiveHand",
    "Turn",
    "deal_order",
    "finished_outcome",
    "call_of",
    "deal_of",
    "declare_of",
    "entry_of",
    "wrong_kind",
    "deal_problem",
    "random_deal",
]


@dataclass(frozen=True, slots=True)
class Turn:
    """Who acts now and what kind of action: ``deal`` (the dealer's deal is to be
    entered), ``call``, ``declare`` or ``play``; ``hand`` counts from 1."""

    seat: Seat
    kind: ActionKind
    hand: int

    def __str__(self) -> str:
        verb = {
            "deal": "deals",
            "call": "to call",
            "declare": "to declare trumps",
            "play": "to play",
        }[self.kind]
        return f"hand {self.hand}: {self.seat} {verb}"


class LiveHand:
    """One hand of the game: its log entry (a format-v1 dict) and its replay state."""

    __slots__ = (
        "rules",
        "doc",
        "auto",
        "score_before",
        "auction",
        "contract",
        "trump",
        "state",
        "known",
        "unknown",
        "partial",
    )

    def __init__(
        self, rules: Rules, doc: dict[str, Any], auto: bool, score_before: dict[Team, int]
    ) -> None:
        self.rules = rules
        self.doc = doc
        self.auto = auto
        self.score_before = dict(score_before)
        self.auction: Auction | None = None
        self.contract: Contract | None = None
        self.trump: Trump | None = None
        self.state: PlayState | None = None
        self.known: dict[Seat, set[Tile]] = {s: set() for s in SEATS}
        self.unknown: dict[Seat, int] = {s: 7 for s in SEATS}
        #: Some tile of the deal is not known (a spectator's record).
        self.partial = True

    def apply(self, act: Action, entry: dict[str, Any]) -> None:
        """Unchecked: write ``entry`` into the hand's log and advance its state."""
        doc = self.doc
        if isinstance(act, Call):
            assert self.auction is not None
            doc["auction"].append(entry)
            self.auction.apply(entry["seat"], act.kind, act.bid, act.special)
            if self.auction.done:
                self.contract = self.auction.contract()
        elif isinstance(act, Declare):
            assert self.contract is not None
            doc["declaration"] = entry
            self.declare(act)
        else:
            assert isinstance(act, Play) and self.state is not None
            doc.setdefault("plays", []).append(entry)
            self.state.apply(entry["seat"], act.tile, act.led)

    def declare(self, act: Declare) -> None:
        assert self.contract is not None
        _, declared = declaration_problems(
            self.rules,
            self.contract,
            self.contract.declarer,
            Choice(act.trump, act.special, act.doubles, act.stacks),
            0,
        )
        assert declared is not None
        self.contract, self.trump = declared
        self.state = PlayState(
            self.rules,
            self.contract,
            self.trump,
            self.known,
            self.unknown,
            nello_doubles=act.doubles,
        )

    def deal(self, deal: Deal) -> None:
        dealt = deal_dict(deal)
        if dealt is not None:
            self.doc["deal"] = dealt
        self.doc["auction"] = []
        self.rebuild()

    def rebuild(self) -> None:
        """The hand's state from its log entry (unchecked: the entry holds only what was
        accepted)."""
        doc = self.doc
        self.auction = self.contract = self.trump = self.state = None
        if "auction" not in doc:
            return
        known: dict[Seat, set[Tile]] = {s: set() for s in SEATS}
        unknown: dict[Seat, int] = {s: 7 for s in SEATS}
        deal = doc.get("deal")
        if deal is not None:
            for s in SEATS:
                row = deal[s]
                known[s] = {TILE_BY_NAME[x] for x in row if x is not None}
                unknown[s] = sum(1 for x in row if x is None)
        self.known, self.unknown = known, unknown
        self.partial = any(unknown.values())
        r = self.rules
        self.auction = Auction(
            r, doc["dealer"], count_doubles(known) if r.plunge or r.splash else None
        )
        for c in doc["auction"]:
            if not c.get("rejected"):
                call = call_of(r, c)
                self.auction.apply(c["seat"], call.kind, call.bid, call.special)
        if self.auction.done:
            self.contract = self.auction.contract()
        d = doc.get("declaration")
        if d is None or self.contract is None:
            return
        self.declare(declare_of(d))
        assert self.state is not None
        for p in doc.get("plays", []):
            if not p.get("rejected"):
                self.state.apply(p["seat"], TILE_BY_NAME[p["tile"]], p.get("led"))

    @property
    def over(self) -> bool:
        """Is this hand over: all passed (R11), or the play finished (R22)?"""
        if self.auction is None or not self.auction.done:
            return False
        if self.contract is None:
            return True
        return self.state is not None and self.state.finished

    def legal_plays(self, seat: Seat) -> Iterator[Play]:
        """The plays the engine's check accepts from ``seat`` now (with the declared leads the rules
        allow)."""
        state = self.state
        assert state is not None
        if state.unknown[seat]:
            seen = set().union(*state.known.values()) | set(state.played)
            candidates = sorted(state.known[seat] | (set(TILES) - seen))
        else:
            candidates = sorted(state.known[seat])
        leading = not state.current.plays
        declared = leading and (
            self.rules.declared_lead == "always"
            or (self.rules.declared_lead == "first-trick" and state.current.number == 1)
        )
        for t in candidates:
            for led in (None, t.low, t.high) if declared and not t.is_double else (None,):
                try:
                    state.check(seat, t, led)
                except IllegalAction:
                    continue
                yield Play(t, led)

    def last_action(self) -> tuple[Seat, Action]:
        """The last accepted entry of this hand (its deal, when no action is made yet)."""
        doc = self.doc
        accepted = [p for p in doc.get("plays", []) if not p.get("rejected")]
        if accepted:
            p = accepted[-1]
            return (p["seat"], Play(TILE_BY_NAME[p["tile"]], p.get("led")))
        if "declaration" in doc:
            return (doc["declaration"]["seat"], declare_of(doc["declaration"]))
        calls = [c for c in doc.get("auction", []) if not c.get("rejected")]
        if calls:
            return (calls[-1]["seat"], call_of(self.rules, calls[-1]))
        return (doc["dealer"], deal_of(doc))

    def finish(self) -> dict[Team, int]:
        """Write the outcome of this finished hand (R6, R23); the match score after it."""
        score = dict(self.score_before)
        doc = self.doc
        if self.contract is None:
            doc["outcome"] = {
                "result": "no-contract",
                "marks": {"A+C": 0, "B+D": 0},
                "score": dict(score),
            }
            return score
        assert self.state is not None
        doc["outcome"] = finished_outcome(self.rules, self.state, score)
        return dict(doc["outcome"]["score"])


def deal_of(doc: dict[str, Any]) -> Deal:
    """A logged hand's deal as an action."""
    deal = doc.get("deal")
    return Deal.of(None if deal is None else {s: deal[s] for s in SEATS})


def call_of(rules: Rules, entry: dict[str, Any]) -> Call:
    """A logged call as an action (the bid in marks for a mark bid, whatever the log's unit)."""
    kind = BidKind(entry["call"])
    bid = entry.get("bid")
    if kind is BidKind.MARKS and rules.mark_bid_units == "points" and bid is not None:
        bid //= 42
    return Call(kind, bid, entry.get("special"))


def declare_of(entry: dict[str, Any]) -> Declare:
    trump = Trump(entry["trump"]) if "trump" in entry else None
    return Declare(trump, entry.get("contract"), entry.get("doubles"), entry.get("stacks"))


def deal_dict(deal: Deal) -> dict[str, list[str | None]] | None:
    if deal.hands is None:
        return None
    return {s: [str(t) if t is not None else None for t in deal.seat(s)] for s in SEATS}


def entry_of(rules: Rules, act: Action, seat: Seat) -> dict[str, Any]:
    """The log entry of an action (a mark bid in the log's unit)."""
    if isinstance(act, Call):
        entry: dict[str, Any] = {"seat": seat, "call": act.kind.value}
        if act.bid is not None:
            units = act.kind is BidKind.MARKS and rules.mark_bid_units == "points"
            entry["bid"] = act.bid * 42 if units else act.bid
        if act.special is not None:
            entry["special"] = act.special
        return entry
    if isinstance(act, Declare):
        entry = {"seat": seat}
        if act.trump is not None:
            entry["trump"] = act.trump.value
        if act.special is not None:
            entry["contract"] = act.special
        if act.doubles is not None:
            entry["doubles"] = act.doubles
        if act.stacks is not None:
            entry["stacks"] = act.stacks
        return entry
    assert isinstance(act, Play)
    entry = {"seat": seat, "tile": str(act.tile)}
    if act.led is not None:
        entry["led"] = act.led
    return entry


def wrong_kind(act: Action, turn: Turn) -> IllegalAction:
    """The refusal of an action of another kind than the turn asks for."""
    n = turn.hand
    if turn.kind == "deal":
        return IllegalAction(
            "R3",
            f"hand {n} has not been dealt: {turn.seat} deals, seven tiles each, before the auction "
            "(R3)",
        )
    if turn.kind == "call":
        return IllegalAction(
            "R7",
            f"hand {n} is in its auction: it is {turn.seat}'s call (pass or a bid), "
            "and each player calls once before trumps are declared (R7)",
        )
    if turn.kind == "declare":
        return IllegalAction(
            "R10",
            f"hand {n}: the auction is over and {turn.seat} declares trumps before the "
            "first tile (R10)",
        )
    what = (
        "the auction is over"
        if isinstance(act, Call)
        else ("trumps are declared already" if isinstance(act, Declare) else "the hand is dealt")
    )
    return IllegalAction(
        "R21" if not isinstance(act, Call) else "R7",
        f"hand {n}: {what}; it is {turn.seat}'s turn to play a tile "
        f"({'R7' if isinstance(act, Call) else 'R21'})",
    )


def deal_problem(deal: Deal, n: int) -> None:
    """R2, R3: seven tiles a seat (unknown ones included), none twice; IllegalAction otherwise."""
    if deal.hands is None:
        return
    owner: dict[Tile, Seat] = {}
    for s in SEATS:
        row = deal.seat(s)
        if len(row) != 7:
            raise IllegalAction(
                "R3", f"hand {n}: {s} is dealt {len(row)} tiles; each player gets exactly 7 (R3)"
            )
        for t in row:
            if t is None:
                continue
            if t in owner:
                raise IllegalAction(
                    "R2",
                    f"hand {n}: {t} is dealt twice, to {owner[t]} and {s}; the set has "
                    "exactly one of each of its 28 tiles (R2)",
                )
            owner[t] = s


def random_deal(seed: int | None, number: int, dealer: Seat) -> Deal:
    """The tool's deal of hand ``number``: the same for the same seed, whatever was undone (R3
    order)."""
    rng = random.Random(f"texas42-game:{seed}:{number}")
    tiles = list(TILES)
    rng.shuffle(tiles)
    rows: dict[Seat, list[Tile | str | None]] = {s: [] for s in SEATS}
    for seat, t in zip(deal_order(dealer), tiles, strict=True):
        rows[seat].append(t)
    return Deal.of(rows)


def deal_order(dealer: Seat) -> list[Seat]:
    """R3: one tile at a time clockwise, starting left of the dealer: 28 seats in order."""
    return [next_seat(dealer, 1 + k % 4) for k in range(28)]


def finished_outcome(
    rules: Rules, state: PlayState, score_before: dict[Team, int]
) -> dict[str, Any]:
    """The log's ``outcome`` of a finished hand, as the engine computed it (R6, R23),
    with the match score after it (marks, or points when the goal is points)."""
    result = state.result
    assert result is not None
    gained = result.marks if rules.match_goal == "marks" else result.points
    score = {team: score_before[team] + gained[team] for team in TEAMS}
    return {
        "tricks": [{"winner": tr.winner, "points": tr.points} for tr in state.tricks],
        "points": dict(result.points),
        "result": result.outcome.value,
        "marks": dict(result.marks),
        "score": score,
    }
