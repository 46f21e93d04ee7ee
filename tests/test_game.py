"""The live Game (R30–R31): random matches through it are valid logs; its legal
actions are exactly what push accepts; an illegal action changes nothing, byte for
byte, and is refused with the validator's own rule id and sentence."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import pytest

from texas42_log import Game, IllegalAction
from texas42_log.engine.actions import Action, Call, Deal, Declare, Play, parse_action
from texas42_log.engine.auction import BidKind
from texas42_log.engine.live import entry_of
from texas42_log.engine.presets import PRESETS
from texas42_log.engine.tiles import TILES, Tile
from texas42_log.engine.trumps import Trump
from texas42_log.files.formats import match_json
from texas42_log.log.check import check_match
from texas42_log.log.model import Match
from texas42_log.play.generate import random_match

PRESET_NAMES = sorted(PRESETS)
#: Random matches played through Game and validated: per preset.
MATCHES_PER_PRESET = 250
#: Matches whose every moment is checked both ways (legal_actions == accepted).
BOTH_WAYS = 8


def _play_out(game: Game, rng: random.Random, stop: int | None = None) -> int:
    n = 0
    while game.to_act is not None and (stop is None or n < stop):
        game.push(rng.choice(game.legal_actions()))
        n += 1
    return n


def _errors(game: Game) -> list[Any]:
    return check_match(game.to_match()).errors


def _universe(game: Game) -> list[Action]:
    """Candidate actions of the current turn, far wider than the legal ones."""
    turn = game.to_act
    assert turn is not None
    if turn.kind == "call":
        out: list[Action] = [Call(BidKind.PASS)]
        out += [Call(BidKind.POINTS, b) for b in range(0, 46)]
        out += [Call(BidKind.MARKS, b, s) for b in range(0, 13) for s in (None, "plunge", "splash")]
        return out
    if turn.kind == "declare":
        out = [Declare(t, None, None, s) for t in Trump for s in (None, 1, 2, 3)]
        out += [Declare(Trump.SIXES, None, "low")]
        out += [
            Declare(None, "nello", d, s)
            for d in (None, "high", "low", "own-suit")
            for s in (None, 1)
        ]
        out += [Declare(None, "sevens", None, s) for s in (None, 1, 2)]
        return out
    return [Play(t, led) for t in TILES for led in (None, *range(7))]


def _accepted(game: Game, action: Action) -> bool:
    """Does push take ``action``? (Taken back at once; the caller checks the game is unchanged.)"""
    try:
        game.push(action)
    except IllegalAction as e:
        assert e.rule, action
        return False
    game.pop()
    return True


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_random_matches_through_game_are_valid_logs(preset: str) -> None:
    rng = random.Random(preset)
    complete = 0
    for k in range(MATCHES_PER_PRESET):
        game = Game(preset, seed=k, first_dealer="ABCD"[k % 4])
        _play_out(game, rng)
        assert game.is_over and game.to_act is None and game.legal_actions() == []
        report = check_match(game.to_match())
        assert report.errors == [], (preset, k, report.errors[0])
        assert report.winner == game.winner
        complete += game.to_match().status == "complete"
    assert complete == MATCHES_PER_PRESET


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_legal_actions_are_exactly_what_push_accepts(preset: str) -> None:
    rng = random.Random(f"both-ways {preset}")
    moments = 0
    for k in range(BOTH_WAYS):
        game = Game(preset, seed=10_000 + k)
        while game.to_act is not None:
            legal = game.legal_actions()
            assert len(set(legal)) == len(legal)
            universe = _universe(game)
            before = game.to_json()
            accepted = {a for a in universe if _accepted(game, a)}
            assert game.to_json() == before, "trying the actions (push, pop) changed the game"
            # Both ways: every legal action is accepted, every accepted one is listed.
            assert set(legal) - set(universe) == set(), "the universe must hold every legal action"
            assert accepted == set(legal), (preset, k, str(game.to_act))
            for a in legal:
                assert game.is_legal(a)
            moments += 1
            game.push(rng.choice(legal))
        assert _errors(game) == []
    assert moments > 25 * BOTH_WAYS


def _moment_and_illegal(
    preset: str, seed: int, rng: random.Random, most: int, wrong_kind: bool
) -> tuple[Game, Action] | None:
    """A game at a random moment and an action it must refuse (None: the match ended first)."""
    game = Game(preset, seed=seed)
    _play_out(game, rng, stop=rng.randint(0, most))
    turn = game.to_act
    if turn is None:
        return None
    legal = set(game.legal_actions())
    illegal = [a for a in _universe(game) if a not in legal]
    if wrong_kind:
        others = [Call(BidKind.PASS), Declare(Trump.SIXES), Play(TILES[0])]
        illegal += [a for a in others if a.action_kind != turn.kind]
    return game, rng.choice(illegal)


def _illegal_moments(
    preset: str, first_seed: int, rng: random.Random, games: int, steps: int, wrong_kind: bool
) -> Iterator[tuple[Game, Action]]:
    """Up to ``games`` random moments of ``preset``, each with an action illegal there."""
    for k in range(games):
        found = _moment_and_illegal(preset, first_seed + k, rng, steps, wrong_kind=wrong_kind)
        if found is not None:
            yield found


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_an_illegal_action_raises_and_changes_nothing(preset: str) -> None:
    rng = random.Random(f"illegal {preset}")
    refused = 0
    for game, action in _illegal_moments(preset, 20_000, rng, 40, 80, wrong_kind=True):
        before_json, before_match = game.to_json(), match_json(game.to_match())
        before_turn, before_history = game.to_act, game.history
        with pytest.raises(IllegalAction) as caught:
            game.push(action)
        assert caught.value.rule.startswith(("R", "variant:"))
        assert game.to_json() == before_json
        assert match_json(game.to_match()) == before_match
        assert game.to_act == before_turn and game.history == before_history
        refused += 1
        _play_out(game, rng)  # and the game goes on as if nothing happened
        assert _errors(game) == []
    assert refused >= 20


def _logged(game: Game, action: Action) -> dict[str, Any]:
    """The log with ``action`` written in as if accepted (what validate would read)."""
    doc = game.to_dict()
    turn = game.to_act
    assert turn is not None
    hand = doc["hands"][-1]
    entry = entry_of(game.rules, action, turn.seat)
    if isinstance(action, Call):
        hand["auction"].append(entry)
    elif isinstance(action, Declare):
        hand["declaration"] = entry
    else:
        hand.setdefault("plays", []).append(entry)
    return doc


@pytest.mark.parametrize("preset", ["standard", "casual", "tricksy", "plunge-f", "texas-42"])
def test_the_refusal_is_the_validators_rule_and_sentence(preset: str) -> None:
    rng = random.Random(f"sentence {preset}")
    compared = 0
    for game, action in _illegal_moments(preset, 30_000, rng, 60, 60, wrong_kind=False):
        with pytest.raises(IllegalAction) as caught:
            game.push(action)
        errors = check_match(Match.model_validate(_logged(game, action))).errors
        assert errors, f"validate accepts {action}, which the game refused"
        assert (errors[0].rule, errors[0].message) == (caught.value.rule, str(caught.value))
        compared += 1
    assert compared >= 40


def test_pop_walks_back_to_the_start_and_push_walks_forward_again() -> None:
    rng = random.Random(5)
    game = Game("casual", seed=5)
    _play_out(game, rng)
    final = game.to_json()
    steps = game.history
    fresh = Game("casual", seed=5).to_json()
    undone = []
    while True:
        try:
            undone.append(game.pop())
        except IndexError as e:
            assert "nothing to undo" in str(e)
            break
    assert undone[::-1] == steps
    assert game.to_json() == fresh
    for s in steps:
        assert game.to_act is not None and game.to_act.seat == s.seat
        game.push(s.action)
    assert game.to_json() == final


def test_from_match_resumes_any_log_and_writes_it_back_unchanged() -> None:
    for seed in range(30):
        preset = PRESET_NAMES[seed % len(PRESET_NAMES)]
        doc = random_match(
            seed, rules=PRESETS[preset], preset=preset, max_hands=None if seed % 2 else 3
        )
        match = Match.model_validate(doc)
        game = Game.from_match(match)
        assert match_json(game.to_match()) == match_json(match)
        # Cut anywhere: the game resumes where the log stops, and plays on to a valid end.
        cut = Game.from_match(match)
        for _ in range(random.Random(seed).randint(0, 30)):
            try:
                cut.pop()
            except IndexError:
                break
        resumed = Game.from_match(cut.to_match(), seed=seed)
        assert resumed.to_json() == cut.to_json() or resumed.to_act is not None
        _play_out(resumed, random.Random(seed))
        assert _errors(resumed) == []


def test_from_match_refuses_an_invalid_log() -> None:
    doc = random_match(3)
    doc["hands"][0]["plays"][1]["tile"], doc["hands"][0]["plays"][2]["tile"] = (
        doc["hands"][0]["plays"][2]["tile"],
        doc["hands"][0]["plays"][1]["tile"],
    )
    errors = check_match(Match.model_validate(doc)).errors
    assert errors
    with pytest.raises(IllegalAction) as caught:
        Game.from_match(Match.model_validate(doc))
    assert caught.value.rule == errors[0].rule
    assert errors[0].pointer in str(caught.value)


def test_entered_deals_spectator_records_and_their_checks() -> None:
    game = Game("standard", first_dealer="B")
    assert game.to_act is not None and (game.to_act.kind, game.to_act.seat) == ("deal", "B")
    assert game.legal_actions() == []
    with pytest.raises(IllegalAction) as e:
        game.push("pass")
    assert e.value.rule == "R3"
    tiles = [str(t) for t in TILES]
    with pytest.raises(IllegalAction) as e:
        game.deal({"A": tiles[:7], "B": tiles[7:14], "C": tiles[14:21], "D": tiles[20:27]})
    assert e.value.rule == "R2" and f"{tiles[20]} is dealt twice, to C and D" in str(e.value)
    with pytest.raises(IllegalAction) as e:
        game.deal({"A": tiles[:6], "B": tiles[7:14], "C": tiles[14:21], "D": tiles[21:28]})
    assert e.value.rule == "R3"
    assert game.to_json() == Game("standard", first_dealer="B").to_json()
    # A spectator knows nothing of the deal: every tile not seen played is possible.
    game.deal(None)
    assert game.to_act is not None and game.to_act.kind == "call"
    for text in ("30", "pass", "pass", "pass", "trump 6", "6-6"):
        game.push(text)
    plays = {str(a) for a in game.legal_actions()}
    assert "[6|6]" not in plays and len(plays) == 27
    assert _errors(game) == []
    step = game.pop()
    assert str(step.action) == "[6|6]"


def test_a_partly_known_deal_refuses_a_play_that_proves_an_earlier_renege() -> None:
    # B's tiles are unknown. Trick 1: A leads [6|6] (sixes are trumps), B plays
    # [0|1]. Later B cannot play a six: it would prove B held one in trick 1 (R16).
    game = Game("standard", first_dealer="D")
    known = {
        "A": ["6-6", "5-5", "4-4", "3-3", "2-2", "1-1", "0-0"],
        "B": [None] * 7,
        "C": ["0-6", "1-6", "2-6", "0-5", "1-5", "2-5", "3-5"],
        "D": [None] * 7,
    }
    game.deal(known)
    for text in ("30", "pass", "pass", "pass", "trump 6", "6-6", "0-1"):
        game.push(text)
    assert (
        "[3|6]" not in {str(a) for a in game.legal_actions() if isinstance(a, Play)}
        or game.to_act is None
    )
    game.push("2-6")  # C
    game.push("0-2")  # D
    # A won trick 1 and leads.
    game.push("5-5")
    with pytest.raises(IllegalAction) as e:
        game.push("3-6")
    assert e.value.rule in ("R15", "R16") and "trick 1" in str(e.value)
    assert all(a != Play(Tile.parse("3-6")) for a in game.legal_actions())
    assert _errors(game) == []


def test_record_rejected_writes_the_refused_attempt_as_the_format_does() -> None:
    game = Game("standard", seed=1, record_rejected=True)
    seat = game.to_act.seat if game.to_act else "A"
    with pytest.raises(IllegalAction):
        game.push("29")
    hand = game.to_dict()["hands"][0]
    assert hand["auction"] == [{"seat": seat, "call": "points", "bid": 29, "rejected": True}]
    assert _errors(game) == []
    game.push("30")
    assert game.pop().action == Call(BidKind.POINTS, 30)
    assert game.to_dict()["hands"][0]["auction"] == [
        {"seat": seat, "call": "points", "bid": 29, "rejected": True}
    ]


def test_seat_given_refuses_acting_out_of_turn() -> None:
    game = Game("standard", seed=2)
    turn = game.to_act
    assert turn is not None
    other = "ABCD"[("ABCD".index(turn.seat) + 1) % 4]
    with pytest.raises(IllegalAction) as e:
        game.push("pass", seat=other)  # type: ignore[arg-type]
    assert e.value.rule == "R7"


def test_the_match_ends_at_its_goal_and_nothing_is_accepted_after() -> None:
    game = Game("standard", seed=9, options={"match_goal_marks": 1})
    _play_out(game, random.Random(9))
    assert game.winner is not None and game.score[game.winner] >= 1
    with pytest.raises(IllegalAction) as e:
        game.push("pass")
    assert e.value.rule == "R24"
    assert game.to_match().status == "complete" and game.to_match().result is not None


def test_bad_rules_are_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown rules preset"):
        Game("nope")
    with pytest.raises(ValueError, match="unknown rule option"):
        Game("standard", options={"colour": 1})
    with pytest.raises(ValueError, match="cannot be played"):
        Game("standard", options={"min_point_bid": 40, "max_point_bid": 35})
    with pytest.raises(ValueError, match="first dealer"):
        Game("standard", first_dealer="E")  # type: ignore[arg-type]


# -- the actions' strings ---------------------------------------------------------------


def test_every_legal_action_reads_back_from_its_canonical_string() -> None:
    rng = random.Random(11)
    seen: set[str] = set()
    for preset in PRESET_NAMES:
        game = Game(preset, seed=7)
        while game.to_act is not None:
            legal = game.legal_actions()
            for a in legal:
                assert game.parse(str(a)) == a, str(a)
                assert parse_action(str(a), expect=a.action_kind, rules=game.rules) == a
                seen.add(type(a).__name__)
            game.push(rng.choice(legal))
    assert seen == {"Call", "Declare", "Play"}


@pytest.mark.parametrize(
    ("text", "expect", "action"),
    [
        ("pass", None, Call(BidKind.PASS)),
        ("P", "call", Call(BidKind.PASS)),
        ("31", None, Call(BidKind.POINTS, 31)),
        ("31 points", "call", Call(BidKind.POINTS, 31)),
        ("2m", None, Call(BidKind.MARKS, 2)),
        ("2 marks", "call", Call(BidKind.MARKS, 2)),
        ("4m plunge", None, Call(BidKind.MARKS, 4, "plunge")),
        ("plunge 4m", None, Call(BidKind.MARKS, 4, "plunge")),
        ("2m Splash", None, Call(BidKind.MARKS, 2, "splash")),
        ("trump 6", None, Declare(Trump.SIXES)),
        ("6", "declare", Declare(Trump.SIXES)),
        ("Sixes", None, Declare(Trump.SIXES)),
        ("trump doubles stacks 2", None, Declare(Trump.DOUBLES, stacks=2)),
        ("trumps: doubles, stacks 2", None, Declare(Trump.DOUBLES, stacks=2)),
        ("nt", "declare", Declare(Trump.NO_TRUMP)),
        ("follow-me", None, Declare(Trump.NO_TRUMP)),
        ("nello", None, Declare(None, "nello")),
        ("Nel-O doubles low", None, Declare(None, "nello", "low")),
        ("nello own-suit", None, Declare(None, "nello", "own-suit")),
        ("sevens", None, Declare(None, "sevens")),
        ("5-0", None, Play(Tile.parse("0-5"))),
        ("0-5", "play", Play(Tile.parse("0-5"))),
        ("[0|5]", None, Play(Tile.parse("0-5"))),
        ("50", "play", Play(Tile.parse("0-5"))),
        ("[ 2 | 5 ] led 2", None, Play(Tile.parse("2-5"), 2)),
        ("2-5 leads deuces", "play", Play(Tile.parse("2-5"), 2)),
    ],
)
def test_lenient_spellings(text: str, expect: Any, action: Action) -> None:
    assert parse_action(text, expect=expect) == action


def test_marks_written_in_points_read_as_marks() -> None:
    rules = PRESETS["standard"].with_options(mark_bid_units="points")
    assert parse_action("84", expect="call", rules=rules) == Call(BidKind.MARKS, 2)
    assert parse_action("41", expect="call", rules=rules) == Call(BidKind.POINTS, 41)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "bid",
        "trump 9",
        "trump",
        "7-7",
        "[0|5",
        "31 marks please",
        "nello doubles sideways",
        "stacks",
        "9" * 100_000,
        "5-0 led 9",
        "\x1b[31mpass",
        "\ud800",
        "trump 6 nello",
    ],
)
def test_what_is_no_action_is_a_clear_error(text: str) -> None:
    with pytest.raises(ValueError) as e:
        parse_action(text)
    message = str(e.value)
    assert 0 < len(message) < 300 and "\x1b" not in message and "\n" not in message


def test_actions_are_values() -> None:
    assert {Call(BidKind.PASS), Call(BidKind.PASS)} == {Call(BidKind.PASS)}
    assert repr(Play(Tile.parse("5-0"))) == "Play.parse('[0|5]')"
    assert str(Declare(None, "nello", "low")) == "nello doubles low"
    assert str(Call(BidKind.MARKS, 4, "plunge")) == "4m plunge"
    with pytest.raises(ValueError):
        Call(BidKind.POINTS, 10**100_000 if False else 10**7)
    with pytest.raises(ValueError):
        Declare(Trump.SIXES, "nello")
    with pytest.raises(ValueError):
        Play(TILES[0], 9)
    assert str(Deal.of({"A": ["5-0"] + [None] * 6})).startswith("deal A: [0|5] ? ?")


def test_copy_is_independent() -> None:
    game = Game("standard", seed=4)
    other = game.copy()
    other.push("pass")
    assert game.history == [] and len(other.history) == 1
    before = copy.deepcopy(game.to_dict())
    assert game.to_dict() == before


def _masked_deal(rng: random.Random, dealer: str, mask: float) -> dict[str, list[str | None]]:
    from texas42_log.play.generate import deal_order

    tiles = list(TILES)
    rng.shuffle(tiles)
    rows: dict[str, list[str | None]] = {s: [] for s in "ABCD"}
    for seat, t in zip(deal_order(dealer), tiles, strict=True):  # type: ignore[arg-type]
        rows[seat].append(None if rng.random() < mask else str(t))
    return rows


@pytest.mark.parametrize("preset", ["standard", "casual", "plunge-f", "tricksy"])
def test_spectator_records_with_unknown_tiles_stay_valid(preset: str) -> None:
    """Deals partly or wholly unknown: every legal action keeps the log valid, and the
    legal plays are exactly what push accepts."""
    rng = random.Random(f"spectator {preset}")
    dead_ends = 0
    for k in range(4):
        game = Game(preset, first_dealer="ABCD"[k % 4])
        moments = 0
        while game.to_act is not None and moments < 400:
            turn = game.to_act
            if turn.kind == "deal":
                game.deal(_masked_deal(rng, turn.seat, mask=(0.2, 0.5, 1.0, 0.05)[k]))
                continue
            legal = game.legal_actions()
            if not legal:
                # A dead end of a record with unknown tiles: every tile the seat can
                # still hold would prove an earlier discard a renege (R16). An earlier
                # entry was wrong; the recorder undoes it.
                assert turn.kind == "play" and any(
                    None in r for r in game.to_dict()["hands"][-1]["deal"].values()
                )
                state = game.play_state
                assert state is not None
                seen = set().union(*state.known.values()) | set(state.played)
                free = [t for t in TILES if t not in seen]
                assert free
                with pytest.raises(IllegalAction, match="shows what .* held"):
                    game.push(Play(free[0]))
                dead_ends += 1
                for _ in range(rng.randint(1, 4)):
                    game.pop()
                moments += 1
                continue
            if moments % 7 == 0 and turn.kind == "play":
                before = game.to_json()
                accepted = {a for a in _universe(game) if a.led is None and _accepted(game, a)}  # type: ignore[union-attr]
                assert accepted == {a for a in legal if a.led is None}  # type: ignore[union-attr]
                assert game.to_json() == before
            game.push(rng.choice(legal))
            moments += 1
        assert _errors(game) == [], (preset, k)


def test_the_live_view_is_the_moment_itself() -> None:
    """Game.view is the log's view at this very moment: after the auction, after the
    declaration, after play k (the seeds' "after play k") — the same as replay shows."""
    from texas42_log.views.visibility import Moment, view_for

    game = Game("standard", seed=2, first_dealer="D")
    assert game.view("A").moment == "auction"
    for text in ("30", "pass", "pass", "pass"):
        game.push(text)
    assert game.view("public").moment == "auction" and game.view("public").contract is not None
    game.push("trump 6")
    assert game.view("B").moment == "declaration"
    game.push(game.legal_actions()[0])
    game.push(game.legal_actions()[0])
    live = game.view("C")
    assert (live.moment, live.play) == ("play", 2)
    logged = view_for(game.to_match(), "C", 0, Moment.after_play(2))
    assert live == logged
    with pytest.raises(ValueError, match="R29"):
        game.view("review")
