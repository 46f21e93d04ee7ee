"""The verdict on a plain, valid log, reached over its parsed JSON without the models.

Most logs of a corpus are plain: a full deal each hand, calls, a declaration, every
play, stated outcomes, nothing else. For such a log :func:`plain_report` walks the
parsed document once — its shape as strictly as the models (:mod:`.model`) take it,
then the replay as :mod:`.check` runs it, through the same engine — and returns the
:class:`~.check.MatchReport` the checked path would: no diagnostics, the hands, the
score, the winner and the rules.

It settles nothing else. Anything it does not know — an extension key, a comment, an
analysis, a rejected action, an unknown tile, a draw for the first dealer, a hand
that stops early, a number out of the models' range — and anything the replay finds
wrong, returns None, and the caller takes the full path (models, then the checked
replay), which words every diagnostic. So the diagnostics are the full path's by
construction; tests hold the verdicts equal (tests/test_validation_golden.py,
tests/test_plain_verdict.py).

Pure: no I/O. Compiled with mypyc, as the replay is (setup.py).
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..engine.auction import Auction, BidKind, BidSpecial, count_doubles
from ..engine.declare import Choice, declaration_problems
from ..engine.errors import IllegalAction
from ..engine.hand import PlayState
from ..engine.presets import PRESETS
from ..engine.rules import Rules
from ..engine.seats import SEATS, TEAMS, Seat, Team, next_seat
from ..engine.tiles import TILE_BY_NAME, Tile
from ..engine.trumps import Trump
from .check import CALL_KINDS, MatchReport, rules_for
from .model_base import COMMENT_ID_PATTERN, NUMBER_LIMIT, lone_surrogate
from .upgrade import is_current
from .versions import COMMENT_IDS_SINCE, version_key

__all__ = ["plain_report"]


_MATCH_KEYS = frozenset(
    (
        "format",
        "version",
        "rules",
        "players",
        "first_dealer",
        "status",
        "hands",
        "result",
        "annotations",
    )
)
_HAND_KEYS = frozenset(
    ("dealer", "deal", "auction", "declaration", "plays", "outcome", "annotations")
)
_DECLARATION_KEYS = frozenset(("seat", "trump", "contract", "doubles", "stacks", "annotations"))
_OUTCOME_KEYS = frozenset(("tricks", "points", "result", "marks", "score"))
_TRICK_KEYS = frozenset(("winner", "points"))
_PLAY_KEYS = frozenset(("seat", "tile", "led", "annotations"))
_NOTE_KEYS = frozenset(("text", "author", "id", "seat", "edited_by"))
_EDITORS = frozenset(("owner", "A", "B", "C", "D"))
_COMMENT_ID = re.compile(COMMENT_ID_PATTERN.removeprefix("^").removesuffix("$"))
_TRUMPS = frozenset(t.value for t in Trump)
_TEAM_KEYS = frozenset(("A+C", "B+D"))
_NAME_KEYS = frozenset(SEATS)
_SPECIALS = frozenset(("plunge", "splash"))

#: Each rules object met (its JSON, keys sorted) → (preset, rules, overrides), or None
#: when the models refuse it or the rules allow no bid; most logs share a few.
_RULES: dict[str, tuple[str, Rules, dict[str, Any]] | None] = {}


class _NotPlain(Exception):
    """Raised inside the walk: the full path decides."""


def _number(value: Any) -> int:
    if type(value) is not int or not -NUMBER_LIMIT <= value <= NUMBER_LIMIT:
        raise _NotPlain
    return value


def _seat(value: Any) -> Seat:
    if value == "A" or value == "B" or value == "C" or value == "D":
        return value  # type: ignore[no-any-return]
    raise _NotPlain


def _object(value: Any, keys: frozenset[str]) -> dict[str, Any]:
    if type(value) is not dict or not keys.issuperset(value):
        raise _NotPlain
    return value


def _teams(value: Any) -> dict[Team, int]:
    if type(value) is not dict or len(value) != 2 or not _TEAM_KEYS.issuperset(value):
        raise _NotPlain
    return {"A+C": _number(value["A+C"]), "B+D": _number(value["B+D"])}


def _rules(value: Any) -> tuple[str, Rules, dict[str, Any]]:
    if type(value) is not dict:
        raise _NotPlain
    key = json.dumps(value, sort_keys=True)
    if key not in _RULES:
        found: tuple[str, Rules, dict[str, Any]] | None = None
        from pydantic import ValidationError

        from .model import RulesDeclaration

        try:
            declared = RulesDeclaration.model_validate(value)
        except ValidationError:
            declared = None
        if declared is not None:
            rules = rules_for(declared.preset, declared.options.overrides())
            splash_ok = not rules.splash or rules.splash_min_marks <= rules.splash_max_marks
            if rules.min_point_bid <= rules.max_point_bid and splash_ok:
                preset = PRESETS[declared.preset]
                overrides = rules.overrides(preset)
                found = (declared.preset, rules, overrides)
        if len(_RULES) < 256:
            _RULES[key] = found
        elif found is None:
            raise _NotPlain
        else:
            return found
    known = _RULES[key]
    if known is None:
        raise _NotPlain
    return known


def plain_report(doc: Any) -> MatchReport | None:
    """The report of ``doc`` (parsed JSON) when it is a plain, valid log; None otherwise.

    None says nothing about validity: the full path decides."""
    try:
        return _walk(doc)
    except (_NotPlain, IllegalAction, KeyError, TypeError, ValueError):
        # A value of an unexpected type met a lookup: the full path words what it is.
        return None


def _walk(doc: Any) -> MatchReport:
    m = _object(doc, _MATCH_KEYS)
    if m.get("format") != "texas42-log" or not is_current(m.get("version")):
        raise _NotPlain
    preset, rules, overrides = _rules(m["rules"])
    if rules.dealer_draw != "fair" or rules.mark_bid_units != "marks":
        raise _NotPlain
    players = m.get("players")
    if players is not None:
        for name in _object(players, _NAME_KEYS).values():
            if name is not None:
                _text(name)
    if m.get("status", "complete") not in ("complete", "unfinished"):
        raise _NotPlain
    hands = m["hands"]
    if type(hands) is not list:
        raise _NotPlain
    report = MatchReport(rules=rules, preset=preset, overrides=dict(overrides), hands=len(hands))
    ids: set[str] = set()
    _notes(m, ids)
    score: dict[Team, int] = {"A+C": 0, "B+D": 0}
    dealer = _seat(m["first_dealer"])
    for hand in hands:
        if report.winner is not None:
            raise _NotPlain  # a hand after the match was won (R24)
        h = _object(hand, _HAND_KEYS)
        if h["dealer"] != dealer:
            raise _NotPlain  # R4
        _notes(h, ids)
        gained = _hand(rules, dealer, h, ids)
        for team in TEAMS:
            score[team] += gained[team]
        outcome = h.get("outcome")
        if outcome is not None and outcome.get("score") is not None:
            if _teams(outcome["score"]) != score:
                raise _NotPlain  # R5
        dealer = next_seat(dealer)
        reached = [t for t in TEAMS if score[t] >= rules.goal]
        if reached:
            # Both past the goal in one hand: the higher score wins (as check.py).
            top: Team = reached[0]
            for t in reached:
                if score[t] > score[top]:
                    top = t
            report.winner = top
    if report.winner is None and m.get("status", "complete") == "complete":
        raise _NotPlain  # R24
    if report.winner is not None and m.get("status") == "unfinished":
        raise _NotPlain  # R24
    result = m.get("result")
    if result is not None:
        r = _object(result, frozenset(("winner", "marks")))
        if r["winner"] not in TEAMS or r["winner"] != report.winner:
            raise _NotPlain
        if r.get("marks") is not None and _teams(r["marks"]) != score:
            raise _NotPlain
    if ids and version_key(m["version"]) < version_key(COMMENT_IDS_SINCE):
        raise _NotPlain  # ids in a log older than they are
    report.score = score
    return report


def _notes(holder: dict[str, Any], ids: set[str]) -> None:
    """The comments on ``holder``, as strictly as the models take them; their ids
    gathered into ``ids`` (one given twice: not plain)."""
    notes = holder.get("annotations")
    if notes is None:
        return
    if type(notes) is not list:
        raise _NotPlain
    for note in notes:
        a = _object(note, _NOTE_KEYS)
        _text(a["text"])
        author = a.get("author")
        if author is not None:
            _text(author)
        seat = a.get("seat")
        if seat is not None:
            _seat(seat)
        editor = a.get("edited_by")
        if editor is not None and editor not in _EDITORS:
            raise _NotPlain
        name = a.get("id")
        if name is not None:
            if type(name) is not str or _COMMENT_ID.fullmatch(name) is None or name in ids:
                raise _NotPlain
            ids.add(name)


def _text(value: Any) -> None:
    if type(value) is not str or lone_surrogate(value) is not None:
        raise _NotPlain


_CALL_KEYS = {
    "pass": frozenset(("seat", "call", "annotations")),
    "points": frozenset(("seat", "call", "bid", "annotations")),
    "marks": frozenset(("seat", "call", "bid", "special", "annotations")),
}


def _hand(rules: Rules, dealer: Seat, h: dict[str, Any], ids: set[str]) -> dict[Team, int]:
    """One hand replayed; the marks (or points) it gives each team."""
    known = _deal(h.get("deal"))
    doubles = count_doubles(known) if rules.plunge or rules.splash else None
    auction = Auction(rules, dealer, doubles)
    calls = h["auction"]
    if type(calls) is not list:
        raise _NotPlain
    for call in calls:
        if type(call) is not dict:
            raise _NotPlain
        kind_name = call.get("call")
        if type(kind_name) is not str or kind_name not in _CALL_KEYS:
            raise _NotPlain
        if not _CALL_KEYS[kind_name].issuperset(call):
            raise _NotPlain
        kind = CALL_KINDS[kind_name]
        _notes(call, ids)
        bid: int | None = None
        special: BidSpecial | None = None
        if kind is not BidKind.PASS:
            bid = _number(call["bid"])
        if kind is BidKind.MARKS:
            special = call.get("special")
            if special is not None and special not in _SPECIALS:
                raise _NotPlain
        auction.call(_seat(call["seat"]), kind, bid, special)
    if not auction.done:
        raise _NotPlain  # R7
    plays_doc = h.get("plays", [])
    if type(plays_doc) is not list:
        raise _NotPlain
    outcome = h.get("outcome")
    if outcome is not None:
        _object(outcome, _OUTCOME_KEYS)
    contract = auction.contract()
    if contract is None:
        # All four passed (R11): no declaration, no play, nothing taken.
        if h.get("declaration") is not None or plays_doc:
            raise _NotPlain
        if outcome is not None:
            tricks = outcome.get("tricks")
            if tricks is not None and (type(tricks) is not list or tricks):
                raise _NotPlain
            zero: dict[Team, int] = {"A+C": 0, "B+D": 0}
            for name in ("points", "marks"):
                if outcome.get(name) is not None and _teams(outcome[name]) != zero:
                    raise _NotPlain
            if outcome.get("result") not in (None, "no-contract"):
                raise _NotPlain
        return {"A+C": 0, "B+D": 0}
    d = _object(h.get("declaration"), _DECLARATION_KEYS)
    _notes(d, ids)
    trump_name = d.get("trump")
    if trump_name is not None and (type(trump_name) is not str or trump_name not in _TRUMPS):
        raise _NotPlain
    special_contract = d.get("contract")
    if special_contract not in (None, "nello", "sevens"):
        raise _NotPlain
    nello_doubles = d.get("doubles")
    if nello_doubles not in (None, "high", "low", "own-suit"):
        raise _NotPlain
    stacks = d.get("stacks")
    if stacks is not None:
        stacks = _number(stacks)
    choice = Choice(
        Trump(trump_name) if trump_name is not None else None,
        special_contract,
        nello_doubles,
        stacks,
    )
    problems, declared = declaration_problems(rules, contract, _seat(d["seat"]), choice, 1)
    if problems or declared is None:
        raise _NotPlain
    contract, trump = declared
    state = PlayState(
        rules, contract, trump, known, {s: 0 for s in SEATS}, nello_doubles=nello_doubles
    )
    plays: list[tuple[Seat, Tile, int | None]] = []
    for p in plays_doc:
        if type(p) is not dict or not _PLAY_KEYS.issuperset(p):
            raise _NotPlain
        _notes(p, ids)
        led = p.get("led")
        if led is not None and (type(led) is not int or not 0 <= led <= 6):
            raise _NotPlain
        plays.append((_seat(p["seat"]), _tile(p["tile"]), led))
    if state.play_many(plays) is not None or not state.finished:
        raise _NotPlain
    result = state.result
    assert result is not None
    if outcome is not None:
        tricks = outcome.get("tricks")
        if tricks is not None:
            if type(tricks) is not list or len(tricks) != len(state.tricks):
                raise _NotPlain  # R22
            for stated, trick in zip(tricks, state.tricks, strict=True):
                t = _object(stated, _TRICK_KEYS)
                winner = t.get("winner")
                if winner is not None and _seat(winner) != trick.winner:
                    raise _NotPlain
                points = t.get("points")
                if points is not None and _number(points) != trick.points:
                    raise _NotPlain
        if outcome.get("points") is not None and _teams(outcome["points"]) != result.points:
            raise _NotPlain  # R6
        said = outcome.get("result")
        if said is not None and said != result.outcome.value:
            raise _NotPlain  # R23
        if outcome.get("marks") is not None and _teams(outcome["marks"]) != result.marks:
            raise _NotPlain  # R23
    return dict(result.marks if rules.match_goal == "marks" else result.points)


def _tile(name: Any) -> Tile:
    if type(name) is not str:
        raise _NotPlain
    return TILE_BY_NAME[name]  # KeyError: not a canonical name


def _deal(deal: Any) -> dict[Seat, set[Tile]]:
    """A full deal (R2, R3): 7 known tiles a seat, 28 different."""
    columns = _object(deal, _NAME_KEYS)
    if len(columns) != 4:
        raise _NotPlain
    known: dict[Seat, set[Tile]] = {}
    count = 0
    for seat in SEATS:
        column = columns[seat]
        if type(column) is not list or len(column) != 7:
            raise _NotPlain
        tiles = {_tile(x) for x in column}
        known[seat] = tiles
        count += len(tiles)
    if count != 28 or len(set().union(*known.values())) != 28:
        raise _NotPlain
    return known
