"""``texas42 table`` as a user starts it: its links, its usage errors, its bots, and a
table killed at random moments that goes on with no acknowledged action lost."""

from __future__ import annotations

import http.client
import json
import os
import random
import secrets
import signal
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from texas42_log.engine.actions import Deal
from texas42_log.log.model import Match
from texas42_log.play.game import Game
from texas42_log.table.referee import LIVE_MODE, Table

from .table_client import Running, start_table

pytestmark = pytest.mark.xdist_group("table-cli")


def _env(tmp_path: Path) -> dict[str, str]:
    return dict(os.environ, XDG_STATE_HOME=str(tmp_path / "state"))


def _call(link: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    u = urlsplit(link)
    token = u.query.removeprefix("token=")
    c = http.client.HTTPConnection(u.hostname or "", u.port, timeout=30)
    headers = {"Host": u.netloc, "Authorization": f"token {token}"}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers |= {"Content-Type": "application/json", "Origin": f"http://{u.netloc}"}
    c.request(method, path, body=data, headers=headers)
    r = c.getresponse()
    out = r.status, json.loads(r.read() or b"null")
    c.close()
    return out


def _history(log: Path) -> list[tuple[str, str]]:
    game = Game.from_match(Match.model_validate_json(log.read_bytes()))
    return [(s.seat, str(s.action)) for s in game.history if not isinstance(s.action, Deal)]


def _texas42(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "texas42_log", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def test_a_table_prints_a_link_a_seat_and_the_onlookers_and_the_host(tmp_path: Path) -> None:
    env = _env(tmp_path)
    log = tmp_path / "m.json"
    r = start_table(log, "--bot", "D=rule", "--bot-delay", "0", env=env)
    try:
        assert set(r.links) == {"seat A", "seat B", "seat C", "seat D", "onlookers", "host"}
        tokens = {urlsplit(link).query for link in r.links.values()}
        assert len(tokens) == 6  # a token an address
        assert "bot rule" in "".join(r.printed)
        assert stat.S_IMODE(log.stat().st_mode) == LIVE_MODE  # the live hand: owner only
        status, state = _call(r.links["seat A"], "GET", "/table/state")
        assert status == 200 and state["observer"] == "A"
    finally:
        r.stop()
    again = start_table(log, env=env)  # the same log: the same links
    try:
        assert again.links == r.links
    finally:
        again.stop()


def _modules(block: list[str]) -> list[list[bool]]:
    """A QR code drawn in the terminal read back into its modules (True: dark). Each
    character is two modules, one above the other; a light module is drawn lit."""
    rows: list[list[bool]] = []
    for line in block:
        rows.append([ch in " ▄" for ch in line])
        rows.append([ch in " ▀" for ch in line])
    return rows


def test_qr_codes_carry_each_human_seats_own_link(tmp_path: Path) -> None:
    """--qr draws each seat's link that a person plays (not a bot's); read back from
    the terminal, each code's modules are those of that very link."""
    import segno

    r = start_table(tmp_path / "m.json", "--qr", "--bot", "D=rule", env=_env(tmp_path))
    r.stop()
    blocks: dict[str, list[str]] = {}
    current = None
    for line in r.printed:
        text = line.rstrip("\n")
        if text.startswith("  "):
            current = text.split(" (")[0].strip() if text.startswith("  seat") else None
            continue
        if current is not None and text:
            blocks.setdefault(current, []).append(text)
    assert set(blocks) == {"seat A", "seat B", "seat C"}  # the bot's seat has none
    for who, block in blocks.items():
        expected = [
            [bool(m) for m in row]
            for row in segno.make(r.links[who], error="m").matrix_iter(border=4)
        ]
        assert _modules(block)[: len(expected)] == expected, who


@pytest.mark.parametrize(
    "args, says",
    [
        (["--option", "no_such=1"], "a rule option's name"),
        (["--option", "nello=maybe"], "true or false"),
        (["--bot", "E=rule"], "write SEAT=VALUE"),
        (["--bot", "A=chess"], "no bot is called"),
        (["--first-dealer", "Q"], "a seat, A to D"),
        (["--rules", "nonesuch"], "nonesuch"),
    ],
)
def test_a_wrong_start_is_a_usage_error_in_one_sentence(
    tmp_path: Path, args: list[str], says: str
) -> None:
    r = _texas42("table", str(tmp_path / "m.json"), *args, env=_env(tmp_path))
    assert r.returncode == 2, r.stderr
    assert says in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "m.json").exists()


def test_an_existing_log_goes_on_and_refuses_new_rules(tmp_path: Path) -> None:
    log = tmp_path / "m.json"
    log.write_text("{not json")
    env = _env(tmp_path)
    r = _texas42("table", str(log), env=env)
    assert r.returncode == 1 and "Traceback" not in r.stderr and "m.json" in r.stderr
    log.unlink()
    with socket.socket() as taken:  # a port another program already listens on
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        r = _texas42("table", str(log), "--port", port, env=env)
    assert r.returncode == 2 and "cannot listen" in r.stderr, r.stderr
    assert not log.exists()
    Table.new(log, "standard")
    r = _texas42("table", str(log), "--rules", "casual", env=env)
    assert r.returncode == 2 and "played under standard, not casual" in r.stderr
    assert f"start it again with `texas42 table {log}`" in r.stderr


def test_a_table_started_again_goes_on_with_the_same_seats(tmp_path: Path) -> None:
    """The README's own command, run again after a stop, goes on with the same seats (it
    was refused: --player); the log alone goes on with them too (the bots once became
    empty human seats); a command that contradicts the log is refused, saying what to
    type."""
    env = _env(tmp_path)
    log = tmp_path / "friday.json"
    command = ["--player", "A=Ana", "--player", "B=Ben", "--bot", "C=rule", "--bot", "D=rule"]
    first = start_table(log, *command, "--bot-delay", "0.5", env=env)
    first.stop()
    assert "bot rule" in "".join(first.printed)
    for args in (command, []):  # the same command line, then the log alone
        again = start_table(log, *args, env=env)
        try:
            said = "".join(again.printed)
            assert "seat C (bot rule)" in said and "seat D (bot rule)" in said, said
            assert "seat A (its view only)" in said
        finally:
            again.stop()
    kept = json.loads(log.read_text("utf-8"))["x-texas42-table"]
    assert kept == {"bots": {"C": "rule", "D": "rule"}, "bot_delay": 0.5}
    for args, says in (
        (["--bot", "C=random"], "played with C=rule, D=rule, not C=random"),
        (["--player", "A=Zoe"], "names 'Ana' at seat A, not 'Zoe'"),
        (["--first-dealer", "C"], "first dealt by A"),
    ):
        r = _texas42("table", str(log), *args, env=env)
        assert r.returncode == 2 and says in r.stderr, r.stderr
        again = "texas42 table " + str(log) + " --bot C=rule --bot D=rule --bot-delay 0.5"
        assert f"start it again with `{again}`" in r.stderr and "Traceback" not in r.stderr


def test_four_bots_play_a_match_out_at_a_stated_pace(tmp_path: Path) -> None:
    log = tmp_path / "m.json"
    bots = [a for s in "ABCD" for a in ("--bot", f"{s}=rule")]
    r = start_table(
        log, *bots, "--bot-delay", "0", "--option", "match_goal_marks=1", env=_env(tmp_path)
    )
    try:
        for _ in range(300):
            if json.loads(log.read_bytes()).get("status") == "complete":
                break
            time.sleep(0.1)
    finally:
        r.stop()
    check = _texas42("validate", str(log), env=_env(tmp_path))
    assert check.returncode == 0 and "winner" in check.stdout, check.stdout


def test_the_bots_delay_is_the_one_given(tmp_path: Path) -> None:
    """--bot-delay reaches the bots: after each action of seat A (a person here), the
    bot after it acts no sooner than 0.3 s after A's action was acknowledged. (The
    delay before every action, forced or not, is timed exactly in tests/test_table.py.)"""
    log = tmp_path / "m.json"
    bots = [a for s in "BCD" for a in ("--bot", f"{s}=random")]
    r = start_table(log, *bots, "--bot-delay", "0.3", env=_env(tmp_path))
    try:
        a = r.links["seat A"]
        gaps: list[float] = []  # from A's action acknowledged to the next change seen
        end = time.monotonic() + 40
        while len(gaps) < 4 and time.monotonic() < end:
            state = _call(a, "GET", "/table/state")[1]
            if not state["legal"]:
                time.sleep(0.01)
                continue
            body = {"moment": state["moment"], "action": state["legal"][0]}
            status, done = _call(a, "POST", "/table/act", body | {"request": secrets.token_hex(8)})
            acknowledged = time.monotonic()
            assert status == 200, done
            while time.monotonic() < end:
                now = _call(a, "GET", "/table/state")[1]
                if now["moment"] != done["moment"]:
                    gaps.append(time.monotonic() - acknowledged)
                    break
                if now["legal"]:  # A again (a declarer leads): no bot between
                    break
                time.sleep(0.01)
        assert len(gaps) >= 4 and min(gaps) >= 0.3, gaps
    finally:
        r.stop()


def _play(
    links: dict[str, str], acked: list[tuple[str, str]], rng: random.Random, until: float
) -> None:
    """Act for whichever seat is to act, until ``until`` or the table stops answering;
    every acknowledged action into ``acked``."""
    while time.monotonic() < until:
        try:
            status, state = _call(links["seat A"], "GET", "/table/state")
            turn = state["turn"]
            if turn is None:
                return
            seat = turn["seat"]
            status, mine = _call(links[f"seat {seat}"], "GET", "/table/state")
            action = rng.choice(mine["legal"])
            body = {"moment": mine["moment"], "action": action, "request": secrets.token_hex(8)}
            status, answer = _call(links[f"seat {seat}"], "POST", "/table/act", body)
            if status == 200:
                acked.append((seat, action))
        except (OSError, http.client.HTTPException, ValueError, KeyError, IndexError):
            return


@pytest.mark.long
def test_a_table_killed_ten_times_loses_no_acknowledged_action(tmp_path: Path) -> None:
    import threading

    env = _env(tmp_path)
    log = tmp_path / "m.json"
    rng = random.Random(42)
    acked: list[tuple[str, str]] = []
    first: dict[str, str] | None = None
    for _ in range(10):
        r: Running = start_table(log, env=env)
        if first is None:
            first = r.links
        assert r.links == first  # the same links after every restart
        history = _history(log)
        assert history[: len(acked)] == acked  # nothing acknowledged was lost
        assert len(history) <= len(acked) + 1  # at most the one the kill cut off
        acked[:] = history
        worker = threading.Thread(
            target=_play, args=(r.links, acked, rng, time.monotonic() + 5), daemon=True
        )
        worker.start()
        time.sleep(rng.uniform(0.3, 1.5))
        r.process.send_signal(signal.SIGKILL)
        r.process.wait()
        worker.join(timeout=30)
        if json.loads(log.read_bytes()).get("status") == "complete":
            break
    history = _history(log)
    assert history[: len(acked)] == acked and len(history) <= len(acked) + 1
    assert len(acked) > 20


def test_stopping_with_pages_open_ends_quietly(tmp_path: Path) -> None:
    """Ctrl-C with push channels open once printed a RuntimeError a page."""
    import http.client

    r = start_table(tmp_path / "m.json", env=_env(tmp_path))
    pages = []
    try:
        for who in ("seat A", "seat B", "onlookers"):
            u = urlsplit(r.links[who])
            c = http.client.HTTPConnection(u.hostname or "", u.port, timeout=30)
            c.request("GET", f"/table/events?{u.query}", headers={"Host": u.netloc})
            reply = c.getresponse()
            assert reply.status == 200 and reply.read1(65536)  # the state, pushed
            pages.append(c)
    finally:
        said = r.stop()
        for c in pages:
            c.close()
    assert r.process.returncode == 0
    assert said.strip() == "texas42 table: stopped", said
