"""Each seat's score card of the fair analysis: how well it played and bid, per hand and per
match, and per team (docs/analysis.md, "Score cards").

A card counts a seat's judged decisions — forced plays excluded, as there was nothing to
judge — in two parts:

* **plays**: each play's chance lost against the best fair play;
* **calls**: each call's expected marks given up against the call that pays best, read as
  a chance by halving it (a 1-mark contract swings 2 marks: 0.1 expected mark is the plays'
  5 %), capped at 1; and the declaration's chance lost. In a points game calls are not
  judged, so only the declaration counts.

For each part: the decisions judged, the ``?`` and ``??`` marks, the chance lost in total,
the **accuracy** — the mean of 1 − chance lost over the judged decisions (100 % when every
decision kept its value, as lichess's accuracy is) — and **at best**, the share with no
chance lost. A team's card is its two seats' decisions together.

Cards are counted from a hand's :class:`~texas42_log.analysis.fair_hands.FairHand`, which
is drawn with every tile of the log known: they are for whoever holds the log (``texas42
analyze``). Which plays were forced, and so every card, depends on the seat's hidden tiles.
Pure, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..engine.seats import SEATS, TEAMS, Seat, Team, team_of
from ..log.inert import inert_value
from . import REPORT_FORMS, ReportForm, as_stated
from .fair_hands import FairHand

__all__ = [
    "Part",
    "Card",
    "hand_cards",
    "match_cards",
    "add_cards",
    "team_cards",
    "cards_json",
    "card_line",
    "cards_lines",
    "card_rows",
    "player_key",
    "add_player_cards",
    "CARD_COLUMNS",
    "match_card_output",
    "season_output",
]


@dataclass(slots=True)
class Part:
    """One part of a card (the plays, or the calls): its judged decisions' counts."""

    decisions: int = 0
    dubious: int = 0
    blunders: int = 0
    chance_lost: float = 0.0
    at_best: int = 0

    def add(self, lost: float, mark: str | None) -> None:
        self.decisions += 1
        self.chance_lost += lost
        self.at_best += lost == 0
        self.dubious += mark == "?"
        self.blunders += mark == "??"

    def merge(self, other: Part) -> None:
        self.decisions += other.decisions
        self.dubious += other.dubious
        self.blunders += other.blunders
        self.chance_lost += other.chance_lost
        self.at_best += other.at_best

    @property
    def accuracy(self) -> float | None:
        """The mean of 1 − chance lost (None with no decision judged)."""
        if not self.decisions:
            return None
        return as_stated(1 - self.chance_lost / self.decisions)

    @property
    def best_share(self) -> float | None:
        """The share of the judged decisions with no chance lost ("at best")."""
        return None if not self.decisions else as_stated(self.at_best / self.decisions)

    def as_dict(self) -> dict[str, Any]:
        return {
            "decisions": self.decisions,
            "marks": {"?": self.dubious, "??": self.blunders},
            "chance_lost": as_stated(self.chance_lost),
            "accuracy": self.accuracy,
            "at_best": self.best_share,
        }


@dataclass(slots=True)
class Card:
    """A seat's (or a team's) card: its plays and its calls."""

    plays: Part = field(default_factory=Part)
    calls: Part = field(default_factory=Part)

    def merge(self, other: Card) -> None:
        self.plays.merge(other.plays)
        self.calls.merge(other.calls)

    def as_dict(self) -> dict[str, Any]:
        return {"plays": self.plays.as_dict(), "calls": self.calls.as_dict()}


def _call_chance(marks_lost: float) -> float:
    """Expected marks given up, read as a chance (see the module text)."""
    return min(1.0, marks_lost / 2)


def hand_cards(fair: FairHand) -> dict[Seat, Card]:
    """Each seat's card of one hand (every seat, judged or not)."""
    cards = {s: Card() for s in SEATS}
    for f in fair.plays:
        if f.decision is None:
            continue  # forced: nothing to judge
        cards[f.seat].plays.add(f.chance_lost, f.mark)
    a = fair.auction
    if a is not None:
        for c in a.calls:
            if c.judged:
                cards[c.seat].calls.add(_call_chance(c.marks_lost), c.mark)
        if a.declaration is not None:
            d = a.declaration
            cards[d.seat].calls.add(d.chance_lost, d.mark)
    return cards


def add_cards(into: dict[Any, Card], more: dict[Any, Card]) -> dict[Any, Card]:
    """``more`` added into ``into`` (by key: a seat, a team, a player's name); returned."""
    for key, card in more.items():
        into.setdefault(key, Card()).merge(card)
    return into


def team_cards(cards: dict[Seat, Card]) -> dict[Team, Card]:
    """The teams' cards: each team's two seats together."""
    out: dict[Team, Card] = {t: Card() for t in TEAMS}
    for seat, card in cards.items():
        out[team_of(seat)].merge(card)
    return out


def cards_json(cards: dict[Seat, Card]) -> dict[str, Any]:
    """``by_seat`` and ``by_team`` as the report's JSON holds them."""
    return {
        "by_seat": {s: c.as_dict() for s, c in cards.items()},
        "by_team": {t: c.as_dict() for t, c in team_cards(cards).items()},
    }


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{x:.0%}"


