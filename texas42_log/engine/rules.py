"""The rule options a log is played under.

A log names a preset and may override single options; the effective rules are
the preset's options with the overrides applied (the validator echoes them).

Every option is declared once, as a field of :class:`Rules`: its type, its default
(the seed rules), its allowed values, the sentence that explains it, the rule text it
implements and the format version that brought it (:func:`option`). Everything else
derives from that declaration: :data:`OPTIONS` (what ``texas42 rules`` prints), the
pydantic ``RuleOptions`` of the log format and so the JSON Schema's enums and bounds,
the options block of docs/rules.md and docs/format.md (``tools/build_rules_doc.py``),
and the lowest format version a log's rules need (:mod:`texas42_log.log.versions`).
The engine reads options only through :class:`Rules` and the derived tables of
:mod:`.trumps` — no ``if preset == …`` anywhere (python-chess ``VARIANTS`` /
``find_variant``).

The named bundles of options are :mod:`.presets`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Final, Literal

from .count import STANDARD_COUNT, Count
from .options import COUNT_LIMIT, Option, option, option_of
from .tricks import STANDARD_TRICK_RULES, TrickRules

__all__ = [
    "Rules",
    "Option",
    "option",
    "OPTIONS",
    "COUNT_LIMIT",
    "STANDARD",
    "SPECIALS",
]

AllPass = Literal["redeal", "dealer-must-bid", "dealer-bids-30", "dealer-bids-31"]
HandEnd = Literal["when-decided", "all-tricks"]
MarkUnits = Literal["marks", "points"]
MarkLadder = Literal["exact-raise", "free"]
DoublesSuit = Literal["in-suit", "own-suit"]
DoublesMode = Literal["high", "low", "own-suit"]
NelloDoubles = Literal["high", "low", "own-suit", "bidder-chooses", "own-suit-or-low"]
DealerDraw = Literal["fair", "highest-pips", "blank-one-bids-first"]
Stacks = Literal["bidder-chooses", "fixed-1", "fixed-2", "all-visible"]
DeclaredLead = Literal["never", "first-trick", "always"]
MatchGoal = Literal["marks", "points"]
SpecialBids = Literal["raise", "aside"]
SevensPlay = Literal["follow-suit", "closest"]

#: Special contracts (seeds 003/004, the other programs of docs/conversions.md): bid-time
#: (plunge, splash) and declared after a mark bid (nello, sevens).
SPECIALS: Final = ("nello", "plunge", "splash", "sevens")


@dataclass(frozen=True, slots=True)
class Rules:
    """Effective rule options. Defaults are the seed rules (preset ``standard``)."""

    # -- the first dealer (R4) --
    dealer_draw: DealerDraw = option(
        "fair",
        DealerDraw,
        since="1.2",
        doc=(
            "How the first dealer is chosen. fair: a fair draw of seats, which nothing in the log "
            "can check; highest-pips: each player draws a tile, the highest pip total deals, and "
            "players tied for the highest draw again; blank-one-bids-first: the player who draws "
            "[0|1] (in the recorded draw, or else in the first deal) bids first, so the player to "
            "their right deals. Checked against dealer_draw and first_dealer when the log records "
            "them."
        ),
        source=(
            "R4 'the first dealer is chosen by a fair draw of seats'; seed 004 'each player draws "
            "one domino, the one with the highest value is the first shaker; on a tie the two draw "
            "again'; seed 003 'the player who draws the blank-one bids first'."
        ),
    )
    # -- the auction (R7–R11) --
    all_pass: AllPass = option(
        "redeal",
        AllPass,
        since="1.0",
        value_since={v: "1.1" for v in ("dealer-must-bid", "dealer-bids-30", "dealer-bids-31")},
        doc=(
            "If all four pass: redeal with no marks; or, after three passes, the dealer may not "
            "pass — any legal bid (dealer-must-bid), or exactly 30 or 31 points."
        ),
        source=(
            "R11 'if everyone passes, advance the deal and redeal without marks'; seed 004 'if all "
            "players pass, the shaker must bid the minimum (30)'; seed 003 'either the dealer bids "
            "or the tiles are reshuffled'; the plunge app f/l and tricksy 'the dealer must bid'."
        ),
    )
    min_point_bid: int = option(
        30,
        int,
        low=0,
        high=42,
        since="1.0",
        doc="The lowest point bid.",
        source="R8 'a point bid is 30–41'.",
    )
    max_point_bid: int = option(
        41,
        int,
        low=0,
        high=42,
        since="1.0",
        doc="The highest point bid; 42 is a point bid worth 1 mark that needs every point.",
        source="R8; tricksy 'points 30–42 (42 is a points bid worth 1 mark)'.",
    )
    mark_bid_units: MarkUnits = option(
        "marks",
        MarkUnits,
        doc="How the log writes a mark bid: in marks (2), or as 42 points a mark (84).",
        source="Seed 003 'a bid of 42 or 84 … a 1-mark bid written as 42, a 2-mark bid as 84'.",
    )
    max_opening_mark_bid: int = option(
        2,
        int,
        low=1,
        since="1.0",
        doc="The first mark bid is 1 to this many marks.",
        source=(
            "R9 'the first all-tricks bid is at most 2 marks'; seed 004 'players may bid up to 2 "
            "marks'."
        ),
    )
    mark_bid_raise: int = option(
        1,
        int,
        low=1,
        since="1.0",
        doc="With the exact-raise ladder, each later mark bid adds exactly this many marks.",
        source=(
            "R9 'each higher bid adds exactly 1 mark'; seed 004 'bids after may be only 1 more "
            "mark'."
        ),
    )
    mark_ladder: MarkLadder = option(
        "exact-raise",
        MarkLadder,
        doc=(
            "exact-raise: later mark bids add exactly mark_bid_raise; free: any higher mark bid up "
            "to max_mark_bid (jumps allowed)."
        ),
        source="R9; tricksy 'marks 1–7 above the high bid … there is no +1-only ladder'.",
    )
    max_mark_bid: int = option(
        7,
        int,
        low=1,
        doc="The highest mark bid of any kind.",
        source="tricksy 'marks 1–7'.",
    )
    plain_mark_bids: bool = option(
        True,
        bool,
        doc=(
            "Whether a mark bid may be a plain all-tricks contract; false: a mark bid must be a "
            "special contract (Nel-O, Sevens, Plunge, Splash)."
        ),
        source="tricksy 'mark bids only for special contracts'.",
    )
    # -- trumps and suits (R12–R19) --
    no_trump: bool = option(
        True,
        bool,
        doc="Whether no-trump (follow-me) may be declared.",
        source="R12; tricksy 'no no-trump: a standard contract must name a suit'.",
    )
    doubles_trump: bool = option(
        True,
        bool,
        doc="Whether doubles may be declared trumps.",
        source=(
            "R12 'trumps: a number 0–6, the doubles, or no-trump'; tricksy 'doubles trump only if "
            "doubles_are_own_suit'."
        ),
    )
    doubles: DoublesSuit = option(
        "in-suit",
        DoublesSuit,
        doc=(
            "in-suit: a double belongs to its number's suit; own-suit: for the whole game the "
            "doubles form a suit of their own ([6|6] high), never a trump unless doubles are "
            "trumps."
        ),
        source=(
            "R13–R18; tricksy 'doubles_are_own_suit … takes doubles out of their number suits for "
            "the whole game'."
        ),
    )
    no_trump_doubles: DoublesMode = option(
        "high",
        DoublesMode,
        since="1.0",
        value_since={"low": "1.1", "own-suit": "1.1"},
        doc=(
            "In no-trump a double is the highest (or lowest) of its suit, or the doubles form a "
            "suit of their own."
        ),
        source=(
            "R12 'no-trump, doubles high'; seed 003 'a double is the highest of its suit'; the "
            "plunge app 'follow-me doubles high'."
        ),
    )
    declared_lead: DeclaredLead = option(
        "never",
        DeclaredLead,
        doc=(
            "Whether a leader may declare that a non-double, non-trump tile leads its lower number "
            '(the play\'s "led" field).'
        ),
        source="R14 'a lead leads its higher number'; tricksy 'allow_declared_lead'.",
    )
    # -- the play (R20–R22, R27) --
    hand_end: HandEnd = option(
        "when-decided",
        HandEnd,
        since="1.0",
        value_since={"all-tricks": "1.1"},
        doc=(
            "when-decided: the hand ends once the contract is decided; all-tricks: all 7 tricks are"
            " played, and the marks are those of the decision."
        ),
        source="R22; texas-42 and tricksy 'all 7 tricks are always played'.",
    )
    all_tricks_stacks: Stacks = option(
        "bidder-chooses",
        Stacks,
        since="1.0",
        value_since={v: "1.1" for v in ("fixed-1", "fixed-2", "all-visible")},
        doc=(
            "In an all-tricks contract, how many completed tricks stay face up during the hand: the"
            " bidder's choice of 1 or 2, always 1, always 2, or every trick."
        ),
        source=(
            "R27 'the auction winner chooses 1 or 2 collection stacks'; seed 003 'an 84 bid: the "
            "tricks are stacked so nobody can see the dominoes played'; seed 004 'stacks must be "
            "visible to the opponents'."
        ),
    )
    # -- special contracts --
    nello: bool = option(
        False,
        bool,
        doc=(
            "Nel-O: after a mark bid the bidder declares Nel-O; the partner sits out (tricks of 3 "
            "tiles), the bidder leads and must win no trick; the hand ends at the bidder's first "
            "trick."
        ),
        source=(
            "Seed 004 'Nel-O: the goal is to win zero tricks … the partner does not play the hand …"
            " the bid winner plays first'; the plunge app and tricksy nello."
        ),
    )
    nello_min_marks: int = option(
        2,
        int,
        low=1,
        doc="The least mark bid for Nel-O.",
        source="Seed 004 'must bid at least 2 marks'; plunge app: 1.",
    )
    nello_doubles: NelloDoubles = option(
        "own-suit",
        NelloDoubles,
        value_since={"own-suit-or-low": "1.2"},
        doc=(
            "In Nel-O the doubles are high or low in their suit, or a suit of their own; or the "
            'declaration says which (its "doubles" field): any of the three (bidder-chooses), or '
            "own-suit or low (own-suit-or-low, tricksy's nello and nello_low both enabled). Without"
            ' a "doubles" field a choosing declaration means own-suit.'
        ),
        source="the plunge app 'doubles form their own suit'; tricksy nello / nello_low.",
    )
    nello_low_min_marks: int | None = option(
        None,
        int,
        low=1,
        since="1.2",
        doc=(
            "The least mark bid for a Nel-O with the doubles low, when the bidder chooses where the"
            " doubles stand; unset: nello_min_marks."
        ),
        source="tricksy 'nello_low {minimum_marks}' (its own option, beside nello's).",
    )
    plunge: bool = option(
        False,
        bool,
        doc=(
            "Plunge: a player holding plunge_min_doubles doubles may bid plunge_marks marks (or one"
            " more than the high mark bid) as a jump; the partner names trumps and leads; the "
            "bidders must win every trick."
        ),
        source=(
            "Seed 004 'with 4 or more doubles … a bid of 4 marks before any other player bids; the "
            "partner names trumps and leads'; the plunge app 'max(4, current marks + 1)'."
        ),
    )
    plunge_min_doubles: int = option(
        4,
        int,
        low=0,
        high=7,
        doc="Doubles a Plunge bidder must hold.",
        source="Seed 004 '4 or more doubles'.",
    )
    plunge_marks: int = option(
        4,
        int,
        low=1,
        doc="The Plunge bid in marks, when no mark bid is higher.",
        source="Seed 004 'a bid of 4 marks'.",
    )
    splash: bool = option(
        False,
        bool,
        doc=(
            "Splash: a player holding splash_min_doubles doubles may bid splash_min_marks marks "
            "above a lower bid, or one more than a mark bid of at least splash_min_marks directly "
            "over it, up to splash_max_marks (with mark_ladder free: any size from splash_min_marks"
            " to splash_max_marks above the high bid); the partner names trumps and leads; the "
            "bidders must win every trick."
        ),
        source=(
            "the plunge app 'splash … seat holding ≥3 doubles: 2 marks if it beats the high bid, 3 "
            "marks only directly over a 2-mark bid'; tricksy 'marks 1–7 above the high bid'."
        ),
    )
    splash_min_doubles: int = option(
        3,
        int,
        low=0,
        high=7,
        doc="Doubles a Splash bidder must hold.",
        source="the plunge app '≥3 doubles'.",
    )
    splash_min_marks: int = option(
        2,
        int,
        low=1,
        doc="The lowest Splash bid.",
        source="the plunge app '2 or 3 marks'.",
    )
    splash_max_marks: int = option(
        3,
        int,
        low=1,
        doc="The highest Splash bid.",
        source="the plunge app '2 or 3 marks'.",
    )
    special_bids: SpecialBids = option(
        "raise",
        SpecialBids,
        since="1.5",
        doc=(
            "raise: a Plunge or Splash is a mark bid that every later bid must beat. aside: a "
            "Plunge or Splash may be bid whatever came before it, at its own size — a Plunge "
            "max(plunge_marks, h + 1), a Splash min(splash_max_marks, max(splash_min_marks, h + "
            "1)), h the highest mark, Plunge or Splash bid so far; each later bid is judged against"
            " the last bid made, in which a Plunge or Splash counts as no points (any mark bid up "
            "to max_mark_bid may follow it, and any point bid); the highest bid wins, a tie going "
            "to the earlier bid."
        ),
        source=(
            "the mk5 app (docs/conversions.md): 'a Plunge or Splash is always legal for such a "
            "hand; its base value is 0; ties go to the earlier bid'."
        ),
    )
    special_no_trump: bool = option(
        False,
        bool,
        since="1.5",
        doc="Whether the partner of a Plunge or Splash bidder may declare no-trump.",
        source=(
            "the plunge app 'the partner names a suit or the doubles'; the mk5 app offers no-trump "
            "after every bid."
        ),
    )
    sevens: bool = option(
        False,
        bool,
        doc=(
            "Sevens: after a mark bid the bidder declares Sevens; no trumps; each trick goes to the"
            " tile whose pip total is closest to 7 (ties to the earliest played); the bidders must "
            "win every trick."
        ),
        source=(
            "Seed 004 '7s … how far from 7 … the bidding team must win all 7 tricks'; tricksy "
            "sevens (ordinary follow-suit, ties to the earliest)."
        ),
    )
    sevens_min_marks: int = option(
        1,
        int,
        low=1,
        doc="The least mark bid for Sevens.",
        source="Seed 004 'the minimum bid is 1 mark'.",
    )
    sevens_play: SevensPlay = option(
        "follow-suit",
        SevensPlay,
        since="1.5",
        doc=(
            "In Sevens, follow-suit: the ordinary duty to follow the led suit (R16); closest: every"
            " player, the leader included, plays a tile whose pip total is as close to 7 as any in "
            "their hand."
        ),
        source=(
            "tricksy sevens (follow-suit); seed 004 'how far from 7'; the mk5 app 'each player must"
            " play the domino closest to 7 in their hand'."
        ),
    )
    # -- the match (R24) --
    match_goal: MatchGoal = option(
        "marks",
        MatchGoal,
        doc=(
            "marks: the first team with match_goal_marks marks wins; points: each team scores the "
            "hand points it took and the first to match_goal_points wins."
        ),
        source="R24; seed 004 'reach 7 marks or 250 points first'.",
    )
    match_goal_marks: int = option(
        7,
        int,
        low=1,
        since="1.0",
        doc="Marks that win the match.",
        source="R24 'at least 7 marks'.",
    )
    match_goal_points: int = option(
        250,
        int,
        low=1,
        doc="Points that win the match when match_goal is points.",
        source="Seed 004 '250 points'.",
    )

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

    def overrides(self, preset: Rules) -> dict[str, Any]:
        """The options a log under ``preset`` sets to play these rules: name → value."""
        return {name: mine for name, (mine, _) in self.differences(preset).items()}

    @property
    def count(self) -> Count:
        """The count phase (R6): what each tile and each trick is worth, the hand's total.
        The engine scores by it and both solvers value by it (:mod:`.count`); an option
        that changes the count changes it here, once."""
        return STANDARD_COUNT

    @property
    def trick_rules(self) -> TrickRules:
        """The play phase's trick (R13–R19): who follows what and who wins, per suit
        system. The engine's hand takes its tables from it and everything else reads
        them from the hand (:mod:`.tricks`); an option that changes a trick changes it
        here, once."""
        return STANDARD_TRICK_RULES

    @property
    def goal(self) -> int:
        """R24 or seed 004: the score that wins, in the unit of :attr:`match_goal`."""
        return self.match_goal_marks if self.match_goal == "marks" else self.match_goal_points


#: Every option, in the order :class:`Rules` declares them (docs/rules.md ids; seeds
#: 003/004 for the variants; docs/conversions.md for the foreign programs' rules). Shown
#: by ``texas42 rules``.
OPTIONS: Final[dict[str, Option]] = {f.name: option_of(f) for f in fields(Rules)}

STANDARD: Final = Rules()
