"""No file of the repository cites a file the repository does not hold: every path
under one of its own folders (``tests/…``, ``docs/…``, ``texas42_log/…``) and every
top-level document (``README.md``, ``CONTRIBUTING.md``…) named in its code, docs and
configuration exists. A citation of a file outside the repository is a defect too:
the user never has it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("texas42_log", "tests", "docs", "tools", "fixtures", "schema", "viewer", "examples")
#: A path below one of the repository's folders, or an upper-case top-level document.
CITED = re.compile(
    r"(?<![\w./-])((?:\.ci/run)|(?:" + "|".join(FOLDERS) + r")/[\w./-]+|[A-Z][A-Z_]+\.md)"
)
#: Citations that are meant: a test of a missing input, the check that the docs never
#: cite the files behind the project (which names them), and the installed layout of
#: the viewer inside a wheel.
MEANT = {
    ("tests/test_cli.py", "fixtures/no-such-file.json"),
    ("tests/test_cli.py", "fixtures/no-such-folder"),
    ("tests/test_docs.py", "RULES.md"),
    ("tests/test_docs.py", "FORMATS.md"),
    ("tests/test_packaging.py", "texas42_log/viewer"),
}
SUFFIXES = {".py", ".md", ".toml", ".yml", ".sh", ".cfg", ".txt", ".js", ".html", ".c", ".pyi"}


def _tracked() -> list[Path]:
    out = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    return [
        ROOT / p
        for p in out.split("\0")
        if p
        and (Path(p).suffix in SUFFIXES or p == ".ci/run")
        and not p.startswith("fixtures/")
        and p != "tests/test_references.py"  # the check itself names what it looks for
    ]


def missing_references(files: list[Path], root: Path) -> list[str]:
    """Each cited path that is not in ``root``, as ``file:line: path``."""
    out = []
    for f in files:
        for n, line in enumerate(f.read_text("utf-8", errors="replace").splitlines(), 1):
            for m in CITED.finditer(line):
                if line[m.end() : m.end() + 1] in ("*", "{", "<"):
                    continue  # a pattern, not a file
                cited = m.group(1).rstrip("./")
                if (str(f.relative_to(root)), cited) in MEANT:
                    continue
                if not (root / cited).exists() and not (f.parent / cited).exists():
                    out.append(f"{f.relative_to(root)}:{n}: {cited}")
    return out


def test_every_cited_file_exists() -> None:
    assert missing_references(_tracked(), ROOT) == []


def test_the_check_finds_a_missing_file(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "here.md").write_text("x")
    f = tmp_path / "a.py"
    f.write_text("# see DESIGN.md and docs/here.md\n# and tests/test_typing.py\n")
    assert missing_references([f], tmp_path) == [
        "a.py:1: DESIGN.md",
        "a.py:2: tests/test_typing.py",
    ]
