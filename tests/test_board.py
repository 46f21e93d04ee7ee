"""``texas42 board`` over the wire: who may ask what (token, Host, Origin, observer),
what a seat's address is sent (the leak test, by re-dealing), saves that merge and
conflict, and every refusal logged in one line with nothing written."""

from __future__ import annotations

import base64
import hashlib
import http.client
import json
import random
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from texas42_log.files.validate import validate_bytes
from texas42_log.play.generate import random_match

from .board_client import Board, start_board
from .redeal import redeal_unplayed

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "fixtures" / "valid"
SAMPLE = FIX / "random-seed-11.json"


def _copy(tmp_path: Path, name: str = "game.json", src: Path = SAMPLE) -> Path:
    out = tmp_path / name
    shutil.copyfile(src, out)
    return out


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Board, Path]]:
    log = _copy(tmp_path_factory.mktemp("board"))
    b = start_board(log)
    yield b, log
    b.stop()


def _comments(path: Path) -> list[dict[str, Any]]:
    doc = json.loads(path.read_text("utf-8"))
    out = list(doc.get("annotations", []))
    for h in doc["hands"]:
        out += h.get("annotations", [])
        for key in ("auction", "plays"):
            for item in h.get(key, []):
                out += item.get("annotations", [])
        out += (h.get("declaration") or {}).get("annotations", [])
    return out


def _wait(b: Board, qid: str, who: str = "the board", limit: float = 120) -> dict[str, Any]:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        r = b.request("GET", f"/api/ask/{qid}", who=who)
        assert r.status == 200, r.body
        status = r.json()
        if status["state"] != "running":
            return status  # type: ignore[no-any-return]
        time.sleep(0.1)
    raise AssertionError("the question did not finish")


# -- refusals -----------------------------------------------------------------------------


REFUSALS = [
    ("no token", "GET", "/api/about", {"token": ""}, "no token or a wrong one"),
    ("wrong token", "GET", "/api/about", {"token": "x" * 32}, "no token or a wrong one"),
    ("a token in the query only, wrong", "GET", "/?token=abc", {"token": ""}, "wrong one"),
    ("foreign Host", "GET", "/api/about", {"host": "evil.example:80"}, "foreign Host"),
    ("rebinding Host", "GET", "/", {"host": "attacker.test"}, "foreign Host"),
    (
        "foreign Origin",
        "POST",
        "/api/save",
        {"origin": "http://evil.example"},
        "foreign Origin",
    ),
    ("no Origin on a write", "POST", "/api/save", {"origin": None}, "foreign Origin"),
    ("path outside", "GET", "/../../etc/passwd", {}, "not a page of the board"),
    ("the log's own file", "GET", "/game.json", {}, "not a page of the board"),
    ("an asset by name", "GET", "/viewer.js", {}, "not a page of the board"),
    ("encoded traversal", "GET", "/api/%2e%2e/%2e%2e/etc/passwd", {}, "not a page of the board"),
]


@pytest.mark.parametrize(
    ("method", "path", "how", "why"),
    [pytest.param(m, p, h, w, id=i) for i, m, p, h, w in REFUSALS],
)
def test_each_refusal_is_403_logged_in_one_line_and_writes_nothing(
    tmp_path: Path, method: str, path: str, how: dict[str, Any], why: str
) -> None:
    log = _copy(tmp_path)
    before = log.read_bytes(), log.stat().st_mtime_ns
    b = start_board(log)
    try:
        body = {"version": 1, "changes": [{"op": "add", "on": {}, "text": "x"}]}
        r = b.request(method, path, body if method == "POST" else None, **how)
        assert r.status in (400, 403), (r.status, r.body)
        if path.split("?")[0] == "/" and method == "GET":  # a person reads a sentence
            assert r.headers["content-type"].startswith("text/html")
            assert why in r.body.decode() and r.headers["content-security-policy"]
        else:
            assert why in r.json()["error"]
        assert b"[" not in r.body or b"|" not in r.body  # no tile in a refusal
    finally:
        err = b.stop()
    lines = [line for line in err.splitlines() if "refused" in line]
    assert len(lines) == 1 and why.split()[0] in lines[0], err
    assert "Traceback" not in err
    assert (log.read_bytes(), log.stat().st_mtime_ns) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


