"""Random legal matches, reproducible from a seed: for tests, demos and benchmarks.

Builds format-v1 documents (plain dicts) by playing the engine's unchecked
path with random legal choices. Every choice goes through a :class:`Policy`
whose methods can be overridden, so that tests and fixtures can force a deal,
an auction, a trump or a line of play and let chance fill in the rest.
"""

from __future__ import annotations

import random
from typing import Any, Literal

from ..engine.auction import Auction, BidKind, BidSpecial, Contract, count_doubles
from ..engine.declare import declaration_choices
from ..engine.hand import PlayState
from ..engine.live import deal_order, finished_outcome
from ..engine.presets import PRESET_FIRST_DEALER, PRESETS
from ..engine.rules import STANDARD, Rules
from ..engine.seats import SEATS, TEAMS, Seat, Team, next_seat
from ..engine.tiles import TILES, Tile
from ..engine.trumps import DoublesMode, Trump
from ..log.model import FORMAT_NAME, minimal_version
from ..log.versions import LEGACY_OPTIONS

__all__ = ["Policy", "random_match", "deal_order", "finished_outcome"]


class Policy:
    """The random choices of a generated match. Override a method to force one."""

    def __init__(self, rng: random.Random, rules: Rules) -> None:
        self.rng = rng
        self.rules = rules

    def deal(self, hand_index: int, dealer: Seat) -> dict[Seat, list[Tile]]:
        tiles = list(TILES)
        self.rng.shuffle(tiles)
        hands: dict[Seat, list[Tile]] = {s: [] for s in SEATS}
        for seat, t in zip(deal_order(dealer), tiles, strict=True):
            hands[seat].append(t)
        return hands

    def call(self, hand_index: int, auction: Auction, seat: Seat) -> tuple[BidKind, int | None]:
        """A legal call: mostly passes and modest raises, now and then a mark bid."""
        # The weights are part of what a seed means: changing them changes every
        # generated match, the committed fixtures included.
        rng, r = self.rng, self.rules
        marks = [c[2] for c in auction.calls if c[1] is BidKind.MARKS]
        options: list[tuple[BidKind, int | None]] = [(BidKind.PASS, None)]
        weights = [6 if marks else 5]
        if marks:
            last = marks[-1]
            assert last is not None
            if last + r.mark_bid_raise <= r.max_mark_bid:  # R9: exactly one more, to the cap
                options.append((BidKind.MARKS, last + r.mark_bid_raise))
                weights.append(1)
        else:
            low = auction.lowest_point_bid()  # R8: above the current point bid
            if low is not None:
                options.append((BidKind.POINTS, rng.randint(low, min(low + 4, r.max_point_bid))))
                weights.append(4)
            options.append((BidKind.MARKS, rng.randint(1, r.max_opening_mark_bid)))
            weights.append(1 if len(options) == 3 else 4)
        return rng.choices(options, weights=weights)[0]

    def trump(self, hand_index: int, contract: Contract, hand: list[Tile]) -> Trump:
        return self.rng.choice(list(Trump))

    # -- rule variants ---------------------------------------------------------
    # The seed rules keep the choices above (and so every seed's meaning); the
    # variant choices below draw from the engine's own list of legal calls.

    def choose_call(
        self, hand_index: int, auction: Auction, seat: Seat
    ) -> tuple[BidKind, int | None, BidSpecial | None]:
        r = self.rules
        plain = (
            r.all_pass == "redeal"
            and r.mark_ladder == "exact-raise"
            and r.plain_mark_bids
            and not r.plunge
            and not r.splash
        )
        if plain:
            kind, bid = self.call(hand_index, auction, seat)
            return kind, bid, None
        legal = auction.legal_calls()
        weights = []
        for kind, bid, special in legal:
            if special is not None:
                weights.append(6.0)
            elif kind is BidKind.PASS:
                weights.append(5.0)
            elif kind is BidKind.POINTS:
                weights.append(4.0 / (1 + (bid or 0) - r.min_point_bid))
            else:
                weights.append(1.5 / (bid or 1))
        return self.rng.choices(legal, weights=weights)[0]

    def declare(
        self, hand_index: int, contract: Contract, hand: list[Tile]
    ) -> tuple[Literal["nello", "sevens"] | None, Trump | None, DoublesMode | None]:
        """(special contract, trump, Nel-O doubles) for the declaration: one of the
        declarations the rules allow (:func:`~texas42_log.engine.declare.declaration_choices`),
        a special contract half the time where there is one (always where a mark bid must
        be one), else a trump."""
        legal = [c for c in declaration_choices(self.rules, contract) if c.stacks in (None, 1)]
        allowed = [c.trump for c in legal if c.special is None and c.trump is not None]
        nello_modes: list[DoublesMode | None] = [c.doubles for c in legal if c.special == "nello"]
        if any(mode is not None for mode in nello_modes):  # the bidder chooses: says which
            nello_modes = [mode for mode in nello_modes if mode is not None]
        specials: list[Literal["nello", "sevens"]] = []
        if nello_modes:
            specials.append("nello")
        if any(c.special == "sevens" for c in legal):
            specials.append("sevens")
        if specials and (not allowed or self.rng.random() < 0.5):
            special = self.rng.choice(specials)
            doubles = None
            if special == "nello" and nello_modes != [None]:
                doubles = self.rng.choice(nello_modes)
            return special, None, doubles
        if len(allowed) == len(Trump) and contract.special is None:  # every trump: from the hand
            return None, self.trump(hand_index, contract, hand), None
        return None, self.rng.choice(allowed), None

    def lead(self, hand_index: int, state: PlayState, seat: Seat, t: Tile) -> int | None:
        """A declared led suit (option declared_lead), now and then, where the hand allows
        one (it is asked, :meth:`PlayState.check`)."""
        try:
            state.check(seat, t, t.low)
        except ValueError:
            return None
        return t.low if self.rng.random() < 0.3 else None

    def stacks(self, hand_index: int, contract: Contract) -> int:
        return self.rng.choice((1, 2))

    def play(self, hand_index: int, state: PlayState, seat: Seat, legal: list[Tile]) -> Tile:
        return self.rng.choice(legal)


