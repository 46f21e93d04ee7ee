"""The texas42-log format, version 1, as pydantic models.

The JSON Schema in ``schema/texas42-log.v1.schema.json`` is generated from
these models (``texas42 schema``). See ``docs/format.md`` for the reference.

Conventions:

* Tiles are written in their canonical form ``"[0|5]"`` (low half first); the
  JSON log accepts no other spelling (the text notation is the lenient one).
* Seats are ``"A"``–``"D"`` clockwise; teams ``"A+C"`` and ``"B+D"`` (R1).
* Keys starting with ``x-`` are extensions: allowed on every object, kept by
  every reader and writer, never interpreted. Any other unknown key is an error.
* The log stores what happened; anything it also states (trick winners, hand
  points, marks, the winner) is checked against the replay, never trusted.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, JsonValue, StringConstraints

from .versions import minimal_version

__all__ = [
    "match_json",
    "in_key_order",
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "SCHEMA_ID",
    "Annotation",
    "PassCall",
    "PointBid",
    "MarkBid",
    "Call",
    "Declaration",
    "Play",
    "PlayAnalysis",
    "HandAnalysis",
    "Deal",
    "TrickOutcome",
    "HandOutcome",
    "Hand",
    "RuleOptions",
    "RulesDeclaration",
    "Players",
    "DrawnTile",
    "MatchResult",
    "TeamNumbers",
    "Match",
    "PresetName",
    "ImportWarning",
    "Source",
    "minimal_version",
    "FreeText",
    "lone_surrogate",
]

FORMAT_NAME = "texas42-log"
#: The newest version this library writes; it reads 1.0 to this one as they are
#: (:data:`texas42_log.log.upgrade.READ_VERSIONS`). A document is written with the lowest
#: version that holds it (see :func:`minimal_version`).
FORMAT_VERSION = "1.7"
SCHEMA_ID = "urn:texas42-log:schema:texas42-log.v1.schema.json"

SeatName = Literal["A", "B", "C", "D"]
#: The 28 canonical tile names (R2); tests check this equals ``str(t) for t in TILES``.
TileName = Literal[
    "[0|0]",
    "[0|1]",
    "[0|2]",
    "[0|3]",
    "[0|4]",
    "[0|5]",
    "[0|6]",
    "[1|1]",
    "[1|2]",
    "[1|3]",
    "[1|4]",
    "[1|5]",
    "[1|6]",
    "[2|2]",
    "[2|3]",
    "[2|4]",
    "[2|5]",
    "[2|6]",
    "[3|3]",
    "[3|4]",
    "[3|5]",
    "[3|6]",
    "[4|4]",
    "[4|5]",
    "[4|6]",
    "[5|5]",
    "[5|6]",
    "[6|6]",
]
TrumpName = Literal["0", "1", "2", "3", "4", "5", "6", "doubles", "no-trump"]


def lone_surrogate(text: str) -> str | None:
    """The first half character (U+D800–U+DFFF) in ``text``, shown as an escape, or None.

    Python strings can hold one (bytes that were not UTF-8, decoded with
    ``surrogateescape``, as command-line arguments are); JSON text and UTF-8 cannot,
    so a log that held one would be refused by every reader, ours included."""
    for ch in text:
        if "\ud800" <= ch <= "\udfff":
            return f"\\u{ord(ch):04x}"
    return None


def _whole_text(text: str) -> str:
    half = lone_surrogate(text)
    if half is not None:
        raise ValueError(
            f"holds {half}, half of a character (a lone surrogate): not text a log can hold"
        )
    return text


#: Free text a person writes (names, comments): any string of whole characters.
FreeText = Annotated[str, AfterValidator(_whole_text)]

_EXTENSIONS: dict[str, JsonValue] = {
    "patternProperties": {"^x-": {}},
    "additionalProperties": False,
}


class _Object(BaseModel):
    """Base: strict types, unknown keys only under the ``x-`` prefix (kept).

    The prefix is checked by pydantic-core itself (the extras' key type), not by
    a Python validator per object: a log has some 26 objects a hand."""

    model_config = ConfigDict(
        extra="allow",
        strict=True,
        populate_by_name=True,
        json_schema_extra=_EXTENSIONS,
    )

    __pydantic_extra__: dict[Annotated[str, StringConstraints(pattern=r"^x-")], JsonValue]


#: A comment's id (since 1.7): letters, digits, ``_`` and ``-``, at most 40.
CommentId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,40}$")]


class Annotation(_Object):
    """A free-text comment on the match, a hand, a call or a play."""

    text: FreeText
    author: FreeText | None = None
    id: CommentId | None = Field(
        default=None,
        description="Since 1.7: the comment's id, unique in the document, so that it can be "
        "edited and removed by id (texas42 board, annotate edit). Random, never derived "
        "from the log.",
    )


#: A tuple, not a list: an immutable default is free, and a Play is built ~12 times a hand.
Annotations = Annotated[tuple[Annotation, ...], Field(default=(), strict=False)]


#: Every other integer of a log: far beyond any real value, so that a number of
#: thousands of digits is a schema error, not something to compute with.
Number = Annotated[int, Field(ge=-1_000_000, le=1_000_000)]


class _Action(_Object):
    seat: SeatName
    rejected: bool = Field(
        default=False,
        description="R30: an attempt the table refused. It changes nothing; the "
        "validator confirms it really was illegal.",
    )
    annotations: Annotations


class PassCall(_Action):
    """A pass (R7)."""

    call: Literal["pass"]


class PointBid(_Action):
    """A point bid (R8): an integer, legal from 30 to 41 under the seed rules."""

    call: Literal["points"]
    bid: Number


class MarkBid(_Action):
    """A bid in marks (R9): all tricks, or a special contract.

    ``bid`` is in marks, or in points (42 a mark) when the rules' ``mark_bid_units``
    is ``points`` (seed 003: "a 1-mark bid written as 42, a 2-mark bid as 84")."""

    call: Literal["marks"]
    bid: Number
    special: Literal["plunge", "splash"] | None = Field(
        default=None,
        description="Since 1.1. A Plunge or Splash bid (rules options plunge, splash): the "
        "bidder holds enough doubles; the partner declares trumps and leads.",
    )


Call = Annotated[PassCall | PointBid | MarkBid, Field(discriminator="call")]


class Declaration(_Object):
    """The trump declaration (R10, R12) and, for an all-tricks contract, the stacks (R27).

    After a mark bid the declaration may instead name a special contract (since 1.1):
    ``"contract": "nello"`` or ``"sevens"``, with no trump."""

    seat: SeatName
    trump: TrumpName | None = Field(
        default=None, description="Required, except for Nel-O and Sevens, which have no trumps."
    )
    contract: Literal["nello", "sevens"] | None = Field(
        default=None, description="Since 1.1. Nel-O or Sevens, declared after a mark bid."
    )
    doubles: Literal["high", "low", "own-suit"] | None = Field(
        default=None,
        description="Since 1.1. Nel-O only, when the rules let the bidder choose "
        "(nello_doubles = bidder-chooses): where the doubles stand.",
    )
    stacks: Number | None = Field(
        default=None,
        description="R27: all-tricks contracts only — how many completed tricks "
        "stay face up during the hand (1 or 2).",
    )
    annotations: Annotations


Points42 = Annotated[int, Field(ge=0, le=42)]
#: A play as an analysis names it: the tile, and " led N" for a declared lead.
MoveKey = Annotated[str, StringConstraints(pattern=r"^\[[0-6]\|[0-6]\]( led [0-6])?$")]


#: The most worlds a decision may be drawn from (``analyze --worlds``), and the largest seed.
MAX_WORLDS = 100_000
MAX_SEED = 2**63 - 1
Share = Annotated[float, Field(ge=0, le=1)]


class FairValue(_Object):
    """Since 1.4. One play's values over the worlds its player could not tell apart."""

    mean: Annotated[float, Field(ge=0, le=42)] = Field(
        description="The mean open-hand value over the worlds."
    )
    se: Annotated[float, Field(ge=0, le=42)] = Field(
        description="Its standard error (0: every world counted)."
    )
    share: Share = Field(
        description="The share of worlds in which the seat's side reaches its goal "
        "(the contract made for the bidders, set for the defenders)."
    )
    share_se: Share = Field(description="Its standard error (0: every world counted).")


class FairPlay(_Object):
    """Since 1.4. The fair analysis of a play: each legal play valued over the deals its
    player could not tell apart (``texas42 analyze --fair --annotate``)."""

    forced: Literal[True] | None = Field(
        default=None, description="The play was the only legal one: nothing to judge."
    )
    worlds: Annotated[int, Field(ge=1, le=MAX_WORLDS * 10)] | None = Field(
        default=None, description="The worlds the values are over."
    )
    of: Annotated[int, Field(ge=1, le=10**12)] | None = Field(
        default=None, description="How many worlds agree with what the player saw."
    )
    enumerated: bool | None = Field(
        default=None, description="Whether the values are over every world."
    )
    values: dict[MoveKey, FairValue] | None = Field(
        default=None, description="Each legal play's values."
    )
    cost: Annotated[float, Field(ge=0, le=42)] | None = Field(
        default=None, description="Hand points the play gave away against the best mean."
    )
    chance_lost: Share | None = Field(
        default=None, description="The share of the goal given up against the best play."
    )
    mark: Literal["?", "??"] | None = Field(
        default=None, description="? a dubious play, ?? a blunder (docs/analysis.md)."
    )
    best: MoveKey | None = Field(
        default=None,
        description="Since 1.6: the one best fair play (the best chance of the side's goal, "
        "ties broken by the mean; in a points game the best mean), which cost, chance_lost and "
        "mark are measured against. Before 1.6 cost was measured against the best mean and "
        "chance_lost against the best chance.",
    )


class FairRun(_Object):
    """Since 1.4. How a hand's fair analysis was drawn: ``--verify`` draws the same."""

    worlds: Annotated[int, Field(ge=1, le=MAX_WORLDS)] = Field(
        description="Worlds drawn a decision."
    )
    seed: Annotated[int, Field(ge=0, le=MAX_SEED)] = Field(description="The seed of the draw.")


class PlayAnalysis(_Object):
    """Since 1.3. The open-hand analysis of a play (``texas42 analyze --annotate``).

    Values are the hand points the bidders' team takes in all 7 tricks with best
    play on both sides and every hand open. Checked against the play and the
    replay; ``texas42 analyze --verify`` recomputes them."""

    values: dict[MoveKey, Points42] | None = Field(
        default=None,
        description="The value after each legal play at this moment, the play made included. "
        "Required where the deal is fully known; since 1.6 absent where it is not (a play with "
        "only its fair analysis).",
    )
    cost: Points42 | None = Field(
        default=None,
        description="Hand points the play gave away against its side's best play (with values).",
    )
    fate: Literal["lost", "let-make"] | None = Field(
        default=None,
        description="lost: a bidders' play turned a makeable contract unmakeable; let-make: a "
        "defenders' play let a contract that could be set be made.",
    )
    fair: FairPlay | None = None


class HandAnalysis(_Object):
    """Since 1.3. The open-hand analysis of a hand: its value at the first lead and the
    deal's makeable table."""

    value: Points42 | None = Field(
        default=None,
        description="The bidders' hand points in all 7 tricks with best play from the first "
        "lead. Required where the deal is fully known; since 1.6 absent where it is not (a hand "
        "with only its fair analysis).",
    )
    makeable: bool | None = Field(
        default=None, description="Whether best play makes the contract (with value)."
    )
    table: dict[TrumpName, Points42] | None = Field(
        default=None,
        description="For each trump choice: the bidders' hand points with best play when the "
        "bidder "
        "declares it and leads (a point contract).",
    )
    fair: FairRun | None = None


class Play(_Action):
    """One tile played (R21)."""

    tile: TileName
    led: Annotated[int, Field(ge=0, le=6)] | None = Field(
        default=None,
        description="Since 1.1. The suit a leader declares its non-double, non-trump tile "
        "leads, when the rules allow it (declared_lead).",
    )
    analysis: PlayAnalysis | None = None


class Deal(_Object):
    """Each seat's 7 tiles in the order received (R3); ``null`` for a tile not known."""

    A: list[TileName | None]
    B: list[TileName | None]
    C: list[TileName | None]
    D: list[TileName | None]


class TeamNumbers(_Object):
    """A number per team."""

    AC: Number = Field(alias="A+C")
    BD: Number = Field(alias="B+D")


class TrickOutcome(_Object):
    """A trick as the recorder saw it; checked against the replay."""

    winner: SeatName | None = None
    points: Number | None = None


class HandOutcome(_Object):
    """The hand's result as the recorder saw it. Every field is optional and checked."""

    tricks: list[TrickOutcome] | None = None
    points: TeamNumbers | None = Field(default=None, description="R6: hand points per team.")
    result: Literal["made", "set", "no-contract"] | None = None
    marks: TeamNumbers | None = Field(default=None, description="R23: marks this hand gave.")
    score: TeamNumbers | None = Field(
        default=None, description="R5: match marks per team after this hand."
    )


class Hand(_Object):
    """One deal and everything done with it."""

    dealer: SeatName
    deal: Deal | None = Field(default=None, description="Omitted when no tile is known.")
    auction: list[Call]
    declaration: Declaration | None = None
    plays: list[Play] = Field(default_factory=list)
    outcome: HandOutcome | None = None
    analysis: HandAnalysis | None = None
    annotations: Annotations


Count = Annotated[int, Field(ge=1, le=10_000)]
Doubles7 = Annotated[int, Field(ge=0, le=7)]


class RuleOptions(_Object):
    """Options that override the preset's (``texas42 rules`` shows each one's meaning).

    Format 1.0 spelled out the nine seed options; since 1.1 every option is
    optional, and the effective rules are the preset's with these applied.
    """

    dealer_draw: Literal["fair", "highest-pips", "blank-one-bids-first"] | None = None
    all_pass: Literal["redeal", "dealer-must-bid", "dealer-bids-30", "dealer-bids-31"] | None = None
    min_point_bid: Points42 | None = None
    max_point_bid: Points42 | None = None
    mark_bid_units: Literal["marks", "points"] | None = None
    max_opening_mark_bid: Count | None = None
    mark_bid_raise: Count | None = None
    mark_ladder: Literal["exact-raise", "free"] | None = None
    max_mark_bid: Count | None = None
    plain_mark_bids: bool | None = None
    no_trump: bool | None = None
    doubles_trump: bool | None = None
    doubles: Literal["in-suit", "own-suit"] | None = None
    no_trump_doubles: Literal["high", "low", "own-suit"] | None = None
    declared_lead: Literal["never", "first-trick", "always"] | None = None
    hand_end: Literal["when-decided", "all-tricks"] | None = None
    all_tricks_stacks: Literal["bidder-chooses", "fixed-1", "fixed-2", "all-visible"] | None = None
    nello: bool | None = None
    nello_min_marks: Count | None = None
    nello_doubles: (
        Literal["high", "low", "own-suit", "bidder-chooses", "own-suit-or-low"] | None
    ) = None
    nello_low_min_marks: Count | None = None
    plunge: bool | None = None
    plunge_min_doubles: Doubles7 | None = None
    plunge_marks: Count | None = None
    splash: bool | None = None
    splash_min_doubles: Doubles7 | None = None
    splash_min_marks: Count | None = None
    splash_max_marks: Count | None = None
    special_bids: Literal["raise", "aside"] | None = None
    special_no_trump: bool | None = None
    sevens: bool | None = None
    sevens_min_marks: Count | None = None
    sevens_play: Literal["follow-suit", "closest"] | None = None
    match_goal: Literal["marks", "points"] | None = None
    match_goal_marks: Count | None = None
    match_goal_points: Count | None = None

    def overrides(self) -> dict[str, Any]:
        """The options this log sets (extensions excluded)."""
        return {k: v for k in type(self).model_fields if (v := getattr(self, k)) is not None}


PresetName = Literal[
    "standard",
    "tournament",
    "casual",
    "texas-42",
    "plunge-t",
    "plunge-f",
    "plunge-l",
    "plunge-c",
    "tricksy",
    "mk5",
]


class RulesDeclaration(_Object):
    """A named preset and the options the log overrides."""

    preset: PresetName
    options: RuleOptions = Field(default_factory=RuleOptions)


class Players(_Object):
    """Optional player names by seat."""

    A: FreeText | None = None
    B: FreeText | None = None
    C: FreeText | None = None
    D: FreeText | None = None


class DrawnTile(_Object):
    """One seat's tile in the draw for the first dealer (R4)."""

    seat: SeatName
    tile: TileName


class MatchResult(_Object):
    """The match result as the recorder saw it; checked (R24)."""

    winner: Literal["A+C", "B+D"]
    marks: TeamNumbers | None = None


class ImportWarning(_Object):
    """Something the source format did not record, or recorded in a way this format
    cannot, said once by the importer (e.g. an assumed auction)."""

    text: FreeText
    hand: Annotated[int, Field(ge=1)] | None = Field(
        default=None, description="The hand it concerns, from 1."
    )


class Source(_Object):
    """Since 1.1. Where an imported match came from: ``texas42 validate`` repeats its
    warnings (rule id ``import``) so nobody mistakes an assumption for a record."""

    format: str = Field(
        description="The format read, e.g. 'texas-42-receipt', 'plunge-code', 'tricksy'."
    )
    warnings: Annotated[tuple[ImportWarning, ...], Field(default=(), strict=False)]


class Match(_Object):
    """A texas42-log document: one match."""

    model_config = ConfigDict(
        title="texas42-log v1",
        json_schema_extra=_EXTENSIONS,
    )

    format: Literal["texas42-log"]
    version: Annotated[str, Field(pattern=r"^1\.[0-9]+$")]
    rules: RulesDeclaration
    players: Players | None = None
    first_dealer: SeatName
    dealer_draw: list[DrawnTile] | None = None
    status: Literal["complete", "unfinished"] = Field(
        default="complete",
        description="'unfinished': the match is still in progress (or was abandoned); "
        "its last hand may stop anywhere.",
    )
    hands: list[Hand]
    result: MatchResult | None = None
    source: Source | None = None
    annotations: Annotations


def match_json(match: Match) -> dict[str, Any]:
    """A match as the JSON object this tool writes: defaults left out, ``status`` kept."""
    doc = match.model_dump(mode="json", by_alias=True, exclude_defaults=True)
    doc["status"] = match.status
    doc["rules"].setdefault(
        "options", {}
    )  # "no overrides", said as the fixtures and generator say it
    return _notes_last(in_key_order(doc))  # type: ignore[no-any-return]


def in_key_order(doc: dict[str, Any]) -> dict[str, Any]:
    """A match document's keys in the order this tool writes them (the model's: format,
    version and rules first), the keys the model does not name (extensions) after."""
    fields = Match.model_fields
    return {k: doc[k] for k in fields if k in doc} | {
        k: v for k, v in doc.items() if k not in fields
    }


def _notes_last(value: Any) -> Any:
    """Comments after what they comment on, in every object (the models list them first)."""
    if isinstance(value, dict):
        out = {k: _notes_last(v) for k, v in value.items() if k != "annotations"}
        if "annotations" in value:
            out["annotations"] = _notes_last(value["annotations"])
        return out
    if isinstance(value, list):
        return [_notes_last(v) for v in value]
    return value
