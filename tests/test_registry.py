"""A format registered from Python (``formats.register``) is a format like ours: found
in folders, sniffed from its content, read by every command, and named in messages."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from texas42_log.cli import app
from texas42_log.files import formats
from texas42_log.files.formats import ConvertError, Format, Source, register
from texas42_log.files.reader import expand_inputs, read_matches

SAMPLE = Path(__file__).resolve().parents[1] / "fixtures" / "valid" / "seed-worked-example.json"


def _read_toy(text: str) -> list[Source]:
    head, _, body = text.partition("\n")
    if head != "TOY":
        raise ConvertError("the first line is not TOY", 1, 1)
    return [Source(1, 2, raw=body)]


@pytest.fixture
def toy() -> Iterator[Format]:
    fmt = register(
        Format(
            "toy",
            (".toy",),
            ("toy-log",),
            read=_read_toy,
            looks_like=lambda head: head.startswith("TOY\n"),
            summary="a toy wrapper around our JSON",
        )
    )
    try:
        yield fmt
    finally:
        del formats.REGISTRY["toy"]
        formats._refresh()


def test_a_registered_format_is_found_sniffed_and_read(toy: Format, tmp_path: Path) -> None:
    body = SAMPLE.read_text("utf-8")
    (tmp_path / "a.toy").write_text("TOY\n" + body, "utf-8")
    (tmp_path / "b.txt").write_text("TOY\n" + body, "utf-8")
    assert ".toy" in formats.searched_suffixes()
    assert expand_inputs([str(tmp_path)]) == [str(tmp_path / "a.toy")]
    assert formats.sniff("TOY\n" + body) == "toy" and formats.format_named("toy-log") == "toy"
    [by_name] = read_matches([str(tmp_path / "a.toy")])
    [sniffed] = read_matches([str(tmp_path / "b.txt")])
    assert (
        by_name.format == sniffed.format == "toy" and by_name.result.valid and sniffed.result.valid
    )
    r = CliRunner().invoke(app, ["validate", str(tmp_path)])
    assert r.exit_code == 0 and f"{tmp_path / 'a.toy'}: valid" in r.output


def test_a_registered_format_is_named_in_messages(toy: Format, tmp_path: Path) -> None:
    (tmp_path / "bad.toy").write_text("NOT A TOY\n{}", "utf-8")
    r = CliRunner().invoke(app, ["validate", str(tmp_path / "bad.toy")])
    assert r.exit_code == 1
    assert "bad.toy:1:1: error format: not a toy file: the first line is not TOY" in r.output
    r = CliRunner().invoke(app, ["convert", str(SAMPLE), "--from", "nonsense", "-o", "-"])
    assert r.exit_code == 2 and "toy" in r.output


def test_the_folder_search_leaves_out_what_a_shorter_ending_covers() -> None:
    found = formats.searched_suffixes()
    assert ".json" in found and ".plunge.json" not in found and ".url" not in found
    assert found == (".json", ".jsonl", ".ndjson", ".t42", ".receipt", ".plunge", ".mk5")
