"""`texas42 convert`, `annotate`, `redact`, `upgrade` and the CSV export: what they
write, what they refuse, and that no command loses what the user had."""

from __future__ import annotations

import csv
import io
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from texas42_log.cli import app, atomic_write
from texas42_log.files.formats import csv_rows, read_sources
from texas42_log.files.validate import validate_doc
from texas42_log.log.model import Match
from texas42_log.log.notation import parse_text
from texas42_log.log.upgrade import STEPS, Step, UpgradeError, upgrade_doc
from texas42_log.play.generate import random_match
from texas42_log.views.redact import redact
from texas42_log.views.visibility import Moment, view_for

from .redeal import redeal_unplayed

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "fixtures"
VALID = FIX / "valid"
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def load(path: Path) -> Match:
    return Match.model_validate_json(path.read_bytes())


# -- convert ------------------------------------------------------------------------


def test_convert_json_text_json_keeps_everything(tmp_path: Path) -> None:
    src = VALID / "annotations-extensions-rejected.json"
    code, out, _ = run("convert", str(src), "-o", str(tmp_path / "m.t42"))
    assert code == 0 and "wrote" in out
    code, _, _ = run("convert", str(tmp_path / "m.t42"), "-o", str(tmp_path / "m.json"))
    assert code == 0
    assert load(tmp_path / "m.json") == load(src)
    assert json.loads((tmp_path / "m.json").read_text()) == json.loads(src.read_text())


def test_convert_joins_and_splits_json_lines(tmp_path: Path) -> None:
    inputs = sorted(str(p) for p in VALID.glob("*.json"))
    code, out, _ = run("convert", *inputs, "-o", str(tmp_path / "all.jsonl"))
    assert code == 0, out
    lines = (tmp_path / "all.jsonl").read_text().splitlines()
    assert len(lines) == len(inputs)
    code, out, _ = run("convert", str(tmp_path / "all.jsonl"), "-o", str(tmp_path / "split") + "/")
    assert code == 0
    files = sorted((tmp_path / "split").glob("*.json"))
    assert [f.name for f in files][:2] == ["all-0001.json", "all-0002.json"]
    assert [load(f) for f in files] == [load(Path(p)) for p in inputs]
    # the whole corpus as one text file and back
    code, _, _ = run("convert", str(tmp_path / "all.jsonl"), "-o", str(tmp_path / "all.t42"))
    assert code == 0
    code, _, _ = run("convert", str(tmp_path / "all.t42"), "-o", str(tmp_path / "again.jsonl"))
    assert code == 0
    assert (tmp_path / "again.jsonl").read_text() == (tmp_path / "all.jsonl").read_text()


def test_a_streamed_corpus_with_an_invalid_match_writes_nothing(tmp_path: Path) -> None:
    """JSON Lines in, JSON Lines/text/CSV out: a match at a time; the first invalid match
    stops it, the temporary output goes, and no file appears."""
    good = [json.dumps(random_match(s)) for s in range(6)]
    bad = (FIX / "invalid" / "R16-renege.json").read_text().replace("\n", " ")
    corpus = tmp_path / "c.jsonl"
    corpus.write_text("\n".join(good[:3] + [bad] + good[3:]) + "\n")
    for name in ("out.jsonl", "out.t42", "out.csv"):
        code, _, err = run("convert", str(corpus), "-o", str(tmp_path / name))
        assert code == 1 and "match 4 is invalid" in err and f"{corpus}:4:" in err
        assert sorted(p.name for p in tmp_path.iterdir()) == ["c.jsonl"]
    code, out, _ = run("convert", str(corpus), "-o", str(tmp_path / "out.t42"), "--force")
    assert code == 0 and "7 matches" in out
    assert len(parse_text((tmp_path / "out.t42").read_text())) == 7


def test_convert_refuses_an_invalid_result_unless_forced(tmp_path: Path) -> None:
    bad = FIX / "invalid" / "R16-renege.json"
    out = tmp_path / "r.t42"
    code, _, err = run("convert", str(bad), "-o", str(out))
    assert code == 1 and not out.exists()
    assert "R16" in err and "--force" in err and "Traceback" not in err
    code, _, _ = run("convert", str(bad), "-o", str(out), "--force")
    assert code == 0 and load(bad) == Match.model_validate(
        read_sources(out.read_text(), "text")[0].doc
    )


