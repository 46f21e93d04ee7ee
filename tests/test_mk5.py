"""mk5 share links (docs/conversions.md#mk5): the deal, the tokens, the five real
links against the games mk5 played, round trips, the ambiguity of ``~?``, hostile links."""

from __future__ import annotations

import json
import math
import random
import re
from pathlib import Path
from typing import Any

import pytest

from texas42_log import Match
from texas42_log.engine.presets import PRESETS
from texas42_log.engine.seats import SEATS
from texas42_log.engine.tiles import TILE_BY_NAME, Tile
from texas42_log.files.formats import read_sources, sniff, write_matches
from texas42_log.files.reader import validate_source
from texas42_log.log.foreign import ForeignFormatError
from texas42_log.log.foreign.mk5 import base36, decode_hands, encode_hands, form_encode, mk5_deal
from texas42_log.log.foreign.mk5_replay import read_links
from texas42_log.log.foreign.mk5_write import write_link
from texas42_log.log.model import match_json
from texas42_log.log.replayed import replay_match
from texas42_log.play.generate import Policy, random_match

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "fixtures" / "foreign" / "mk5"
NAMES = ["nello", "plunge", "sevens", "splash", "tournament"]


def _tile(mk5: str) -> str:
    """mk5's ``6-4`` as ours, ``[4|6]``."""
    hi, lo = mk5.split("-")
    return f"[{min(int(hi), int(lo))}|{max(int(hi), int(lo))}]"


def _read(link: str) -> dict[str, Any]:
    (pm,) = read_links(link)
    return pm.doc


def _valid(doc: dict[str, Any]) -> Match:
    from texas42_log.files.formats import Source

    result = validate_source(Source(1, 1, doc=doc))
    assert result.valid, [d.message for d in result.errors]
    assert result.match is not None
    return result.match


# -- the deal, i= and the alphabet ----------------------------------------------------


def test_the_deal_of_the_worked_example_seed_12345() -> None:
    hands = mk5_deal(12345)
    want = [
        "4-3 4-1 3-1 6-3 1-1 6-2 2-1",
        "6-0 5-3 6-6 5-4 4-2 6-5 2-2",
        "5-1 4-0 3-0 5-0 3-2 3-3 6-1",
        "5-2 1-0 5-5 0-0 6-4 4-4 2-0",
    ]
    assert hands == [[_tile(t) for t in row.split()] for row in want]


def test_a_seed_past_the_exact_range_is_dealt_as_javascripts_doubles_deal_it() -> None:
    # Player 0's hand as node computes it (the first product rounded to a double);
    # exact integer arithmetic deals another hand.
    assert mk5_deal(1739123456789)[0] == [_tile(t) for t in "6-5 2-2 3-3 6-3 6-0 6-2 3-2".split()]
    assert mk5_deal(999999999999)[0] == [_tile(t) for t in "3-2 3-3 2-2 6-2 1-0 5-5 5-3".split()]
    deck = [f"[{a}|{b}]" for a in range(7) for b in range(a, 7)]
    x = 1739123456789
    for i in range(27, 0, -1):
        x = 16807 * x % 2147483647
        j = math.floor(x / 2147483647 * (i + 1))
        deck[i], deck[j] = deck[j], deck[i]
    assert deck[:7] != mk5_deal(1739123456789)[0]


def test_explicit_hands_decode_and_encode() -> None:
    hands = decode_hands("aWco5pN2REWRa6AwfS5ZweAK", 1, 1)
    assert hands[0] == [_tile(t) for t in "3-3 6-6 6-4 5-1 1-1 5-4 5-0".split()]
    assert hands[3] == [_tile(t) for t in "6-2 2-1 4-1 1-0 3-0 6-3 6-0".split()]
    assert encode_hands(hands) == "aWco5pN2REWRa6AwfS5ZweAK"


def test_values_are_form_encoded_as_urlsearchparams_does() -> None:
    assert form_encode("CPAA~?sr") == "CPAA%7E%3Fsr"
    assert form_encode("n,p,S") == "n%2Cp%2CS"
    assert form_encode("a b;c*d-e.f_g") == "a+b%3Bc*d-e.f_g"


