"""``texas42 table``: the referee (texas42_log.table.referee) and its wire — what is
refused and why, what is written and when, and what each address is sent (R25–R30)."""

from __future__ import annotations

import json
import random
import stat
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from texas42_log.engine.actions import Deal
from texas42_log.engine.live import random_deal
from texas42_log.engine.seats import Seat
from texas42_log.files.validate import validate_bytes
from texas42_log.table.ask import Asked, SeatAsker
from texas42_log.table.referee import LIVE_MODE, Table, TableError

from .table_client import Served, served


def seeded(seed: int) -> Callable[[Seat], Deal]:
    """A reproducible deal function (the table's own draws from the system's source)."""
    count = iter(range(1, 10_000))
    return lambda dealer: random_deal(seed, next(count), dealer)


def new_table(tmp_path: Path, seed: int = 3, **options: Any) -> Table:
    return Table.new(tmp_path / "match.json", "standard", options=options, deal=seeded(seed))


def to_renege(table: Table, rng: random.Random) -> tuple[Seat, str]:
    """Play legal actions until the seat to play holds a tile it may not play; that seat
    and tile."""
    while True:
        game = table.game
        turn = game.to_act
        assert turn is not None
        if turn.kind == "play":
            legal = [str(a) for a in game.legal_actions()]
            held = game.view(turn.seat).hands[turn.seat]
            wrong = [t for t in held if t not in legal]
            if wrong:
                return turn.seat, wrong[0]
        action = rng.choice(game.legal_actions())
        table.act(turn.seat, table.moment, str(action), f"r{table.moment}")


def play(table: Table, rng: random.Random, *, hands: int | None = None) -> list[tuple[Seat, str]]:
    """Random legal actions until ``hands`` hands are over (None: the match); the actions."""
    actions: list[tuple[Seat, str]] = []
    while (turn := table.game.to_act) is not None and (
        hands is None or table.finished_hands() < hands
    ):
        text = str(rng.choice(table.game.legal_actions()))
        actions.append((turn.seat, text))
        table.act(turn.seat, table.moment, text, f"r{table.moment}")
    return actions


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return new_table(tmp_path)


@pytest.fixture
def wire(table: Table) -> Iterator[Served]:
    with served(table) as s:
        yield s


# -- the referee -------------------------------------------------------------------


def test_a_new_table_deals_and_writes_a_valid_log_its_owners_only(table: Table) -> None:
    data = table.path.read_bytes()
    assert validate_bytes(data).valid
    assert json.loads(data)["hands"][0]["deal"]  # the host holds every hand
    assert stat.S_IMODE(table.path.stat().st_mode) == LIVE_MODE
    assert table.game.to_act is not None and table.game.to_act.kind == "call"


def test_an_illegal_play_is_refused_with_its_rule_and_kept_as_a_rejected_attempt(
    table: Table,
) -> None:
    seat, tile = to_renege(table, random.Random(5))
    before_moment, before_hand = table.moment, table.game.view(seat).hands[seat]
    with pytest.raises(TableError) as e:
        table.act(seat, table.moment, tile, "renege")
    assert e.value.status == 422 and e.value.rule == "R16", e.value.message
    assert tile in e.value.message
    # the hand unchanged, its tiles in their order (R30); the attempt in the log
    assert table.moment == before_moment
    assert table.game.view(seat).hands[seat] == before_hand
    doc = json.loads(table.path.read_bytes())
    rejected = [p for p in doc["hands"][-1]["plays"] if p.get("rejected")]
    assert rejected == [{"seat": seat, "tile": tile, "rejected": True}]
    assert validate_bytes(table.path.read_bytes()).valid


@pytest.mark.parametrize("case", ["other seat", "stale moment", "replay", "not an action"])
def test_a_refused_request_writes_nothing(table: Table, case: str) -> None:
    turn = table.game.to_act
    assert turn is not None
    action = str(table.game.legal_actions()[0])
    table.act(turn.seat, table.moment, action, "first")
    turn = table.game.to_act
    assert turn is not None
    before = table.path.read_bytes()
    legal = str(table.game.legal_actions()[0])
    other: Seat = "A" if turn.seat != "A" else "B"
    seat, moment, text, request = {
        "other seat": (other, table.moment, legal, "x1"),
        "stale moment": (turn.seat, table.moment - 1, legal, "x2"),
        "replay": (turn.seat, table.moment, legal, "first"),
        "not an action": (turn.seat, table.moment, "seventy", "x3"),
    }[case]
    with pytest.raises(TableError) as e:
        table.act(seat, moment, text, request)
    assert e.value.status in (400, 409)
    assert table.path.read_bytes() == before
    if case == "other seat":
        assert f"it is {turn.seat}'s turn" in e.value.message


