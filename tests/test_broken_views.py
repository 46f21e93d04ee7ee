"""Views of a log that breaks rules: every hand is shown as far as it was played
legally — a broken hand up to just before its first illegal action, flagged — as
a PGN viewer shows a game up to its illegal move. The flag names the rule and the
place, never the diagnostic (which may name tiles the observer may not see)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from texas42_log.files.validate import validate_bytes
from texas42_log.log.broken import viewable
from texas42_log.views.visibility import hand_views

ROOT = Path(__file__).resolve().parent.parent
INVALID = sorted((ROOT / "fixtures" / "invalid").glob("*.json"))
CLI = [sys.executable, "-c", "from texas42_log.entry import main; main()"]
OBSERVERS = ["public", "A", "B", "C", "D", "omniscient"]


def _parsed(path: Path):  # type: ignore[no-untyped-def]
    result = validate_bytes(path.read_bytes())
    return result


CASES = [p for p in INVALID if _parsed(p).match is not None]


def test_most_invalid_fixtures_parse_as_matches() -> None:
    assert len(CASES) >= 30


@pytest.mark.parametrize("path", CASES, ids=[p.name for p in CASES])
def test_every_hand_of_a_broken_log_is_viewable_and_flagged(path: Path) -> None:
    result = _parsed(path)
    assert result.match is not None and result.report is not None
    errors = [d for d in result.report.diagnostics if d.severity == "error"]
    match, flags = viewable(result.match, errors)
    original = json.loads(path.read_text("utf-8"))
    for i in range(len(match.hands)):
        for who in OBSERVERS:
            views = hand_views(match, who, i)  # type: ignore[arg-type]
            assert views, (path.name, i, who)
        flag = flags.get(i)
        if flag is None:
            continue
        assert flag.rule in flag.text() and str(flag.hand) in flag.text()
        assert "[" not in flag.text()
        # the broken hand stops before its first illegal action: nothing of it or after it
        kept = match.hands[i]
        before = original["hands"][i]
        assert len(kept.plays) <= len(before.get("plays", []))
        assert len(kept.auction) <= len(before["auction"])
        what, _, k = flag.where.partition(" ")
        if what == "play" and k.isdigit():
            assert len(kept.plays) == int(k) - 1 and flag.pointer.startswith(
                f"/hands/{i}/plays/{int(k) - 1}"
            )
        if what == "call" and k.isdigit():
            assert len(kept.auction) == int(k) - 1 and not kept.plays and kept.declaration is None
    for i, flag in flags.items():  # a hand after the match's end is not shown at all
        assert i < len(match.hands) or flag.rule == "R24"
        # the flag never carries a diagnostic's words, which may name hidden tiles
        assert flag.rule in flag.text() and "[" not in flag.text()


def test_a_renege_is_shown_up_to_the_play_before_it(tmp_path: Path) -> None:
    path = ROOT / "fixtures" / "invalid" / "R16-renege-proved-by-a-later-play.json"
    p = subprocess.run(
        CLI + ["replay", str(path), "--hand", "3", "--format", "json"],
        capture_output=True,
        timeout=60,
    )
    assert p.returncode == 1  # shown, and still an invalid log
    views = json.loads(p.stdout)
    assert all(v["broken"]["rule"] == "R16" and v["broken"]["where"] == "play 2" for v in views)
    assert [v["moment"] for v in views] == ["auction", "declaration", "play"]
    assert [p["tile"] for p in views[-1]["trick"]["plays"]] == ["[4|4]"]
    err = p.stderr.decode()
    assert "hand 3 breaks a rule (R16) at play 2" in err
    assert (
        "[4|5]" not in err and "[4|5]" not in p.stdout.decode()
    )  # C's hidden follower is never named
    text = subprocess.run(
        CLI + ["replay", str(path), "--hand", "3"], capture_output=True, timeout=60
    )
    assert text.stdout.decode().startswith("!! Hand 3 breaks a rule (R16) at play 2")
    # the hands before it, and after it, are views as usual
    for hand in ("2", "4"):
        q = subprocess.run(
            CLI + ["replay", str(path), "--hand", hand], capture_output=True, timeout=60
        )
        assert q.returncode == 1 and not q.stdout.decode().startswith("!!"), q.stderr
    page = tmp_path / "p.html"
    r = subprocess.run(
        CLI + ["render", str(path), "-o", str(page)], capture_output=True, timeout=60
    )
    assert r.returncode == 1 and page.is_file()
    assert "hand 3 breaks a rule (R16) at play 2" in page.read_text("utf-8")


def test_a_log_that_is_not_a_match_is_still_refused() -> None:
    bad = ROOT / "fixtures" / "bad-input" / "not-utf8.json"
    p = subprocess.run(CLI + ["replay", str(bad)], capture_output=True, timeout=60)
    assert p.returncode == 1 and b"not a valid log" in p.stderr and not p.stdout
