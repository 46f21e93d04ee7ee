"""``texas42 render --to svg|png``: one moment as a picture, through the view model.

The picture holds what the view holds and nothing else (the leak tests compare
it too, tests/test_leaks.py); here: it is well-formed, self-contained SVG in
every language, log text is text (never markup, bidi isolated), the moment
options, the PNG path and its errors.
"""

from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from texas42_log.cli import app
from texas42_log.files.validate import read_match
from texas42_log.views.locales import catalogue
from texas42_log.views.svg import render_svg
from texas42_log.views.visibility import Moment, view_for

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "fixtures" / "valid"
SVG_NS = "{http://www.w3.org/2000/svg}"
TILE = re.compile(r"\[[0-6]\|[0-6]\]")
runner = CliRunner()


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def run(*args: str) -> tuple[int, str, str]:
    r = runner.invoke(app, list(args))
    return r.exit_code, r.stdout, r.stderr


def texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return ["".join(t.itertext()) for t in root.iter(SVG_NS + "text")]


@pytest.mark.parametrize("lang", ["en", "tr", "uk"])
def test_a_moment_as_svg_in_each_language(lang: str, tmp_path: Path) -> None:
    out = tmp_path / "m.svg"
    code, _, err = run(
        "render",
        "fixtures/valid/seed-worked-example.json",
        "--to",
        "svg",
        "--play",
        "4",
        "--lang",
        lang,
        "-o",
        str(out),
    )
    assert code == 0, err
    svg = out.read_text("utf-8")
    root = ET.fromstring(svg)  # well-formed
    assert root.tag == SVG_NS + "svg"
    assert (
        not root.findall(".//" + SVG_NS + "script")
        and "href" not in svg
        and "<foreignObject" not in svg
    )
    m = catalogue(lang)
    words = texts(svg)
    # The seeds' view 2: D's [6|6] wins trick 1 for B+D, 16 hand points.
    assert m["trick.won"].format(number=1, seat="D", points=16) in words
    assert m["ui.won_label"].format(number=1, team="B + D") in words
    assert m["ui.legend"] in words
    played = [t.text for t in root.iter(SVG_NS + "title") if t.text and TILE.fullmatch(t.text)]
    assert sorted(played) == sorted(
        ["[0|5]", "[3|5]", "[5|5]", "[6|6]"] * 2
    )  # on the table, and in the won trick
    # The same bytes from the same view (deterministic), and from the library call.
    v = view_for(
        read_match((FIX / "seed-worked-example.json").read_bytes()),
        "public",
        0,
        Moment.after_play(4),
    )
    assert svg == render_svg(v, lang)


def test_a_seat_sees_its_own_tiles_and_only_them(tmp_path: Path) -> None:
    out = tmp_path / "b.svg"
    assert (
        run(
            "render",
            "fixtures/valid/seed-worked-example.json",
            "--to",
            "svg",
            "--as",
            "B",
            "--play",
            "2",
            "-o",
            str(out),
        )[0]
        == 0
    )
    doc = json.loads((FIX / "seed-worked-example.json").read_text("utf-8"))
    b_hand = set(doc["hands"][0]["deal"]["B"])
    root = ET.fromstring(out.read_text("utf-8"))
    shown = {t.text for t in root.iter(SVG_NS + "title") if t.text and TILE.fullmatch(t.text)}
    assert shown == (b_hand - {"[3|5]"}) | {
        "[5|5]",
        "[3|5]",
    }  # B's six left, and the two on the table