def test_a_seat_address_sees_its_seat_and_the_public_only(board: tuple[Board, Path]) -> None:
    b, _ = board
    assert b.request("GET", "/api/about", who="seat A").json()["observers"] == ["A", "public"]
    for other in ("B", "C", "D", "review", "omniscient"):
        r = b.request("GET", f"/api/data?as={other}", who="seat A")
        assert r.status == 403 and "seat A" in r.json()["error"], other
        r = b.request("POST", "/api/ask", {"hand": 1, "as": other}, who="seat A")
        assert r.status == 403, other
    assert b.request("GET", "/api/data?as=A", who="seat A").status == 200
    assert b.request("GET", "/api/data?as=public", who="seat A").status == 200
    # the board's own address chooses any observer
    for o in ("A", "B", "public", "review", "omniscient"):
        assert b.request("GET", f"/api/data?as={o}").status == 200


def test_a_page_may_ask_its_own_language_the_board_keeping_its_own(
    board: tuple[Board, Path],
) -> None:
    """A table's seat opens the board after the match in its own language (``?lang=``,
    passed on to the data): the views and the board's labels in it; the board's own
    language otherwise, and a language there is no catalogue for is not asked."""
    from texas42_log.views.locales import catalogue

    b, _ = board
    for lang in ("tr", "uk"):
        data = b.request("GET", f"/api/data?as=A&lang={lang}", who="seat A").json()["data"]
        assert data["lang"] == lang
        assert data["board_ui"]["save"] == catalogue(lang)["board.save"]
    for asked in ("", "&lang=fr", "&lang=" + "x" * 5000):
        data = b.request("GET", f"/api/data?as=A{asked}", who="seat A").json()["data"]
        assert data["lang"] == "en", asked


def test_the_page_allows_only_its_own_scripts_by_hash(board: tuple[Board, Path]) -> None:
    b, _ = board
    r = b.request("GET", f"/?token={b.owner}", token="")
    assert r.status == 200
    csp = r.headers["content-security-policy"]
    page = r.body.decode("utf-8")
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    assert len(scripts) == 4 and page.count("<script") == 4  # domino, viewer, wire, board
    for s in scripts:
        digest = base64.b64encode(hashlib.sha256(s.encode("utf-8")).digest()).decode()
        assert f"'sha256-{digest}'" in csp
    assert "default-src 'none'" in csp and "connect-src 'self'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["cache-control"] == "no-store"
    # the page holds no token, no view, no name: the same bytes for every address
    assert b.owner not in page and b.tokens["seat A"] not in page
    assert r.body == b.request("GET", f"/?token={b.tokens['seat B']}", token="").body
    assert not re.search(r"\[[0-6]\|[0-6]\]", page)


# -- the leak test ---------------------------------------------------------------------------


def _seat_a_responses(b: Board, hands: int) -> list[bytes]:
    """Everything seat A's address is sent for a whole match: the page, what it asks
    first, the views of A and the public, the analysis of every hand asked as A."""
    out = [
        b.request("GET", f"/?token={b.tokens['seat A']}", token="").body,
        b.request("GET", "/api/about", who="seat A").body,
        b.request("GET", "/api/data?as=A", who="seat A").body,
        b.request("GET", "/api/data?as=public", who="seat A").body,
    ]
    for h in range(1, hands + 1):
        r = b.request("POST", "/api/ask", {"hand": h, "as": "A"}, who="seat A")
        if r.status != 200:
            out.append(r.body)
            continue
        status = _wait(b, r.json()["question"], "seat A")
        out.append(json.dumps(status).encode())
    out.append(b.request("GET", "/api/data?as=A", who="seat A").body)
    out.append(b.request("GET", "/api/data?as=public", who="seat A").body)
    out.append(b.request("GET", "/api/data?as=A&lang=tr", who="seat A").body)  # its language
    # seat A comments on its first play, then edits it: what it is sent back, with the
    # comment's random id named by its order instead (an id is random by design)
    change = {"op": "add", "on": {"hand": 1, "play": 1}, "text": "my lead"}
    saved = b.request("POST", "/api/save", {"version": 1, "changes": [change]}, who="seat A")
    key = saved.json()["ids"][0]
    edit = {"op": "edit", "id": key, "base": "my lead", "text": "my lead, again"}
    v = saved.json()["version"]
    edited = b.request("POST", "/api/save", {"version": v, "changes": [edit]}, who="seat A")
    for reply in (saved, edited, b.request("GET", "/api/data?as=A", who="seat A")):
        out.append(reply.body.replace(key.encode(), b"<the comment's id>"))
    # the board's epoch is random, new with new links (never derived from the log)
    epoch = b.request("GET", "/api/about", who="seat A").json()["epoch"].encode()
    return [body.replace(epoch, b"<the epoch>") for body in out]


