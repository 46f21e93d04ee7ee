"""The one writing path (texas42_log.files.outputs) and the commands that use it: modes,
symbolic links, exclusive creation, interruption, stale temporary files, and the
.t42 remarks an in-place rewrite would drop."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from texas42_log.cli import app
from texas42_log.files.outputs import TEMP_PREFIX, new_file_mode, write_atomic

FIX = Path(__file__).resolve().parent.parent / "fixtures" / "valid"
SAMPLE = FIX / "seed-worked-example.json"
CLI = [sys.executable, "-c", "from texas42_log.cli import main; main()"]


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(app, list(args))
    return r.exit_code, r.stdout, r.stderr


def mode(p: Path) -> int:
    return p.stat().st_mode & 0o777


@pytest.mark.parametrize("umask", [0o022, 0o002, 0o077])
def test_a_new_file_gets_the_umasks_mode(tmp_path: Path, umask: int) -> None:
    old = os.umask(umask)
    try:
        assert new_file_mode() == 0o666 & ~umask
        write_atomic(tmp_path / "a.txt", "x")
        code, _, err = run("convert", str(SAMPLE), "-o", str(tmp_path / "b.t42"))
        assert code == 0, err
    finally:
        os.umask(old)
    assert mode(tmp_path / "a.txt") == 0o666 & ~umask
    assert mode(tmp_path / "b.t42") == 0o666 & ~umask


def test_an_in_place_update_keeps_the_mode_and_writes_through_a_link(tmp_path: Path) -> None:
    real = tmp_path / "games" / "g.json"
    real.parent.mkdir()
    real.write_bytes(SAMPLE.read_bytes())
    real.chmod(0o640)
    link = tmp_path / "current.json"
    link.symlink_to(real)
    code, _, err = run("annotate", "add", str(link), "--text", "kept", "-i")
    assert code == 0, err
    assert link.is_symlink() and link.resolve() == real  # the link is still a link
    assert "kept" in real.read_text("utf-8")  # and its target was updated
    assert mode(real) == 0o640
    # beside the real file: the log and its writer lock's side file (empty), no temporary
    assert sorted(p.name for p in real.parent.iterdir()) == [".g.json.texas42-lock", "g.json"]
    assert (real.parent / ".g.json.texas42-lock").read_bytes() == b""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["current.json", "games"]


def test_force_replaces_and_keeps_the_mode(tmp_path: Path) -> None:
    out = tmp_path / "out.t42"
    out.write_text("old")
    out.chmod(0o604)
    code, _, err = run("convert", str(SAMPLE), "-o", str(out))
    assert code == 2 and "exists; pass --force" in err and out.read_text() == "old"
    code, _, err = run("convert", str(SAMPLE), "-o", str(out), "--force")
    assert code == 0, err
    assert out.read_text("utf-8").startswith("[Format") and mode(out) == 0o604


def test_creating_is_exclusive_even_when_the_name_appears_meanwhile(tmp_path: Path) -> None:
    target = tmp_path / "race.json"

    def chunks() -> object:
        yield "{"
        target.write_text("the other writer")  # another run creates the name while this one writes
        yield "}"

    with pytest.raises(FileExistsError):
        write_atomic(target, chunks())  # type: ignore[arg-type]
    assert target.read_text() == "the other writer"
    assert [p.name for p in tmp_path.iterdir()] == ["race.json"]


def test_a_temporary_name_fits_a_255_byte_target_name(tmp_path: Path) -> None:
    name = "m" * 250 + ".json"
    assert len(name.encode()) == 255
    code, _, err = run("convert", str(SAMPLE), "-o", str(tmp_path / name))
    assert code == 0, err
    assert (tmp_path / name).exists()


def test_a_stale_temporary_file_does_not_trip_the_next_write(tmp_path: Path) -> None:
    stale = tmp_path / f"{TEMP_PREFIX}deadbeef.tmp"
    stale.write_text("left by a killed run")
    code, _, err = run("convert", str(SAMPLE), "-o", str(tmp_path / "out.json"))
    assert code == 0, err
    code, out, err = run("validate", str(tmp_path))  # a folder walk does not take it for a log
    assert code == 0 and "deadbeef" not in out + err


def test_a_failed_command_writes_nothing(tmp_path: Path) -> None:
    empty = tmp_path / "empty.json"
    empty.write_text("")
    out = tmp_path / "out.json"
    code, _, err = run("annotate", "add", str(empty), "--text", "x", "-o", str(out))
    assert code == 1 and not out.exists(), err
    notes = tmp_path / "notes.json"
    notes.write_text("[]")
    code, _, err = run("annotate", "add", str(SAMPLE), "--from", str(notes), "-o", str(out))
    assert code == 1 and "holds no comments" in err and not out.exists()
    notes.write_text('[{"hand": "\u0663", "text": "x"}]')
    code, _, err = run("annotate", "add", str(SAMPLE), "--from", str(notes), "-o", str(out))
    assert code == 2 and "digits 0–9" in err and not out.exists()


def test_an_in_place_rewrite_of_t42_keeps_remarks_or_asks_for_force(tmp_path: Path) -> None:
    t42 = tmp_path / "g.t42"
    code, _, _ = run("convert", str(SAMPLE), "-o", str(t42))
    assert code == 0
    text = t42.read_text("utf-8").replace("[A ", "; seat A came late\n[A ", 1)
    t42.write_text(text, "utf-8")
    code, _, err = run("annotate", "add", str(t42), "--text", "x", "-i")
    assert code == 2 and "1 ; remark" in err and "--force" in err
    assert t42.read_text("utf-8") == text  # untouched
    code, _, err = run("annotate", "add", str(t42), "--text", "x", "-i", "--force")
    assert code == 0, err
    assert "came late" not in t42.read_text("utf-8") and "{x}" in t42.read_text("utf-8")


def _big_corpus(tmp_path: Path) -> Path:
    from texas42_log.log.inert import dumps
    from texas42_log.play.generate import random_match

    corpus = tmp_path / "corpus.jsonl"
    with corpus.open("w") as f:
        for i in range(400):
            f.write(dumps(random_match(i), separators=(",", ":")) + "\n")
    return corpus


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_mid_write_removes_the_temporary_file(tmp_path: Path, sig: signal.Signals) -> None:
    corpus = _big_corpus(tmp_path)
    out = tmp_path / "out.t42"
    p = subprocess.Popen(
        CLI + ["convert", str(corpus), "-o", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 30
    while not any(x.name.startswith(TEMP_PREFIX) for x in tmp_path.iterdir()):
        assert p.poll() is None and time.monotonic() < deadline, (
            "the conversion ended before it was interrupted"
        )
        time.sleep(0.01)
    p.send_signal(sig)
    _, err = p.communicate(timeout=30)
    assert p.returncode == (130 if sig == signal.SIGINT else 128 + sig), err
    assert b"Traceback" not in err
    assert sorted(x.name for x in tmp_path.iterdir()) == [
        "corpus.jsonl"
    ]  # no output, no temporary file


def test_threads_racing_for_one_name_one_wins(tmp_path: Path) -> None:
    target = tmp_path / "one.json"
    results: list[str] = []

    def writer(k: int) -> None:
        try:
            write_atomic(target, f"writer {k}")
            results.append("wrote")
        except FileExistsError:
            results.append("refused")

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["refused"] * 7 + ["wrote"]
    assert [p.name for p in tmp_path.iterdir()] == ["one.json"]


# -- what killed runs leave, and who may sweep it ------------------------------------------

HOLD = """
import sys, time
from texas42_log.files.outputs import write_atomic, write_folder
def forever():
    yield "{"
    print("writing", flush=True)
    time.sleep(600)
    yield "}"
