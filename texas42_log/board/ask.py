"""Asking the board: the open-hand and the fair analysis of a hand, on demand.

A question runs in a child process of its own (a spawned interpreter: the server
keeps answering, and a cancel ends it at once), sends its progress a decision at a
time, and its answer is kept for as long as the board runs, by hand and seat.

What is computed follows the observer, so that not even the progress counts say what
it may not see: for a seat, the fair analysis of that seat's own plays alone (whether
another seat's play was forced depends on tiles the seat cannot see); for the review
and the omniscient observer, every play's, and the open-hand analysis too. What a page
is then sent goes through the views like everything else (:meth:`Board.data`).
"""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ..analysis.fair import DEFAULT_SEED, DEFAULT_WORLDS
from ..engine.seats import SEATS, partner
from ..log.model import Match, match_json, minimal_version
from ..log.versions import at_least_version
from .state import Access, Board, BoardError

__all__ = ["Asker", "Question", "MAX_RUNNING", "answer_in_child", "with_analysis", "work_in_child"]

#: Questions computed at once (each is a process).
MAX_RUNNING = 4
#: Questions a board remembers, to be followed by their pages (answers are kept apart).
KEPT = 200


@dataclass
class Question:
    """One question, as the page that asked it follows it."""

    id: str
    token: str
    hand: int
    observer: str
    state: str = "running"  # running, done, failed, cancelled
    done: int = 0
    of: int = 0
    error: str = ""
    process: Any = None

    def status(self) -> dict[str, Any]:
        out: dict[str, Any] = {"state": self.state, "hand": self.hand + 1}
        if self.state == "running":
            out |= {"done": self.done, "of": self.of}
        if self.error:
            out["error"] = self.error
        return out


def work_in_child(
    doc: str, hand: int, seats: list[str], open_hand: bool, worlds: int, seed: int, conn: Any
) -> None:
    """In the child: the analysis asked, its progress and its answer sent on ``conn``."""
    from ..corpus.pool import worker_init
    from ..engine.search import search_threads

    worker_init()
    with search_threads():  # this question's worlds on every core (engine/search.py)
        _answer(Match.model_validate_json(doc), hand, seats, open_hand, worlds, seed, conn)


def _answer(
    match: Match, hand: int, seats: list[str], open_hand: bool, worlds: int, seed: int, conn: Any
) -> None:
    from ..analysis.api import open_hand_analysis
    from ..analysis.auction_fair import judge_auction, plan_auction
    from ..analysis.fair import decide
    from ..analysis.fair_hands import finish_hand, plan_hand
    from ..analysis.open_hand import HandAnalysis

    answer: dict[str, Any] = {"open": None, "fair": {}}
    notes = None
    if open_hand:
        a = open_hand_analysis(match, hand)[0]
        if isinstance(a, HandAnalysis):
            notes = a.plays
            answer["open"] = {
                "hand": a.as_dict(),
                "plays": {str(n.index): n.as_dict() for n in a.plays},
            }
    planned, pending = plan_hand(match, hand, worlds=worlds, seed=seed)
    mine = [p for p in pending if p.seat in seats]
    todo = [p for p in mine if p.knowledge is not None]
    # the auction's verdicts of the seats asked for, as one step more (their own tiles only)
    plan = plan_auction(match, hand)
    plan = replace(
        plan,
        tiles={s: t for s, t in plan.tiles.items() if s in seats},
        calls=tuple(c for c in plan.calls if c.seat in seats),
        declaration=plan.declaration
        if plan.declaration is not None and plan.declaration[0] in seats
        else None,
    )
    steps = len(todo) + 1
    conn.send(("progress", 0, steps))
    decisions = []
    for k, p in enumerate(todo, start=1):
        assert p.knowledge is not None
        decisions.append(decide(p.knowledge, worlds=worlds, seed=seed, hand=hand))
        conn.send(("progress", k, steps))
    auction = judge_auction(plan, worlds=worlds, seed=seed)
    conn.send(("progress", steps, steps))
    finished = finish_hand(planned, mine, iter(decisions), notes)
    for s in seats:
        answer["fair"][s] = {str(n.index): n.as_dict() for n in finished.plays if n.seat == s}
        answer["fair"][s] |= {f"call {n.index}": n.as_dict() for n in auction.calls if n.seat == s}
        d = auction.declaration
        if d is not None and d.seat == s:
            answer["fair"][s]["declaration"] = d.as_dict()
    answer["header"] = finished.as_dict()
    conn.send(("done", answer))


