"""The bots: the protocol (a bot sees its seat's views, never the game), each bot
under every rules preset, seeded choices, the rule bot's documented rules, and
the arena's statistics."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from typing import Any

import pytest

from texas42_log import Game, Play
from texas42_log.bots import (
    BOTS,
    BotError,
    ContractSamplingBot,
    OpenSamplingBot,
    RandomBot,
    RuleBot,
    SamplingBot,
    Situation,
    bot_factory,
    play_out,
    situation,
)
from texas42_log.bots.arena import DealResult, TableResult, play_deal, report
from texas42_log.bots.rule import BID_FOR_COUNT, hand_count, suit_strength
from texas42_log.bots.stats import mcnemar_exact, mean_interval, t_quantile
from texas42_log.engine.presets import PRESETS
from texas42_log.engine.tiles import Tile
from texas42_log.engine.trumps import Trump
from texas42_log.files.validate import validate_bytes


def _tiles(*names: str) -> list[Tile]:
    return [Tile.parse(n) for n in names]


# -- the protocol --------------------------------------------------------------------


def test_a_situation_holds_only_the_seats_own_views() -> None:
    game = Game("standard", seed=3, first_dealer="D")
    for text in ("30", "pass", "pass", "pass", "trump 6"):
        game.push(text)
    now = situation(game)
    assert set(Situation.__slots__) == {
        "seat",
        "kind",
        "rules",
        "legal",
        "seen",
    }  # no game, no deal
    assert now.seat == "A" and now.kind == "play"
    assert all(v.observer == "A" for v in now.seen)
    assert set(now.view.hands) == {"A"} and now.view.hidden == {"A": 0, "B": 7, "C": 7, "D": 7}
    assert list(now.legal) == game.legal_actions()
    # one view a moment of the hand: each call, the auction's end, the declaration
    assert [(v.moment, len(v.auction)) for v in now.seen] == [
        ("call", 1),
        ("call", 2),
        ("call", 3),
        ("auction", 4),
        ("declaration", 4),
    ]


class _Cheat:
    def __init__(self, answer: Any) -> None:
        self.answer = answer

    def act(self, s: Situation) -> Any:
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        (Play.of("[6|6]"), "the bot at A answered '[6|6]', which is not a legal call now"),
        ("31", "which is not a legal call now"),
        (KeyError("oops"), "the bot at A failed to choose a call: KeyError: 'oops'"),
    ],
)
def test_an_answer_that_is_not_legal_is_refused_and_the_game_is_unchanged(
    answer: Any, said: str
) -> None:
    game = Game("standard", seed=1, first_dealer="D")
    before = game.to_json()
    bots: dict[str, Any] = {s: RandomBot(1) for s in "BCD"} | {"A": _Cheat(answer)}
    with pytest.raises(BotError, match=said.replace("[", r"\[").replace("|", r"\|")):
        play_out(game, bots)
    assert game.to_json() == before


# -- every bot, every preset ---------------------------------------------------------------------

PLAYERS = {
    "random": lambda seed: RandomBot(seed),
    "rule": lambda seed: RuleBot(seed),
    # few worlds: this checks that it plays every preset, not how well
    "sampling": lambda seed: SamplingBot(seed, worlds=2, bid_worlds=2),
    "sampling-open": lambda seed: OpenSamplingBot(seed, worlds=2, bid_worlds=2, trumps=1),
    "sampling-contract": lambda seed: ContractSamplingBot(seed, worlds=2, bid_worlds=2),
}


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("bot", list(PLAYERS))
def test_each_bot_plays_hands_of_every_preset_to_a_valid_log(bot: str, preset: str) -> None:
    hands = 4 if not bot.startswith("sampling") else 2
    for seed in range(hands):
        game = Game(preset, seed=seed, first_dealer="ABCD"[seed % 4])
        # the bot at A and C, random at B and D (random bids every special the rules allow)
        bots = {s: PLAYERS[bot](seed) if s in "AC" else RandomBot(seed + 10) for s in "ABCD"}
        play_out(game, bots, hands=3)
        doc = game.to_dict(hands=3)
        result = validate_bytes(json.dumps(doc).encode())
        assert result.report is not None and not result.report.errors, result.diagnostics
        assert doc["hands"] and all("outcome" in h for h in doc["hands"])


class _Special:
    """Bids the special contract ``name`` whenever the rules allow it (for Nel-O and
    Sevens, a mark bid, and then declares it when it may)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def act(self, s: Situation) -> Any:
        from texas42_log import Call, Declare

        if s.kind == "call":
            calls = [a for a in s.legal if isinstance(a, Call)]
            special = [c for c in calls if c.special == self.name]
            marks = [c for c in calls if c.kind.value == "marks"]
            return (special or marks or calls)[0]
        if s.kind == "declare":
            declares = [a for a in s.legal if isinstance(a, Declare)]
            return next((d for d in declares if d.special == self.name), declares[0])
        return s.legal[0]


