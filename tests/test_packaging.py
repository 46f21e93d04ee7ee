"""The wheel carries everything the commands need outside a checkout."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent


def test_wheel_ships_schema_locales_and_viewer(tmp_path: Path) -> None:
    p = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=600,
        env=os.environ | {"TEXAS42_PURE": "1"},  # the data files are the point here, not the compile
    )
    assert p.returncode == 0, p.stderr
    (wheel,) = tmp_path.glob("texas42_log-*.whl")
    assert wheel.name.endswith("-py3-none-any.whl")  # TEXAS42_PURE=1: a pure-Python wheel
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        for lang in ("en", "tr", "uk"):
            assert f"texas42_log/views/locales/{lang}.py" in names
        for asset in ("viewer.html", "viewer.css", "viewer.js"):
            assert z.read(f"texas42_log/viewer/{asset}") == (ROOT / "viewer" / asset).read_bytes()
        assert z.read("texas42_log/data/texas42-log.v1.schema.json") == (
            ROOT / "schema" / "texas42-log.v1.schema.json"
        ).read_bytes()
        assert "texas42_log/py.typed" in names
