"""The verdict path (``texas42 validate``) against the models' path, on generated logs.

``validate_bytes(..., models=False)`` settles a plain, valid log over its parsed JSON
(texas42_log/log/plain.py) and leaves every other log to the models and the checked
replay. Whatever it settles must be what the models' path says: here, matches of every
preset, and each of them broken one way at a time (a stated fact, a call, a play, a
type, a key, a comment id), all get the same result — verdict, diagnostics, summary —
both ways. The golden inputs (tests/test_validation_golden.py) are held to it too.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from texas42_log.engine.presets import PRESETS
from texas42_log.files.report import result_json
from texas42_log.files.validate import validate_bytes
from texas42_log.play.generate import random_match

Doc = dict[str, Any]


def _hand(doc: Doc, rng: random.Random) -> Doc:
    hands: list[Doc] = doc["hands"]
    return hands[rng.randrange(len(hands))]


def _played(doc: Doc, rng: random.Random) -> Doc:
    played = [h for h in doc["hands"] if h.get("plays")]
    return played[rng.randrange(len(played))] if played else doc["hands"][0]


def _bump_stated(doc: Doc, rng: random.Random) -> None:
    out = _played(doc, rng).get("outcome") or {}
    field = rng.choice(["points", "marks", "score"])
    if field in out:
        out[field]["A+C"] += 1


def _trick_winner(doc: Doc, rng: random.Random) -> None:
    tricks = (_played(doc, rng).get("outcome") or {}).get("tricks") or []
    if tricks:
        t = rng.choice(tricks)
        t["winner"] = rng.choice("ABCD")
        if rng.random() < 0.5:
            t["points"] = t.get("points", 0) + rng.choice([-1, 1, 10])


def _swap_plays(doc: Doc, rng: random.Random) -> None:
    plays = _played(doc, rng).get("plays") or []
    if len(plays) > 2:
        j, k = rng.sample(range(len(plays)), 2)
        plays[j], plays[k] = plays[k], plays[j]


def _drop_play(doc: Doc, rng: random.Random) -> None:
    plays = _played(doc, rng).get("plays") or []
    if plays:
        del plays[rng.randrange(len(plays))]


def _deal_twice(doc: Doc, rng: random.Random) -> None:
    deal = _hand(doc, rng)["deal"]
    deal["A"][0] = deal["B"][rng.randrange(7)]


def _dealer(doc: Doc, rng: random.Random) -> None:
    _hand(doc, rng)["dealer"] = rng.choice("ABCD")


def _bid(doc: Doc, rng: random.Random) -> None:
    calls = [c for c in _hand(doc, rng)["auction"] if "bid" in c]
    if calls:
        c = rng.choice(calls)
        c["bid"] = rng.choice([c["bid"] + 1, c["bid"] - 1, True, float(c["bid"]), str(c["bid"])])


def _call_kind(doc: Doc, rng: random.Random) -> None:
    c = rng.choice(_hand(doc, rng)["auction"])
    c["call"] = rng.choice(["pass", "points", "marks", "bid", ["pass"], None])


def _declaration(doc: Doc, rng: random.Random) -> None:
    h = _played(doc, rng)
    d = h.get("declaration")
    if d is None:
        h["declaration"] = {"seat": "A", "trump": "3"}
    elif rng.random() < 0.3:
        del h["declaration"]
    else:
        key = rng.choice(["trump", "seat", "stacks", "contract", "doubles"])
        d[key] = rng.choice(["0", "6", "doubles", "no-trump", "A", 1, 2, 3, "nello", "low", None])


def _led(doc: Doc, rng: random.Random) -> None:
    plays = _played(doc, rng).get("plays") or []
    if plays:
        rng.choice(plays)["led"] = rng.choice([0, 3, 6, 7, -1, True, None])


def _status(doc: Doc, rng: random.Random) -> None:
    doc["status"] = rng.choice(["complete", "unfinished", "done"])


def _result(doc: Doc, rng: random.Random) -> None:
    if "result" in doc:
        doc["result"]["winner"] = rng.choice(["A+C", "B+D", "A"])
    else:
        doc["result"] = {"winner": "A+C"}


def _hands(doc: Doc, rng: random.Random) -> None:
    if rng.random() < 0.5 and len(doc["hands"]) > 1:
        doc["hands"].pop()
    else:
        doc["hands"].append(copy.deepcopy(doc["hands"][-1]))


def _extension(doc: Doc, rng: random.Random) -> None:
    where = rng.choice([doc, _hand(doc, rng), doc["rules"]["options"], doc["rules"]])
    where[rng.choice(["x-note", "note", "X-note"])] = 1


def _comment(doc: Doc, rng: random.Random) -> None:
    h = _played(doc, rng)
    holder = rng.choice([doc, h, h["auction"][0], *(h.get("plays") or [])[:1]])
    note: Doc = {"text": rng.choice(["well played", "\ud800", "", 5])}
    if rng.random() < 0.7:
        note["id"] = rng.choice(["c1", "c1", "has space", "é", "x" * 41, "ok-ID_9"])
    if rng.random() < 0.3:
        note[rng.choice(["seat", "edited_by", "author"])] = rng.choice(["A", "owner", "Ann", 1])
    holder.setdefault("annotations", []).append(note)
    if rng.random() < 0.3:
        doc["version"] = rng.choice(["1.0", "1.6", "1.7", "1.10", "1.11"])


def _option(doc: Doc, rng: random.Random) -> None:
    options = doc["rules"].setdefault("options", {})
    key = rng.choice(["min_point_bid", "max_point_bid", "hand_end", "match_goal_marks", "nello"])
    options[key] = rng.choice([30, 43, 0, "all-tricks", True, 1, None])


def _players(doc: Doc, rng: random.Random) -> None:
    doc["players"] = {"A": rng.choice(["Ann", "\udcff", 7, None]), rng.choice("BE"): "Bo"}


MUTATIONS: list[Callable[[Doc, random.Random], None]] = [
    _bump_stated,
    _trick_winner,
    _swap_plays,
    _drop_play,
    _deal_twice,
    _dealer,
    _bid,
    _call_kind,
    _declaration,
    _led,
    _status,
    _result,
    _hands,
    _extension,
    _comment,
    _option,
    _players,
]


def _both(doc: Doc) -> tuple[Any, Any, bool]:
    data = json.dumps(doc, ensure_ascii=False, allow_nan=False).encode("utf-8", "surrogatepass")
    quick = validate_bytes(data, models=False)
    full = validate_bytes(data)
    settled = quick.match is None and quick.valid
    return result_json("x", quick), result_json("x", full), settled


def _matches(preset: str, count: int) -> list[Doc]:
    rules = PRESETS[preset]
    return [
        random_match(7000 + k, rules=rules, preset=preset, max_hands=None if k % 3 else 4)
        for k in range(count)
    ]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_gets_the_same_verdict_both_ways(preset: str) -> None:
    settled = 0
    for doc in _matches(preset, 6):
        quick, full, plain = _both(doc)
        assert quick == full
        settled += plain
    # A preset that writes mark bids in points is left to the models' path.
    if PRESETS[preset].mark_bid_units == "marks":
        assert settled == 6


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_each_broken_log_gets_the_same_verdict_both_ways(preset: str) -> None:
    rng = random.Random(preset)
    broken = settled = 0
    for doc in _matches(preset, 4):
        for mutate in MUTATIONS:
            for _ in range(3):
                changed = copy.deepcopy(doc)
                mutate(changed, rng)
                quick, full, plain = _both(changed)
                assert quick == full, (mutate.__name__, changed)
                broken += not quick["valid"]
                settled += plain
    assert broken >= 40  # the mutations break logs, not only reshuffle them
    if PRESETS[preset].mark_bid_units == "marks":
        assert settled >= 20  # and some still-valid ones are settled the plain way
