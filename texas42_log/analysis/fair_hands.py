"""The fair analysis of recorded hands: every play from its player's own view.

For each play of a hand, the seat that made it is given exactly its views of
the hand up to that moment (:func:`texas42_log.views.visibility.hand_views`, R25–R29) —
never the deal — and :func:`texas42_log.analysis.fair.decide` values each legal play
over the deals consistent with them. Beside the open-hand analysis
(:mod:`texas42_log.analysis.open_hand`) it gives each play a verdict that keeps hindsight
apart from what the player could have known:

the three verdicts of :data:`VERDICTS`, each measured against the one best fair
play of :mod:`texas42_log.analysis.fair`. What "cost" means follows the match's
scoring: in a game of marks a play cost when, with every hand open, it decided
the contract against its side (LOST, LET MAKE); in a points game when it gave
away hand points.

A play with one legal choice is ``forced``: nothing to judge, no worlds drawn.
Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from ..engine.auction import Contract
from ..engine.rules import Rules
from ..engine.seats import Seat
from ..engine.tiles import TILE_BY_NAME
from ..engine.trumps import Trump
from ..engine.values import Move, move_key, move_of
from ..log.check import effective_rules
from ..log.model import Match
from ..views.model import View
from ..views.visibility import hand_views
from . import VERDICTS, as_stated
from .auction_fair import AuctionAnalysis, fair_auction
from .calibration import METHOD as CHANCES
from .continuation import METHOD
from .fair import DEFAULT_SEED, DEFAULT_WORLDS, DUBIOUS, DUBIOUS_POINTS, Decision, Mark, decide
from .open_hand import PlayNote
from .worlds import Knowledge

__all__ = [
    "FairNote",
    "FairHand",
    "SkippedPlay",
    "fair_hand",
    "plan_hand",
    "finish_hand",
    "Pending",
    "Verdict",
    "VERDICTS",
    "knowledge_at",
    "legal_moves",
    "passed_out",
]

Verdict = Literal["right but unlucky", "wrong but lucky", "wrong and punished"]


@dataclass(frozen=True, slots=True)
class FairNote:
    """The fair analysis of one play."""

    #: Its index in the hand's ``plays`` (rejected attempts included).
    index: int
    trick: int
    seat: Seat
    move: Move
    #: The fair values of the moment; None when the play was forced (one legal play).
    decision: Decision | None
    #: The open-hand analysis of the same play, when the deal is known.
    open: PlayNote | None = None

    @property
    def forced(self) -> bool:
        return self.decision is None

    @property
    def cost(self) -> float:
        return 0.0 if self.decision is None else self.decision.cost(self.move)

    @property
    def chance_lost(self) -> float:
        return 0.0 if self.decision is None else self.decision.chance_lost(self.move)

    @property
    def mark(self) -> Mark | None:
        return None if self.decision is None else self.decision.mark(self.move)

    @property
    def chance_lost_se(self) -> float:
        """The standard error of :attr:`chance_lost` (of :attr:`cost` in a points game),
        measured world by world; 0 when every world was counted or for the best play."""
        d = self.decision
        if d is None or self.move == d.best:
            return 0.0
        return as_stated(d.loss_se(self.move, d.best, d.objective == "chance"))

    @property
    def uncertain(self) -> bool:
        """A loss as large as a mark's, left unmarked only because of its error."""
        d = self.decision
        if d is None or self.mark is not None:
            return False
        if d.objective == "points":
            return self.cost >= DUBIOUS_POINTS
        return self.chance_lost >= DUBIOUS

    @property
    def note(self) -> str | None:
        """A play that kept the chance but gave up hand points, in a game of marks."""
        return None if self.decision is None else self.decision.note(self.move)

    @property
    def verdict(self) -> Verdict | None:
        """The open-hand and the fair verdicts side by side (:data:`VERDICTS`)."""
        d = self.decision
        if self.open is None or d is None:
            return None
        if d.objective == "points":
            hurt = self.open.cost > 0
        else:
            hurt = self.open.fate is not None
        if self.mark is not None:
            if hurt:
                return "wrong and punished"
            # lucky only where the play had something to lose: in a game of marks the side
            # could still reach its goal with every hand open (a bidder set anyway was not)
            if d.objective == "points" or d.reaches(self.open.best):
                return "wrong but lucky"
            return None
        right = d.chance_lost(self.move) == 0 and (d.objective == "chance" or self.cost == 0)
        return "right but unlucky" if hurt and right else None

    def as_dict(self) -> dict[str, Any]:
        """The format's ``fair`` object of a play (docs/format.md, since 1.4; the best play
        and what cost and marks are measured against, since 1.6)."""
        d = self.decision
        if d is None:
            return {"forced": True}
        out = d.as_dict() | {"cost": self.cost, "chance_lost": self.chance_lost}
        mark = self.mark
        if mark is not None:
            out["mark"] = mark
        return out


@dataclass(frozen=True, slots=True)
class SkippedPlay:
    """A play the fair analysis passes over (its player's own tiles were not all known), and
    why: ``index`` in the hand's ``plays``."""

    index: int
    trick: int
    seat: Seat
    move: Move
    reason: str


