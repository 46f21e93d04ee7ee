"""Every answer of the table is a view: what seat A is told over the wire — every refusal
(status and body) and every push — is the same, byte for byte, whatever A cannot see.

Two tables are put at the same moment of the same hand, their deals differing only in the
tiles A cannot see then (tests/refusal_scenarios.py: a point contract, Nel-O, a
Plunge); from A's link an attacker sends every action A may not take — every tile of
the set, every call and trump, texts that are no action, a stale moment, a request sent
twice, bodies that are not an action — then the same legal action (or, off A's turn,
the seat to act makes it). Also: the bound on the refused attempts a log keeps, action
texts and bodies past their limits, and new links for a new match at an old path."""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path
from typing import Any

import pytest

from texas42_log.engine.actions import Deal as DealAction
from texas42_log.engine.live import random_deal
from texas42_log.engine.seats import Seat
from texas42_log.engine.tiles import TILES
from texas42_log.play.game import REJECTED_PER_TURN
from texas42_log.table.referee import MAX_ACT_BODY, MAX_ACTION, Table, TableError

from .refusal_scenarios import SCENARIOS, Scenario, attacks, moments, redeal, script
from .table_client import Served, served, start_table
from .test_table import new_table
from .test_table_cli import _call, _env

pytestmark = pytest.mark.xdist_group("table-refusals")


def _table(path: Path, scenario: Scenario, deal: dict[Seat, list[str]]) -> Table:
    """A table of the scenario's preset whose first hand is ``deal`` (and the hands after
    it drawn from a fixed seed: the attack stays in hand 1)."""
    dealt = [0]

    def deals(dealer: Seat) -> DealAction:
        dealt[0] += 1
        if dealt[0] == 1:
            return DealAction.of(deal)  # type: ignore[arg-type]
        return random_deal(9, dealt[0], dealer)

    return Table.new(path, scenario.preset, deal=deals)


def _raw(w: Served, body: bytes) -> tuple[int, bytes]:
    """A request to act whose body is ``body`` as it is (not an action, too large…)."""
    import http.client

    c = http.client.HTTPConnection("127.0.0.1", w.port, timeout=30)
    c.request(
        "POST",
        "/table/act",
        body=body,
        headers={
            "Host": f"127.0.0.1:{w.port}",
            "Authorization": f"token {w.tokens['A']}",
            "Origin": f"http://127.0.0.1:{w.port}",
            "Content-Type": "application/json",
        },
    )
    r = c.getresponse()
    out = r.status, r.read()
    c.close()
    return out


def _attack(table: Table, then: tuple[Seat, str]) -> tuple[list[tuple[int, bytes]], list[bytes]]:
    """From A's link: every attack, then ``then`` (a legal action by its seat); every answer
    to A and every push A's page receives."""
    answers: list[tuple[int, bytes]] = []
    with served(table) as w:
        ev = w.events("A")
        try:
            ev.wait_for(table.moment)
            m = table.moment
            mine = table.game.to_act is not None and table.game.to_act.seat == "A"
            for j, text in enumerate(attacks()):
                if mine and table.game.is_legal(text):
                    continue  # what A may do is no attack (and the same on both deals)
                r = w.act("A", text, moment=m, request=f"atk-{j}")
                answers.append((r.status, r.body))
            for body in (
                {"moment": m - 1, "action": "pass", "request": "stale"},
                {"moment": m, "action": "pass", "request": "atk-0"},  # sent before
                {"moment": True, "action": "pass", "request": "b"},
                {"moment": m, "action": ["pass"], "request": "l"},
                {"moment": m, "action": "p" * (MAX_ACTION + 18), "request": "long"},
                [m, "pass"],
            ):
                r = w.request("POST", "/table/act", body, who="A")
                answers.append((r.status, r.body))
            for raw in (b"{", b'"\\ud800"', b" " * (MAX_ACT_BODY + 1)):
                answers.append(_raw(w, raw))
            seat, text = then
            r = w.act(seat, text, moment=m, request="legal")
            assert r.status == 200, r.body
            if seat == "A":
                answers.append((r.status, r.body))
            ev.wait_for(r.json()["moment"])
            time.sleep(0.05)  # a push that should not come has its chance to
            return answers, list(ev.pushes)
        finally:
            ev.close()


def _compare(tmp_path: Path, scenario: Scenario, every: int) -> None:
    actions = script(scenario)
    rng = random.Random(scenario.name)
    chosen = moments(actions, every)
    compared = 0
    for k in chosen:
        # the action after the moment stays legal too: both tables then take it
        world = redeal(scenario, "A", actions[: k + 1], rng)
        if world is None:
            continue
        told = []
        for name, deal in (("dealt", scenario.deal), ("redealt", world)):
            table = _table(tmp_path / f"{scenario.name}-{k}-{name}.json", scenario, deal)
            for j, (seat, text) in enumerate(actions[:k]):
                table.act(seat, table.moment, text, f"r{j}")
            told.append(_attack(table, actions[k]))
        assert told[0][0] == told[1][0], f"{scenario.name}, after {k} actions: A's answers differ"
        assert told[0][1] == told[1][1], f"{scenario.name}, after {k} actions: A's pushes differ"
        statuses = {status for status, _ in told[0][0]}
        assert {400, 409, 413}.issubset(statuses), statuses
        if actions[k][0] == "A":
            assert 422 in statuses  # A's own turn: the rules refused something
        compared += 1
    assert compared >= len(chosen) - 1, (compared, chosen)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
