"""The example programs in examples/ run, and what they write validates."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from texas42_log.log.check import check_match
from texas42_log.log.model import Match

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("rules", ["standard", "casual", "tricksy"])
def test_four_random_players_play_a_full_match(rules: str, tmp_path: Path) -> None:
    out = tmp_path / "match.json"
    p = subprocess.run(
        [
            sys.executable,
            str(ROOT / "examples" / "random_players.py"),
            str(out),
            "--seed",
            "7",
            "--rules",
            rules,
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert p.returncode == 0, p.stderr
    match = Match.model_validate(json.loads(out.read_text("utf-8")))
    report = check_match(match)
    assert report.errors == []
    assert match.status == "complete" and report.winner is not None
    assert f"{report.winner} won" in p.stdout
    # Seeded: the same match again.
    again = tmp_path / "again.json"
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "examples" / "random_players.py"),
            str(again),
            "--seed",
            "7",
            "--rules",
            rules,
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    assert again.read_bytes() == out.read_bytes()


def test_public_names_explain_themselves() -> None:
    """help() shows the docstrings of the public names, in the compiled install too."""
    import pydoc

    import texas42_log

    for name in texas42_log.__all__:
        value = getattr(texas42_log, name)
        if isinstance(value, type):
            assert value.__doc__ and value.__doc__ != "mypyc filler docstring", name
            assert value.__doc__.split("\n")[0] in pydoc.render_doc(
                value, renderer=pydoc.plaintext
            ), name
    for method in ("push", "pop", "legal_actions", "view", "to_match", "from_match", "deal"):
        assert getattr(texas42_log.Game, method).__doc__, method
