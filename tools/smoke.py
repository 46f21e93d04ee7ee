"""A smoke run of the installed ``texas42`` command on the bundled fixtures.

CI runs it in a virtual environment that holds only the runtime dependencies, at
the lowest versions ``pyproject.toml`` allows (``.ci/run``), so that the lower
bounds we state are bounds we have run. It uses nothing but the standard library
and the command itself: it never imports the package, so it tests what a user's
``texas42`` does. Each step runs one command and checks its exit status and the
lines that matter; the first failure ends the run with exit 1.

    python3 tools/smoke.py --texas42 .venv/bin/texas42
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "fixtures"
SAMPLE = FIX / "valid" / "seed-worked-example.json"


class SmokeFailure(Exception):
    pass


def run(
    exe: str,
    args: list[str],
    *,
    code: int = 0,
    stdin: str | None = None,
    out: tuple[str, ...] = (),
    cwd: Path | None = None,
) -> str:
    p = subprocess.run(
        [exe, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        env={"PATH": "/usr/bin:/bin", "NO_COLOR": "1", "LC_ALL": "C.UTF-8"},
    )
    shown = "texas42 " + " ".join(args)
    if p.returncode != code:
        raise SmokeFailure(f"{shown}: exit {p.returncode}, expected {code}\n{p.stdout}{p.stderr}")
    if "Traceback" in p.stderr or "internal error" in p.stderr:
        raise SmokeFailure(f"{shown}: {p.stderr}")
    for want in out:
        if want not in p.stdout + p.stderr:
            raise SmokeFailure(
                f"{shown}: {want!r} is not in what it printed:\n{p.stdout}{p.stderr}"
            )
    print(f"ok  {shown}", flush=True)
    return p.stdout


def call_text(c: dict[str, object]) -> str:
    """A call of a log as it is typed: pass, 31, 2m."""
    return (
        "pass"
        if c["call"] == "pass"
        else str(c["bid"])
        if c["call"] == "points"
        else f"{c['bid']}m"
    )


def declaration_text(d: dict[str, object]) -> str:
    """A declaration of a log as it is typed: trump 6, trump no-trump stacks 1."""
    return f"trump {d['trump']}" + (f" stacks {d['stacks']}" if "stacks" in d else "")


def entries(match: dict[str, Any]) -> list[str]:
    """What a person at the table types into ``texas42 record`` for ``match`` (a log's
    JSON form): each deal seat by seat, then the calls, the declaration, the tiles."""
    typed: list[str] = []
    for hand in match["hands"]:
        typed += [" ".join(hand["deal"][s]) for s in "ABCD"]
        typed += [call_text(c) for c in hand["auction"]]
        if "declaration" in hand:
            typed.append(declaration_text(hand["declaration"]))
        typed += [p["tile"] for p in hand.get("plays", [])]
    return typed


def smoke(exe: str, work: Path) -> None:
    sample = str(SAMPLE)
    run(exe, ["--version"], out=("texas42",))
    run(
        exe,
        ["validate", sample],
        out=("valid (11 hands; marks A+C 1, B+D 7; winner B+D; rules: standard)",),
    )
    run(
        exe,
        ["validate", str(FIX / "invalid" / "several-errors-in-one-match.json")],
        code=1,
        out=("error R8 at /hands/0/auction/0", "invalid, 3 errors"),
    )
    run(exe, ["validate", str(FIX / "bad-input" / "duplicate-key.json")], code=1)
    # a field that is not the format's nor an x- extension: refused by the models themselves
    # (the extras' key pattern, which pydantic enforces from 2.11 on)
    run(
        exe,
        ["validate", str(FIX / "bad-input" / "unknown-field.json")],
        code=1,
        out=("extension fields must start with 'x-'",),
    )
    run(exe, ["validate", str(FIX / "valid")], out=("valid",))
    run(
        exe,
        ["replay", sample, "--as", "B", "--hand", "2"],
        out=("Hand 2 · after the auction · view: player B",),
    )
    run(
        exe,
        ["replay", sample, "--as", "public", "--format", "json", "--hand", "2", "--trick", "3"],
        out=('"observer"',),
    )
    run(exe, ["render", sample, "-o", str(work / "page.html")])
    if "<html" not in (work / "page.html").read_text("utf-8").lower():
        raise SmokeFailure("render wrote no HTML page")
    run(
        exe,
        [
            "render",
            sample,
            "--to",
            "svg",
            "--hand",
            "2",
            "--trick",
            "3",
            "-o",
            str(work / "moment.svg"),
        ],
    )
    run(exe, ["convert", sample, "-o", str(work / "game.t42")])
    run(exe, ["convert", str(work / "game.t42"), "-o", str(work / "back.json")])
    run(exe, ["validate", str(work / "back.json")], out=("valid (11 hands",))
    run(
        exe,
        [
            "convert",
            str(FIX / "foreign" / "texas-42" / "doubles_trump.receipt"),
            "-o",
            str(work / "receipt.json"),
        ],
    )
    run(
        exe,
        [
            "convert",
            str(FIX / "foreign" / "tricksy" / "T1_standard_then_redeal.tricksy.json"),
            "-o",
            str(work / "tricksy.json"),
        ],
    )
    run(
        exe, ["convert", sample, "--to", "csv", "-o", "-"], out=("match,hand,trick,play,seat,tile",)
    )
    run(
        exe,
        ["analyze", sample, "--hand", "1", "--no-table"],
        out=("Hand 1: A bid 30 points, trump sixes",),
    )
    run(exe, ["analyze", sample, "--hand", "1", "--format", "json"], out=('"value"',))
    run(exe, ["schema", "-o", str(work / "schema.json")])
    json.loads((work / "schema.json").read_text("utf-8"))
    run(exe, ["rules", "R16"], out=("R16",))
    match = json.loads(SAMPLE.read_text("utf-8"))
    players = [f"--player={s}={n}" for s, n in match["players"].items()]
    typed = "\n".join(entries(match)) + "\n"
    run(
        exe,
        [
            "record",
            "m.json",
            "--rules",
            "standard",
            "--first-dealer",
            match["first_dealer"],
            *players,
        ],
        stdin=typed,
        cwd=work,
        out=("match complete",),
    )
    run(exe, ["validate", str(work / "m.json")], out=("valid (11 hands; marks A+C 1, B+D 7",))
    run(
        exe,
        [
            "arena",
            "rule",
            "sampling,worlds=2,bid_worlds=2",
            "--deals",
            "3",
            "-j",
            "2",
            "--logs",
            str(work / "arena"),
        ],
        out=("3 duplicate deals (6 hands)", "McNemar exact p"),
    )
    run(exe, ["validate", str(work / "arena")], out=("deal-3-table-2.json: valid (1 hand",))
    run(exe, ["generate", "--players", "rule", "-n", "1", "-o", str(work / "rule.json")])
    run(exe, ["validate", str(work / "rule.json")], out=("valid (",))
    board(exe, work)
    run(exe, ["validate", str(work / "board.json")], out=("valid (11 hands",))
    run(exe, ["validate", "--no-such-option", sample], code=2, out=("No such option",))
    run(exe, ["validate", str(work / "no-such-file.json")], code=2)


def board(exe: str, work: Path) -> None:
    """``texas42 board`` (the board extra): it starts, answers its token, saves a
    comment into its JSON file beside a text log, and stops on Ctrl-C."""
    import re
    import signal
    import urllib.request

    log = work / "board.t42"
    run(exe, ["convert", str(SAMPLE), "-o", str(log)])
    p = subprocess.Popen(
        [exe, "board", str(log)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert p.stdout is not None
    address = None
    for line in p.stdout:
        found = re.search(r"(http://127\.0\.0\.1:\d+/)\?token=(\S+)", line)
        if found:
            address = found.groups()
        if "Ctrl-C" in line:
            break
    try:
        if address is None:
            raise SmokeFailure(
                f"texas42 board printed no address: {p.stderr.read() if p.stderr else ''}"
            )
        base, token = address
        headers = {"Authorization": f"token {token}", "Origin": base.rstrip("/")}
        body = {"version": 1, "changes": [{"op": "add", "on": {"hand": 1}, "text": "smoke"}]}
        req = urllib.request.Request(
            base + "api/save", json.dumps(body).encode(), headers, method="POST"
        )
        with urllib.request.urlopen(req, timeout=30) as r:
            saved = json.load(r)
        if not saved.get("saved"):
            raise SmokeFailure(f"texas42 board did not save: {saved}")
    finally:
        p.send_signal(signal.SIGINT)
        p.communicate(timeout=30)
    if p.returncode != 0:
        raise SmokeFailure(f"texas42 board ended with {p.returncode} on Ctrl-C")
    print(f"ok  texas42 board {log} (started, saved a comment, stopped on Ctrl-C)", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--texas42", default="texas42", help="the command to try (default: texas42 on PATH)"
    )
    args = parser.parse_args()
    # Some steps run in a folder of their own: a path like .venv/bin/texas42 is made absolute.
    exe = (
        str(Path(args.texas42).resolve()) if os.sep in args.texas42 else shutil.which(args.texas42)
    )
    if exe is None:
        print(f"FAILED: no command {args.texas42!r} on PATH", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="texas42-smoke-") as tmp:
        try:
            smoke(exe, Path(tmp))
        except SmokeFailure as e:
            print(f"FAILED: {e}", file=sys.stderr)
            return 1
    print("smoke: every command ran as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
