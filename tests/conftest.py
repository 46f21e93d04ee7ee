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


#: The selections a run leaves out unless it asks for them, by marker: the option that
#: asks, and what the selection is.
OPT_IN = {
    "exhaustive": "also run the exhaustive selection (-m exhaustive): 5,000 native-solver "
    "positions",
    "long": "also run the long selection (-m long): the checks of a minute or more, the "
    "further seeds of the leak, re-deal and fuzz tests, and the viewer's other languages at "
    "its middle widths (CI runs it as a step of its own)",
}


def pytest_addoption(parser: pytest.Parser) -> None:
    for marker, help in OPT_IN.items():
        parser.addoption(f"--{marker}", action="store_true", help=help)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The opt-in selections are left out of every run that does not ask for them
    (deselected, not skipped: nothing is hidden behind a skip)."""
    left_out = [m for m in OPT_IN if not config.getoption(f"--{m}")]
    dropped = [i for i in items if any(i.get_closest_marker(m) is not None for m in left_out)]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        gone = {id(i) for i in dropped}
        items[:] = [i for i in items if id(i) not in gone]