def test_convert_never_writes_over_its_input_even_forced(tmp_path: Path) -> None:
    f = tmp_path / "m.json"
    f.write_bytes((VALID / "seed-worked-example.json").read_bytes())
    before = f.read_bytes()
    for extra in ([], ["--force"]):
        code, _, err = run("convert", str(f), "-o", str(f), *extra)
        assert code == 2 and "input" in err
    assert f.read_bytes() == before


def test_convert_does_not_replace_an_existing_output_unless_forced(tmp_path: Path) -> None:
    out = tmp_path / "out.t42"
    out.write_text("mine")
    code, _, err = run("convert", str(VALID / "seed-worked-example.json"), "-o", str(out))
    assert code == 2 and "exists" in err and out.read_text() == "mine"
    code, _, _ = run("convert", str(VALID / "seed-worked-example.json"), "-o", str(out), "--force")
    assert code == 0 and out.read_text().startswith("[Format")


def test_convert_usage_errors_and_bad_input(tmp_path: Path) -> None:
    code, _, err = run(
        "convert", str(VALID / "seed-worked-example.json"), "-o", str(tmp_path / "x.xyz")
    )
    assert code == 2 and "--to" in err
    code, _, err = run(
        "convert", str(VALID / "seed-worked-example.json"), "-o", str(tmp_path / "x"), "--to", "pdf"
    )
    assert code == 2 and "choose one of" in err
    bad = tmp_path / "bad.t42"
    bad.write_text("Hand 1: dealer A\nAuction: A thirty\n")
    code, _, err = run("convert", str(bad), "-o", str(tmp_path / "bad.json"))
    assert code == 1 and f"{bad}:2:12: error format" in err and "'thirty' is not a call" in err
    assert not (tmp_path / "bad.json").exists()


def test_convert_foreign_formats_as_a_user_types_them(tmp_path: Path) -> None:
    receipt = FIX / "foreign" / "texas-42" / "verify_player.receipt"
    code, _, err = run("convert", str(receipt), "-o", str(tmp_path / "vp.json"))
    assert code == 0 and "warning import" in err and "assumed" in err
    code, _, _ = run("convert", str(tmp_path / "vp.json"), "-o", str(tmp_path / "vp.receipt"))
    assert code == 0 and (tmp_path / "vp.receipt").read_bytes() == receipt.read_bytes()
    tricksy = FIX / "foreign" / "tricksy" / "T2_forced_dealer_nello.tricksy.json"
    code, _, _ = run("convert", str(tricksy), "-o", str(tmp_path / "t2.t42"))
    assert code == 0 and "Declare: A nello" in (tmp_path / "t2.t42").read_text()
    code, _, _ = run(
        "convert",
        str(FIX / "foreign" / "plunge" / "P3_casual_plunge_partner_declares_and_leads.plunge"),
        "-o",
        str(tmp_path / "p3.json"),
    )
    assert code == 0 and load(tmp_path / "p3.json").hands[0].auction[1].special == "plunge"
    code, _, err = run(
        "convert",
        str(VALID / "annotations-extensions-rejected.json"),
        "-o",
        str(tmp_path / "a.csv"),
    )
    assert code == 0 and "csv has no room for comments; 3 comments are not in the output" in err
    code, _, err = run(
        "convert", str(VALID / "point-bids-early-end.json"), "-o", str(tmp_path / "x.receipt")
    )
    assert (
        code == 1
        and "cannot write texas-42-receipt" in err
        and not (tmp_path / "x.receipt").exists()
    )


# -- CSV ----------------------------------------------------------------------------


def test_csv_has_one_row_per_play(tmp_path: Path) -> None:
    src = VALID / "seed-worked-example.json"
    code, _, _ = run("convert", str(src), "-o", str(tmp_path / "m.csv"))
    assert code == 0
    rows = list(csv.DictReader(io.StringIO((tmp_path / "m.csv").read_text())))
    m = load(src)
    assert len(rows) == sum(1 for h in m.hands for p in h.plays if not p.rejected)
    # The columns are the ones docs/conversions.md promises, in its order (the page is
    # the format's definition; the writer is held to it, not to a copy of itself).
    page = (Path(__file__).resolve().parent.parent / "docs" / "conversions.md").read_text()
    section = page.split("## The table export (`csv`)", 1)[1].split("\n## ", 1)[0]
    promised = re.findall(r"^\| `([a-z_]+)` \|", section, re.M)
    assert len(promised) == 12 and list(rows[0]) == promised
    # the seeds' worked example: A leads [5|5] at sixes, D trumps with [6|6] for 16 points
    first = rows[:4]
    assert [r["seat"] for r in first] == ["A", "B", "C", "D"]
    assert [r["tile"] for r in first] == ["[5|5]", "[3|5]", "[0|5]", "[6|6]"]
    assert {r["led_suit"] for r in first} == {"5"} and {r["trump"] for r in first} == {"6"}
    assert {r["winner"] for r in first} == {"D"} and {r["points"] for r in first} == {"16"}