@pytest.mark.slow
def test_every_response_to_seat_a_is_the_same_after_its_hidden_tiles_are_redealt(
    tmp_path: Path,
) -> None:
    rng = random.Random(36)
    for attempt in range(10):
        doc = random_match(3600 + attempt, max_hands=3)
        world = redeal_unplayed(doc, "A", rng)
        if world is not None:
            break
    else:
        pytest.fail("no match left a tile A never saw to deal elsewhere")
    assert world != doc
    seen = []
    for k, d in enumerate((doc, world)):
        log = tmp_path / f"m{k}" / "game.json"
        log.parent.mkdir()
        log.write_text(json.dumps(d), "utf-8")
        b = start_board(log, "--worlds", "20")
        try:
            # the board's own user looks too (its questions fill the shared cache)
            assert b.request("GET", "/api/data?as=omniscient").status == 200
            seen.append(_seat_a_responses(b, len(d["hands"])))
        finally:
            b.stop()
    assert len(seen[0]) == len(seen[1])
    for k, (one, two) in enumerate(zip(*seen, strict=True)):
        assert one == two, f"response {k} differs"
    # the analysis asked as A is among what was compared
    assert any(b"Fair, from A" in r for r in seen[0])


# -- saving -----------------------------------------------------------------------------------


def _add(b: Board, version: int, text: str, on: dict[str, Any], who: str = "the board") -> Any:
    r = b.request(
        "POST",
        "/api/save",
        {"version": version, "changes": [{"op": "add", "on": on, "text": text}]},
        who=who,
    )
    assert r.status == 200, r.body
    return r.json()


def test_saves_from_two_pages_and_annotate_meanwhile_are_all_kept(tmp_path: Path) -> None:
    log = _copy(tmp_path)
    b = start_board(log)
    try:
        v = b.request("GET", "/api/about").json()["version"]
        one = _add(b, v, "from page one", {"hand": 1, "play": 3})
        two = _add(b, v, "from page two", {"hand": 1, "play": 3}, who="seat B")
        assert one["saved"] and two["saved"] and two["version"] > one["version"]
        # a comment added by `texas42 annotate` while the board runs
        subprocess.run(
            [sys.executable, "-m", "texas42_log", "annotate", "add", str(log), "--hand", "2",
             "--text", "from annotate", "-i"],
            check=True, capture_output=True,
        )  # fmt: skip
        three = _add(b, v, "from page one again", {})
        assert three["saved"]
    finally:
        b.stop()
    texts = [c["text"] for c in _comments(log)]
    assert sorted(texts) == sorted(
        ["from page one", "from page two", "from annotate", "from page one again"]
        + [t for t in texts if t.startswith("A")]  # the sample's own, if any
    )
    ids = [c["id"] for c in _comments(log)]
    assert len(set(ids)) == len(ids) == len(texts)
    assert json.loads(log.read_text("utf-8"))["version"] == "1.9"  # seat B wrote one (format 1.9)
    assert validate_bytes(log.read_bytes()).valid


