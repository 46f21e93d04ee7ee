"""Matches → mk5 share links (docs/conversions.md).

A match becomes the link mk5's app would have written at its last action: the
same tokens, agreements and steps, the current deal's seed and dealer. Its deals
must be mk5's: from the seed the match was read with (``x-mk5``), or the first
deal given as ``i=`` and the later ones mk5's deals from seed 0 on. Every action is
replayed under mk5's rules (the preset ``mk5`` with the layers the match's rules
turn on): a match mk5 could not have played is :class:`CannotExport`, naming the
hand and the rule. An action mk5 cannot write (a Plunge, a Splash, a 4-mark bid,
Nel-O, Sevens) is written ``~?``, as mk5 writes it, and said in a ``#`` line after
the link. :func:`hand_link` gives one hand as an ``i=`` link that opens it in mk5.
Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...engine.actions import Call, Declare, Play
from ...engine.auction import BidKind
from ...engine.seats import SEATS
from ...engine.tiles import TILE_BY_NAME
from ...engine.trumps import Trump
from ..model import Hand, Match, match_json
from . import CannotExport, ForeignFormatError, comments_line
from .mk5 import (
    ADDRESS,
    CHARS,
    SEED_STEP,
    TOKENS,
    Token,
    base36,
    encode_hands,
    form_encode,
    mk5_deal,
)
from .mk5_branch import EXT, Branch, canonical_steps, humans_of, link_rules

__all__ = ["write_link", "write_links", "hand_link", "hand_text", "link_losses"]

_LAYER_OF = {"nello": "n", "plunge": "p", "splash": "S", "sevens": "v"}


def _token(act: Call | Declare | Play) -> str:
    """The token of an action, or ``~?`` for one mk5 cannot write."""
    if isinstance(act, Call):
        if act.kind is BidKind.PASS:
            return "A"
        if act.special is not None:
            return "~?"
        key = ("points" if act.kind is BidKind.POINTS else "marks", act.bid)
        return CHARS.get(key, "~?")
    if isinstance(act, Declare):
        if act.special is not None or act.trump is None:
            return "~?"
        return CHARS[("trump", act.trump.value)]
    return CHARS[("play", str(act.tile))]


def _actions(hand: Any, n: int) -> list[Call | Declare | Play]:
    if any(c.rejected for c in hand.auction) or any(p.rejected for p in hand.plays):
        raise CannotExport(f"hand {n} has rejected attempts, which an mk5 link has no token for")
    out: list[Call | Declare | Play] = []
    for c in hand.auction:
        kind = BidKind(c.call)
        out.append(Call(kind, getattr(c, "bid", None), getattr(c, "special", None)))
    d = hand.declaration
    if d is not None:
        if d.contract == "nello" and d.doubles not in (None, "own-suit"):
            raise CannotExport(
                f"hand {n}: mk5's Nel-O has the doubles a suit of their own, not {d.doubles}"
            )
        out.append(Declare(Trump(d.trump) if d.trump is not None else None, d.contract))
    for p in hand.plays:
        if p.led is not None:
            raise CannotExport(
                f"hand {n}: a play declares the suit it leads, which mk5 has no token for"
            )
        out.append(Play(TILE_BY_NAME[p.tile]))
    return out


def _deal_of(hand: Any, n: int) -> list[list[str]]:
    if hand.deal is None or any(t is None for s in SEATS for t in getattr(hand.deal, s)):
        raise CannotExport(
            f"hand {n}: an mk5 link deals every tile, and this hand's deal is not known"
        )
    return [list(getattr(hand.deal, s)) for s in SEATS]


def _same_deal(a: list[list[str]], b: list[list[str]]) -> bool:
    return all(sorted(x) == sorted(y) for x, y in zip(a, b, strict=False))


def _same_hand(hand: Hand, n: int, branch: Branch, seed: int | None) -> None:
    """Refuse hand ``n`` unless mk5, at this point of the link, deals it as the match
    has it: the same tiles, the same dealer."""
    if len(branch.hands) != n:
        raise CannotExport(
            f"hand {n}: mk5 deals no hand {n} here (the match was over, or hand {n - 1} "
            "did not end)"
        )
    if not _same_deal(_deal_of(hand, n), [list(branch.hands[-1]["deal"][s]) for s in SEATS]):
        where = f"the seed {seed}" if seed is not None else "seed 0 (the later deals of an i= link)"
        raise CannotExport(
            f"hand {n}'s deal is not the one mk5 deals from {where} and on; an mk5 link holds "
            "only its "
            "seed or its first deal — write one hand with --hand N"
        )
    if hand.dealer != branch.hands[-1]["dealer"]:
        raise CannotExport(
            f"hand {n} is dealt by {hand.dealer}; in mk5 the deal moves on each hand, so "
            f"{branch.hands[-1]['dealer']} deals it"
        )


@dataclass
class _Writing:
    """The link's actions as they are written: each action's token, played on the
    ``branch`` (so mk5 could have played it), then the steps after it."""

    branch: Branch
    humans: list[int]
    steps: dict[str, Any]  # the steps after an action, by its number, as the link had them
    tail: str | None  # the steps after the last action, as the link had them
    total: int
    tokens: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    done: int = 0
    written: int = 0  # the characters of the tokens so far

    def act(self, act: Call | Declare | Play, n: int, *, more: bool) -> None:
        """Write ``act`` of hand ``n`` (``more``: a later hand follows)."""
        branch = self.branch
        text = _token(act)
        column = 1 + self.written
        try:
            branch._act(act, Token("unknown" if text == "~?" else "act", None, column, text), 1)
        except ForeignFormatError as e:
            raise CannotExport(f"hand {n}: mk5 could not have played this: {e.message}") from None
        if text == "~?":
            self.notes.append(
                f"~? (action {self.done + 1}): hand {n}: {_words(act, branch)} — mk5 writes '~?' "
                "for it; "
                "a reader works it out from the game"
            )
        self.tokens.append(text)
        self.written += len(text)
        self.done += 1
        if self.done != self.total:
            given = self.steps.get(str(self.done))
            after = (
                given if isinstance(given, str) else canonical_steps(self.humans, branch.events[-1])
            )
        elif self.tail is not None:
            after = self.tail
        else:
            after = canonical_steps(self.humans, branch.events[-1]) if more else ""
        for ch in after:
            _feed(branch, ch, column, n)
        self.tokens.append(after)
        self.written += len(after)


def _params(
    ext: dict[str, Any],
    seed: int | None,
    first: list[list[str]],
    players: str,
    codes: str,
    dealt: int,
) -> list[tuple[str, str]]:
    """The link's parameters before its actions: the seed or the first deal (``dealt``
    hands on), the players, the dealer, the looks, the layers."""
    params: list[tuple[str, str]] = []
    if seed is not None:
        params.append(("s", base36(seed + (dealt - 1) * SEED_STEP)))
    else:
        params.append(("i", encode_hands(first)))
    if players != "haaa":
        params.append(("p", players))
    dealer = (3 + dealt - 1) % 4
    if dealer != 3:
        params.append(("d", str(dealer)))
    for key, name in (("theme", "t"), ("colors", "v"), ("section", "h")):
        if isinstance(ext.get(key), str):
            params.append((name, ext[key]))
    if codes:
        params.append(("l", codes))
    return params


def _layers_of(match: Match) -> list[str]:
    """The layer codes a link of ``match`` carries: as read (``x-mk5.layers``), or the
    special contracts the match's rules turn on."""
    from ..check import effective_rules

    found = (match.__pydantic_extra__ or {}).get(EXT)
    codes = found.get("layers") if isinstance(found, dict) else None
    if not isinstance(codes, str):
        rules = effective_rules(match)
        codes = ",".join(code for option, code in _LAYER_OF.items() if getattr(rules, option))
    return [c for c in codes.split(",") if c]


