"""README.md opens with the two commands a newcomer runs; CI runs both, as printed:
the first in a fresh clone with only the runtime dependencies (its verdict checked
against the one the README shows), then the second."""

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
    assert setup_and_test.endswith("pytest -n auto")  # every core (pytest-xdist)
    sample = setup_and_run.rsplit(" ", 1)[1]
    assert (ROOT / sample).is_file()


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    assert readme_commands()[1] in ci.splitlines()


def test_ci_runs_the_readme_first_command_first_and_checks_its_verdict() -> None:
    lines = (ROOT / ".ci" / "run").read_text("utf-8").splitlines()
    setup_and_run, setup_and_test = readme_commands()
    assert setup_and_run in lines and lines.index(setup_and_run) < lines.index(setup_and_test)
    # The verdict CI expects is the one the README's tour shows for the same command.
    validate = setup_and_run.rsplit("&& .venv/bin/", 1)[1]
    text = (ROOT / "README.md").read_text("utf-8")
    shown = re.search(r"^\$ " + re.escape(validate) + r"\n(.+)$", text, re.MULTILINE)
    assert shown, validate
    assert f'expected="{shown.group(1)}"' in lines
    # In its own clone and virtual environment, never the test one (.venv of this checkout).
    before = lines[: lines.index(setup_and_run)]
    assert any(line.startswith("git clone -q . ") for line in before)
    assert any(line.startswith("cd ") and "texas42-log" in line for line in before)


# The README's console blocks, like every example in docs/, are run by tests/test_docs.py.


def test_the_format_tables_list_every_registered_format() -> None:
    from texas42_log.files import formats

    readme = (ROOT / "README.md").read_text("utf-8")
    conversions = (ROOT / "docs" / "conversions.md").read_text("utf-8")
    for name in formats.FORMATS:
        assert re.search(rf"^\| [^|\n]*`{re.escape(name)}`", readme, re.M), (
            f"README's format table lacks {name}"
        )
        assert f"| `{name}` |" in conversions, f"docs/conversions.md's format table lacks {name}"
        for suffix in formats.REGISTRY[name].suffixes:
            assert f"`*{suffix}`" in readme, f"README's format table lacks {suffix}"


def test_the_readme_names_every_group_of_the_top_level_help() -> None:
    """The conventions table's ``texas42 --help`` row lists the help's groups, all of
    them, in their order."""
    from typer.testing import CliRunner

    from texas42_log.cli import app

    out = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "100"}).output
    groups = [
        line.strip().rstrip(":").lower()
        for line in out.splitlines()
        if line.strip().endswith(":")
        and not line.startswith(" ")
        and line.strip() not in ("Options:", "Commands:")
    ]
    assert len(groups) >= 4, out
    readme = (ROOT / "README.md").read_text("utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| `texas42 --help` |"))
    places = [row.find(g) for g in groups]
    assert -1 not in places and places == sorted(places), (groups, row)
