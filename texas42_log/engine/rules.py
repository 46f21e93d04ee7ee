"""The rule options a log is played under, and the registry of named presets.

A log names a preset and may override single options; the effective rules are
the preset's options with the overrides applied (the validator echoes them).
Every option is one entry of :data:`OPTIONS`, with its values, its default (the
seed rules) and the rule text it implements. The engine reads options only
through :class:`Rules` and the derived tables of :mod:`.trumps` — no
``if preset == …`` anywhere (python-chess ``VARIANTS`` / ``find_variant``).

Presets (:data:`PRESETS`): ``standard`` is the seed rules, docs/rules.md R1–R31;
``tournament`` and ``casual`` are the common bundles (as the ``plunge`` app's
presets ``t`` and ``c`` implement them); the others are the rule profiles of
the three foreign programs of docs/conversions.md, so that their games import
without inventing rules.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Final, Literal

from .seats import Seat

__all__ = [
    "Rules",
    "Option",
    "OPTIONS",
    "OPTION_DOCS",
    "PRESETS",
    "PRESET_DOCS",
    "PRESET_FIRST_DEALER",
    "find_preset",
    "STANDARD",
    "SPECIALS",
]

AllPass = Literal["redeal", "dealer-must-bid", "dealer-bids-30", "dealer-bids-31"]
HandEnd = Literal["when-decided", "all-tricks"]
MarkUnits = Literal["marks", "points"]
MarkLadder = Literal["exact-raise", "free"]
DoublesMode = Literal["high", "low", "own-suit"]
NelloDoubles = Literal["high", "low", "own-suit", "bidder-chooses", "own-suit-or-low"]
DealerDraw = Literal["fair", "highest-pips", "blank-one-bids-first"]
Stacks = Literal["bidder-chooses", "fixed-1", "fixed-2", "all-visible"]
DeclaredLead = Literal["never", "first-trick", "always"]
MatchGoal = Literal["marks", "points"]
SpecialBids = Literal["raise", "aside"]
SevensPlay = Literal["follow-suit", "closest"]

#: Special contracts (seeds 003/004, the other programs of docs/conversions.md): bid-time (plunge,
#: splash) and
#: declared after a mark bid (nello, sevens).
SPECIALS: Final = ("nello", "plunge", "splash", "sevens")


@dataclass(frozen=True, slots=True)
class Rules:
    """Effective rule options. Defaults are the seed rules (preset ``standard``)."""

    # -- the first dealer (R4) --
    dealer_draw: DealerDraw = "fair"
    # -- the auction (R7–R11) --
    all_pass: AllPass = "redeal"
    min_point_bid: int = 30
    max_point_bid: int = 41
    mark_bid_units: MarkUnits = "marks"
    max_opening_mark_bid: int = 2
    mark_bid_raise: int = 1
    mark_ladder: MarkLadder = "exact-raise"
    max_mark_bid: int = 7
    plain_mark_bids: bool = True
    # -- trumps and suits (R12–R19) --
    no_trump: bool = True
    doubles_trump: bool = True
    doubles: Literal["in-suit", "own-suit"] = "in-suit"
    no_trump_doubles: DoublesMode = "high"
    declared_lead: DeclaredLead = "never"
    # -- the play (R20–R22, R27) --
    hand_end: HandEnd = "when-decided"
    all_tricks_stacks: Stacks = "bidder-chooses"
    # -- special contracts --
    nello: bool = False
    nello_min_marks: int = 2
    nello_doubles: NelloDoubles = "own-suit"
    nello_low_min_marks: int | None = None
    plunge: bool = False
    plunge_min_doubles: int = 4
    plunge_marks: int = 4
    splash: bool = False
    splash_min_doubles: int = 3
    splash_min_marks: int = 2
    splash_max_marks: int = 3
    special_bids: SpecialBids = "raise"
    special_no_trump: bool = False
    sevens: bool = False
    sevens_min_marks: int = 1
    sevens_play: SevensPlay = "follow-suit"
    # -- the match (R24) --
    match_goal: MatchGoal = "marks"
    match_goal_marks: int = 7
    match_goal_points: int = 250

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def differences(self, other: Rules) -> dict[str, tuple[Any, Any]]:
        """Options whose values differ: name → (self's, other's)."""
        return {
            f.name: (getattr(self, f.name), getattr(other, f.name))
            for f in fields(self)
            if getattr(self, f.name) != getattr(other, f.name)
        }

    def __copy__(self) -> Rules:
        return self  # immutable: a copy is the same rules

    def __deepcopy__(self, memo: dict[int, Any]) -> Rules:
        return self  # (the compiled class has no setattr for copy's default way)

    def __reduce__(self) -> tuple[type[Rules], tuple[Any, ...]]:
        """Pickled as its options, in order (the worker processes, OpenSpiel's states)."""
        return Rules, tuple(getattr(self, name) for name in self.__dataclass_fields__)

    def with_options(self, **overrides: Any) -> Rules:
        return replace(self, **overrides)

    @property
    def goal(self) -> int:
        """R24 or seed 004: the score that wins, in the unit of :attr:`match_goal`."""
        return self.match_goal_marks if self.match_goal == "marks" else self.match_goal_points


@dataclass(frozen=True, slots=True)
class Option:
    """One rule option: what it decides, the values it takes, the rule text behind it."""

    name: str
    values: str
    doc: str
    source: str


#: Every option with the rule text it implements (docs/rules.md ids; seeds 003/004 for
#: the variants; docs/conversions.md for the foreign programs' rules). Shown by ``texas42 rules``.
OPTIONS: Final[dict[str, Option]] = {
    o.name: o
    for o in [
        Option(
            "dealer_draw",
            "fair / highest-pips / blank-one-bids-first",
            "How the first dealer is chosen. fair: a fair draw of seats, which nothing in the log "
            "can check; highest-pips: each player draws a tile, the highest pip total deals, and "
            "players tied for the highest draw again; blank-one-bids-first: the player who draws "
            "[0|1] (in the recorded draw, or else in the first deal) bids first, so the player to "
            "their right deals. Checked against dealer_draw and first_dealer when the log records "
            "them.",
            "R4 'the first dealer is chosen by a fair draw of seats'; seed 004 'each player draws "
            "one domino, the one with the highest value is the first shaker; on a tie the two draw "
            "again'; seed 003 'the player who draws the blank-one bids first'.",
        ),
        Option(
            "all_pass",
            "redeal / dealer-must-bid / dealer-bids-30 / dealer-bids-31",
            "If all four pass: redeal with no marks; or, after three passes, the dealer may not "
            "pass "
            "— any legal bid (dealer-must-bid), or exactly 30 or 31 points.",
            "R11 'if everyone passes, advance the deal and redeal without marks'; seed 004 'if all "
            "players pass, the shaker must bid the minimum (30)'; seed 003 'either the dealer bids "
            "or the tiles are reshuffled'; the plunge app f/l and tricksy 'the dealer must bid'.",
        ),
        Option(
            "min_point_bid", "integer 0–42", "The lowest point bid.", "R8 'a point bid is 30–41'."
        ),
        Option(
            "max_point_bid",
            "integer 0–42",
            "The highest point bid; 42 is a point bid worth 1 mark that needs every point.",
            "R8; tricksy 'points 30–42 (42 is a points bid worth 1 mark)'.",
        ),
        Option(
            "mark_bid_units",
            "marks / points",
            "How the log writes a mark bid: in marks (2), or as 42 points a mark (84).",
            "Seed 003 'a bid of 42 or 84 … a 1-mark bid written as 42, a 2-mark bid as 84'.",
        ),
        Option(
            "max_opening_mark_bid",
            "integer ≥ 1",
            "The first mark bid is 1 to this many marks.",
            "R9 'the first all-tricks bid is at most 2 marks'; seed 004 'players may bid up to 2 "
            "marks'.",
        ),
        Option(
            "mark_bid_raise",
            "integer ≥ 1",
            "With the exact-raise ladder, each later mark bid adds exactly this many marks.",
            "R9 'each higher bid adds exactly 1 mark'; seed 004 'bids after may be only 1 more "
            "mark'.",
        ),
        Option(
            "mark_ladder",
            "exact-raise / free",
            "exact-raise: later mark bids add exactly mark_bid_raise; free: any higher mark bid up "
            "to max_mark_bid (jumps allowed).",
            "R9; tricksy 'marks 1–7 above the high bid … there is no +1-only ladder'.",
        ),
        Option(
            "max_mark_bid",
            "integer ≥ 1",
            "The highest mark bid of any kind.",
            "tricksy 'marks 1–7'.",
        ),
        Option(
            "plain_mark_bids",
            "true / false",
            "Whether a mark bid may be a plain all-tricks contract; false: a mark bid must be a "
            "special contract (Nel-O, Sevens, Plunge, Splash).",
            "tricksy 'mark bids only for special contracts'.",
        ),
        Option(
            "no_trump",
            "true / false",
            "Whether no-trump (follow-me) may be declared.",
            "R12; tricksy 'no no-trump: a standard contract must name a suit'.",
        ),
        Option(
            "doubles_trump",
            "true / false",
            "Whether doubles may be declared trumps.",
            "R12 'trumps: a number 0–6, the doubles, or no-trump'; tricksy 'doubles "
            "trump only if doubles_are_own_suit'.",
        ),
        Option(
            "doubles",
            "in-suit / own-suit",
            "in-suit: a double belongs to its number's suit; own-suit: for the whole game the "
            "doubles form a suit of their own ([6|6] high), never a trump unless doubles are "
            "trumps.",
            "R13–R18; tricksy 'doubles_are_own_suit … takes doubles out of their "
            "number suits for the whole game'.",
        ),
        Option(
            "no_trump_doubles",
            "high / low / own-suit",
            "In no-trump a double is the highest (or lowest) of its suit, or the doubles form a "
            "suit of their own.",
            "R12 'no-trump, doubles high'; seed 003 'a double is the highest of its suit'; "
            "the plunge app 'follow-me doubles high'.",
        ),
        Option(
            "declared_lead",
            "never / first-trick / always",
            "Whether a leader may declare that a non-double, non-trump tile leads its lower "
            'number (the play\'s "led" field).',
            "R14 'a lead leads its higher number'; tricksy 'allow_declared_lead'.",
        ),
        Option(
            "hand_end",
            "when-decided / all-tricks",
            "when-decided: the hand ends once the contract is decided; all-tricks: all 7 tricks "
            "are played, and the marks are those of the decision.",
            "R22; texas-42 and tricksy 'all 7 tricks are always played'.",
        ),
        Option(
            "all_tricks_stacks",
            "bidder-chooses / fixed-1 / fixed-2 / all-visible",
            "In an all-tricks contract, how many completed tricks stay face up during the hand: "
            "the bidder's choice of 1 or 2, always 1, always 2, or every trick.",
            "R27 'the auction winner chooses 1 or 2 collection stacks'; seed 003 'an 84 bid: the "
            "tricks are stacked so nobody can see the dominoes played'; seed 004 'stacks must be "
            "visible to the opponents'.",
        ),
        Option(
            "nello",
            "true / false",
            "Nel-O: after a mark bid the bidder declares Nel-O; the partner sits out (tricks of "
            "3 tiles), the bidder leads and must win no trick; the hand ends at the bidder's "
            "first trick.",
            "Seed 004 'Nel-O: the goal is to win zero tricks … the partner does not play the hand "
            "… "
            "the bid winner plays first'; the plunge app and tricksy nello.",
        ),
        Option(
            "nello_min_marks",
            "integer ≥ 1",
            "The least mark bid for Nel-O.",
            "Seed 004 'must bid at least 2 marks'; plunge app: 1.",
        ),
        Option(
            "nello_doubles",
            "high / low / own-suit / bidder-chooses / own-suit-or-low",
            "In Nel-O the doubles are high or low in their suit, or a suit of their own; or the "
            'declaration says which (its "doubles" field): any of the three (bidder-chooses), '
            "or own-suit or low (own-suit-or-low, tricksy's nello and nello_low both enabled). "
            'Without a "doubles" field a choosing declaration means own-suit.',
            "the plunge app 'doubles form their own suit'; tricksy nello / nello_low.",
        ),
        Option(
            "nello_low_min_marks",
            "integer ≥ 1, or unset",
            "The least mark bid for a Nel-O with the doubles low, when the bidder chooses where "
            "the doubles stand; unset: nello_min_marks.",
            "tricksy 'nello_low {minimum_marks}' (its own option, beside nello's).",
        ),
        Option(
            "plunge",
            "true / false",
            "Plunge: a player holding plunge_min_doubles doubles may bid plunge_marks marks (or "
            "one "
            "more than the high mark bid) as a jump; the partner names trumps and leads; the "
            "bidders must win every trick.",
            "Seed 004 'with 4 or more doubles … a bid of 4 marks before any other player bids; the "
            "partner names trumps and leads'; the plunge app 'max(4, current marks + 1)'.",
        ),
        Option(
            "plunge_min_doubles",
            "integer 0–7",
            "Doubles a Plunge bidder must hold.",
            "Seed 004 '4 or more doubles'.",
        ),
        Option(
            "plunge_marks",
            "integer ≥ 1",
            "The Plunge bid in marks, when no mark bid is higher.",
            "Seed 004 'a bid of 4 marks'.",
        ),
        Option(
            "splash",
            "true / false",
            "Splash: a player holding splash_min_doubles doubles may bid splash_min_marks marks "
            "above a lower bid, or one more than a mark bid of at least splash_min_marks directly "
            "over it, up to splash_max_marks (with mark_ladder free: any size from "
            "splash_min_marks "
            "to splash_max_marks above the high bid); the partner names trumps and leads; the "
            "bidders must win every trick.",
            "the plunge app 'splash … seat holding ≥3 doubles: 2 marks if it beats the high bid, "
            "3 marks only directly over a 2-mark bid'; tricksy 'marks 1–7 above the high bid'.",
        ),
        Option(
            "splash_min_doubles",
            "integer 0–7",
            "Doubles a Splash bidder must hold.",
            "the plunge app '≥3 doubles'.",
        ),
        Option(
            "splash_min_marks",
            "integer ≥ 1",
            "The lowest Splash bid.",
            "the plunge app '2 or 3 marks'.",
        ),
        Option(
            "splash_max_marks",
            "integer ≥ 1",
            "The highest Splash bid.",
            "the plunge app '2 or 3 marks'.",
        ),
        Option(
            "special_bids",
            "raise / aside",
            "raise: a Plunge or Splash is a mark bid that every later bid must beat. aside: a "
            "Plunge or "
            "Splash may be bid whatever came before it, at its own size — a Plunge "
            "max(plunge_marks, h + 1), "
            "a Splash min(splash_max_marks, max(splash_min_marks, h + 1)), h the highest mark, "
            "Plunge or "
            "Splash bid so far; each later bid is judged against the last bid made, in which a "
            "Plunge or "
            "Splash counts as no points (any mark bid up to max_mark_bid may follow it, and any "
            "point bid); "
            "the highest bid wins, a tie going to the earlier bid.",
            "the mk5 app (docs/conversions.md): 'a Plunge or Splash is always legal for such a "
            "hand; its "
            "base value is 0; ties go to the earlier bid'.",
        ),
        Option(
            "special_no_trump",
            "true / false",
            "Whether the partner of a Plunge or Splash bidder may declare no-trump.",
            "the plunge app 'the partner names a suit or the doubles'; the mk5 app offers no-trump "
            "after every bid.",
        ),
        Option(
            "sevens",
            "true / false",
            "Sevens: after a mark bid the bidder declares Sevens; no trumps; each trick goes to "
            "the tile whose pip total is closest to 7 (ties to the earliest played); the bidders "
            "must win every trick.",
            "Seed 004 '7s … how far from 7 … the bidding team must win all 7 tricks'; "
            "tricksy sevens (ordinary follow-suit, ties to the earliest).",
        ),
        Option(
            "sevens_min_marks",
            "integer ≥ 1",
            "The least mark bid for Sevens.",
            "Seed 004 'the minimum bid is 1 mark'.",
        ),
        Option(
            "sevens_play",
            "follow-suit / closest",
            "In Sevens, follow-suit: the ordinary duty to follow the led suit (R16); closest: "
            "every "
            "player, the leader included, plays a tile whose pip total is as close to 7 as any in "
            "their hand.",
            "tricksy sevens (follow-suit); seed 004 'how far from 7'; the mk5 app 'each player "
            "must "
            "play the domino closest to 7 in their hand'.",
        ),
        Option(
            "match_goal",
            "marks / points",
            "marks: the first team with match_goal_marks marks wins; points: each team scores the "
            "hand points it took and the first to match_goal_points wins.",
            "R24; seed 004 'reach 7 marks or 250 points first'.",
        ),
        Option(
            "match_goal_marks",
            "integer ≥ 1",
            "Marks that win the match.",
            "R24 'at least 7 marks'.",
        ),
        Option(
            "match_goal_points",
            "integer ≥ 1",
            "Points that win the match when match_goal is points.",
            "Seed 004 '250 points'.",
        ),
    ]
}

#: One line per option (kept for callers of format 1.0's API).
OPTION_DOCS: Final[dict[str, str]] = {name: f"{o.doc} ({o.source})" for name, o in OPTIONS.items()}

STANDARD: Final = Rules()

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

#: Named presets.
PRESETS: Final[dict[str, Rules]] = {
    "standard": STANDARD,
    "tournament": _TOURNAMENT,
    "casual": _CASUAL,
    "texas-42": STANDARD.with_options(hand_end="all-tricks"),
    "plunge-t": STANDARD.with_options(all_tricks_stacks="all-visible"),
    "plunge-f": _FORCED,
    "plunge-l": _FORCED.with_options(nello=True, nello_min_marks=1, nello_doubles="own-suit"),
    "plunge-c": _CASUAL,
    "mk5": _MK5,
    "tricksy": STANDARD.with_options(
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
}

PRESET_DOCS: Final[dict[str, str]] = {
    "standard": "The seed rules, docs/rules.md R1–R31.",
    "tournament": "Straight 42 as tournaments play it (N42PA): the seed rules, no special "
    "contracts. The plunge app's 't' (plunge-t) differs in one thing: every won trick of an "
    "all-tricks contract is visible, where here the bidder chooses the stacks, so a "
    "tournament match is not a plunge code.",
    "casual": "A common home table (the plunge app's 'c'): Nel-O from 1 mark with doubles a suit "
    "of their own, Plunge (4 marks, jump) and Splash (2–3 marks), all stacks visible.",
    "texas-42": "The texas-42 research engine's receipts: the seed rules, every hand played to 7 "
    "tricks.",
    "plunge-t": "The plunge app's 't' preset: straight 42, no stacks recorded (all visible).",
    "plunge-f": "The plunge app's 'f' preset: 't' with the dealer forced to bid after three "
    "passes.",
    "plunge-l": "The plunge app's 'l' preset: 'f' with Nel-O from 1 mark, doubles their own suit.",
    "plunge-c": "The plunge app's 'c' preset (its default): the same as casual.",
    "mk5": "The mk5 web app's rules: mark bids up to 4, every stack visible; its layers as the "
    "options nello (from 1 mark, doubles their own suit), plunge and splash (bid aside: "
    "special_bids), sevens (the closest tile to 7 must be played), all off until a log sets them.",
    "tricksy": "The tricksy engine's defaults: the dealer must bid, points 30–42, mark bids only "
    "for Nel-O, Plunge and Sevens with free jumps, no no-trump, all 7 tricks played; seat A "
    "deals first.",
}


#: The seat a preset's program always deals the first hand from (its logs hold no draw
#: for the first dealer, R4): a match made under the preset starts there, so that the
#: program can hold it.
PRESET_FIRST_DEALER: Final[dict[str, Seat]] = {"tricksy": "A"}


def find_preset(name: str) -> Rules:
    """The preset called ``name``; ``ValueError`` listing the known ones otherwise."""
    try:
        return PRESETS[name]
    except KeyError:
        known = ", ".join(sorted(PRESETS))
        raise ValueError(f"unknown rules preset {name!r}; known presets: {known}") from None