@pytest.mark.parametrize(
    ("preset", "contract"),
    [("casual", "plunge"), ("casual", "nello"), ("tricksy", "sevens"), ("plunge-c", "splash")],
)
def test_the_sampling_bot_plays_special_contracts(preset: str, contract: str) -> None:
    """B bids (or declares) the special contract; the sampling bot, at the other
    three seats, declares it for its partner or defends against it, to a valid log."""
    for seed in range(300):
        game = Game(preset, seed=seed, first_dealer="A")
        if contract in ("plunge", "splash") and not any(
            getattr(a, "special", None) == contract for a in situation(game).legal
        ):
            continue  # B, the first to call, cannot bid it with these tiles
        bots: dict[str, Any] = {s: SamplingBot(seed, worlds=2, bid_worlds=2) for s in "ACD"}
        bots["B"] = _Special(contract)
        while game.to_act is not None and game.to_act.hand == 1 and game.to_act.kind == "call":
            from texas42_log.bots import play_turn

            play_turn(game, bots)
        hand = game.to_dict(hands=1)["hands"][0]
        said = {c.get("special") for c in hand["auction"]}
        if contract in ("plunge", "splash") and contract not in said:
            continue
        play_out(game, bots, hands=1)
        hand = game.to_dict(hands=1)["hands"][0]
        declared = hand.get("declaration", {}).get("contract")
        if contract in ("nello", "sevens") and declared != contract:
            continue
        assert "plays" in hand and hand["outcome"]["result"] in ("made", "set")
        result = validate_bytes(json.dumps(game.to_dict(hands=1)).encode())
        assert result.report is not None and not result.report.errors
        return
    pytest.fail(f"no deal in 300 let B bid {contract}")


@pytest.mark.parametrize("name", list(BOTS))
def test_the_same_seed_gives_the_same_choices(name: str) -> None:
    def log(seed: int) -> str:
        game = Game("casual", seed=11, first_dealer="B")
        options = {"worlds": 3, "bid_worlds": 2} if name.startswith("sampling") else {}
        play_out(
            game, {s: BOTS[name](seed=seed + i, **options) for i, s in enumerate("ABCD")}, hands=1
        )
        return json.dumps(game.to_dict(hands=1))

    assert log(5) == log(5)
    if name == "random":
        assert log(5) != log(6)


# -- the rule bot's documented rules -------------------------------------------------------------


def test_the_hand_count() -> None:
    hand = _tiles("6-6", "6-5", "6-4", "6-1", "5-5", "0-0", "2-3")
    assert (
        suit_strength(hand, Trump.SIXES) == 4 + 1 + 2
    )  # four sixes with the double, two other doubles
    assert suit_strength(hand, Trump.FIVES) == 2 + 1 + 2
    assert suit_strength(hand, Trump.DOUBLES) == 0  # three doubles: not doubles
    assert hand_count(hand, [Trump(str(n)) for n in range(7)]) == (7, Trump.SIXES)
    assert BID_FOR_COUNT[7] == 32


def _auction_game(calls: list[str], dealer: str = "D") -> Game:
    game = Game("standard", seed=9, first_dealer=dealer)  # type: ignore[arg-type]
    for c in calls:
        game.push(c)
    return game


def test_the_rule_bot_bids_its_count_and_passes_over_its_partner() -> None:
    game = _auction_game([])
    seat = game.to_act.seat  # type: ignore[union-attr]
    tiles = [Tile.parse(x) for x in situation(game).view.hands[seat]]
    count, _ = hand_count(tiles, [Trump(str(n)) for n in range(7)] + [Trump.DOUBLES])
    call = RuleBot().act(situation(game))
    expected = "pass" if count < 6 else str(BID_FOR_COUNT[min(count, 9)]) if count < 9 else "42"
    assert str(call) == expected
    # over a partner's bid: pass
    game = _auction_game(["41", "pass"])
    assert str(RuleBot().act(situation(game))) == "pass"