def test_a_restart_goes_on_at_the_moment_of_the_last_acknowledged_action(table: Table) -> None:
    rng = random.Random(1)
    for _ in range(12):
        turn = table.game.to_act
        assert turn is not None
        done = table.act(
            turn.seat, table.moment, str(rng.choice(table.game.legal_actions())), f"t{table.moment}"
        )
    again = Table.resume(table.path, deal=seeded(99))
    assert again.moment == done.moment
    assert again.game.to_json() == table.game.to_json()


def test_the_match_ends_at_its_goal_and_the_log_is_then_the_users_to_share(tmp_path: Path) -> None:
    table = new_table(tmp_path, match_goal_marks=1)
    rng = random.Random(2)
    play(table, rng)
    assert table.game.is_over
    result = validate_bytes(table.path.read_bytes())
    assert result.valid and result.match is not None and result.match.result is not None
    assert stat.S_IMODE(table.path.stat().st_mode) != LIVE_MODE
    with pytest.raises(TableError, match="the match is over"):
        table.act("A", table.moment, "pass", "late")


def test_a_log_changed_outside_the_table_is_not_written_over(table: Table) -> None:
    doc = json.loads(table.path.read_bytes())
    doc["x-note"] = "an editor's change"
    table.path.write_text(json.dumps(doc))
    turn = table.game.to_act
    assert turn is not None
    with pytest.raises(TableError, match="changed on disk outside the table"):
        table.act(turn.seat, table.moment, str(table.game.legal_actions()[0]), "e")
    assert json.loads(table.path.read_bytes())["x-note"] == "an editor's change"
    assert table.moment == 1  # the deal only: the action was undone


# -- the wire ------------------------------------------------------------------------


def test_each_address_is_sent_its_own_view_and_only_the_seat_to_act_its_choices(
    wire: Served,
) -> None:
    turn = wire.table.game.to_act
    assert turn is not None
    for who in "ABCD":
        s = wire.state(who)
        assert s["observer"] == who
        assert set(s["view"]["hands"]) == {who}  # its own tiles, no other seat's
        assert bool(s["legal"]) == (who == turn.seat)
    public = wire.state("review")  # the onlookers' address
    assert public["observer"] == "public" and public["view"]["hands"] == {}
    assert wire.state("owner")["observer"] == "public"  # the host too, during play


def test_a_seat_acts_for_itself_only(wire: Served) -> None:
    turn = wire.table.game.to_act
    assert turn is not None
    other = next(s for s in "ABCD" if s != turn.seat)
    action = wire.state(turn.seat)["legal"][0]
    before = wire.table.path.read_bytes()
    r = wire.act(other, action)
    assert r.status == 409 and f"it is {turn.seat}'s turn" in r.json()["error"]
    for who in ("review", "owner"):
        r = wire.act(who, action)
        assert r.status == 403 and "plays no seat" in r.json()["error"]
    assert wire.table.path.read_bytes() == before
    r = wire.act(turn.seat, action, request="once")
    assert r.status == 200 and r.json()["moment"] == 2
    r = wire.act(turn.seat, action, moment=1, request="once")  # the same request again
    assert r.status == 409


def test_a_renege_over_the_wire_is_refused_with_the_rules_sentence(wire: Served) -> None:
    seat, tile = to_renege(wire.table, random.Random(5))
    hand = wire.state(seat)["view"]["hands"][seat]
    r = wire.act(seat, tile)
    assert r.status == 422
    assert r.json()["rule"] == "R16" and tile in r.json()["error"]
    assert wire.state(seat)["view"]["hands"][seat] == hand


