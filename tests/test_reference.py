"""The API reference (docs/reference.md, mkdocstrings) is built from the docstrings in
strict mode: a broken link, a missing page or a reference to a name that does not exist
fails the build, and so this test. Every public name of the package is in it."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import texas42_log

ROOT = Path(__file__).resolve().parent.parent


def _build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "-q",
            "-f",
            str(config),
            "-d",
            str(site),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=config.parent,
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    p = _build(ROOT / "mkdocs.yml", out)
    assert p.returncode == 0, p.stdout + p.stderr
    return out


def test_the_site_builds_strictly_with_every_page(site: Path) -> None:
    pages = sorted(p.stem for p in (ROOT / "docs").glob("*.md"))
    for page in pages:
        assert (site / page / "index.html").is_file() or (site / f"{page}.html").is_file(), page


def test_every_public_name_is_in_the_reference(site: Path) -> None:
    page = (site / "reference" / "index.html").read_text("utf-8")
    anchors = set(re.findall(r'id="(texas42_log\.[\w.]+)"', page))
    documented = {a.rsplit(".", 1)[-1] for a in anchors}
    public = set(texas42_log.__all__) - {"__version__"}
    missing = {n for n in public if n not in documented and n != "register_format"}
    assert not missing, f"public names with no entry in docs/reference.md: {sorted(missing)}"
    assert "texas42_log.files.formats.register" in anchors  # shown as register_format
    # the entries hold the docstrings, not just the names
    assert "legal_actions" in page and "so a corpus of any size streams" in page


def test_a_reference_to_a_name_that_does_not_exist_fails_the_build(tmp_path: Path) -> None:
    """The strict build has teeth: the same site with one reference gone wrong fails."""
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    (tmp_path / "texas42_log").symlink_to(ROOT / "texas42_log")
    ref = tmp_path / "docs" / "reference.md"
    ref.write_text(ref.read_text("utf-8") + "\n::: texas42_log.play.game.NoSuchThing\n", "utf-8")
    p = _build(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert p.returncode != 0
    assert "NoSuchThing" in p.stdout + p.stderr
