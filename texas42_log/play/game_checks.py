"""The checking half of :class:`~texas42_log.play.game.Game`: whose turn it is, an
action read from its text, and the engine's checks of it — the same code the validator
runs (:mod:`texas42_log.engine.auction`, :mod:`~texas42_log.engine.declare`,
:mod:`~texas42_log.engine.hand`) — with the refused attempts the log keeps (R30), at most
:data:`REJECTED_PER_TURN` of a seat's turn and :data:`REJECTED_PER_MATCH` of a match.

Pure: no I/O.
"""

from __future__ import annotations

import copy

from ..engine.actions import Action, Call, Deal, Declare, Play, parse_action
from ..engine.declare import Choice, declaration_problems
from ..engine.errors import IllegalAction
from ..engine.live import LiveHand, Turn, deal_problem, entry_of, wrong_kind
from ..engine.seats import Seat
from ..log.check import check_match
from ..log.model import Match
from .game_log import GameLog

__all__ = ["GameChecks", "REJECTED_PER_TURN", "REJECTED_PER_MATCH"]

#: How many refused attempts the log keeps (R30) of one seat on one turn, and in a
#: whole match: past either, an attempt is still refused but no longer written down
#: (a page that sends a thousand refused plays must not grow the log without end).
REJECTED_PER_TURN = 10
REJECTED_PER_MATCH = 200


class GameChecks(GameLog):
    """The checking half of :class:`~texas42_log.play.game.Game` (see the module text)."""

    @property
    def to_act(self) -> Turn | None:
        """Who acts now and what kind of action it is; None once the match is over."""
        if self._winner is not None or not self._hands:
            return None
        hand = self._hands[-1]
        n = len(self._hands)
        if hand.auction is None:
            return Turn(hand.doc["dealer"], "deal", n)
        if not hand.auction.done:
            seat = hand.auction.to_call
            assert seat is not None
            return Turn(seat, "call", n)
        assert hand.contract is not None
        if hand.state is None:
            return Turn(hand.contract.declarer, "declare", n)
        seat = hand.state.to_play
        assert seat is not None
        return Turn(seat, "play", n)

    def parse(self, text: str) -> Action:
        """Read ``text`` as an action of the current turn (``31`` a bid in the auction, a
        trump at the declaration, a tile in the play); :class:`ValueError` if it is none."""
        turn = self.to_act
        return parse_action(
            text,
            expect=turn.kind if turn is not None and turn.kind != "deal" else None,
            rules=self.rules,
        )

    def _action(self, action: Action | str) -> Action:
        if isinstance(action, str):
            try:
                return self.parse(action)
            except ValueError:
                # A tile typed at a call turn, a pass at a play turn: an action of
                # another kind, refused as such (it is not the time), not as no action.
                turn = self.to_act
                try:
                    other = parse_action(action, rules=self.rules)
                except ValueError:
                    other = None
                if turn is None or other is None or other.action_kind == turn.kind:
                    raise
                return other
        if not isinstance(action, (Call, Declare, Play, Deal)):
            raise ValueError(
                "an action is a Call, Declare, Play or Deal (or its text), not "
                f"{type(action).__name__}"
            )
        return action

    def _check(self, act: Action, seat: Seat | None) -> None:
        turn = self.to_act
        if turn is None:
            assert self._winner is not None
            unit, won = self.rules.match_goal, self._winner
            raise IllegalAction(
                "R24",
                f"the match is over: {won} won it with {self._score[won]} {unit}; "
                "no hand is played after the match is won (R24)",
            )
        hand = self._hands[-1]
        n = turn.hand
        if act.action_kind != turn.kind:
            raise wrong_kind(act, turn)
        who = seat if seat is not None else turn.seat
        if isinstance(act, Deal):
            deal_problem(act, n)
        elif isinstance(act, Call):
            assert hand.auction is not None
            hand.auction.check(who, act.kind, act.bid, act.special)
        elif isinstance(act, Declare):
            assert hand.contract is not None
            problems, _ = declaration_problems(
                self.rules,
                hand.contract,
                who,
                Choice(act.trump, act.special, act.doubles, act.stacks),
                n,
            )
            if problems:
                p = problems[0]
                raise IllegalAction(p.rule, p.message, p.context)
        else:
            assert isinstance(act, Play) and hand.state is not None
            hand.state.check(who, act.tile, act.led)
            if hand.partial:
                problem = self._retro_problem(hand, act, who)
                if problem is not None:
                    raise problem

    def _retro_problem(
        self, hand: LiveHand, act: Action, seat: Seat | None = None
    ) -> IllegalAction | None:
        """With part of the deal unknown, a play also tells what the seat held: a play
        may prove an earlier discard a renege (R16) or a Plunge bidder short of doubles.
        The validator reads the log so; the game asks it, so as to refuse such a play."""
        assert isinstance(act, Play) and hand.state is not None
        who = seat or hand.state.to_play
        trial = copy.deepcopy(hand.doc)
        trial.setdefault("plays", []).append(entry_of(self.rules, act, who))  # type: ignore[arg-type]
        doc = self._export(upto=len(self._hands) - 1)
        doc["hands"].append(trial)
        doc["status"] = "unfinished"
        doc.pop("result", None)
        i = len(self._hands) - 1
        # Only what the play tells of the hand counts: the trial stops at this play, so
        # the match's end (R24) and the hand's outcome are not the question.
        parts = tuple(f"/hands/{i}/{part}" for part in ("deal", "auction", "declaration", "plays"))
        errors = [
            e for e in check_match(Match.model_validate(doc)).errors if e.pointer.startswith(parts)
        ]
        if not errors:
            return None
        e = errors[0]
        return IllegalAction(
            e.rule, f"{who} plays {act.tile}, which shows what {who} held: {e.message}", e.context
        )

    def _record_rejected(self, act: Call | Play, seat: Seat) -> bool:
        """Write a refused attempt into the log (R30), unless the log already keeps
        :data:`REJECTED_PER_TURN` of ``seat``'s on this turn or :data:`REJECTED_PER_MATCH`
        in all; whether it was written."""
        hand = self._hands[-1]
        entries = hand.doc.setdefault("auction" if isinstance(act, Call) else "plays", [])
        this_turn = 0
        for entry in reversed(entries):
            if not entry.get("rejected"):
                break
            this_turn += entry.get("seat") == seat
        if this_turn >= REJECTED_PER_TURN:
            return False
        kept = sum(
            1
            for h in self._hands
            for key in ("auction", "plays")
            for entry in h.doc.get(key, ())
            if entry.get("rejected")
        )
        if kept >= REJECTED_PER_MATCH:
            return False
        entries.append(entry_of(self.rules, act, seat) | {"rejected": True})
        return True
