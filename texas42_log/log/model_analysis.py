"""The analysis a log may state (since 1.3): open-hand and fair, of plays, hands, calls
and the declaration.

Part of the pydantic models of :mod:`texas42_log.log.model` (which re-exports every name
here). docs/format.md and docs/analysis.md say what each field means.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from ..engine.count import VALUE_LIMIT
from .model_base import LogObject, TrumpName

#: Hand points, bounded by what any count can hold (42 by the seed rules; the rules'
#: count, :mod:`texas42_log.engine.count`, bounds them exactly, and ``validate`` checks it).
HandPoints = Annotated[int, Field(ge=0, le=VALUE_LIMIT)]
PointsFloat = Annotated[float, Field(ge=0, le=VALUE_LIMIT)]
#: A play as an analysis names it: the tile, and " led N" for a declared lead.
MoveKey = Annotated[str, StringConstraints(pattern=r"^\[[0-6]\|[0-6]\]( led [0-6])?$")]


#: The most worlds a decision may be drawn from (``analyze --worlds``), and the largest seed.
MAX_WORLDS = 100_000
MAX_SEED = 2**63 - 1
Share = Annotated[float, Field(ge=0, le=1)]


class FairValue(LogObject):
    """Since 1.4. One play's values over the worlds its player could not tell apart."""

    mean: PointsFloat = Field(description="The mean open-hand value over the worlds.")
    se: PointsFloat = Field(description="Its standard error (0: every world counted).")
    share: Share = Field(
        description="The share of worlds in which the seat's side reaches its goal "
        "(the contract made for the bidders, set for the defenders)."
    )
    share_se: Share = Field(description="Its standard error (0: every world counted).")