def test_csv_rows_of_a_nello_and_an_unfinished_trick() -> None:
    rows = list(
        csv_rows(
            [
                load(VALID / "variant-plunge-l-forced-bid-nello.json"),
                load(VALID / "unfinished-mid-trick.json"),
            ]
        )
    )
    nello = [
        r for r in rows if r["match"] == 1 and r["contract"] == "nello" and r["trump"] == "none"
    ]
    assert nello and all(r["led_suit"] for r in nello)
    last = [r for r in rows if r["match"] == 2][-1]
    assert last["winner"] == "" and last["points"] == ""  # the trick on the table is not decided


# -- annotate ------------------------------------------------------------------------


def test_annotate_add_list_remove_in_place_and_bulk(tmp_path: Path) -> None:
    f = tmp_path / "g.json"
    f.write_bytes((VALID / "seed-worked-example.json").read_bytes())
    code, _, _ = run(
        "annotate",
        "add",
        str(f),
        "--hand",
        "1",
        "--play",
        "3",
        "--text",
        "Lead trumps!",
        "--author",
        "coach",
    )
    assert code == 0 and load(f) == load(
        VALID / "seed-worked-example.json"
    )  # stdout only: the file is untouched
    code, _, _ = run(
        "annotate",
        "add",
        str(f),
        "--hand",
        "1",
        "--play",
        "3",
        "--text",
        "Lead trumps!",
        "--author",
        "coach",
        "-i",
    )
    assert code == 0
    play = load(f).hands[0].plays[2]
    assert play.annotations[-1].text == "Lead trumps!" and play.annotations[-1].author == "coach"
    notes = tmp_path / "notes.csv"
    notes.write_text("hand,call,declaration,text\n1,2,,bold\n1,,true,why sixes?\n")
    code, _, err = run(
        "annotate", "add", str(f), "--from", str(notes), "-o", str(tmp_path / "g2.json")
    )
    assert code == 0 and "added 2 comments" in err
    code, out, _ = run("annotate", "list", str(tmp_path / "g2.json"), "--format", "json")
    items = json.loads(out)
    assert {(i["target"], i["text"]) for i in items} >= {
        ("hand 1 call 2", "bold"),
        ("hand 1 declaration", "why sixes?"),
        ("hand 1 play 3", "Lead trumps!"),
    }
    code, _, _ = run(
        "annotate",
        "remove",
        str(tmp_path / "g2.json"),
        "--hand",
        "1",
        "--call",
        "2",
        "--index",
        "1",
        "-i",
    )
    assert code == 0
    assert all(
        i["text"] != "bold"
        for i in json.loads(run("annotate", "list", str(tmp_path / "g2.json"), "-f", "json")[1])
    )


def test_annotations_survive_every_conversion_and_appear_in_the_views(tmp_path: Path) -> None:
    f = tmp_path / "g.json"
    f.write_bytes((VALID / "seed-worked-example.json").read_bytes())
    assert (
        run(
            "annotate", "add", str(f), "--hand", "1", "--play", "3", "--text", "{tricky} note", "-i"
        )[0]
        == 0
    )
    assert run("convert", str(f), "-o", str(tmp_path / "g.t42"))[0] == 0
    assert run("convert", str(tmp_path / "g.t42"), "-o", str(tmp_path / "g.jsonl"))[0] == 0
    assert run("convert", str(tmp_path / "g.jsonl"), "-o", str(tmp_path / "back.json"))[0] == 0
    back = load(tmp_path / "back.json")
    assert back == load(f)
    view = view_for(back, "public", 0, Moment.after_play(3))
    assert any(n.text == "{tricky} note" for n in view.notes)
    code, out, _ = run("replay", str(tmp_path / "g.t42"), "--hand", "1", "--play", "3")
    assert code == 0 and "{tricky} note" in out


