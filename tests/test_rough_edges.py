"""The rough edges a new user met, each with the sentence they now get (each has its
row in docs/hostile-input.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.forked_cli import completed

SAMPLE = "fixtures/valid/seed-worked-example.json"


def _run(*args: str) -> tuple[int, str]:
    r = completed(list(args), text=True)
    return r.returncode, r.stdout + r.stderr


def test_a_link_cut_by_the_shell_at_its_first_ampersand_says_so() -> None:
    code, out = _run("validate", "https://jasonyandell.github.io/mk5-main/?s=lgvi")
    assert code == 1
    assert "it looks cut, as a shell cuts a link pasted without quotes at its first &" in out
    assert "quote the whole link" in out and ": valid" not in out
    code, out = _run("validate", "s=lgvi")  # the query string alone, cut the same way
    assert code == 2
    assert "if it is what the shell left of an mk5 link pasted without quotes" in out


@pytest.mark.parametrize("address", ["https://example.com/page?x=1", "http://example.com/"])
def test_a_web_address_that_is_not_an_mk5_link_says_so(address: str) -> None:
    code, out = _run("validate", address)
    assert code == 2
    assert f"{address}: not an mk5 link (it has none of the parameters s=, i= and a=)" in out
    assert "pattern" not in out and "no such file" not in out


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["validate", "--format", "xml", SAMPLE], "xml: choose one of text, json"),
        (["render", "--to", "xml", SAMPLE], "xml: choose one of html, svg, png"),
        (["analyze", "-f", "a'b", SAMPLE], "a'b: choose one of text, json, csv"),
    ],
)
def test_a_refused_choice_is_said_in_our_words(args: list[str], said: str) -> None:
    code, out = _run(*args)
    assert code == 2 and said in out
    assert "Value error" not in out and "is not one of" not in out


GREEDY = """
class Greedy:
    def __init__(self, seed):
        self.seed = seed

    def act(self, situation):
        return situation.legal[0]
"""


def test_arena_finds_a_bot_module_in_the_current_folder(tmp_path: Path) -> None:
    """As ``python -m`` would: ``greedy:Greedy`` is greedy.py here."""
    (tmp_path / "greedy.py").write_text(GREEDY, "utf-8")
    r = completed(["arena", "greedy:Greedy", "random", "--deals", "1"], text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "Greedy − random" in r.stdout
    r = completed(["arena", "nogreedy:Greedy", "random", "--deals", "1"], text=True, cwd=tmp_path)
    assert r.returncode == 2 and "no module 'nogreedy' to load a bot from" in r.stderr


def test_generate_players_takes_one_bot_and_says_how_to_pit_two() -> None:
    code, out = _run("generate", "--players", "rule,random", "--matches", "1", "-o", "-")
    assert code == 2
    assert "one bot plays all four seats" in out and "texas42 arena rule random" in out
    code, out = _run(
        "generate", "--players", "rule", "--players", "random", "--matches", "1", "-o", "-"
    )
    assert code == 2 and "--players is given 2 times" in out
    code, out = _run("generate", "--players", "rule", "--matches", "1", "-o", "-")
    assert code == 0 and out.startswith('{"format":"texas42-log"')


def test_a_tournament_match_is_not_a_plunge_code_and_both_say_why(tmp_path: Path) -> None:
    from texas42_log.engine.rules import PRESET_DOCS

    code, out = _run("rules", "--list")
    line = next(x for x in out.splitlines() if x.startswith("tournament:"))
    assert "the plunge app's 't')" not in line and "differs in one thing" in line
    assert "differs in one thing" in PRESET_DOCS["tournament"]
    log = tmp_path / "t.jsonl"
    assert _run("generate", "--rules", "tournament", "--matches", "1", "-o", str(log))[0] == 0
    code, out = _run("convert", str(log), "--to", "plunge", "-o", "-")
    assert code == 1
    assert (
        "the nearest, plunge-t, differs in all_tricks_stacks bidder-chooses, not all-visible" in out
    )