def test_the_rule_bot_smears_count_to_a_winning_partner_when_last() -> None:
    """Last to play, its partner winning the trick: it gives the tile with the most count."""
    from texas42_log.bots.rule import _current_winner, play_state
    from texas42_log.engine.tiles import count_value

    for seed in range(200):
        game = Game("standard", seed=seed, first_dealer="D")
        play_out(game, {s: RuleBot() for s in "ABCD"}, hands=1)
        steps = game.history
        for k, step in enumerate(steps):
            if not isinstance(step.action, Play):
                continue
            replay = Game("standard", seed=seed, first_dealer="D")
            for earlier in steps[:k]:
                replay.push(earlier.action)
            now = situation(replay)
            state = play_state(now)
            if len(state.current.plays) != 3:
                continue
            partner = "ABCD"[("ABCD".index(now.seat) + 2) % 4]
            legal = [a for a in now.legal if isinstance(a, Play)]
            if (
                state.current.plays[_current_winner(state)][0] != partner
                or len({count_value(a.tile) for a in legal}) < 2
            ):
                continue
            chosen = RuleBot().act(now)
            assert chosen == step.action  # what the match recorded
            assert isinstance(chosen, Play) and count_value(chosen.tile) == max(
                count_value(a.tile) for a in legal
            )
            return
    pytest.fail("no trick with a winning partner and count to give was found")


# -- the statistics ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("df", "table"),
    [(1, 12.706), (2, 4.303), (4, 2.776), (5, 2.571), (10, 2.228), (30, 2.042), (120, 1.980)],
)
def test_t_quantiles_agree_with_the_tables(df: int, table: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(table, abs=0.001)


def test_a_mean_interval() -> None:
    i = mean_interval([1.0, 2.0, 3.0, 4.0, 5.0])
    half = 2.776 * math.sqrt(2.5 / 5)
    assert (
        i.mean == 3.0
        and i.low == pytest.approx(3 - half, abs=1e-3)
        and i.high == pytest.approx(3 + half, abs=1e-3)
    )
    assert mean_interval([2.0]).low == 2.0
    with pytest.raises(ValueError):
        mean_interval([])


def test_mcnemar_exact() -> None:
    assert mcnemar_exact(10, 2) == pytest.approx(2 * (1 + 12 + 66) / 4096)
    assert mcnemar_exact(2, 10) == mcnemar_exact(10, 2)
    assert mcnemar_exact(5, 5) == 1.0 and mcnemar_exact(0, 0) == 1.0
    assert mcnemar_exact(0, 6) == pytest.approx(2 / 64)
    assert 0 < mcnemar_exact(600, 400) < 1e-9


def _table(
    table: int, ac: str, result: str, marks: dict[str, int], bidder: str | None
) -> TableResult:
    return TableResult(table, ac, result, marks, bidder, {})  # type: ignore[arg-type]


def test_the_report_counts_by_hand() -> None:
    deals = [
        # X (A+C at table 1) makes 1 mark, and as B+D at table 2 sets Y: X won both tables
        DealResult(
            0,
            (
                _table(1, "X", "made", {"A+C": 1, "B+D": 0}, "X"),
                _table(2, "Y", "set", {"A+C": 0, "B+D": 1}, "Y"),
            ),
        ),
        # both make with the A+C tiles: a split
        DealResult(
            1,
            (
                _table(1, "X", "made", {"A+C": 2, "B+D": 0}, "X"),
                _table(2, "Y", "made", {"A+C": 1, "B+D": 0}, "Y"),
            ),
        ),
        # all pass at both tables
        DealResult(
            2,
            (
                _table(1, "X", "no-contract", {"A+C": 0, "B+D": 0}, None),
                _table(2, "Y", "no-contract", {"A+C": 0, "B+D": 0}, None),
            ),
        ),
    ]
    r = report(deals, ("x", "y"))
    assert [d.marks("X") for d in deals] == [1.0, 1.0, 0.0] and [d.marks("Y") for d in deals] == [
        0.0,
        0.5,
        0.0,
    ]
    assert r.marks[0].mean == pytest.approx(2 / 3) and r.marks[1].mean == pytest.approx(0.5 / 3)
    assert r.difference.mean == pytest.approx(0.5)
    assert r.swept == (1, 0) and r.p_value == 1.0
    assert (r.contracts[0].bid, r.contracts[0].made, r.contracts[1].bid, r.contracts[1].set) == (
        2,
        2,
        2,
        1,
    )
    assert r.as_dict()["mcnemar"] == {"X_won_both": 1, "Y_won_both": 0, "p_value": 1.0}


def test_a_deal_is_the_same_at_both_tables_with_the_pairs_swapped() -> None:
    deal = play_deal(3, (bot_factory("rule"), bot_factory("random")), ("rule", "random"), seed=7)
    one, two = (t.log for t in deal.tables)
    assert one["hands"][0]["deal"] == two["hands"][0]["deal"] and one["hands"][0]["dealer"] == "D"
    assert one["players"] == {"A": "rule", "B": "random", "C": "rule", "D": "random"}
    assert two["players"] == {"A": "random", "B": "rule", "C": "random", "D": "rule"}
    assert one["x-arena"] == {"deal": 4, "table": 1, "seed": 7, "A+C": "rule", "B+D": "random"}
    for log in (one, two):
        result = validate_bytes(json.dumps(log).encode())
        assert result.report is not None and not result.report.errors


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("nobody", "no bot is called 'nobody'"),
        ("rule,worlds=3", "does not take these settings"),
        ("sampling,worlds=x", "takes a whole number"),
        ("sampling,worlds=0", "at least one world"),
        ("sampling,=3", "a bot's setting is name=number"),
    ],
)
def test_a_bad_bot_name_is_one_sentence(spec: str, said: str) -> None:
    with pytest.raises(ValueError, match=said):
        bot_factory(spec)


