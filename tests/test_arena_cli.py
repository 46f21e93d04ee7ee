"""``texas42 arena`` from the command line: the verdict, the logs (valid, and
byte-identical for the same seed on any number of processes), bots of your own,
and every refusal in one sentence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.forked_cli import completed

GREEDY = """
from texas42_log.bots import Situation


class Greedy:
    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, s: Situation):
        plays = [a for a in s.legal if hasattr(a, "tile")]
        return max(plays, key=lambda a: a.tile.pips) if plays else s.legal[0]
"""


def _run(args: list[str], cwd: Path) -> tuple[int, str, str]:
    ran = completed(["arena", *args, "--no-progress"], text=True, cwd=cwd)
    return ran.returncode, ran.stdout, ran.stderr


def test_the_verdict_and_the_logs(tmp_path: Path) -> None:
    code, out, err = _run(
        ["rule", "random", "--deals", "6", "--seed", "3", "--logs", "logs"], tmp_path
    )
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "6 duplicate deals (12 hands), rules standard, seed 3"
    assert (
        lines[3].startswith("rule ")
        and lines[4].startswith("random ")
        and lines[5].startswith("difference ")
    )
    assert "McNemar exact p = " in lines[7] and lines[-1] == "wrote 12 logs into logs"
    names = sorted(p.name for p in (tmp_path / "logs").iterdir())
    assert names[:2] == ["deal-1-table-1.json", "deal-1-table-2.json"] and len(names) == 12
    valid = completed(["validate", "logs"], text=True, cwd=tmp_path)
    assert valid.returncode == 0 and "valid    12\ninvalid  0\n" in valid.stderr, (
        valid.stdout + valid.stderr
    )


def test_the_same_seed_gives_byte_identical_logs_on_any_number_of_processes(tmp_path: Path) -> None:
    for jobs in ("1", "2"):
        code, _, err = _run(
            ["rule", "random", "--deals", "9", "--seed", "11", "-j", jobs, "--logs", f"j{jobs}"],
            tmp_path,
        )
        assert code == 0, err
    one, two = tmp_path / "j1", tmp_path / "j2"
    assert sorted(p.name for p in one.iterdir()) == sorted(p.name for p in two.iterdir())
    assert all((one / p.name).read_bytes() == (two / p.name).read_bytes() for p in one.iterdir())


def test_the_json_verdict(tmp_path: Path) -> None:
    code, out, err = _run(["random", "random", "--deals", "5", "--format", "json"], tmp_path)
    assert code == 0, err
    verdict = json.loads(out)
    assert verdict["bots"] == {"X": "random (1)", "Y": "random (2)"} and verdict["hands"] == 10
    marks = verdict["marks_per_hand"]
    assert marks["X-Y"]["mean"] == pytest.approx(marks["X"]["mean"] - marks["Y"]["mean"], abs=1e-3)
    assert 0 <= verdict["mcnemar"]["p_value"] <= 1


def test_a_bot_of_your_own(tmp_path: Path) -> None:
    (tmp_path / "greedy.py").write_text(GREEDY, "utf-8")
    code, out, err = _run(["greedy.py:Greedy", "rule", "--deals", "3"], tmp_path)
    assert code == 0, err
    assert out.splitlines()[3].startswith("Greedy ")


@pytest.mark.parametrize(
    ("source", "said"),
    [
        (
            "class Bad:\n    def __init__(self, seed=0): pass\n    def act(self, s):\n        "
            "return 'nonsense'\n",
            "texas42: the arena stopped: the bot at ",
        ),
        (
            "class Bad:\n    def __init__(self, seed=0): pass\n    def act(self, s):\n        "
            "return 1 / 0\n",
            "failed to choose a call: ZeroDivisionError: division by zero",
        ),
    ],
)
def test_a_bot_that_breaks_stops_the_arena_in_one_sentence(
    tmp_path: Path, source: str, said: str
) -> None:
    (tmp_path / "bad.py").write_text(source, "utf-8")
    code, out, err = _run(["bad.py:Bad", "rule", "--deals", "2", "--logs", "logs"], tmp_path)
    assert code == 1 and said in err and "Traceback" not in err, err
    assert not (tmp_path / "logs").exists()  # nothing half-written


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["nobody", "rule"], "no bot is called 'nobody'"),
        (["sampling,worlds=x", "rule"], "takes a whole number"),
        (["missing.py:Bot", "rule"], "missing.py: no such Python file"),
        (["broken.py:Bot", "rule"], "broken.py: loading it failed: SyntaxError"),
        (["empty.py:Bot", "rule"], "empty.py has no bot class 'Bot'"),
        (["no_such_module_here:Bot", "rule"], "no module 'no_such_module_here'"),
        (["rule", "random", "--rules", "nonsense"], "--rules: "),
        (["rule", "random", "--deals", "0"], "--deals"),
        (["rule", "random", "--logs", "afile"], "afile: not a folder"),
    ],
)
def test_usage_errors(tmp_path: Path, args: list[str], said: str) -> None:
    (tmp_path / "broken.py").write_text("def (:\n", "utf-8")
    (tmp_path / "empty.py").write_text("X = 1\n", "utf-8")
    (tmp_path / "afile").write_text("keep", "utf-8")
    code, out, err = _run(args, tmp_path)
    assert code == 2 and said in err and "Traceback" not in err, err
    assert (tmp_path / "afile").read_text("utf-8") == "keep"


def test_existing_logs_are_kept_without_force(tmp_path: Path) -> None:
    assert _run(["rule", "random", "--deals", "2", "--logs", "logs"], tmp_path)[0] == 0
    before = {p.name: p.read_bytes() for p in (tmp_path / "logs").iterdir()}
    code, _, err = _run(["random", "rule", "--deals", "2", "--logs", "logs"], tmp_path)
    assert code == 2 and "--force" in err
    assert {p.name: p.read_bytes() for p in (tmp_path / "logs").iterdir()} == before
    code, _, err = _run(["random", "rule", "--deals", "2", "--logs", "logs", "--force"], tmp_path)
    assert code == 0, err
    assert {p.name: p.read_bytes() for p in (tmp_path / "logs").iterdir()} != before


def test_generate_with_players(tmp_path: Path) -> None:
    for name in ("a.jsonl", "b.jsonl"):
        ran = completed(
            ["generate", "--players", "rule", "-n", "2", "--seed", "4", "-o", name],
            text=True,
            cwd=tmp_path,
        )
        assert ran.returncode == 0, ran.stderr
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    matches = [json.loads(line) for line in (tmp_path / "a.jsonl").read_text("utf-8").splitlines()]
    assert all(
        m["players"] == {s: "rule" for s in "ABCD"} and m["status"] == "complete" for m in matches
    )
    valid = completed(["validate", "a.jsonl"], text=True, cwd=tmp_path)
    assert valid.returncode == 0 and "invalid  0" in valid.stderr
    # the rule bot bids by its count: far fewer mark bids than the random generator makes
    calls = [c for m in matches for h in m["hands"] for c in h["auction"]]
    assert sum(c["call"] == "marks" for c in calls) < len(calls) / 20


def test_generate_refuses_an_unknown_player(tmp_path: Path) -> None:
    ran = completed(["generate", "--players", "nobody"], text=True, cwd=tmp_path)
    assert ran.returncode == 2 and "--players: no bot is called 'nobody'" in ran.stderr


def test_the_log_names_are_the_ones_the_docs_show() -> None:
    """docs/bots.md names the arena's logs; the names it shows are the ones written."""
    from types import SimpleNamespace

    from texas42_log.corpus.arena import log_name

    docs = (Path(__file__).resolve().parents[1] / "docs" / "bots.md").read_text("utf-8")
    first = SimpleNamespace(index=0)
    for deals, shown in ((9, "deal-1-table-1.json"), (10, "deal-01-table-1.json")):
        assert log_name(first, 1, len(str(deals))) == shown  # type: ignore[arg-type]
        assert f"`{shown}`" in docs
    assert "`deal-001-…` from 100" in docs and log_name(first, 1, 3).startswith("deal-001-")  # type: ignore[arg-type]
