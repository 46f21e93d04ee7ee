"""The hostile-input catalogue (fixtures/hostile-cases.json, built by
tools/build_hostile.py): every command × every input format × every class of
hostile input, run through the real CLI in a subprocess.

Each case must end with its exit code, within the time limit, with the words it
names in its output, with no traceback and no internal error, with none of the
raw control characters it forbids, with its input untouched, and with no
temporary file left beside its output. Each test runs its own case in a process
of its own (a hang is killed at the limit); the suite runs them in parallel
(pytest-xdist, README).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.forked_cli import forked_cli

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = json.loads((ROOT / "fixtures" / "hostile-cases.json").read_text("utf-8"))
CASES: list[dict[str, Any]] = CATALOGUE["cases"]
FILES = ROOT / "fixtures" / "hostile"
SAMPLE = ROOT / "fixtures" / "valid" / "seed-worked-example.json"
#: Seconds a case may take (the catalogue's promise: no hang).
LIMIT = 10.0
#: The command line, as an installed `texas42` runs it (for the runs that need a new
#: program; the others are forked from one prepared process, tests/forked_cli.py).
CLI = [sys.executable, "-c", "from texas42_log.entry import main; main()"]


@dataclass
class Outcome:
    code: int | None
    out: str
    seconds: float
    untouched: bool
    leftovers: list[str]
    folder: Path


def _without_root_reads() -> list[str]:
    """Root reads every file whatever its mode: the 'unreadable' cases run root without
    the two capabilities that allow it (util-linux's setpriv), as an ordinary user is."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    assert setpriv, "the suite runs as root: the 'unreadable' cases need setpriv (util-linux)"
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search"]


def _make(spec: str, folder: Path) -> Path:
    """The input a '@' spec names, made inside ``folder``; other names are copied fixtures."""
    if not spec.startswith("@"):
        target = folder / spec
        shutil.copyfile(FILES / spec, target)
        return target
    kind, _, ext = spec[1:].partition(".")
    ext = "." + ext if ext else ""
    target = folder / f"input{ext}"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "loop":
        os.symlink(folder / f"other{ext}", target)
        os.symlink(target, folder / f"other{ext}")
    elif kind == "dangling":
        os.symlink(folder / "gone.json", target)
    elif kind == "missing":
        pass
    elif kind == "dev-zero":
        return Path("/dev/zero")
    elif kind == "dir":
        target = folder / "logs"
        target.mkdir()
    elif kind == "loopdir":
        target = folder / "logs"
        (target / "season").mkdir(parents=True)
        shutil.copyfile(
            ROOT / "fixtures" / "valid" / "random-seed-11.json", target / "season" / "a.json"
        )
        os.symlink(target / "season" / "round", target / "season" / "round")  # a link to itself
    elif kind == "unreadable":
        target.write_bytes((ROOT / "fixtures" / "valid" / "random-seed-11.json").read_bytes())
        target.chmod(0)
    elif kind == "unreadable-dir":
        target = folder / "logs"
        (target / "locked").mkdir(parents=True)
        shutil.copyfile(ROOT / "fixtures" / "valid" / "random-seed-11.json", target / "a.json")
        (target / "locked").chmod(0)
    elif kind == "big":
        with target.open("wb") as f:
            f.write(b'{"format": "texas42-log", "version": "1.0", "x-pad": "')
            f.write(b"x" * (20 * 1024 * 1024))
            f.write(b'"}')
    elif kind == "line50":
        body = b"x" * (50 * 1000 * 1000)
        data = {
            ".jsonl": b'{"format": "texas42-log", "x-pad": "' + body + b'"}\n',
            ".tricksy.json": b'{"seats": "' + body + b'"}\n',
            ".plunge": b"v1t3" + b"5" * len(body) + b"\n",
            ".t42": body + b"\n",
            ".mk5": b"?s=1&a=" + b"A" * len(body) + b"\n",
        }[ext]
        target.write_bytes(data)
    elif kind == "none":
        return folder / "unused"
    elif kind in ("unsearchable", "readonly", "leftover", "big-valid"):
        doc = json.loads(SAMPLE.read_text("utf-8"))
        if kind == "big-valid":
            doc["x-pad"] = "x" * (20 * 1000 * 1000)
        target.write_text(json.dumps(doc), "utf-8")
        if kind == "unsearchable":
            (folder / "locked").mkdir()
            (folder / "locked").chmod(0)
        elif kind == "readonly":
            (folder / "readonly").mkdir()
            (folder / "readonly").chmod(0o555)
        elif kind == "leftover":
            _leave_leftovers(folder)
    else:
        raise AssertionError(spec)
    return target


def _dead_pid() -> int:
    """A process id that no process has now."""
    pid = 4_000_000
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return pid
        except PermissionError:
            pass
        pid -= 1


def _leave_leftovers(folder: Path) -> None:
    """What killed runs leave: a temporary file and a half-written folder of a process
    that is gone, and an unnamed writer's file from two days ago."""
    dead = _dead_pid()
    (folder / f".texas42-{dead}-k1ll3dab.tmp").write_text('{"format": "texas42-log", "hands": [')
    half = folder / f".texas42-{dead}-h4lfd0ne.tmp"
    half.mkdir()
    (half / "input-0001.json").write_text("{}")
    old = folder / ".texas42-0ldst4le.tmp"
    old.write_text("[")
    two_days_ago = time.time() - 2 * 86400
    os.utime(old, (two_days_ago, two_days_ago))


def _run(case: dict[str, Any], *, alone: bool = False) -> Outcome:
    """Run one case: forked from the prepared command, or as a new program — under
    setpriv for an unprivileged case, or the command ``alone``."""
    new_program = alone or bool(case.get("unprivileged"))
    prefix = _without_root_reads() if new_program and not alone else []
    folder = Path(tempfile.mkdtemp(prefix="t42-hostile-"))
    try:
        target = _make(case["input"], folder)
        before = (
            target.read_bytes()
            if target.is_file()
            and not target.is_symlink()
            and os.access(target, os.R_OK)
            and case["class"] != "unreadable"
            and str(target) != "/dev/zero"
            else None
        )
        args = [a.replace("IN", str(target)).replace("OUT", str(folder)) for a in case["command"]]
        env = dict(os.environ, NO_COLOR="1", COLUMNS="100", PYTHONDONTWRITEBYTECODE="1")
        start = time.perf_counter()
        if new_program:  # a new program (setpriv, then the command): a plain subprocess
            with open(case["stdin"] or os.devnull, "rb") as stdin:
                try:
                    p = subprocess.run(
                        prefix + CLI + args,
                        stdin=stdin,
                        capture_output=True,
                        timeout=LIMIT,
                        env=env,
                        cwd=folder,
                    )
                    code: int | None = p.returncode
                    out = (p.stdout + p.stderr).decode("utf-8", "replace")
                except subprocess.TimeoutExpired as e:
                    code, out = (
                        None,
                        ((e.stdout or b"") + (e.stderr or b"")).decode("utf-8", "replace"),
                    )
        else:
            ran = forked_cli().run(args, cwd=folder, env=env, stdin=case["stdin"], timeout=LIMIT)
            code, out = ran.returncode, (ran.stdout + ran.stderr).decode("utf-8", "replace")
        seconds = time.perf_counter() - start
        untouched = before is None or target.read_bytes() == before
        leftovers = [p.name for p in folder.rglob(".texas42-*")]
        return Outcome(code, out, seconds, untouched, leftovers, folder)
    finally:
        for p in folder.rglob("*"):
            if p.is_dir() and not p.is_symlink():
                p.chmod(0o755)
        shutil.rmtree(folder, ignore_errors=True)


def test_the_catalogue_covers_every_class_command_and_format() -> None:
    assert len(CASES) >= 150
    assert {c["class"] for c in CASES} == set(CATALOGUE["classes"])
    commands = {
        c["command"][0] + (" " + c["command"][1] if c["command"][0] == "annotate" else "")
        for c in CASES
    }
    assert commands == {
        "validate",
        "replay",
        "render",
        "convert",
        "redact",
        "annotate add",
        "annotate list",
        "annotate remove",
        "annotate edit",
        "board",
        "upgrade",
        "analyze",
        "generate",
        "record",
        "arena",
    }
    suffixes = {Path(c["input"].lstrip("@")).name.split(".", 1)[-1] for c in CASES}
    assert {"json", "jsonl", "t42", "receipt", "plunge", "plunge.json", "tricksy.json"} <= suffixes


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_hostile_input(case: dict[str, Any]) -> None:
    o = _run(case)
    shown = o.out[:1500]
    assert o.code is not None, f"no answer within {LIMIT:.0f} s: {shown}"
    assert "Traceback" not in o.out and "internal error" not in o.out, shown
    assert o.code == case["exit"], shown
    for w in case["words"]:
        assert w in o.out, f"{w!r} not in: {shown}"
    for c in case["absent"]:
        assert c not in o.out, f"raw {c!r} in: {shown!r}"
    assert o.untouched, "the input was changed"
    assert not o.leftovers, o.leftovers


#: A spread of the catalogue: valid and invalid input, standard input, special files,
#: a write, terminal escapes, a usage error, a worker pool (-j 2).
SAME = [
    "validate/big-integer/log-bigint.json",
    "replay/terminal-escape/escapes.json",
    "convert/special-file/none",
    "validate/special-file/fifo.json",
    "render/missing/missing.json",
    "annotate-add/bad-argument/log.json",
    "generate/bad-output/none",
    "validate/raised-limit/big-valid.json#2",
    "analyze/terminal-escape/escapes.t42",
    "convert/format-name/log.json",
]


@pytest.mark.parametrize("case_id", SAME)
def test_the_forked_command_is_the_command(case_id: str) -> None:
    """tests/forked_cli.py forks the command from a prepared process: what it prints and
    the status it ends with are those of a new process running the installed command."""
    case = next(c for c in CASES if c["id"] == case_id)
    forked = _run(case)
    alone = _run(case, alone=True)
    assert (forked.code, forked.out) == (
        alone.code,
        alone.out.replace(str(alone.folder), str(forked.folder)),
    )
