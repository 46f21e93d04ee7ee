"""Live play: :class:`Game`, one object for a whole match under any rules the engine knows.

What python-chess's ``Board`` is to chess programs, for Texas 42: whose turn
(:attr:`Game.to_act`), the legal actions (:meth:`Game.legal_actions`),
:meth:`Game.push` and :meth:`Game.pop`, the view of the moment for one observer
(:meth:`Game.view`) and, at any moment, the log (:meth:`Game.to_match`), which
``texas42 validate`` accepts — an unfinished match while it is under way.

The seeds' digital play (R30–R31) is the contract of :meth:`Game.push`: points are
kept automatically; an illegal action raises :class:`~texas42_log.engine.errors.IllegalAction`
with the rule id and the sentence ``validate`` gives, and leaves the game exactly as
it was — byte for byte in :meth:`Game.to_match` — the remaining tiles in their order.

Checked path only: every action goes through the engine's checks (the same code
the validator runs: :mod:`.auction`, :mod:`.declare`, :mod:`.hand`). A log read with
:meth:`Game.from_match` is validated first. Hands end by the log's own rules (the
early end R22, or all 7 tricks; an all-pass hand is redealt by the next dealer,
R4, R11); the match ends at its goal (R24).

Pure: no I/O. The views come from :mod:`.views`, the same view model the logs use,
so the visibility boundary (R25–R29) is one code path for a live game and a log.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.actions import Action, Call, Deal, Declare, Play
from ..engine.auction import Contract
from ..engine.declare import declaration_choices
from ..engine.errors import IllegalAction
from ..engine.hand import PlayState
from ..engine.live import (
    LiveHand,
    Turn,
    call_of,
    deal_of,
    declare_of,
    entry_of,
    random_deal,
)
from ..engine.presets import find_preset
from ..engine.rules import Rules
from ..engine.seats import SEATS, TEAMS, Seat, Team, next_seat
from ..engine.tiles import TILE_BY_NAME, Tile
from ..engine.trumps import Trump
from ..log.check import check_match, effective_rules
from ..log.model import FORMAT_NAME, Match
from .game_checks import REJECTED_PER_MATCH, REJECTED_PER_TURN, GameChecks
from .game_views import GameViews
from .generate import rules_declaration
from .refusals import Refusal, seat_refusal

__all__ = ["Game", "Turn", "Step", "Refusal", "REJECTED_PER_TURN", "REJECTED_PER_MATCH"]


@dataclass(frozen=True, slots=True)
class Step:
    """One accepted action of the history: its hand (from 1), who, what."""

    hand: int
    seat: Seat
    action: Action

    def __str__(self) -> str:
        return f"hand {self.hand}: {self.seat} {self.action}"


class Game(GameChecks, GameViews):
    """A match of Texas 42 being played: its rules, its hands, whose turn it is.

    Create one new::

        game = Game("standard", players={"A": "Ana", "B": "Ben", "C": "Cleo", "D": "Dan"},
                    first_dealer="D", seed=7)       # the tool deals, reproducibly

    (without ``seed`` each hand's deal is entered: ``game.deal({...})``, tiles
    unknown as ``None``), or from a log, finished or not: ``Game.from_match(match)``.

    Then ``game.to_act`` says who acts and how, ``game.legal_actions()`` lists what
    they may do, ``game.push("31")`` (an :class:`~texas42_log.engine.actions.Action` or its
    text) does it, ``game.pop()`` takes it back, ``game.view("B")`` is the moment as B
    sees it, and ``game.to_match()`` is the log.

    ``record_rejected``: a refused call or play is also written into the log as a
    rejected attempt (the format's ``"rejected": true``, R30); the game itself is
    unchanged by it. ``extensions``: match-level ``x-`` fields for the log (kept by
    every conversion).
    """

    def __init__(
        self,
        rules: str | Rules = "standard",
        *,
        options: Mapping[str, Any] | None = None,
        players: Mapping[Seat, str] | None = None,
        first_dealer: Seat = "A",
        seed: int | None = None,
        record_rejected: bool = False,
        extensions: Mapping[str, Any] | None = None,
    ) -> None:
        if isinstance(rules, str):
            preset = rules
            base = find_preset(rules)
        else:
            preset, base = "standard", rules
        try:
            self.rules: Rules = base.with_options(**dict(options or {}))
        except TypeError:
            known = set(Rules.__dataclass_fields__)
            bad = sorted(set(options or {}) - known)
            raise ValueError(
                f"unknown rule option {', '.join(map(repr, bad))}; `texas42 rules` lists them"
            ) from None
        if first_dealer not in SEATS:
            raise ValueError(f"the first dealer is a seat, A to D, not {str(first_dealer)[:10]!r}")
        if players is not None and set(players) - set(SEATS):
            raise ValueError("players are named by seat, A to D")
        for seat, name in (players or {}).items():
            if not isinstance(name, str) or not name:
                raise ValueError(f"the player at {seat} has no name: a name is some text")
            try:
                name.encode("utf-8")
            except UnicodeEncodeError:
                raise ValueError(
                    f"the name of the player at {seat} is not text: it holds half of a character "
                    "(bytes that are not UTF-8)"
                ) from None
        self.preset = preset
        self.seed = seed
        self.record_rejected = record_rejected
        doc: dict[str, Any] = {
            "format": FORMAT_NAME,
            "version": "1.0",
            "rules": rules_declaration(preset, self.rules),
        }
        if players:
            doc["players"] = {s: str(players[s]) for s in SEATS if s in players}
        doc["first_dealer"] = first_dealer
        doc["status"] = "unfinished"
        doc["hands"] = []
        for key, value in (extensions or {}).items():
            if not key.startswith("x-"):
                raise ValueError(f"an extension field's name starts with x-, not {key[:20]!r}")
            doc[key] = value
        self._doc = doc
        self._hands: list[LiveHand] = []
        self._score: dict[Team, int] = {t: 0 for t in TEAMS}
        self._winner: Team | None = None
        self._min_version = "1.0"
        from ..log.model import match_json

        self._doc["rules"] = match_json(self._problem_free(self._export()))[
            "rules"
        ]  # the options in the format's order
        self._start_hand()

    # -- creation from a log -------------------------------------------------------

    @classmethod
    def from_match(
        cls, match: Match, *, seed: int | None = None, record_rejected: bool = False
    ) -> Game:
        """The game a valid log records, ready to go on where the log stops (a finished
        match has nothing more to do). :class:`ValueError` if the log breaks a rule;
        annotations, extension fields and rejected attempts are kept."""
        from ..log.model import match_json

        report = check_match(match)
        if report.errors:
            e = report.errors[0]
            raise IllegalAction(
                e.rule,
                f"the log is not valid, so it cannot be played on: at {e.pointer or '/'}: "
                f"{e.message}",
                e.context,
            )
        doc = match_json(match)
        game = cls.__new__(cls)
        game.rules = effective_rules(match)
        game.preset = match.rules.preset
        game.seed = seed
        game.record_rejected = record_rejected
        hands = doc.pop("hands")
        doc.pop("result", None)
        doc["status"] = "unfinished"
        doc["hands"] = []
        game._doc = doc
        game._min_version = match.version
        game._hands = []
        game._score = {t: 0 for t in TEAMS}
        game._winner = None
        for h in hands:
            entry = {
                k: v
                for k, v in h.items()
                if k not in ("auction", "declaration", "plays", "outcome")
            }
            entry["auction"] = []
            game._begin(entry, auto=seed is not None)
            hand = game._hands[-1]
            for c in h.get("auction", []):
                game._replay_entry(hand, "call", c)
            if "declaration" in h:
                game._replay_entry(hand, "declare", h["declaration"])
            for p in h.get("plays", []):
                game._replay_entry(hand, "play", p)
            if hand.over:
                game._finish(hand)
        if game._winner is None and (not game._hands or game._hands[-1].over):
            game._start_hand()
        return game

    def _replay_entry(self, hand: LiveHand, kind: str, entry: dict[str, Any]) -> None:
        if entry.get("rejected"):
            key = "auction" if kind == "call" else "plays"
            hand.doc.setdefault(key, []).append(entry)
            return
        if kind == "call":
            hand.apply(call_of(self.rules, entry), entry)
        elif kind == "declare":
            hand.apply(declare_of(entry), entry)
        else:
            hand.apply(Play(TILE_BY_NAME[entry["tile"]], entry.get("led")), entry)

    # -- state -----------------------------------------------------------------

    @property
    def hand_number(self) -> int:
        """The hand being played (or the last one, once the match is over), from 1."""
        return len(self._hands)

    @property
    def score(self) -> dict[Team, int]:
        """The match score so far (marks, or points when the match goal is points)."""
        return dict(self._score)

    @property
    def players(self) -> dict[Seat, str]:
        """The players' names by seat, as the log gives them."""
        return dict(self._doc.get("players") or {})

    @property
    def winner(self) -> Team | None:
        """The team that won the match (R24), once it is over."""
        return self._winner

    @property
    def is_over(self) -> bool:
        return self._winner is not None

    @property
    def dealer(self) -> Seat:
        return self._hands[-1].doc["dealer"]  # type: ignore[no-any-return]

    @property
    def contract(self) -> Contract | None:
        """The current hand's contract, once the auction has one (as declared, once declared)."""
        return self._hands[-1].contract if self._hands else None

    @property
    def trump(self) -> Trump | None:
        return self._hands[-1].trump if self._hands else None

    @property
    def play_state(self) -> PlayState | None:
        """The engine's state of the play of the current hand (a copy: changing it changes nothing
        here)."""
        state = self._hands[-1].state if self._hands else None
        return state.copy() if state is not None else None

    @property
    def history(self) -> list[Step]:
        """Every accepted action from the first, in order (rejected attempts and the
        tool's own deals left out; an entered deal is a step)."""
        return list(self._steps())

    def _steps(self) -> Iterator[Step]:
        for n, hand in enumerate(self._hands, start=1):
            doc = hand.doc
            if not hand.auto and "auction" in doc and hand.auction is not None:
                yield Step(n, doc["dealer"], deal_of(doc))
            for c in doc.get("auction", []):
                if not c.get("rejected"):
                    yield Step(n, c["seat"], call_of(self.rules, c))
            d = doc.get("declaration")
            if d is not None:
                yield Step(n, d["seat"], declare_of(d))
            for p in doc.get("plays", []):
                if not p.get("rejected"):
                    yield Step(n, p["seat"], Play(TILE_BY_NAME[p["tile"]], p.get("led")))

    # -- actions ---------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every action :meth:`push` accepts now, in a fixed order (the engine's own
        checks decide; nothing is guessed). Empty while a deal is to be entered — a
        deal is not chosen from a list — and once the match is over.

        With part of the deal unknown (a spectator's record) a play also tells what
        the seat held, so a recorded discard can turn out, later, to have been a
        renege (R16): when every tile a seat can still hold would prove one, the
        list is empty during the play — an earlier entry was wrong, :meth:`pop` it."""
        turn = self.to_act
        if turn is None or turn.kind == "deal":
            return []
        hand = self._hands[-1]
        out: list[Action]
        if turn.kind == "call":
            assert hand.auction is not None
            out = [Call(k, b, s) for k, b, s in hand.auction.legal_calls()]
        elif turn.kind == "declare":
            assert hand.contract is not None
            out = [
                Declare(c.trump, c.special, c.doubles, c.stacks)
                for c in declaration_choices(self.rules, hand.contract)
            ]
        else:
            out = list(hand.legal_plays(turn.seat))
        if hand.partial and turn.kind == "play":
            out = [a for a in out if self._retro_problem(hand, a) is None]
        return out

    def is_legal(self, action: Action | str) -> bool:
        """Would :meth:`push` accept ``action`` now?"""
        try:
            self._check(self._action(action), None)
        except (IllegalAction, ValueError):
            return False
        return True

    def push(self, action: Action | str, *, seat: Seat | None = None) -> Step:
        """Do ``action`` (or its text, read by :meth:`parse`) for the seat whose turn it is.

        ``seat``: who is acting, when the caller knows it (a player at an app's table);
        acting out of turn is then refused (R7, R10, R21) instead of being taken as
        the turn's, and a refusal is a :class:`~texas42_log.play.refusals.Refusal`: its
        sentence, message key and parameters are drawn from that seat's view alone
        (never "which was dealt to D"). Without ``seat`` — an operator who sees every
        hand, as at ``texas42 record`` — a refusal is an
        :class:`~texas42_log.engine.errors.IllegalAction` with the sentence ``texas42
        validate`` gives. Either way ``rule`` is the rule id, the game is unchanged
        and, with ``record_rejected``, ``recorded`` says whether a refused call or play
        was written into the log: at most :data:`REJECTED_PER_TURN` of a seat's turn and
        :data:`REJECTED_PER_MATCH` of a match are (None for an attempt of a kind the
        log does not keep). A text that is no action raises
        :class:`ValueError`. Returns the step done.
        """
        act = self._action(action)
        turn = self.to_act
        try:
            self._check(act, seat)
        except IllegalAction as e:
            recorded: bool | None = None
            if (
                self.record_rejected
                and turn is not None
                and turn.kind == act.action_kind
                and isinstance(act, (Call, Play))
            ):
                recorded = self._record_rejected(act, seat or turn.seat)
            if seat is None:
                e.recorded = recorded
                raise
            refusal = seat_refusal(self._hands[-1], turn, act, seat, e, self._winner)
            refusal.recorded = recorded
            raise refusal from None
        assert turn is not None
        who = seat or turn.seat
        hand = self._hands[-1]
        if isinstance(act, Deal):
            hand.deal(act)
        else:
            hand.apply(act, entry_of(self.rules, act, who))
        self._after_action()
        return Step(turn.hand, who, act)

    def deal(self, hands: Mapping[Seat, Sequence[Tile | str | None]] | None) -> Step:
        """Enter the current hand's deal (when the tool does not deal): seven tiles a seat
        in the order dealt, ``None`` (or ``"?"``) for a tile not known; ``None`` for a
        deal nobody saw. R2 and R3 are checked."""
        return self.push(Deal.of(hands))

    def pop(self) -> Step:
        """Undo the last accepted action (with the rejected attempts recorded after it)
        and return it. :class:`IndexError` if there is nothing to undo."""
        while self._hands:
            hand = self._hands[-1]
            doc = hand.doc
            plays = doc.get("plays", [])
            auction = doc.get("auction", [])
            if self._winner is not None:
                self._winner = None
                self._doc["status"] = "unfinished"
                self._doc.pop("result", None)
            if plays or "declaration" in doc or auction:
                seat, action = hand.last_action()
                last = Step(len(self._hands), seat, action)
                if plays:
                    while plays and plays[-1].get("rejected"):
                        plays.pop()
                    if plays:
                        plays.pop()
                    if not plays:
                        doc.pop("plays", None)
                elif "declaration" in doc:
                    del doc["declaration"]
                else:
                    while auction and auction[-1].get("rejected"):
                        auction.pop()
                    if auction:
                        auction.pop()
                doc.pop("outcome", None)
                hand.rebuild()
                self._score = dict(hand.score_before)
                return last
            if hand.auction is not None and not hand.auto:
                step = Step(len(self._hands), doc["dealer"], deal_of(doc))
                hand.auction = None
                doc.pop("deal", None)
                doc.pop("auction", None)
                hand.rebuild()
                return step
            if len(self._hands) == 1:
                break
            self._hands.pop()
            self._doc["hands"].pop()
            self._score = dict(self._hands[-1].score_before)
            self._hands[-1].doc.pop("outcome", None)
        raise IndexError("there is nothing to undo: no action has been made")

    # -- applying --------------------------------------------------------------

    def _after_action(self) -> None:
        hand = self._hands[-1]
        if not hand.over:
            return
        self._finish(hand)
        if self._winner is None:
            self._start_hand()

    def _finish(self, hand: LiveHand) -> None:
        """The hand is over: its outcome, stated as the tool computed it (R6, R23), and the
        score."""
        score = hand.finish()
        self._score = score
        reached = [t for t in TEAMS if score[t] >= self.rules.goal]
        if reached:
            # Both past 250 points in one hand: the higher score wins (seed 004).
            winner: Team = max(reached, key=score.__getitem__)
            self._winner = winner

    def _start_hand(self) -> None:
        dealer: Seat = (
            self._doc["first_dealer"]
            if not self._hands
            else next_seat(self._hands[-1].doc["dealer"])
        )
        self._begin({"dealer": dealer}, auto=self.seed is not None)
        if self.seed is not None:
            hand = self._hands[-1]
            hand.deal(random_deal(self.seed, len(self._hands), dealer))

    def _begin(self, entry: dict[str, Any], auto: bool) -> None:
        hand = LiveHand(self.rules, entry, auto, self._score)
        self._hands.append(hand)
        self._doc["hands"].append(entry)
        if "auction" in entry:
            hand.rebuild()

    def __repr__(self) -> str:
        turn = self.to_act
        state = f"over, {self._winner} won" if turn is None else str(turn)
        score = "-".join(str(self._score[t]) for t in TEAMS)
        return f"<Game {self.preset} {score}: {state}>"
