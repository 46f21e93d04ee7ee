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
    from texas42_log.engine.presets import PRESET_DOCS

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


def test_plunge_records_keep_the_names_they_can_say_what_changed_and_read_back(
    tmp_path: Path,
) -> None:
    """A record's person (seat 0, A) has no name and a computer's ``player`` is an id of
    ``[A-Za-z0-9_.:-]``: a name that is one is kept, another is written as near as the app
    allows, and each change is a note; reading the records back names the players."""
    import json

    from texas42_log.files.validate import read_match
    from texas42_log.log.foreign.plunge import read_records, write_records

    code, out = _run("generate", "-n", "1", "--seed", "5", "--rules", "plunge-t", "-o", "-")
    assert code == 0
    doc = json.loads(out)
    doc["players"] = {"A": "Ana", "B": "Çağla", "C": "Cleo O'Neil/2", "D": "easy\x1b[31m"}
    src = tmp_path / "named.json"
    src.write_text(json.dumps(doc), encoding="utf-8")
    dst = tmp_path / "named.plunge.jsonl"
    code, out = _run("convert", str(src), "-o", str(dst))
    assert code == 0, out
    assert "seat A is written as the person and B, C and D as computers" in out
    assert "seat A's name 'Ana' is not kept: the record's person has no name" in out
    assert "seat B's name 'Çağla' is written 'Cagla'" in out
    assert "seat C's name \"Cleo O'Neil/2\" is written 'Cleo-O-Neil-2'" in out
    assert "seat D's name 'easy\\x1b[31m' is written 'easy-31m'" in out  # shown escaped
    assert "\x1b" not in out
    back = read_match(json.dumps(read_records(dst.read_text(encoding="utf-8")).doc))
    assert back.players is not None
    assert back.players.model_dump() == {
        "A": None,
        "B": "Cagla",
        "C": "Cleo-O-Neil-2",
        "D": "easy-31m",
    }
    # A name that is already an id is kept as it is, and nothing is said of it.
    doc["players"] = {"B": "easy", "C": "-x-", "D": None}
    match = read_match(json.dumps(doc))
    again = read_match(json.dumps(read_records(write_records(match)).doc))
    assert again.players is not None
    assert again.players.model_dump() == {"A": None, "B": "easy", "C": "-x-", "D": None}
    from texas42_log.files.formats import write_losses

    assert write_losses([match], "plunge-hand-v2") == [
        "a plunge record has the person at the app in seat 0 and computers in the others, "
        "so seat A is written as the person and B, C and D as computers"
    ]
    # A record read back is written back as it was, and loses nothing.
    assert write_losses([again], "plunge-hand-v2") == []


def test_every_match_made_under_tricksy_is_writable_as_tricksy(tmp_path: Path) -> None:
    """tricksy always deals first from seat 0 (A), and its every mark bid names its
    contract: a match made under the preset starts at A, and an outbid mark bid our log
    keeps plain is written naming a contract tricksy allows it, said in a note."""
    made = tmp_path / "made.jsonl"
    code, out = _run("generate", "-n", "20", "--seed", "1", "--rules", "tricksy", "-o", str(made))
    assert code == 0, out
    assert all('"first_dealer":"A"' in line.replace(" ", "") for line in made.open())
    written = tmp_path / "made.tricksy.jsonl"
    code, out = _run("convert", str(made), "-o", str(written), "--verify")
    assert code == 0, out
    assert "wrote" in out and "(20 matches, tricksy)" in out
    assert (
        "1-mark bid, outbid, names no contract, and a tricksy bid names one: it is written as nello"
        in out
    )
    code, out = _run("validate", str(written), "-q")
    assert code == 0, out
