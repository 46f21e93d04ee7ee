"""The table recorder's conversation, without the terminal: entries in, replies out.

``texas42 record`` (:mod:`texas42_log.cli.record`) reads a line, hands it to
:meth:`Recorder.handle`, prints the reply and, when the game changed, saves the
log. Everything a recorder decides — the prompt, the legal options that fit on
a line, the spellings it accepts (:func:`~texas42_log.engine.actions.parse_action`), a
refusal with its rule id and sentence (R30), ``undo``, ``show``, ``help``,
``quit``, the deal typed seat by seat — is here, so it is tested without a
terminal and the command only translates.

Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from ..engine.actions import Call, Deal, Declare, Play
from ..engine.auction import BidKind
from ..engine.errors import IllegalAction
from ..engine.live import deal_problem
from ..engine.seats import SEATS, TEAMS, Seat
from ..engine.tiles import Tile
from .game import Game

__all__ = ["Recorder", "Reply", "HELP"]

#: The longest line of options a prompt shows; past it, ``?`` lists them.
LINE: Final = 72

HELP: Final = """\
Type the action of the seat named in the prompt, one a line:
  a call      pass · 31 · 2m · 4m plunge · 2m splash   (84 = 2 marks where bids are in points)
  declare     trump 6 · 6 · sixes · trump doubles · trump no-trump · trump 6 stacks 2
              nello · nello doubles low · sevens
  a tile      5-0 · 0-5 · [0|5] · 50 · 2-5 led 2 (a declared lead, where the rules allow one)
  a deal      seven tiles for the seat asked, ? for a tile not known; an empty line: none known
Commands:
  ?           every legal action now
  undo        take back the last entry (the log on disk follows)
  show [WHO]  the moment as WHO sees it: A–D, public (default), review (after a hand), omniscient
  help        this text
  quit        stop; the log is saved after every entry — `texas42 record FILE` goes on