def test_comments_on_rejected_attempts_are_listed_and_removed_by_pointer(tmp_path: Path) -> None:
    src = VALID / "annotations-extensions-rejected.json"
    code, out, _ = run("annotate", "list", str(src), "-f", "json")
    rejected = [i for i in json.loads(out) if "rejected" in i["target"]]
    assert [i["text"] for i in rejected] == ["Below 30: refused."]
    code, _, _ = run(
        "annotate",
        "remove",
        str(src),
        "--pointer",
        rejected[0]["pointer"],
        "-o",
        str(tmp_path / "r.json"),
    )
    assert code == 0
    assert load(tmp_path / "r.json").hands[0].auction[1].annotations == ()
    assert (
        load(tmp_path / "r.json").hands[0].plays[0].annotations
        == load(src).hands[0].plays[0].annotations
    )
    code, _, err = run(
        "annotate", "remove", str(src), "--pointer", "/hands/0/plays/0/annotations/5"
    )
    assert code == 2 and "no comment at" in err


def test_annotate_usage_errors(tmp_path: Path) -> None:
    f = VALID / "seed-worked-example.json"
    assert run("annotate", "add", str(f), "--play", "3", "--text", "x")[0] == 2
    code, _, err = run("annotate", "add", str(f), "--hand", "1", "--play", "99", "--text", "x")
    assert code == 2 and "no play 99" in err
    code, _, err = run("annotate", "add", str(f), "--hand", "1")
    assert code == 2 and "--text or --from" in err
    code, _, err = run(
        "annotate", "add", str(FIX / "foreign" / "texas-42" / "no_trump.receipt"), "--text", "x"
    )
    assert code == 2 and "convert it first" in err


# -- redact -------------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(VALID.glob("*.json")), ids=lambda p: p.name)
def test_a_redacted_fixture_validates_and_shows_no_unplayed_tile(path: Path) -> None:
    m = load(path)
    r, _ = redact(m)
    assert validate_doc(r.model_dump(mode="json", by_alias=True)).valid
    for hand, orig in zip(r.hands, m.hands, strict=True):
        played = {p.tile for p in orig.plays if not p.rejected}
        if hand.deal is not None:
            shown = {t for s in "ABCD" for t in getattr(hand.deal, s) if t is not None}
            assert shown <= played
        assert [(p.seat, p.tile) for p in hand.plays] == [
            (p.seat, p.tile) for p in orig.plays if not p.rejected
        ]
        assert hand.auction == orig.auction and hand.declaration == orig.declaration


@pytest.mark.parametrize("name", ["R16-renege-proved-by-a-later-play.json", "R16-renege.json"])
def test_a_redacted_log_still_proves_a_renege_by_a_later_play(name: str) -> None:
    r, _ = redact(load(FIX / "invalid" / name))
    result = validate_doc(r.model_dump(mode="json", by_alias=True))
    assert [d.rule for d in result.errors] == ["R16"]


def test_redaction_leaks_nothing_re_dealing_the_hidden_tiles() -> None:
    """The redacted log of a match and of the match with its never-played tiles dealt
    differently are byte-identical."""
    rng = random.Random(5)
    compared = 0
    for seed in range(60):
        doc = random_match(9000 + seed)
        other = redeal_unplayed(doc, None, rng)
        if other is None:
            continue
        a, _ = redact(Match.model_validate(doc))
        b, _ = redact(Match.model_validate(other))
        assert a.model_dump_json() == b.model_dump_json()
        assert doc != other
        compared += 1
        # a player's redaction keeps that player's own tiles and hides the rest the same way
        keep = "ABCD"[seed % 4]
        other_keep = redeal_unplayed(doc, keep, rng)
        if other_keep is not None:
            a, _ = redact(Match.model_validate(doc), keep)
            b, _ = redact(Match.model_validate(other_keep), keep)
            assert a.model_dump_json() == b.model_dump_json()
    assert compared >= 40


