"""What one observer may see at one moment of a hand (R25–R29).

This module is the security boundary of every renderer (docs/architecture.md): it decides
visibility once, in Python, and returns a plain :class:`View` holding only what
the observer may see. The text, JSON and HTML renderers render a ``View`` and
nothing else, so none of them can show a tile the view does not hold.

Observers (:data:`OBSERVERS`):

* ``"A"``–``"D"`` — a player at the table: the public information (R25–R28)
  plus that seat's own unplayed tiles.
* ``"public"`` — a spectator during the hand: the public information only.
* ``"review"`` — after the hand (R29): every play with its player, and for each
  seat the tiles it plays later in the hand; tiles never played stay hidden.
* ``"omniscient"`` — analysis: every hand laid open. Never a default; every
  renderer labels it.

Moments (:class:`Moment`), all within one hand:

* ``auction`` — after the recorded calls, before the declaration;
* ``declaration`` — trumps declared, no tile played (``play 0``);
* ``play k`` — just after the k-th tile; a trick completed by that tile is
  still on the table, its winner known, and already counted among the won
  tricks (the seeds' second example view);
* ``trick t`` — trick ``t`` collected and the next not yet led (the seeds'
  third to fifth example views: "played in order: none"). When trick ``t``
  ended the hand, it stays on the table: the same as ``play`` of its last tile;
* ``end`` — the last recorded moment of the hand.

Public during a hand (R25): bids, bidder, trumps, the current trick's tiles
with players and order, tile counts, match marks. Won tricks (R26–R28): by
trick number and winning team only, faces sorted (not in play order, not tied
to players); in a point contract every won face, in an all-tricks contract
only the last 1 or 2 completed tricks (the bidder's choice); the others are
covered. Hand points are given when every won face is visible.

Rejected attempts (R30) change nothing and are not shown. Annotations are the
annotator's public words, shown as written from the moment of what they annotate:
a call's after the auction, a play's after that play, the declaration's from
the declaration, the match's throughout; a comment on a hand as a whole comes
with the hand's last moment, where it cannot give away what is still to come.

The views replay a log already proved valid (:func:`texas42_log.log.check.check_match`);
plays go through the engine's checked path all the same, and an illegal log
raises :class:`ValueError`. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import replace
from typing import Literal

from ..engine.auction import BidKind, Contract
from ..engine.hand import PlayState, Trick
from ..engine.rules import Rules
from ..engine.seats import SEATS, TEAMS, Seat, partner, team_of
from ..engine.tiles import Tile
from ..engine.trumps import Trump
from ..log.annotate import Target, place_key
from ..log.model import Annotation, Hand, Match
from ..log.replayed import HandFacts, replay_match
from .analysis import analysis_view, auction_fair_view, fair_view, secret_holders
from .model import (
    OBSERVERS,
    AnalysisView,
    ContractView,
    CurrentTrick,
    Moment,
    MomentKind,
    Note,
    Observer,
    PlayedTile,
    View,
    WonTrick,
    parse_observer,
)

__all__ = [
    "OBSERVERS",
    "Observer",
    "Moment",
    "PlayedTile",
    "CurrentTrick",
    "WonTrick",
    "ContractView",
    "Note",
    "View",
    "view_for",
    "hand_views",
    "match_views",
    "trick_moments",
    "parse_observer",
]


def _notes(
    on: str,
    annotations: Sequence[Annotation],
    hand: int | None = None,
    call: int | None = None,
    play: int | None = None,
    declaration: bool = False,
) -> list[Note]:
    """The comments on one target; each keyed by its id, or (without one) by where it is
    (:func:`texas42_log.log.annotate.place_key`). Most actions have none: nothing built."""
    if not annotations:
        return []
    target = Target(hand, call, play, declaration)
    return [
        Note(
            on,
            a.text,
            a.author,
            a.id if a.id is not None else place_key(target, k),
            a.seat,
            a.edited_by,
        )
        for k, a in enumerate(annotations, start=1)
    ]


class _HandReplay:
    """Produces the views of one hand's moments for one observer, from the hand's
    replayed facts (:func:`texas42_log.log.replayed.replay_match`)."""

    def __init__(self, match: Match, rules: Rules, facts: HandFacts, observer: Observer) -> None:
        self.match = match
        self.rules = rules
        self.facts = facts
        self.index = facts.index
        self.hand: Hand = match.hands[facts.index]
        self.observer = observer
        self.marks_before = dict(facts.score_before)
        hand = self.hand
        self.players: dict[Seat, str] = {}
        if match.players is not None:
            for s in SEATS:
                name = getattr(match.players, s)
                if name is not None:
                    self.players[s] = name
        self.plays = facts.plays
        self.known = facts.holdings
        self.unknown = facts.unknown
        self.calls: list[tuple[Seat, str, int | None, str | None]] = [
            (seat, kind.value, bid, special) for seat, kind, bid, special in facts.calls
        ]
        self.base_notes = _notes("match", match.annotations)
        h = facts.index + 1
        self.hand_notes = _notes("hand", hand.annotations, h)
        self.call_notes: list[Note] = []
        #: After each call: how many call notes there are.
        self.notes_after_call: list[int] = []
        for n_call, j in enumerate(facts.call_at, 1):
            self.call_notes += _notes(f"call {n_call}", hand.auction[j].annotations, h, call=n_call)
            self.notes_after_call.append(len(self.call_notes))
        self.contract: Contract | None = facts.contract
        self.trump: Trump | None = facts.trump
        decl = hand.declaration
        self.decl_notes: list[Note] = (
            _notes("declaration", decl.annotations, h, declaration=True)
            if self.trump is not None and decl is not None
            else []
        )
        self.sits_out: Seat | None = (
            partner(self.contract.bidder)
            if self.contract is not None and self.contract.special == "nello"
            else None
        )
        #: The seats whose figures this observer may not see (R29: a review of a hand that
        #: ended early sees none drawn from a tile never played).
        self.secret = secret_holders(observer, self.plays, self.sits_out)
        self.play_notes: list[list[Note]] = [
            _notes(f"play {k + 1}", hand.plays[j].annotations, h, play=k + 1)
            for k, (_, _, j) in enumerate(self.plays)
        ]

    # -- moments -------------------------------------------------------------

    def moments(self) -> list[Moment]:
        """Every moment of the hand in order: each call, the auction, the declaration, each play,
        and after each trick's last tile the trick collected (the table empty, the
        trick in its stack: the seeds' views 3–5) — except after the last play,
        whose trick stays on the table (the seeds' view 2)."""
        # Each call but the last is a moment; the last is the moment after the auction.
        out = [Moment.after_call(k) for k in range(1, len(self.calls))]
        out.append(Moment.auction())
        if self.trump is not None:
            out.append(Moment.declaration())
            n = len(self.plays)
            for k in range(1, n + 1):
                out.append(Moment("play", k))
                if k % self.trick_size == 0 and k < n:
                    out.append(Moment.after_trick(k // self.trick_size))
        return out

    def resolve(self, moment: Moment) -> tuple[MomentKind, int, bool]:
        """(kind, plays made, collected?) for a moment; ValueError if the log has no such moment."""
        n = self.index + 1
        if moment.kind == "end":
            if self.trump is None:
                return "end", -1, False
            return "end", len(self.plays), False
        if moment.kind == "auction":
            return "auction", -1, False
        if moment.kind == "call":
            if not 1 <= moment.number <= len(self.calls):
                raise ValueError(
                    f"hand {n} has {len(self.calls)} calls; there is no call {moment.number}"
                )
            return "call", -1, False
        if self.trump is None:
            raise ValueError(f"hand {n} has no trump declaration, so no moment after it")
        if moment.kind == "declaration":
            return "declaration", 0, False
        if moment.kind == "play":
            k = moment.number
            if not 0 <= k <= len(self.plays):
                raise ValueError(f"hand {n} has {len(self.plays)} plays; there is no play {k}")
            return ("declaration" if k == 0 else "play"), k, False
        t = moment.number
        size = self.trick_size
        complete = len(self.plays) // size
        if not 1 <= t <= complete:
            plural = "" if complete == 1 else "s"
            raise ValueError(
                f"hand {n} has {complete} complete trick{plural}; there is no trick {t}"
            )
        return "trick", size * t, True

    def views(self, moments: list[Moment]) -> list[View]:
        """The views at ``moments`` (in any order), stepping through the plays once."""
        wanted = [self.resolve(m) for m in moments]
        by_plays: dict[int, list[int]] = {}
        for i, (_, k, _) in enumerate(wanted):
            by_plays.setdefault(k, []).append(i)
        out: list[View | None] = [None] * len(moments)
        for i in by_plays.get(-1, []):
            out[i] = (
                self._call_view(moments[i].number)
                if wanted[i][0] == "call"
                else self._auction_view(wanted[i][0])
            )
        if self.trump is None:
            return [v for v in out if v is not None]
        wanted_plays = max(by_plays)
        for k, state in enumerate(self.facts.states(self.rules, wanted_plays)):
            for i in by_plays.get(k, []):
                kind, _, collected = wanted[i]
                out[i] = self._play_view(state, kind, k, collected)
        return [v for v in out if v is not None]

    @property
    def trick_size(self) -> int:
        """Tiles per trick: 3 in Nel-O (the partner sits out), else 4."""
        return 3 if self.sits_out is not None else 4

    @property
    def kept_face_up(self) -> int | None:
        """R27 and all_tricks_stacks: how many completed tricks stay face up (None: all)."""
        c = self.contract
        mode = self.rules.all_tricks_stacks
        if c is None or not c.all_tricks or mode == "all-visible":
            return None
        if mode in ("fixed-1", "fixed-2"):
            return int(mode[-1])
        return 2 if self.facts.stacks == 2 else 1

    # -- building a view -----------------------------------------------------

    def _contract_view(self, declared: bool) -> ContractView | None:
        c = self.contract
        if c is None:
            return None
        vis: Literal["all", "last-1", "last-2"] | None = None
        trump = self.trump if declared else None
        special = c.special if declared or c.special in ("plunge", "splash") else None
        if trump is not None:
            keep = self.kept_face_up
            vis = "all" if keep is None else ("last-2" if keep == 2 else "last-1")
            if c.special in ("nello", "sevens"):
                trump = None
        elif c.kind is BidKind.POINTS:
            vis = "all"  # R26: a point contract's won tricks are all open, whatever the trumps
        return ContractView(
            c.bidder,
            "points" if c.kind is BidKind.POINTS else "marks",
            c.bid,
            c.marks,
            None if trump is None else trump.value,
            vis,
            special,
            c.declarer,
            self.facts.doubles if declared and c.special == "nello" else None,
        )

    def _hand_tiles(
        self, remaining: Mapping[Seat, AbstractSet[Tile]], unknown: dict[Seat, int], k: int
    ) -> tuple[dict[Seat, tuple[str, ...]], dict[Seat, int]]:
        """What the observer sees of each hand with ``k`` tiles played: (shown tiles, hidden
        count)."""
        o = self.observer
        shown: dict[Seat, tuple[str, ...]] = {}
        hidden: dict[Seat, int] = {}
        later: dict[Seat, set[Tile]] = {s: set() for s in SEATS}
        if o == "review":
            for seat, t, _ in self.plays[k:]:
                later[seat].add(t)
        for s in SEATS:
            count = len(remaining[s]) + unknown[s]
            if o == "omniscient" or o == s:
                tiles = remaining[s]
            elif o == "review":
                tiles = later[s]
            else:
                tiles = set()
            if tiles:
                shown[s] = tuple(str(t) for t in sorted(tiles))
            hidden[s] = count - len(tiles)
        return shown, hidden

    def _notes_until(self, k: int) -> tuple[Note, ...]:
        notes = self.base_notes + self.call_notes + self.decl_notes
        for n in self.play_notes[:k]:
            notes = notes + n
        if k == len(self.plays):
            notes = notes + self.hand_notes
        return tuple(notes)

    def _auction_view(self, kind: MomentKind) -> View:
        all_passed = self.facts.auction_done and self.contract is None
        shown, hidden = self._hand_tiles(self.known, self.unknown, 0)
        marks = dict(self.marks_before)
        return View(
            observer=self.observer,
            hand=self.index + 1,
            dealer=self.hand.dealer,
            score_unit=self.rules.match_goal,
            sits_out=self.sits_out,
            moment=kind,
            play=0,
            over=all_passed,
            players=dict(self.players),
            marks=marks,
            auction=tuple(self.calls),
            contract=self._contract_view(declared=False),
            trick=None,
            counts={s: 7 for s in SEATS},
            won=(),
            tricks_won={t: 0 for t in TEAMS},
            points=None,
            hands=shown,
            hidden=hidden,
            to_play=self.facts.to_call,
            result="no-contract" if all_passed else None,
            result_marks={t: 0 for t in TEAMS} if all_passed else None,
            notes=tuple(
                self.base_notes + self.call_notes + (self.hand_notes if self.trump is None else [])
            ),
            auction_fair=auction_fair_view(
                self.hand, self.observer, len(self.calls), False, self.secret
            ),
        )

    def _call_view(self, k: int) -> View:
        """Just after call ``k`` (from 1): the calls so far and who calls next, no
        contract yet; after the last call, the auction's view (:meth:`_auction_view`)."""
        whole = self._auction_view("call")
        if k == len(self.calls):
            return whole
        return replace(
            whole,
            sits_out=None,
            over=False,
            auction=tuple(self.calls[:k]),
            contract=None,
            to_play=self.facts.to_call_after[k - 1],
            result=None,
            result_marks=None,
            notes=tuple(self.base_notes + self.call_notes[: self.notes_after_call[k - 1]]),
            auction_fair=auction_fair_view(self.hand, self.observer, k, False, self.secret),
        )

    def _play_view(self, state: PlayState, kind: MomentKind, k: int, collected: bool) -> View:
        o = self.observer
        full = o in ("review", "omniscient")
        c = self.contract
        assert c is not None
        completed = [t for t in state.tricks if t.winner is not None]
        n_done = len(completed)
        keep = self.kept_face_up
        if keep is not None and not full:
            face_up = {t.number for t in completed[-keep:]}
        else:
            face_up = {t.number for t in completed}
        won = tuple(self._won(t, t.number in face_up, full) for t in completed)
        all_visible = len(face_up) == n_done
        trick: CurrentTrick
        if state.over or (k > 0 and not state.current.plays and not collected):
            # A trick's fourth tile was just played: the trick is still on the table
            # with its winner; the deciding trick stays there (the seeds' 2nd view).
            last = completed[-1]
            trick = CurrentTrick(
                last.number,
                last.leader,
                _table(last),
                last.winner,
                last.points,
                _declared(state, last),
            )
        else:
            # Mid-trick, or trick k/4 collected and the next not yet led (empty).
            cur = state.current
            trick = CurrentTrick(
                cur.number, cur.leader, _table(cur), declared=_declared(state, cur)
            )
        remaining = {s: set(state.known[s]) for s in SEATS}
        shown, hidden = self._hand_tiles(remaining, state.unknown, k)
        counts = {s: len(remaining[s]) + state.unknown[s] for s in SEATS}
        marks = dict(self.marks_before)
        result = None
        result_marks = None
        if state.result is not None:
            result = state.result.outcome.value
            result_marks = dict(state.result.marks)
            if self.rules.match_goal == "marks" or state.over:
                gained = result_marks if self.rules.match_goal == "marks" else state.result.points
                for t in TEAMS:
                    marks[t] += gained[t]
        return View(
            observer=o,
            hand=self.index + 1,
            dealer=self.hand.dealer,
            score_unit=self.rules.match_goal,
            sits_out=self.sits_out,
            moment=kind,
            play=k,
            over=state.over,
            players=dict(self.players),
            marks=marks,
            auction=tuple(self.calls),
            contract=self._contract_view(declared=True),
            trick=trick,
            counts=counts,
            won=won,
            tricks_won=dict(state.tricks_won),
            points=dict(state.points) if all_visible else None,
            hands=shown,
            hidden=hidden,
            to_play=state.to_play,
            result=result,
            result_marks=result_marks,
            notes=self._notes_until(k),
            analysis=self._analysis(k) if full else None,
            fair=fair_view(self.hand, self.plays, self.contract, self.observer, k, self.secret)
            if self.contract is not None
            else None,
            auction_fair=auction_fair_view(
                self.hand, self.observer, len(self.calls), True, self.secret
            ),
        )

    def _analysis(self, k: int) -> AnalysisView | None:
        assert self.contract is not None
        h, c, total = self.hand, self.contract, self.rules.count.total
        return analysis_view(h, self.plays, c, self.observer, k, self.secret, total=total)

    @staticmethod
    def _won(t: Trick, face_up: bool, full: bool) -> WonTrick:
        assert t.winner is not None
        team = team_of(t.winner)
        if not face_up:
            return WonTrick(t.number, team, None, None)
        faces = tuple(str(x) for x in sorted(x for _, x in t.plays))
        if full:
            return WonTrick(t.number, team, faces, t.points, _table(t), t.winner)
        return WonTrick(t.number, team, faces, t.points)


def _declared(state: PlayState, t: Trick) -> int | None:
    """The suit the leader of ``t`` declared, when not the one its tile leads anyway."""
    if not t.plays or t.led is None:
        return None
    natural = state.table[t.plays[0][1]].leads
    return None if t.led == natural else t.led


def _table(t: Trick) -> tuple[PlayedTile, ...]:
    return tuple(PlayedTile(i + 1, s, str(x)) for i, (s, x) in enumerate(t.plays))


def _check_index(match: Match, hand_index: int) -> None:
    if not 0 <= hand_index < len(match.hands):
        raise ValueError(
            f"the match has {len(match.hands)} hands; there is no hand {hand_index + 1}"
        )


def view_for(match: Match, observer: Observer, hand_index: int, moment: Moment) -> View:
    """The view of hand ``hand_index`` (0-based) at ``moment`` for ``observer``."""
    return hand_views(match, observer, hand_index, [moment])[0]


def hand_views(
    match: Match, observer: Observer, hand_index: int, moments: list[Moment] | None = None
) -> list[View]:
    """Views of one hand at ``moments`` (default: every moment, in order)."""
    _check_index(match, hand_index)
    rules, facts = replay_match(match, hand_index + 1)
    if observer == "review":
        _review_only_after(facts[hand_index])
    replay = _HandReplay(match, rules, facts[hand_index], observer)
    if observer == "review":
        moments = _review_moments(replay, moments)
    return replay.views(replay.moments() if moments is None else moments)


def _review_moments(replay: _HandReplay, moments: list[Moment] | None) -> list[Moment]:
    """R29: a review is of the hand as it ended (every play with its player, in its
    trick); a moment during the hand would uncover tricks (R27) and tie tiles to
    players (R28) before the hand is over. Without moments: the end."""
    if moments is None:
        return [Moment.end()]
    end = replay.resolve(Moment.end())[1]
    for m in moments:
        if replay.resolve(m)[1] != end:
            raise ValueError(
                f"a review shows hand {replay.index + 1} as it ended (R29), not a moment during "
                "it; ask for no moment, or view that moment --as public or as a player (A–D)"
            )
    return moments


def _in_play(facts: HandFacts) -> bool:
    """Whether a hand is still being played (the last of an unfinished match, stopped
    before its end): it has no review yet (R29)."""
    return not (facts.finished or (len(facts.calls) == 4 and facts.contract is None))


def _review_only_after(facts: HandFacts) -> None:
    """R29: the actions and their players are reviewed after the hand. A hand still
    being played has no review: it would uncover tricks (R27) and tie tiles to
    players (R28)."""
    if _in_play(facts):
        raise ValueError(
            f"hand {facts.index + 1} is still being played, and a review shows a hand only after "
            "it ends (R29); view it --as public or as a player (A–D)"
        )


def match_views(match: Match, observer: Observer, *, finished: bool = False) -> list[list[View]]:
    """Every moment of every hand, hand by hand (what the HTML viewer steps through).

    A review (R29) has no hand still being played: it is a ValueError, or with
    ``finished`` the views stop before it (:func:`in_play_hand` says which)."""
    rules, facts = replay_match(match)
    out: list[list[View]] = []
    for f in facts:
        if observer == "review":
            if finished and _in_play(f):
                break
            _review_only_after(f)
        replay = _HandReplay(match, rules, f, observer)
        out.append(
            replay.views(
                _review_moments(replay, None) if observer == "review" else replay.moments()
            )
        )
    return out


def in_play_hand(match: Match) -> int | None:
    """The number (from 1) of the hand still being played, which a review cannot show yet, or
    None."""
    if match.status != "unfinished" or not match.hands:
        return None
    last = len(match.hands) - 1
    return last + 1 if _in_play(replay_match(match)[1][last]) else None


def trick_moments(match: Match, hand_index: int) -> list[Moment]:
    """The trick-by-trick moments of a hand: the auction, the declaration, each
    trick's last tile (still on the table), and a last unfinished trick."""
    _check_index(match, hand_index)
    hand = match.hands[hand_index]
    out = [Moment.auction()]
    if hand.declaration is None:
        return out
    out.append(Moment.declaration())
    n = sum(1 for p in hand.plays if not p.rejected)
    size = 3 if hand.declaration.contract == "nello" else 4
    out.extend(Moment("play", k) for k in range(size, n + 1, size))
    if n % size:
        out.append(Moment("play", n))
    return out