def test_the_default_moment_is_the_hand_as_it_ended_and_the_suffix_chooses_svg(
    tmp_path: Path,
) -> None:
    out = tmp_path / "end.svg"
    code, said, err = run(
        "render", "fixtures/valid/seed-example-views.json", "-n", "2", "-o", str(out)
    )
    assert code == 0 and "(hand 2, view: public" in said + err
    title = ET.fromstring(out.read_text("utf-8")).find(SVG_NS + "title")
    assert title is not None and title.text is not None and "Hand 2 · end of the hand" in title.text
    out3 = tmp_path / "t3.svg"
    assert (
        run(
            "render",
            "fixtures/valid/seed-example-views.json",
            "-n",
            "2",
            "--trick",
            "3",
            "-o",
            str(out3),
        )[0]
        == 0
    )
    words = texts(out3.read_text("utf-8"))
    assert "Trick 3 · A + C" in words and "Hand 2 · after trick 3 · spectator" in out3.read_text(
        "utf-8"
    )


def test_names_are_text_never_markup_and_isolated(tmp_path: Path) -> None:
    doc = json.loads((FIX / "seed-worked-example.json").read_text("utf-8"))
    doc["players"] = {
        "A": "</text><script>alert(1)</script>",
        "B": "\u202e[6|6] evil",
        "C": "\x1b[31mred",
        "D": '&amp; "q" <b>',
    }
    src = tmp_path / "names.json"
    src.write_text(json.dumps(doc), "utf-8")
    out = tmp_path / "n.svg"
    assert run("render", str(src), "--to", "svg", "--play", "1", "-o", str(out))[0] == 0
    svg = out.read_text("utf-8")
    root = ET.fromstring(svg)
    assert not root.findall(".//" + SVG_NS + "script") and "<b>" not in svg and "\x1b" not in svg
    spans = ["".join(s.itertext()) for s in root.iter(SVG_NS + "tspan")]
    # Shown as text (a long name shortened on the board), never as markup.
    assert any(s.startswith("</text><script>alert(1)") for s in spans) and '&amp; "q" <b>' in spans
    assert any(s.startswith("\u202e") or "U+202E" in s or "\\u202e" in s for s in spans)
    assert all(
        "unicode-bidi:isolate" in (s.get("style") or "") for s in root.iter(SVG_NS + "tspan")
    )


def test_moment_options_are_checked(tmp_path: Path) -> None:
    log = "fixtures/valid/seed-worked-example.json"
    code, _, err = run("render", log, "--play", "3", "-o", str(tmp_path / "p.html"))
    assert code == 2 and "picture" in err and not (tmp_path / "p.html").exists()
    code, _, err = run(
        "render", log, "--to", "svg", "--play", "3", "--trick", "1", "-o", str(tmp_path / "x.svg")
    )
    assert code == 2 and "not both" in err
    code, _, err = run("render", log, "--to", "svg", "-n", "99", "-o", str(tmp_path / "x.svg"))
    assert code == 2 and "--hand 99" in err
    code, _, err = run("render", log, "--to", "svg", "--play", "9", "-o", str(tmp_path / "x.svg"))
    assert code == 2 and "there is no play 9" in err
    assert not (tmp_path / "x.svg").exists()


def test_png_through_the_converter_this_machine_has(tmp_path: Path) -> None:
    """CI installs rsvg-convert (tools/install-chromium.sh): the PNG path runs for real."""
    if shutil.which("rsvg-convert") is None:
        pytest.fail(
            "rsvg-convert is missing: run `bash tools/install-chromium.sh` (Debian's librsvg2-bin)"
        )
    out = tmp_path / "m.png"
    code, _, err = run(
        "render", "fixtures/valid/seed-worked-example.json", "--play", "4", "-o", str(out)
    )
    assert code == 0, err
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (1440, 1140)  # the 960×760 board at 1.5×


def test_png_without_a_converter_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(shutil, "which", lambda name, *a, **k: None)
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "cairosvg" else real(name, *a)
    )
    code, _, err = run(
        "render",
        "fixtures/valid/seed-worked-example.json",
        "--to",
        "png",
        "-o",
        str(tmp_path / "m.png"),
    )
    assert code == 2 and "rsvg-convert" in err and "cairosvg" in err
    assert not (tmp_path / "m.png").exists()