An illegal entry is refused with its rule (R16 …) and changes nothing (R30)."""


@dataclass(slots=True)
class Reply:
    """What to print, and what happened: ``changed`` — the game changed (save it);
    ``refused`` — an entry was refused; ``quit`` — stop."""

    lines: list[str] = field(default_factory=list)
    changed: bool = False
    refused: bool = False
    quit: bool = False


def _ranges(numbers: list[int], suffix: str = "") -> list[str]:
    """``[30, 31, 32, 35]`` → ``["30–32", "35"]``."""
    out: list[str] = []
    k = 0
    while k < len(numbers):
        j = k
        while j + 1 < len(numbers) and numbers[j + 1] == numbers[j] + 1:
            j += 1
        out.append(
            f"{numbers[k]}{suffix}" if j == k else f"{numbers[k]}{suffix}–{numbers[j]}{suffix}"
        )
        k = j + 1
    return out


def _points(n: object) -> str:
    return f"{n} point{'s' if n != 1 else ''}"


def options_text(game: Game) -> str:
    """The legal actions of the moment in a few words: ``pass, 30–41, 1m–2m``."""
    legal = game.legal_actions()
    calls = [a for a in legal if isinstance(a, Call)]
    if calls:
        words = ["pass"] if any(c.kind is BidKind.PASS for c in calls) else []
        words += _ranges(
            sorted(c.bid for c in calls if c.kind is BidKind.POINTS and c.bid is not None)
        )
        words += _ranges(
            sorted(
                c.bid
                for c in calls
                if c.kind is BidKind.MARKS and c.special is None and c.bid is not None
            ),
            "m",
        )
        for special in ("plunge", "splash"):
            words += [
                w + f" {special}"
                for w in _ranges(
                    sorted(c.bid for c in calls if c.special == special and c.bid is not None), "m"
                )
            ]
        return ", ".join(words)
    decls = [a for a in legal if isinstance(a, Declare)]
    if decls:
        trumps = sorted(
            {d.trump.value for d in decls if d.trump is not None},
            key=lambda v: (not v.isdigit(), v),
        )
        digits = [int(v) for v in trumps if v.isdigit()]
        words = [f"trump {r}" for r in _ranges(digits)] + [
            f"trump {v}" for v in trumps if not v.isdigit()
        ]
        if any(d.special == "nello" for d in decls):
            sides = sorted(
                {d.doubles for d in decls if d.special == "nello" and d.doubles is not None}
            )
            words.append("nello" + (f" (doubles {'/'.join(sides)})" if sides else ""))
        if any(d.special == "sevens" for d in decls):
            words.append("sevens")
        stacks = sorted({d.stacks for d in decls if d.stacks is not None})
        if stacks and all(d.stacks is not None for d in decls if d.special != "nello"):
            words.append(f"with stacks {' or '.join(map(str, stacks))}")
        return ", ".join(words)
    plays = sorted({a.tile for a in legal if isinstance(a, Play)})
    text = " ".join(str(t) for t in plays)
    return text if len(text) <= LINE else f"{len(plays)} tiles (? lists them)"


class Recorder:
    """A recording session over ``game``. ``default_observer`` is whom ``show`` shows."""

    def __init__(self, game: Game, default_observer: str = "public") -> None:
        self.game = game
        self.default_observer = default_observer
        #: The deal being typed, seat by seat (the dealer's left first, as dealt).
        self._deal: dict[Seat, list[Tile | None]] = {}

    # -- the prompt --------------------------------------------------------------

    def _deal_seat(self) -> Seat:
        return SEATS[len(self._deal)]

    def prompt(self) -> str:
        """The line before an entry: hand, who, what kind, the options where they fit."""
        turn = self.game.to_act
        if turn is None:
            return "> "
        if turn.kind == "deal":
            return (
                f"hand {turn.hand} · deal for {self._deal_seat()} (7 tiles, ? for one not known; "
                "empty: none known) > "
            )
        what = {"call": "to call", "declare": "to declare", "play": "to play"}[turn.kind]
        head = f"hand {turn.hand} · {self._name(turn.seat)} {what}"
        options = options_text(self.game)
        if turn.kind == "play":
            state = self.game.play_state
            if state is not None:
                head = (
                    f"hand {turn.hand} · trick {state.current.number} · {self._name(turn.seat)} "
                    f"{what}"
                )
        if options and len(head) + len(options) + 5 <= LINE + 30:
            return f"{head} ({options}) > "
        return f"{head} > "

    def _name(self, seat: Seat) -> str:
        name = self.game.players.get(seat)
        return f"{seat} ({name})" if name else seat

    # -- entries -----------------------------------------------------------------

    def handle(self, line: str) -> Reply:
        """One entry: a command or an action."""
        text = line.strip()
        word, _, rest = text.partition(" ")
        command = word.lower()
        if command in ("help", "h"):
            return Reply(HELP.splitlines())
        if command in ("quit", "exit", "q"):
            return Reply(["stopped"], quit=True)
        if command in ("undo", "u"):
            return self._undo()
        if command == "show":
            return self._show(rest.strip() or self.default_observer)
        if text == "?" and self.game.to_act is not None and self.game.to_act.kind == "deal":
            return Reply(
                [
                    f"type the seven tiles dealt to {self._deal_seat()} (5-0 or [0|5]), ? for each "
                    "one not "
                    "known, or an empty line if none is known"
                ]
            )
        if text == "?":
            legal = self.game.legal_actions()
            return Reply(
                [
                    "legal now: "
                    + (
                        ", ".join(str(a) for a in legal)
                        if legal
                        else "nothing to choose from a list"
                    )
                ]
            )
        turn = self.game.to_act
        if turn is None:
            return Reply(
                ["the match is over; nothing more is recorded (undo takes the last entry back)"]
            )
        if turn.kind == "deal":
            return self._deal_entry(text)
        try:
            action = self.game.parse(text)
        except ValueError as e:
            return Reply([f"not understood: {e}"], refused=True)
        before = self.game.to_dict()
        contract = self.game.contract
        try:
            step = self.game.push(action)
        except IllegalAction as e:
            return Reply(
                [f"refused ({e.rule}): {e}", "nothing changed"],
                refused=True,
                changed=self.game.record_rejected and self.game.to_dict() != before,
            )
        return Reply(
            [
                f"{step.seat}: {step.action}",
                *self._news(before, contract.describe() if contract else ""),
            ],
            changed=True,
        )

    def _deal_entry(self, text: str) -> Reply:
        seat = self._deal_seat()
        row: list[Tile | None]
        if not text:
            row = [None] * 7
        else:
            row = []
            for w in text.replace(",", " ").split():
                if w == "?":
                    row.append(None)
                    continue
                try:
                    row.append(Tile.parse(w))
                except ValueError as e:
                    return Reply([f"not understood: {e}"], refused=True)
        # The deal's own checks (R2, R3) on the rows typed so far, the others not yet known.
        try:
            deal_problem(Deal.of({**self._deal, seat: row}), self.game.hand_number)
        except IllegalAction as e:
            hint = " — type seven, ? for one not known" if e.rule == "R3" else ""
            return Reply([f"refused ({e.rule}): {e}{hint}"], refused=True)
        self._deal[seat] = row
        if len(self._deal) < 4:
            return Reply()
        deal, self._deal = self._deal, {}
        everything_unknown = all(t is None for ts in deal.values() for t in ts)
        try:
            self.game.deal(None if everything_unknown else deal)
        except IllegalAction as e:
            return Reply([f"refused ({e.rule}): {e}"], refused=True)
        return Reply(
            [
                f"hand {self.game.hand_number} dealt"
                + (" (no tile known)" if everything_unknown else "")
            ],
            changed=True,
        )

    def _undo(self) -> Reply:
        if self._deal:
            seat = SEATS[len(self._deal) - 1]
            del self._deal[seat]
            return Reply([f"undone: the tiles typed for {seat}"])
        try:
            step = self.game.pop()
        except IndexError as e:
            return Reply([str(e)])
        return Reply([f"undone: {step}"], changed=True)

    def _show(self, who: str) -> Reply:
        from ..views.text import view_lines
        from ..views.visibility import parse_observer

        try:
            observer = parse_observer(who)
            view = self.game.view(observer)
        except ValueError as e:
            return Reply([f"cannot show that: {e}"])
        return Reply(view_lines(view))

    def _news(self, before: dict[str, object], contract: str) -> list[str]:
        """What the entry brought about: a trick won, a hand's end, the match's end."""
        out: list[str] = []
        after = self.game.to_dict()
        hands_before = before["hands"]
        assert isinstance(hands_before, list)
        i = len(hands_before) - 1
        hand = after["hands"][i] if i < len(after["hands"]) else None
        if hand is None:
            return out
        old = hands_before[i]
        state = self.game.play_state
        if hand.get("outcome") is not None and old.get("outcome") is None:
            o = hand["outcome"]
            tricks = o.get("tricks") or []
            if tricks:
                last = tricks[-1]
                out.append(f"trick {len(tricks)} to {last['winner']}, {_points(last['points'])}")
            if o["result"] == "no-contract":
                out.append(f"hand {i + 1}: all passed, no contract; the deal passes on")
            else:
                pts = o["points"]
                out.append(
                    f"hand {i + 1}: {contract}, {o['result']} — hand points A+C {pts['A+C']}, B+D "
                    f"{pts['B+D']}; "
                    f"score A+C {o['score']['A+C']}, B+D {o['score']['B+D']}"
                )
        elif state is not None:
            done = [t for t in state.tricks if t.winner is not None]
            plays = [p for p in hand.get("plays", []) if not p.get("rejected")]
            size = len(state.seats)
            if done and len(plays) % size == 0 and len(plays) // size == len(done):
                t = done[-1]
                out.append(f"trick {t.number} to {t.winner}, {_points(t.points)}")
        if self.game.is_over:
            out.append(self.summary())
        return out

    def summary(self) -> str:
        """The match in one line."""
        g = self.game
        score = ", ".join(f"{t} {g.score[t]}" for t in TEAMS)
        unit = g.rules.match_goal
        if g.winner is not None:
            return (
                f"match complete: {g.winner} won, {unit} {score}, in {g.hand_number} "
                f"hand{'s' if g.hand_number != 1 else ''}"
            )
        return (
            f"match unfinished after {g.hand_number} hand{'s' if g.hand_number != 1 else ''}: "
            f"{unit} {score}"
        )
