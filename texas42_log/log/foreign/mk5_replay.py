"""mk5 share links → matches: the tokens replayed by our engine (docs/conversions.md).

A link holds the whole game so far: the deal's seed (of the *current* deal) or the
first deal's hands, the seats' kinds, the layers (rules), and every action — the
players' bids, trumps and plays, each seat's agreements, and the steps mk5 takes by
itself (a redeal, a trick completed, a hand scored). This module walks those tokens
with the engine under the preset ``mk5`` with the link's layers: each token must be
what the game allows at that moment, a step must come exactly where mk5 takes it,
and a ``~?`` (an action mk5 cannot write: a Plunge, a Splash, a 4-mark bid, Nel-O,
Sevens) is every unwritable action the game allows there — each reading followed to
the end of the link. One consistent reading gives the match; none, the error of the
reading that went furthest; two or more, a refusal naming them.

What the format has no field for is kept in the match's ``x-mk5`` extension (the
seed, the seats' kinds, theme, layers, the agreements' order where it is not the
seats', the steps after the last action), so the same link can be written back.
Pure: no I/O.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Final

from ...engine.actions import Call, Declare, Play
from ...engine.auction import BidKind
from ...engine.declare import Choice, declaration_choices, declaration_problems
from ...engine.errors import IllegalAction
from ...engine.live import LiveHand, entry_of
from ...engine.presets import PRESETS
from ...engine.rules import Rules
from ...engine.seats import SEATS, TEAMS, Team
from ...engine.tiles import TILE_BY_NAME
from ...engine.trumps import Trump
from ..notation import ParsedMatch
from . import ForeignFormatError, attach_comments, read_comments_line, settle
from .mk5 import (
    LAYER_CODES,
    SEED_STEP,
    Link,
    Token,
    decode_hands,
    mk5_deal,
    parse_link,
    seed_value,
)

__all__ = ["FORMAT", "EXT", "read_links", "link_rules", "canonical_steps", "humans_of", "Branch"]

FORMAT: Final = "mk5"
#: The match's extension holding what the format has no field for.
EXT: Final = "x-mk5"
#: Readings followed at once; a link with more is refused (a real one has one or two).
MAX_READINGS: Final = 64


def link_rules(layers: list[str]) -> tuple[Rules, dict[str, bool]]:
    """The rules mk5 plays with these layer codes, and the options the log sets."""
    options: dict[str, bool] = {}
    for code in layers:
        option = LAYER_CODES.get(code)
        if option is not None:
            options[option] = True
    if "t" in layers:  # tournament takes the special contracts away
        options = {}
    return PRESETS["mk5"].with_options(**options), options


def humans_of(players: str) -> list[int]:
    """The seats ``p=`` marks human (``h``): they agree before each step."""
    return [k for k, ch in enumerate(players) if ch == "h"]


def canonical_steps(humans: list[int], event: str | None) -> str:
    """The tokens mk5 writes after an action that ends a trick (``trick``), a hand
    (``hand``) or an auction of four passes (``redeal``): each human's agreement in
    seat order, then the step itself."""
    if event == "redeal":
        return "B"
    trick = "".join("5678"[k] for k in humans) + "3"
    if event == "trick":
        return trick
    if event == "hand":
        return trick + "".join("9-_."[k] for k in humans) + "4"
    return ""


@dataclass
class Branch:
    """One reading of a link: the match so far and where the game stands."""

    rules: Rules
    humans: list[int]
    seed: int | None
    hands: list[dict[str, Any]] = field(default_factory=list)
    live: LiveHand | None = None
    score: dict[Team, int] = field(default_factory=lambda: {t: 0 for t in TEAMS})
    #: What the game waits for: an action ("act"), the agreements and step of a full
    #: trick ("trick"), of a decided hand ("hand"), a redeal ("redeal"), or nothing ("over").
    phase: str = "act"
    agreed: set[int] = field(default_factory=set)
    #: Each ~? resolved: (token index, the action in words).
    readings: list[tuple[int, str]] = field(default_factory=list)
    at: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: Per action (from 1): the event it caused, and the tokens of steps after it.
    events: list[str | None] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)
    one_hand: bool = False

    def clone(self) -> Branch:
        other = copy.copy(self)
        other.hands = copy.deepcopy(self.hands)
        other.score = dict(self.score)
        other.agreed = set(self.agreed)
        other.readings = list(self.readings)
        other.at = dict(self.at)
        other.events = list(self.events)
        other.steps = list(self.steps)
        if self.live is not None:
            live = LiveHand(self.rules, other.hands[-1], False, self.live.score_before)
            live.rebuild()
            other.live = live
        return other

    # -- deals ------------------------------------------------------------------------

    def new_deal(self, hands: list[list[str]] | None = None) -> None:
        n = len(self.hands) + 1
        if hands is None:
            hands = mk5_deal((self.seed or 0) + (n - 1) * SEED_STEP)
        doc: dict[str, Any] = {
            "dealer": SEATS[(3 + n - 1) % 4],
            "deal": {SEATS[p]: list(hands[p]) for p in range(4)},
            "auction": [],
        }
        self.hands.append(doc)
        live = LiveHand(self.rules, doc, False, self.score)
        live.rebuild()
        self.live = live
        self.phase = "act"

    # -- one token --------------------------------------------------------------------

    def step(self, index: int, tok: Token, line: int) -> list[Branch]:
        """The readings after token ``index``: this branch moved on, or its copies (a ~?);
        :class:`ForeignFormatError` if the token cannot come here."""
        kind = tok.kind
        if kind in ("trick", "score", "redeal", "agree-trick", "agree-score"):
            self._system(tok, line)
            return [self]
        if self.phase != "act":
            raise self._error(tok, line, self._waiting())
        live = self.live
        assert live is not None
        n = len(self.hands)
        if kind == "unknown":
            choices = self._unwritable()
            if not choices:
                raise self._error(
                    tok,
                    line,
                    f"hand {n}: '~?' stands for an action mk5 cannot write (a Plunge, a "
                    "Splash, a 4-mark bid, Nel-O, Sevens), and none is allowed here",
                )
            out = []
            last: ForeignFormatError | None = None
            for act, words in choices:
                b = self.clone() if len(choices) > 1 else self
                try:
                    b._act(act, tok, line)
                except ForeignFormatError as e:  # pragma: no cover - the choices are legal
                    last = e
                    continue
                b.readings.append((index, f"hand {n}: {words}"))
                out.append(b)
            if not out and last is not None:  # pragma: no cover
                raise last
            return out
        self._act(self._action_of(tok, line), tok, line)
        return [self]

    def _waiting(self) -> str:
        n = len(self.hands)
        if self.phase == "trick":
            return (
                f"hand {n}: the trick is full; mk5 completes it (3), after every human seat "
                "agreed, before the next action"
            )
        if self.phase == "hand":
            return (
                f"hand {n} is decided; mk5 scores it (4), after every human seat agreed, before "
                "anything else"
            )
        if self.phase == "redeal":
            return f"hand {n}: all four passed; mk5 redeals (B) before anything else"
        return (
            "the match is over: nothing may follow"
            if not self.one_hand
            else "the one-hand game is over after its hand (mk5's retry or new hand cannot be read)"
        )

    def _error(self, tok: Token, line: int, why: str) -> ForeignFormatError:
        return ForeignFormatError(f"{tok.describe()}: {why}", line, tok.column)

    def _system(self, tok: Token, line: int) -> None:
        kind = tok.kind
        n = len(self.hands)
        wants = {
            "trick": "trick",
            "agree-trick": "trick",
            "score": "hand",
            "agree-score": "hand",
            "redeal": "redeal",
        }[kind]
        if self.phase != wants:
            if self.phase == "act":
                what = {
                    "trick": "no trick is full",
                    "hand": "the hand is not decided",
                    "redeal": "not all four have passed",
                }[wants]
                raise self._error(
                    tok,
                    line,
                    f"hand {n}: {what}; mk5 takes this step only when {self._when(wants)}",
                )
            raise self._error(tok, line, self._waiting())
        self.steps[-1] += tok.text
        if kind in ("agree-trick", "agree-score"):
            seat = tok.value
            assert isinstance(seat, int)
            if seat not in self.humans:
                raise self._error(
                    tok,
                    line,
                    f"p= makes {SEATS[seat]} (player {seat}) a computer seat, and only "
                    "human seats agree",
                )
            if seat in self.agreed:
                raise self._error(tok, line, f"{SEATS[seat]} (player {seat}) has agreed already")
            self.agreed.add(seat)
            return
        missing = [k for k in self.humans if k not in self.agreed]
        if missing and kind != "redeal":
            who = ", ".join(f"{SEATS[k]} (player {k})" for k in missing)
            raise self._error(
                tok,
                line,
                f"hand {n}: mk5 takes this step once every human seat agreed, and {who} has not",
            )
        self.agreed = set()
        live = self.live
        assert live is not None
        if kind == "trick":
            assert live.state is not None
            self.phase = "hand" if live.state.finished else "act"
            return
        if kind == "score":
            if self.one_hand or max(self.score.values()) >= self.rules.goal:
                self.phase = "over"
                return
        self.new_deal()

    @staticmethod
    def _when(phase: str) -> str:
        return {
            "trick": "a trick is full",
            "hand": "a hand is decided",
            "redeal": "all four passed",
        }[phase]

    def _action_of(self, tok: Token, line: int) -> Call | Declare | Play:
        live = self.live
        assert live is not None
        n = len(self.hands)
        if live.auction is not None and not live.auction.done:
            if tok.kind == "pass":
                return Call(BidKind.PASS)
            if tok.kind in ("points", "marks"):
                assert isinstance(tok.value, int)
                return Call(BidKind.POINTS if tok.kind == "points" else BidKind.MARKS, tok.value)
            seat = live.auction.to_call
            raise self._error(
                tok, line, f"hand {n} is in its auction: it is {seat}'s call (pass or a bid) (R7)"
            )
        if live.state is None:
            if tok.kind == "trump":
                assert isinstance(tok.value, str)
                return Declare(Trump(tok.value))
            assert live.contract is not None
            raise self._error(
                tok,
                line,
                f"hand {n}: the auction is over and {live.contract.declarer} declares "
                "trumps before the first tile (R10)",
            )
        if tok.kind == "play":
            assert isinstance(tok.value, str)
            return Play(TILE_BY_NAME[tok.value])
        raise self._error(
            tok,
            line,
            f"hand {n}: trumps are declared; it is {live.state.to_play}'s turn to play a "
            "tile (R21)",
        )

    def _unwritable(self) -> list[tuple[Call | Declare, str]]:
        """The actions allowed now that mk5 writes as ``~?``, each in words."""
        live = self.live
        assert live is not None
        out: list[tuple[Call | Declare, str]] = []
        if live.auction is not None and not live.auction.done:
            seat = live.auction.to_call
            for kind, bid, special in live.auction.legal_calls():
                if kind is BidKind.MARKS and (special is not None or (bid or 0) >= 4):
                    what = f"a {special.capitalize()} of {bid} marks" if special else f"{bid} marks"
                    out.append((Call(kind, bid, special), f"{seat} bids {what}"))
            return out
        if live.state is None and live.contract is not None:
            for choice in declaration_choices(self.rules, live.contract):
                if choice.special is not None and choice.doubles is None:
                    name = "Nel-O" if choice.special == "nello" else "Sevens"
                    out.append(
                        (Declare(None, choice.special), f"{live.contract.declarer} declares {name}")
                    )
        return out

    def _act(self, act: Call | Declare | Play, tok: Token, line: int) -> None:
        live = self.live
        assert live is not None
        n = len(self.hands)
        hp = f"/hands/{n - 1}"
        doc = live.doc
        event: str | None = None
        try:
            if isinstance(act, Call):
                assert live.auction is not None
                seat = live.auction.to_call
                assert seat is not None
                live.auction.check(seat, act.kind, act.bid, act.special)
                self.at[f"{hp}/auction/{len(doc['auction'])}"] = (line, tok.column)
                live.apply(act, entry_of(self.rules, act, seat))
                if live.auction.done and live.contract is None:
                    event, self.phase = "redeal", "redeal"
                    live.finish()
            elif isinstance(act, Declare):
                contract = live.contract
                assert contract is not None
                seat = contract.declarer
                problems, _ = declaration_problems(
                    self.rules, contract, seat, Choice(act.trump, act.special), n
                )
                if problems:
                    raise IllegalAction(problems[0].rule, problems[0].message)
                self.at[f"{hp}/declaration"] = (line, tok.column)
                live.apply(act, entry_of(self.rules, act, seat))
            else:
                state = live.state
                assert state is not None
                seat = state.to_play
                if seat is None:  # pragma: no cover - a finished hand waits for its steps
                    raise IllegalAction("R22", f"hand {n} is decided")
                full = len(state.current.plays) + 1 == state.trick_size
                state.check(seat, act.tile, None)
                self.at[f"{hp}/plays/{len(doc.get('plays', []))}"] = (line, tok.column)
                live.apply(act, entry_of(self.rules, act, seat))
                if full:
                    event, self.phase = ("hand" if state.finished else "trick"), "trick"
                    if state.finished:
                        self.score = live.finish()
        except IllegalAction as e:
            raise self._error(tok, line, e.message) from None
        self.events.append(event)
        self.steps.append("")


def _layers(link: Link) -> list[str]:
    raw = link.params.get("l", ("", 0))[0]
    return [c for c in raw.split(",") if c]


def _deal_changes(link: Link) -> tuple[int, int]:
    """How many new deals came before the deal in play (from ``d=`` and the tokens),
    and the column of ``d=``: the actions record N = #B + #4 changes, less one when the
    last 4 ended the match, and the dealer moved on once for each."""
    line = link.line
    n = sum(1 for t in link.tokens if t.kind in ("redeal", "score"))
    dealer, col = 3, link.params["a"][1] if "a" in link.params else 1
    if "d" in link.params:
        dtext, col = link.params["d"]
        if dtext not in ("0", "1", "2", "3"):
            raise ForeignFormatError(f"d= is the dealer, 0–3, not {dtext!r}", line, col)
        dealer = int(dtext)
    fits = [k for k in (n, n - 1) if k >= 0 and (3 + k) % 4 == dealer]
    if not fits:
        raise ForeignFormatError(
            f"d={dealer} is not the dealer after the {n} new deals the actions record "
            f"(mk5's first dealer is 3, and each new deal moves the deal on)",
            line,
            col,
        )
    return fits[0], col


def _start(
    link: Link, changes: int, warnings: list[dict[str, Any]]
) -> tuple[Branch, dict[str, Any]]:
    """The reading before the first token (``changes``: the new deals before the deal in
    play, :func:`_deal_changes`), and the link's ``x-mk5``."""
    line = link.line
    ext: dict[str, Any] = {}
    if link.address:
        ext["address"] = link.address
    players = "haaa"
    if "p" in link.params:
        players, col = link.params["p"]
        if len(players) != 4:
            raise ForeignFormatError(
                f"p= is 4 characters, one a seat (h human, a computer), not {len(players)}",
                line,
                col,
            )
        ext["players"] = players
    if link.dropped:
        names = ", ".join(repr(n) for n in link.dropped[:5]) + (
            " …" if len(link.dropped) > 5 else ""
        )
        warnings.append(
            {
                "text": f"the link's parameters {names} are not mk5's; mk5 ignores them, and they "
                "are "
                "not kept"
            }
        )
    layers = _layers(link)
    unknown = [c for c in layers if c not in LAYER_CODES]
    if unknown:
        warnings.append(
            {
                "text": f"the layer codes {', '.join(unknown)} of l= are not mk5's; mk5 drops "
                "them, and so "
                "does this reading"
            }
        )
    known = [c for c in layers if c in LAYER_CODES]
    if "l" in link.params:
        ext["layers"] = link.params["l"][0]
    rules, _ = link_rules(known)
    for name, key in (("t", "theme"), ("v", "colors"), ("h", "section")):
        if name in link.params:
            ext[key] = link.params[name][0]
    branch = Branch(rules, humans_of(players), None, one_hand="o" in known)
    if "i" in link.params:
        text, col = link.params["i"]
        hands = decode_hands(text, line, col)
        ext["deal"] = "hands"
        if "s" in link.params:
            warnings.append(
                {"text": "the link has both i= and s=; mk5 deals from i= and ignores s="}
            )
        warnings.append(
            {
                "text": "an i= link holds the first deal only; later deals come from seed 0 and "
                "on, as mk5's "
                "replay deals them (the app itself dealt them from the clock)"
            }
        )
        branch.seed = 0
        branch.new_deal(hands)
    else:
        text, col = link.params.get("s", ("0", 0))
        current = seed_value(text, line, col) if "s" in link.params else 0
        # s= and d= are the current deal's; the first deal was that many changes before.
        first = current - SEED_STEP * changes
        if first < 0:
            raise ForeignFormatError(
                f"s= is {current:,}, and the {changes} new deals before it would make the first "
                "deal's seed negative "
                f"(the seed grows by {SEED_STEP:,} a deal)",
                line,
                col,
            )
        ext["deal"] = "seed"
        ext["seed"] = first
        branch.seed = first
        branch.new_deal()
    return branch, ext


