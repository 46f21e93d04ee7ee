"""The tree's style is checked, not only configured: ``ruff check`` (the rules in
pyproject.toml) and ``ruff format --check`` pass over every Python file of the repository."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("args", [["check", "--no-cache"], ["format", "--check", "--no-cache"]])
def test_ruff_passes(args: list[str]) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "ruff", *args, "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_rules_are_the_ones_the_docs_name() -> None:
    text = (ROOT / "pyproject.toml").read_text("utf-8")
    assert 'select = ["E", "W", "F", "I", "B", "UP"]' in text
    assert "line-length = 100" in text