def _part_words(name: str, p: Part) -> str:
    if not p.decisions:
        return f"{name} none judged"
    return (
        f"{name} {p.decisions} judged · {p.dubious} ? · {p.blunders} ?? · "
        f"chance lost {p.chance_lost:.2f} in all · accuracy {_pct(p.accuracy)} · "
        f"at best {_pct(p.best_share)}"
    )


def card_line(who: str, card: Card) -> str:
    """One card as a line of the text report."""
    return f"  {who:<12} {_part_words('plays', card.plays)} | {_part_words('calls', card.calls)}"


def match_cards(fairs: Iterable[FairHand]) -> dict[Seat, Card]:
    """Each seat's card of a match: its hands' cards together."""
    out: dict[Seat, Card] = {s: Card() for s in SEATS}
    for f in fairs:
        add_cards(out, dict(hand_cards(f)))
    return out


#: The columns of ``analyze --cards --format csv`` (and ``--by-player``): a row per seat (or
#: team, or player) and hand (``all``: the match, or the corpus) and part.
CARD_COLUMNS = (
    "source",
    "hand",
    "who",
    "player",
    "part",
    "decisions",
    "dubious",
    "blunders",
    "chance_lost",
    "accuracy",
    "at_best",
)


def card_rows(source: str, hand: str, who: str, player: str, card: Card) -> list[list[str]]:
    """A card's two rows of :data:`CARD_COLUMNS`."""
    out = []
    for name, p in (("plays", card.plays), ("calls", card.calls)):
        out.append(
            [
                source,
                hand,
                who,
                player,
                name,
                str(p.decisions),
                str(p.dubious),
                str(p.blunders),
                f"{as_stated(p.chance_lost):g}",
                "" if p.accuracy is None else f"{p.accuracy:g}",
                "" if p.best_share is None else f"{p.best_share:g}",
            ]
        )
    return out


def player_key(seat: Seat, players: dict[Seat, str]) -> str:
    """Whom a card belongs to over a corpus: the player's name, else ``seat A`` (a log that
    names nobody), so that a club's season groups by name. Two seats of one match that
    share a name (four bots called ``rule``) are two players the log cannot tell apart:
    each is the name with its seat, ``rule (seat A)``."""
    name = players.get(seat)
    if not name:
        return f"seat {seat}"
    shared = sum(1 for s in SEATS if players.get(s) == name) > 1
    return f"{name} (seat {seat})" if shared else name


def add_player_cards(
    into: dict[str, Card], cards: dict[Seat, Card], players: dict[Seat, str]
) -> dict[str, Card]:
    """One hand's (or match's) cards added into ``into`` by player (:func:`player_key`):
    every seat's card counts, the cards of one name add up."""
    for seat, card in cards.items():
        into.setdefault(player_key(seat, players), Card()).merge(card)
    return into


def match_card_output(
    form: ReportForm, source: str, by_hand: dict[int, dict[Seat, Card]], players: dict[Seat, str]
) -> str | dict[str, Any] | list[list[str]]:
    """``analyze --cards`` of one match in ``form`` (text lines, a JSON object, or CSV rows
    of :data:`CARD_COLUMNS`): each seat's and team's card of the match, and of each hand."""
    whole: dict[Seat, Card] = {s: Card() for s in SEATS}
    for cards in by_hand.values():
        add_cards(whole, dict(cards))
    if form == "json":
        return {
            "file": source,
            "players": dict(players),
            **cards_json(whole),
            "hands": [{"hand": h + 1, **cards_json(c)} for h, c in by_hand.items()],
        }
    if form == "csv":
        rows: list[list[str]] = []
        for label, cards in [*((str(h + 1), c) for h, c in by_hand.items()), ("all", whole)]:
            for seat, card in cards.items():
                rows += card_rows(source, label, seat, players.get(seat, ""), card)
            for team, card in team_cards(cards).items():
                rows += card_rows(source, label, team, "", card)
        return rows
    _text_form(form)
    head = f"{source}: score cards of {len(by_hand)} hands (the fair analysis)"
    return "\n".join([head, *cards_lines(whole, players)])


def cards_lines(cards: dict[Seat, Card], players: dict[Seat, str]) -> list[str]:
    """A line per seat (with its player's name, made inert) and per team."""
    lines = []
    for seat, card in cards.items():
        name = players.get(seat)
        lines.append(card_line(f"{seat} {inert_value(name)[:9]}" if name else seat, card))
    for team, card in team_cards(cards).items():
        lines.append(card_line(team, card))
    return lines


def _text_form(form: str) -> None:
    """A form that is none of the others must be text: a new form is never written as
    text unsaid."""
    if form != "text":
        raise ValueError(f"no report form {form!r}; the forms are {', '.join(REPORT_FORMS)}")


def season_output(
    form: ReportForm, by_player: dict[str, Card]
) -> str | dict[str, Any] | list[list[str]]:
    """``analyze --by-player``: the score cards of a corpus grouped by player name (a club's
    season table), the most decisions first."""
    order = sorted(by_player.items(), key=lambda kv: (-kv[1].plays.decisions, kv[0]))
    if form == "json":
        return {"by_player": {name: card.as_dict() for name, card in order}}
    if form == "csv":
        return [row for name, card in order for row in card_rows("", "all", "", name, card)]
    _text_form(form)
    lines = [
        f"Score cards by player, {len(order)} players (the fair analysis; seats of one match "
        "that share a name are told apart by their seat):"
    ]
    lines += [card_line(inert_value(name)[:12], card) for name, card in order]
    return "\n".join(lines)
