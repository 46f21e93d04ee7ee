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

from pydantic import BaseModel, ConfigDict, Field, JsonValue, model_validator

__all__ = [
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
]

FORMAT_NAME = "texas42-log"
#: The version this library writes; it reads every 1.x that parses with these models.
FORMAT_VERSION = "1.0"
SCHEMA_ID = "urn:texas42-log:schema:texas42-log.v1.schema.json"

SeatName = Literal["A", "B", "C", "D"]
#: The 28 canonical tile names (R2); tests check this equals ``str(t) for t in TILES``.
TileName = Literal[
    "[0|0]", "[0|1]", "[0|2]", "[0|3]", "[0|4]", "[0|5]", "[0|6]",
    "[1|1]", "[1|2]", "[1|3]", "[1|4]", "[1|5]", "[1|6]",
    "[2|2]", "[2|3]", "[2|4]", "[2|5]", "[2|6]",
    "[3|3]", "[3|4]", "[3|5]", "[3|6]",
    "[4|4]", "[4|5]", "[4|6]",
    "[5|5]", "[5|6]",
    "[6|6]",
]
TrumpName = Literal["0", "1", "2", "3", "4", "5", "6", "doubles", "no-trump"]

_EXTENSIONS: dict[str, JsonValue] = {"patternProperties": {"^x-": {}}, "additionalProperties": False}


class _Object(BaseModel):
    """Base: strict types, unknown keys only under the ``x-`` prefix (kept)."""

    model_config = ConfigDict(
        extra="allow",
        strict=True,
        populate_by_name=True,
        json_schema_extra=_EXTENSIONS,
    )

    @model_validator(mode="after")
    def _only_extensions(self) -> Any:
        extra = self.__pydantic_extra__
        if extra:
            for key in extra:
                if not key.startswith("x-"):
                    raise ValueError(
                        f"unknown field {key!r}; extension fields must start with 'x-'"
                    )
        return self


class Annotation(_Object):
    """A free-text comment on the match, a hand, a call or a play."""

    text: str
    author: str | None = None


Annotations = Annotated[list[Annotation], Field(default_factory=list)]


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
    bid: int


class MarkBid(_Action):
    """An all-tricks bid in marks (R9)."""

    call: Literal["marks"]
    bid: int


Call = Annotated[PassCall | PointBid | MarkBid, Field(discriminator="call")]


class Declaration(_Object):
    """The trump declaration (R10, R12) and, for an all-tricks contract, the stacks (R27)."""

    seat: SeatName
    trump: TrumpName
    stacks: int | None = Field(
        default=None,
        description="R27: all-tricks contracts only — how many completed tricks "
        "stay face up during the hand (1 or 2).",
    )
    annotations: Annotations


class Play(_Action):
    """One tile played (R21)."""

    tile: TileName


class Deal(_Object):
    """Each seat's 7 tiles in the order received (R3); ``null`` for a tile not known."""

    A: list[TileName | None]
    B: list[TileName | None]
    C: list[TileName | None]
    D: list[TileName | None]


class TeamNumbers(_Object):
    """A number per team."""

    AC: int = Field(alias="A+C")
    BD: int = Field(alias="B+D")


class TrickOutcome(_Object):
    """A trick as the recorder saw it; checked against the replay."""

    winner: SeatName | None = None
    points: int | None = None


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
    annotations: Annotations


class RuleOptions(_Object):
    """Every rule option, spelled out. See ``texas42 rules`` for each one's meaning."""

    all_pass: Literal["redeal"]
    hand_end: Literal["when-decided"]
    min_point_bid: Annotated[int, Field(ge=0, le=42)]
    max_point_bid: Annotated[int, Field(ge=0, le=42)]
    max_opening_mark_bid: Annotated[int, Field(ge=1)]
    mark_bid_raise: Annotated[int, Field(ge=1)]
    no_trump_doubles: Literal["high"]
    all_tricks_stacks: Literal["bidder-chooses"]
    match_goal_marks: Annotated[int, Field(ge=1)]


class RulesDeclaration(_Object):
    """A named preset and the effective value of every option."""

    preset: Literal["standard"]
    options: RuleOptions


class Players(_Object):
    """Optional player names by seat."""

    A: str | None = None
    B: str | None = None
    C: str | None = None
    D: str | None = None


class DrawnTile(_Object):
    """One seat's tile in the draw for the first dealer (R4)."""

    seat: SeatName
    tile: TileName


class MatchResult(_Object):
    """The match result as the recorder saw it; checked (R24)."""

    winner: Literal["A+C", "B+D"]
    marks: TeamNumbers | None = None


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
    annotations: Annotations
