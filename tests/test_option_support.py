"""Every rule option against every part of the tool (texas42_log/engine/support.py).

Each part that plays or values a hand declares what it honours: a
:class:`~texas42_log.engine.support.Support`, every option honoured but those its
limits name. This walk takes each option's other values (from the declaration in
:class:`~texas42_log.engine.rules.Rules`, so a new option is walked with no edit
here) and holds every part to its word:

* a part that honours the option acts by it: the engine validates a match played
  under it; both open-hand solvers give every legal play the value a brute force of
  the engine's own play gives (so a solver that ignored a count or a trick rule fails
  here); each bot plays a hand of legal actions; the environments number every legal
  action and play a hand to its end; the sampling bots play a hand and the fair
  analysis and the auction's table value it;
* a part that does not refuses up front, at its own entry point, with one sentence
  naming the option, its value and the part;
* the foreign writers say what they can write by their round trip: a match under the
  rules is written and read back with the same rules, or refused naming the option.

The walks that play and solve hands (a minute and more of work) are marked slow: the
whole suite runs them, ``-m "not slow"`` leaves them out.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from texas42_log.analysis import bidding, fair
from texas42_log.analysis.api import fair_analysis
from texas42_log.bots import BOTS
from texas42_log.bots.base import play_out, play_turn
from texas42_log.bots.rule import RandomBot
from texas42_log.engine import native, solver
from texas42_log.engine.rules import OPTIONS, SPECIALS, STANDARD, Rules
from texas42_log.engine.seats import SEATS
from texas42_log.engine.support import ENGINE, RulesNotSupported, Support
from texas42_log.envs import encoding
from texas42_log.files import formats
from texas42_log.files.validate import validate_bytes
from texas42_log.log.check import effective_rules
from texas42_log.log.foreign import CannotExport
from texas42_log.log.model import Match
from texas42_log.play.game import Game
from texas42_log.play.generate import random_match

from .test_solver import minimax

PACKAGE = Path(__file__).resolve().parent.parent / "texas42_log"

#: Every part that declares what it honours, by the name its refusals give.
PARTS: dict[str, Support] = {
    "engine": ENGINE,
    "reference solver": solver.RULES_SUPPORT,
    "native solver": native.RULES_SUPPORT,
    "fair analysis": fair.RULES_SUPPORT,
    "auction's table": bidding.RULES_SUPPORT,
    **{f"bot {name}": make.support for name, make in BOTS.items()},  # type: ignore[attr-defined]
    "environments": encoding.RULES_SUPPORT,
}


def _needs(option: str) -> dict[str, Any]:
    """What else must be on for ``option`` to act: a special contract's own options
    need it played; the match goal in points needs a goal in points."""
    for special in SPECIALS:
        if option.startswith(f"{special}_"):
            return {special: True}
    if option.startswith("special_"):
        return {"plunge": True, "splash": True}
    if option == "match_goal_points":
        return {"match_goal": "points"}
    return {}


def _other_values(option: str) -> list[Any]:
    o = OPTIONS[option]
    base = STANDARD.with_options(**_needs(option))
    now = getattr(base, option)
    if o.kind == "enum":
        return [c for c in o.choices if c != now]
    if o.kind == "bool":
        return [not now]
    if now is None:
        return [2]
    return sorted({v for v in (now - 1, now + 1, now + 4) if o.low <= v <= o.high})


def _rules(option: str, value: Any) -> Rules | None:
    """The seed rules with ``option`` at ``value`` (and what it needs), or None if the
    engine refuses them as rules no game can be played under."""
    rules = STANDARD.with_options(**_needs(option), **{option: value})
    try:
        Game(rules)
    except ValueError as e:
        assert "cannot be played" in str(e)
        return None
    return rules


WALK = [(option, value) for option in OPTIONS for value in _other_values(option)]
PLAYABLE = [(o, v) for o, v in WALK if _rules(o, v) is not None]
IDS = [f"{o}={v}" for o, v in PLAYABLE]


def test_the_walk_takes_every_option_and_every_part() -> None:
    assert {o for o, _ in PLAYABLE} == set(OPTIONS)
    # Every module that declares a Support is walked (a new part cannot be left out).
    declared = {
        str(p.relative_to(PACKAGE))
        for p in PACKAGE.rglob("*.py")
        if re.search(r"^RULES_SUPPORT\b|^ENGINE = Support\(", p.read_text("utf-8"), re.M)
    }
    assert declared == {
        "engine/support.py",
        "engine/solver.py",
        "engine/native.py",
        "analysis/fair.py",
        "analysis/bidding.py",
        "envs/encoding.py",
    }
    assert all(isinstance(getattr(make, "support", None), Support) for make in BOTS.values())
    for part in PARTS.values():
        for limit in part.limits:
            assert set(limit.options) <= set(OPTIONS), limit.options


@pytest.mark.parametrize("option,value", PLAYABLE, ids=IDS)
def test_each_part_honours_the_option_or_refuses_it_by_name(option: str, value: Any) -> None:
    rules = _rules(option, value)
    assert rules is not None
    changed = set(rules.differences(STANDARD))
    for name, part in PARTS.items():
        refusal = part.refusal(rules)
        if part.honours(option):
            assert refusal is None, (name, str(refusal))
        elif refusal is not None:
            said = str(refusal)
            assert refusal.option in changed and f"{refusal.option} = " in said, said
            assert said.startswith(part.part) and "\n" not in said, said


def _refused(part: Support, rules: Rules) -> re.Pattern[str] | None:
    refusal = part.refusal(rules)
    return None if refusal is None else re.compile(re.escape(str(refusal)))


def _played(rules: Rules, seed: int) -> Game:
    """A game under ``rules`` whose first hand random legal play took to its last two
    tricks, every trick counted (the solvers value all seven tricks)."""
    game = Game(rules.with_options(hand_end="all-tricks"), seed=seed)
    bot = RandomBot(seed)
    while (st := game.play_state) is None or st.current.number < 6:
        if game.to_act is None:
            break
        play_turn(game, {s: bot for s in SEATS})
    return game


@pytest.mark.slow
@pytest.mark.parametrize("option,value", PLAYABLE, ids=IDS)
def test_the_engine_the_solvers_and_the_envs_act_by_the_option(option: str, value: Any) -> None:
    rules = _rules(option, value)
    assert rules is not None
    # The engine: a match played under the rules validates under them.
    doc = random_match(7, rules=rules, max_hands=2)
    assert validate_bytes(json.dumps(doc).encode()).valid
    # Both solvers: every legal play's value is the brute force's, two tricks from the end.
    for seed in range(4):
        st = _played(rules, seed).play_state
        if st is None or st.over or st.current.number < 6:
            continue
        for part, solve in ((solver.RULES_SUPPORT, solver.Solver), (native.RULES_SUPPORT, None)):
            refused = _refused(part, st.rules)
            if refused is not None:
                with pytest.raises(RulesNotSupported, match=refused):
                    (solve or native.NativeSolver)(st)
                continue
            if solve is None and not native.AVAILABLE:
                continue
            s = (solve or native.NativeSolver)(st)
            seat = st.to_play
            assert seat is not None
            for move, v in s.play_values(st).items():
                child = st.copy()
                child.play(seat, *move)
                assert v == minimax(child), (part.part, move)
        break
    # The environments: refused by name, or every legal action numbered to the hand's end.
    from texas42_log.envs.aec import env

    refused = _refused(encoding.RULES_SUPPORT, rules)
    if refused is not None:
        with pytest.raises(RulesNotSupported, match=refused):
            env(rules)
        return
    e = env(rules)
    e.reset(seed=3)
    rng = random.Random(3)
    for _agent in e.agent_iter(max_iter=400):
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        legal = [i for i, m in enumerate(obs["action_mask"]) if m]
        e.step(rng.choice(legal))
    assert not e.agents


@pytest.mark.parametrize("option,value", PLAYABLE, ids=IDS)
def test_the_rule_and_random_bots_play_by_the_option(option: str, value: Any) -> None:
    rules = _rules(option, value)
    assert rules is not None
    for name in ("random", "rule"):
        game = Game(rules, seed=11)
        play_out(game, {s: BOTS[name](seed=i) for i, s in enumerate(SEATS)}, hands=1)
        assert game.to_dict(hands=1)["hands"]


@pytest.mark.parametrize("option,value", PLAYABLE, ids=IDS)
def test_the_foreign_writers_write_the_rules_or_refuse_the_option(option: str, value: Any) -> None:
    rules = _rules(option, value)
    assert rules is not None
    match = Match.model_validate(random_match(9, rules=rules, max_hands=1))
    for fmt in (f for f in formats.WRITABLE if f in formats.READABLE):
        try:
            text = formats.write_matches([match], fmt)
        except CannotExport as e:
            # Refused: the sentence names an option the format cannot say (tricksy,
            # receipts and the plunge app have their presets), or the hand whose play
            # the format cannot hold.
            said = str(e)
            assert any(re.search(rf"\b{o}\b", said) for o in OPTIONS) or re.search(
                r"\bhand \d+", said
            ), (fmt, said)
            continue
        back = formats.read_sources(text, fmt)[0]
        doc = back.doc if back.doc is not None else json.loads(back.raw or "")
        read = effective_rules(Match.model_validate(doc))
        if read != rules:  # written under the format's own rules: said as a loss, by name
            losses = " ".join(formats.write_losses([match], fmt))
            for name in read.differences(rules):
                assert f"{name} " in losses, (fmt, name, losses)


@pytest.mark.slow
@pytest.mark.parametrize("option,value", PLAYABLE, ids=IDS)
def test_the_fair_analysis_the_table_and_the_sampling_bots_act_by_the_option(
    option: str, value: Any
) -> None:
    rules = _rules(option, value)
    assert rules is not None
    game = Game(rules, seed=5)
    bots = {s: BOTS["sampling"](seed=i, worlds=2, bid_worlds=4) for i, s in enumerate(SEATS)}
    play_out(game, bots, hands=1)
    for name in ("sampling-open", "sampling-contract"):
        other = Game(rules, seed=6)
        kw: dict[str, int] = {"worlds": 2, "bid_worlds": 4 if name != "sampling-open" else 2}
        play_out(other, {s: BOTS[name](seed=i, **kw) for i, s in enumerate(SEATS)}, hands=1)
    match = Match.model_validate(game.to_dict(hands=1))
    if match.hands[0].declaration is not None:
        result = fair_analysis(match, 0, worlds=2)
        assert result.auction is not None


def test_the_command_line_says_a_refusal_in_one_line_and_exits_2(tmp_path: Path) -> None:
    """A part's refusal reaches the user as one sentence and exit 2 (a usage error): here
    both solvers are given a limit the seed rules are past, and ``analyze`` asks them."""
    import subprocess
    import sys

    program = """
import sys
from texas42_log.engine import native, solver
from texas42_log.engine.support import Limit, Support
limit = Limit(("max_mark_bid",), lambda r: r.max_mark_bid < 7, "a limit for this test")
native.RULES_SUPPORT = Support("the native solver", (limit,))
solver.RULES_SUPPORT = Support("the reference solver", (limit,))
sys.argv = ["texas42", "analyze", sys.argv[1], "--hand", "1", "-j", "1"]
from texas42_log.cli import main
main()
"""
    fixture = PACKAGE.parent / "fixtures" / "valid" / "seed-worked-example.json"
    done = subprocess.run(
        [sys.executable, "-c", program, str(fixture)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2, done.stderr
    assert re.fullmatch(
        r"texas42: error: the (native|reference) solver cannot honour the rule option "
        r"max_mark_bid = 7: a limit for this test\n",
        done.stderr,
    ), done.stderr
