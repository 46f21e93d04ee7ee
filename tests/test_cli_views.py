"""``texas42 replay`` and ``texas42 render``: every fixture, observer and language;
exact exit codes (0 ok, 1 invalid log, 2 usage); nothing overwritten unasked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion
from typer.testing import CliRunner

from texas42_log.cli import app

ROOT = Path(__file__).resolve().parent.parent
VALID = sorted(p.name for p in (ROOT / "fixtures" / "valid").glob("*.json"))
OBSERVERS = ["A", "B", "C", "D", "public", "review", "omniscient"]
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    r = runner.invoke(app, list(args))
    return r.exit_code, r.stdout, r.stderr


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


@pytest.mark.parametrize("lang", ["en", "tr", "uk"])
@pytest.mark.parametrize("observer", OBSERVERS)
@pytest.mark.parametrize("fixture", VALID)
def test_replay_and_render_every_fixture(
    fixture: str, observer: str, lang: str, tmp_path: Path
) -> None:
    path = f"fixtures/valid/{fixture}"
    if observer == "review" and fixture.startswith("unfinished"):
        # R29: no review of a hand still being played; the finished hands review as usual,
        # and the page says which hand it leaves out and why.
        code, out, err = run(
            "render", path, "--as", observer, "--lang", lang, "-o", str(tmp_path / "p.html")
        )
        assert code == 0 and "hand 3 is still being played" in out + err, err
        data = _page_data_of((tmp_path / "p.html").read_text("utf-8"))
        assert [h["number"] for h in data["hands"]] == [1, 2]  # type: ignore[union-attr]
        assert (
            data["in_play"]
            == {
                "en": "Hand 3 is still being played: a review shows a hand once it has ended "
                "(R29).",
                "tr": "Oyun eli 3 hâlâ oynanıyor: inceleme bir oyun elini ancak bittikten sonra "
                "gösterir (R29).",
                "uk": "Раунд 3 ще триває: огляд показує раунд лише після його завершення (R29).",
            }[lang]
        )
        code, out, err = run("replay", path, "--as", observer, "--lang", lang, "--hand", "3")
        assert code == 2 and "still being played" in err
        code, out, err = run("replay", path, "--as", observer, "--lang", lang)
        assert code == 0 and out.startswith(
            {"en": "Hand 1 · ", "tr": "Oyun eli 1 · ", "uk": "Раунд 1 · "}[lang]
        )
        return
    code, out, err = run("replay", path, "--as", observer, "--lang", lang)
    assert code == 0, err
    assert out.startswith({"en": "Hand 1 · ", "tr": "Oyun eli 1 · ", "uk": "Раунд 1 · "}[lang])
    code, out, err = run(
        "render", path, "--as", observer, "--lang", lang, "-o", str(tmp_path / "p.html")
    )
    assert code == 0, err
    page = (tmp_path / "p.html").read_text("utf-8")
    assert page.startswith("<!DOCTYPE html>") and f'<html lang="{lang}">' in page


def _page_data_of(page: str) -> dict[str, object]:
    start = page.index('<script type="application/json" id="t42-data">') + len(
        '<script type="application/json" id="t42-data">'
    )
    data: dict[str, object] = json.loads(page[start : page.index("</script>", start)])
    return data


def test_a_review_of_a_match_whose_first_hand_is_being_played_is_refused(tmp_path: Path) -> None:
    doc = json.loads((ROOT / "fixtures" / "valid" / "unfinished-mid-trick.json").read_text("utf-8"))
    doc["hands"] = doc["hands"][2:]
    doc["first_dealer"] = doc["hands"][0]["dealer"]
    log = tmp_path / "one.json"
    log.write_text(json.dumps(doc), "utf-8")
    code, _, err = run("render", str(log), "--as", "review", "-o", str(tmp_path / "p.html"))
    assert code == 2 and "no hand has ended yet" in err and not (tmp_path / "p.html").exists()


def test_replay_one_moment_text(snapshot: SnapshotAssertion) -> None:
    code, out, _ = run(
        "replay", "fixtures/valid/seed-worked-example.json", "--play", "2", "--as", "A"
    )
    assert code == 0
    # Reviewed: the seeds' first example view, plus A's own six tiles.
    assert out == snapshot


def test_replay_whole_hand_trick_by_trick(snapshot: SnapshotAssertion) -> None:
    code, out, _ = run(
        "replay", "fixtures/valid/seed-example-views.json", "--hand", "3", "--lang", "uk"
    )
    assert code == 0
    blocks = out.strip().split("\n\n")
    # The auction, the declaration, then each trick as its last tile is played.
    assert blocks[0].startswith("Раунд 3 · після торгів")
    assert blocks[1].startswith("Раунд 3 · після оголошення козиря")
    assert blocks[2].startswith("Раунд 3 · після ходу 4 (взятка 1)")
    assert out == snapshot


def test_replay_json_trick(snapshot: SnapshotAssertion) -> None:
    code, out, _ = run(
        "replay",
        "fixtures/valid/seed-example-views.json",
        "--hand",
        "3",
        "--trick",
        "3",
        "-f",
        "json",
    )
    assert code == 0
    doc = json.loads(out)
    assert [w["faces"] is None for w in doc["won"]] == [True, False, False]
    assert doc["description"].endswith("3 (A+C) [0|4], [1|4], [3|4], [4|4].")
    assert out == snapshot


def test_replay_of_a_broken_log_is_shown_flagged_and_exit_1() -> None:
    code, out, err = run("replay", "fixtures/invalid/R16-renege.json")
    assert code == 1
    assert out.startswith("Hand 1 · ")  # hand 1 is legal: shown as usual
    assert (
        "breaks a rule (R16) at play" in err and "error R16" not in err
    )  # flagged, no diagnostic text


@pytest.mark.parametrize(
    "args,message",
    [
        (["--trick", "1", "--play", "1"], "give --trick or --play, not both"),
        (
            ["--as", "north"],
            "--as 'north': not a seat (A, B, C, D), a role (public, review, omniscient) or a "
            "player",
        ),
        (["--lang", "fr"], "--lang: no messages for 'fr'; choose one of en, tr, uk"),
        (["--hand", "99"], "--hand 99: fixtures/valid/seed-worked-example.json has 11 hands"),
        (["--play", "9"], "hand 1 has 4 plays; there is no play 9"),
        (["--trick", "2"], "hand 1 has 1 complete trick; there is no trick 2"),
    ],
)
def test_replay_usage_errors_are_exit_2(args: list[str], message: str) -> None:
    code, out, err = run("replay", "fixtures/valid/seed-worked-example.json", *args)
    assert code == 2, out
    assert message in err
    assert "Traceback" not in err


def test_replay_missing_file_is_exit_2() -> None:
    code, _, err = run("replay", "no/such/log.json")
    assert code == 2 and "no such file" in err


def test_render_refuses_to_overwrite_unless_forced(tmp_path: Path) -> None:
    out = tmp_path / "page.html"
    out.write_text("keep me", "utf-8")
    code, _, err = run("render", "fixtures/valid/seed-worked-example.json", "-o", str(out))
    assert code == 2 and "exists; pass --force" in err
    assert out.read_text("utf-8") == "keep me"
    code, stdout, _ = run(
        "render", "fixtures/valid/seed-worked-example.json", "-o", str(out), "--force"
    )
    assert code == 0 and "wrote" in stdout
    assert out.read_text("utf-8").startswith("<!DOCTYPE html>")


def test_render_refuses_a_name_that_says_no_kind_it_writes(tmp_path: Path) -> None:
    """README: an output's format follows its name, and a name that says none is refused."""
    log = "fixtures/valid/seed-worked-example.json"
    for name in ("x.txt", "page"):
        out = tmp_path / name
        code, _, err = run("render", log, "-o", str(out))
        assert code == 2 and f"{name} names no kind of output render writes" in err
        assert not out.exists()
    out = tmp_path / "x.txt"
    code, _, _ = run("render", log, "-o", str(out), "--to", "html")
    assert code == 0 and out.read_text("utf-8").startswith("<!DOCTYPE html>")
    code, _, _ = run("render", log, "-o", str(tmp_path / "p.HTM"))
    assert code == 0


