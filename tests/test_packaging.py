"""The wheel carries everything the commands need outside a checkout."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent


def test_wheel_ships_schema_locales_and_viewer(tmp_path: Path) -> None:
    p = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=600,
        env=os.environ
        | {"TEXAS42_PURE": "1"},  # the data files are the point here, not the compile
    )
    assert p.returncode == 0, p.stderr
    (wheel,) = tmp_path.glob("texas42_log-*.whl")
    assert wheel.name.endswith("-py3-none-any.whl")  # TEXAS42_PURE=1: a pure-Python wheel
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        for lang in ("en", "tr", "uk"):
            assert f"texas42_log/views/locales/{lang}.py" in names
        for asset in ("viewer.html", "viewer.css", "viewer.js"):
            assert z.read(f"texas42_log/viewer/{asset}") == (ROOT / "viewer" / asset).read_bytes()
        schema = "texas42-log.v1.schema.json"  # schema/ installs as texas42_log.schemas
        assert z.read(f"texas42_log/schemas/{schema}") == (ROOT / "schema" / schema).read_bytes()
        assert "texas42_log/py.typed" in names


def _build(tmp: Path, env: dict[str, str]) -> Path:
    """``pip wheel .`` as a user would run it (build isolation, the project's own
    build requirements) in a clean copy of the tree — the checkout's own ``build/``
    folder would lend it objects compiled before — unpacked into a folder to run from."""
    source = tmp / "source"
    listed = (
        subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .split("\0")
    )
    for name in filter(None, listed):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    out = tmp / "wheel"
    p = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(out)],
        capture_output=True,
        text=True,
        timeout=900,
        env=os.environ | env,
    )
    assert p.returncode == 0, p.stderr
    (wheel,) = out.glob("texas42_log-*.whl")
    unpacked = tmp / "site"
    with zipfile.ZipFile(wheel) as z:
        z.extractall(unpacked)
    # Where the commands run: the sample log and nothing of the package's source.
    run = tmp / "run" / "fixtures" / "valid"
    run.mkdir(parents=True)
    shutil.copy2(ROOT / "fixtures/valid/seed-worked-example.json", run)
    return unpacked


def _run_from(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "TEXAS42_SOLVER"} | {"PYTHONPATH": str(site)}
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=site.parent / "run",
        env=env,
    )


FIRST = (
    "fixtures/valid/seed-worked-example.json: valid (11 hands; marks A+C 1, B+D 7; winner B+D; "
    "rules: standard)"
)
WHICH = (
    "import texas42_log.engine.search as s, texas42_log.engine.native as n; "
    "print(s.solver_choice(), n.__file__)"
)


def test_a_built_wheel_carries_the_native_solver(tmp_path: Path) -> None:
    # TEXAS42_MYPYC=0: the native search alone, the same Extension a full build makes
    # (setup.py); the full build's mypyc step is the CC=false test's and CI's own install.
    site = _build(tmp_path, {"TEXAS42_MYPYC": "0"})
    assert list((site / "texas42_log" / "engine").glob("_native.*.so")), (
        "the wheel has no native solver"
    )
    p = _run_from(site, "-c", WHICH)
    assert p.returncode == 0, p.stderr
    choice, where = p.stdout.split()
    assert choice == "native" and where.startswith(
        str(site)
    )  # the wheel's own module, not the checkout's
    p = _run_from(
        site,
        "-m",
        "texas42_log",
        "analyze",
        "fixtures/valid/seed-worked-example.json",
        "--hand",
        "3",
    )
    assert p.returncode == 0, p.stderr
    assert "Hand 3: A bid all tricks for 1 mark" in p.stdout


@pytest.mark.long
def test_without_a_compiler_the_reference_solver_serves_with_the_same_results(
    tmp_path: Path,
) -> None:
    """CC=false: every compile fails, every extension is optional, so the install is
    plain Python; the README's first command and the analysis still work, the
    analysis saying exactly what the native solver says."""
    site = _build(tmp_path, {"CC": "false"})
    assert not list(site.rglob("*.so")), "CC=false still built an extension"
    p = _run_from(site, "-c", WHICH)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split()[0] == "python"
    p = _run_from(site, "-m", "texas42_log", "validate", "fixtures/valid/seed-worked-example.json")
    assert (p.returncode, p.stdout.strip()) == (0, FIRST), p.stderr
    args = [
        "-m",
        "texas42_log",
        "analyze",
        "fixtures/valid/seed-worked-example.json",
        "--hand",
        "3",
        "--fair",
        # few worlds: the pure reference solves each caller's table too (the auction)
        "--worlds",
        "4",
    ]
    pure = _run_from(site, *args)
    here = subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
        env=os.environ | {"TEXAS42_SOLVER": "native"},
    )
    assert pure.returncode == here.returncode == 0, pure.stderr + here.stderr
    assert pure.stdout == here.stdout and "fair" in pure.stdout.lower()
    assert "  auction: each call from its caller's own tiles, 4 deals" in pure.stdout


def test_the_classifiers_name_the_interpreters_ci_runs() -> None:
    """pyproject.toml's classifiers and requires-python say what is tested: 3.11 (the whole
    suite, .ci/run step 3) and the versions .ci/run's step 4 runs the fast selection on."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    named = sorted(
        c.rsplit(" ", 1)[1]
        for c in project["classifiers"]
        if c.startswith("Programming Language :: Python :: 3.")
    )
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    others = re.search(r"^for version in ([0-9. ]+); do$", ci, re.M)
    assert others is not None
    assert named == ["3.11", *others.group(1).split()]
    assert project["requires-python"] == f">={named[0]}"
