"""What we write for another program is what that program's reader accepts.

Each writer is held to the rules its program's reader states (docs/conversions.md:
the patterns, ranges and required fields of the plunge app's record validator, the
receipt grammar, tricksy's event codec, mk5's link decoder) on random matches of
ours under that program's rules — matches that did not come from the program, the
case where a writer must build every field itself.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest

from texas42_log import Match
from texas42_log.engine.presets import PRESETS
from texas42_log.files.formats import read_sources, write_matches
from texas42_log.files.reader import validate_source
from texas42_log.log.foreign import CannotExport
from texas42_log.log.foreign.mk5 import PLAYS, mk5_deal
from texas42_log.log.foreign.mk5_write import hand_link, write_link
from texas42_log.log.replayed import replay_match
from texas42_log.play.generate import random_match

HEX32 = re.compile(r"[0-9a-f]{32}")
HEX64 = re.compile(r"[0-9a-f]{64}")
ID = re.compile(r"[A-Za-z0-9_.:-]+")
ISO = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})")
CODE = re.compile(
    r"v1[tflc][0-3]([0-6][0-6]){28}\.(P|[0-9]{2}|[MGSN][0-9])*(D[0-79ns]([0-6][0-6])*)?"
)
RECORD_KEYS = {
    "schema",
    "id",
    "game",
    "app",
    "started",
    "ended",
    "outcome",
    "marksBefore",
    "code",
    "seats",
    "settings",
    "profiles",
    "actions",
    "assist",
}


def _matches(preset: str, n: int, *, names: bool = False, cut: bool = True) -> list[Match]:
    """Random matches under ``preset``; some stop inside a hand (after the auction, in
    the play), some have players with names no program would allow as an id."""
    out = []
    for seed in range(n):
        rng = random.Random(seed)
        players = (
            {"A": "Ana María", "B": "bob\u001b[31m", "C": "", "D": "Đặng 42"}
            if names and seed % 2
            else None
        )
        doc = random_match(
            seed,
            rules=PRESETS[preset],
            preset=preset,
            players=players,
            max_hands=rng.choice([1, 2, 4, None]),
        )
        if cut and seed % 3 == 0:
            last = doc["hands"][-1]
            how = rng.choice(["after-auction", "in-play"])
            last.pop("outcome", None)
            if how == "after-auction" or not last.get("plays"):
                last.pop("declaration", None)
                last.pop("plays", None)
            else:
                last["plays"] = (
                    last["plays"][: rng.randrange(len(last["plays"]))] or last["plays"][:1]
                )
            doc["status"] = "unfinished"
            doc.pop("result", None)
            try:
                out.append(Match.model_validate(doc))
            except ValueError:  # pragma: no cover - cut hands are valid documents
                continue
            continue
        out.append(Match.model_validate(doc))
    return out


def _hand_over(match: Match, i: int) -> bool:
    _, facts = replay_match(match)
    return facts[i].finished


# -- plunge: the hand-v2 record, as the app's validHand checks it ---------------------------


def _valid_hand(rec: dict[str, Any], over: bool) -> list[str]:
    """The checks of the plunge app's record validator (docs/conversions.md, plunge-hand-v2)."""
    bad = []

    def need(ok: bool, why: str) -> None:
        if not ok:
            bad.append(why)

    need(set(rec) == RECORD_KEYS, f"fields {sorted(set(rec) ^ RECORD_KEYS)}")
    need(rec.get("schema") == "plunge-hand-v2", "schema")
    need(isinstance(rec.get("id"), str) and bool(HEX32.fullmatch(rec["id"])), "id")
    g = rec.get("game", {})
    need(isinstance(g.get("id"), str) and bool(HEX32.fullmatch(g["id"])), "game.id")
    need(isinstance(g.get("seed"), str) and len(g["seed"]) <= 200, "game.seed")
    need(isinstance(g.get("hand"), int) and 1 <= g["hand"] <= 10_000, "game.hand")
    need(
        isinstance(rec.get("app"), str)
        and len(rec["app"]) <= 64
        and bool(ID.fullmatch(rec["app"])),
        "app",
    )
    for key in ("started", "ended"):
        need(isinstance(rec.get(key), str) and bool(ISO.fullmatch(rec[key])), key)
    need(
        rec.get("outcome") == ("finished" if over else "abandoned"),
        "The outcome does not match the replay.",
    )
    mb = rec.get("marksBefore")
    need(
        isinstance(mb, list)
        and len(mb) == 2
        and all(isinstance(m, int) and 0 <= m <= 99 for m in mb),
        "marksBefore",
    )
    need(
        isinstance(rec.get("code"), str)
        and len(rec["code"]) <= 400
        and bool(CODE.fullmatch(rec["code"])),
        "code",
    )
    seats = rec.get("seats")
    need(isinstance(seats, list) and len(seats) == 4, "seats")
    for s in seats or []:
        if s.get("kind") == "person":
            need(set(s) == {"kind"}, "Invalid seat.")
        else:
            need(
                s.get("kind") == "computer" and set(s) == {"kind", "player", "walt"},
                "Invalid seat.",
            )
            p = s.get("player")
            need(
                isinstance(p, str) and 1 <= len(p) <= 80 and bool(ID.fullmatch(p)), "Invalid seat."
            )
            need(
                s.get("walt") is None
                or (isinstance(s["walt"], str) and bool(HEX64.fullmatch(s["walt"]))),
                "walt",
            )
    settings = rec.get("settings")
    need(isinstance(settings, list) and 1 <= len(settings) <= 64, "settings")
    for st in settings or []:
        need(
            isinstance(st.get("at"), int)
            and isinstance(st.get("preset"), str)
            and isinstance(st.get("difficulty"), str)
            and all(isinstance(st.get(k), bool) for k in ("hints", "thinkDeeper", "nello")),
            "settings entry",
        )
    need(isinstance(rec.get("profiles"), list) and len(rec["profiles"]) <= 64, "profiles")
    assist = rec.get("assist")
    need(isinstance(assist, list) and len(assist) <= 500, "Invalid hint events.")
    return bad