def files():
    yield ("a.json", "{}")
    print("writing", flush=True)
    time.sleep(600)
    yield ("b.json", "{}")
if sys.argv[1] == "file":
    write_atomic(sys.argv[2], forever())
else:
    write_folder(sys.argv[2], files())
"""


def _writer(kind: str, target: Path) -> subprocess.Popen[str]:
    """A process in the middle of writing ``target`` (it never ends by itself)."""
    p = subprocess.Popen(
        [sys.executable, "-c", HOLD, kind, str(target)], stdout=subprocess.PIPE, text=True
    )
    assert p.stdout is not None and p.stdout.readline() == "writing\n"
    return p


def _temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(TEMP_PREFIX))


@pytest.mark.parametrize("kind", ["file", "folder"])
def test_a_killed_writers_temporary_is_swept_by_the_next_write(tmp_path: Path, kind: str) -> None:
    target = tmp_path / ("one.json" if kind == "file" else "split")
    p = _writer(kind, target)
    p.kill()
    p.wait()
    left = _temporaries(tmp_path)
    assert len(left) == 1 and left[0].startswith(f"{TEMP_PREFIX}{p.pid}-"), (
        left
    )  # the kill left it behind
    assert not target.exists()  # and nothing that looks like a result
    code, _, err = run("convert", str(SAMPLE), "-o", str(tmp_path / "next.t42"))
    assert code == 0, err
    assert _temporaries(tmp_path) == []


@pytest.mark.parametrize("kind", ["file", "folder"])
def test_a_live_writers_temporary_is_never_swept_even_when_old(tmp_path: Path, kind: str) -> None:
    p = _writer(kind, tmp_path / ("one.json" if kind == "file" else "split"))
    try:
        (left,) = _temporaries(tmp_path)
        an_hour_ago = time.time() - 3600
        os.utime(tmp_path / left, (an_hour_ago, an_hour_ago))
        code, _, err = run("convert", str(SAMPLE), "-o", str(tmp_path / "next.t42"))
        assert code == 0, err
        assert _temporaries(tmp_path) == [left]  # its writer holds the lock: left alone
    finally:
        p.kill()
        p.wait()


def test_the_sweep_takes_only_unlocked_leftovers_of_ours(tmp_path: Path) -> None:
    from texas42_log.files.outputs import sweep_leftovers

    young = (
        tmp_path / f"{TEMP_PREFIX}abcdefgh.tmp"
    )  # no writer named, a moment old: maybe being created
    young.write_text("x")
    old = tmp_path / f"{TEMP_PREFIX}ijklmnop.tmp"
    old.write_text("x")
    os.utime(old, (time.time() - 7200, time.time() - 7200))
    link = tmp_path / f"{TEMP_PREFIX}{os.getpid() + 1}-qrstuvwx.tmp"
    link.symlink_to(SAMPLE)  # never a link, nor what it points to
    theirs = tmp_path / ".texas42-notes.txt"
    theirs.write_text("a user's file")
    assert sweep_leftovers(tmp_path) == [old.name]
    assert young.exists() and link.is_symlink() and SAMPLE.exists() and theirs.exists()


def test_a_split_killed_half_way_leaves_no_folder_and_the_next_run_finishes(tmp_path: Path) -> None:
    corpus = _big_corpus(tmp_path)
    out = tmp_path / "split"
    p = subprocess.Popen(
        CLI + ["convert", str(corpus), "-o", f"{out}/"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while True:  # kill it once its temporary folder holds files
        temps = [t for t in tmp_path.iterdir() if t.name.startswith(TEMP_PREFIX) and t.is_dir()]
        if temps and len(list(temps[0].iterdir())) >= 50:
            break
        assert p.poll() is None and time.monotonic() < deadline, (
            "the conversion ended before it was killed"
        )
        time.sleep(0.005)
    p.kill()
    p.wait()
    assert not out.exists()  # no folder that looks like a result
    code, _, err = run("convert", str(corpus), "-o", f"{out}/")
    assert code == 0, err
    assert len(list(out.iterdir())) == 400 and _temporaries(tmp_path) == []


def test_a_folder_write_is_all_or_nothing(tmp_path: Path) -> None:
    from texas42_log.files.outputs import write_folder

    out = tmp_path / "out"
    out.mkdir()
    (out / "b.json").write_text("theirs")
    with pytest.raises(FileExistsError):
        write_folder(out, [("a.json", "1"), ("b.json", "2"), ("c.json", "3")])
    assert sorted(p.name for p in out.iterdir()) == [
        "b.json"
    ]  # a.json taken back, b.json untouched
    assert (out / "b.json").read_text() == "theirs"
    write_folder(out, [("a.json", "1"), ("b.json", "2")], replace=True)
    assert (
        sorted(p.name for p in out.iterdir()) == ["a.json", "b.json"]
        and (out / "b.json").read_text() == "2"
    )

    def abandoned():  # a generator that raises: nothing at all is written
        yield ("x.json", "1")
        raise ValueError("stop")

    with pytest.raises(ValueError):
        write_folder(tmp_path / "new", abandoned())
    assert not (tmp_path / "new").exists() and _temporaries(tmp_path) == []


def test_a_read_only_file_system_is_one_sentence(tmp_path: Path) -> None:
    """On a real read-only mount, made in a mount namespace of the command's own
    (``unshare``: any user may, where the kernel allows user namespaces; nothing stays
    mounted after it). The hostile-input catalogue covers an unwritable folder too."""
    ro = tmp_path / "ro"
    ro.mkdir()
    namespace = [
        "unshare",
        "--user",
        "--map-root-user",
        "--mount",
        "sh",
        "-c",
        'mount -t tmpfs -o ro,size=1m tmpfs "$1" && shift && exec "$@"',
        "sh",
        str(ro),
    ]
    probe = subprocess.run(namespace + ["true"], capture_output=True, text=True, timeout=60)
    if probe.returncode != 0:
        pytest.skip(f"this kernel lets no user make a mount namespace: {probe.stderr.strip()}")
    for out in (str(ro / "x.json"), f"{ro / 'split'}/", str(ro)):
        p = subprocess.run(
            namespace + CLI + ["convert", str(SAMPLE), "-o", out],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert p.returncode == 2 and "Read-only file system" in p.stderr, p.stderr
        assert "internal error" not in p.stderr and len(p.stderr.splitlines()) == 1
    assert list(ro.iterdir()) == []  # the mount was the command's alone