# -- the five real links ----------------------------------------------------------------


def _facts_of(name: str) -> tuple[dict[str, Any], Match, dict[str, Any]]:
    link = (SAMPLES / f"sample-{name}.url").read_text("utf-8").strip()
    played = json.loads((SAMPLES / f"sample-{name}.json").read_text("utf-8"))
    doc = _read(link)
    return doc, _valid(doc), played


@pytest.mark.parametrize("name", NAMES)
def test_a_sample_imports_to_the_game_mk5_played(name: str) -> None:
    doc, match, played = _facts_of(name)
    _, facts = replay_match(match)
    assert len(match.hands) == len(played["deals"]) == len(facts)
    score = {"A+C": 0, "B+D": 0}
    for hand, f, deal in zip(match.hands, facts, played["deals"], strict=True):
        assert SEATS.index(hand.dealer) == deal["dealer"]
        assert hand.deal is not None
        assert [list(getattr(hand.deal, s)) for s in SEATS] == [
            [_tile(t) for t in row] for row in deal["hands"]
        ]
        bids = []
        for seat, kind, bid, special in f.calls:
            bids.append(
                {"player": SEATS.index(seat), "type": special or kind.value}
                | ({"value": bid} if bid is not None else {})
            )
        assert bids == deal["bids"]
        contract = deal.get("contract")
        if contract is None:
            assert f.contract is None
            continue
        assert f.contract is not None
        assert SEATS.index(f.contract.bidder) == contract["bidder"]
        assert (
            SEATS.index(f.contract.declarer)
            == contract["trump_selector"]
            == contract["first_leader"]
        )
        trump = contract["trump"]
        if trump["type"] in ("nello", "sevens"):
            assert f.contract.special == trump["type"]
        else:
            assert f.trump is not None and f.contract.special in (None, "plunge", "splash")
            want = {"suit": str(trump.get("suit")), "doubles": "doubles", "no-trump": "no-trump"}[
                trump["type"]
            ]
            assert f.trump.value == want
        assert len(f.tricks) == len(deal["tricks"])
        for trick, t in zip(f.tricks, deal["tricks"], strict=True):
            assert [(SEATS.index(s), str(x)) for s, x in trick.plays] == [
                (p, _tile(x)) for p, x in t["plays"]
            ]
            assert SEATS.index(trick.leader) == t["leader"]
            assert trick.winner is not None and SEATS.index(trick.winner) == t["winner"]
            assert trick.points == t["points"]
        if "result" in deal:
            r = deal["result"]
            assert f.result is not None and f.finished
            assert [f.result.marks["A+C"], f.result.marks["B+D"]] == r["marks_awarded"]
            assert (f.result.outcome.value == "made") == r["made"]
            score = {"A+C": r["marks_after"][0], "B+D": r["marks_after"][1]}
            assert f.score == score
    assert [score["A+C"], score["B+D"]] == played["final"]["team_marks"]
    assert doc["x-mk5"]["seed"] == played["generated"]["initial_seed"]


@pytest.mark.parametrize("name", NAMES)
def test_a_sample_link_comes_back_the_same_through_json_and_the_text_notation(name: str) -> None:
    link = (SAMPLES / f"sample-{name}.url").read_text("utf-8").strip()
    match = _valid(_read(link))
    assert write_link(match)[0] == link
    text = write_matches([match], "text")
    (again,) = [validate_source(s) for s in read_sources(text, "text")]
    assert again.valid and again.match is not None
    assert write_link(again.match)[0] == link
    assert match_json(again.match) == match_json(match)


def test_a_written_file_says_where_it_wrote_a_tilde_question_mark() -> None:
    link = (SAMPLES / "sample-plunge.url").read_text("utf-8").strip()
    text = write_matches([_valid(_read(link))], "mk5")
    first, note = text.splitlines()[:2]
    assert first == link
    assert note.startswith("# ~? (action 4): hand 1: D bids a Plunge of 4 marks")
    # The notes are comments: the file reads back as the same match.
    (src,) = read_sources(text, "mk5")
    assert src.doc is not None and src.doc["hands"] == _read(link)["hands"]