def test_the_open_sampling_bot_bids_as_if_it_weighed_every_bid_by_exact_values() -> None:
    """``sampling-open`` asks made-or-not of three bids only (the lowest point bid, the
    lowest and the highest mark bid); the choice must be the one the exact value of every
    world gives when every legal bid is weighed — on a hundred real auction moments (fifty under
    each of two presets)."""
    from texas42_log.bots.rule import bid_to_beat, lowest_bid
    from texas42_log.engine.actions import Call
    from texas42_log.engine.auction import BidKind, Contract
    from texas42_log.engine.values import makeable

    checked = 0
    for preset in ("standard", "texas-42"):
        for seed in range(60):
            game = Game(preset, seed=seed)
            bot = OpenSamplingBot(seed)
            while game.play_state is None and checked < 50 * (1 + (preset == "texas-42")):
                s = situation(game)
                calls = [a for a in s.legal if isinstance(a, Call)]
                bids = [c for c in calls if c.kind is not BidKind.PASS and c.special is None]
                passing = [c for c in calls if c.kind is BidKind.PASS]
                high, _ = bid_to_beat(s)
                if s.kind != "call" or len(s.legal) == 1:
                    break
                chosen = bot.act(s)
                if bids and not (passing and high == partner_of(s.seat)):
                    values = OpenSamplingBot(seed)._values(s, bot._candidates(s, _allowed(s)))
                    best = None
                    for call in bids:
                        assert call.bid is not None
                        contract = Contract(s.seat, call.kind, call.bid)
                        chance = max(
                            sum(makeable(contract, v, total=42) for v in vs) / len(vs)
                            for vs in values.values()
                        )
                        key = (
                            contract.marks * (2 * chance - 1),
                            -(call.bid * 42 if call.kind is BidKind.MARKS else call.bid),
                            call,
                        )
                        if best is None or key[:2] > best[:2]:
                            best = key
                    assert best is not None
                    expected = passing[0] if passing and best[0] <= 0 else best[2]
                    assert chosen == expected, (preset, seed, s.seat)
                    checked += 1
                elif not bids:
                    assert chosen == (passing[0] if passing else lowest_bid(calls))
                game.push(chosen)
    assert checked == 100


def _auction_choices(make: Any) -> Iterator[tuple[Situation, Any, Any]]:
    """Each choice a sampling bot made at a call or declaration with a choice to make, over
    twelve games, with the seat's own auction worlds (8, the bot's seed)."""
    from texas42_log.analysis.bidding import seat_worlds
    from texas42_log.bots.rule import own_tiles

    for seed in range(12):
        game = Game("standard", seed=seed)
        bot = make(seed)
        while game.play_state is None:
            s = situation(game)
            chosen = bot.act(s)
            if len(s.legal) > 1:
                tiles = frozenset(own_tiles(s))
                yield (
                    s,
                    chosen,
                    seat_worlds(s.rules, s.seat, s.view.hand, tiles, worlds=8, seed=seed),
                )
            game.push(chosen)