def answer_in_child(
    doc: str,
    hand: int,
    seats: list[str],
    open_hand: bool,
    worlds: int,
    seed: int,
    progress: Callable[[int, int], None],
    answered: Callable[[dict[str, Any]], None],
    failed: Callable[[], None],
) -> Any:
    """:func:`work_in_child` started in a spawned process and followed on a thread of
    its own: ``progress(done, of)`` at each step, ``answered(answer)`` at the end, or
    ``failed()`` when the process stops before it answers. The process (to kill)."""
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe(duplex=False)
    process = context.Process(
        target=work_in_child,
        args=(doc, hand, seats, open_hand, worlds, seed, theirs),
        daemon=True,
    )
    process.start()
    theirs.close()

    def follow() -> None:
        try:
            while True:
                kind, *rest = ours.recv()
                if kind == "progress":
                    progress(*rest)
                    continue
                answered(rest[0])
                break
        except (EOFError, OSError):
            failed()
        finally:
            ours.close()
            process.join(timeout=5)

    threading.Thread(target=follow, daemon=True).start()
    return process


@dataclass
class Asker:
    """The questions of one board and the answers it keeps."""

    board: Board
    worlds: int = DEFAULT_WORLDS
    seed: int = DEFAULT_SEED
    questions: dict[str, Question] = field(default_factory=dict)
    #: (content version, hand, seat) → the fair analysis of that seat's plays, by index.
    fair: dict[tuple[int, int, str], dict[str, Any]] = field(default_factory=dict)
    #: (content version, hand) → the open-hand analysis (None: the hand has none).
    opened: dict[tuple[int, int], dict[str, Any] | None] = field(default_factory=dict)
    headers: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: How many answers have come in: a page's views are built again only when it grows.
    answers: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _count: int = 0

    def _seats(self, observer: str, hand: int | None = None) -> list[str]:
        """The seats whose analysis ``observer`` may be sent (of hand ``hand``: for a
        review, only the seats that played every tile they held, R29)."""
        if observer not in ("review", "omniscient"):
            return [observer]
        if observer == "review" and hand is not None:
            return [s for s in SEATS if s not in self._secret(hand)]
        return list(SEATS)

    def _secret(self, hand: int) -> frozenset[str]:
        """The seats of hand ``hand`` that held a tile never played, when the hand ended early:
        a review may be sent no figure drawn from their tiles (R29), nor the progress counts
        of computing one."""
        from ..log.replayed import replay_match
        from ..views.analysis import secret_holders

        match = self.board.match
        _, facts = replay_match(match, hand + 1)
        f = facts[hand]
        nello = f.contract is not None and f.contract.special == "nello"
        sits_out = partner(f.contract.bidder) if f.contract is not None and nello else None
        return secret_holders("review", f.plays, sits_out)

    def ask(self, token: str, access: Access, observer: str, hand: int) -> Question:
        """Start a question: hand ``hand`` (from 0) as ``observer`` may see it analysed."""
        board = self.board
        board.check_observer(access, observer)
        if observer == "public":
            raise BoardError(400, "the public is shown no analysis (R25); choose a seat")
        if not 0 <= hand < len(board.match.hands):
            raise BoardError(400, f"there is no hand {hand + 1}")
        from ..analysis.fair_hands import passed_out

        if board.match.hands[hand].declaration is None and not passed_out(board.match, hand):
            raise BoardError(400, f"hand {hand + 1} has no call or play to analyse")
        cv = board.content_version
        allowed = self._seats(observer, hand)
        if observer == "review" and not allowed:
            raise BoardError(
                400,
                f"hand {hand + 1} ended before every tile was played: the review shows its "
                "calls and plays, and no figure drawn from the tiles never played (R29); "
                "choose a seat to see its own calls and plays analysed",
            )
        seats = [s for s in allowed if (cv, hand, s) not in self.fair]
        open_hand = (
            observer == "omniscient" or (observer == "review" and len(allowed) == len(SEATS))
        ) and (cv, hand) not in self.opened
        with self._lock:
            if len(self.questions) >= KEPT:  # the oldest answered questions are forgotten
                for old in [k for k, x in self.questions.items() if x.state != "running"][:50]:
                    del self.questions[old]
            self._count += 1
            q = Question(str(self._count), token, hand, observer)
            self.questions[q.id] = q
            if not seats and not open_hand:
                q.state = "done"
                return q
            running = [x for x in self.questions.values() if x.state == "running"]
            if len(running) > MAX_RUNNING:
                del self.questions[q.id]
                raise BoardError(429, "the board is answering other questions: ask again soon")
        doc = board.match.model_dump_json(by_alias=True, exclude_none=True)

        def progress(done: int, of: int) -> None:
            q.done, q.of = done, of

        def answered(answer: dict[str, Any]) -> None:
            with self._lock:
                for s in seats:
                    self.fair[(cv, q.hand, s)] = answer["fair"][s]
                if answer["open"] is not None or q.observer == "omniscient":
                    self.opened.setdefault((cv, q.hand), answer["open"])
                self.headers[q.hand] = answer["header"]
                self.answers += 1
                if q.state == "running":
                    q.state = "done"

        def failed() -> None:
            if q.state == "running":
                q.state, q.error = "failed", "the analysis stopped before it finished"

        q.process = answer_in_child(
            doc, hand, seats, open_hand, self.worlds, self.seed, progress, answered, failed
        )
        return q

    def question(self, token: str, qid: str) -> Question:
        q = self.questions.get(qid[:20])
        if q is None or q.token != token:
            raise BoardError(404, "no such question at this address")
        return q

    def cancel(self, token: str, qid: str) -> Question:
        q = self.question(token, qid)
        if q.state == "running":
            q.state = "cancelled"
            if q.process is not None:
                q.process.kill()
        return q

    def stop(self) -> None:
        """End every question still running (the board is stopping)."""
        for q in list(self.questions.values()):
            if q.state == "running" and q.process is not None:
                q.state = "cancelled"
                q.process.kill()

    def analysed(self, observer: str) -> Match | None:
        """The board's log with the analysis asked so far that ``observer`` may be sent
        (a seat: its own plays' fair analysis; review, omniscient: all), or None."""
        board = self.board
        cv = board.content_version
        seats = self._seats(observer) if observer != "public" else []
        with self._lock:
            fair = {(h, s): v for (c, h, s), v in self.fair.items() if c == cv and s in seats}
            opened = (
                {h: v for (c, h), v in self.opened.items() if c == cv}
                if observer in ("review", "omniscient")
                else {}
            )
        return with_analysis(
            board.match, fair, opened, self.headers, {"worlds": self.worlds, "seed": self.seed}
        )