def rules_declaration(preset: str, rules: Rules) -> dict[str, Any]:
    """The log's ``rules`` object: the preset and the options that differ from it.

    The seed rules are written as format 1.0 wrote them (its nine options spelled
    out), so such a log stays readable by a 1.0 reader."""
    if preset == "standard" and rules == STANDARD:
        return {"preset": preset, "options": {k: getattr(rules, k) for k in LEGACY_OPTIONS}}
    return {
        "preset": preset,
        "options": rules.overrides(PRESETS[preset]),
    }


def random_match(
    seed: int | None = None,
    *,
    rules: Rules = STANDARD,
    preset: str = "standard",
    first_dealer: Seat | None = None,
    policy: Policy | None = None,
    max_hands: int | None = None,
    players: dict[str, str] | None = None,
    stated_outcomes: bool = True,
) -> dict[str, Any]:
    """A random legal match as a format-v1 document.

    ``max_hands`` stops early (the document is then ``"status": "unfinished"``).
    """
    rng = random.Random(seed)
    policy = policy or Policy(rng, rules)
    # A preset whose program always deals first from one seat starts there; the seat is
    # drawn all the same, so that the rest of a seed's match is what it always was.
    dealer: Seat = first_dealer if first_dealer is not None else rng.choice(SEATS)
    if first_dealer is None and preset in PRESET_FIRST_DEALER:
        dealer = PRESET_FIRST_DEALER[preset]
    doc: dict[str, Any] = {
        "format": FORMAT_NAME,
        "version": "",
        "rules": rules_declaration(preset, rules),
    }
    if players:
        doc["players"] = players
    doc["first_dealer"] = dealer
    hands: list[dict[str, Any]] = []
    score: dict[Team, int] = {t: 0 for t in TEAMS}
    status = "complete"
    while max(score.values()) < rules.goal:
        if max_hands is not None and len(hands) >= max_hands:
            status = "unfinished"
            break
        hands.append(_random_hand(len(hands), dealer, rules, policy, score, stated_outcomes))
        dealer = next_seat(dealer)
    doc["status"] = status
    doc["hands"] = hands
    doc["version"] = minimal_version(doc)
    if status == "complete" and stated_outcomes:
        winner = max(TEAMS, key=lambda t: score[t])
        doc["result"] = {"winner": winner, "marks": dict(score)}
    return doc


def _random_hand(
    index: int,
    dealer: Seat,
    rules: Rules,
    policy: Policy,
    score: dict[Team, int],
    stated: bool,
) -> dict[str, Any]:
    dealt = policy.deal(index, dealer)
    hand: dict[str, Any] = {
        "dealer": dealer,
        "deal": {s: [str(t) for t in dealt[s]] for s in SEATS},
    }
    auction = Auction(rules, dealer, count_doubles(dealt))
    calls: list[dict[str, Any]] = []
    while not auction.done:
        seat = auction.to_call
        assert seat is not None
        kind, bid, special = policy.choose_call(index, auction, seat)
        auction.call(seat, kind, bid, special)
        call: dict[str, Any] = {"seat": seat, "call": kind.value}
        if bid is not None:
            # Seed 003: with mark_bid_units = points a mark bid is written 42, 84, …
            call["bid"] = (
                bid * 42 if kind is BidKind.MARKS and rules.mark_bid_units == "points" else bid
            )
        if special is not None:
            call["special"] = special
        calls.append(call)
    hand["auction"] = calls
    contract = auction.contract()
    if contract is None:
        if stated:
            hand["outcome"] = {
                "result": "no-contract",
                "marks": {"A+C": 0, "B+D": 0},
                "score": dict(score),
            }
        return hand
    special_declared, trump_choice, nello_doubles = policy.declare(
        index, contract, dealt[contract.declarer]
    )
    declaration: dict[str, Any] = {"seat": contract.declarer}
    if special_declared is not None:
        contract = contract.declare(special_declared)
        declaration["contract"] = special_declared
        if nello_doubles is not None:
            declaration["doubles"] = nello_doubles
        trump = Trump.NO_TRUMP
    else:
        assert trump_choice is not None
        trump = trump_choice
        declaration["trump"] = trump.value
    if contract.all_tricks and rules.all_tricks_stacks == "bidder-chooses":
        declaration["stacks"] = policy.stacks(index, contract)
    hand["declaration"] = declaration
    state = PlayState(
        rules, contract, trump, {s: set(dealt[s]) for s in SEATS}, nello_doubles=nello_doubles
    )
    plays: list[dict[str, Any]] = []
    while not state.over:
        seat = state.to_play
        assert seat is not None
        t = policy.play(index, state, seat, state.legal_tiles(seat))
        led = policy.lead(index, state, seat, t) if not state.current.plays else None
        state.play(seat, t, led)
        play: dict[str, Any] = {"seat": seat, "tile": str(t)}
        if led is not None:
            play["led"] = led
        plays.append(play)
    hand["plays"] = plays
    outcome = finished_outcome(rules, state, score)
    score.update(outcome["score"])
    if stated:
        hand["outcome"] = outcome
    return hand
