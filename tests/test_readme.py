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


# The README's console blocks, like every example in docs/, are run by tests/test_docs.py.
