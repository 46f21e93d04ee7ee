"""The rule options a log is played under, and the registry of named presets.

A log names a preset and spells out every option (the format requires it, so
a reader never has to guess); the effective rules are the options as written.
The engine reads options only through :class:`Rules` — no ``if preset == …``
anywhere else (python-chess ``VARIANTS`` / ``find_variant``).

Format 1.0 knows the options of the seed rules (RULES.md R1–R31). Options with
one allowed value today are still written out, so that variants (other values)
can be added by a minor version without breaking a file.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Final, Literal

__all__ = ["Rules", "OPTION_DOCS", "PRESETS", "find_preset", "STANDARD"]


@dataclass(frozen=True, slots=True)
class Rules:
    """Effective rule options. Defaults are the seed rules (preset ``standard``)."""

    #: R11: what happens when all four pass.
    all_pass: Literal["redeal"] = "redeal"
    #: R22: a hand ends as soon as the contract is decided.
    hand_end: Literal["when-decided"] = "when-decided"
    #: R8: the lowest and highest point bid.
    min_point_bid: int = 30
    max_point_bid: int = 41
    #: R9: the first all-tricks bid is 1 … this many marks.
    max_opening_mark_bid: int = 2
    #: R9: every later all-tricks bid adds exactly this many marks.
    mark_bid_raise: int = 1
    #: R12: in no-trump, doubles are high in their suit.
    no_trump_doubles: Literal["high"] = "high"
    #: R27: in an all-tricks contract the bidder chooses 1 or 2 visible stacks.
    all_tricks_stacks: Literal["bidder-chooses"] = "bidder-chooses"
    #: R24: the first team with at least this many marks wins.
    match_goal_marks: int = 7

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def differences(self, other: Rules) -> dict[str, tuple[Any, Any]]:
        """Options whose values differ: name → (self's, other's)."""
        return {
            f.name: (getattr(self, f.name), getattr(other, f.name))
            for f in fields(self)
            if getattr(self, f.name) != getattr(other, f.name)
        }


#: One line per option, with the rule it implements; shown by ``texas42 rules``.
OPTION_DOCS: Final[dict[str, str]] = {
    "all_pass": "R11: if all four pass — 'redeal': no contract, no marks, the deal passes on.",
    "hand_end": "R22: 'when-decided': the hand ends as soon as the won tiles decide the contract.",
    "min_point_bid": "R8: the lowest point bid (seed rules: 30).",
    "max_point_bid": "R8: the highest point bid (seed rules: 41).",
    "max_opening_mark_bid": "R9: the first all-tricks bid is 1 to this many marks (seed rules: 2).",
    "mark_bid_raise": "R9: each later all-tricks bid adds exactly this many marks (seed rules: 1).",
    "no_trump_doubles": "R12: 'high': in no-trump a double is the highest tile of its suit.",
    "all_tricks_stacks": "R27: 'bidder-chooses': the all-tricks bidder shows the last 1 or 2 tricks.",
    "match_goal_marks": "R24: the first team with at least this many marks wins (seed rules: 7).",
}

STANDARD: Final = Rules()

#: Named presets. ``standard`` is the seed rules, RULES.md R1–R31.
PRESETS: Final[dict[str, Rules]] = {"standard": STANDARD}


def find_preset(name: str) -> Rules:
    """The preset called ``name``; ``ValueError`` listing the known ones otherwise."""
    try:
        return PRESETS[name]
    except KeyError:
        known = ", ".join(sorted(PRESETS))
        raise ValueError(f"unknown rules preset {name!r}; known presets: {known}") from None