def _walk(link: Link, branch: Branch) -> list[Branch]:
    live = [branch]
    best: tuple[int, ForeignFormatError] | None = None
    for index, tok in enumerate(link.tokens):
        nxt: list[Branch] = []
        for b in live:
            try:
                nxt.extend(b.step(index, tok, link.line))
            except ForeignFormatError as e:
                if best is None or index > best[0]:
                    best = (index, e)
        if not nxt:
            assert best is not None
            raise best[1]
        if len(nxt) > MAX_READINGS:
            raise ForeignFormatError(
                f"{tok.describe()}: the link's ~? tokens read more than {MAX_READINGS} ways here",
                link.line,
                tok.column,
            )
        live = nxt
    return live


def _ambiguity(link: Link, readings: list[Branch]) -> ForeignFormatError:
    """The refusal of a link that reads more than one way: the first ~? whose readings
    differ, and each of them."""
    depth = min(len(b.readings) for b in readings)
    for k in range(depth + 1):
        choices = list(dict.fromkeys(b.readings[k] for b in readings if k < len(b.readings)))
        if len(choices) > 1 or k == depth:
            break
    index = choices[0][0]
    tok = link.tokens[index]
    words = [w for _, w in choices]
    named = ", ".join(words[:-1]) + f" or {words[-1]}" if len(words) > 1 else words[0]
    count = "two" if len(readings) == 2 else str(len(readings))
    return ForeignFormatError(
        f"{tok.describe()} reads {count} ways, each consistent to the end of the link — {named}; "
        "mk5 writes "
        "'~?' for any of them, so the link does not say which, and it is not read",
        link.line,
        tok.column,
    )