@pytest.mark.parametrize("names", [False, True])
def test_plunge_records_pass_the_apps_validator(names: bool) -> None:
    checked = 0
    for match in _matches("plunge-c", 30, names=names):
        text = write_matches([match], "plunge-hand-v2")
        for i, line in enumerate(text.splitlines()):
            rec = json.loads(line)
            assert _valid_hand(rec, _hand_over(match, i)) == [], (i, rec)
            # one action per decision of the code, by the kind of the seat on turn
            h = match.hands[i]
            turns = (
                [c.seat for c in h.auction]
                + ([h.declaration.seat] if h.declaration else [])
                + [p.seat for p in h.plays]
            )
            assert [a["by"] for a in rec["actions"]] == [
                "person" if s == "A" else "computer" for s in turns
            ]
            checked += 1
        (src,) = read_sources(text, "plunge-hand-v2")
        assert validate_source(src).valid
    assert checked >= 40


def test_the_validator_of_this_test_refuses_what_plunge_refuses() -> None:
    """The three defects of our old records, each caught by the check above."""
    match = _matches("plunge-c", 1, cut=False)[0]
    rec = json.loads(write_matches([match], "plunge-hand-v2").splitlines()[0])
    assert _valid_hand(rec, _hand_over(match, 0)) == []
    assert "Invalid seat." in _valid_hand(
        rec
        | {
            "seats": [{"kind": "person"}]
            + [{"kind": "computer", "player": "seat 1", "walt": None}] * 3
        },
        True,
    )
    assert "Invalid hint events." in _valid_hand(
        {k: v for k, v in rec.items() if k != "assist"}, True
    )
    assert "The outcome does not match the replay." in _valid_hand(rec, not _hand_over(match, 0))


