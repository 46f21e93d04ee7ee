"""Trumps, suits, following and ranks: R12–R19, with the seeds' own example."""

from __future__ import annotations

import pytest

from texas42_log.engine.tiles import TILES, Tile
from texas42_log.engine.trumps import (
    TRUMP_SUIT,
    Trump,
    follows,
    is_trump,
    led_suit,
    rank,
    trick_winner_index,
)

T = Tile.parse


def test_twelve_nine_trump_choices() -> None:  # R12
    assert [t.value for t in Trump] == ["0", "1", "2", "3", "4", "5", "6", "doubles", "no-trump"]


def test_r13_trump_belongs_to_the_trump_suit_only() -> None:
    # Seed: with sixes trump, [5|6] is a trump and does not follow fives.
    assert is_trump(T("[5|6]"), Trump.SIXES)
    assert not follows(T("[5|6]"), 5, Trump.SIXES)
    assert follows(T("[5|6]"), TRUMP_SUIT, Trump.SIXES)
    # Doubles trump: the doubles, and only they.
    assert {t for t in TILES if is_trump(t, Trump.DOUBLES)} == {t for t in TILES if t.is_double}
    assert not follows(T("[3|3]"), 3, Trump.DOUBLES)
    # No-trump: nothing is a trump.
    assert not any(is_trump(t, Trump.NO_TRUMP) for t in TILES)


def test_r14_led_suit() -> None:
    assert led_suit(T("[2|5]"), Trump.SIXES) == 5  # the higher number
    assert led_suit(T("[3|3]"), Trump.SIXES) == 3  # a double leads its own number
    assert led_suit(T("[2|6]"), Trump.SIXES) == TRUMP_SUIT  # a trump lead leads trumps
    assert led_suit(T("[4|4]"), Trump.DOUBLES) == TRUMP_SUIT
    assert led_suit(T("[4|4]"), Trump.NO_TRUMP) == 4


def test_r15_following() -> None:
    assert follows(T("[2|5]"), 2, Trump.SIXES)  # either half
    assert follows(T("[2|5]"), 5, Trump.SIXES)
    assert not follows(T("[2|5]"), TRUMP_SUIT, Trump.SIXES)  # only trumps follow trumps
    assert not follows(T("[2|6]"), 2, Trump.SIXES)  # a trump follows no number


def test_r18_rank_in_a_suit() -> None:
    assert rank(T("[5|5]"), 5, Trump.SIXES) > rank(T("[4|5]"), 5, Trump.SIXES)  # double highest
    assert rank(T("[4|5]"), 5, Trump.SIXES) > rank(T("[3|5]"), 5, Trump.SIXES)  # by other half
    assert rank(T("[6|6]"), TRUMP_SUIT, Trump.SIXES) > rank(T("[5|6]"), TRUMP_SUIT, Trump.SIXES)
    assert rank(T("[0|6]"), TRUMP_SUIT, Trump.SIXES) < rank(T("[1|6]"), TRUMP_SUIT, Trump.SIXES)
    assert rank(T("[2|3]"), 5, Trump.SIXES) == -1  # not in the suit


def test_r19_doubles_trump_rank_by_pips() -> None:
    order = sorted(
        (t for t in TILES if t.is_double), key=lambda t: rank(t, TRUMP_SUIT, Trump.DOUBLES)
    )
    assert [str(t) for t in order] == [f"[{n}|{n}]" for n in range(7)]


def test_r12_no_trump_doubles_are_high() -> None:
    assert rank(T("[4|4]"), 4, Trump.NO_TRUMP) > rank(T("[4|6]"), 4, Trump.NO_TRUMP)


def test_r17_seed_example_trump_wins() -> None:
    # A [5|5], B [3|5], C [0|5], D [6|6]; sixes trump: D's trump wins.
    tiles = [T("[5|5]"), T("[3|5]"), T("[0|5]"), T("[6|6]")]
    assert trick_winner_index(tiles, Trump.SIXES) == 3


def test_r17_highest_of_led_suit_when_no_trump_played() -> None:
    tiles = [T("[3|5]"), T("[5|5]"), T("[1|2]"), T("[4|5]")]
    assert trick_winner_index(tiles, Trump.SIXES) == 1
    # An off-suit higher tile does not win.
    tiles = [T("[0|1]"), T("[4|4]"), T("[1|1]"), T("[2|3]")]
    assert trick_winner_index(tiles, Trump.SIXES) == 2


@pytest.mark.parametrize(
    ("tiles", "trump", "winner"),
    [
        (["[1|3]", "[0|6]", "[3|6]", "[3|3]"], Trump.SIXES, 2),  # highest trump, not the double 3
        (["[2|2]", "[0|0]", "[2|6]", "[1|1]"], Trump.DOUBLES, 0),  # pips: [2|2] over [1|1], [0|0]
        (["[3|4]", "[4|4]", "[4|6]", "[3|3]"], Trump.NO_TRUMP, 1),  # fours led, double high
    ],
)
def test_trick_winners(tiles: list[str], trump: Trump, winner: int) -> None:
    assert trick_winner_index([T(x) for x in tiles], trump) == winner


def test_precomputed_win_keys_pick_the_same_winner_as_r17() -> None:
    """The replay's WIN_KEYS tables and trick_winner_index agree on every suit system."""
    import random

    from texas42_log.engine.trumps import TABLES, WIN_KEYS

    rng = random.Random(42)
    for (trump, mode), table in TABLES.items():
        for _ in range(300):
            tiles = rng.sample(TILES, 4)
            suit = table[tiles[0]].leads
            keys = WIN_KEYS[(trump, mode)][suit]
            best = max(range(4), key=lambda i: (keys.get(tiles[i], -1), -i))
            assert best == trick_winner_index(tiles, trump, table), (trump, mode, tiles)
