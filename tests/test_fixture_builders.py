"""The committed fixtures are exactly what tools/build_*.py produce, so anyone can
rebuild them and a change to the engine or generator cannot drift from them unseen."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_fixtures_rebuild_identically(tmp_path: Path) -> None:
    for script in (
        "build_fixtures.py",
        "build_invalid.py",
        "build_bad_input.py",
        "build_hostile.py",
    ):
        p = subprocess.run(
            [sys.executable, str(ROOT / "tools" / script), str(tmp_path)],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert p.returncode == 0, p.stderr
    # fixtures/foreign holds other programs' sample files: copied (see its README), not
    # built; validation-golden.jsonl is the answers of the tree before a change, held to
    # this tree's answers by tests/test_validation_golden.py
    committed = {
        p.relative_to(ROOT / "fixtures"): p.read_bytes()
        for p in (ROOT / "fixtures").rglob("*")
        if p.is_file()
        and p.relative_to(ROOT / "fixtures").parts[0] != "foreign"
        and p.name != "validation-golden.jsonl"
    }
    rebuilt = {
        p.relative_to(tmp_path / "fixtures"): p.read_bytes()
        for p in (tmp_path / "fixtures").rglob("*")
        if p.is_file()
    }
    assert sorted(map(str, rebuilt)) == sorted(map(str, committed))
    for name, data in committed.items():
        assert rebuilt[name] == data, name