@pytest.mark.parametrize(
    "host, origin, path, method",
    [
        ("evil.example:80", "", "/table/state", "GET"),
        (None, "http://evil.example", "/table/act", "POST"),
        (None, None, "/table/act", "POST"),
        (None, "http://evil.example", "/table/events", "GET"),
    ],
)
def test_host_and_origin_are_checked(
    wire: Served, host: str | None, origin: str | None, path: str, method: str
) -> None:
    before = wire.table.path.read_bytes()
    body = {"moment": 1, "action": "pass", "request": "h"} if method == "POST" else None
    r = wire.request(method, path, body, host=host, origin=origin)
    assert r.status == 403
    assert wire.table.path.read_bytes() == before


def test_no_token_or_a_wrong_one_is_refused(wire: Served) -> None:
    for token in ("", "x" * 32):
        assert wire.request("GET", "/table/state", token=token).status == 403
    page = wire.request("GET", "/", token="")
    assert page.status == 403 and b"refused" in page.body


def test_the_page_allows_its_server_and_nothing_more(wire: Served) -> None:
    r = wire.request("GET", "/")
    assert r.status == 200
    csp = r.headers["content-security-policy"]
    assert "connect-src 'self'" in csp and "default-src 'none'" in csp
    assert "'unsafe-inline'" not in csp and "http" not in csp
    assert wire.tokens["A"].encode() not in r.body  # the page holds no token


def test_a_live_hand_is_shown_to_no_address_beyond_a_seat_or_the_public(wire: Served) -> None:
    for who, observer in [("owner", "omniscient"), ("owner", "review"), ("A", "review")]:
        r = wire.request("GET", f"/table/hand?n=1&as={observer}", who=who)
        assert r.status == 403 and "not over" in r.json()["error"], (who, observer)
    r = wire.request("GET", "/table/hand?n=1&as=omniscient", who="A")
    assert r.status == 403


def test_a_finished_hand_opens_its_review_and_the_host_every_view(wire: Served) -> None:
    rng = random.Random(4)
    table = wire.table
    play(table, rng, hands=1)
    review = wire.request("GET", "/table/hand?n=1&as=review", who="B")
    assert review.status == 200
    assert review.json()["observer"] == "review"
    assert wire.request("GET", "/table/hand?n=1&as=omniscient", who="owner").status == 200
    assert wire.request("GET", "/table/hand?n=1&as=omniscient", who="B").status == 403
    assert wire.state("C")["last"]["hand"] == 1  # the pages show the hand just over


def test_a_push_reaches_every_page_after_each_action(wire: Served) -> None:
    channels = {who: wire.events(who) for who in ("A", "B", "C", "D", "review")}
    try:
        for ev in channels.values():
            ev.wait_for(1)
        rng = random.Random(8)
        for _ in range(6):
            turn = wire.table.game.to_act
            assert turn is not None
            r = wire.act(turn.seat, rng.choice(wire.state(turn.seat)["legal"]))
            assert r.status == 200
            for ev in channels.values():
                ev.wait_for(r.json()["moment"])
        assert channels["A"].moments() == list(range(1, 8))  # each moment once, in order
    finally:
        for ev in channels.values():
            ev.close()


def test_a_foreign_page_cannot_open_the_push_channel(wire: Served) -> None:
    ev = wire.events("A", origin="http://evil.example")
    try:
        assert ev.status == 403
    finally:
        ev.close()


# -- the leak test over the wire -------------------------------------------------------


def _drive(table: Table, actions: list[tuple[Seat, str]], who: str = "A") -> list[bytes]:
    """``actions`` made over the wire, each push to ``who``'s page awaited; the pushes."""
    with served(table) as w:
        ev = w.events(who)
        try:
            ev.wait_for(table.moment)
            for seat, text in actions:
                r = w.act(seat, text)
                assert r.status == 200, r.body
                ev.wait_for(r.json()["moment"])
            return list(ev.pushes)
        finally:
            ev.close()


def _deals(table: Table) -> list[dict[str, list[str]]]:
    return [h["deal"] for h in json.loads(table.path.read_bytes())["hands"]]


