"""What a log states about a hand, compared with the replay (R5, R6, R11, R17–R23).

Every stated fact is compared, whatever the hand's state: a decided hand's trick
winners and points, hand points, result, marks and match score; an all-pass
hand's (no tricks, no points, no marks); and the last hand of an unfinished
match, whose completed tricks are compared and whose undecided result, marks
and score may not be stated at all. The match checker (:mod:`.check`) builds on
:class:`StatedFacts`; this module does no replaying of its own.
"""

from __future__ import annotations

from typing import Any

from ..engine.auction import Contract
from ..engine.errors import Diagnostic, cite
from ..engine.hand import HandResult, PlayState, Trick
from ..engine.rules import Rules
from ..engine.seats import TEAMS, Team
from ..engine.trumps import TRUMP_SUIT, Trump, suit_name
from .model import Hand, HandOutcome, TeamNumbers, TrickOutcome

__all__ = ["StatedFacts"]


def team_numbers(n: TeamNumbers) -> dict[Team, int]:
    return {"A+C": n.AC, "B+D": n.BD}


def format_points(numbers: dict[Team, int]) -> str:
    return f"A+C {numbers['A+C']}, B+D {numbers['B+D']}"


class StatedFacts:
    """The diagnostics list, the running match score and the stated-fact checks."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.diagnostics: list[Diagnostic] = []
        self.score: dict[Team, int] = {t: 0 for t in TEAMS}  # R5
        self.score_known = True

    def error(
        self, rule: str, pointer: str, message: str, context: dict[str, Any] | None = None
    ) -> None:
        self.diagnostics.append(
            Diagnostic(rule, cite(rule, message), pointer, context=context or {})
        )

    def _check_outcome(
        self, i: int, hand: Hand, state: PlayState, contract: Contract, trump: Trump
    ) -> None:
        result = state.result
        assert result is not None
        # R5/R24: marks; or, playing to 250 points (seed 004), the hand points taken.
        gained = result.marks if self.rules.match_goal == "marks" else result.points
        for team in TEAMS:
            self.score[team] += gained[team]
        out = hand.outcome
        if out is None:
            return
        hp = f"/hands/{i}/outcome"
        n = i + 1
        if out.tricks is not None:
            if len(out.tricks) != len(state.tricks):
                self.error(
                    "R22",
                    f"{hp}/tricks",
                    f"hand {n}: the log lists {len(out.tricks)} tricks, but the hand "
                    f"{'was decided' if self.rules.hand_end == 'when-decided' else 'ended'} "
                    f"after trick {len(state.tricks)} (R22)",
                    {"hand": n},
                )
                return
            if not self._same_tricks(hp, n, out.tricks, state):
                return
        if out.points is not None and team_numbers(out.points) != result.points:
            self.error(
                "R6",
                f"{hp}/points",
                f"hand {n}: the log states hand points {format_points(team_numbers(out.points))}, "
                "but "
                f"the won tricks give {format_points(result.points)} (R6)",
                {"hand": n},
            )
            return
        if not self._same_decision(hp, n, out, result, contract):
            return
        self._check_score(i, out)

    def _same_decision(
        self, hp: str, n: int, out: HandOutcome, result: HandResult, contract: Contract
    ) -> bool:
        """R22, R23: the stated result and marks of a decided hand."""
        if out.result is not None and out.result != result.outcome.value:
            self.error(
                "R23",
                f"{hp}/result",
                f"hand {n}: the log says the contract was {out.result}, but {contract.describe()} "
                f"and was {result.outcome.value} after trick {result.tricks_played} "
                f"({format_points(result.points)}) (R22, R23)",
                {"hand": n},
            )
            return False
        if out.marks is not None and team_numbers(out.marks) != result.marks:
            self.error(
                "R23",
                f"{hp}/marks",
                f"hand {n}: the log gives marks {format_points(team_numbers(out.marks))}, but the "
                f"contract was {result.outcome.value}, worth {contract.marks} to "
                f"{'the bidders' if result.outcome.value == 'made' else 'the defenders'} only: "
                f"{format_points(result.marks)} (R23)",
                {"hand": n},
            )
            return False
        return True

    def _same_tricks(
        self, hp: str, n: int, stated_tricks: list[TrickOutcome], state: PlayState
    ) -> bool:
        """R6, R17–R19: each stated trick's winner and points against the replay's
        (as many tricks as are stated; the caller compares the count)."""
        for k, (stated, trick) in enumerate(zip(stated_tricks, state.tricks, strict=False)):
            if stated.winner is not None and stated.winner != trick.winner:
                self._wrong_winner(f"{hp}/tricks/{k}/winner", n, trick, stated.winner, state)
                return False
            if stated.points is not None and stated.points != trick.points:
                self.error(
                    "R6",
                    f"{hp}/tricks/{k}/points",
                    f"hand {n}: trick {trick.number} is worth {trick.points} hand "
                    f"point{'s' if trick.points != 1 else ''} "
                    f"(1 for the trick plus the count of its tiles), not {stated.points} (R6)",
                    {"hand": n, "trick": trick.number},
                )
                return False
        return True

    def _check_undecided(self, i: int, hand: Hand, state: PlayState | None, where: str) -> None:
        """The last hand of an unfinished match, whose record stops ``where``: what its
        outcome states is compared with what has happened so far. A trick that was
        never completed has no winner or points (R21); an undecided contract has no
        result, marks or match score yet (R22, R23, R5)."""
        out = hand.outcome
        if out is None:
            return
        hp = f"/hands/{i}/outcome"
        n = i + 1
        completed = [t for t in state.tricks if t.winner is not None] if state is not None else []
        if out.tricks is not None:
            if len(out.tricks) > len(completed):
                k = len(completed)
                self.error(
                    "R21",
                    f"{hp}/tricks/{k}",
                    f"hand {n}: the log states a result for trick {k + 1}, but the record stops "
                    f"{where}; a trick has a winner and points only once all its tiles are played "
                    "(R21)",
                    {"hand": n, "trick": k + 1},
                )
                return
            if state is not None and not self._same_tricks(hp, n, out.tricks, state):
                return
        taken: dict[Team, int] = dict(state.points) if state is not None else {"A+C": 0, "B+D": 0}
        if out.points is not None and team_numbers(out.points) != taken:
            self.error(
                "R6",
                f"{hp}/points",
                f"hand {n}: the log states hand points {format_points(team_numbers(out.points))}, "
                "but the "
                f"record stops {where}, and the tricks won so far give {format_points(taken)} (R6)",
                {"hand": n},
            )
            return
        result = state.result if state is not None else None
        if result is None:
            for field, rule, what in (
                ("result", "R22", "result"),
                ("marks", "R23", "marks"),
                ("score", "R5", "match score after it"),
            ):
                value = getattr(out, field)
                if value is None:
                    continue
                said = value if isinstance(value, str) else format_points(team_numbers(value))
                self.error(
                    rule,
                    f"{hp}/{field}",
                    f"hand {n} is undecided (the record stops {where}), so it has no {what} yet, "
                    f"but the log states {said} ({rule})",
                    {"hand": n},
                )
                return
            return
        # Decided, with tricks still to play (hand_end = all-tricks): the decision stands.
        assert state is not None
        if not self._same_decision(hp, n, out, result, state.contract):
            return
        if out.score is not None and self.score_known:
            gained = result.marks if self.rules.match_goal == "marks" else result.points
            after = {t: self.score[t] + gained[t] for t in TEAMS}
            if team_numbers(out.score) != after:
                self.error(
                    "R5",
                    f"{hp}/score",
                    f"after hand {n} the log states match {self.rules.match_goal} "
                    f"{format_points(team_numbers(out.score))}, but the decided contract makes it "
                    f"{format_points(after)} (R5)",
                    {"hand": n},
                )

    def _check_score(self, i: int, out: HandOutcome) -> None:
        if out.score is None or not self.score_known:
            return
        stated = team_numbers(out.score)
        if stated != self.score:
            self.error(
                "R5",
                f"/hands/{i}/outcome/score",
                f"after hand {i + 1} the log states match {self.rules.match_goal} "
                f"{format_points(stated)}, "
                f"but starting from 0 each and adding each hand's {self.rules.match_goal} gives "
                f"{format_points(self.score)} (R5)",
                {"hand": i + 1},
            )

    def _wrong_winner(
        self, pointer: str, n: int, trick: Trick, stated: str, state: PlayState
    ) -> None:
        trump = state.trump
        table = state.table
        by_seat = dict(trick.plays)
        actual = trick.winner
        assert actual is not None
        if stated not in by_seat:
            self.error(
                "variant:nello",
                pointer,
                f"hand {n}: trick {trick.number} is won by {actual}; {stated} sat out and played "
                "no tile",
                {"hand": n, "trick": trick.number},
            )
            return
        won_with, stated_with = by_seat[actual], by_seat[stated]
        a, s = table[won_with], table[stated_with]
        suit = trick.led
        assert suit is not None
        if state.contract.special == "sevens":
            self.error(
                "variant:sevens",
                pointer,
                f"hand {n}: trick {trick.number} is won by {actual} with {won_with}, not by "
                f"{stated} with {stated_with}: in Sevens the pip total closest to 7 wins, ties "
                "to the earliest played",
                {"hand": n, "trick": trick.number, "tile": str(won_with)},
            )
            return
        if a.trump and s.trump and trump is Trump.DOUBLES:
            rule, why = "R19", "with doubles trump, trumps rank by pip value"
        elif (
            a.trump
            and s.trump
            or not a.trump
            and not s.trump
            and suit in a.follows
            and suit in s.follows
        ):
            rule, why = (
                "R18",
                "in a suit the double is highest, the others rank by their other half",
            )
        elif a.trump:
            rule, why = "R17", "the highest trump wins"
        else:
            rule, why = "R17", f"no trump was played, so the highest {suit_name(suit)} wins"
        led = "trumps" if suit == TRUMP_SUIT else suit_name(suit)
        self.error(
            rule,
            pointer,
            f"hand {n}: trick {trick.number} ({led} led) is won by {actual} with {won_with}, not "
            f"by {stated} with {stated_with}: {why} ({rule})",
            {"hand": n, "trick": trick.number, "tile": str(won_with)},
        )
