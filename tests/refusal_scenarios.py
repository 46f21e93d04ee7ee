"""Hands to attack a seat's refusals with: a point contract, Nel-O and a Plunge, each hand
played from its deal by a script (the auction, the declaration) and seeded random plays;
the same hand with the tiles one seat cannot see dealt otherwise; and every action text
an attacker sends at a moment (every tile, every call, every trump, malformed ones).

A refusal is a view (R25): told to a seat, it must be the same whatever that seat cannot
see. The tests compare what a seat is told in the two deals, over ``Game``
(tests/test_refusals.py) and over the table's wire (tests/test_table_refusals.py).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from texas42_log.engine.errors import IllegalAction
from texas42_log.engine.seats import SEATS, Seat
from texas42_log.engine.tiles import TILES
from texas42_log.play.game import Game

Deal = dict[Seat, list[str]]
Action = tuple[Seat, str]


@dataclass(frozen=True)
class Scenario:
    """One hand: its preset, its deal (A deals, so B calls first), the calls B, C, D and
    A make, the declaration (a text the declarer may make) and the seed of the plays."""

    name: str
    preset: str
    deal: Deal
    calls: tuple[str, str, str, str]
    declaration: str
    seed: int


def _deal(seed: int, fixed: dict[Seat, list[str]] | None = None) -> Deal:
    """A deal drawn from ``seed``, the tiles of ``fixed`` where it says."""
    fixed = fixed or {}
    taken = {t for tiles in fixed.values() for t in tiles}
    rest = [str(t) for t in TILES if str(t) not in taken]
    random.Random(seed).shuffle(rest)
    out: Deal = {}
    for s in SEATS:
        mine = list(fixed.get(s, []))
        while len(mine) < 7:
            mine.append(rest.pop())
        out[s] = mine
    return out


SCENARIOS = (
    Scenario("point contract", "standard", _deal(1), ("30", "pass", "31", "32"), "trump 6", 4),
    Scenario("Nel-O", "casual", _deal(2), ("pass", "pass", "pass", "1m"), "nello", 5),
    Scenario(
        "Plunge",
        "casual",
        _deal(3, {"A": ["[0|0]", "[1|1]", "[2|2]", "[3|3]"]}),
        ("pass", "pass", "pass", "4m plunge"),
        "trump 0",
        6,
    ),
)


def start(scenario: Scenario, deal: Deal) -> Game:
    game = Game(scenario.preset)
    game.deal(deal)  # type: ignore[arg-type]
    return game


def script(scenario: Scenario) -> list[Action]:
    """The hand's actions, from the first call to its end."""
    game = start(scenario, scenario.deal)
    rng = random.Random(scenario.seed)
    out: list[Action] = []
    texts = iter([*scenario.calls, scenario.declaration])
    while (turn := game.to_act) is not None and turn.hand == 1:
        text = next(texts) if turn.kind != "play" else str(rng.choice(game.legal_actions()))
        game.push(text, seat=turn.seat)
        out.append((turn.seat, text))
    return out


def replay(scenario: Scenario, deal: Deal, actions: list[Action]) -> Game:
    game = start(scenario, deal)
    for seat, text in actions:
        game.push(text, seat=seat)
    return game


def redeal(
    scenario: Scenario, seat: Seat, actions: list[Action], rng: random.Random
) -> Deal | None:
    """The scenario's deal with the tiles ``seat`` cannot see after ``actions`` (the others'
    tiles not yet played) dealt again among the other seats, such that ``actions`` stay
    legal and the deal differs; None if no such deal was found."""
    deal = scenario.deal
    played = {text for _, text in actions if text.startswith("[")}
    others = [s for s in SEATS if s != seat]
    for _ in range(200):
        pool = [t for s in others for t in deal[s] if t not in played]
        rng.shuffle(pool)
        new: Deal = {seat: list(deal[seat])}
        for s in others:
            n = sum(1 for t in deal[s] if t not in played)
            new[s] = [t for t in deal[s] if t in played] + pool[:n]
            pool = pool[n:]
        if all(sorted(new[s]) == sorted(deal[s]) for s in others):
            continue
        try:
            replay(scenario, new, actions)
        except IllegalAction:
            continue
        return new
    return None


def moments(actions: list[Action], every: int, seat: Seat = "A") -> list[int]:
    """The moments to attack at (after so many actions): every ``every``th, the auction's
    last call (3) and the declaration (4), and the first two plays of ``seat``."""
    plays = [j for j, (s, text) in enumerate(actions) if s == seat and text.startswith("[")]
    return sorted(set(range(0, len(actions), every)) | {3, 4} | set(plays[:2]))


def attacks() -> Iterator[str]:
    """Every action text an attacker sends at any moment: each tile of the set (and a
    declared lead), every call, every trump, and texts that are no action."""
    for t in TILES:
        yield str(t)
    yield "[6|4] led 4"
    yield "pass"
    yield from (str(n) for n in range(29, 44))
    yield from (f"{n}m" for n in range(1, 8))
    yield from ("4m plunge", "5m plunge", "2m splash", "3m splash", "1m nello", "2m sevens")
    yield from (f"trump {n}" for n in range(7))
    yield from ("trump doubles", "trump no-trump", "nello", "sevens")
    yield from ("", "seventy", "[9|9]", "trump 9", "x" * 150)
