"""The trump declaration: its checks and its legal choices (R10, R12, R27, the special contracts).

One code path for the validator (:mod:`.check`, which reports every problem at
its pointer) and for the live :class:`~texas42_log.play.game.Game` (which refuses a
declaration with the first problem): the same rules, the same sentences.

Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .auction import BidKind, Contract
from .rules import Rules
from .seats import Seat
from .trumps import Trump

__all__ = ["Choice", "Problem", "declaration_problems", "declaration_choices"]

Special = Literal["nello", "sevens"]
NelloSide = Literal["high", "low", "own-suit"]


@dataclass(frozen=True, slots=True)
class Problem:
    """One broken rule of a declaration. ``where``: the pointer below the
    declaration (``""``, ``"/seat"``, ``"/trump"``, …); ``fatal``: the hand
    cannot be replayed past it."""

    rule: str
    where: str
    message: str
    context: dict[str, Any] = field(default_factory=dict)
    fatal: bool = False


@dataclass(frozen=True, slots=True)
class Choice:
    """A declaration as the log holds it: a trump, or a special contract with
    Nel-O's doubles; and the stacks of an all-tricks contract."""

    trump: Trump | None = None
    special: Special | None = None
    doubles: NelloSide | None = None
    stacks: int | None = None


def declaration_problems(
    rules: Rules, contract: Contract, seat: Seat, choice: Choice, hand_no: int
) -> tuple[list[Problem], tuple[Contract, Trump] | None]:
    """Every problem of ``seat`` declaring ``choice`` after ``contract``, and the
    contract as played with its trump (None when the hand cannot be replayed)."""
    out: list[Problem] = []
    n = hand_no
    r = rules
    ctx = {"hand": n}
    if seat != contract.declarer:
        if contract.declarer == contract.bidder:
            who = f"the highest bidder {contract.bidder}"
        else:
            who = (
                f"{contract.declarer}, partner of the {contract.special} bidder {contract.bidder},"
            )
        out.append(
            Problem(
                "R10",
                "/seat",
                f"hand {n}: {seat} declares trumps, but {who} declares them (R10)",
                {"hand": n, "bidder": contract.bidder},
            )
        )
    trump: Trump
    if choice.special is not None:
        special = choice.special
        rule = f"variant:{special}"
        name = "Nel-O" if special == "nello" else "Sevens"
        enabled = r.nello if special == "nello" else r.sevens
        least = r.nello_min_marks if special == "nello" else r.sevens_min_marks
        if not enabled:
            out.append(
                Problem(
                    rule,
                    "/contract",
                    f"hand {n}: {name} is declared, but these rules have no {name}: {special} is "
                    "false",
                    ctx,
                    True,
                )
            )
            return out, None
        if contract.kind is not BidKind.MARKS or contract.special is not None:
            out.append(
                Problem(
                    rule,
                    "/contract",
                    f"hand {n}: {name} is declared after {contract.describe()}; {name} is declared "
                    "only after a plain mark bid",
                    ctx,
                    True,
                )
            )
            return out, None
        choosing = special == "nello" and r.nello_doubles in ("bidder-chooses", "own-suit-or-low")
        low_least = choosing and choice.doubles == "low" and r.nello_low_min_marks is not None
        if low_least:
            assert r.nello_low_min_marks is not None
            least = r.nello_low_min_marks
        if contract.bid < least:
            out.append(
                Problem(
                    rule,
                    "/contract",
                    f"hand {n}: {name} is declared after a bid of {contract.bid} mark"
                    f"{'s' if contract.bid != 1 else ''}; {name} needs at least {least} "
                    f"— {'nello_low' if low_least else special}_min_marks",
                    ctx,
                )
            )
        if choice.trump is not None:
            out.append(
                Problem(
                    rule,
                    "/trump",
                    f"hand {n}: {name} has no trumps, but the declaration names {choice.trump}",
                    ctx,
                )
            )
        if choice.doubles == "high" and choosing and r.nello_doubles == "own-suit-or-low":
            out.append(
                Problem(
                    rule,
                    "/doubles",
                    f"hand {n}: the declaration puts the doubles high, but these rules let the "
                    "bidder choose only own-suit or low (nello_doubles is own-suit-or-low)",
                    ctx,
                )
            )
        if choice.doubles is not None and not choosing:
            out.append(
                Problem(
                    rule,
                    "/doubles",
                    f"hand {n}: the declaration says where the doubles stand, but these rules "
                    f"fix it: nello_doubles is {r.nello_doubles}",
                    ctx,
                )
            )
        contract = contract.declare(special)
        trump = Trump.NO_TRUMP
    else:
        if choice.trump is None:
            out.append(
                Problem(
                    "R12",
                    "",
                    f"hand {n}: the declaration names no trump; trumps are a number 0–6, the "
                    "doubles or no-trump (R12)",
                    ctx,
                    True,
                )
            )
            return out, None
        trump = choice.trump
        if choice.doubles is not None:
            out.append(
                Problem(
                    "variant:nello",
                    "/doubles",
                    f"hand {n}: only a Nel-O declaration says where the doubles stand",
                    ctx,
                )
            )
        if contract.kind is BidKind.MARKS and contract.special is None and not r.plain_mark_bids:
            out.append(
                Problem(
                    "variant:plain_mark_bids",
                    "",
                    f"hand {n}: {contract.describe()}, but under these rules a mark bid is a "
                    "special contract (plain_mark_bids = false): declare Nel-O or Sevens",
                    ctx,
                )
            )
        if trump is Trump.NO_TRUMP and (
            not r.no_trump or (contract.special in ("plunge", "splash") and not r.special_no_trump)
        ):
            why = (
                "after a Plunge or Splash the partner names a suit or the doubles"
                if r.no_trump
                else "these rules have no no-trump (no_trump = false)"
            )
            out.append(
                Problem("R12", "/trump", f"hand {n}: no-trump is declared, but {why} (R12)", ctx)
            )
        if trump is Trump.DOUBLES and not r.doubles_trump:
            out.append(
                Problem(
                    "R12",
                    "/trump",
                    f"hand {n}: doubles are declared trumps, but these rules do not allow it "
                    "(doubles_trump = false) (R12)",
                    ctx,
                )
            )
    out.extend(_stacks_problems(rules, n, contract, choice.stacks))
    return out, (contract, trump)


