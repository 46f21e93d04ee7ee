"""A seat's fair analysis of its own calls, declaration and plays in a finished hand,
asked from its page while the match goes on (docs/table.md).

The work is the board's (:func:`texas42_log.board.ask.answer_in_child`): a spawned child
process a question, the fair analysis of the asking seat's actions alone — over the
deals that seat could not tell apart, so that nothing in it is drawn from tiles the
seat did not see — on the match as it stood when the hand ended (the hand being played
is never sent). The answer is written into that match as the format holds it and read
back through the seat's own views, so the page is given the board's own sentences
(:func:`texas42_log.views.text.fair_lines`), one a call or play. Answers are kept, by
hand and seat, while the table runs; nothing is written into the log (comments and
analysis are the board's, after the match).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, cast

from ..analysis.fair import DEFAULT_SEED, DEFAULT_WORLDS
from ..board.ask import answer_in_child, with_analysis
from ..log.model import Match
from ..views.locales import DEFAULT_LANGUAGE
from ..views.model import Observer, View
from ..views.text import fair_lines
from ..views.visibility import match_views
from .referee import Table, TableError

__all__ = ["SeatAsker", "Asked", "RUNNING"]

#: Questions computed at once (each is a process; the table's bots and pushes go on).
RUNNING = 2


@dataclass
class Asked:
    """One seat's question about one finished hand (``hand`` from 1)."""

    hand: int
    seat: str
    state: str = "running"  # running, done, failed
    done: int = 0
    of: int = 0
    error: str = ""
    #: The seat's views of the hand with its analysis (the answer, once done).
    views: list[View] = field(default_factory=list)
    process: Any = None

    def lines(self, lang: str = DEFAULT_LANGUAGE) -> list[str]:
        """The answer as the seat's own views word it, in ``lang``: a line for each of its
        actions."""
        out: list[str] = []
        for view in self.views:
            for line in fair_lines(view, lang, now=False):
                if line not in out:
                    out.append(line)
        return out

    def status(self, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        out: dict[str, Any] = {"hand": self.hand, "state": self.state}
        if self.state == "running":
            out |= {"done": self.done, "of": self.of}
        elif self.state == "done":
            out["lines"] = self.lines(lang)
        else:
            out["error"] = self.error
        return out


@dataclass
class SeatAsker:
    """The questions of one table's seats, and the answers it keeps."""

    table: Table
    worlds: int = DEFAULT_WORLDS
    seed: int = DEFAULT_SEED
    asked: dict[tuple[int, str], Asked] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def ask(self, seat: str, hand: int) -> Asked:
        """Start (or find) ``seat``'s question about finished hand ``hand`` (from 1)."""
        with self._lock:  # asked before: the same question, the match not read again
            found = self._kept(seat, hand)
            if found is not None:
                return found
        with self.table.lock:
            if not 1 <= hand <= self.table.finished_hands():
                raise TableError(
                    403,
                    f"hand {hand} is not over: a seat's analysis opens once its hand has ended",
                )
            doc = Match.model_validate(self.table.game.to_dict(hands=hand))
        with self._lock:
            found = self._kept(seat, hand)
            if found is not None:
                return found
            running = sum(1 for q in self.asked.values() if q.state == "running")
            if running >= RUNNING:
                raise TableError(429, "the table is answering other questions: ask again soon")
            q = Asked(hand, seat)
            self.asked[(hand, seat)] = q
        text = doc.model_dump_json(by_alias=True, exclude_none=True)

        def progress(done: int, of: int) -> None:
            q.done, q.of = done, of

        def answered(answer: dict[str, Any]) -> None:
            q.views = _views(doc, hand - 1, seat, answer)
            q.state = "done"

        def failed() -> None:
            if q.state == "running":
                q.state, q.error = "failed", "the analysis stopped before it finished"

        q.process = answer_in_child(
            text, hand - 1, [seat], False, self.worlds, self.seed, progress, answered, failed
        )
        return q

    def _kept(self, seat: str, hand: int) -> Asked | None:
        """The question ``seat`` asked of ``hand`` before, unless it failed (then it may be
        asked again); the caller holds the lock."""
        found = self.asked.get((hand, seat))
        return None if found is None or found.state == "failed" else found

    def question(self, seat: str, hand: int) -> Asked:
        with self._lock:
            q = self.asked.get((hand, seat))
        if q is None:
            raise TableError(404, f"seat {seat} has not asked about hand {hand}")
        return q

    def stop(self) -> None:
        """End every question still running (the table is stopping)."""
        for q in list(self.asked.values()):
            if q.state == "running" and q.process is not None:
                q.state, q.error = "failed", "the table stopped"
                q.process.kill()


def _views(match: Match, hand: int, seat: str, answer: dict[str, Any]) -> list[View]:
    """The seat's own views of the hand, with the answer's analysis in them."""
    header = {"worlds": DEFAULT_WORLDS, "seed": DEFAULT_SEED}
    analysed = with_analysis(
        match,
        {(hand, seat): answer["fair"][seat]},
        {},
        {hand: answer["header"]},
        header,
    )
    if analysed is None:
        return []
    return list(match_views(analysed, cast(Observer, seat))[hand])
