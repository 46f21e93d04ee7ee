"""One reading of an mk5 share link (:class:`Branch`): the match so far, replayed token by
token by our engine under the preset ``mk5`` with the link's layers, and the steps mk5
takes by itself (:func:`canonical_steps`). :mod:`.mk5_replay` follows every reading of
a link; :mod:`.mk5_write` walks one to write a link. Pure: no I/O.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Final

from ...engine.actions import Call, Declare, Play
from ...engine.auction import BidKind
from ...engine.declare import Choice, declaration_choices, declaration_problems
from ...engine.errors import IllegalAction
from ...engine.live import LiveHand, entry_of
from ...engine.presets import PRESETS
from ...engine.rules import Rules
from ...engine.seats import SEATS, TEAMS, Team
from ...engine.tiles import TILE_BY_NAME
from ...engine.trumps import Trump
from . import ForeignFormatError
from .mk5 import (
    LAYER_CODES,
    SEED_STEP,
    Token,
    mk5_deal,
)

__all__ = ["FORMAT", "EXT", "MAX_READINGS", "link_rules", "canonical_steps", "humans_of", "Branch"]

FORMAT: Final = "mk5"
#: The match's extension holding what the format has no field for.
EXT: Final = "x-mk5"
#: Readings followed at once; a link with more is refused (a real one has one or two).
MAX_READINGS: Final = 64


def link_rules(layers: list[str]) -> tuple[Rules, dict[str, bool]]:
    """The rules mk5 plays with these layer codes, and the options the log sets."""
    options: dict[str, bool] = {}
    for code in layers:
        option = LAYER_CODES.get(code)
        if option is not None:
            options[option] = True
    if "t" in layers:  # tournament takes the special contracts away
        options = {}
    return PRESETS["mk5"].with_options(**options), options


def humans_of(players: str) -> list[int]:
    """The seats ``p=`` marks human (``h``): they agree before each step."""
    return [k for k, ch in enumerate(players) if ch == "h"]


def canonical_steps(humans: list[int], event: str | None) -> str:
    """The tokens mk5 writes after an action that ends a trick (``trick``), a hand
    (``hand``) or an auction of four passes (``redeal``): each human's agreement in
    seat order, then the step itself."""
    if event == "redeal":
        return "B"
    trick = "".join("5678"[k] for k in humans) + "3"
    if event == "trick":
        return trick
    if event == "hand":
        return trick + "".join("9-_."[k] for k in humans) + "4"
    return ""


@dataclass
class Branch:
    """One reading of a link: the match so far and where the game stands."""

    rules: Rules
    humans: list[int]
    seed: int | None
    hands: list[dict[str, Any]] = field(default_factory=list)
    live: LiveHand | None = None
    score: dict[Team, int] = field(default_factory=lambda: {t: 0 for t in TEAMS})
    #: What the game waits for: an action ("act"), the agreements and step of a full
    #: trick ("trick"), of a decided hand ("hand"), a redeal ("redeal"), or nothing ("over").
    phase: str = "act"
    agreed: set[int] = field(default_factory=set)
    #: Each ~? resolved: (token index, the action in words).
    readings: list[tuple[int, str]] = field(default_factory=list)
    at: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: Per action (from 1): the event it caused, and the tokens of steps after it.
    events: list[str | None] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)
    one_hand: bool = False

    def clone(self) -> Branch:
        other = copy.copy(self)
        other.hands = copy.deepcopy(self.hands)
        other.score = dict(self.score)
        other.agreed = set(self.agreed)
        other.readings = list(self.readings)
        other.at = dict(self.at)
        other.events = list(self.events)
        other.steps = list(self.steps)
        if self.live is not None:
            live = LiveHand(self.rules, other.hands[-1], False, self.live.score_before)
            live.rebuild()
            other.live = live
        return other

    # -- deals ------------------------------------------------------------------------

    def new_deal(self, hands: list[list[str]] | None = None) -> None:
        n = len(self.hands) + 1
        if hands is None:
            hands = mk5_deal((self.seed or 0) + (n - 1) * SEED_STEP)
        doc: dict[str, Any] = {
            "dealer": SEATS[(3 + n - 1) % 4],
            "deal": {SEATS[p]: list(hands[p]) for p in range(4)},
            "auction": [],
        }
        self.hands.append(doc)
        live = LiveHand(self.rules, doc, False, self.score)
        live.rebuild()
        self.live = live
        self.phase = "act"

    # -- one token --------------------------------------------------------------------

    def step(self, index: int, tok: Token, line: int) -> list[Branch]:
        """The readings after token ``index``: this branch moved on, or its copies (a ~?);
        :class:`ForeignFormatError` if the token cannot come here."""
        kind = tok.kind
        if kind in ("trick", "score", "redeal", "agree-trick", "agree-score"):
            self._system(tok, line)
            return [self]
        if self.phase != "act":
            raise self._error(tok, line, self._waiting())
        live = self.live
        assert live is not None
        n = len(self.hands)
        if kind == "unknown":
            choices = self._unwritable()
            if not choices:
                raise self._error(
                    tok,
                    line,
                    f"hand {n}: '~?' stands for an action mk5 cannot write (a Plunge, a "
                    "Splash, a 4-mark bid, Nel-O, Sevens), and none is allowed here",
                )
            out = []
            last: ForeignFormatError | None = None
            for act, words in choices:
                b = self.clone() if len(choices) > 1 else self
                try:
                    b._act(act, tok, line)
                except ForeignFormatError as e:  # pragma: no cover - the choices are legal
                    last = e
                    continue
                b.readings.append((index, f"hand {n}: {words}"))
                out.append(b)
            if not out and last is not None:  # pragma: no cover
                raise last
            return out
        self._act(self._action_of(tok, line), tok, line)
        return [self]

    def _waiting(self) -> str:
        n = len(self.hands)
        if self.phase == "trick":
            return (
                f"hand {n}: the trick is full; mk5 completes it (3), after every human seat "
                "agreed, before the next action"
            )
        if self.phase == "hand":
            return (
                f"hand {n} is decided; mk5 scores it (4), after every human seat agreed, before "
                "anything else"
            )
        if self.phase == "redeal":
            return f"hand {n}: all four passed; mk5 redeals (B) before anything else"
        return (
            "the match is over: nothing may follow"
            if not self.one_hand
            else "the one-hand game is over after its hand (mk5's retry or new hand cannot be read)"
        )

    def _error(self, tok: Token, line: int, why: str) -> ForeignFormatError:
        return ForeignFormatError(f"{tok.describe()}: {why}", line, tok.column)

    def _system(self, tok: Token, line: int) -> None:
        kind = tok.kind
        n = len(self.hands)
        wants = {
            "trick": "trick",
            "agree-trick": "trick",
            "score": "hand",
            "agree-score": "hand",
            "redeal": "redeal",
        }[kind]
        if self.phase != wants:
            if self.phase == "act":
                what = {
                    "trick": "no trick is full",
                    "hand": "the hand is not decided",
                    "redeal": "not all four have passed",
                }[wants]
                raise self._error(
                    tok,
                    line,
                    f"hand {n}: {what}; mk5 takes this step only when {self._when(wants)}",
                )
            raise self._error(tok, line, self._waiting())
        self.steps[-1] += tok.text
        if kind in ("agree-trick", "agree-score"):
            seat = tok.value
            assert isinstance(seat, int)
            if seat not in self.humans:
                raise self._error(
                    tok,
                    line,
                    f"p= makes {SEATS[seat]} (player {seat}) a computer seat, and only "
                    "human seats agree",
                )
            if seat in self.agreed:
                raise self._error(tok, line, f"{SEATS[seat]} (player {seat}) has agreed already")
            self.agreed.add(seat)
            return
        missing = [k for k in self.humans if k not in self.agreed]
        if missing and kind != "redeal":
            who = ", ".join(f"{SEATS[k]} (player {k})" for k in missing)
            raise self._error(
                tok,
                line,
                f"hand {n}: mk5 takes this step once every human seat agreed, and {who} has not",
            )
        self.agreed = set()
        live = self.live
        assert live is not None
        if kind == "trick":
            assert live.state is not None
            self.phase = "hand" if live.state.finished else "act"
            return
        if kind == "score":
            if self.one_hand or max(self.score.values()) >= self.rules.goal:
                self.phase = "over"
                return
        self.new_deal()

    @staticmethod
    def _when(phase: str) -> str:
        return {
            "trick": "a trick is full",
            "hand": "a hand is decided",
            "redeal": "all four passed",
        }[phase]

    def _action_of(self, tok: Token, line: int) -> Call | Declare | Play:
        live = self.live
        assert live is not None
        n = len(self.hands)
        if live.auction is not None and not live.auction.done:
            if tok.kind == "pass":
                return Call(BidKind.PASS)
            if tok.kind in ("points", "marks"):
                assert isinstance(tok.value, int)
                return Call(BidKind.POINTS if tok.kind == "points" else BidKind.MARKS, tok.value)
            seat = live.auction.to_call
            raise self._error(
                tok, line, f"hand {n} is in its auction: it is {seat}'s call (pass or a bid) (R7)"
            )
        if live.state is None:
            if tok.kind == "trump":
                assert isinstance(tok.value, str)
                return Declare(Trump(tok.value))
            assert live.contract is not None
            raise self._error(
                tok,
                line,
                f"hand {n}: the auction is over and {live.contract.declarer} declares "
                "trumps before the first tile (R10)",
            )
        if tok.kind == "play":
            assert isinstance(tok.value, str)
            return Play(TILE_BY_NAME[tok.value])
        raise self._error(
            tok,
            line,
            f"hand {n}: trumps are declared; it is {live.state.to_play}'s turn to play a "
            "tile (R21)",
        )

    def _unwritable(self) -> list[tuple[Call | Declare, str]]:
        """The actions allowed now that mk5 writes as ``~?``, each in words."""
        live = self.live
        assert live is not None
        out: list[tuple[Call | Declare, str]] = []
        if live.auction is not None and not live.auction.done:
            seat = live.auction.to_call
            for kind, bid, special in live.auction.legal_calls():
                if kind is BidKind.MARKS and (special is not None or (bid or 0) >= 4):
                    what = f"a {special.capitalize()} of {bid} marks" if special else f"{bid} marks"
                    out.append((Call(kind, bid, special), f"{seat} bids {what}"))
            return out
        if live.state is None and live.contract is not None:
            for choice in declaration_choices(self.rules, live.contract):
                if choice.special is not None and choice.doubles is None:
                    name = "Nel-O" if choice.special == "nello" else "Sevens"
                    out.append(
                        (Declare(None, choice.special), f"{live.contract.declarer} declares {name}")
                    )
        return out

    def _act(self, act: Call | Declare | Play, tok: Token, line: int) -> None:
        live = self.live
        assert live is not None
        n = len(self.hands)
        hp = f"/hands/{n - 1}"
        doc = live.doc
        event: str | None = None
        try:
            if isinstance(act, Call):
                assert live.auction is not None
                seat = live.auction.to_call
                assert seat is not None
                live.auction.check(seat, act.kind, act.bid, act.special)
                self.at[f"{hp}/auction/{len(doc['auction'])}"] = (line, tok.column)
                live.apply(act, entry_of(self.rules, act, seat))
                if live.auction.done and live.contract is None:
                    event, self.phase = "redeal", "redeal"
                    live.finish()
            elif isinstance(act, Declare):
                contract = live.contract
                assert contract is not None
                seat = contract.declarer
                problems, _ = declaration_problems(
                    self.rules, contract, seat, Choice(act.trump, act.special), n
                )
                if problems:
                    raise IllegalAction(problems[0].rule, problems[0].message)
                self.at[f"{hp}/declaration"] = (line, tok.column)
                live.apply(act, entry_of(self.rules, act, seat))
            else:
                state = live.state
                seat = None if state is None else state.to_play
                if state is None or seat is None:  # the hand ended (decided) under mk5's rules
                    raise IllegalAction(
                        "R22", "a play, but mk5's hand is over: mk5 ends a hand once it is decided"
                    )
                full = len(state.current.plays) + 1 == state.trick_size
                state.check(seat, act.tile, None)
                self.at[f"{hp}/plays/{len(doc.get('plays', []))}"] = (line, tok.column)
                live.apply(act, entry_of(self.rules, act, seat))
                if full:
                    event, self.phase = ("hand" if state.finished else "trick"), "trick"
                    if state.finished:
                        self.score = live.finish()
        except IllegalAction as e:
            raise self._error(tok, line, e.message) from None
        self.events.append(event)
        self.steps.append("")