def link_losses(match: Match) -> list[str]:
    """What writing ``match`` as a link changes of its rules: a link carries mk5's rules
    with its layers only, so each option the match sets otherwise is said (the match
    is written when its every action is legal under mk5's rules too)."""
    from ..check import effective_rules

    mk5_rules, _ = link_rules(_layers_of(match))
    changed = effective_rules(match).differences(mk5_rules)
    if not changed:
        return []
    said = ", ".join(f"{k} {v[1]!s} (was {v[0]!s})" for k, v in changed.items())
    return [f"a link carries mk5's rules, so these options become mk5's: {said}"]


def write_link(match: Match) -> tuple[str, list[str]]:
    """The link of ``match``, and a note for each action written ``~?``."""

    found = (match.__pydantic_extra__ or {}).get(EXT)
    ext: dict[str, Any] = dict(found) if isinstance(found, dict) else {}
    layers = _layers_of(match)
    codes = ",".join(layers)
    mk5_rules, _ = link_rules(layers)
    if match.first_dealer != "D" or (match.hands and match.hands[0].dealer != "D"):
        raise CannotExport(
            "mk5 deals a match's first hand from its player 3 (D), and this match's first dealer "
            "is "
            f"{match.first_dealer}; write one hand of it with --hand N, which opens that hand in "
            "mk5"
        )
    if not match.hands:
        raise CannotExport("the match has no hand: an mk5 link starts with a deal")
    players = ext.get("players", "haaa")
    if not (isinstance(players, str) and len(players) == 4):
        players = "haaa"
    humans = humans_of(players)
    steps: dict[str, Any] = ext["steps"] if isinstance(ext.get("steps"), dict) else {}
    first = _deal_of(match.hands[0], 1)
    seed = ext.get("seed") if ext.get("deal") == "seed" else None
    if seed is not None and not (isinstance(seed, int) and 0 <= seed < 2**53):
        raise CannotExport(f"{EXT}'s seed is {seed!r}, not a whole number below 2^53")
    if seed is not None and not _same_deal(first, mk5_deal(seed)):
        raise CannotExport(
            f"hand 1's deal is not the one mk5 deals from the seed {seed} that {EXT} names"
        )
    branch = Branch(mk5_rules, humans, seed if seed is not None else 0, one_hand="o" in layers)
    branch.new_deal(first if seed is None else None)
    actions = [_actions(h, i + 1) for i, h in enumerate(match.hands)]
    tail = ext.get("tail") if isinstance(ext.get("tail"), str) else None
    writing = _Writing(branch, humans, steps, tail, sum(len(a) for a in actions))
    for i, hand in enumerate(match.hands):
        n = i + 1
        _same_hand(hand, n, branch, seed)
        for act in actions[i]:
            writing.act(act, n, more=n < len(match.hands))
    if len(branch.hands) != len(match.hands):
        raise CannotExport(
            f"mk5 would deal hand {len(branch.hands)} after the last action, which this match does "
            "not have (its steps after the last action say so)"
        )
    params = _params(ext, seed, first, players, codes, len(branch.hands))
    params.append(("a", "".join(writing.tokens)))
    address = ext.get("address") if isinstance(ext.get("address"), str) else ADDRESS
    query = "&".join(f"{k}={form_encode(v)}" for k, v in params)
    return f"{address}?{query}", writing.notes


