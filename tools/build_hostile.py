"""Build the hostile-input catalogue: fixtures/hostile/ and fixtures/hostile-cases.json.

Run: python tools/build_hostile.py   (after tools/build_fixtures.py)

Each case is one command run on one input that a hostile (or unlucky) user could
give it, with the exit code it must end with and words its output must hold —
and, for inputs that are valid but carry terminal escapes, characters its
output must not hold raw. tests/test_hostile.py runs every case through the
real CLI in a subprocess with a time limit, and checks that no traceback or
internal error appears and that the input is untouched.

Small inputs are files in fixtures/hostile/ (mutations of one sample of every
format). Inputs that cannot be committed are made by the test from a spec
beginning with '@': a FIFO with no writer, /dev/zero, a symbolic-link loop, an
unreadable directory, a 50 MB line, 100,000 nested brackets.

The cases are the product of commands × formats × classes: what each class means
is in CLASSES below; docs/hostile-input.md explains the catalogue to users.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from build_bad_input import dump, small  # noqa: E402  (the same short match to break)

FIXTURES_ROOT = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT
OUT = FIXTURES_ROOT / "fixtures" / "hostile"
FOREIGN = ROOT / "fixtures" / "foreign"

CLASSES = {
    "big-integer": "a number of 5,000 digits (more than Python converts) or of 4,000 (less)",
    "lone-surrogate": "an escaped half character (\\ud800) in a string or a key",
    "deep-nesting": "100,000 lists inside each other",
    "non-ascii-digits": "digits from other scripts (٣, ², ३) where a number is meant",
    "nan-infinity": "NaN, Infinity, -Infinity, 1e999 where JSON has none",
    "duplicate-key": "one key twice in an object, or a tag given twice",
    "empty": "an empty file, or blank lines only",
    "not-utf8": "bytes that are not UTF-8",
    "truncated": "the first half of a file",
    "garbage": "text that is no format at all",
    "special-file": "a FIFO with no writer, /dev/zero, a directory, a socket-like device",
    "symlink": "a loop of symbolic links, a dangling link, a glob through a looping folder",
    "unreadable": "a directory or file this user may not read",
    "huge": "a 50 MB line, an input larger than its limit",
    "terminal-escape": "a valid log whose names and comments hold ESC, OSC, NUL and bidi controls",
    "missing": "a name that does not exist",
    "bad-argument": "an argument that is no text (bytes that are not UTF-8) or a number of "
    "thousands of digits",
    "bad-output": "an output that is a directory, the input itself as a folder, a name under a "
    "file, a folder "
    "that may not be searched or written",
    "leftover": "temporary files and folders that killed runs left beside the output",
    "format-name": "a format named as users name it (t42, .T42, receipt, ndjson) or not at all "
    "(xml)",
    "raised-limit": "a match over the default size with --max-bytes raised to hold it",
    "in-play": "a review of a match whose last hand is still being played",
}

#: Output that must never appear raw: ESC, BEL, NUL, CSI (C1), RLO.
RAW_CONTROLS = ["\u001b", "\u0007", "\u0000", "\u009b", "\u202e"]

Case = dict[str, Any]


def text_notation(doc: dict[str, Any]) -> str:
    from texas42_log.log.model import Match
    from texas42_log.log.notation import write_text

    return write_text(Match.model_validate(doc))


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.iterdir():
        old.unlink()
    cases: list[Case] = []
    files: dict[str, bytes] = {}

    def put(name: str, data: str | bytes) -> str:
        files[name] = data.encode("utf-8") if isinstance(data, str) else data
        return name

    def case(
        cls: str,
        command: list[str],
        input: str,
        exit: int,
        words: list[str],
        *,
        stdin: str | None = None,
        absent: list[str] | None = None,
        unprivileged: bool = False,
    ) -> None:
        assert cls in CLASSES, cls
        sub = "-" + command[1] if command[0] == "annotate" else ""
        name = f"{command[0]}{sub}/{cls}/{input.lstrip('@')}"
        n = sum(1 for c in cases if c["id"].startswith(name))
        cases.append(
            {
                "id": name + (f"#{n + 1}" if n else ""),
                "class": cls,
                "command": command,
                "input": input,
                "stdin": stdin,
                "exit": exit,
                "words": words,
                "absent": absent or [],
                **({"unprivileged": True} if unprivileged or cls == "unreadable" else {}),
            }
        )

    # -- samples of every format ----------------------------------------------------
    base_doc = small()
    base = dump(base_doc)
    jsonl_base = (
        json.dumps(base_doc, ensure_ascii=False)
        + "\n"
        + json.dumps(base_doc, ensure_ascii=False)
        + "\n"
    )
    t42 = text_notation(base_doc)
    receipt = (FOREIGN / "texas-42" / "no_trump.receipt").read_text("utf-8")
    code = (FOREIGN / "plunge" / "P1_tournament_point_bids_early_end.plunge").read_text("utf-8")
    record = (FOREIGN / "plunge" / "P1_record.plunge.json").read_text("utf-8")
    tricksy = (FOREIGN / "tricksy" / "T1_standard_then_redeal.tricksy.json").read_text("utf-8")
    assert (
        '"bid": 30' in base
        and "A 30" in t42
        and "+11" in receipt
        and '"marks_to_win": 7' in tricksy
    )

    big = "9" * 5000
    under = "9" * 4000
    deep = "[" * 100_000 + "]" * 100_000

    # Which commands read which format, and how each is run (IN is the input's path).
    def readers(ext: str) -> list[list[str]]:
        cmds = [
            ["validate", "IN"],
            ["replay", "IN"],
            ["render", "IN", "-o", "OUT/page.html"],
            ["render", "IN", "--to", "svg", "-o", "OUT/moment.svg"],
            ["convert", "IN", "-o", "OUT/out.t42"],
            ["redact", "IN", "-o", "OUT/public.json"],
            ["analyze", "IN", "--no-table", "-j", "1"],
        ]
        if ext in (".json", ".jsonl", ".t42"):
            cmds += [
                ["annotate", "add", "IN", "--text", "x", "-o", "OUT/noted" + ext],
                ["annotate", "list", "IN"],
                ["analyze", "IN", "--annotate", "--no-table", "-o", "OUT/analysed" + ext],
            ]
        if ext in (".json", ".jsonl"):
            cmds.append(["upgrade", "IN", "-o", "OUT/up" + ext])
        return cmds

    def every(cls: str, name: str, data: str | bytes, words: list[str], exit: int = 1) -> None:
        put(name, data)
        ext = "." + name.split(".", 1)[1]
        ext = {".plunge.json": ".plunge.json", ".tricksy.json": ".tricksy.json"}.get(
            ext, Path(name).suffix
        )
        for cmd in readers(ext):
            case(cls, cmd, name, exit, words)
        if exit != 0:
            # The board and a comment's edit refuse such a log before anything starts
            # or is written (a valid one would start a server that runs until stopped:
            # tests/test_board.py runs those).
            case(cls, ["board", "IN", "--save", "OUT/board.json"], name, exit, words)
            if ext in (".json", ".jsonl", ".t42"):
                edit = ["annotate", "edit", "IN", "--id", "x", "--text", "y"]
                case(cls, [*edit, "-o", "OUT/edited" + ext], name, exit, words)

    # -- JSON-based formats: the log, JSON Lines, a plunge record, a tricksy bundle --
    json_samples = {
        "log.json": (base, '"bid": 30', '"bid": {}'),
        "log.jsonl": (jsonl_base, '"bid": 30', '"bid": {}'),
        "record.plunge.json": (record, '"hand": 3', '"hand": {}'),
        "bundle.tricksy.json": (tricksy, '"marks_to_win": 7', '"marks_to_win": {}'),
    }
    for name, (text, field, template) in json_samples.items():
        stem, ext = name.split(".", 1)
        assert field in text, name

        def at(value: str, text: str = text, field: str = field, template: str = template) -> str:
            return text.replace(field, template.format(value), 1)

        def extra(member: str, text: str = text) -> str:
            return text.replace("{", "{" + member + ", ", 1)

        every("big-integer", f"{stem}-bigint.{ext}", at(big), ["more than 4,300 digits"])
        every(
            "big-integer",
            f"{stem}-bigint-ext.{ext}",
            extra(f'"x-n": {big}'),
            ["more than 4,300 digits"],
        )
        every(
            "lone-surrogate",
            f"{stem}-surrogate.{ext}",
            extra('"x-s": "ab\\ud800cd"'),
            ["\\ud800", "lone surrogate"],
        )
        every(
            "lone-surrogate",
            f"{stem}-surrogate-key.{ext}",
            extra('"\\udc00": 1'),
            ["\\udc00", "lone surrogate"],
        )
        every(
            "deep-nesting",
            f"{stem}-deep.{ext}",
            extra(f'"x-d": {deep}'),
            ["nested more than 200 deep"],
        )
        every("nan-infinity", f"{stem}-nan.{ext}", at("NaN"), ["NaN is not a JSON number"])
        every(
            "nan-infinity",
            f"{stem}-infinity.{ext}",
            at("-Infinity"),
            ["-Infinity is not a JSON number"],
        )
        every("nan-infinity", f"{stem}-overflow.{ext}", at("1e999"), ["overflows to infinity"])
        every(
            "duplicate-key",
            f"{stem}-duplicate.{ext}",
            extra('"x-k": 1, "x-k": 2'),
            ['"x-k" appears twice'],
        )
        every(
            "truncated", f"{stem}-truncated.{ext}", text[: len(text) * 3 // 4], ["not valid JSON"]
        )
        every(
            "not-utf8",
            f"{stem}-latin1.{ext}",
            text.encode("utf-8").replace(b"{", b"{\xe9", 1),
            ["not UTF-8"],
        )
        every("empty", f"{stem}-empty.{ext}", "", ["empty"])
        every("empty", f"{stem}-blank.{ext}", "  \n\n \t\n", ["empty"])
    # a big number that Python would convert, where the format means a small one
    put(
        "bundle-bigint-under.tricksy.json",
        tricksy.replace('"marks_to_win": 7', f'"marks_to_win": {under}', 1),
    )
    for cmd in readers(".tricksy.json"):
        case(
            "big-integer",
            cmd,
            "bundle-bigint-under.tricksy.json",
            1,
            ["marks_to_win is a whole number"],
        )

    # -- the text notation --------------------------------------------------------
    assert "Auction: A 30" in t42 and '[A "Ana"]' in t42 and "Trick 1:" in t42
    every("big-integer", "bid-bigint.t42", t42.replace("A 30", f"A {big}", 1), ["digits"])
    every("big-integer", "bid-bigint-under.t42", t42.replace("A 30", f"A {under}", 1), ["digits"])
    every(
        "big-integer",
        "tag-bigint.t42",
        t42.replace('[A "Ana"]', f'[A "Ana"]\n[Option nello_min_marks {big}]', 1),
        ["more than 4,300 digits"],
    )
    every("big-integer", "hand-bigint.t42", t42.replace("Hand 1:", f"Hand {under}:", 1), ["digits"])
    every(
        "non-ascii-digits",
        "bid-arabic-indic.t42",
        t42.replace("A 30", "A \u0663\u0660", 1),
        ["\u0663\u0660"],
    )
    every(
        "non-ascii-digits", "bid-superscript.t42", t42.replace("A 30", "A 3\u00b2", 1), ["3\u00b2"]
    )
    every(
        "non-ascii-digits",
        "hand-devanagari.t42",
        t42.replace("Hand 1:", "Hand \u0967:", 1),
        ["\u0967"],
    )
    every(
        "duplicate-key",
        "tag-twice.t42",
        t42.replace('[A "Ana"]', '[A "Ana"]\n[A "Bea"]', 1),
        ["[A]", "twice"],
    )
    every(
        "duplicate-key",
        "rules-twice.t42",
        t42.replace('[Rules "standard"]', '[Rules "standard"]\n[Rules "casual"]', 1),
        ["[Rules]", "twice"],
    )
    every(
        "duplicate-key",
        "ext-duplicate.t42",
        t42.replace('[A "Ana"]', '[A "Ana"] &{"x-a": 1, "x-a": 2}', 1),
        ['"x-a" appears twice'],
    )
    every(
        "nan-infinity",
        "ext-nan.t42",
        t42.replace('[A "Ana"]', '[A "Ana"] &{"x-a": NaN}', 1),
        ["NaN is not a JSON number"],
    )
    every(
        "lone-surrogate",
        "name-surrogate.t42",
        t42.replace('[A "Ana"]', '[A "An\\ud800a"]', 1),
        ["\\ud800"],
    )
    every(
        "deep-nesting",
        "ext-deep.t42",
        t42.replace('[A "Ana"]', f'[A "Ana"] &{{"x-d": {deep}}}', 1),
        ["nested more than 200 deep"],
    )
    every("empty", "empty.t42", "", ["no match"])
    every("empty", "blank.t42", "\n  \n; only a remark\n", ["no match"])
    every(
        "not-utf8", "latin1.t42", t42.encode("utf-8").replace(b"Ana", b"An\xe9", 1), ["not UTF-8"]
    )
    every("truncated", "truncated.t42", t42[: len(t42) // 2], [])
    every("garbage", "garbage.t42", "Hand of cards: four aces \x00\x01\x02\n", [":1:"])

    # -- the texas-42 receipt ---------------------------------------------------------
    assert "-> S2 +11" in receipt and "hand 0:" in receipt and "P(30)" in receipt
    every(
        "big-integer",
        "points-bigint.receipt",
        receipt.replace("-> S2 +11", f"-> S2 +{big}", 1),
        [":5:", "not a line"],
    )
    every(
        "big-integer",
        "bid-bigint.receipt",
        receipt.replace("P(30)", f"P({big})", 1),
        [":2:", "P(n)"],
    )
    every(
        "non-ascii-digits",
        "points-arabic-indic.receipt",
        receipt.replace("-> S2 +11", "-> S2 +\u0661\u0661", 1),
        [":5:"],
    )
    every(
        "non-ascii-digits",
        "seat-superscript.receipt",
        receipt.replace("S2:6-6", "S\u00b2:6-6", 1),
        [":3:"],
    )
    every("empty", "empty.receipt", "", ["empty"])
    every("truncated", "truncated.receipt", receipt[: len(receipt) // 2], [])
    every(
        "garbage",
        "garbage.receipt",
        "rob player self-play verification: PASS\nhand zero\n",
        [":2:"],
    )

    # -- plunge replay codes -----------------------------------------------------------
    assert code.startswith("v1t3")
    every("non-ascii-digits", "dealer-arabic-indic.plunge", "v1t\u0663" + code[4:], [":1:"])
    every(
        "non-ascii-digits", "tile-superscript.plunge", code.replace("555", "5\u00b25", 1), [":1:"]
    )
    every("big-integer", "bid-bigint.plunge", code.replace(".P30", f".P{big}", 1), [":1:"])
    every("empty", "empty.plunge", "", ["no"])
    every("garbage", "garbage.plunge", "v1z-not-a-code\n", [":1:"])
    every("truncated", "truncated.plunge", code[: len(code) // 2] + "\n", [])

    # -- valid logs that carry terminal escapes: the output must hold none of them raw --
    escape_doc = small()
    escape_doc["players"] = {
        "A": "\u001b[2J\u001b]0;owned\u0007Ana",
        "B": "Bo\u0000b",
        "C": "\u202eCid",
        "D": "D\u009b31mee\u001b]52;c;ZXZpbA==\u0007",
    }
    escape_doc["hands"][0]["plays"][0]["annotations"] = [
        {"text": "lead \u001b[31mred\u001b[0m\nline two\u202e", "author": "\u001b]0;x\u0007coach"}
    ]
    put("escapes.json", dump(escape_doc))
    put("escapes.t42", text_notation(escape_doc))
    for name in ("escapes.json", "escapes.t42"):
        for cmd, words in (
            (["validate", "IN"], ["valid"]),
            (["replay", "IN"], ["\\x1b"]),
            (["replay", "IN", "--as", "review", "--format", "json"], ["\\u001b"]),
            (["annotate", "list", "IN"], ["\\x1b[31mred", "\\nline two"]),
            (["annotate", "list", "IN", "--format", "json"], ["\\u001b[31mred"]),
            (["convert", "IN", "-o", "-", "--to", "text"], ["\\u001b[2J", "lead \\u001b[31mred"]),
            (["convert", "IN", "-o", "-", "--to", "json"], ["\\u001b[2J"]),
            (["redact", "IN"], ["\\u001b[2J"]),
            (["analyze", "IN", "--no-table"], ["open-hand analysis"]),
        ):
            case("terminal-escape", cmd, name, 0, words, absent=RAW_CONTROLS)
    invalid_escape = small()
    invalid_escape["players"]["A"] = "\u001b[2J"
    invalid_escape["hands"][0]["dealer"] = "\u001b[2JX"
    put("escapes-invalid.json", dump(invalid_escape))
    for cmd in readers(".json"):
        if cmd[0] != "upgrade":  # upgrade migrates versions; it does not validate a current log
            case(
                "terminal-escape",
                cmd,
                "escapes-invalid.json",
                1,
                ["\\u001b[2JX"],
                absent=RAW_CONTROLS,
            )

    # -- mk5 share links: a file of links, and a link given as the argument itself ------
    link = (FOREIGN / "mk5" / "sample-plunge.url").read_text("utf-8").strip()
    query = link[link.index("?") :]
    twice = "AAAAAAAAAAAAAAAAAAAAAAAA"  # i=: 28 times the tile of index 0, the double blank
    mk5_cases = [
        (
            "big-integer",
            "seed-10000-digits.mk5",
            f"?s={'9' * 10_000}&a=",
            ["s= is 10,000 characters long"],
        ),
        ("big-integer", "seed-past-2-53.mk5", "?s=zzzzzzzzzzz&a=", ["above 2^53"]),
        (
            "garbage",
            "escape-to-nothing.mk5",
            query.replace("%7E", "%Z7", 1),
            ["not a percent-escape", ":1:"],
        ),
        ("garbage", "escape-cut.mk5", query + "%", ["not a percent-escape", ":1:"]),
        ("garbage", "tile-twice.mk5", f"?i={twice}&a=", ["dealt twice"]),
        (
            "garbage",
            "unknown-token.mk5",
            query.replace("Sr1", "S!1", 1),
            ["not an action token", ":1:"],
        ),
        (
            "garbage",
            "illegal-play.mk5",
            query.replace("Sr1", "Sr2", 1),
            ["which was dealt to B (R3)", ":1:"],
        ),
        ("garbage", "not-a-link.mk5", "https://example.com/?q=42\n", ["not an mk5 link"]),
        ("not-utf8", "escape-not-utf8.mk5", query.replace("&a=", "&t=%C3%28&a=", 1), ["not UTF-8"]),
        (
            "lone-surrogate",
            "escape-surrogate.mk5",
            query.replace("&a=", "&t=%ED%A0%80&a=", 1),
            ["not UTF-8"],
        ),
        (
            "non-ascii-digits",
            "seed-arabic-indic.mk5",
            query.replace("s=lgvi", "s=%D9%A3", 1),
            ["not a base-36"],
        ),
        ("duplicate-key", "seed-twice.mk5", query.replace("&a=", "&s=1&a=", 1), ["given twice"]),
        ("truncated", "truncated.mk5", query[: len(query) // 2], ["d=0 is not the dealer"]),
        (
            "terminal-escape",
            "theme-escape.mk5",
            query.replace("&a=", "&t=%1B%5D0%3Bx%07&a=", 1),
            ["control character U+001B"],
        ),
        ("empty", "empty.mk5", "", ["no mk5 link"]),
    ]
    for cls, name, text, words in mk5_cases:
        every(cls, name, text + ("\n" if text and not text.endswith("\n") else ""), words)
    for cmd in (
        ["validate", link],
        ["replay", link],
        ["convert", link, "-o", "OUT/game.json"],
        ["analyze", query, "--no-table"],
        ["render", link, "-o", "OUT/page.html"],
    ):
        case(
            "garbage",
            [c.replace("Sr1", "Sr2", 1) if c in (link, query) else c for c in cmd],
            "@none",
            1,
            ["which was dealt to B (R3)", ":1:"],
        )
        case(
            "huge",
            [
                c if c not in (link, query) else c.replace("&a=", "&a=" + "A" * 200_000, 1)
                for c in cmd
            ],
            "@none",
            1,
            ["at most 100,000 characters"],
        )

    # -- special files, links, permissions, size: the same for every format ------------
    for ext in (".json", ".jsonl", ".t42", ".receipt", ".plunge", ".tricksy.json", ".mk5"):
        for cmd in readers(ext):
            if cmd[0] == "annotate" and cmd[1] == "add":
                continue  # below, once
            case("special-file", cmd, "@fifo" + ext, 1, ["named pipe with nothing written"])
            case("symlink", cmd, "@loop" + ext, 1, ["loop of symbolic links"])
            case("missing", cmd, "@missing" + ext, 2, ["no such file"])
    board = ["board", "IN", "--save", "OUT/board.json"]
    for ext in (".json", ".jsonl", ".t42", ".receipt", ".mk5"):
        case("special-file", board, "@fifo" + ext, 1, ["named pipe with nothing written"])
        case("symlink", board, "@loop" + ext, 1, ["loop of symbolic links"])
        case("missing", board, "@missing" + ext, 2, ["no such file"])
    case("special-file", board, "@dev-zero", 1, ["device"])
    case("special-file", board, "@dir", 1, ["is a directory"])
    case("unreadable", board, "@unreadable.json", 1, ["permission denied"])
    case("huge", board, "@big.json", 1, ["MB"])
    for cmd in readers(".json"):
        case("special-file", cmd, "@dev-zero", 1, ["device"])
        corpus_reader = cmd[0] == "validate" or (cmd[0] == "analyze" and "--annotate" not in cmd)
        case(
            "special-file",
            cmd,
            "@dir",
            2 if corpus_reader else 1,
            ["no log files"] if corpus_reader else ["is a directory"],
        )
        case("unreadable", cmd, "@unreadable.json", 1, ["permission denied"])
        case("huge", cmd, "@big.json", 1, ["MB"])
    case(
        "special-file",
        ["annotate", "add", "IN", "--text", "x", "-o", "OUT/x.json"],
        "@fifo.json",
        1,
        ["named pipe"],
    )
    case("special-file", ["validate", "-"], "@none", 1, ["holds more than"], stdin="/dev/zero")
    case("special-file", ["replay", "-"], "@none", 1, ["holds more than"], stdin="/dev/zero")
    case(
        "special-file",
        ["convert", "-", "-o", "OUT/x.json"],
        "@none",
        1,
        ["holds more than"],
        stdin="/dev/zero",
    )
    case("special-file", ["validate", "-", "--jsonl"], "@none", 1, ["MB"], stdin="/dev/zero")
    case("symlink", ["validate", "IN"], "@dangling.json", 1, ["leads nowhere"])
    case("symlink", ["validate", "IN/**/*.json"], "@loopdir", 1, ["leads nowhere"])
    case("symlink", ["validate", "IN"], "@loopdir", 1, ["leads nowhere"])
    case("unreadable", ["validate", "IN"], "@unreadable-dir", 1, ["permission denied"])
    case("unreadable", ["validate", "IN/**/*.json"], "@unreadable-dir", 1, ["permission denied"])
    for ext, words in (
        (".jsonl", ["50.0 MB"]),
        (".tricksy.json", ["seats"]),
        (".plunge", ["50.0 MB"]),
        (".t42", ["not a tag"]),
        (".mk5", ["at most 100,000 characters"]),
    ):
        for cmd in readers(ext):
            case("huge", cmd, "@line50" + ext, 1, words)
    for cmd in (["validate", "IN", "-j", "2"], ["validate", "IN", "-j", "1"]):
        case("huge", cmd, "@line50.jsonl", 1, ["50.0 MB"])
    case("empty", ["validate", "IN", "-j", "2"], "log-empty.jsonl", 1, ["empty"])
    case("missing", ["validate", "IN/*.xml"], "@dir", 2, ["no file matches"])

    put("log.json", base)

    # -- arguments that are no text, or numbers no list has ------------------------------
    # "\udcff" is how Python reads the byte 0xff of an argument that is not UTF-8.
    for option in ("--text", "--author"):
        extra = [] if option == "--text" else ["--text", "fine"]
        case(
            "bad-argument",
            ["annotate", "add", "IN", *extra, option, "bad \udcff byte", "-o", "OUT/noted.json"],
            "log.json",
            2,
            ["half of a character", "\\udcff"],
        )
    case(
        "bad-argument",
        [
            "record",
            "OUT/m.json",
            "--rules",
            "standard",
            "--first-dealer",
            "A",
            "--player",
            "A=An\udcffa",
        ],
        "@none",
        2,
        ["not text"],
        stdin="/dev/null",
    )
    case(
        "bad-argument",
        ["annotate", "remove", "IN", "--pointer", "/annotations/" + big, "-o", "OUT/x.json"],
        "log.json",
        2,
        ["there is no comment at /annotations/999"],
    )
    case(
        "bad-argument",
        [
            "annotate",
            "remove",
            "IN",
            "--pointer",
            "/hands/" + big + "/annotations/0",
            "-o",
            "OUT/x.json",
        ],
        "log.json",
        2,
        ["there is no comment at"],
    )
    for cmd in (
        ["replay", "IN", "--hand", big],
        ["render", "IN", "--hand", big, "--to", "svg", "-o", "OUT/x.svg"],
        ["analyze", "IN", "--hand", big],
        ["generate", "--matches", big],
        ["generate", "--seed", big],
    ):
        case("bad-argument", cmd, "log.json", 2, ["--"])
    for cmd in (
        ["arena", "rule", "random", "--deals", big],
        ["arena", "rule", "random", "--seed", big],
    ):
        case("bad-argument", cmd, "@none", 2, ["--"])
    case(
        "bad-argument",
        ["arena", "bad \udcff byte", "rule"],
        "@none",
        2,
        ["no bot is called", "\\udcff"],
    )
    case(
        "bad-argument",
        ["arena", "\x1b[31mred", "rule"],
        "@none",
        2,
        ["no bot is called", "\\x1b[31mred"],
    )
    case(
        "bad-argument",
        ["arena", "rule", "sampling,worlds=" + big],
        "@none",
        2,
        ["at most 9 digits"],
    )
    # -- a receipt that numbers a hand or a trick with a number no match has ---------------
    every(
        "big-integer",
        "hand-number-bigint.receipt",
        receipt.replace("hand 0:", "hand 999999999999999999999:", 1),
        [":2:", "a hand number of 21 digits"],
    )
    every(
        "big-integer",
        "trick-number-bigint.receipt",
        receipt.replace("trick 1:", "trick 99999999999:", 1),
        [":3:", "a trick number of 11 digits"],
    )
    every(
        "non-ascii-digits",
        "hand-number-arabic-indic.receipt",
        receipt.replace("hand 0:", "hand \u0663:", 1),
        [":2:", "digits 0–9"],
    )

    # -- outputs that cannot be written -------------------------------------------------------
    case(
        "bad-output", ["generate", "-o", "OUT"], "@none", 2, ["is a directory", "-o names the file"]
    )
    case("bad-output", ["convert", "IN", "-o", "IN/"], "log.json", 2, ["is the input log"])
    case(
        "bad-output",
        ["convert", "IN", "-o", "IN/x.json"],
        "log.json",
        2,
        ["a name on its way is a file"],
    )
    case(
        "bad-output",
        ["generate", "-o", "IN/x.jsonl"],
        "log.json",
        2,
        ["a name on its way is a file"],
    )
    for cmd in (
        ["generate", "-o", "OUT/locked/x.jsonl"],
        ["convert", "IN", "-o", "OUT/locked/x.json"],
        ["convert", "IN", "-o", "OUT/locked/split/"],
        ["render", "IN", "-o", "OUT/locked/p.html"],
        ["annotate", "add", "IN", "--text", "x", "-o", "OUT/locked/x.json"],
    ):
        case("bad-output", cmd, "@unsearchable.json", 2, ["may not be searched"], unprivileged=True)
    for cmd, words in (
        (["generate", "-o", "OUT/readonly/x.jsonl"], ["Permission denied"]),
        (["convert", "IN", "-o", "OUT/readonly/x.json"], ["Permission denied"]),
        (["convert", "IN", "-o", "OUT/readonly/split/"], ["Permission denied"]),
        (["convert", "IN", "-o", "OUT/readonly/"], ["Permission denied"]),
        (["redact", "IN", "-o", "OUT/readonly/p.json"], ["Permission denied"]),
        (
            ["analyze", "IN", "--annotate", "--no-table", "-o", "OUT/readonly/a.json"],
            ["Permission denied"],
        ),
    ):
        case("bad-output", cmd, "@readonly.json", 2, words, unprivileged=True)
    case(
        "bad-output",
        ["arena", "rule", "random", "--deals", "2", "--logs", "OUT/readonly/logs"],
        "@readonly.json",
        2,
        ["Permission denied"],
        unprivileged=True,
    )
    case(
        "bad-output",
        ["arena", "rule", "random", "--deals", "2", "--logs", "IN"],
        "log.json",
        2,
        ["not a folder"],
    )

    # -- leftovers of killed writers: swept by the next write (the test checks none is left) --
    for cmd in (
        ["convert", "IN", "-o", "OUT/x.t42"],
        ["convert", "IN", "-o", "OUT/"],
        ["generate", "-o", "OUT/g.jsonl"],
        ["annotate", "add", "IN", "--text", "x", "-o", "OUT/noted.json"],
        ["render", "IN", "-o", "OUT/p.html"],
        ["redact", "IN", "-o", "OUT/public.json"],
    ):
        case("leftover", cmd, "@leftover.json", 0, [])

    # -- format names as users type them --------------------------------------------------------
    for name, words in (
        ("t42", ['[Format "texas42-log"]']),
        (".T42", ['[Format "texas42-log"]']),
        ("notation", ['[Format "texas42-log"]']),
        ("ndjson", ['"format":"texas42-log"']),
        ("JSON", ['"format": "texas42-log"']),
    ):
        case("format-name", ["convert", "IN", "-o", "-", "--to", name], "log.json", 0, words)
    case(
        "format-name",
        ["convert", "IN", "-o", "-", "--from", "receipt"],
        "no-trump.txt",
        0,
        ['"texas-42-receipt"'],
    )
    put("no-trump.txt", receipt)
    case(
        "format-name",
        ["convert", "IN", "-o", "-", "--to", "xml"],
        "log.json",
        2,
        ["choose one of", "text (notation, t42)"],
    )
    case(
        "format-name",
        ["convert", "IN", "-o", "-", "--from", "\u0663"],
        "log.json",
        2,
        ["choose one of"],
    )

    # -- a match larger than the default limit, with the limit raised
    # --------------------------------
    for cmd in (
        ["validate", "IN", "--max-bytes", "40000000"],
        ["validate", "IN", "--max-bytes", "40000000", "-j", "2"],
        ["analyze", "IN", "--max-bytes", "40000000", "--hand", "1", "--no-table"],
    ):
        case(
            "raised-limit",
            cmd,
            "@big-valid.json",
            0,
            ["valid" if cmd[0] == "validate" else "open-hand analysis"],
        )
    case("huge", ["validate", "IN"], "@big-valid.json", 1, ["20.0 MB", "--max-bytes"])

    # -- a review of a match still being played ---------------------------------------------------
    unfinished = (ROOT / "fixtures" / "valid" / "unfinished-mid-trick.json").read_text("utf-8")
    put("unfinished.json", unfinished)
    case(
        "in-play",
        ["render", "IN", "--as", "review", "-o", "OUT/p.html"],
        "unfinished.json",
        0,
        ["2 of 3 hands; hand 3 is still being played"],
    )
    case(
        "in-play",
        ["replay", "IN", "--as", "review", "--hand", "2"],
        "unfinished.json",
        0,
        ["Hand 2"],
    )
    case(
        "in-play",
        ["replay", "IN", "--as", "review", "--hand", "3"],
        "unfinished.json",
        2,
        ["still being played"],
    )
    first = json.loads(unfinished)
    first["hands"] = first["hands"][2:]
    first["first_dealer"] = first["hands"][0]["dealer"]
    put("unfinished-first-hand.json", json.dumps(first, indent=1, ensure_ascii=False) + "\n")
    case(
        "in-play",
        ["render", "IN", "--as", "review", "-o", "OUT/p.html"],
        "unfinished-first-hand.json",
        2,
        ["no hand has ended yet"],
    )

    for name, data in files.items():
        (OUT / name).write_bytes(data)
    ids = [c["id"] for c in cases]
    assert len(ids) == len(set(ids)), [i for i in ids if ids.count(i) > 1][:5]
    out = {"classes": CLASSES, "raw_controls": RAW_CONTROLS, "cases": cases}
    (FIXTURES_ROOT / "fixtures" / "hostile-cases.json").write_text(
        json.dumps(out, indent=1, ensure_ascii=True) + "\n"
    )
    counts: dict[str, int] = {}
    for c in cases:
        counts[c["class"]] = counts.get(c["class"], 0) + 1
    print(
        f"wrote {len(cases)} cases over {len(files)} files: "
        + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
    )


if __name__ == "__main__":
    main()