class FairPlay(LogObject):
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
    cost: PointsFloat | None = Field(
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


class FairRun(LogObject):
    """Since 1.4. How a hand's fair analysis was drawn: ``--verify`` draws the same."""

    worlds: Annotated[int, Field(ge=1, le=MAX_WORLDS)] = Field(
        description="Worlds drawn a decision."
    )
    seed: Annotated[int, Field(ge=0, le=MAX_SEED)] = Field(description="The seed of the draw.")
    calls: Literal["contract"] | None = Field(
        default=None,
        description="Since 1.11: how the calls were judged. contract: each call worth the "
        "contract its auction ends in (the rest of the auction called by the rule bidder, the "
        "worlds weighed by the calls heard; docs/analysis.md). Absent: as if the auction ended "
        "with the call unless outbid (1.10).",
    )
    chances: Literal["kind"] | None = Field(
        default=None,
        description="Since 1.12: how the auction's chances are stated. kind: as played, each "
        "kind of contract's open-hand share corrected by its own curve (a table's open_table "
        "keeps the shares; docs/analysis.md). Absent: the tables hold the open-hand shares, "
        "judged by the single curve (1.11 and before).",
    )


class PlayAnalysis(LogObject):
    """Since 1.3. The open-hand analysis of a play (``texas42 analyze --annotate``).

    Values are the hand points the bidders' team takes in all 7 tricks with best
    play on both sides and every hand open. Checked against the play and the
    replay; ``texas42 analyze --verify`` recomputes them."""

    values: dict[MoveKey, HandPoints] | None = Field(
        default=None,
        description="The value after each legal play at this moment, the play made included. "
        "Required where the deal is fully known; since 1.6 absent where it is not (a play with "
        "only its fair analysis).",
    )
    cost: HandPoints | None = Field(
        default=None,
        description="Hand points the play gave away against its side's best play (with values).",
    )
    fate: Literal["lost", "let-make"] | None = Field(
        default=None,
        description="lost: a bidders' play turned a makeable contract unmakeable; let-make: a "
        "defenders' play let a contract that could be set be made.",
    )
    fair: FairPlay | None = None


class HandAnalysis(LogObject):
    """Since 1.3. The open-hand analysis of a hand: its value at the first lead and the
    deal's makeable table."""

    value: HandPoints | None = Field(
        default=None,
        description="The bidders' hand points in all 7 tricks with best play from the first "
        "lead. Required where the deal is fully known; since 1.6 absent where it is not (a hand "
        "with only its fair analysis).",
    )
    makeable: bool | None = Field(
        default=None, description="Whether best play makes the contract (with value)."
    )
    table: dict[TrumpName, HandPoints] | None = Field(
        default=None,
        description="For each trump choice: the bidders' hand points with best play when the "
        "bidder "
        "declares it and leads (a point contract).",
    )
    fair: FairRun | None = None


#: A bid as the fair makeable table columns it (since 1.8): ``30``, ``1 mark``, ``2 marks``,
#: ``plunge 4 marks``, ``splash 2 marks``.
BidKey = Annotated[
    str, StringConstraints(pattern=r"^((plunge|splash) )?([0-9]{1,2}|1 mark|[0-9]{1,2} marks)$")
]
#: A way to play a contract (since 1.8): a trump, or Nel-O (with its doubles) or Sevens.
RowKey = Annotated[
    str,
    StringConstraints(pattern=r"^([0-6]|doubles|no-trump|sevens|nello( (high|low|own-suit))?)$"),
]
AuctionWorlds = Annotated[int, Field(ge=2, le=MAX_WORLDS)]
#: Expected marks (since 1.10): a mark bid puts at most 10,000 marks at stake (max_mark_bid).
ExpectedMarks = Annotated[float, Field(ge=-10_000, le=10_000)]
Deals = Annotated[int, Field(ge=1, le=10**12)]


class FairCall(LogObject):
    """Since 1.8. The fair verdict of a call: the caller's fair makeable table of the bids
    open to it then, from its own tiles (``texas42 analyze --fair --annotate``). Each chance's
    standard error is √(p(1 − p)/(worlds − 1)) and so not stated."""

    worlds: AuctionWorlds = Field(description="The deals of the unseen tiles drawn.")
    of: Deals = Field(description="How many deals of them there are.")
    table: dict[BidKey, dict[RowKey, Share]] = Field(
        description="Bid → trump (or Nel-O, Sevens) → its chance: since 1.12 as played (the "
        "open-hand share corrected for its kind of contract); before, the share of the deals "
        "in which it is made with every hand open."
    )
    open_table: dict[BidKey, dict[RowKey, Share]] | None = Field(
        default=None,
        description="Since 1.12: the same cells as open-hand shares (the deals in which it is "
        "made with every hand open).",
    )
    supported: BidKey | None = Field(
        description="The highest bid whose best chance as played is at least 50% (null: pass)."
    )
    supported_trump: RowKey | None = Field(description="Its best trump.")
    declared: RowKey | None = Field(
        default=None, description="The winning bid only: the trump the declarer chose."
    )
    chance: Share | None = Field(
        default=None, description="The winning bid only: its chance with that trump."
    )
    best: RowKey | None = Field(
        default=None, description="The winning bid only: the trump with its best chance."
    )
    best_chance: Share | None = Field(default=None, description="That best chance.")
    expected: ExpectedMarks | None = Field(
        default=None,
        description="Since 1.10, in a game of marks: the call's expected marks by the table "
        "(marks at stake × (2 × chance as played − 1) with its best trump; a pass 0), if the "
        "auction ends with it unless outbid.",
    )
    pays_best: BidKey | Literal["pass"] | None = Field(
        default=None,
        description="Since 1.10: the call that pays best by the table (the highest expected "
        "marks; ties: the lowest call).",
    )
    pays_best_trump: RowKey | None = Field(
        default=None, description="Since 1.10: its best trump (absent for a pass)."
    )
    pays_best_expected: ExpectedMarks | None = Field(
        default=None, description="Since 1.10: its expected marks."
    )
    marks_lost: Annotated[float, Field(ge=0, le=20_000)] | None = Field(
        default=None,
        description="Since 1.10: the expected marks the call gave up against the one that pays "
        "best.",
    )
    marks_lost_se: Annotated[float, Field(ge=0, le=20_000)] | None = Field(
        default=None, description="Since 1.10: its standard error, world by world."
    )
    mark: Literal["?", "??"] | None = Field(
        default=None,
        description="Since 1.10: ? a dubious call (0.1 expected marks given up or more), ?? a "
        "blunder (0.4 or more); only past twice the error (docs/analysis.md).",
    )
    contract: FairCallContract | None = Field(
        default=None,
        description="Since 1.11: the call worth the contract its auction ends in (in a game of "
        "marks); a log of 1.11 states this in place of expected, pays_best, marks_lost and mark.",
    )


class ContractEnd(LogObject):
    """Since 1.11. One contract a call's auction ends in, over the worlds its caller could
    not tell apart."""

    by: Literal["A", "B", "C", "D"] | None = Field(
        default=None, description="The seat whose bid won (absent: all four passed, a new deal)."
    )
    bid: BidKey | None = Field(default=None, description="The winning bid (absent: all passed).")
    trump: RowKey | None = Field(default=None, description="How it is played (absent: all passed).")
    share: Share = Field(description="Its share of the worlds, weighed by the calls heard.")
    made: Share = Field(
        description="Its chance of being made: since 1.12 as played (corrected for its kind); "
        "before, the share of those worlds in which it is made with every hand open."
    )
    made_open: Share | None = Field(
        default=None,
        description="Since 1.12: the share of those worlds in which it is made, every hand open.",
    )


class FairCallContract(LogObject):
    """Since 1.11. A call worth the contract its auction ends in, from its caller's side
    (docs/analysis.md): the call made, the call that pays best, and how the worlds were
    weighed. Replaces 1.10's expected, pays_best, marks_lost and mark."""

    worth: ExpectedMarks = Field(
        description="The call's expected marks: over the contracts its auction ends in, each "
        "one's share × its stake × (2 × made as played − 1), for the caller's side when its "
        "side holds it, against it when the others do."
    )
    best: BidKey | Literal["pass"] = Field(
        description="The call open to the caller of the highest worth (ties: the lowest)."
    )
    best_trump: RowKey | None = Field(
        default=None, description="The trump the caller would name for it (absent for a pass)."
    )
    best_worth: ExpectedMarks = Field(description="Its worth.")
    lost: Annotated[float, Field(ge=0, le=20_000)] = Field(
        description="The worth given up against the call that pays best."
    )
    lost_se: Annotated[float, Field(ge=0, le=20_000)] = Field(
        description="Its standard error, world by world, weighed."
    )
    worlds: Annotated[float, Field(ge=0, le=MAX_WORLDS)] = Field(
        description="The effective number of worlds, (Σw)² / Σw², after the calls heard weighed "
        "them."
    )
    weighed: bool = Field(
        description="false: the calls heard were too rare to weigh (fewer effective worlds than "
        "a tenth of those drawn), and every world weighs alike."
    )
    ends: list[ContractEnd] = Field(
        max_length=1000,
        description="The contracts the call's auction ends in, the most likely first; their "
        "shares add up to 1.",
    )
    mark: Literal["?", "??"] | None = Field(
        default=None,
        description="? a dubious call (0.1 expected marks given up or more), ?? a blunder (0.4 "
        "or more); only past twice the error.",
    )


class CallAnalysis(LogObject):
    """Since 1.8. The analysis of a call."""

    fair: FairCall | None = None


class FairDeclaration(LogObject):
    """Since 1.8. The fair verdict of the declaration, from the declarer's own tiles."""

    worlds: AuctionWorlds = Field(description="The deals of the unseen tiles drawn.")
    of: Deals = Field(description="How many deals of them there are.")
    table: dict[RowKey, Share] = Field(
        description="Each declaration the rules allow after the contract → its chance (since "
        "1.12 as played)."
    )
    open_table: dict[RowKey, Share] | None = Field(
        default=None, description="Since 1.12: the same chances as open-hand shares."
    )
    best: RowKey = Field(description="The declaration with the best chance (ties: the first).")
    chance_lost: Share = Field(description="The chance the declaration gave up against it.")
    mark: Literal["?", "??"] | None = Field(
        default=None, description="? a dubious declaration, ?? a blunder (docs/analysis.md)."
    )


class DeclarationAnalysis(LogObject):
    """Since 1.8. The analysis of the declaration."""

    fair: FairDeclaration | None = None