def _stacks_problems(rules: Rules, n: int, contract: Contract, stacks: int | None) -> list[Problem]:
    """R27 and the option all_tricks_stacks."""
    mode = rules.all_tricks_stacks
    if not contract.all_tricks or mode == "all-visible":
        if stacks is None:
            return []
        why = (
            "in a point contract every won tile may be inspected (R26, R27)"
            if not contract.all_tricks
            else "these rules show every won trick (all_tricks_stacks = all-visible)"
        )
        if contract.special == "nello":
            why = "Nel-O shows every won trick"
        return [
            Problem(
                "R27",
                "/stacks",
                f"hand {n}: stacks are chosen only for an all-tricks contract; {why}",
                {"hand": n},
            )
        ]
    if mode in ("fixed-1", "fixed-2"):
        fixed = int(mode[-1])
        if stacks is not None and stacks != fixed:
            return [
                Problem(
                    "R27",
                    "/stacks",
                    f"hand {n}: {stacks} stacks declared, but these rules always show {fixed} "
                    f"(all_tricks_stacks = {mode}) (R27)",
                    {"hand": n},
                )
            ]
        return []
    if stacks is None:
        return [
            Problem(
                "R27",
                "",
                f"hand {n}: an all-tricks contract, but the declaration does not say how "
                "many stacks stay face up; the bidder chooses 1 or 2 when declaring (R27)",
                {"hand": n},
            )
        ]
    if stacks not in (1, 2):
        return [
            Problem(
                "R27",
                "/stacks",
                f"hand {n}: {stacks} stacks chosen; an all-tricks bidder chooses 1 or 2 (R27)",
                {"hand": n},
            )
        ]
    return []


def declaration_choices(rules: Rules, contract: Contract) -> list[Choice]:
    """Every declaration without a problem after ``contract`` (by its declarer), in
    a fixed order: the trumps 0–6, doubles, no-trump, then Nel-O, then Sevens; each
    all-tricks one with 1 and 2 stacks where the bidder chooses them."""
    out: list[Choice] = []
    for trump in Trump:
        out.append(Choice(trump=trump))
    out.append(Choice(special="nello"))
    for side in ("high", "low", "own-suit"):
        out.append(Choice(special="nello", doubles=side))
    out.append(Choice(special="sevens"))
    found: list[Choice] = []
    for c in out:
        for stacks in (None, 1, 2):
            choice = Choice(c.trump, c.special, c.doubles, stacks)
            if not declaration_problems(rules, contract, contract.declarer, choice, 0)[0]:
                found.append(choice)
    return found
