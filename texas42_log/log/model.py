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

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, Literal, Optional

from pydantic import ConfigDict, Field, create_model

from ..engine.options import Option
from ..engine.presets import PRESETS
from ..engine.rules import OPTIONS
from .model_analysis import (
    MAX_SEED,
    MAX_WORLDS,
    BidKey,
    CallAnalysis,
    DeclarationAnalysis,
    FairCall,
    FairDeclaration,
    FairPlay,
    FairRun,
    FairValue,
    HandAnalysis,
    HandPoints,
    MoveKey,
    PlayAnalysis,
    RowKey,
    Share,
)
from .model_base import (
    EXTENSIONS,
    Annotation,
    Annotations,
    CommentId,
    FreeText,
    LogObject,
    Number,
    SeatName,
    TileName,
    TrumpName,
    lone_surrogate,
)
from .versions import FORMAT_VERSION, minimal_version

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
    "MAX_SEED",
    "MAX_WORLDS",
    "BidKey",
    "RowKey",
    "MoveKey",
    "Share",
    "HandPoints",
    "CommentId",
    "Annotations",
    "Number",
    "SeatName",
    "TileName",
    "TrumpName",
    "FairCall",
    "FairDeclaration",
    "FairPlay",
    "FairRun",
    "FairValue",
    "CallAnalysis",
    "DeclarationAnalysis",
]

FORMAT_NAME = "texas42-log"
SCHEMA_ID = "urn:texas42-log:schema:texas42-log.v1.schema.json"


class _Action(LogObject):
    seat: SeatName
    rejected: bool = Field(
        default=False,
        description="R30: an attempt the table refused. It changes nothing; the "
        "validator confirms it really was illegal.",
    )
    annotations: Annotations


class _CallAction(_Action):
    analysis: CallAnalysis | None = Field(
        default=None, description="Since 1.8: the call's fair verdict (docs/analysis.md)."
    )


class PassCall(_CallAction):
    """A pass (R7)."""

    call: Literal["pass"]


class PointBid(_CallAction):
    """A point bid (R8): an integer, legal from 30 to 41 under the seed rules."""

    call: Literal["points"]
    bid: Number


class MarkBid(_CallAction):
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


class Declaration(LogObject):
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
    analysis: DeclarationAnalysis | None = Field(
        default=None, description="Since 1.8: the declaration's fair verdict (docs/analysis.md)."
    )
    annotations: Annotations


class Play(_Action):
    """One tile played (R21)."""

    tile: TileName
    led: Annotated[int, Field(ge=0, le=6)] | None = Field(
        default=None,
        description="Since 1.1. The suit a leader declares its non-double, non-trump tile "
        "leads, when the rules allow it (declared_lead).",
    )
    analysis: PlayAnalysis | None = None


class Deal(LogObject):
    """Each seat's 7 tiles in the order received (R3); ``null`` for a tile not known."""

    A: list[TileName | None]
    B: list[TileName | None]
    C: list[TileName | None]
    D: list[TileName | None]


class TeamNumbers(LogObject):
    """A number per team."""

    AC: Number = Field(alias="A+C")
    BD: Number = Field(alias="B+D")


class TrickOutcome(LogObject):
    """A trick as the recorder saw it; checked against the replay."""

    winner: SeatName | None = None
    points: Number | None = None


class HandOutcome(LogObject):
    """The hand's result as the recorder saw it. Every field is optional and checked."""

    tricks: list[TrickOutcome] | None = None
    points: TeamNumbers | None = Field(default=None, description="R6: hand points per team.")
    result: Literal["made", "set", "no-contract"] | None = None
    marks: TeamNumbers | None = Field(default=None, description="R23: marks this hand gave.")
    score: TeamNumbers | None = Field(
        default=None, description="R5: match marks per team after this hand."
    )


class Hand(LogObject):
    """One deal and everything done with it."""

    dealer: SeatName
    deal: Deal | None = Field(default=None, description="Omitted when no tile is known.")
    auction: list[Call]
    declaration: Declaration | None = None
    plays: list[Play] = Field(default_factory=list)
    outcome: HandOutcome | None = None
    analysis: HandAnalysis | None = None
    annotations: Annotations


def _option_type(o: Option) -> Any:
    """The JSON type of an option as its declaration in ``Rules`` allows it, or null."""
    kind: Any
    if o.kind == "bool":
        kind = bool
    elif o.kind == "int":
        kind = Annotated[int, Field(ge=o.low, le=o.high)]
    else:
        kind = Literal.__getitem__(o.choices)
    return (Optional.__getitem__(kind), None)


class _RuleOptions(LogObject):
    """Options that override the preset's (``texas42 rules`` shows each one's meaning).

    Format 1.0 spelled out the nine seed options; since 1.1 every option is
    optional, and the effective rules are the preset's with these applied.
    """

    def overrides(self) -> dict[str, Any]:
        """The options this log sets (extensions excluded)."""
        return {k: v for k in type(self).model_fields if (v := getattr(self, k)) is not None}


def options_model(options: Mapping[str, Option]) -> type[_RuleOptions]:
    """The model of a log's rule options: one optional field for each declared option,
    with the values its declaration allows (engine/rules.py declares each option once, as
    a field of ``Rules``; :data:`RuleOptions` is this model of them)."""
    fields: dict[str, Any] = {name: _option_type(o) for name, o in options.items()}
    model: type[_RuleOptions] = create_model(
        "RuleOptions",
        __base__=_RuleOptions,
        __doc__=_RuleOptions.__doc__,
        __module__=__name__,
        **fields,
    )
    return model


if TYPE_CHECKING:
    RuleOptions = _RuleOptions
    PresetName = str
else:
    RuleOptions = options_model(OPTIONS)
    #: The preset names a log may give: those of engine/presets.py.
    PresetName = Literal.__getitem__(tuple(PRESETS))


class RulesDeclaration(LogObject):
    """A named preset and the options the log overrides."""

    preset: PresetName
    options: RuleOptions = Field(default_factory=RuleOptions)


class Players(LogObject):
    """Optional player names by seat."""

    A: FreeText | None = None
    B: FreeText | None = None
    C: FreeText | None = None
    D: FreeText | None = None


class DrawnTile(LogObject):
    """One seat's tile in the draw for the first dealer (R4)."""

    seat: SeatName
    tile: TileName


class MatchResult(LogObject):
    """The match result as the recorder saw it; checked (R24)."""

    winner: Literal["A+C", "B+D"]
    marks: TeamNumbers | None = None


class ImportWarning(LogObject):
    """Something the source format did not record, or recorded in a way this format
    cannot, said once by the importer (e.g. an assumed auction)."""

    text: FreeText
    hand: Annotated[int, Field(ge=1)] | None = Field(
        default=None, description="The hand it concerns, from 1."
    )


class Source(LogObject):
    """Since 1.1. Where an imported match came from: ``texas42 validate`` repeats its
    warnings (rule id ``import``) so nobody mistakes an assumption for a record."""

    format: str = Field(
        description="The format read, e.g. 'texas-42-receipt', 'plunge-code', 'tricksy'."
    )
    warnings: Annotated[tuple[ImportWarning, ...], Field(default=(), strict=False)]


class Match(LogObject):
    """A texas42-log document: one match."""

    model_config = ConfigDict(
        title="texas42-log v1",
        json_schema_extra=EXTENSIONS,
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