def test_two_edits_of_one_comment_the_second_told_with_both_texts(tmp_path: Path) -> None:
    log = _copy(tmp_path)
    b = start_board(log)
    try:
        done = _add(b, 1, "the first text", {"hand": 1, "play": 2})
        key = done["ids"][0]
        v = done["version"]

        def edit(text: str, who: str) -> Any:
            change = {"op": "edit", "id": key, "base": "the first text", "text": text}
            r = b.request("POST", "/api/save", {"version": v, "changes": [change]}, who=who)
            assert r.status == 200, r.body
            return r.json()

        first = edit("edited by the board", "the board")
        second = edit("edited on a second page", "the board")
        assert first["conflicts"] == [] and first["saved"]
        (c,) = second["conflicts"]
        assert (c["theirs"], c["yours"], c["base"]) == (
            "edited by the board",
            "edited on a second page",
            "the first text",
        )
        assert [o["status"] for o in second["outcomes"]] == ["conflict"]
        assert not second["saved"] and "changed meanwhile" in c["message"]
        # removed meanwhile: an edit is a conflict, a second removal is done already
        gone = {"op": "remove", "id": key, "base": "edited by the board"}
        r = b.request("POST", "/api/save", {"version": v, "changes": [gone]}).json()
        assert r["saved"] and r["conflicts"] == []
        again = b.request("POST", "/api/save", {"version": v, "changes": [gone]}).json()
        assert not again["saved"] and again["conflicts"] == []
        late = edit("too late", "the board")
        assert late["conflicts"][0]["theirs"] is None
    finally:
        b.stop()
    assert [c["text"] for c in _comments(log)] == []


def test_a_seat_changes_only_its_own_comments_each_change_reported(tmp_path: Path) -> None:
    """Each seat owns its words (format 1.9): a seat's address edits and removes only
    the comments it wrote, the owner's any; a save is never refused whole for one
    change — each is applied or reported on its own."""
    log = _copy(tmp_path)
    b = start_board(log)
    try:
        owners = _add(b, 1, "the owner's", {"hand": 1, "play": 2})
        v = owners["version"]
        seat_b = _add(b, v, "B's word", {"hand": 1, "play": 2}, who="seat B")
        v = seat_b["version"]
        key_owner, key_b = owners["ids"][0], seat_b["ids"][0]
        changes = [
            {"op": "edit", "id": key_owner, "base": "the owner's", "text": "D rewrote it"},
            {"op": "remove", "id": key_b, "base": "B's word"},
            {"op": "add", "on": {"hand": 1}, "text": "D's own", "author": "Dee"},
            {"op": "remove", "id": "no-such-id", "base": "x"},
        ]
        r = b.request("POST", "/api/save", {"version": v, "changes": changes}, who="seat D")
        assert r.status == 200, r.body
        out = r.json()
        assert [o["status"] for o in out["outcomes"]] == ["not_yours", "not_yours", "saved", "done"]
        assert "the board's owner's" in out["outcomes"][0]["message"]
        assert "seat B's" in out["outcomes"][1]["message"]
        assert out["saved"]
        v = out["version"]
        # seat B edits its own; the owner edits B's: the author and seat stay B's
        edit = {"op": "edit", "id": key_b, "base": "B's word", "text": "B's word, better"}
        r = b.request("POST", "/api/save", {"version": v, "changes": [edit]}, who="seat B")
        assert [o["status"] for o in r.json()["outcomes"]] == ["saved"]
        v = r.json()["version"]
        edit = {
            "op": "edit", "id": key_b, "base": "B's word, better", "text": "fixed by the owner",
            "author": "Teacher",
        }  # fmt: skip
        r = b.request("POST", "/api/save", {"version": v, "changes": [edit]})
        assert [o["status"] for o in r.json()["outcomes"]] == ["saved"]
    finally:
        b.stop()
    by_text = {c["text"]: c for c in _comments(log)}
    assert by_text["the owner's"].get("seat") is None
    assert by_text["fixed by the owner"]["seat"] == "B"
    assert by_text["fixed by the owner"]["edited_by"] == "owner"
    assert "author" not in by_text["fixed by the owner"]  # not the owner's Author field
    assert by_text["D's own"]["seat"] == "D" and by_text["D's own"]["author"] == "Dee"
    assert "D rewrote it" not in by_text
    assert json.loads(log.read_text("utf-8"))["version"] == "1.9"
    assert validate_bytes(log.read_bytes()).valid


def test_a_log_changed_beyond_its_comments_is_not_written_over(tmp_path: Path) -> None:
    log = _copy(tmp_path)
    b = start_board(log)
    try:
        doc = json.loads(log.read_text("utf-8"))
        doc["players"] = {"A": "Someone New"}
        log.write_text(json.dumps(doc), "utf-8")
        changed = log.read_bytes()
        r = b.request(
            "POST",
            "/api/save",
            {"version": 1, "changes": [{"op": "add", "on": {}, "text": "stale"}]},
        )
        assert r.status == 409 and "changed on disk" in r.json()["error"]
        assert log.read_bytes() == changed
        # the page reloads: the new version, and a save on it lands
        v = b.request("GET", "/api/about").json()["version"]
        assert v > 1 and _add(b, v, "fresh", {})["saved"]
    finally:
        b.stop()
    assert "Someone New" in log.read_text("utf-8")