@dataclass(slots=True)
class FairHand:
    """The fair analysis of one hand (``hand`` counts from 0)."""

    hand: int
    worlds: int
    seed: int
    plays: list[FairNote] = field(default_factory=list)
    #: Plays passed over, in order, each with why (its player's own tiles not known).
    skipped: list[SkippedPlay] = field(default_factory=list)
    #: The hand's contract and trump (None when the hand has no declaration).
    contract: Contract | None = None
    trump: Trump | None = None
    #: The fair verdicts of its calls and declaration (since 1.8), when asked.
    auction: AuctionAnalysis | None = None

    def as_dict(self) -> dict[str, Any]:
        """The format's ``fair`` object of a hand's analysis: how it was drawn, (since
        1.11) how its calls were judged and (since 1.12) how its chances were corrected."""
        out: dict[str, Any] = {"worlds": self.worlds, "seed": self.seed}
        if self.auction is not None and any(n.contract is not None for n in self.auction.calls):
            out["calls"] = METHOD
        if self.auction is not None and self.auction.correction.method == CHANCES:
            out["chances"] = CHANCES
        return out


def legal_moves(knowledge: Knowledge) -> list[Move]:
    """The plays the seat may make at its moment, as the solver names them."""
    state = knowledge.state()
    seat = knowledge.seat
    if state.to_play != seat:
        return []
    tiles = state.legal_tiles(seat)
    moves: list[Move] = [(t, None) for t in tiles]
    trick = state.current
    dl = knowledge.rules.declared_lead
    if not trick.plays and (dl == "always" or (dl == "first-trick" and trick.number == 1)):
        table = state.table
        moves += [(t, t.low) for t in tiles if not t.is_double and not table[t].trump]
    return moves


def knowledge_at(views: list[View], plays: int, rules: Rules) -> Knowledge:
    """A seat's knowledge with ``plays`` tiles played, from its views of the hand."""
    upto = [v for v in views if v.moment in ("declaration", "play") and v.play <= plays]
    return Knowledge.from_views(rules, upto)


@dataclass(frozen=True, slots=True)
class Pending:
    """A play of a hand, planned: where it is and, unless it was forced, the knowledge its
    player had then (what :func:`~texas42_log.analysis.fair.decide` needs)."""

    index: int
    trick: int
    seat: Seat
    move: Move
    knowledge: Knowledge | None


def plan_hand(
    match: Match, index: int, *, worlds: int = DEFAULT_WORLDS, seed: int = DEFAULT_SEED
) -> tuple[FairHand, list[Pending]]:
    """Hand ``index`` of a valid match, planned for its fair analysis: the hand's
    :class:`FairHand` with its skipped plays, and each play to judge with its player's
    knowledge (None for a forced play). :func:`finish_hand` puts the decisions in."""
    rules = effective_rules(match)
    hand = match.hands[index]
    result = FairHand(index, worlds, seed)
    pending: list[Pending] = []
    if hand.declaration is None:
        return result, pending
    views: dict[Seat, list[View]] = {}
    made = 0
    for k, p in enumerate(hand.plays):
        if p.rejected:
            continue
        seat = p.seat
        if seat not in views:
            views[seat] = hand_views(match, seat, index)
        knowledge = knowledge_at(views[seat], made, rules)
        seen = next(
            v
            for v in reversed(views[seat])
            if v.moment in ("declaration", "play") and v.play <= made
        )
        trick = knowledge.state().current.number
        made += 1
        if result.contract is None:
            result.contract, result.trump = knowledge.contract, knowledge.trump
        move = move_of(TILE_BY_NAME[p.tile], p.led)
        if seen.hidden.get(seat):
            result.skipped.append(
                SkippedPlay(
                    k, trick, seat, move, f"{seat}'s own tiles are not all known at this moment"
                )
            )
            continue
        forced = len(legal_moves(knowledge)) == 1
        pending.append(Pending(k, trick, seat, move, None if forced else knowledge))
    return result, pending


def finish_hand(
    result: FairHand,
    pending: list[Pending],
    decisions: Iterator[Decision | None],
    open_notes: list[PlayNote] | None = None,
) -> FairHand:
    """A planned hand with its decisions: one from ``decisions`` for each pending play that
    was not forced, in order; ``open_notes``: the open-hand analysis of the same plays."""
    opened = {n.index: n for n in open_notes or []}
    for p in pending:
        d = None if p.knowledge is None else next(decisions)
        result.plays.append(FairNote(p.index, p.trick, p.seat, p.move, d, opened.get(p.index)))
    return result


def fair_hand(
    match: Match,
    index: int,
    *,
    worlds: int = DEFAULT_WORLDS,
    seed: int = DEFAULT_SEED,
    open_notes: list[PlayNote] | None = None,
    auction: bool = True,
) -> FairHand:
    """The fair analysis of every play of hand ``index`` of a valid match, in this process;
    with ``auction``, of its calls and declaration too once the trump is declared, and of
    the passes of a hand all four passed (:mod:`.auction_fair`)."""
    result, pending = plan_hand(match, index, worlds=worlds, seed=seed)
    if auction and (match.hands[index].declaration is not None or passed_out(match, index)):
        result.auction = fair_auction(match, index, worlds=worlds, seed=seed)
    decisions = iter(
        [
            decide(p.knowledge, worlds=worlds, seed=seed, hand=index)
            for p in pending
            if p.knowledge is not None
        ]
    )
    return finish_hand(result, pending, decisions, open_notes)


def passed_out(match: Match, index: int) -> bool:
    """Whether all four passed in hand ``index`` (from 0): its passes are judged too."""
    calls = [c for c in match.hands[index].auction if not c.rejected]
    return len(calls) == 4 and all(c.call == "pass" for c in calls)


def best_text(d: Decision) -> str:
    """The best fair play of a decision: ``[4|5] 71% 38.1`` (its chance, then its mean)."""
    best = d.best
    v = d.values[best]
    return f"{move_key(best)} {v.share:.0%} {v.mean:.1f}"
