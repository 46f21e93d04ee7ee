"""Every example in the README and docs/ runs.

- A ``console`` block is a transcript: each ``$ texas42 …`` line is run (in a
  scratch folder that sees the repository's fixtures and examples) and what it
  prints — standard output and standard error, as a terminal shows them — must be
  the lines under it, exactly.
- A fenced block whose info string says ``file=NAME`` (```` ```{.t42 file=bad.t42} ````)
  is written to the scratch folder first, so a transcript can use it.
- An ``sh`` block's ``texas42`` lines are run in order in a scratch folder where
  the file names the docs use exist (copies of fixtures); each must succeed.
- A ``python`` block runs (in the same scratch folder) and, when an ``output``
  block follows it, prints exactly that. (``python fragment`` blocks — a Dask or
  Spark job, which needs a cluster — are not run; tests/test_scale_out.py runs
  the example program they come from.)
- docs/rules.md holds every rule id R1–R31 and every option of the registry, and
  its options block is what tools/build_rules_doc.py writes; the packaged copy is
  the same file without that block, which the package writes when it reads it, so
  what ``texas42 rules`` reads is docs/rules.md.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.forked_cli import completed
from texas42_log.engine.rules import OPTIONS

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
CLI = [sys.executable, "-c", "from texas42_log.entry import main; main()"]
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```$", re.S | re.M)

#: The first words of the lines an ``sh`` block runs besides ``texas42``: the steps a
#: reader types in a fresh checkout to make the files the commands use.
SETUP = ("cp ", "mkdir ", "printf ", "python ")
#: What a fresh checkout holds that the examples read (linked, never written: every
#: example writes into the folder it runs in).
CHECKOUT = ("fixtures", "examples", "docs", "tests")


def _blocks() -> list[tuple[Path, str, str]]:
    out = []
    for doc in DOCS:
        for m in FENCE.finditer(doc.read_text("utf-8")):
            out.append((doc, m.group(1).strip(), m.group(2)))
    return out


def _sandbox(tmp: Path) -> Path:
    for name in CHECKOUT:
        (tmp / name).symlink_to(ROOT / name)
    for _doc, info, body in _blocks():
        m = re.search(r"\bfile=([^\s}]+)", info)
        if m:
            (tmp / m.group(1)).write_text(body, "utf-8")
    return tmp


def _run(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """A documented ``texas42`` command line, run as a new process would run it (forked
    from a prepared one, tests/forked_cli.py), its standard error in its output."""
    args = shlex.split(command)
    assert args[0] == "texas42", command
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100"}
    return completed(args[1:], text=True, cwd=cwd, env=env, merge=True)


def _transcripts() -> list[tuple[str, str, str]]:
    out = []
    for doc, info, body in _blocks():
        if info != "console":
            continue
        command: str | None = None
        expected: list[str] = []
        for line in body.splitlines(keepends=True):
            if line.startswith("$ "):
                if command is not None:
                    out.append((f"{doc.name}: {command}", command, "".join(expected)))
                command, expected = line[2:].strip(), []
            else:
                expected.append(line)
        if command is not None:
            out.append((f"{doc.name}: {command}", command, "".join(expected)))
    return out


TRANSCRIPTS = _transcripts()


def test_there_are_transcripts_in_the_readme_and_the_docs() -> None:
    names = {t[0].split(":")[0] for t in TRANSCRIPTS}
    assert {"README.md", "notation.md", "conversions.md"} <= names
    assert len(TRANSCRIPTS) >= 12


@pytest.mark.parametrize(
    ("name", "command", "expected"), TRANSCRIPTS, ids=[t[0] for t in TRANSCRIPTS]
)
def test_a_console_example_prints_what_the_docs_show(
    name: str, command: str, expected: str, tmp_path: Path
) -> None:
    sandbox = _sandbox(tmp_path)
    result = _run(command, sandbox)
    # the one figure that depends on the machine: the validation rate of a summary
    rate = re.compile(r"^(hands/s\s+)[0-9,–]+$", re.M)
    assert rate.sub(r"\1…", result.stdout) == rate.sub(r"\1…", expected), (
        f"{name}\n--- the docs show ---\n{expected}--- it prints ---\n{result.stdout}"
    )


def _sh_lines() -> list[tuple[str, list[str]]]:
    """Each ``sh`` block's ``texas42`` lines and the setup lines among them
    (:data:`SETUP`); a block that says what an earlier one (in another document) said
    runs once."""
    out = []
    seen: set[tuple[str, ...]] = set()
    for doc, info, body in _blocks():
        if info not in ("sh", "bash"):
            continue
        lines = [re.sub(r"\s+#.*$", "", line).strip() for line in body.splitlines()]
        lines = [line for line in lines if line.startswith(("texas42 ", *SETUP))]
        if any(line.startswith("texas42 ") for line in lines) and tuple(lines) not in seen:
            seen.add(tuple(lines))
            out.append((f"{doc.name}: {lines[0]}", lines))
    return out


SH = _sh_lines()
#: Examples that do seconds of real work (a 2,000-match corpus, every hand of a match
#: solved, a season judged): run by the whole suite, left out of -m "not slow".
HEAVY = ("--matches 2000", "texas42 analyze match.json", "--fair --annotate -o club-season")


def _sh_param(name: str, lines: list[str]) -> object:
    heavy = any(h in line for line in lines for h in HEAVY)
    return pytest.param(name, lines, id=name, marks=[pytest.mark.slow] if heavy else [])


@pytest.mark.parametrize(("name", "lines"), [_sh_param(*s) for s in SH])
def test_an_sh_example_runs(name: str, lines: list[str], tmp_path: Path) -> None:
    """As written, from a fresh checkout: the block's own setup lines make every file
    its commands read that the checkout does not hold."""
    sandbox = _sandbox(tmp_path)
    for line in lines:
        if line.startswith(("texas42 board ", "texas42 table ")):
            _run_board(line, sandbox)
            continue
        if line.startswith(SETUP):
            command = re.sub(r"^python ", f"{shlex.quote(sys.executable)} ", line)
            done = subprocess.run(
                command, shell=True, cwd=sandbox, capture_output=True, text=True, check=False
            )
            assert done.returncode == 0, f"{name}\n$ {line}\n{done.stdout}{done.stderr}"
            continue
        result = _run(line, sandbox)
        assert result.returncode == 0, f"{name}\n$ {line}\n{result.stdout}"


def _run_board(command: str, cwd: Path) -> None:
    """A documented ``texas42 board`` line: it starts, prints its addresses, and stops
    cleanly (exit 0) on Ctrl-C."""
    args = shlex.split(command)
    p = subprocess.Popen(
        [sys.executable, "-m", "texas42_log", *args[1:]],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert p.stdout is not None
    printed = []
    while "Ctrl-C" not in (line := p.stdout.readline()):
        if not line:
            break
        printed.append(line)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert p.returncode == 0, f"$ {command}\n{''.join(printed)}{out}{err}"
    assert any("http://127.0.0.1:" in line for line in printed), printed


# -- docs/rules.md ---------------------------------------------------------------------


def _python_examples() -> list[object]:
    """Each ``python`` block, with the ``output`` block that follows it (if any)."""
    out: list[object] = []
    blocks = _blocks()
    for k, (doc, info, body) in enumerate(blocks):
        if info != "python":
            continue
        expected = (
            blocks[k + 1][2] if k + 1 < len(blocks) and blocks[k + 1][1] == "output" else None
        )
        out.append(pytest.param(body, expected, id=f"{doc.name}-{k}"))
    return out


def test_the_api_page_has_a_complete_example_of_twenty_lines() -> None:
    body = next(b for d, i, b in _blocks() if d.name == "api.md" and i == "python")
    assert len(body.strip().splitlines()) <= 20 and "Game(" in body and "push(" in body


def test_the_bots_page_has_a_complete_bot_of_twenty_lines_played_in_the_arena() -> None:
    blocks = [(i, b) for d, i, b in _blocks() if d.name == "bots.md"]
    bot = next(b for i, b in blocks if "file=greedy.py" in i)
    assert len(bot.strip().splitlines()) <= 20 and "def act(self, s: Situation)" in bot
    assert any(i == "console" and "$ texas42 arena greedy.py:Greedy rule" in b for i, b in blocks)


@pytest.mark.parametrize(("body", "expected"), _python_examples())
def test_a_python_example_runs_and_prints_what_the_docs_show(
    body: str, expected: str | None, tmp_path: Path
) -> None:
    sandbox = _sandbox(tmp_path)
    p = subprocess.run(
        [sys.executable, "-c", body], capture_output=True, text=True, cwd=sandbox, timeout=120
    )
    assert p.returncode == 0, p.stderr
    if expected is not None:
        assert p.stdout == expected


def test_the_rules_reference_has_every_rule_and_option() -> None:
    text = (ROOT / "docs" / "rules.md").read_text("utf-8")
    for n in range(1, 32):
        assert f'<a id="r{n}"></a>**R{n} — ' in text, f"R{n}"
    for name in OPTIONS:
        assert f'<a id="opt-{name}"></a>**`{name}`**' in text, name


def test_the_cli_reference_is_the_commands_own_help() -> None:
    """docs/cli.md is what tools/build_cli_reference.py writes from every command's
    --help, and it covers every command the CLI has."""
    p = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "build_cli_reference.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 0, p.stdout + p.stderr
    import typer

    from texas42_log.cli import app

    group = typer.main.get_command(app)
    text = (ROOT / "docs" / "cli.md").read_text("utf-8")
    for name in group.commands:  # type: ignore[attr-defined]
        assert f"## `texas42 {name}`" in text, name


def test_the_rules_reference_options_block_is_generated_and_packaged() -> None:
    p = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "build_rules_doc.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode == 0, p.stderr
    from texas42_log.log.rule_texts import OPTIONS_BEGIN, OPTIONS_END, rules_reference

    docs = (ROOT / "docs" / "rules.md").read_text("utf-8")
    packaged = (ROOT / "texas42_log" / "data" / "rules.md").read_text("utf-8")
    assert f"{OPTIONS_BEGIN}\n{OPTIONS_END}" in packaged  # the block left out
    assert '<a id="opt-' not in packaged
    assert rules_reference() == docs


def test_the_rules_reference_is_linked_from_the_readme_the_schema_and_the_command() -> None:
    assert "docs/rules.md" in (ROOT / "README.md").read_text("utf-8")
    assert "docs/rules.md" in (ROOT / "schema" / "texas42-log.v1.schema.json").read_text("utf-8")
    p = subprocess.run(CLI + ["rules"], capture_output=True, text=True, timeout=60)
    assert "docs/rules.md" in p.stdout
    p = subprocess.run(CLI + ["rules", "R16"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and p.stdout.startswith("R16 — Follow if you can.")
    p = subprocess.run(
        CLI + ["rules", "variant:dealer_draw"], capture_output=True, text=True, timeout=60
    )
    assert p.returncode == 0 and "highest-pips" in p.stdout


def test_no_user_facing_text_cites_files_outside_the_repository() -> None:
    for path in [
        *DOCS,
        *(ROOT / "texas42_log").rglob("*.py"),
        ROOT / "schema" / "texas42-log.v1.schema.json",
    ]:
        text = path.read_text("utf-8")
        assert "RULES.md" not in text and "FORMATS.md" not in text, path


def test_the_layer_tables_name_every_layer() -> None:
    """docs/architecture.md's tree, CONTRIBUTING.md's table, README.md's layout table and
    the package's docstring each name every layer the design test knows
    (tests/test_design.py)."""
    import texas42_log
    from tests.test_design import LAYERS

    tree = (ROOT / "docs" / "architecture.md").read_text("utf-8")
    contributing = (ROOT / "CONTRIBUTING.md").read_text("utf-8")
    readme = (ROOT / "README.md").read_text("utf-8")
    for layer in LAYERS:
        assert f"\n  {layer}/ " in tree, layer
        assert f"`{layer}/`" in contributing, layer
        assert f"| `texas42_log/{layer}/` |" in readme, layer
        assert f":mod:`.{layer}`" in (texas42_log.__doc__ or ""), layer


def test_the_format_page_names_the_versions_this_tool_reads() -> None:
    """docs/format.md's prose says which versions this tool reads, and which would be the
    next: written from FORMAT_VERSION (texas42_log.log.versions), so it cannot drift when
    the version rises."""
    from texas42_log.log.versions import FORMAT_VERSION, READ_VERSIONS

    text = (ROOT / "docs" / "format.md").read_text("utf-8")
    listed = ", ".join(READ_VERSIONS[:-1]) + " and " + READ_VERSIONS[-1]
    assert f"This tool reads {listed}." in text
    assert READ_VERSIONS[-1] == FORMAT_VERSION
    following = f"1.{int(FORMAT_VERSION.split('.')[1]) + 1}"
    assert f"A newer 1.y (say {following})" in text