def test_a_text_log_saves_to_a_json_file_beside_it_and_says_so(tmp_path: Path) -> None:
    log = tmp_path / "game.t42"
    subprocess.run(
        [sys.executable, "-m", "texas42_log", "convert", str(SAMPLE), "-o", str(log)],
        check=True,
        capture_output=True,
    )
    before = log.read_bytes()
    b = start_board(log)
    try:
        assert any("saves to" in line and "game.json" in line for line in b.printed)
        assert _add(b, 1, "noted", {"hand": 1})["saved"]
    finally:
        b.stop()
    assert log.read_bytes() == before
    saved = tmp_path / "game.json"
    assert validate_bytes(saved.read_bytes()).valid
    assert [c["text"] for c in _comments(saved)] == ["noted"]
    # opened again, the board goes on from the JSON file beside it
    b = start_board(log)
    try:
        r = b.request("GET", "/api/data?as=omniscient").json()
        notes = [item[1] for g in r["data"]["notes"]["groups"] for item in g["items"]]
        assert notes and all(n.startswith("\ue000") for n in notes)
        assert "noted" in r["data"]["strings"]
    finally:
        b.stop()


HOSTILE_BODIES = [
    ("not JSON", b"{not json", "not JSON"),
    ("NaN", b'{"version": NaN, "changes": []}', "not JSON"),
    ("a 100,000-digit version", b'{"version": ' + b"9" * 100_000 + b', "changes": []}', "JSON"),
    ("deep nesting", b"[" * 100_000 + b"]" * 100_000, "JSON"),
    ("no changes", b'{"version": 1, "changes": []}', "1 to 500 changes"),
    (
        "501 changes",
        json.dumps(
            {"version": 1, "changes": [{"op": "add", "on": {}, "text": "x"}] * 501}
        ).encode(),
        "1 to 500 changes",
    ),
    (
        "a lone surrogate",
        b'{"version": 1, "changes": [{"op": "add", "on": {}, "text": "a\\ud800b"}]}',
        "half of a character",
    ),
    (
        "a text too long",
        json.dumps(
            {"version": 1, "changes": [{"op": "add", "on": {}, "text": "x" * 10_001}]}
        ).encode(),
        "10,000",
    ),  # fmt: skip
    (
        "an author too long",
        json.dumps(
            {"version": 1, "changes": [{"op": "add", "on": {}, "text": "x", "author": "y" * 201}]}
        ).encode(),
        "200",
    ),
    (
        "a hand that is not there",
        b'{"version": 1, "changes": [{"op": "add", "on": {"hand": 99}, "text": "x"}]}',
        "no hand 99",
    ),
    (
        "a boolean for a hand",
        b'{"version": 1, "changes": [{"op": "add", "on": {"hand": true}, "text": "x"}]}',
        "whole number",
    ),
    (
        "an unknown op",
        b'{"version": 1, "changes": [{"op": "rm -rf", "id": "x"}]}',
        "add, edit or remove",
    ),
]


def test_hostile_bodies_get_a_sentence_and_nothing_is_written(board: tuple[Board, Path]) -> None:
    b, log = board
    before = log.read_bytes()
    for name, raw, why in HOSTILE_BODIES:
        r = b.request("POST", "/api/save", raw=raw)
        assert r.status == 400, (name, r.status, r.body[:200])
        assert why in r.json()["error"], (name, r.json())
    try:  # a body past the limit: the server answers 400 or drops the connection
        assert b.request("POST", "/api/save", raw=b"x" * 3_000_000).status in (400, 413)
    except ConnectionError:
        pass
    assert log.read_bytes() == before
    assert b.process.poll() is None  # and the board is still up


