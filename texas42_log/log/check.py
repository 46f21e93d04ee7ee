"""Replay a parsed log through the engine and report every broken rule.

The checked path: every call and play goes through the engine's checks. After
an illegal action the rest of that hand is skipped — no plays are invented to
keep going (python-chess skips the rest of a bad line) — and checking resumes
with the next hand. Everything the log states (trick winners, points, marks,
the winner) is compared with the replay, never trusted.

Pure: takes a :class:`~texas42_log.log.model.Match`, returns a :class:`MatchReport`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine.auction import MARK_SIZE, Auction, BidKind, BidSpecial, Contract, count_doubles
from ..engine.declare import Choice, declaration_problems
from ..engine.errors import Diagnostic, IllegalAction
from ..engine.hand import PlayState
from ..engine.presets import PRESETS
from ..engine.rules import Rules
from ..engine.seats import SEATS, TEAMS, Seat, Team, next_seat
from ..engine.tiles import TILE_BY_NAME, Tile
from ..engine.trumps import Trump
from .draw import check_draw
from .model import Hand, MarkBid, Match, PassCall, PointBid
from .stated import StatedFacts, format_points, team_numbers

__all__ = ["MatchReport", "check_match", "effective_rules", "rules_for", "call_args", "CALL_KINDS"]


@dataclass(slots=True)
class MatchReport:
    """What the replay found: diagnostics (pointers, no positions yet) and a summary."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    rules: Rules | None = None
    preset: str = ""
    #: The options the log sets over its preset.
    overrides: dict[str, Any] = field(default_factory=dict)
    hands: int = 0
    score: dict[Team, int] | None = None
    winner: Team | None = None
    #: Whether a hand the replay reached states an analysis (open-hand or fair), which
    #: validation then checks: found on the replay's own walk, not by a second one.
    analysed: bool = False

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]


#: The rules of each (preset, options set) met so far: most logs of a corpus share a few,
#: and building a Rules is a dataclass copy per log (5 % of validating a small match).
_RULES_SEEN: dict[tuple[str, tuple[tuple[str, Any], ...]], Rules] = {}


def effective_rules(match: Match) -> Rules:
    """The rules in force: the preset's options with the log's overrides applied."""
    # Declared options only: x- extensions on the options object are kept, never interpreted.
    return rules_for(match.rules.preset, match.rules.options.overrides())


def rules_for(preset: str, overrides: dict[str, Any]) -> Rules:
    """The rules of ``preset`` with ``overrides`` (declared option values) applied."""
    key = (preset, tuple(sorted(overrides.items())))
    rules = _RULES_SEEN.get(key)
    if rules is None:
        rules = PRESETS[preset].with_options(**overrides)
        if len(_RULES_SEEN) < 256:  # every option's values are few; a bound all the same
            _RULES_SEEN[key] = rules
    return rules


#: A logged call's ``call`` word → the auction's kind.
CALL_KINDS = {"pass": BidKind.PASS, "points": BidKind.POINTS, "marks": BidKind.MARKS}


def call_args(
    rules: Rules, call: PassCall | PointBid | MarkBid
) -> tuple[BidKind, int | None, BidSpecial | None]:
    """A logged call as the auction takes it: kind, bid (in marks for a mark bid), special.

    Unchecked: a mark bid written in points (``mark_bid_units``) is divided by 42;
    the validator reports one that is not a multiple of 42."""
    if isinstance(call, PassCall):
        return BidKind.PASS, None, None
    if isinstance(call, MarkBid):
        bid = call.bid // MARK_SIZE if rules.mark_bid_units == "points" else call.bid
        return BidKind.MARKS, bid, call.special
    return BidKind.POINTS, call.bid, None


