from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

# CI explores the same examples every run, so a red run can be reproduced;
# locally hypothesis keeps searching new ones.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

# A board keeps its links in the user's state folder (texas42_log.board.links): the
# tests' boards keep theirs in a folder of this run, never in the user's home.
if "TEXAS42_TEST_STATE" not in os.environ:
    import tempfile

    os.environ["TEXAS42_TEST_STATE"] = tempfile.mkdtemp(prefix="texas42-state-")
    os.environ["XDG_STATE_HOME"] = os.environ["TEXAS42_TEST_STATE"]

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


@pytest.fixture
def root() -> Path:
    return ROOT


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--exhaustive",
        action="store_true",
        help="also run the exhaustive selection (-m exhaustive): 5,000 native-solver positions",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The exhaustive selection is left out of every run that does not ask for it
    (deselected, not skipped: nothing is hidden behind a skip)."""
    if config.getoption("--exhaustive"):
        return
    kept = [i for i in items if i.get_closest_marker("exhaustive") is None]
    if len(kept) != len(items):
        config.hook.pytest_deselected(
            items=[i for i in items if i.get_closest_marker("exhaustive") is not None]
        )
        items[:] = kept
