"""The fair analysis of recorded hands: every play from its player's own view.

For each play of a hand, the seat that made it is given exactly its views of
the hand up to that moment (:func:`texas42_log.views.visibility.hand_views`, R25–R29) —
never the deal — and :func:`texas42_log.analysis.fair.decide` values each legal play
over the deals consistent with them. Beside the open-hand analysis
(:mod:`texas42_log.analysis.open_hand`) it gives each play a verdict that keeps hindsight
apart from what the player could have known:

* ``right but unlucky`` — open hands say the play cost the hand (or 2 hand
  points or more), but on what its player could see it was sound (no mark);
* ``wrong but lucky`` — marked ``?`` or ``??`` on what the player could see, but
  with the tiles where they were it cost nothing;
* ``wrong and punished`` — marked, and it cost with the tiles where they were.

A play with one legal choice is ``forced``: nothing to judge, no worlds drawn.
Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from ..engine.rules import Rules
from ..engine.seats import Seat
from ..engine.solver import Move, move_key, move_of
from ..engine.tiles import TILE_BY_NAME
from ..log.check import effective_rules
from ..log.model import Match
from ..views.model import View
from ..views.visibility import hand_views
from .fair import DEFAULT_SEED, DEFAULT_WORLDS, DUBIOUS, Decision, Mark, decide
from .open_hand import PlayNote
from .worlds import Knowledge

__all__ = ["FairNote", "FairHand", "fair_hand", "Verdict", "knowledge_at", "legal_moves"]

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
    def verdict(self) -> Verdict | None:
        """The open-hand and the fair verdicts side by side (see the module text)."""
        if self.open is None:
            return None
        hurt = self.open.fate is not None or self.open.cost >= DUBIOUS[1]
        marked = self.mark is not None
        if marked:
            return "wrong and punished" if self.open.cost > 0 else "wrong but lucky"
        return "right but unlucky" if hurt else None

    def as_dict(self) -> dict[str, Any]:
        """The format's ``fair`` object of a play (docs/format.md, since 1.4)."""
        d = self.decision
        if d is None:
            return {"forced": True}
        out = d.as_dict() | {"cost": self.cost, "chance_lost": self.chance_lost}
        mark = self.mark
        if mark is not None:
            out["mark"] = mark
        return out


@dataclass(slots=True)
class FairHand:
    """The fair analysis of one hand (``hand`` counts from 0)."""

    hand: int
    worlds: int
    seed: int
    plays: list[FairNote] = field(default_factory=list)
    #: Plays passed over, by index, with the reason (the seat's own tiles not known).
    skipped: dict[int, str] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """The format's ``fair`` object of a hand's analysis: how it was drawn."""
        return {"worlds": self.worlds, "seed": self.seed}


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
        from ..engine.trumps import table_for

        table = table_for(state.trump, state.doubles)
        moves += [(t, t.low) for t in tiles if not t.is_double and not table[t].trump]
    return moves


def knowledge_at(views: list[View], plays: int, rules: Rules) -> Knowledge:
    """A seat's knowledge with ``plays`` tiles played, from its views of the hand."""
    upto = [v for v in views if v.moment in ("declaration", "play") and v.play <= plays]
    return Knowledge.from_views(rules, upto)


def fair_hand(
    match: Match,
    index: int,
    *,
    worlds: int = DEFAULT_WORLDS,
    seed: int = DEFAULT_SEED,
    open_notes: list[PlayNote] | None = None,
) -> FairHand:
    """The fair analysis of every play of hand ``index`` of a valid match."""
    rules = effective_rules(match)
    hand = match.hands[index]
    result = FairHand(index, worlds, seed)
    if hand.declaration is None:
        return result
    views: dict[Seat, list[View]] = {}
    opened = {n.index: n for n in open_notes or []}
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
        if seen.hidden.get(seat):
            result.skipped[k] = f"{seat}'s own tiles are not all known at this moment"
            continue
        move = move_of(TILE_BY_NAME[p.tile], p.led)
        moves = legal_moves(knowledge)
        decision = (
            None if len(moves) == 1 else decide(knowledge, worlds=worlds, seed=seed, hand=index)
        )
        result.plays.append(FairNote(k, trick, seat, move, decision, opened.get(k)))
    return result


def best_text(d: Decision) -> str:
    """The best fair play of a decision: ``[4|5] 38.1 (71 %)``."""
    best = d.best_moves[0]
    v = d.values[best]
    return f"{move_key(best)} {v.mean:.1f} ({v.share:.0%})"
