"""``texas42 --help`` lists the commands by task, the main job first; shell completion
is there (``--install-completion``, ``--show-completion``) and completes commands and
options."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from texas42_log.cli import app
from texas42_log.cli.app import TASKS

CLI = [sys.executable, "-c", "from texas42_log.entry import main; main()"]


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COLUMNS": "100", **(env or {})},
    )


def test_help_lists_the_commands_by_task_with_validate_first() -> None:
    out = _run("--help").stdout
    titles = re.findall(r"^(\S[^:\n]*):$", out, re.M)
    assert titles == ["Options"] + [t for t, _ in TASKS]
    listed = re.findall(r"^  ([a-z]+)  ", out.split("Check and read a log:")[1], re.M)
    assert listed[0] == "validate"
    assert listed == [name for _, names in TASKS for name in names]


def test_every_command_belongs_to_a_task() -> None:
    import typer.main

    group = typer.main.get_command(app)
    commands = set(group.commands)  # type: ignore[attr-defined]
    tasks = [name for _, names in TASKS for name in names]
    assert sorted(tasks) == sorted(commands) and len(set(tasks)) == len(tasks)


def test_completion_completes_commands_and_options() -> None:
    p = _run(
        env={"_TEXAS42_COMPLETE": "complete_bash", "COMP_WORDS": "texas42 val", "COMP_CWORD": "1"}
    )
    assert p.stdout.split() == ["validate"]
    p = _run(
        env={
            "_TEXAS42_COMPLETE": "complete_bash",
            "COMP_WORDS": "texas42 validate --fail",
            "COMP_CWORD": "2",
        }
    )
    assert p.stdout.split() == ["--fail-fast"]


def test_completion_script_is_shown_for_each_shell() -> None:
    """The shell is detected from the process tree; typer's own switch turns detection
    off, so that the shell can be named (the test runs under no interactive shell)."""
    for shell in ("bash", "zsh", "fish"):
        p = _run(
            "--show-completion", shell, env={"_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}
        )
        assert p.returncode == 0 and "_TEXAS42_COMPLETE" in p.stdout, (shell, p.stderr)
