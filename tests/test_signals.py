"""Ctrl-C, SIGTERM, closed pipes and racing writers, with real processes and signals.

One Ctrl-C ends a command within a second, workers included, removes its
temporary file, says "interrupted" once and exits 130; a second Ctrl-C 50 ms
later never hangs; a closed pipe is exit 141, never 1 ("invalid"); of two runs
creating one new file, one wins and the other is refused.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from texas42_log.files.outputs import TEMP_PREFIX

pytestmark = pytest.mark.slow

CLI = [sys.executable, "-c", "from texas42_log.entry import main; main()"]
WORKED = str(
    Path(__file__).resolve().parent.parent / "fixtures" / "valid" / "seed-worked-example.json"
)
#: What "ends within a second" allows on a loaded two-core machine, and for the
#: interpreter to finish: the assertion is that nothing waits, not a benchmark.
PROMPT = 5.0


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """About 9 MB of JSON Lines: several ranges for two workers, seconds of work."""
    path = tmp_path_factory.mktemp("signals") / "corpus.jsonl"
    p = subprocess.run(
        CLI + ["generate", "-n", "1000", "-o", str(path)], capture_output=True, timeout=120
    )
    assert p.returncode == 0, p.stderr
    return path


def _gone(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    return False


def _wait_for_the_program(p: subprocess.Popen[bytes]) -> None:
    """Until the program's first line has run: :mod:`texas42_log.entry` takes SIGHUP.

    Before that line, Python itself is starting (``site``, the wrapper's imports) and a
    Ctrl-C gets CPython's own answer, whatever the program would do: a silent death, a
    "Fatal Python error: init_import_site", a traceback (seen on a loaded CI machine at
    0.1 s). Delays count from the moment the program can answer; the kernel says when,
    in the process's caught-signals mask (Python itself leaves SIGHUP alone).
    """
    deadline = time.monotonic() + 30
    while p.poll() is None:
        try:
            with open(f"/proc/{p.pid}/status", encoding="ascii") as f:
                caught = next(line for line in f if line.startswith("SigCgt:"))
        except (FileNotFoundError, ProcessLookupError, StopIteration):
            return  # gone already
        if int(caught.split()[1], 16) & (1 << (signal.SIGHUP - 1)):
            return
        assert time.monotonic() < deadline, "the program never took its signals"
        time.sleep(0.001)


def _interrupt(
    args: list[str], delay: float, twice: bool, cwd: Path
) -> tuple[int, str, float, bool]:
    p = subprocess.Popen(
        CLI + args,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
        cwd=cwd,
    )
    _wait_for_the_program(p)
    time.sleep(delay)
    os.killpg(p.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole process group
    sent = time.monotonic()
    if twice:
        time.sleep(0.05)
        try:
            os.killpg(p.pid, signal.SIGINT)
        except ProcessLookupError:
            pass
    try:
        _, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        pytest.fail(f"{args[0]} hung after Ctrl-C")
    took = time.monotonic() - sent
    deadline = time.monotonic() + 2
    while not _gone(p.pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    return p.returncode, err.decode("utf-8", "replace"), took, _gone(p.pid)


COMMANDS = {
    # the corpus four times over: validating is fast, and a run must last long enough to
    # be interrupted at moments spread over it
    "validate -j 2": lambda c, out: ["validate", *[str(c)] * 4, "-j", "2", "-q"],
    "convert": lambda c, out: ["convert", str(c), "-o", str(out / "out.t42")],
    "generate": lambda c, out: ["generate", "-n", "1200", "-o", str(out / "gen.jsonl")],
    # a match's fair decisions spread over two workers, the report to a file
    "analyze --fair -j 2": lambda c, out: (
        ["analyze", WORKED, "--fair", "--worlds", "30", "--no-auction", "-j", "2"]
        + ["-o", str(out / "report.txt")]
    ),
}


def _length(args: list[str], cwd: Path) -> float:
    """Seconds the whole command takes here, now (a machine's speed varies)."""
    start = time.monotonic()
    p = subprocess.run(CLI + args, capture_output=True, cwd=cwd, timeout=120)
    assert p.returncode == 0, p.stderr
    return time.monotonic() - start


@pytest.mark.parametrize(
    "twice",
    [pytest.param(False, id="once"), pytest.param(True, id="twice", marks=pytest.mark.long)],
)
@pytest.mark.parametrize("command", list(COMMANDS))
def test_ctrl_c_at_random_moments(command: str, twice: bool, corpus: Path, tmp_path: Path) -> None:
    rng = random.Random(f"{command}{twice}")
    whole = tmp_path / "whole"
    whole.mkdir()
    length = _length(COMMANDS[command](corpus, whole), whole)
    stopped = 0
    # Moments spread over the run as this machine runs it, from the program's first
    # line: at once and early (the imports), then anywhere up to nine tenths of its length.
    for delay in [0.0, 0.1] + [rng.uniform(0.25, 0.9) * length for _ in range(3)]:
        out = tmp_path / f"d{delay:.3f}"
        out.mkdir()
        code, err, took, gone = _interrupt(COMMANDS[command](corpus, out), delay, twice, out)
        if code == 0:
            continue  # finished before the signal arrived: nothing to interrupt
        assert code == 130, err
        assert "Traceback" not in err, err
        assert err.count("texas42: interrupted") == 1, err
        assert took < PROMPT, f"{command} took {took:.1f} s to stop"
        assert gone, "a worker outlived the command"
        assert not [p.name for p in out.iterdir() if p.name.startswith(TEMP_PREFIX)] or twice
        if not twice:
            assert list(out.iterdir()) == [], "a half output or a temporary file was left"
        stopped += 1
    assert stopped >= 3, "the command finished before most signals: the test interrupted nothing"


def test_sigterm_stops_workers_and_leaves_nothing(corpus: Path, tmp_path: Path) -> None:
    p = subprocess.Popen(
        CLI + ["convert", str(corpus), "-o", str(tmp_path / "x.jsonl")],
        stderr=subprocess.PIPE,
        start_new_session=True,
        cwd=tmp_path,
    )
    _wait_for_the_program(p)
    time.sleep(0.6)
    p.terminate()
    _, err = p.communicate(timeout=30)
    if p.returncode != 0:
        assert p.returncode == 143 and b"Traceback" not in err, err
        assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "args",
    [
        ["generate", "-n", "400"],
        ["validate", "CORPUS"],
        ["convert", "CORPUS", "-o", "-", "--to", "text"],
    ],
    ids=["generate", "validate", "convert"],
)
def test_a_closed_pipe_is_141_never_1(args: list[str], corpus: Path) -> None:
    argv = [str(corpus) if a == "CORPUS" else a for a in args]
    p = subprocess.run(
        " ".join(f"'{a}'" for a in CLI + argv) + " | head -1 >/dev/null; echo ${PIPESTATUS[0]}",
        shell=True,
        executable="/bin/bash",
        capture_output=True,
        timeout=120,
    )
    assert p.stdout.decode().strip() == "141", p.stderr
    assert b"Traceback" not in p.stderr and b"error" not in p.stderr, p.stderr


def test_two_writers_to_one_new_path_one_is_refused(corpus: Path, tmp_path: Path) -> None:
    small = tmp_path / "small.jsonl"
    small.write_bytes(b"".join(corpus.read_bytes().splitlines(keepends=True)[:200]))
    for attempt in range(3):
        target = tmp_path / f"out{attempt}.t42"
        procs = [
            subprocess.Popen(
                CLI + ["convert", str(small), "-o", str(target)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
            for _ in range(2)
        ]
        results = [
            (p.wait(timeout=120), p.stdout.read().decode() + p.stderr.read().decode())  # type: ignore[union-attr]
            for p in procs
        ]
        codes = sorted(code for code, _ in results)
        assert codes == [0, 2], results
        loser = next(text for code, text in results if code == 2)
        assert "exists" in loser and "--force" in loser
        assert target.read_text("utf-8").startswith("[Format")
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(TEMP_PREFIX)]


@pytest.mark.parametrize(("exc", "code"), [("Terminated(15)", 143), ("Interrupted()", 130)])
def test_a_signal_python_could_only_print_still_ends_the_command(
    exc: str, code: int, tmp_path: Path
) -> None:
    """A signal that lands in a weakref callback of the import machinery (or a __del__)
    raises where Python prints the exception and goes on (seen once in CI: a SIGTERM
    mid-write, exit 0). The command must end all the same, its temporary file removed."""
    tmp = tmp_path / ".texas42-test.tmp"
    program = f"""
import gc, time
from texas42_log.files import outputs
from texas42_log.cli import Interrupted, Terminated, install_signal_handling
install_signal_handling()
open({str(tmp)!r}, "w").close()
outputs._ACTIVE.add({str(tmp)!r})
class Unlucky:
    def __del__(self):
        raise {exc}
Unlucky()
gc.collect()
time.sleep(5)
print("went on")
"""
    p = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    assert p.returncode == code, p.stdout + p.stderr
    assert "went on" not in p.stdout and "Traceback" not in p.stderr
    assert not tmp.exists()


@pytest.mark.long
def test_no_worker_outlives_a_ctrl_c_that_lands_while_the_pool_starts(tmp_path: Path) -> None:
    """A Ctrl-C to the command alone (not its group) while its worker pool is being
    started. concurrent.futures registers a worker only after its fork returns, and a
    signal that arrives during the fork is handled right then: the command's stop never
    knew that worker, which waited for work forever, holding the output pipe open. The
    signal is swept across the first milliseconds after the output's temporary file
    appears, where the pool starts; every worker must end with the command."""
    corpus = tmp_path / "corpus.jsonl"
    subprocess.run(
        CLI + ["generate", "-n", "400", "-o", str(corpus)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    for attempt in range(40):
        out = tmp_path / f"try{attempt}"
        out.mkdir()
        p = subprocess.Popen(
            CLI + ["convert", str(corpus), "-o", str(out / "out.t42")],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        deadline = time.monotonic() + 30
        while not any(x.name.startswith(TEMP_PREFIX) for x in out.iterdir()) and p.poll() is None:
            assert time.monotonic() < deadline
            time.sleep(0.001)
        time.sleep(attempt * 0.0005)
        p.send_signal(signal.SIGINT)
        try:
            p.communicate(timeout=15)  # ends only when every holder of its pipes has ended
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
            pytest.fail(
                f"try {attempt}: a process of the command outlived it, holding its output open"
            )
        deadline = time.monotonic() + 2
        while not _gone(p.pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert _gone(p.pid), f"try {attempt}: a worker outlived the command"