def test_seat_a_is_answered_and_pushed_the_same_whatever_it_cannot_see(
    tmp_path: Path, scenario: Scenario
) -> None:
    """A few moments of each hand: the auction's last call (A's), the declaration, every
    seventh action."""
    _compare(tmp_path, scenario, every=7)


@pytest.mark.long
@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
def test_seat_a_is_answered_and_pushed_the_same_whatever_it_cannot_see_at_every_moment(
    tmp_path: Path, scenario: Scenario
) -> None:
    _compare(tmp_path, scenario, every=1)


def test_a_refusal_tells_a_seat_nothing_of_who_holds_a_tile(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    rng = random.Random(1)
    while (turn := table.game.to_act) is not None and turn.kind != "play":
        action = str(rng.choice(table.game.legal_actions()))
        table.act(turn.seat, table.moment, action, f"r{table.moment}")
    assert turn is not None
    hidden = next(
        str(t)
        for s in "ABCD"
        if s != turn.seat
        for t in table.game.view("omniscient").hands[s] or ()
    )
    with served(table) as w:
        r = w.act(turn.seat, hidden)
        body: dict[str, Any] = r.json()
    assert r.status == 422
    assert body["error"] == f"{hidden} is not in your hand (R3)"
    assert body["key"] == "not_in_hand" and body["params"] == {"rule": "R3", "tile": hidden}
    assert body["error"].count("(R3)") == 1  # the rule once: the page shows the sentence


def test_refused_attempts_stop_growing_the_log_at_their_bound(tmp_path: Path) -> None:
    """A thousand refused plays on one turn once grew the log by 98 kB, rewritten whole
    each time: now the log keeps REJECTED_PER_TURN of them and writes nothing more."""
    table = new_table(tmp_path)
    turn = table.game.to_act
    assert turn is not None and turn.kind == "call"
    sizes = []
    with served(table) as w:
        for j in range(REJECTED_PER_TURN + 30):
            r = w.act(turn.seat, "29", request=f"x{j}")
            assert r.status == 422
            sizes.append(table.path.stat().st_size)
            body = r.json()
            assert body["recorded"] is (j < REJECTED_PER_TURN)
        assert "not kept in the log" in body["error"]
    assert sizes[REJECTED_PER_TURN - 1 :] == [sizes[REJECTED_PER_TURN - 1]] * 31
    doc = json.loads(table.path.read_bytes())
    assert sum(1 for c in doc["hands"][0]["auction"] if c.get("rejected")) == REJECTED_PER_TURN


def test_an_action_past_its_length_is_refused_not_cut(tmp_path: Path) -> None:
    """A 218-character text once became its first 200 characters — a pass."""
    table = new_table(tmp_path)
    turn = table.game.to_act
    assert turn is not None
    before = table.path.read_bytes()
    with served(table) as w:
        r = w.act(turn.seat, "pass" + " " * 214)
        assert r.status == 400 and r.json()["key"] == "too_long", r.body
        status, body = _raw(w, json.dumps({"x": "y" * MAX_ACT_BODY}).encode())
    assert status == 413 and json.loads(body)["key"] == "too_large"
    assert table.path.read_bytes() == before and table.moment == 1


def test_a_new_match_at_an_old_path_gets_new_links(tmp_path: Path) -> None:
    """Kept links are a match's, not a file name's: friday.json deleted and a new match
    started at its path prints new links, and the old ones open nothing."""
    env = _env(tmp_path)
    log = tmp_path / "friday.json"
    first = start_table(log, env=env)
    first.stop()
    again = start_table(log, env=env)  # the same match goes on with the same links
    again.stop()
    assert again.links == first.links
    log.unlink()
    new = start_table(log, env=env)
    try:
        assert set(new.links.values()).isdisjoint(first.links.values())
        base, old_token = new.links["seat A"].split("?")[0], first.links["seat A"].split("?")[1]
        status, _ = _call(f"{base}?{old_token}", "GET", "/table/state")
        assert status == 403
        status, state = _call(new.links["seat A"], "GET", "/table/state")
        assert status == 200 and state["observer"] == "A"
    finally:
        new.stop()


def test_a_rejected_attempt_is_in_no_view_of_any_observer(tmp_path: Path) -> None:
    """The attempts a table keeps in the log (R30) show in no view — a seat's, the
    public's, the review's — during a hand or after it: every view of the match is the
    same as the views of the same match without them."""
    from texas42_log.log.model import Match
    from texas42_log.views.visibility import match_views

    table = new_table(tmp_path)
    rng = random.Random(3)
    tried = 0
    while table.finished_hands() < 2:
        turn = table.game.to_act
        assert turn is not None
        legal = {str(a) for a in table.game.legal_actions()}
        wrong = next(str(t) for t in TILES if str(t) not in legal) if turn.kind == "play" else "29"
        if turn.kind != "declare":
            with pytest.raises(TableError):
                table.act(turn.seat, table.moment, wrong, f"w{table.moment}")
            tried += 1
        table.act(turn.seat, table.moment, str(rng.choice(sorted(legal))), f"r{table.moment}")
    doc = json.loads(table.path.read_bytes())
    kept = sum(
        1
        for h in doc["hands"]
        for k in ("auction", "plays")
        for x in h.get(k, [])
        if x.get("rejected")
    )
    assert kept == tried > 20
    bare = json.loads(table.path.read_bytes())
    for h in bare["hands"]:
        for k in ("auction", "plays"):
            if k in h:
                h[k] = [x for x in h[k] if not x.get("rejected")]
    with_them, without = Match.model_validate(doc), Match.model_validate(bare)
    for observer in ("A", "B", "C", "D", "public", "review"):
        seen = match_views(with_them, observer, finished=True)  # type: ignore[arg-type]
        assert seen == match_views(without, observer, finished=True), observer  # type: ignore[arg-type]


def _hinted(tmp_path: Path, name: str, deal: dict[Seat, list[str]], done: list[Any]) -> bytes:
    scenario = SCENARIOS[0]
    table = _table(tmp_path / f"{name}.json", scenario, deal)
    for j, (seat, text) in enumerate(done):
        table.act(seat, table.moment, text, f"r{j}")
    with served(table, bots=frozenset("BCD")) as w:
        assert w.state("A")["hint"] is True
        r = w.request("POST", "/table/hint", {}, who="A")
        assert r.status == 200, r.body
        assert r.json()["suggestion"] in w.state("A")["legal"]
        return r.body


def test_practice_a_seat_alone_with_bots_asks_a_hint_from_its_own_view(tmp_path: Path) -> None:
    """One person against three bots may ask a hint on its turn: the same answer, byte
    for byte, whatever the tiles it cannot see (the auction's last call and a play)."""
    scenario = SCENARIOS[0]
    actions = script(scenario)
    rng = random.Random(5)
    for k in (3, next(j for j, (s, t) in enumerate(actions) if s == "A" and t.startswith("["))):
        world = redeal(scenario, "A", actions[:k], rng)
        assert world is not None
        here = _hinted(tmp_path, f"h{k}", scenario.deal, actions[:k])
        there = _hinted(tmp_path, f"w{k}", world, actions[:k])
        assert here == there, k


def test_a_hint_is_refused_at_a_table_of_people_and_off_turn(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    turn = table.game.to_act
    assert turn is not None
    with served(table) as w:  # four people: table talk
        assert w.state(turn.seat)["hint"] is False
        r = w.request("POST", "/table/hint", {}, who=turn.seat)
        assert r.status == 403 and "table talk" in r.json()["error"]
    alone = frozenset("ABCD") - {turn.seat}
    with served(table, bots=alone) as w:
        other = next(iter(alone))
        r = w.request("POST", "/table/hint", {}, who=other)  # a bot's seat, off its turn
        assert r.status in (403, 409)
        r = w.request("POST", "/table/hint", {}, who="review")
        assert r.status == 403 and "plays no seat" in r.json()["error"]


def test_the_documented_http_example_takes_a_seat(tmp_path: Path) -> None:
    """docs/table.md's curl lines, run as written against a table: B's state, then B's
    pass, accepted."""
    import re
    import subprocess

    doc = (Path(__file__).parent.parent / "docs" / "table.md").read_text("utf-8")
    part = doc.split("## The HTTP interface", 1)[1]
    block = re.search(r"```sh\n(.*?)```", part, re.S)
    assert block is not None and "curl" in block.group(1)
    r = start_table(tmp_path / "m.json", env=_env(tmp_path))
    try:
        link = r.links["seat B"]
        base, token = link.split("/?token=")
        out = subprocess.run(
            ["bash", "-e", "-c", block.group(1)],
            capture_output=True,
            text=True,
            timeout=60,
            env=dict(os.environ, TABLE=base, TOKEN=token),
        )
    finally:
        r.stop()
    assert out.returncode == 0, out.stderr
    state, done = out.stdout.replace("}{", "}\n{").splitlines()
    assert json.loads(state)["observer"] == "B" and "pass" in json.loads(state)["legal"]
    assert json.loads(done) == {"moment": 2, "done": "pass"}