def test_asking_runs_with_progress_and_a_cancel_stops_it(tmp_path: Path) -> None:
    log = _copy(tmp_path)
    b = start_board(log, "--worlds", "400")
    try:
        r = b.request("POST", "/api/ask", {"hand": 2, "as": "omniscient"})
        assert r.status == 200
        qid = r.json()["question"]
        for _ in range(300):  # the child starts and counts its decisions (slower under load)
            status = b.request("GET", f"/api/ask/{qid}").json()
            if status["state"] != "running" or status["of"] > 0:
                break
            time.sleep(0.1)
        assert status["state"] == "running" and status["of"] > 0
        # another address cannot follow or cancel it
        assert b.request("GET", f"/api/ask/{qid}", who="seat A").status == 404
        assert b.request("DELETE", f"/api/ask/{qid}", who="seat A").status == 404
        assert b.request("DELETE", f"/api/ask/{qid}").json()["state"] == "cancelled"
        # the public is shown no analysis
        r = b.request("POST", "/api/ask", {"hand": 1, "as": "public"})
        assert r.status == 400 and "R25" in r.json()["error"]
    finally:
        b.stop()
    # asked again and let run (fewer worlds, to finish soon): the views carry it, the log
    # on disk does not
    b = start_board(log, "--worlds", "20")
    try:
        before = log.read_bytes()
        r = b.request("POST", "/api/ask", {"hand": 1, "as": "omniscient"})
        assert _wait(b, r.json()["question"])["state"] == "done"
        data = b.request("GET", "/api/data?as=omniscient").json()["data"]
        assert any(e["analysis_lines"] for e in data["hands"][0]["views"])
        assert any(e["fair_lines"] for e in data["hands"][0]["views"])
        assert log.read_bytes() == before
    finally:
        b.stop()


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        (["-"], 2, "not '-'"),
        (["missing.json"], 2, "missing.json"),
        ([str(FIX.parent / "invalid" / "R10-no-declaration.json")], 1, "not a valid log"),
        ([str(SAMPLE), "--save", "out.txt"], 2, ".json"),
        ([str(SAMPLE), "--port", "70000"], 2, "65535"),
    ],
)
def test_the_board_refuses_to_start_with_one_sentence(
    tmp_path: Path, args: list[str], code: int, words: str
) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "texas42_log", "board", *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert r.returncode == code, r.stderr
    assert words in r.stderr and "Traceback" not in r.stderr


# -- load, and a kill in the middle of a save ----------------------------------------------


@pytest.mark.slow
def test_five_pages_adding_fifty_comments_each_at_once(tmp_path: Path) -> None:
    import threading

    log = _copy(tmp_path)
    b = start_board(log)
    problems: list[str] = []
    stop = threading.Event()
    reads = [0]

    def watch() -> None:  # the file is a valid log at every moment
        while not stop.is_set():
            data = log.read_bytes()
            if not validate_bytes(data).valid:
                problems.append(f"invalid after {reads[0]} reads")
            reads[0] += 1

    def page(k: int) -> None:
        v = 1
        try:
            for n in range(50):
                r = _add(b, v, f"page {k} comment {n}", {"hand": 1 + n % 3, "play": 1 + n % 4})
                v = r["version"]
        except AssertionError as e:
            problems.append(f"page {k}: {e}")

    watcher = threading.Thread(target=watch)
    watcher.start()
    pages = [threading.Thread(target=page, args=(k,)) for k in range(5)]
    try:
        for t in pages:
            t.start()
        for t in pages:
            t.join()
    finally:
        stop.set()
        watcher.join()
        err = b.stop()
    assert problems == [] and reads[0] > 10, err
    texts = [c["text"] for c in _comments(log)]
    assert sorted(texts) == sorted(f"page {k} comment {n}" for k in range(5) for n in range(50))
    assert len({c["id"] for c in _comments(log)}) == 250