def test_a_hand_left_after_its_auction_is_abandoned() -> None:
    doc = random_match(3, rules=PRESETS["plunge-c"], preset="plunge-c", max_hands=2)
    last = doc["hands"][-1]
    for key in ("declaration", "plays", "outcome"):
        last.pop(key, None)
    doc["status"] = "unfinished"
    match = Match.model_validate(doc)
    recs = [json.loads(x) for x in write_matches([match], "plunge-hand-v2").splitlines()]
    assert any(c.call != "pass" for c in match.hands[-1].auction)
    assert [r["outcome"] for r in recs] == ["finished", "abandoned"]


def test_plunge_codes_follow_the_code_grammar() -> None:
    for match in _matches("plunge-l", 20):
        for code in write_matches([match], "plunge-code").splitlines():
            assert CODE.fullmatch(code), code
            dealt = [code[k : k + 2] for k in range(4, 60, 2)]
            assert len(set(dealt)) == 28 and all(t[0] >= t[1] for t in dealt)


# -- texas-42: the receipt grammar -----------------------------------------------------------

RECEIPT_LINES = [
    re.compile(r"rob player self-play verification: PASS"),
    re.compile(r"player: .*; first shaker S[0-3]"),
    re.compile(r"hand \d+: shaker S[0-3], bidder S[0-3], bid P\(\d+\), declaration (P[0-6]|DT|NT)"),
    re.compile(r"  trick [1-7]: (S[0-3]:[0-6]-[0-6] ){3}S[0-3]:[0-6]-[0-6] -> S[0-3] \+\d+"),
    re.compile(
        r"  result: declaring T[01] \d+ points -> (made|set) \(\d+ marks? to T[01]\); "
        r"marks T0 \d+ - \d+ T1"
    ),
    re.compile(r"match result: T0 \d+ - \d+ T1 after \d+ hands"),
]


def test_receipts_follow_the_receipt_grammar() -> None:
    written = 0
    for seed in range(120):
        doc = random_match(
            seed, rules=PRESETS["texas-42"], preset="texas-42", max_hands=seed % 3 + 1
        )
        try:
            text = write_matches([Match.model_validate(doc)], "texas-42-receipt")
        except CannotExport:
            continue  # a mark bid or an all-pass hand: the receipt has no syntax for them
        for line in text.rstrip("\n").split("\n"):
            assert any(p.fullmatch(line) for p in RECEIPT_LINES), line
            for tile in re.findall(r"[0-6]-[0-6]", line):
                assert tile[0] >= tile[2], line  # the writer puts the higher end first
        written += 1
    assert written >= 5


# -- tricksy: the codec's event shapes -----------------------------------------------------------

EVENT_FIELDS = {
    "HAND_DEALT": {"type", "hands", "dealer"},
    "BID": {"type", "actor", "contract", "points", "marks"},
    "PASS": {"type", "actor"},
    "BID_CONFIRMED": {"type", "actor", "accept"},
    "CONTRACT_DECLARED": {"type", "actor", "contract", "trump"},
    "PLAY_DOMINO": {"type", "actor", "domino", "declared_suit"},
}
SPECIAL = {"nello", "nello_low", "plunge", "splash", "sevens"}


def test_tricksy_events_have_the_codecs_shapes() -> None:
    bundles = 0
    for match in _matches("tricksy", 60, cut=False):
        try:
            text = write_matches([match], "tricksy")
        except CannotExport:
            continue
        bundle = json.loads(text)
        for e in bundle["events"]:
            t = e.get("type")
            assert t in EVENT_FIELDS and EVENT_FIELDS[t] <= set(e), e
            if t == "HAND_DEALT":
                assert [s for s, _ in e["hands"]] == [0, 1, 2, 3] and 0 <= e["dealer"] <= 3
                assert all(
                    len(tiles) == 7
                    and all(re.fullmatch(r"[0-6]-[0-6]", x) and x[0] >= x[2] for x in tiles)
                    for _, tiles in e["hands"]
                )
            elif t == "BID":
                if e["contract"] is None:
                    assert 30 <= e["points"] <= 42 and e["marks"] is None, e
                else:
                    assert (
                        e["contract"] in SPECIAL and e["points"] is None and 1 <= e["marks"] <= 7
                    ), e
            elif t == "CONTRACT_DECLARED":
                assert isinstance(e["contract"], str) and 0 <= e["trump"] <= 7, e
            elif t == "PLAY_DOMINO":
                assert (
                    re.fullmatch(r"[0-6]-[0-6]", e["domino"]) and e["domino"][0] >= e["domino"][2]
                )
                assert e["declared_suit"] is None or 0 <= e["declared_suit"] <= 7
        bundles += 1
    assert bundles >= 12


