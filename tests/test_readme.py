"""README.md opens with the two commands a newcomer runs; CI runs the second one."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text("utf-8")
    return re.findall(r"```sh\n(.+?)\n```", text)[:2]


def test_readme_starts_with_two_commands() -> None:
    setup_and_run, setup_and_test = readme_commands()
    assert "texas42 validate fixtures/valid/" in setup_and_run
    assert setup_and_test.endswith("pytest")
    sample = setup_and_run.rsplit(" ", 1)[1]
    assert (ROOT / sample).is_file()


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    assert readme_commands()[1] in ci.splitlines()


def test_readme_tour_output_is_real() -> None:
    """Every console block in the README is what the command prints today."""
    from typer.testing import CliRunner

    from texas42_log.cli import app

    text = (ROOT / "README.md").read_text("utf-8")
    blocks = re.findall(r"```console\n\$ texas42 (.+?)\n(.*?)```", text, re.S)
    assert len(blocks) >= 4
    for args, expected in blocks:
        result = CliRunner().invoke(app, args.split())
        assert result.stdout == expected, args