def test_redact_command(tmp_path: Path) -> None:
    src = VALID / "annotations-extensions-rejected.json"
    code, _, err = run("redact", str(src), "--as", "public", "-o", str(tmp_path / "pub.json"))
    assert code == 0 and "1 rejected attempt" in err and "4 extension fields" in err
    text = (tmp_path / "pub.json").read_text()
    pub = load(tmp_path / "pub.json")
    assert '"x-' not in text
    # a refused bid is public and stays; a refused play would show a tile, and goes
    assert [c.rejected for c in pub.hands[0].auction] == [
        c.rejected for c in load(src).hands[0].auction
    ]
    assert not any(p.rejected for h in pub.hands for p in h.plays)
    code, out, _ = run("validate", str(tmp_path / "pub.json"))
    assert code == 0, out
    code, _, err = run("redact", str(src), "--as", "nobody")
    assert code == 2


# -- upgrade ------------------------------------------------------------------------


def test_upgrade_runs_a_synthetic_v0_to_v1_step() -> None:
    def v0_to_v1(doc: dict[str, Any]) -> dict[str, Any]:
        # v0 (synthetic): "game" instead of "format", a bare "seats" dealer letter
        out = {k: v for k, v in doc.items() if k not in ("game", "dealer")}
        return out | {"format": doc["game"], "first_dealer": doc["dealer"], "version": "1.0"}

    steps = {"0": Step("0", "1.0", v0_to_v1, "rename game → format, dealer → first_dealer")}
    current = json.loads((VALID / "seed-worked-example.json").read_text())
    v0 = {k: v for k, v in current.items() if k not in ("format", "first_dealer", "version")}
    v0 |= {"game": "texas42-log", "dealer": current["first_dealer"], "version": "0"}
    upgraded, applied = upgrade_doc(v0, steps)
    assert [s.target for s in applied] == ["1.0"]
    assert Match.model_validate(upgraded) == Match.model_validate(current)
    assert validate_doc(upgraded).valid
    # a current document needs no step; an unknown version has no chain
    assert upgrade_doc(current, steps) == (current, [])
    with pytest.raises(UpgradeError, match="no upgrade step from version '0.5'"):
        upgrade_doc(current | {"version": "0.5"}, steps)
    loop = {"0": Step("0", "0", lambda d: d | {"version": "0"}, "a broken step")}
    with pytest.raises(UpgradeError):
        upgrade_doc(v0, loop)
    assert STEPS == {}  # version 1 is the only version so far


def test_upgrade_command(tmp_path: Path) -> None:
    code, out, _ = run("upgrade", str(VALID / "seed-worked-example.json"))
    # a 1.0 log is read as it is; it is not "current" (the tool writes 1.11)
    assert code == 0 and "is version 1.0, which this tool reads as it is" in out
    assert "nothing written" in out and "current" not in out
    old = tmp_path / "old.json"
    old.write_text('{"format": "texas42-log", "version": "0.9"}')
    code, _, err = run("upgrade", str(old))
    assert code == 1 and "no upgrade step" in err


# -- nothing is lost ---------------------------------------------------------------


def test_an_interrupted_write_leaves_the_input_intact(tmp_path: Path) -> None:
    f = tmp_path / "g.json"
    f.write_bytes((VALID / "seed-worked-example.json").read_bytes())
    before = f.read_bytes()

    def chunks() -> Any:
        yield "{ half a document"
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        atomic_write(f, chunks(), replace=True)
    assert f.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]  # no temporary file left


def test_an_in_place_annotate_that_fails_while_writing_leaves_the_file_intact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    f = tmp_path / "g.json"
    f.write_bytes((VALID / "seed-worked-example.json").read_bytes())
    before = f.read_bytes()

    def disk_full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    code, _, err = run("annotate", "add", str(f), "--text", "x", "-i")
    assert code == 2 and "No space left on device" in err
    assert f.read_bytes() == before
    # no temporary file left; the writer lock's side file stays (docs/architecture.md)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".g.json.texas42-lock", "g.json"]