def test_the_first_seed_is_recovered_from_the_current_one() -> None:
    doc = _read((SAMPLES / "sample-nello.url").read_text("utf-8"))
    assert doc["x-mk5"]["seed"] == 1851636 - 1_000_000
    assert doc["hands"][1]["dealer"] == "A" and doc["hands"][0]["dealer"] == "D"


def test_a_link_or_its_query_string_alone() -> None:
    link = (SAMPLES / "sample-tournament.url").read_text("utf-8").strip()
    query = link[link.index("?") :]
    assert _read(query)["hands"] == _read(link)["hands"] == _read(query[1:])["hands"]
    assert sniff(link) == sniff(query) == "mk5"


# -- links mk5's own replay cannot read ---------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_a_link_that_stops_anywhere(name: str) -> None:
    """Every prefix of a real link's actions (mid-auction, mid-trick, while agreeing,
    between hands) is a link mk5 could have written: it reads, and writes back the same."""
    link = (SAMPLES / f"sample-{name}.url").read_text("utf-8").strip()
    played = json.loads((SAMPLES / f"sample-{name}.json").read_text("utf-8"))
    first = played["generated"]["initial_seed"]
    head, actions = link.split("&a=")
    head = re.sub(r"(^|&)(s|d)=[^&]*", "", head.split("?", 1)[1])
    layers = f"&{head.lstrip('&')}" if head.strip("&") else ""
    for cut in range(len(actions) + 1):
        part = actions[:cut]
        if (
            part.endswith("%")
            or part.endswith("%7")
            or part.endswith("%7E")
            or part.endswith("%7E%")
            or part.endswith("%7E%3")
        ):
            continue  # inside an escape
        n = part.count("B") + part.count("4")  # none of these matches ends, so every 4 deals anew
        d = (3 + n) % 4
        text = (
            f"https://jasonyandell.github.io/mk5-main/?s={base36(first + n * 1_000_000)}"
            + (f"&d={d}" if d != 3 else "")
            + layers
            + "&a="
            + part
        )
        try:
            match = _valid(_read(text))
        except ForeignFormatError as e:
            # cut right after a '~?' whose reading only a later token settles
            assert "ways, each consistent" in e.message, (cut, e.message)
            continue
        assert sum(len(h.plays) for h in match.hands) == sum(
            1 for c in part if c in "bcdefghijklmnopqrstuvwxyz012"
        )
        assert write_link(match)[0] == text, cut


def test_human_seats_agree_in_any_order_and_the_order_is_kept() -> None:
    link = (SAMPLES / "sample-tournament.url").read_text("utf-8").strip()
    rng = random.Random(5)

    def shuffled(chars: str) -> str:
        out = list(chars)
        rng.shuffle(out)
        return "".join(out)

    head, actions = link.split("&a=")
    agreed = re.sub("53", lambda m: shuffled("5678") + "3", actions)
    agreed = re.sub("94$", shuffled("9-_.") + "4", agreed)
    text = head.replace("?s=", "?s=", 1).replace("&d=0", "&p=hhhh&d=0") + "&a=" + agreed
    match = _valid(_read(text))
    assert write_link(match)[0] == text
    # while agreeing: the link holds the agreements given so far
    partial = text[: text.rindex("3") - 2]
    cut = _read(partial.replace("?s=10oxk", "?s=f9bs").replace("&d=0", ""))
    assert cut["x-mk5"]["tail"] != ""
    # an agreement from a computer seat, or twice, is refused
    first = head.replace("s=10oxk", "s=f9bs").replace("&d=0", "")
    with pytest.raises(ForeignFormatError, match="computer seat"):
        read_links(first + "&a=AAACUloud63")
    with pytest.raises(ForeignFormatError, match="has agreed already"):
        read_links(first + "&p=hhhh&a=AAACUloud55")


