"""The one output policy (texas42_log/files/destination.py): what every command keeps
for its output, said in the files layer and only printed by the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from texas42_log.files.destination import Destination, OutputRefused, output_kind


def test_an_output_that_is_an_input_a_folder_or_there_already_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "game.json"
    log.write_text("{}")
    with pytest.raises(OutputRefused, match="is the input log; a command never writes over"):
        Destination(log, (str(log),), replace=True).check()
    with pytest.raises(OutputRefused, match="is a directory; -o names the file to write"):
        Destination(tmp_path).check()
    with pytest.raises(OutputRefused, match="exists; pass --force to replace it"):
        Destination(log).check()
    Destination(log, ("other.json",), replace=True).check()  # --force: allowed
    with pytest.raises(OutputRefused, match="names a folder for one file per match"):
        Destination(log).check_folder()
    assert output_kind(log) == "file" and output_kind(tmp_path) == "folder"
    assert output_kind(tmp_path / "none") is None
    with pytest.raises(OutputRefused, match="a name on its way is a file, not a folder"):
        output_kind(log / "x.json")


def test_a_write_is_whole_and_never_replaces_unasked(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    Destination(out).write(["a", "b"])
    assert out.read_text() == "ab"
    with pytest.raises(OutputRefused, match="exists .*pass --force to replace it"):
        Destination(out).write("c")
    assert out.read_text() == "ab"
    Destination(out, replace=True).write("c")
    assert out.read_text() == "c"
    folder = tmp_path / "split"
    Destination(folder).write_folder([("1.json", "{}"), ("2.json", "[]")])
    assert sorted(p.name for p in folder.iterdir()) == ["1.json", "2.json"]
    with pytest.raises(OutputRefused, match="exists"):
        Destination(folder).write_folder([("1.json", "{}")])