def test_a_killed_convert_leaves_its_input_whole_and_no_partial_output(tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl"
    corpus.write_text("".join(json.dumps(random_match(s)) + "\n" for s in range(300)))
    before = corpus.read_bytes()
    out = tmp_path / "c.t42"
    for delay in (0.3, 0.8, 1.5):
        out.unlink(missing_ok=True)
        proc = subprocess.Popen(
            [sys.executable, "-m", "texas42_log", "convert", str(corpus), "-o", str(out)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert corpus.read_bytes() == before
        # the output is whole or absent, never a prefix
        if out.exists():
            matches = [Match.model_validate(pm.doc) for pm in parse_text(out.read_text())]
            assert len(matches) == 300
    for p in tmp_path.glob(".c.t42.*.tmp"):
        p.unlink()  # what a kill -9 leaves: a temporary file beside, never the output itself


@pytest.mark.parametrize("path", sorted((FIX / "bad-input").glob("*")), ids=lambda p: p.name)
def test_convert_of_bad_input_is_one_clear_error(path: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.t42"
    code, _, err = run("convert", str(path), "-o", str(out), "--from", "json")
    assert code == 1 and not out.exists()
    assert "Traceback" not in err and "internal error" not in err
    assert str(path) in err


def test_convert_writes_standard_output() -> None:
    code, out, _ = run(
        "convert",
        str(FIX / "foreign" / "plunge" / "P2_plunge_nello_preset_forced_bid_nello.plunge"),
        "-o",
        "-",
        "--to",
        "text",
    )
    assert code == 0 and out.startswith('[Format "texas42-log"]') and "Declare: B nello" in out
    code, out, _ = run(
        "convert",
        str(VALID / "seed-worked-example.json"),
        str(VALID / "all-pass-redeal.json"),
        "-o",
        "-",
    )
    assert code == 0 and [json.loads(x)["format"] for x in out.splitlines()] == ["texas42-log"] * 2


def test_convert_reads_standard_input(tmp_path: Path) -> None:
    text = (FIX / "foreign" / "texas-42" / "no_trump.receipt").read_text()
    result = runner.invoke(app, ["convert", "-", "-o", str(tmp_path / "nt.t42")], input=text)
    assert result.exit_code == 0, result.stderr
    assert '[Source "texas-42-receipt"]' in (tmp_path / "nt.t42").read_text()


def test_upgrade_command_applies_registered_steps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    current = json.loads((VALID / "seed-worked-example.json").read_text())
    old = tmp_path / "old.jsonl"
    old.write_text(
        "".join(json.dumps(current | {"version": "0", "x-was": v}) + "\n" for v in (1, 2))
    )
    step = Step("0", "1.0", lambda d: d | {"version": "1.0"}, "synthetic: 0 becomes 1.0")
    monkeypatch.setitem(STEPS, "0", step)
    code, _, err = run("upgrade", str(old), "-o", str(tmp_path / "new.jsonl"))
    assert code == 0 and "0 → 1.0: synthetic" in err
    lines = (tmp_path / "new.jsonl").read_text().splitlines()
    assert [json.loads(x)["version"] for x in lines] == ["1.0", "1.0"]
    code, out, _ = run("validate", str(tmp_path / "new.jsonl"))
    assert code == 0, out
    assert old.read_text().count('"version": "0"') == 2  # the input is untouched


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        ("bid", "R8"),
        ("order", "R21"),
        ("winner", "R17"),
        ("score", "R5"),
        ("late-play", "R22"),
        ("declarer", "R10"),
    ],
)
def test_a_redacted_log_is_still_checked_on_public_facts(change: str, rule: str) -> None:
    """Turn order, bids, declarations, trick winners, scores and the early end need no
    hidden tile: a redacted log that breaks one is caught, with the rule's id."""
    r, _ = redact(load(VALID / "seed-worked-example.json"))
    doc = r.model_dump(mode="json", by_alias=True, exclude_defaults=True)
    hand = doc["hands"][1]  # B 30, C 31, D 35, A 39; A declares fives; four tricks
    if change == "bid":
        hand["auction"][0]["bid"] = 29
    elif change == "order":
        hand["plays"][1], hand["plays"][2] = hand["plays"][2], hand["plays"][1]
    elif change == "winner":
        hand["outcome"]["tricks"][0]["winner"] = "D"
    elif change == "score":
        hand["outcome"]["score"]["B+D"] += 1
    elif change == "late-play":
        played = {p["tile"] for h in doc["hands"][1:2] for p in h["plays"]}
        unseen = next(
            t for t in ("[0|0]", "[1|1]", "[2|2]", "[4|4]") if t not in played
        )  # one of C's hidden tiles may be it
        hand["plays"].append({"seat": "C", "tile": unseen})
    elif change == "declarer":
        hand["declaration"]["seat"] = "B"
    result = validate_doc(doc)
    assert result.errors and result.errors[0].rule == rule, [
        (d.rule, d.message) for d in result.errors
    ]