def test_render_never_writes_over_its_input(tmp_path: Path) -> None:
    log = tmp_path / "log.json"
    data = (ROOT / "fixtures/valid/seed-worked-example.json").read_bytes()
    log.write_bytes(data)
    code, _, err = run("render", str(log), "-o", str(log), "--force", "--to", "html")
    assert code == 2 and "is the input log" in err
    assert log.read_bytes() == data


def test_render_into_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    code, _, err = run(
        "render", "fixtures/valid/seed-worked-example.json", "-o", str(tmp_path / "no" / "p.html")
    )
    assert code == 2 and "cannot be written" in err


def test_render_of_a_log_that_is_not_a_match_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "p.html"
    code, _, err = run("render", "fixtures/bad-input/not-utf8.json", "-o", str(out))
    assert code == 1 and "error encoding" in err
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []  # no temporary file left behind either


def test_render_of_a_broken_log_writes_the_page_flagged_and_exit_1(tmp_path: Path) -> None:
    out = tmp_path / "p.html"
    code, _, err = run("render", "fixtures/invalid/R16-renege.json", "-o", str(out))
    assert code == 1 and "breaks a rule (R16)" in err
    assert "breaks a rule (R16)" in out.read_text("utf-8")


def test_render_is_deterministic(tmp_path: Path) -> None:
    a, b = tmp_path / "a.html", tmp_path / "b.html"
    for out in (a, b):
        assert (
            run("render", "fixtures/valid/random-seed-11.json", "--as", "C", "-o", str(out))[0] == 0
        )
    assert a.read_bytes() == b.read_bytes()