def test_the_one_hand_layer_ends_the_game_after_its_hand() -> None:
    link = (SAMPLES / "sample-tournament.url").read_text("utf-8").strip()
    one = link.replace("l=t", "l=o").replace("s=10oxk", "s=f9bs").replace("&d=0", "")
    doc = _read(one)  # scored, and no other deal: the dealer is still 3
    assert (
        len(doc["hands"]) == 1 and doc["x-mk5"]["layers"] == "o" and doc["status"] == "unfinished"
    )
    with pytest.raises(
        ForeignFormatError,
        match="d= says the link was taken in deal 1, but its actions reach deal 2",
    ):
        read_links(
            link.replace("s=10oxk", "s=f9bs").replace("&d=0", "")
        )  # without o, a 4 deals anew
    with pytest.raises(ForeignFormatError, match="one-hand game is over"):
        read_links(one + "A")


def test_a_parameter_that_is_not_mk5s_is_named_as_dropped() -> None:
    link = (SAMPLES / "sample-tournament.url").read_text("utf-8").strip()
    doc = _read(link.replace("?s=", "?utm_source=chat&s="))
    assert any("utm_source" in w["text"] for w in doc["source"]["warnings"])


def test_an_explicit_hand_link_deals_its_later_hands_from_seed_zero() -> None:
    hands = mk5_deal(4242)
    i = encode_hands(hands)
    doc = _read(
        f"?i={i}&d=0&a=AAAAB"
    )  # all pass, redeal: the deal in play is the second, dealt by A
    assert doc["hands"][0]["deal"]["A"] == hands[0]
    assert doc["hands"][1]["deal"]["A"] == mk5_deal(1_000_000)[0]
    assert doc["x-mk5"]["deal"] == "hands"
    match = _valid(doc)
    assert write_link(match)[0] == f"https://jasonyandell.github.io/mk5-main/?i={i}&d=0&a=AAAAB"


def _plunge_and_splash_link() -> tuple[str, list[list[str]]]:
    """A deal where player 0 holds 4 doubles: under plunge and splash a ~? opening
    reads as a Plunge of 4, a Splash of 2 (and, were it legal, nothing else)."""
    doubles = [f"[{k}|{k}]" for k in range(7)]
    others = [t for t in (f"[{a}|{b}]" for a in range(7) for b in range(a + 1, 7))]
    hands = [doubles[:4] + others[:3], doubles[4:] + others[3:7], others[7:14], others[14:21]]
    return encode_hands(hands), hands


def test_two_readings_to_the_end_of_the_link_are_refused_naming_both() -> None:
    i, _ = _plunge_and_splash_link()
    with pytest.raises(ForeignFormatError) as e:
        read_links(f"?i={i}&l=p%2CS&a=%7E%3FAAA")
    msg = e.value.message
    assert "A bids a Plunge of 4 marks" in msg and "A bids a Splash of 2 marks" in msg
    assert "reads two ways" in msg and e.value.column == 39


def test_a_later_token_settles_which_reading_it_was() -> None:
    i, hands = _plunge_and_splash_link()
    # After a Plunge or a Splash the partner C names trumps and leads: a lead from C's
    # hand fits both; the marks differ, so the link must carry the hand to its end...
    lead = hands[2][0]
    from texas42_log.log.foreign.mk5 import play_char

    with pytest.raises(ForeignFormatError, match="reads two ways"):
        read_links(f"?i={i}&l=p%2CS&a=%7E%3FAAAS{play_char(lead)}")
    # ...whereas Nel-O and Sevens can only follow a plain mark bid, and 4 marks is no
    # opening: the one reading of '~?' after 'P' (1 mark) as a trump is Nel-O here.
    doc = _read(f"?i={i}&l=n&a=PAAA%7E%3F")
    assert doc["hands"][0]["declaration"] == {"seat": "A", "contract": "nello"}


def test_nello_and_sevens_both_on_and_the_plays_decide() -> None:
    rules = PRESETS["mk5"].with_options(nello=True, sevens=True)
    rng = random.Random(7)
    for seed in range(300):
        doc = random_match(seed, rules=rules, preset="mk5", first_dealer="D", max_hands=1)
        decl = doc["hands"][0].get("declaration") or {}
        if decl.get("contract") != "nello" or len(doc["hands"][0].get("plays", [])) < 3:
            continue
        doc["rules"]["options"] = {"nello": True, "sevens": True}
        doc["x-mk5"] = {"deal": "hands", "layers": "n,v", "tail": ""}
        match = _valid(doc)
        link, notes = write_link(match)
        assert "declares Nel-O" in notes[0]
        back = _valid(_read(link))
        assert back.hands == match.hands
        rng.random()
        return
    pytest.fail("no Nel-O hand of three plays in 300 random hands")  # pragma: no cover