def read_link(line: str, ln: int, col: int) -> ParsedMatch:
    """One link → one match."""
    link = parse_link(line, ln, col)
    warnings: list[dict[str, Any]] = []
    changes, dcol = _deal_changes(link)
    branch, ext = _start(link, changes, warnings)
    readings = _walk(link, branch)
    # d= tells whether the last 4 ended the match: a reading must reach that deal.
    fit = [b for b in readings if len(b.hands) == changes + 1]
    if not fit:
        reached = len(readings[0].hands)
        raise ForeignFormatError(
            f"d= says the link was taken in deal {changes + 1}, but its actions reach deal "
            f"{reached} "
            f"(the last 4 {'did not end' if reached > changes + 1 else 'ended'} the match)",
            ln,
            dcol,
        )
    readings = fit
    if len(readings) > 1:
        raise _ambiguity(link, readings)
    (b,) = readings
    for index, words in b.readings:
        tok = link.tokens[index]
        b.at[f"/source/warnings/{len(warnings)}"] = (ln, tok.column)
        warnings.append(
            {
                "text": f"the '~?' at column {tok.column} is read as: {words} — the one action the "
                "game allows there that mk5 cannot write"
            }
        )
    ext |= _steps_ext(b)
    _, options = link_rules([c for c in _layers(link) if c in LAYER_CODES])
    doc: dict[str, Any] = {
        "format": "texas42-log",
        "version": "1.5",
        "rules": {"preset": "mk5", "options": options},
        "first_dealer": "D",
        "status": "unfinished",
        "hands": b.hands,
        "source": {"format": FORMAT, "warnings": warnings},
        EXT: ext,
    }
    settle(doc)
    at = dict(b.at)
    at.setdefault("", (ln, col))
    for k in range(len(b.hands)):
        at.setdefault(f"/hands/{k}", (ln, col))
    return ParsedMatch(doc, at, ln)