def _declares_its_best(s: Situation, chosen: Any, sw: Any) -> None:
    """The declaration of the best chance in its table, recomputed from the table itself."""
    from texas42_log.analysis.bidding import Bid, row_of
    from texas42_log.engine.actions import Declare
    from texas42_log.engine.auction import BidKind, Contract

    c = s.view.contract
    assert c is not None
    contract = Contract(c.bidder, BidKind(c.kind), c.bid)
    best = sw.declaration_table(contract).best_row(Bid.of(contract))
    assert isinstance(chosen, Declare)
    assert row_of(chosen.trump, chosen.special, chosen.doubles) == best


def test_the_sampling_bot_bids_its_tables_best_worth_and_declares_its_best_trump() -> None:
    """``sampling``: the bid of the highest worth, marks × (2 × chance as played − 1), from
    its fair makeable table (a pass when none is worth more than 0, and over its partner's
    bid), and the declaration of the best chance — recomputed here from the table itself:
    each row's share of worlds made through its kind's curve, the best row's."""
    from texas42_log.analysis.bidding import Bid, SeatTable
    from texas42_log.analysis.calibration import as_played, kind_of
    from texas42_log.bots.rule import bid_to_beat
    from texas42_log.engine.actions import Call
    from texas42_log.engine.auction import BidKind

    calls = declares = 0
    for s, chosen, sw in _auction_choices(lambda seed: SamplingBot(seed, bid_worlds=8)):
        if s.kind != "call":
            _declares_its_best(s, chosen, sw)
            declares += 1
            continue
        bids = [a for a in s.legal if isinstance(a, Call) and a.bid is not None]
        high, _ = bid_to_beat(s)
        table = sw.table([Bid(c.kind, c.bid, c.special) for c in bids])

        def played(bid: Bid, table: SeatTable = table) -> float:
            rows = table.made[bid]
            return max(
                round(as_played(sum(v) / len(v), kind_of(bid, r)), 4) for r, v in rows.items()
            )

        worth = {
            c: Bid(c.kind, c.bid).contract(s.seat).marks * (2 * played(Bid(c.kind, c.bid)) - 1)
            for c in bids
        }
        top = max(bids, key=lambda c: (worth[c], -Bid(c.kind, c.bid).size))
        if high == partner_of(s.seat) or worth[top] <= 0:
            assert chosen.kind is BidKind.PASS
        else:
            assert chosen == top
        calls += 1
    assert calls >= 30 and declares >= 8


def test_the_contract_sampling_bot_bids_the_call_of_the_highest_worth() -> None:
    """``sampling-contract``, in a game of marks: the call of the highest worth by the
    contract its auction ends in (texas42_log.analysis.continuation, over its own table's
    deals; the worth itself is recounted in tests/test_contract_worth.py) — so it overbids
    its partner only when that is worth more than partner's contract — and the declaration
    of the best chance."""
    from texas42_log.analysis.bidding import Bid
    from texas42_log.analysis.continuation import contract_worth
    from texas42_log.bots.rule import bid_to_beat
    from texas42_log.engine.actions import Call
    from texas42_log.engine.auction import BidKind

    calls = declares = 0
    for s, chosen, sw in _auction_choices(lambda seed: ContractSamplingBot(seed, bid_worlds=8)):
        if s.kind != "call":
            _declares_its_best(s, chosen, sw)
            declares += 1
            continue
        bids = [a for a in s.legal if isinstance(a, Call) and a.bid is not None]
        passing = any(isinstance(a, Call) and a.bid is None for a in s.legal)
        high, _ = bid_to_beat(s)
        table = sw.table([Bid(c.kind, c.bid, c.special) for c in bids])
        heard = [(a, BidKind(b), c, d) for a, b, c, d in s.view.auction]
        worth = contract_worth(sw, table, s.view.dealer, heard, None, passing)
        best = worth.best.call
        assert isinstance(chosen, Call)
        if best is None:
            assert chosen.kind is BidKind.PASS
        else:
            assert (chosen.kind, chosen.bid) == (best.kind, best.bid)
        if high == partner_of(s.seat) and chosen.kind is not BidKind.PASS:
            pass_worth = next(o for o in worth.options if o.call is None).expected
            assert worth.best.expected > pass_worth
        calls += 1
    assert calls >= 30 and declares >= 8


def partner_of(seat: str) -> str:
    return {"A": "C", "B": "D", "C": "A", "D": "B"}[seat]


def _allowed(s: Situation) -> list[Trump]:
    from texas42_log.analysis.open_hand import allowed_trumps

    return allowed_trumps(s.rules)