# -- mk5: the link as its decoder reads it
# ----------------------------------------------------------

ORDER = ["s", "i", "p", "d", "t", "v", "h", "l", "a"]
LINK_CHARS = re.compile(r"[A-Za-z0-9*\-._%+]*")
ALPHABET = set("ABCDEFGHIJKLMNOPQRSTUVWXYZa345678-_.9") | set(PLAYS)


def _mk5_matches(n: int) -> list[Match]:
    from texas42_log.engine.seats import SEATS
    from texas42_log.engine.tiles import TILE_BY_NAME
    from texas42_log.log.foreign.mk5_replay import link_rules
    from texas42_log.play.generate import Policy

    out = []
    for seed in range(n):
        rng = random.Random(seed)
        layers = rng.choice(["", "n", "p,S", "n,p,S,v", "v"])
        rules, options = link_rules([c for c in layers.split(",") if c])
        first = rng.randrange(1_000_000)

        class Deals(Policy):
            start = first

            def deal(self, hand_index: int, dealer: str) -> Any:  # type: ignore[override]
                rows = mk5_deal(self.start + hand_index * 1_000_000)
                return {s: [TILE_BY_NAME[t] for t in rows[k]] for k, s in enumerate(SEATS)}

        doc = random_match(
            seed,
            rules=rules,
            preset="mk5",
            first_dealer="D",
            policy=Deals(rng, rules),
            max_hands=rng.choice([1, 3, None]),
        )
        doc["rules"]["options"] = options
        doc["x-mk5"] = {
            "deal": "seed",
            "seed": first,
            "players": rng.choice(["haaa", "hhaa", "aaaa", "ahah"]),
        } | ({"layers": layers} if layers else {})
        out.append(Match.model_validate(doc))
    return out


def test_mk5_links_are_what_mk5s_decoder_reads() -> None:
    for match in _mk5_matches(30):
        link, notes = write_link(match)
        parts = urlsplit(link)
        assert parts.scheme == "https" and parts.path == "/mk5-main/" and not parts.fragment
        raw = parts.query.split("&")
        names = [p.split("=", 1)[0] for p in raw]
        assert (
            names == sorted(names, key=ORDER.index)
            and names[-1] == "a"
            and len(set(names)) == len(names)
        )
        for p in raw:
            assert LINK_CHARS.fullmatch(p.split("=", 1)[1]), p
            assert all(m == m.upper() for m in re.findall(r"%[0-9A-Fa-f]{2}", p))
        params = dict(parse_qsl(parts.query, keep_blank_values=True))
        assert ("s" in params) != ("i" in params)
        if "s" in params:
            assert re.fullmatch(r"[1-9a-z][0-9a-z]*|0", params["s"])
        if "p" in params:
            assert re.fullmatch(r"[ha]{4}", params["p"]) and params["p"] != "haaa"
        if "d" in params:
            assert params["d"] in ("0", "1", "2")
        if "l" in params:
            assert all(c in "npSvtosh" for c in params["l"].split(","))
        actions = params["a"].replace("~?", "")
        assert set(actions) <= ALPHABET and "~" not in actions and "O" not in actions
        assert params["a"].count("~?") == len(notes)


def test_an_mk5_hand_link_opens_the_hand_at_its_deal() -> None:
    match = _mk5_matches(1)[0]
    for n in range(1, len(match.hands) + 1):
        link, _ = hand_link(match, n)
        params = dict(parse_qsl(urlsplit(link).query, keep_blank_values=True))
        assert set(params) <= {"i", "p", "l", "a"} and len(params["i"]) == 24