def _steps_ext(b: Branch) -> dict[str, Any]:
    """The steps that differ from what mk5 writes by itself, and those after the last action."""
    out: dict[str, Any] = {}
    odd = {
        str(k + 1): s
        for k, s in enumerate(b.steps[:-1])
        if s != canonical_steps(b.humans, b.events[k])
    }
    if odd:
        out["steps"] = odd
    out["tail"] = b.steps[-1] if b.steps else ""
    return out


def read_links(text: str) -> list[ParsedMatch]:
    """A file of links, one a line (blank lines and ``#`` comments skipped) → a match each."""
    out: list[ParsedMatch] = []
    lines = text.lstrip("\ufeff").split("\n")
    # A browser's saved shortcut (.url): an [InternetShortcut] section whose URL= line is the link.
    shortcut = next((x.strip().lower() for x in lines if x.strip()), "") == "[internetshortcut]"
    for ln, raw in enumerate(lines, start=1):
        line = raw.strip()
        if shortcut:
            if not line[:4].upper() == "URL=":
                continue
            raw = raw.replace(line[:4], "    ", 1)
            line = line[4:].strip()
        found = read_comments_line(line, ln)
        if found is not None:
            if out:
                attach_comments(out[-1].doc, found)
            continue
        if not line or line.startswith("#"):
            continue
        out.append(read_link(line, ln, raw.index(line) + 1))
    if not out:
        raise ForeignFormatError("no mk5 link (a line with ?s=, ?i= or a=)", 1, 1)
    return out