def _redeal_hidden(
    deals: list[dict[str, list[str]]],
    hand: int,
    played: set[str],
    actions: list[tuple[Seat, str]],
    rng: random.Random,
) -> list[dict[str, list[str]]] | None:
    """``deals`` with hand ``hand``'s tiles that A cannot see (the others' tiles not yet
    played) dealt again among B, C and D, such that ``actions`` stay legal; None if no
    such deal was found."""
    from texas42_log.engine.errors import IllegalAction
    from texas42_log.play.game import Game

    deal = deals[hand]
    movable = {s: [t for t in deal[s] if t not in played] for s in "BCD"}
    for _ in range(60):
        pool = [t for s in "BCD" for t in movable[s]]
        rng.shuffle(pool)
        new = dict(deal)
        for s in "BCD":
            n = len(movable[s])
            new[s] = [t for t in deal[s] if t in played] + pool[:n]
            pool = pool[n:]
        if all(sorted(new[s]) == sorted(deal[s]) for s in "BCD"):
            continue
        world = [*deals[:hand], new, *deals[hand + 1 :]]
        game = Game("standard", record_rejected=False)
        try:
            k = 0
            for seat, text in actions:
                while (turn := game.to_act) is not None and turn.kind == "deal":
                    game.push(Deal.of(world[k]))  # type: ignore[arg-type]
                    k += 1
                game.push(text, seat=seat)
        except IllegalAction:
            continue
        return world
    return None


def _leak_moments(every: int) -> None:
    rng = random.Random(11)
    first = Table.new(Path(_tmp()) / "one.json", "standard", deal=seeded(21))
    actions = play(first, rng, hands=4)
    where: list[tuple[int, set[str]]] = []  # after each action: its hand, the tiles played
    deals = _deals(first)
    replay = Table.new(Path(_tmp()) / "replay.json", "standard", deal=iter_deals(deals))
    pushes = _drive(replay, actions)
    game = Table.new(Path(_tmp()) / "walk.json", "standard", deal=iter_deals(deals)).game
    for seat, text in actions:
        game.push(text, seat=seat)
        ended = game.to_act is not None and game.to_act.kind == "deal"  # a hand just over
        hand = game.hand_number - (2 if ended else 1)
        plays = json.loads(game.to_json())["hands"][hand].get("plays", [])
        where.append((hand, {p["tile"] for p in plays if not p.get("rejected")}))
        if game.to_act is not None and game.to_act.kind == "deal":
            game.push(Deal.of(deals[game.hand_number - 1]))  # type: ignore[arg-type]
    checked = 0
    for j in range(0, len(actions), every):
        hand, played = where[j]
        world = _redeal_hidden(deals, hand, played, actions[: j + 1], rng)
        if world is None:
            continue
        other = Table.new(Path(_tmp()) / f"w{j}.json", "standard", deal=iter_deals(world))
        seen = _drive(other, actions[: j + 1])
        assert seen == pushes[: len(seen)], f"seat A's pushes differ after action {j + 1}"
        checked += 1
    assert checked >= len(range(0, len(actions), every)) // 2, (checked, len(actions))
    print(f"checked {checked} moments of {len(actions)} actions")


def iter_deals(deals: list[dict[str, list[str]]]) -> Callable[[Seat], Deal]:
    it = iter(deals)
    return lambda dealer: Deal.of(next(it))  # type: ignore[arg-type]


_TMP: list[Path] = []


def _tmp() -> Path:
    return _TMP[-1]


@pytest.fixture
def tmp_for_leak(tmp_path: Path) -> Iterator[None]:
    _TMP.append(tmp_path)
    yield
    _TMP.pop()


@pytest.mark.usefixtures("tmp_for_leak")
def test_seat_a_is_pushed_the_same_bytes_whatever_it_cannot_see() -> None:
    """For moments of two hands: every push to A's page up to the moment is byte for byte
    the same when the tiles A cannot see then are dealt otherwise among B, C and D (the
    same actions up to the moment)."""
    _leak_moments(every=5)


@pytest.mark.long
@pytest.mark.usefixtures("tmp_for_leak")
def test_seat_a_is_pushed_the_same_bytes_whatever_it_cannot_see_at_every_moment() -> None:
    _leak_moments(every=1)


# -- after the match: the board at the same addresses -----------------------------------


