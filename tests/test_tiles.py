"""R2 (the set) and R6 (count values)."""

from __future__ import annotations

import pytest

from texas42_log.engine.count import STANDARD_COUNT
from texas42_log.engine.tiles import TILE_BY_NAME, TILES, Tile, count_value, tile


def test_the_set_has_28_distinct_tiles_halves_0_to_6() -> None:  # R2
    assert len(TILES) == 28
    assert len(set(TILES)) == 28
    assert all(0 <= t.low <= t.high <= 6 for t in TILES)
    assert str(TILES[0]) == "[0|0]" and str(TILES[-1]) == "[6|6]"


@pytest.mark.parametrize("text", ["[0|5]", "0|5", "5-0", "0-5", "50", "05", " [ 5 | 0 ] ", "5:0"])
def test_parse_accepts_common_spellings(text: str) -> None:
    assert Tile.parse(text) == tile(0, 5)
    assert str(Tile.parse(text)) == "[0|5]"


@pytest.mark.parametrize("text", ["[7|1]", "5", "", "five-blank", "[0|5|6]", "99", "[0|5", "0|5]"])
def test_parse_rejects_what_is_not_a_tile(text: str) -> None:
    with pytest.raises(ValueError, match="R2"):
        Tile.parse(text)


def test_tile_constructor_checks_the_set() -> None:
    with pytest.raises(ValueError, match="R2"):
        Tile(5, 0)  # canonical order is low, high


def test_canonical_names_round_trip() -> None:
    for t in TILES:
        assert TILE_BY_NAME[str(t)] is t
        assert Tile.parse(str(t)) is t


def test_count_values_r6() -> None:
    assert count_value(tile(0, 5)) == 5
    assert count_value(tile(1, 4)) == 5
    assert count_value(tile(2, 3)) == 5
    assert count_value(tile(4, 6)) == 10
    assert count_value(tile(5, 5)) == 10
    assert count_value(tile(6, 6)) == 0
    # 35 count points + 7 tricks = 42 (R6)
    assert sum(count_value(t) for t in TILES) == 35
    assert STANDARD_COUNT.total == 42


def test_tiles_sort_as_the_seeds_list_them() -> None:  # R28: won faces listed sorted
    faces = sorted(Tile.parse(x) for x in ["[6|6]", "[5|5]", "[0|5]", "[3|5]"])
    assert [str(t) for t in faces] == ["[0|5]", "[3|5]", "[5|5]", "[6|6]"]
