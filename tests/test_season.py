"""A season's fair analysis, resumable: ``analyze --fair --annotate CORPUS -o OUT``.

The run is killed (SIGKILL, the whole process group) at random moments; after each
kill OUT holds whole matches and at most a torn last line, and the rerun with the
same arguments ends with exactly what an uninterrupted run writes — every match
analysed once, the output valid.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import run_texas42
from texas42_log.log.inert import dumps
from texas42_log.play.generate import random_match

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--fair", "--annotate", "--worlds", "4", "--no-table", "-j", "2", "--no-progress"]


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_texas42(*args, cwd=cwd)


def _corpus(folder: Path, n: int = 6) -> Path:
    path = folder / "season.jsonl"
    lines = [dumps(random_match(500 + i)) for i in range(n)]
    # one invalid match among them: reported on every run, never in OUT
    bad = json.loads(lines[2])
    bad["hands"][0]["plays"][0]["tile"] = "[9|9]"
    lines.insert(3, json.dumps(bad))
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


def _whole_prefix(out: Path, reference: bytes) -> None:
    """OUT is whole lines of the reference, in order, and at most a torn last line."""
    if not out.exists():
        return
    data = out.read_bytes()
    end = data.rfind(b"\n") + 1
    assert reference.startswith(data[:end]), "a whole line differs from the uninterrupted run"
    torn = data[end:]
    assert b"\n" not in torn
    if torn:
        with pytest.raises(ValueError):
            json.loads(torn)  # a torn line is no match to any reader


@pytest.mark.slow
@pytest.mark.long
def test_a_season_killed_ten_times_ends_as_an_uninterrupted_run(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path)
    ref = tmp_path / "reference.jsonl"
    first = _cli("analyze", str(corpus), *ARGS, "-o", str(ref), cwd=tmp_path)
    assert first.returncode == 1, first.stderr  # the invalid match, said and left out
    assert "season.jsonl:4" in first.stderr and "invalid, left out" in first.stderr
    reference = ref.read_bytes()
    assert reference.count(b"\n") == 6
    started = time.perf_counter()
    full = _cli("analyze", str(corpus), *ARGS, "-o", str(tmp_path / "timing.jsonl"), cwd=tmp_path)
    took = time.perf_counter() - started
    assert full.returncode == 1
    out = tmp_path / "out.jsonl"
    rng = random.Random(7)
    cut_short = 0
    for _ in range(10):
        p = subprocess.Popen(
            [sys.executable, "-m", "texas42_log", "analyze", str(corpus), *ARGS, "-o", str(out)],
            cwd=tmp_path,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        time.sleep(rng.uniform(0.2, max(0.4, took / 4)))
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        p.wait(timeout=30)
        _whole_prefix(out, reference)
        cut_short += not out.exists() or out.read_bytes().count(b"\n") < 6
    assert cut_short >= 5  # the kills came in the middle of the work, not after it
    last = _cli("analyze", str(corpus), *ARGS, "-o", str(out), cwd=tmp_path)
    assert last.returncode == 1, last.stderr
    assert out.read_bytes() == reference
    again = _cli("analyze", str(corpus), *ARGS, "-o", str(out), cwd=tmp_path)
    assert "6 matches analysed" in again.stderr and "(6 there already, 0 now)" in again.stderr
    assert out.read_bytes() == reference
    valid = _cli("validate", str(out), cwd=tmp_path)
    assert valid.returncode == 0, valid.stdout


def test_a_torn_last_line_is_cut_off_and_the_match_done_again(tmp_path: Path) -> None:
    corpus = tmp_path / "two.jsonl"
    corpus.write_text("\n".join(dumps(random_match(600 + i)) for i in range(2)) + "\n", "utf-8")
    out = tmp_path / "out.jsonl"
    args = ["analyze", str(corpus), *ARGS, "-j", "1", "-o", str(out)]
    assert _cli(*args, cwd=tmp_path).returncode == 0
    whole = out.read_bytes()
    first_end = whole.index(b"\n") + 1
    out.write_bytes(whole[: first_end + 100])  # the second match torn, as by a kill
    ran = _cli(*args, cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert "a torn last line of 100 bytes was cut off first" in ran.stderr
    assert "(1 there already, 1 now)" in ran.stderr
    assert out.read_bytes() == whole


def test_an_out_that_is_not_this_corpus_is_refused_untouched(tmp_path: Path) -> None:
    corpus = tmp_path / "one.jsonl"
    corpus.write_text(dumps(random_match(700)) + "\n", "utf-8")
    other = tmp_path / "other.jsonl"
    other.write_text(dumps(random_match(701)) + "\n" + '{"format": "texas42-l', "utf-8")
    before = other.read_bytes()
    ran = _cli("analyze", str(corpus), *ARGS, "-o", str(other), cwd=tmp_path)
    assert ran.returncode == 2 and "holds another match" in ran.stderr, ran.stderr
    assert "Traceback" not in ran.stderr and other.read_bytes() == before
    # another seed than the one OUT was drawn with: refused too, and --force starts again
    out = tmp_path / "out.jsonl"
    assert _cli("analyze", str(corpus), *ARGS, "-o", str(out), cwd=tmp_path).returncode == 0
    seeded = _cli("analyze", str(corpus), *ARGS, "--seed", "5", "-o", str(out), cwd=tmp_path)
    assert seeded.returncode == 2 and "drawn with 4 worlds and seed 42" in seeded.stderr
    forced = _cli(
        "analyze", str(corpus), *ARGS, "--seed", "5", "--force", "-o", str(out), cwd=tmp_path
    )
    assert forced.returncode == 0, forced.stderr
    assert json.loads(out.read_text("utf-8"))["hands"][0]["analysis"]["fair"]["seed"] == 5
    # the auction's verdicts in OUT and --no-auction now (or the other way round): refused
    judged = out.read_bytes()
    bare = _cli(
        *["analyze", str(corpus), *ARGS, "--seed", "5", "--no-auction", "-o", str(out)],
        cwd=tmp_path,
    )
    assert bare.returncode == 2 and "--no-auction leaves out" in bare.stderr, bare.stderr
    assert out.read_bytes() == judged
    plain = tmp_path / "plain.jsonl"
    without = [*ARGS, "--seed", "5", "--no-auction", "-o", str(plain)]
    assert _cli("analyze", str(corpus), *without, cwd=tmp_path).returncode == 0
    assert b'"declaration"' in plain.read_bytes() and b"supported" not in plain.read_bytes()
    again = _cli("analyze", str(corpus), *ARGS, "--seed", "5", "-o", str(plain), cwd=tmp_path)
    assert again.returncode == 2 and "holds no verdicts of the auction" in again.stderr


@pytest.mark.slow
def test_a_folder_season_resumes_file_by_file(tmp_path: Path) -> None:
    src = tmp_path / "logs"
    (src / "week-2").mkdir(parents=True)
    for i, name in enumerate(["a.json", "b.json", "week-2/c.json"]):
        (src / name).write_text(dumps(random_match(800 + i)), "utf-8")
    out = tmp_path / "analysed"
    args = ["analyze", str(src), *ARGS, "-o", str(out)]
    assert _cli(*args, cwd=tmp_path).returncode == 0
    names = sorted(str(p.relative_to(out)) for p in out.rglob("*.json"))
    assert names == ["a.json", "b.json", "week-2/c.json"]
    reference = {n: (out / n).read_bytes() for n in names}
    (out / "b.json").unlink()  # as if the run had stopped before it
    ran = _cli(*args, cwd=tmp_path)
    assert ran.returncode == 0 and "(2 there already, 1 now)" in ran.stderr, ran.stderr
    assert {n: (out / n).read_bytes() for n in names} == reference
    assert _cli("validate", str(out), cwd=tmp_path).returncode == 0


def test_a_full_disk_leaves_whole_matches_and_the_rerun_finishes(tmp_path: Path) -> None:
    """The disk fills mid-match (a file-size limit stands in for it: the write fails as on
    a full disk): a sentence, whole matches before it, and the rerun completes the run."""
    import resource

    corpus = tmp_path / "three.jsonl"
    corpus.write_text(
        "\n".join(dumps(random_match(650 + i, max_hands=2)) for i in range(3)) + "\n", "utf-8"
    )
    args = ["analyze", str(corpus), *ARGS, "-j", "1"]
    ref = tmp_path / "ref.jsonl"
    assert _cli(*args, "-o", str(ref), cwd=tmp_path).returncode == 0
    reference = ref.read_bytes()
    first = reference.index(b"\n") + 1
    limit = first + (reference.index(b"\n", first) + 1 - first) // 2  # mid second match

    def small_disk() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    out = tmp_path / "out.jsonl"
    full = subprocess.run(
        [sys.executable, "-m", "texas42_log", *args, "-o", str(out)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=small_disk,
    )
    assert full.returncode == 2 and "Traceback" not in full.stderr, full.stderr
    assert "cannot be written" in full.stderr and "run the same command again" in full.stderr
    _whole_prefix(out, reference)
    assert out.read_bytes().count(b"\n") == 1  # the first match whole, the second torn
    again = _cli(*args, "-o", str(out), cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "torn last line" in again.stderr and out.read_bytes() == reference


def test_an_out_that_is_a_fifo_or_a_folder_is_refused(tmp_path: Path) -> None:
    corpus = tmp_path / "one.jsonl"
    corpus.write_text(dumps(random_match(710)) + "\n", "utf-8")
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    ran = _cli("analyze", str(corpus), *ARGS, "-o", str(fifo), cwd=tmp_path)
    assert ran.returncode == 2 and "is not a regular file" in ran.stderr, ran.stderr
    same = _cli("analyze", str(corpus), *ARGS, "-o", str(corpus), cwd=tmp_path)
    assert same.returncode == 2 and "is the input itself" in same.stderr
    inside = tmp_path / "logs"
    inside.mkdir()
    (inside / "a.json").write_text(dumps(random_match(711)), "utf-8")
    nested = _cli("analyze", str(inside), *ARGS, "-o", str(inside / "out"), cwd=tmp_path)
    assert nested.returncode == 2 and "is inside" in nested.stderr
