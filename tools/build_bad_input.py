"""Build fixtures/bad-input/: malformed logs and the message each must give.

Run: python tools/build_bad_input.py   (after tools/build_fixtures.py)

The expectations (kind, line, column, a phrase of the message) are written here
by hand and stored in fixtures/bad-input-expected.json. Two inputs too large or
too deep to commit (a 50 MB file, 100,000 nested lists) are made by the tests.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from texas42_log.log.versions import FORMAT_VERSION  # noqa: E402  (the one place it is written)

# Fixtures go under FIXTURES_ROOT (argv[1], default: the repository) — tests rebuild them elsewhere.
FIXTURES_ROOT = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT
OUT = FIXTURES_ROOT / "fixtures" / "bad-input"
BASE = FIXTURES_ROOT / "fixtures" / "valid" / "seed-worked-example.json"


def small() -> dict[str, Any]:
    """A short, valid, unfinished match to break in one place."""
    doc: dict[str, Any] = json.loads(BASE.read_text("utf-8"))
    doc["hands"] = doc["hands"][:1]
    doc["status"] = "unfinished"
    del doc["result"]
    return doc


def dump(doc: Any) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.iterdir():
        old.unlink()
    expected: dict[str, dict[str, Any]] = {}

    def put(
        name: str,
        data: bytes | str,
        kind: str,
        line: int | None,
        col: int | None,
        phrase: str,
        pointer: str = "",
    ) -> None:
        raw = data.encode("utf-8") if isinstance(data, str) else data
        (OUT / name).write_bytes(raw)
        expected[name] = {
            "rule": kind,
            "line": line,
            "column": col,
            "phrase": phrase,
            "pointer": pointer,
        }

    base = dump(small())
    assert json.loads(base)  # the base itself is valid JSON

    # Bytes that are not UTF-8: a Latin-1 "é" in a player's name (line 9).
    raw = base.encode("utf-8").replace(b'"Ana"', b'"An\xe9"')
    put("not-utf8.json", raw, "encoding", 19, 13, "not UTF-8: byte 0xe9")
    put("not-json.json", "texas 42 is a domino game\n", "json", 1, 1, "not valid JSON")
    put("empty.json", "", "json", 1, 1, "the input is empty")
    cut = base[: len(base) // 2]
    put("truncated.json", cut, "json", 69, 10, "ends in the middle of the JSON")
    put("trailing-garbage.json", base + "}\n", "json", base.count("\n") + 1, 1, "Extra data")
    put(
        "nan-bid.json",
        base.replace('"bid": 30', '"bid": NaN'),
        "json",
        71,
        18,
        "NaN is not a JSON number",
    )
    put(
        "duplicate-key.json",
        base.replace('"dealer": "D",', '"dealer": "D", "dealer": "A",', 1),
        "json",
        28,
        22,
        "appears twice",
    )
    put("top-level-list.json", "[]\n", "format", 1, 1, "is a JSON object, but this is a list")
    no_format = small()
    del no_format["format"]
    put("no-format-field.json", dump(no_format), "format", 1, 1, 'no "format" field')
    other = small()
    other["format"] = "pgn"
    put("other-format.json", dump(other), "format", 2, 13, "not a texas42-log document", "/format")
    v2 = small()
    v2["version"] = "2.0"
    put(
        "unsupported-version.json",
        dump(v2),
        "format",
        3,
        14,
        f"version 2.0 is a later major version; this tool reads 1.0 to {FORMAT_VERSION}",
        "/version",
    )
    wrong_type = small()
    wrong_type["hands"][0]["auction"][0]["bid"] = "30"
    put(
        "bid-is-a-string.json",
        dump(wrong_type),
        "schema",
        71,
        18,
        'expected an integer, found a string "30"',
        "/hands/0/auction/0/bid",
    )
    float_bid = small()
    float_bid["hands"][0]["auction"][0]["bid"] = 30.0
    put(
        "bid-is-a-float.json",
        dump(float_bid),
        "schema",
        71,
        18,
        "expected an integer, found a number 30.0",
        "/hands/0/auction/0/bid",
    )
    missing = small()
    del missing["hands"][0]["dealer"]
    put(
        "missing-dealer.json",
        dump(missing),
        "schema",
        27,
        5,
        "missing required field 'dealer'",
        "/hands/0",
    )
    extra = small()
    extra["hands"][0]["plays"][0]["colour"] = "red"
    put(
        "unknown-field.json",
        dump(extra),
        "schema",
        94,
        21,
        "unknown field 'colour'; extension fields must start with 'x-'",
        "/hands/0/plays/0/colour",
    )
    spelled = small()
    spelled["hands"][0]["plays"][0]["tile"] = "5-5"
    put(
        "tile-not-canonical.json",
        dump(spelled),
        "R2",
        93,
        19,
        '"5-5" is not the canonical spelling of a tile; the JSON log writes it "[5|5]"',
        "/hands/0/plays/0/tile",
    )
    nine = small()
    nine["hands"][0]["deal"]["B"][2] = "[6|9]"
    put(
        "tile-does-not-exist.json",
        dump(nine),
        "R2",
        42,
        11,
        '"[6|9]" is not a tile',
        "/hands/0/deal/B/2",
    )
    north = small()
    north["hands"][0]["dealer"] = "North"
    put(
        "seat-does-not-exist.json",
        dump(north),
        "R1",
        28,
        17,
        '"North" is not a seat',
        "/hands/0/dealer",
    )
    hands_obj = small()
    hands_obj["hands"] = {"1": hands_obj["hands"][0]}
    put(
        "hands-not-a-list.json",
        dump(hands_obj),
        "schema",
        26,
        12,
        "expected a list, found an object",
        "/hands",
    )
    bad_call = small()
    bad_call["hands"][0]["auction"][1]["call"] = "double"
    put(
        "unknown-call.json",
        dump(bad_call),
        "schema",
        75,
        19,
        '"double" is not a call',
        "/hands/0/auction/1/call",
    )
    bad_preset = small()
    bad_preset["rules"]["preset"] = "house"
    put(
        "unknown-preset.json",
        dump(bad_preset),
        "schema",
        5,
        15,
        '"house" is not a rules preset; known presets: casual, mk5, plunge-c, plunge-f, plunge-l, '
        "plunge-t, standard, texas-42, tournament, tricksy",
        "/rules/preset",
    )
    bad_option = small()
    bad_option["rules"]["options"]["bust"] = True
    put(
        "unknown-rule-option.json",
        dump(bad_option),
        "schema",
        16,
        15,
        "unknown rule option 'bust'; the options are dealer_draw, all_pass, min_point_bid",
        "/rules/options/bust",
    )

    (FIXTURES_ROOT / "fixtures" / "bad-input-expected.json").write_text(
        json.dumps(expected, indent=2) + "\n"
    )
    print(f"wrote {len(expected)} bad inputs")


if __name__ == "__main__":
    main()