def test_the_board_opens_at_the_same_addresses_once_the_match_is_over_never_before(
    tmp_path: Path,
) -> None:
    table = new_table(tmp_path, match_goal_marks=1)
    rng = random.Random(5)
    with served(table) as wire:
        # during play: no board, no comments, no analysis, for any address (the host's too)
        for who in ("owner", "A", "review"):
            for method, path, body in [
                ("GET", "/board", None),
                ("GET", "/api/data?as=omniscient", None),
                ("POST", "/api/save", {"version": 1, "changes": []}),
                ("POST", "/api/ask", {"hand": 1, "as": "A"}),
            ]:
                r = wire.request(method, path, body, who=who)
                assert r.status == 403 and b"not a page of the table" in r.body, (who, path)
        last = wire.events("A")
        play(table, rng)
        last.wait_for(table.moment)
        over = json.loads(last.pushes[-1])
        assert over["winner"] in ("A+C", "B+D")
        # the push that said so came after the board's routes were there
        page = wire.request("GET", "/board", who="A")
        assert page.status == 200 and b"texas42 board" in page.body
        assert "connect-src 'self'" in page.headers["content-security-policy"]
        assert wire.request("GET", "/board", token="not-a-token").status == 403
        # each address is the board's own: a seat its view and the public's, the
        # onlookers the review, the host everything
        assert wire.request("GET", "/api/data?as=A", who="A").status == 200
        assert wire.request("GET", "/api/data?as=B", who="A").status == 403
        assert wire.request("GET", "/api/data?as=review", who="review").status == 200
        assert wire.request("GET", "/api/data?as=A", who="review").status == 403
        assert wire.request("GET", "/api/data?as=omniscient", who="owner").status == 200
        # a seat comments on the hand, as its seat; the log holds it and stays valid
        about = wire.request("GET", "/api/about", who="C").json()
        change = {"op": "add", "on": {"hand": 1}, "text": "We should have bid 31."}
        saved = wire.request(
            "POST",
            "/api/save",
            {"epoch": about["epoch"], "version": about["version"], "changes": [change]},
            who="C",
        )
        assert saved.status == 200 and saved.json()["saved"], saved.body
        doc = json.loads(table.path.read_bytes())
        notes = doc["hands"][0]["annotations"]
        assert [(n["text"], n.get("seat")) for n in notes] == [("We should have bid 31.", "C")]
        assert validate_bytes(table.path.read_bytes()).valid
        # the onlookers only read
        r = wire.request(
            "POST",
            "/api/save",
            {"epoch": about["epoch"], "version": about["version"], "changes": [change]},
            who="review",
        )
        assert r.status == 403


# -- a seat's own analysis of a finished hand --------------------------------------------


def _first_hand(seed: int) -> tuple[Table, list[tuple[Seat, str]]]:
    """A table whose first hand was played out at random; that hand's actions."""
    table = Table.new(_tmp() / f"first-{seed}.json", "standard", deal=seeded(seed))
    return table, play(table, random.Random(seed), hands=1)


def _answer(asker: SeatAsker, seat: str, hand: int) -> Asked:
    q = asker.ask(seat, hand)
    end = time.monotonic() + 120
    while q.state == "running" and time.monotonic() < end:
        time.sleep(0.05)
    assert q.state == "done", q.status()
    return q


@pytest.mark.usefixtures("tmp_for_leak")
def test_a_seats_analysis_of_its_hand_is_the_same_whatever_it_could_not_see() -> None:
    """A's fair analysis of its own actions in hand 1, asked during hand 2, is the same
    sentences when the tiles A never saw (those still held when the hand ended) are
    dealt otherwise among B, C and D; and it speaks of A's actions only."""
    for seed in range(40):
        table, actions = _first_hand(seed)
        deals = _deals(table)
        plays = json.loads(table.path.read_bytes())["hands"][0].get("plays", [])
        played = {p["tile"] for p in plays if not p.get("rejected")}
        world = _redeal_hidden(deals, 0, played, actions, random.Random(seed))
        if world is not None:
            break
    else:
        raise AssertionError("no hand of 40 ended with tiles unplayed")
    other = Table.new(_tmp() / "other.json", "standard", deal=iter_deals(world))
    for seat, text in actions:
        other.act(seat, other.moment, text, f"o{other.moment}")
    assert other.finished_hands() == 1 and other.game.to_act is not None  # hand 2 is live
    mine = _answer(SeatAsker(table, worlds=12), "A", 1)
    theirs = _answer(SeatAsker(other, worlds=12), "A", 1)
    assert mine.lines() and mine.lines() == theirs.lines()
    verdicts = [line for line in mine.lines() if line.startswith("Fair, from")]
    assert verdicts and all(line.startswith("Fair, from A's") for line in verdicts), mine.lines()