def with_analysis(
    match: Match,
    fair: dict[tuple[int, str], dict[str, Any]],
    opened: dict[int, dict[str, Any] | None],
    headers: dict[int, dict[str, Any]],
    header: dict[str, Any],
) -> Match | None:
    """``match`` with answers written in as the format holds them (None: none to write):
    ``fair`` by (hand, seat), a question's ``answer["fair"][seat]``; ``opened`` by hand,
    its ``answer["open"]``; ``headers`` each hand's fair header (``header`` when a hand
    has none)."""
    if not fair and not opened:
        return None
    doc = match_json(match)
    hands = doc["hands"]
    for h, a in opened.items():
        if a is None:
            continue
        hands[h]["analysis"] = dict(a["hand"])
        for p in hands[h].get("plays", []):
            p.pop("analysis", None)
        for index, note in a["plays"].items():
            hands[h]["plays"][int(index)]["analysis"] = dict(note)
    for (h, _), notes in fair.items():
        if not notes:
            continue
        hands[h].setdefault("analysis", {})["fair"] = headers.get(h, header)
        for index, note in notes.items():
            if index == "declaration":
                hands[h]["declaration"]["analysis"] = {"fair": note}
            elif index.startswith("call "):
                hands[h]["auction"][int(index[5:])]["analysis"] = {"fair": note}
            else:
                hands[h]["plays"][int(index)].setdefault("analysis", {})["fair"] = note
    doc["version"] = at_least_version(str(doc["version"]), minimal_version(doc))
    return Match.model_validate(doc)