def _feed(branch: Branch, ch: str, column: int, n: int) -> None:
    kind, value = TOKENS.get(ch, ("unknown", None))
    if kind not in ("trick", "score", "redeal", "agree-trick", "agree-score"):
        raise CannotExport(
            f"hand {n}: {EXT}'s steps hold {ch!r}, which is not an agreement or a step of mk5"
        )
    try:
        branch.step(0, Token(kind, value, column, ch), 1)
    except ForeignFormatError as e:
        raise CannotExport(f"hand {n}: {EXT}'s steps do not fit the game: {e.message}") from None


def _words(act: Call | Declare | Play, branch: Branch) -> str:
    hand = branch.hands[-1]
    if isinstance(act, Call):
        seat = hand["auction"][-1]["seat"]
        what = (
            f"a {act.special.capitalize()} of {act.bid} marks"
            if act.special
            else f"{act.bid} marks"
        )
        return f"{seat} bids {what}"
    seat = hand["declaration"]["seat"]
    special = act.special if isinstance(act, Declare) else None
    return f"{seat} declares {'Nel-O' if special == 'nello' else 'Sevens'}"


def _lines(link: str, notes: list[str]) -> str:
    """A link as a file holds it: its line, then a ``#`` line for each ``~?``."""
    return link + "\n" + "".join(f"# {note}\n" for note in notes)


def write_links(match: Match) -> str:
    """A file of one link: the link, a ``#`` line for each ``~?``, and the match's comments."""
    return _lines(*write_link(match)) + comments_line(match)


def hand_text(match: Match, number: int) -> str:
    """:func:`hand_link` as a file holds it (``convert --to mk5 --hand N``)."""
    return _lines(*hand_link(match, number))


def hand_link(match: Match, number: int) -> tuple[str, list[str]]:
    """Hand ``number`` (from 1) as an ``i=`` link that opens it in mk5 at its deal, with its
    actions: the seats turned so that its dealer is mk5's player 3, the match at 0–0."""
    if not 1 <= number <= len(match.hands):
        raise CannotExport(f"the match has {len(match.hands)} hands; there is no hand {number}")
    doc = match_json(match)
    hand = doc["hands"][number - 1]
    shift = (SEATS.index(hand["dealer"]) - 3) % 4

    def seat(s: str) -> str:
        return SEATS[(SEATS.index(s) - shift) % 4]

    turned: dict[str, Any] = {
        "dealer": "D",
        "auction": [c | {"seat": seat(c["seat"])} for c in hand["auction"]],
    }
    if "deal" in hand:
        turned["deal"] = {seat(s): tiles for s, tiles in hand["deal"].items()}
    if "declaration" in hand:
        turned["declaration"] = hand["declaration"] | {"seat": seat(hand["declaration"]["seat"])}
    if hand.get("plays"):
        turned["plays"] = [p | {"seat": seat(p["seat"])} for p in hand["plays"]]
    one = {
        "format": doc["format"],
        "version": doc["version"],
        "rules": doc["rules"],
        "first_dealer": "D",
        "status": "unfinished",
        "hands": [turned],
    }
    ext = dict(doc.get(EXT) or {})
    keep = {
        k: ext[k]
        for k in ("address", "players", "theme", "colors", "section", "layers")
        if k in ext
    }
    one[EXT] = keep | {"deal": "hands", "tail": ""}
    return write_link(Match.model_validate(one))
