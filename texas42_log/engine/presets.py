"""The named presets: bundles of rule options a log names instead of spelling each one.

``standard`` is the seed rules, docs/rules.md R1–R31; ``tournament`` and ``casual`` are
the common bundles (as the ``plunge`` app's presets ``t`` and ``c`` implement them); the
others are the rule profiles of the three foreign programs of docs/conversions.md, so
that their games import without inventing rules. Each is one :class:`Preset` of
:data:`PRESET_LIST`; the tables by name and the format's preset names follow from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .rules import STANDARD, Rules
from .seats import Seat

__all__ = [
    "Preset",
    "PRESET_LIST",
    "PRESETS",
    "PRESET_DOCS",
    "PRESET_FIRST_DEALER",
    "find_preset",
]

_TOURNAMENT = STANDARD
_CASUAL = STANDARD.with_options(
    nello=True,
    nello_min_marks=1,
    nello_doubles="own-suit",
    plunge=True,
    splash=True,
    all_tricks_stacks="all-visible",
)
_FORCED = STANDARD.with_options(all_pass="dealer-must-bid", all_tricks_stacks="all-visible")

#: The mk5 app's base rules (docs/conversions.md): its layers are the options nello,
#: plunge, splash and sevens, each off here and turned on by the log.
_MK5 = STANDARD.with_options(
    max_mark_bid=4,
    all_tricks_stacks="all-visible",
    nello_min_marks=1,
    nello_doubles="own-suit",
    special_bids="aside",
    special_no_trump=True,
    sevens_min_marks=1,
    sevens_play="closest",
)


@dataclass(frozen=True, slots=True)
class Preset:
    """A named bundle of options: its rules, what it is in a sentence, the format version
    that brought its name, and the seat its program always deals the first hand from (its
    logs hold no draw for the first dealer, R4), if any."""

    name: str
    rules: Rules
    doc: str
    since: str = "1.1"
    first_dealer: Seat | None = None


#: The presets, in the order the format brought them.
PRESET_LIST: Final = (
    Preset("standard", STANDARD, "The seed rules, docs/rules.md R1–R31.", since="1.0"),
    Preset(
        "tournament",
        _TOURNAMENT,
        "Straight 42 as tournaments play it (N42PA): the seed rules, no special "
        "contracts. The plunge app's 't' (plunge-t) differs in one thing: every won trick of an "
        "all-tricks contract is visible, where here the bidder chooses the stacks, so a "
        "tournament match is not a plunge code.",
    ),
    Preset(
        "casual",
        _CASUAL,
        "A common home table (the plunge app's 'c'): Nel-O from 1 mark with doubles a suit "
        "of their own, Plunge (4 marks, jump) and Splash (2–3 marks), all stacks visible.",
    ),
    Preset(
        "texas-42",
        STANDARD.with_options(hand_end="all-tricks"),
        "The texas-42 research engine's receipts: the seed rules, every hand played to 7 tricks.",
    ),
    Preset(
        "plunge-t",
        STANDARD.with_options(all_tricks_stacks="all-visible"),
        "The plunge app's 't' preset: straight 42, no stacks recorded (all visible).",
    ),
    Preset(
        "plunge-f",
        _FORCED,
        "The plunge app's 'f' preset: 't' with the dealer forced to bid after three passes.",
    ),
    Preset(
        "plunge-l",
        _FORCED.with_options(nello=True, nello_min_marks=1, nello_doubles="own-suit"),
        "The plunge app's 'l' preset: 'f' with Nel-O from 1 mark, doubles their own suit.",
    ),
    Preset("plunge-c", _CASUAL, "The plunge app's 'c' preset (its default): the same as casual."),
    Preset(
        "tricksy",
        STANDARD.with_options(
            all_pass="dealer-must-bid",
            max_point_bid=42,
            mark_ladder="free",
            max_opening_mark_bid=7,
            max_mark_bid=7,
            plain_mark_bids=False,
            no_trump=False,
            doubles_trump=False,
            hand_end="all-tricks",
            all_tricks_stacks="all-visible",
            nello=True,
            nello_min_marks=1,
            nello_doubles="own-suit",
            plunge=True,
            plunge_min_doubles=4,
            plunge_marks=4,
            sevens=True,
            sevens_min_marks=1,
        ),
        "The tricksy engine's defaults: the dealer must bid, points 30–42, mark bids only "
        "for Nel-O, Plunge and Sevens with free jumps, no no-trump, all 7 tricks played; seat A "
        "deals first.",
        first_dealer="A",
    ),
    Preset(
        "mk5",
        _MK5,
        "The mk5 web app's rules: mark bids up to 4, every stack visible; its layers as the "
        "options nello (from 1 mark, doubles their own suit), plunge and splash (bid aside: "
        "special_bids), sevens (the closest tile to 7 must be played), all off until a log sets "
        "them.",
        since="1.5",
    ),
)

#: The presets' rules by name.
PRESETS: Final[dict[str, Rules]] = {p.name: p.rules for p in PRESET_LIST}
#: What each preset is, in a sentence.
PRESET_DOCS: Final[dict[str, str]] = {p.name: p.doc for p in PRESET_LIST}
#: The seat a preset's program always deals the first hand from: a match made under the
#: preset starts there, so that the program can hold it.
PRESET_FIRST_DEALER: Final[dict[str, Seat]] = {
    p.name: p.first_dealer for p in PRESET_LIST if p.first_dealer is not None
}


def find_preset(name: str) -> Rules:
    """The preset called ``name``; ``ValueError`` listing the known ones otherwise."""
    try:
        return PRESETS[name]
    except KeyError:
        known = ", ".join(sorted(PRESETS))
        raise ValueError(f"unknown rules preset {name!r}; known presets: {known}") from None