@pytest.mark.slow
def test_a_board_killed_in_the_middle_of_saves_leaves_the_old_file_or_the_new(
    tmp_path: Path,
) -> None:
    import os
    import signal
    import threading

    log = _copy(tmp_path)
    rng = random.Random(7)
    count = 0
    for round_ in range(6):
        b = start_board(log)
        v = b.request("GET", "/api/about").json()["version"]
        done = threading.Event()

        def save(
            b: Board = b, v: int = v, done: threading.Event = done, round_: int = round_
        ) -> None:
            n = 0
            while not done.is_set():
                try:
                    v = _add(b, v, f"round {round_} #{n}", {})["version"]
                except (OSError, AssertionError, http.client.HTTPException):
                    return
                n += 1

        t = threading.Thread(target=save)
        t.start()
        time.sleep(0.3 + rng.random() * 0.7)
        os.kill(b.process.pid, signal.SIGKILL)
        done.set()
        t.join()
        b.process.communicate()
        data = log.read_bytes()
        assert validate_bytes(data).valid, f"round {round_}: the file is not a valid log"
        now = len(_comments(log))
        assert now >= count  # every save that was answered is in the file
        count = now
        leftovers = [p.name for p in tmp_path.iterdir() if p.name != "game.json"]
        # a temporary file of the killed write may stay; it is never the log
        assert all(name.startswith(".") for name in leftovers), leftovers
    assert count > 6


def test_another_address_is_listened_on_only_when_asked_with_a_warning(tmp_path: Path) -> None:
    from texas42_log.board.server import loopback_hosts

    assert loopback_hosts(8000, "127.0.0.1") == {"127.0.0.1:8000", "localhost:8000", "[::1]:8000"}
    assert "192.0.2.7:8000" in loopback_hosts(8000, "192.0.2.7")
    assert "192.0.2.7:8000" not in loopback_hosts(8000, "127.0.0.1")
    b = start_board(_copy(tmp_path), "--ip", "127.0.0.2")
    assert any("http://127.0.0.2:" in line for line in b.printed)
    err = b.stop()
    assert "warning: listening on 127.0.0.2, not this machine only" in err


def test_without_its_extra_the_board_says_what_to_install(tmp_path: Path) -> None:
    code = (
        "import importlib.util, sys\n"
        "real = importlib.util.find_spec\n"
        "importlib.util.find_spec = lambda n, *a: None if n == 'tornado' else real(n, *a)\n"
        "from texas42_log.entry import main\n"
        f"sys.argv = ['texas42', 'board', {str(SAMPLE)!r}]\n"
        "main()\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2  # not the invalid log's 1: the command cannot run as installed
    assert r.stderr.strip() == (
        "texas42: error: the board needs its web server, the board extra: pip install "
        "'texas42-log[board]' (in a checkout: .venv/bin/pip install -e '.[board]')"
    )


def test_a_name_with_escape_sequences_is_printed_inert(tmp_path: Path) -> None:
    log = _copy(tmp_path, "game\x1b[2J\x1b]0;owned\x07.json")
    doc = json.loads(log.read_text("utf-8"))
    doc["players"] = {"A": "\x1b[31mRed\u202e"}
    log.write_text(json.dumps(doc), "utf-8")
    b = start_board(log)
    try:
        r = b.request("GET", "/api/data?as=A")
        assert r.status == 200
        # the name reaches the page as data (a JSON string), set there as text
        assert "\x1b[31mRed\u202e" in r.json()["data"]["strings"]
        b.request("GET", "/%1b%5b2J")  # a refusal's line names the (decoded) path inert
    finally:
        err = b.stop()
    printed = "".join(b.printed) + err
    assert "\x1b" not in printed and "\x07" not in printed
    assert "refused" in err


def test_asking_as_a_seat_gives_its_own_calls_verdicts_and_no_one_elses(tmp_path: Path) -> None:
    """The board's "ask" as seat A: A's views carry the fair verdicts of A's calls (and of
    its declaration when it declared) and no other seat's; B's views carry none of them."""
    log = _copy(tmp_path)
    b = start_board(log, "--worlds", "8")
    try:
        r = b.request("POST", "/api/ask", {"hand": 1, "as": "A"}, who="seat A")
        assert r.status == 200
        assert _wait(b, r.json()["question"], who="seat A")["state"] == "done"
        data = b.request("GET", "/api/data?as=A", who="seat A").json()["data"]
        lines = [line for e in data["hands"][0]["views"] for line in e["fair_lines"]]
        assert any("from A's own tiles" in line for line in lines), lines
        assert not any("own tiles" in line and "from A's" not in line for line in lines)
        other = b.request("GET", "/api/data?as=B", who="seat B").body
        assert b"own tiles" not in other and b"supported_trump" not in other
    finally:
        b.stop()