# -- every layer set: random matches through links ------------------------------------------

LAYER_SETS = ["", "n", "p", "S", "v", "n,p", "p,S", "n,v", "n,p,S,v", "t"]


class _Mk5Deals(Policy):
    """Random play on mk5's deals: from the seed ``first`` and on, a million a deal."""

    def __init__(self, rng: random.Random, rules: Any, first: int) -> None:
        super().__init__(rng, rules)
        self.first = first

    def deal(self, hand_index: int, dealer: str) -> dict[str, list[Tile]]:  # type: ignore[override]
        rows = mk5_deal(self.first + hand_index * 1_000_000)
        return {s: [TILE_BY_NAME[t] for t in rows[k]] for k, s in enumerate(SEATS)}


@pytest.mark.parametrize("layers", LAYER_SETS)
def test_random_matches_through_links_are_the_same_matches(layers: str) -> None:
    """Random matches under mk5 with each layer set → link → JSON: the same match,
    wherever the link says it all; where a ~? reads two ways, the refusal names both."""
    from texas42_log.log.foreign.mk5_replay import link_rules

    rules, options = link_rules([c for c in layers.split(",") if c])
    ambiguous = same = 0
    for seed in range(24):
        rng = random.Random(seed)
        first = rng.randrange(1_000_000)
        doc = random_match(
            seed,
            rules=rules,
            preset="mk5",
            first_dealer="D",
            policy=_Mk5Deals(rng, rules, first),
            max_hands=rng.choice([1, 2, 3, None]),
        )
        doc["rules"]["options"] = dict(options)
        ext: dict[str, Any] = {"deal": "seed", "seed": first} if seed % 2 else {"deal": "hands"}
        if seed % 2 == 0 and len(doc["hands"]) > 1:
            doc["hands"] = doc["hands"][
                :1
            ]  # an i= link deals later hands from seed 0, not this one
            doc["status"] = "unfinished"
            doc.pop("result", None)
        if layers:
            ext["layers"] = layers
        last = doc["hands"][-1]
        cut = rng.randrange(len(last.get("plays", [])) + 1)
        if rng.random() < 0.4 and cut < len(
            last.get("plays", [])
        ):  # stop anywhere in the last hand
            last["plays"] = last["plays"][:cut]
            if not last["plays"]:
                del last["plays"]
            last.pop("outcome", None)
            doc["status"] = "unfinished"
            doc.pop("result", None)
        doc["x-mk5"] = ext
        original = _valid(doc)
        link, notes = write_link(original)
        try:
            back = _valid(_read(link))
        except ForeignFormatError as e:
            assert " ways, each consistent" in e.message and notes, link
            ambiguous += 1
            continue
        assert [h.model_dump(exclude={"outcome"}) for h in back.hands] == [
            h.model_dump(exclude={"outcome"}) for h in original.hands
        ], link
        assert back.status == original.status, link
        assert write_link(back)[0] == link
        same += 1
    assert same >= 18, (same, ambiguous)


def test_d_says_whether_the_last_score_ended_the_match() -> None:
    hands = mk5_deal(4242)
    i = encode_hands(hands)
    with pytest.raises(
        ForeignFormatError,
        match="d= says the link was taken in deal 1, but its actions reach deal 2",
    ):
        read_links(f"?i={i}&a=AAAAB")
    with pytest.raises(ForeignFormatError, match="d=2 is not the dealer after the 1 new deals"):
        read_links(f"?i={i}&d=2&a=AAAAB")