def test_a_seat_asks_its_analysis_over_the_wire_after_the_hand_only(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    rng = random.Random(6)
    with served(table, SeatAsker(table, worlds=8)) as wire:
        r = wire.request("POST", "/table/ask", {"hand": 1}, who="B")
        assert r.status == 403 and "not over" in r.json()["error"]
        play(table, rng, hands=1)
        for who in ("owner", "review"):  # no seat: no analysis during the match
            r = wire.request("POST", "/table/ask", {"hand": 1}, who=who)
            assert r.status == 403 and "plays no seat" in r.json()["error"], who
        for body in ({"hand": 2}, {"hand": "1"}, [], {"hand": True}):
            assert wire.request("POST", "/table/ask", body, who="B").status in (400, 403), body
        r = wire.request("POST", "/table/ask", {"hand": 1}, who="B")
        assert r.status == 200 and r.json()["state"] in ("running", "done")
        end = time.monotonic() + 120
        while (got := wire.request("GET", "/table/ask?hand=1", who="B").json())["state"] == (
            "running"
        ) and time.monotonic() < end:
            time.sleep(0.1)
        assert got["state"] == "done" and got["lines"], got
        assert wire.request("GET", "/table/ask?hand=1", who="C").status == 404  # C never asked


# -- the bots' pace ---------------------------------------------------------------------


def test_every_bot_action_comes_the_stated_delay_after_the_one_before_forced_or_not(
    tmp_path: Path,
) -> None:
    """Four random bots, a delay of 0.05 s, three hands: each change of the table comes
    at least the delay after the one before it (timed where the table changes, so no
    load on the machine can make a gap look shorter), forced actions included."""
    from texas42_log.bots import bot_factory
    from texas42_log.table.bots import BotSeats

    table = new_table(tmp_path)
    changes: list[tuple[float, bool]] = []  # when, and whether the next action is forced

    def timed(t: Table) -> None:  # registered before the bots': timed before they wake
        changes.append((time.monotonic(), len(t.game.legal_actions()) == 1))

    table.listen(timed)
    bots = {s: bot_factory("random")(k) for k, s in enumerate("ABCD")}
    seats = BotSeats(table, bots, delay=0.05)  # type: ignore[arg-type]
    start = time.monotonic()
    changes.append((start, False))
    seats.start()
    try:
        end = start + 60
        while table.finished_hands() < 3 and time.monotonic() < end:
            time.sleep(0.02)
    finally:
        seats.stop()
    assert table.finished_hands() >= 3
    gaps = [(b[0] - a[0], a[1]) for a, b in zip(changes, changes[1:], strict=False)]
    assert len(gaps) >= 30 and min(g for g, _ in gaps) >= 0.05, gaps
    assert any(forced for _, forced in gaps)  # the delay held before forced actions too


def test_a_page_s_language_is_the_link_s_then_the_browser_s_then_english() -> None:
    from texas42_log.table.page import page_language, table_page

    assert page_language("tr", "uk;q=1") == "tr"
    assert page_language(None, "fr-FR,fr;q=0.9,uk;q=0.8,tr;q=0.7") == "uk"
    assert page_language(None, "tr;q=0.2, uk;q=0.9") == "uk"
    assert page_language("fr", None) == "en"
    assert page_language(None, "uk;q=0") == "en"
    assert page_language("\ud800" * 100, "\x1b[31m," * 10_000 + "tr;q=abc") == "en"
    for lang in ("en", "tr", "uk"):
        page, _ = table_page(lang)
        assert f'<html lang="{lang}">' in page and "{{" not in page
        words = page.split('id="words">')[1].split("</script>")[0]
        assert "<" not in words  # the data block cannot end early


def test_every_refusal_key_has_its_sentence_in_every_language() -> None:
    """The page says a refusal by its key: English is the referee's own template, and
    each language has a sentence with the same parameters."""
    import string

    from texas42_log.play.refusals import KEYS
    from texas42_log.views.locales import catalogue, languages

    def fields(t: str) -> set[str]:
        return {f for _, f, _, _ in string.Formatter().parse(t) if f}

    for key, template in KEYS.items():
        assert catalogue("en")[f"refusal.{key}"] == template
        for lang in languages():
            assert fields(catalogue(lang)[f"refusal.{key}"]) == fields(template), (lang, key)