class _MatchChecker(StatedFacts):
    def __init__(self, match: Match) -> None:
        super().__init__(effective_rules(match))
        self.match = match
        self.report = MatchReport(
            diagnostics=self.diagnostics,
            rules=self.rules,
            preset=match.rules.preset,
            hands=len(match.hands),
        )

    def illegal(self, e: IllegalAction, pointer: str, hand_no: int) -> None:
        self.error(e.rule, pointer, e.message, {"hand": hand_no} | e.context)

    # -- match level ------------------------------------------------------------

    def _source_warnings(self) -> None:
        """An importer's warnings are repeated, so an assumption is never read as a record."""
        source = self.match.source
        if source is None:
            return
        for k, w in enumerate(source.warnings):
            where = f"hand {w.hand}: " if w.hand is not None else ""
            self.report.diagnostics.append(
                Diagnostic(
                    "import",
                    f"{where}{w.text} (imported from {source.format})",
                    f"/source/warnings/{k}",
                    severity="warning",
                    context={"hand": w.hand} if w.hand is not None else {},
                )
            )

    def run(self) -> MatchReport:
        m = self.match
        self._source_warnings()
        self._check_options()
        check_draw(self, self.match)
        expected_dealer: Seat = m.first_dealer
        resync_dealer: Seat | None = None
        won: tuple[int, Team] | None = None  # (hand index, team) once a team reaches the goal
        for i, hand in enumerate(m.hands):
            hp = f"/hands/{i}"
            if won is not None:
                won_at, winner = won
                unit = self.rules.match_goal
                self.error(
                    "R24",
                    hp,
                    f"hand {i + 1} is played after {winner} won the match with "
                    f"{self.score[winner]} {unit} in hand {won_at + 1}; "
                    f"the match ends at {self.rules.goal} {unit} (R24)",
                    {"hand": i + 1},
                )
                break
            # After a wrong dealer, accept the rotation from either the true or the
            # stated dealer, so that one slip is reported once, not once per hand.
            if hand.dealer != expected_dealer and hand.dealer != resync_dealer:
                why = (
                    f"the first dealer is {m.first_dealer}"
                    if i == 0
                    else "the deal passes one seat clockwise after every hand"
                )
                self.error(
                    "R4",
                    f"{hp}/dealer",
                    f"hand {i + 1} is dealt by {hand.dealer}, but {expected_dealer} deals it: "
                    f"{why} (R4)",
                    {"hand": i + 1, "expected_dealer": expected_dealer},
                )
            if not self.report.analysed and (
                hand.analysis is not None or any(p.analysis for p in hand.plays)
            ):
                self.report.analysed = True
            last = i == len(m.hands) - 1
            self._check_hand(i, hand, may_stop=last and m.status == "unfinished")
            if hand.dealer == expected_dealer or hand.dealer == resync_dealer:
                expected_dealer = next_seat(hand.dealer)
                resync_dealer = None
            else:
                resync_dealer = next_seat(hand.dealer)
                expected_dealer = next_seat(expected_dealer)
            if self.score_known and won is None:
                reached = [t for t in TEAMS if self.score[t] >= self.rules.goal]
                if reached:
                    # Both past 250 points in one hand: the higher score wins (seed 004).
                    team = max(reached, key=lambda t: self.score[t])
                    self.report.winner = team
                    won = (i, team)
        self._check_match_end()
        self.report.score = dict(self.score) if self.score_known else None
        return self.report

    def _check_options(self) -> None:
        r = self.rules
        if r.min_point_bid > r.max_point_bid:
            self.error(
                "R8",
                "/rules/options/min_point_bid",
                f"the rules allow no point bid: min_point_bid {r.min_point_bid} is above "
                f"max_point_bid {r.max_point_bid} (R8)",
            )
        if r.splash and r.splash_min_marks > r.splash_max_marks:
            self.error(
                "variant:splash",
                "/rules/options/splash_min_marks",
                f"the rules allow no Splash: splash_min_marks {r.splash_min_marks} is above "
                f"splash_max_marks {r.splash_max_marks}",
            )
        preset = PRESETS[self.match.rules.preset]
        self.report.overrides = r.overrides(preset)

    def _check_match_end(self) -> None:
        m = self.match
        goal = self.rules.goal
        unit = self.rules.match_goal
        if not self.score_known:
            return
        winner = self.report.winner
        if winner is None and m.status == "complete":
            self.error(
                "R24",
                "/hands",
                f"the match is marked complete, but no team reached {goal} {unit} "
                f"({format_points(self.score)}); "
                'a match in progress has "status": "unfinished" (R24)',
                {"score": dict(self.score)},
            )
        if winner is not None and m.status == "unfinished":
            self.error(
                "R24",
                "/status",
                f"the match is marked unfinished, but {winner} won it with "
                f"{self.score[winner]} {unit} (R24)",
                {"score": dict(self.score)},
            )
        if m.result is not None:
            if m.result.winner != winner:
                actual = winner or "nobody yet"
                self.error(
                    "R24",
                    "/result/winner",
                    f"the log names {m.result.winner} as the winner, but the replay gives "
                    f"{actual} ({format_points(self.score)}) (R24)",
                )
            if m.result.marks is not None and team_numbers(m.result.marks) != self.score:
                self.error(
                    "R24",
                    "/result/marks",
                    f"the log states final {unit} {format_points(team_numbers(m.result.marks))}, "
                    "but "
                    f"the replay gives {format_points(self.score)} (R24)",
                )

    # -- one hand ----------------------------------------------------------------

    def _check_hand(self, i: int, hand: Hand, *, may_stop: bool) -> None:
        hp = f"/hands/{i}"
        n = i + 1
        holdings = self._check_deal(i, hand)
        if holdings is None:
            self.score_known = False
            return
        known, unknown = holdings

        # Plunge and Splash need the doubles each seat holds; nothing else does.
        doubles = count_doubles(known) if self.rules.plunge or self.rules.splash else None
        auction = Auction(self.rules, hand.dealer, doubles)
        for j, call in enumerate(hand.auction):
            kind = CALL_KINDS[call.call]
            bid = None if kind is BidKind.PASS else call.bid  # type: ignore[union-attr]
            special: BidSpecial | None = call.special if kind is BidKind.MARKS else None  # type: ignore[union-attr]
            if kind is BidKind.MARKS and self.rules.mark_bid_units == "points":
                pointer = f"{hp}/auction/{j}"
                assert bid is not None
                if bid < MARK_SIZE or bid % MARK_SIZE:
                    self.error(
                        "variant:mark_bid_units",
                        f"{pointer}/bid",
                        f"hand {n}: {call.seat} bids {bid} as a mark bid; these rules write "
                        "mark bids in points, 42 a mark — 42, 84, 126, … as seed 003 writes them",
                        {"hand": n},
                    )
                    self.score_known = False
                    return
                bid //= MARK_SIZE
            if call.rejected:
                self._check_rejected_call(
                    auction, call.seat, kind, bid, f"{hp}/auction/{j}", n, special
                )
                continue
            try:
                auction.call(call.seat, kind, bid, special)
            except IllegalAction as e:
                self.illegal(e, f"{hp}/auction/{j}", n)
                self.score_known = False
                return
        if not auction.done:
            if may_stop and hand.declaration is None and not hand.plays:
                self._check_undecided(i, hand, None, "in the auction")
                return
            self.error(
                "R7",
                f"{hp}/auction",
                f"hand {n}: the auction has {len(auction.calls)} calls; each of the four "
                f"players makes exactly one, starting left of the dealer {hand.dealer} (R7)",
                {"hand": n, "to_call": auction.to_call},
            )
            self.score_known = False
            return
        contract = auction.contract()
        if contract is None:
            self._check_all_pass(i, hand)
            return
        if hand.declaration is None:
            if may_stop and not hand.plays:
                self._check_undecided(i, hand, None, "before the trump declaration")
                return
            self.error(
                "R10",
                hp,
                f"hand {n}: {contract.describe()} but no trump declaration follows; the "
                "highest bidder declares trumps before the first tile (R10)",
                {"hand": n},
            )
            self.score_known = False
            return
        declared = self._check_declaration(i, hand, contract)
        if declared is None:
            self.score_known = False
            return
        contract, trump = declared
        state = PlayState(
            self.rules, contract, trump, known, unknown, nello_doubles=hand.declaration.doubles
        )
        if not self._check_plays(i, hand, state):
            self.score_known = False
            return
        if not state.finished:
            # The record stops before the hand's end: fine only for a match in progress.
            if may_stop:
                done = sum(1 for t in state.tricks if t.winner is not None)
                self._check_undecided(
                    i, hand, state, f"after {done} completed trick{'s' if done != 1 else ''}"
                )
                return
            played = sum(1 for p in hand.plays if not p.rejected)
            if state.result is not None:
                rule = "variant:hand_end"
                why = (
                    f"the contract was decided after trick {state.result.tricks_played}, but "
                    "these rules play all 7 tricks — hand_end is all-tricks"
                )
            else:
                rule = "R31"
                why = (
                    "before the contract was decided; every hand is played out until the won "
                    "tiles decide it — claiming the remaining tricks never replaces playing "
                    "the tiles (R31)"
                )
            self.error(
                rule,
                f"{hp}/plays",
                f"hand {n} stops after {played} plays{';' if state.result is not None else ','} "
                f"{why}",
                {"hand": n, "trick": state.current.number},
            )
            self.score_known = False
            return
        self._check_outcome(i, hand, state, contract, trump)

    def _check_deal(
        self, i: int, hand: Hand
    ) -> tuple[dict[Seat, set[Tile]], dict[Seat, int]] | None:
        """R2, R3: seven tiles each, no tile twice. Adds tiles the seat later plays (proof)."""
        hp = f"/hands/{i}"
        n = i + 1
        known: dict[Seat, set[Tile]] = {s: set() for s in SEATS}
        unknown: dict[Seat, int] = {s: 7 for s in SEATS}
        ok = True
        deal = hand.deal
        if deal is not None:
            columns = (deal.A, deal.B, deal.C, deal.D)
            if (
                all(len(c) == 7 and None not in c for c in columns)
                and len({*deal.A, *deal.B, *deal.C, *deal.D}) == 28
            ):
                # The common case, a full deal: 28 different tiles, 7 each (R2, R3).
                by_name = TILE_BY_NAME
                known = {s: {by_name[x] for x in c} for s, c in zip(SEATS, columns, strict=False)}  # type: ignore[index]
                return known, {s: 0 for s in SEATS}
            owner: dict[str, str] = {}
            for seat in SEATS:
                tiles = getattr(hand.deal, seat)
                if len(tiles) != 7:
                    ok = False
                    self.error(
                        "R3",
                        f"{hp}/deal/{seat}",
                        f"hand {n}: {seat} is dealt {len(tiles)} tiles; each player gets "
                        "exactly 7 (R3)",
                        {"hand": n},
                    )
                unknown[seat] = 0
                for k, name in enumerate(tiles):
                    if name is None:
                        unknown[seat] += 1
                        continue
                    if name in owner:
                        ok = False
                        self.error(
                            "R2",
                            f"{hp}/deal/{seat}/{k}",
                            f"hand {n}: {name} is dealt twice, to {owner[name]} and {seat}; "
                            "the set has exactly one of each of its 28 tiles (R2)",
                            {"hand": n, "tile": name},
                        )
                    owner[name] = seat
                    known[seat].add(TILE_BY_NAME[name])
        if not ok:
            return None
        if any(unknown.values()):
            # A tile a seat plays was in its hand from the deal: what later plays
            # reveal is known, so a renege is still caught in a partly known hand.
            everywhere = set().union(*known.values())
            for p in hand.plays:
                t = TILE_BY_NAME[p.tile]
                if not p.rejected and t not in everywhere and unknown[p.seat] > 0:
                    known[p.seat].add(t)
                    unknown[p.seat] -= 1
                    everywhere.add(t)
        return known, unknown

    def _check_rejected_call(
        self,
        auction: Auction,
        seat: Seat,
        kind: BidKind,
        bid: int | None,
        pointer: str,
        n: int,
        special: BidSpecial | None = None,
    ) -> None:
        try:
            auction.check(seat, kind, bid, special)
        except IllegalAction:
            return  # R30: refused, and rightly; nothing changes.
        what = "pass" if kind is BidKind.PASS else f"bid of {bid} {kind.value}"
        self.error(
            "R30",
            pointer,
            f"hand {n}: {seat}'s {what} is recorded as rejected, but it was legal; only an "
            "illegal action is rejected (R30)",
            {"hand": n},
        )

    def _check_all_pass(self, i: int, hand: Hand) -> None:
        hp = f"/hands/{i}"
        n = i + 1
        if hand.declaration is not None:
            self.error(
                "R11",
                f"{hp}/declaration",
                f"hand {n}: all four passed, so there is no contract and nobody declares "
                "trumps; the deal passes on (R11)",
                {"hand": n},
            )
        played = [j for j, p in enumerate(hand.plays) if not p.rejected]
        if played:
            self.error(
                "R11",
                f"{hp}/plays/{played[0]}",
                f"hand {n}: all four passed, so no tile is played; the deal passes on and a "
                "new hand is dealt (R11)",
                {"hand": n},
            )
        out = hand.outcome
        if out is not None:
            if out.tricks:
                self.error(
                    "R11",
                    f"{hp}/outcome/tricks",
                    f"hand {n}: all four passed, so no trick is played, but the log lists "
                    f"{len(out.tricks)} (R11)",
                    {"hand": n},
                )
            if out.points is not None and any(team_numbers(out.points).values()):
                self.error(
                    "R11",
                    f"{hp}/outcome/points",
                    f"hand {n}: all four passed, so nobody takes a hand point, but the log gives "
                    f"{format_points(team_numbers(out.points))} (R11)",
                    {"hand": n},
                )
            if out.result is not None and out.result != "no-contract":
                self.error(
                    "R11",
                    f"{hp}/outcome/result",
                    f"hand {n}: all four passed, so the result is no-contract, not {out.result} "
                    "(R11)",
                    {"hand": n},
                )
            zero: dict[Team, int] = {"A+C": 0, "B+D": 0}
            if out.marks is not None and team_numbers(out.marks) != zero:
                self.error(
                    "R11",
                    f"{hp}/outcome/marks",
                    f"hand {n}: all four passed, so nobody scores a mark, but the log gives "
                    f"{format_points(team_numbers(out.marks))} (R11)",
                    {"hand": n},
                )
            self._check_score(i, out)

    def _check_declaration(
        self, i: int, hand: Hand, contract: Contract
    ) -> tuple[Contract, Trump] | None:
        """R10, R12, R27 and the special contracts (:mod:`.declare`); the contract as
        played and its trump, or None when the hand cannot be replayed."""
        decl = hand.declaration
        assert decl is not None
        choice = Choice(
            Trump(decl.trump) if decl.trump is not None else None,
            decl.contract,
            decl.doubles,
            decl.stacks,
        )
        problems, declared = declaration_problems(self.rules, contract, decl.seat, choice, i + 1)
        for p in problems:
            self.error(p.rule, f"/hands/{i}/declaration{p.where}", p.message, p.context)
        return declared

    def _check_plays(self, i: int, hand: Hand, state: PlayState) -> bool:
        hp = f"/hands/{i}/plays"
        n = i + 1
        by_name = TILE_BY_NAME
        plays = [(p.seat, by_name[p.tile], p.led) for p in hand.plays if not p.rejected]
        if len(plays) == len(hand.plays):
            failed = state.play_many(plays)
            if failed is None:
                return True
            j, e = failed
            self.illegal(e, f"{hp}/{j}" + ("/led" if e.rule == "variant:declared_lead" else ""), n)
            return False
        for j, play in enumerate(hand.plays):
            t = TILE_BY_NAME[play.tile]
            if play.rejected:
                self._check_rejected_play(state, play.seat, t, f"{hp}/{j}", n)
                continue
            try:
                state.play(play.seat, t, play.led)
            except IllegalAction as e:
                self.illegal(
                    e, f"{hp}/{j}" + ("/led" if e.rule == "variant:declared_lead" else ""), n
                )
                return False
        return True

    def _check_rejected_play(
        self, state: PlayState, seat: Seat, t: Tile, pointer: str, n: int
    ) -> None:
        try:
            state.check(seat, t)
        except IllegalAction:
            return  # R30: refused, and rightly; the hand is unchanged.
        if t not in state.held(seat):
            return  # held only possibly (unknown tiles): legality cannot be proved
        self.error(
            "R30",
            pointer,
            f"hand {n}: {seat}'s play of {t} is recorded as rejected, but it was legal; "
            "only an illegal action is rejected (R30)",
            {"hand": n} | state.context(seat, t),
        )


def check_match(match: Match) -> MatchReport:
    """Replay ``match`` under its declared rules; report every broken rule (checked path)."""
    return _MatchChecker(match).run()