@pytest.mark.parametrize(
    ("link", "words"),
    [
        (f"?s={'9' * 10_000}&a=", "s= is 10,000 characters long"),
        ("?s=zzzzzzzzzzz&a=", "above 2^53"),
        ("?s=1&a=" + "A" * 100_001, "at most 100,000 characters"),
        ("?s=1&a=%Z7", "'%Z7' is not a percent-escape"),
        ("?s=1&a=A%", "is not a percent-escape"),
        ("?s=1&t=%C3%28&a=", "not UTF-8"),
        ("?s=1&t=%00&a=", "control character U+0000"),
        ("?i=AAAAAAAAAAAAAAAAAAAAAAAA&a=", "[0|0] is dealt twice"),
        ("?i=short&a=", "24 base64url characters"),
        ("?s=1&s=2&a=", "given twice"),
        ("?s=1&p=hh&a=", "p= is 4 characters"),
        ("?s=1&d=7&a=", "d= is the dealer, 0–3"),
        ("?s=1&a=A~", "a lone '~'"),
        ("?s=1&a=~A", "no game action has"),
        ("?s=1&a=!", "not an action token"),
        ("?s=1&a=3", "no trick is full"),
        ("?s=1&a=AO", "bid-42"),
        ("https://example.com/?q=1", "not an mk5 link"),
        ("?s=1&a=AAAA3", "all four passed; mk5 redeals (B)"),
    ],
)
def test_a_hostile_link_is_one_sentence_with_a_place(link: str, words: str) -> None:
    with pytest.raises(ForeignFormatError) as e:
        read_links(link)
    assert words in e.value.message
    assert e.value.line == 1 and e.value.column is not None


def test_a_saved_browser_shortcut_is_read_by_its_url_line(tmp_path: Path) -> None:
    link = (SAMPLES / "sample-plunge.url").read_text("utf-8").strip()
    text = f"[InternetShortcut]\r\nURL={link}\r\nIconIndex=0\r\n"
    assert sniff(text) == "mk5"
    (pm,) = read_links(text)
    assert pm.doc["hands"] == _read(link)["hands"]
    assert pm.positions["/hands/0/auction/3"] == (2, 4 + link.index("%7E%3F") + 1)


# -- the command line ------------------------------------------------------------------------


def test_a_link_as_the_argument_of_convert_and_back(tmp_path: Path) -> None:
    from tests.forked_cli import completed

    link = (SAMPLES / "sample-nello.url").read_text("utf-8").strip()
    out = tmp_path / "game.json"
    p = completed(["convert", link, "-o", str(out)], text=True, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert json.loads(out.read_text("utf-8"))["rules"] == {
        "preset": "mk5",
        "options": {"nello": True},
    }
    back = completed(["convert", str(out), "--to", "mk5", "-o", "-"], text=True, cwd=tmp_path)
    assert back.returncode == 0 and back.stdout.splitlines()[0] == link
    assert back.stdout.splitlines()[1].startswith("# ~? (action 5): hand 1: B declares Nel-O")
    query = link[link.index("?") :]
    piped = completed(["validate", "-"], text=True, cwd=tmp_path, stdin=(query + "\n").encode())
    assert piped.returncode == 0 and "valid (2 hands" in piped.stdout
    one = completed(
        ["convert", str(out), "--to", "mk5", "--hand", "1", "-o", "-"], text=True, cwd=tmp_path
    )
    assert one.returncode == 0 and "?i=" in one.stdout
    (pm,) = read_links(one.stdout)
    assert pm.doc["hands"][0]["plays"] == json.loads(out.read_text("utf-8"))["hands"][0]["plays"]
    usage = completed(["convert", str(out), "--hand", "1", "-o", "-"], text=True, cwd=tmp_path)
    assert usage.returncode == 2 and "goes with --to mk5" in usage.stderr


def test_a_match_mk5_could_not_have_played_is_refused_with_the_reason(tmp_path: Path) -> None:
    from tests.forked_cli import completed

    src = ROOT / "fixtures" / "valid" / "seed-worked-example.json"
    p = completed(["convert", str(src), "--to", "mk5", "-o", "-"], text=True, cwd=tmp_path)
    assert p.returncode == 1 and "cannot write mk5" in p.stderr
    assert "write one hand with --hand N" in p.stderr
