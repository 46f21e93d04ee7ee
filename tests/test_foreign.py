"""The three foreign formats of docs/conversions.md: every sample imports and validates under
the rules it declares, exports re-import identically, the engine agrees with what
each program recorded, and what a format cannot hold is refused with a reason."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from texas42_log.engine.presets import PRESETS
from texas42_log.files.formats import read_sources, sniff, write_matches
from texas42_log.files.reader import validate_source
from texas42_log.log.foreign import CannotExport, ForeignFormatError
from texas42_log.log.foreign.plunge import read_codes
from texas42_log.log.foreign.receipt import read_receipt
from texas42_log.log.foreign.tricksy import read_bundles, rules_from_config
from texas42_log.log.model import Match
from texas42_log.log.replayed import replay_match

ROOT = Path(__file__).resolve().parent.parent
FOREIGN = ROOT / "fixtures" / "foreign"
VALID = ROOT / "fixtures" / "valid"

SAMPLES = {
    "texas-42-receipt": sorted((FOREIGN / "texas-42").glob("*.receipt")),
    "plunge-code": sorted((FOREIGN / "plunge").glob("*.plunge")),
    "plunge-hand-v2": sorted((FOREIGN / "plunge").glob("*.plunge.json")),
    "tricksy": sorted((FOREIGN / "tricksy").glob("*.tricksy.json")),
}
CASES = [(fmt, p) for fmt, paths in SAMPLES.items() for p in paths]
PRESET = {
    "verify_player": "texas-42",
    "doubles_trump": "texas-42",
    "no_trump": "texas-42",
    "P1_tournament_point_bids_early_end": "plunge-t",
    "P2_plunge_nello_preset_forced_bid_nello": "plunge-l",
    "P3_casual_plunge_partner_declares_and_leads": "plunge-c",
    "P4_tournament_all_pass_thrown_in": "plunge-t",
    "P5_partial_mid_trick_2": "plunge-t",
    "P1_record": "plunge-t",
    "T1_standard_then_redeal": "tricksy",
    "T2_forced_dealer_nello": "tricksy",
    "T3_plunge_declined_then_accepted_doubles_trump": "tricksy",
}


def _import(fmt: str, path: Path) -> Match:
    (src,) = read_sources(path.read_text("utf-8"), fmt)
    result = validate_source(src)
    assert result.valid, [d.message for d in result.errors]
    assert result.match is not None
    return result.match


def test_at_least_three_samples_per_program() -> None:
    assert len(SAMPLES["texas-42-receipt"]) >= 3
    assert len(SAMPLES["plunge-code"]) + len(SAMPLES["plunge-hand-v2"]) >= 3
    assert len(SAMPLES["tricksy"]) >= 3


@pytest.mark.parametrize(("fmt", "path"), CASES, ids=lambda x: x if isinstance(x, str) else x.name)
def test_sample_imports_validates_under_its_rules_and_says_what_was_not_recorded(
    fmt: str, path: Path
) -> None:
    match = _import(fmt, path)
    stem = path.name.split(".")[0]
    assert match.rules.preset == PRESET[stem]
    assert match.source is not None and match.source.format == fmt
    (src,) = read_sources(path.read_text("utf-8"), fmt)
    warnings = [d for d in validate_source(src).diagnostics if d.severity == "warning"]
    assert all(d.rule == "import" for d in warnings)
    # a receipt has no auction, a code or record no match score; a tricksy log records
    # every move and the house rules (its warnings would be for a dealer it misstates)
    assert bool(warnings) == (fmt != "tricksy")
    if fmt == "texas-42-receipt":
        assert any("assumed" in d.message for d in warnings)


@pytest.mark.parametrize(("fmt", "path"), CASES, ids=lambda x: x if isinstance(x, str) else x.name)
def test_export_reimports_identically(fmt: str, path: Path) -> None:
    match = _import(fmt, path)
    text = write_matches([match], fmt)
    (src,) = read_sources(text, fmt)
    again = validate_source(src).match
    assert again == match
    # and into our JSON and back
    (src,) = read_sources(write_matches([match], "json"), "json")
    assert validate_source(src).match == match


@pytest.mark.parametrize(
    "path", SAMPLES["texas-42-receipt"] + SAMPLES["plunge-code"], ids=lambda p: p.name
)
def test_text_formats_are_written_back_byte_for_byte(path: Path) -> None:
    fmt = "texas-42-receipt" if path.suffix == ".receipt" else "plunge-code"
    assert write_matches([_import(fmt, path)], fmt) == path.read_text("utf-8")


@pytest.mark.parametrize(
    "path", SAMPLES["tricksy"] + SAMPLES["plunge-hand-v2"], ids=lambda p: p.name
)
def test_json_formats_are_written_back_value_for_value(path: Path) -> None:
    fmt = "tricksy" if "tricksy" in path.name else "plunge-hand-v2"
    written = json.loads(write_matches([_import(fmt, path)], fmt))
    original = json.loads(path.read_text("utf-8"))
    assert written == original


def test_the_real_receipt_is_13_hands_won_7_6_by_team_0() -> None:
    match = _import("texas-42-receipt", FOREIGN / "texas-42" / "verify_player.receipt")
    assert len(match.hands) == 13 and match.status == "complete"
    assert match.result is not None and match.result.winner == "A+C"
    assert match.result.marks is not None and (match.result.marks.AC, match.result.marks.BD) == (
        7,
        6,
    )
    # docs/conversions.md, example 1.1: S0 shakes, S1 bids 30 and names threes; deal derived from
    # the plays
    first = match.hands[0]
    assert first.dealer == "A" and [c.call for c in first.auction] == [
        "points",
        "pass",
        "pass",
        "pass",
    ]
    assert first.deal is not None and sorted(first.deal.A) == sorted(
        ["[1|6]", "[0|5]", "[3|6]", "[0|1]", "[1|5]", "[0|2]", "[2|4]"]
    )
    assert first.declaration is not None and first.declaration.trump == "3"


def test_plunge_codes_decode_to_what_the_app_decodes() -> None:
    """The engine's trick winners, points and results equal the app's decoded state."""
    expected = json.loads((FOREIGN / "plunge" / "replay_codes.expected").read_text("utf-8"))[
        "codes"
    ]
    for case in expected:
        pm = read_codes(case["code"])
        match = Match.model_validate(pm.doc)
        _, (facts,) = replay_match(match)
        exp = case["expect"]
        seats = "ABCD"
        got = [
            [(seats.index(s), f"{t.high}{t.low}") for s, t in tr.plays]
            for tr in facts.tricks
            if tr.winner is not None
        ]
        assert got == [[(s, tile) for s, tile in t["plays"]] for t in exp["tricks"]], case["name"]
        assert [seats.index(t.winner) for t in facts.tricks if t.winner] == [
            t["winner"] for t in exp["tricks"]
        ]
        assert [t.points for t in facts.tricks if t.winner] == [t["points"] for t in exp["tricks"]]
        if exp["handResult"] is None:
            assert facts.result is None
        else:
            assert facts.result is not None
            team = "A+C" if exp["handResult"]["team"] == 0 else "B+D"
            assert facts.result.marks[team] == exp["handResult"]["marks"]
            assert (facts.result.outcome.value == "made") == exp["handResult"]["made"]
        if facts.contract is not None:
            assert seats.index(facts.contract.bidder) == exp["declarer"]


@pytest.mark.parametrize(
    ("name", "rule"),
    [
        ("R15-renege.receipt", "R15"),
        ("R15-renege.plunge", "R15"),
        ("R21-out-of-turn.tricksy.json", "R21"),
    ],
)
def test_the_validator_names_the_rule_a_source_broke(name: str, rule: str) -> None:
    path = FOREIGN / "invalid" / name
    fmt = sniff(path.read_text("utf-8"))
    assert fmt is not None
    (src,) = read_sources(path.read_text("utf-8"), fmt)
    result = validate_source(src)
    assert [d.rule for d in result.errors] == [rule]
    (error,) = result.errors
    assert error.line is not None and (error.line, error.column) != (
        1,
        1,
    )  # placed on the offending play


def test_tricksy_house_rules_become_options() -> None:
    t3 = json.loads(
        (
            FOREIGN / "tricksy" / "T3_plunge_declined_then_accepted_doubles_trump.tricksy.json"
        ).read_text()
    )
    rules = rules_from_config(t3["config"])
    assert rules.doubles == "own-suit" and rules.doubles_trump and rules.declared_lead == "always"
    match = _import(
        "tricksy",
        FOREIGN / "tricksy" / "T3_plunge_declined_then_accepted_doubles_trump.tricksy.json",
    )
    plunge = match.hands[0].auction[1]
    # the declined proposal is not a call, and is kept to be written back
    assert [c.call for c in match.hands[0].auction] == ["pass", "marks", "pass", "pass"]
    assert plunge.special == "plunge" and (plunge.__pydantic_extra__ or {})["x-tricksy"] == {
        "declined": [{"contract": "plunge", "marks": 4}]
    }
    assert (
        match.hands[0].declaration is not None and match.hands[0].declaration.seat == "A"
    )  # the partner
    assert any(p.led == 5 for p in match.hands[0].plays)


def test_tricksy_nello_needs_no_declaration_event() -> None:
    match = _import("tricksy", FOREIGN / "tricksy" / "T2_forced_dealer_nello.tricksy.json")
    decl = match.hands[0].declaration
    assert decl is not None and decl.contract == "nello" and decl.seat == "A"
    assert len([p for p in match.hands[0].plays]) == 21


def _valid(name: str) -> Match:
    return Match.model_validate_json((VALID / name).read_bytes())


@pytest.mark.parametrize(
    ("fixture", "fmt", "words"),
    [
        ("point-bids-early-end.json", "texas-42-receipt", "texas-42 rules"),
        ("variant-texas-42-all-seven-tricks.json", "plunge-code", "presets t, f, l, c"),
        ("seed-worked-example.json", "tricksy", "house rules cannot say"),
        ("variant-texas-42-all-seven-tricks.json", "texas-42-receipt", "played to the last tile"),
        ("seed-worked-example.json", "json", ""),
    ],
)
def test_what_a_format_cannot_hold_is_refused_with_a_reason(
    fixture: str, fmt: str, words: str
) -> None:
    match = _valid(fixture)
    if not words:
        with pytest.raises(CannotExport, match="holds one match"):
            write_matches([match, match], fmt)
        return
    with pytest.raises(CannotExport) as e:
        write_matches([match], fmt)
    assert words in str(e.value)


def test_our_games_under_a_foreign_preset_export_and_reimport() -> None:
    """A match of ours played under plunge-l's rules becomes codes, and comes back the same
    except for what codes do not hold (players, annotations, the match status)."""
    match = _valid("variant-plunge-l-forced-bid-nello.json")
    assert match.rules.preset == "plunge-l"
    codes = write_matches([match], "plunge-code")
    assert [line[:2] for line in codes.splitlines()] == ["v1"] * len(match.hands) + [
        "# "
    ]  # and its comment
    (src,) = read_sources(codes, "plunge-code")
    back = validate_source(src)
    assert back.valid and back.match is not None
    assert [h.auction for h in back.match.hands] == [h.auction for h in match.hands]
    assert [[(p.seat, p.tile) for p in h.plays] for h in back.match.hands] == [
        [(p.seat, p.tile) for p in h.plays] for h in match.hands
    ]


def test_share_link_lines_and_remarks_in_a_file_of_codes() -> None:
    code = (FOREIGN / "plunge" / "P4_tournament_all_pass_thrown_in.plunge").read_text().strip()
    pm = read_codes(f"# hands from the club's links\n#r={code}\n")
    assert len(pm.doc["hands"]) == 1 and pm.doc["rules"]["preset"] == "plunge-t"


@pytest.mark.parametrize(
    ("reader", "text", "words"),
    [
        (read_codes, "v2t3555", "starts with v1"),
        (read_codes, "v1x" + "0" * 60, "preset letter"),
        (
            read_codes,
            "v1t355535041301110444342403122206665646362522161605451333200.P3031PX",
            "declaration",
        ),
        (
            read_codes,
            "v1t355535041301110444342403122206665646362522161605451333255.P",
            "dealt twice",
        ),
        (
            read_receipt,
            "rob player self-play verification: PASS\nhand 0: shaker S0, bidder S9, bid P(30), "
            "declaration P3\n",
            "seat",
        ),
        (read_receipt, "hand 0: shaker S0, bidder S1, bid M(2), declaration P3\n", "P(n)"),
        (read_bundles, '{"seats": {}, "config": {}, "events": []}', "seats"),
    ],
)
def test_malformed_foreign_input_is_a_one_sentence_error(
    reader: object, text: str, words: str
) -> None:
    with pytest.raises(ForeignFormatError) as e:
        reader(text)  # type: ignore[operator]
    assert words in e.value.message and "\n" not in str(e.value)


def test_every_preset_a_format_names_exists() -> None:
    for preset in set(PRESET.values()):
        assert preset in PRESETS


def _game(match: Match) -> list[tuple[object, ...]]:
    """What a game is, whatever the format: dealer, deal, calls, declaration, plays."""
    out: list[tuple[object, ...]] = []
    for h in match.hands:
        deal = None if h.deal is None else tuple(tuple(getattr(h.deal, s)) for s in "ABCD")
        calls = tuple(
            (c.seat, c.call, getattr(c, "bid", None), getattr(c, "special", None))
            for c in h.auction
        )
        d = h.declaration
        decl = None if d is None else (d.seat, d.trump, d.contract, d.doubles)
        out.append((h.dealer, deal, calls, decl, tuple((p.seat, p.tile, p.led) for p in h.plays)))
    return out


@pytest.mark.parametrize(
    ("preset", "fmt"),
    [
        ("plunge-t", "plunge-code"),
        ("plunge-f", "plunge-code"),
        ("plunge-l", "plunge-code"),
        ("plunge-c", "plunge-code"),
        ("plunge-c", "plunge-hand-v2"),
        ("tricksy", "tricksy"),
    ],
)
def test_random_games_under_a_programs_rules_go_out_and_come_back_the_same(
    preset: str, fmt: str
) -> None:
    """Property: a legal game of ours under a foreign program's rules exports to its
    format and imports as the same game (deal, calls, declaration, plays, result)."""
    from texas42_log.play.generate import random_match

    exported = 0
    for seed in range(200 if fmt == "tricksy" else 40):
        doc = random_match(seed, rules=PRESETS[preset], preset=preset)
        match = Match.model_validate(doc)
        try:
            text = write_matches([match], fmt)
        except CannotExport as e:
            # only what the format cannot say: tricksy has no Nel-O with doubles high, its
            # first dealer is always seat 0, and an outbid mark bid names its contract
            assert fmt == "tricksy" and any(
                w in str(e) for w in ("not high", "first dealer", "says none")
            ), str(e)
            continue
        (src,) = read_sources(text, fmt)
        back = validate_source(src)
        assert back.valid, [d.message for d in back.errors]
        assert back.match is not None
        assert _game(back.match) == _game(match)
        assert (
            back.report is not None
            and back.report.score
            == validate_source(read_sources(json.dumps(doc), "json")[0]).report.score
        )  # type: ignore[union-attr]
        exported += 1
    assert exported >= (12 if fmt == "tricksy" else 40)


def test_comments_survive_a_trip_through_the_formats_that_have_room_for_them() -> None:
    """A tricksy bundle and a file of plunge codes are our containers: they carry the
    match's comments (the programs themselves store none) and bring them back."""
    from texas42_log.log.annotate import Target, add

    cases = [
        (
            _import(
                "tricksy",
                FOREIGN / "tricksy" / "T3_plunge_declined_then_accepted_doubles_trump.tricksy.json",
            ),
            "tricksy",
        ),
        (_valid("variant-plunge-l-forced-bid-nello.json"), "plunge-code"),
    ]
    for match, fmt in cases:
        m = add(match, Target(), "A club game", "director")
        m = add(m, Target(1, play=3), "{why} this tile?")
        m = add(m, Target(1, call=2), "bold")
        m = add(m, Target(1, declaration=True), "a plain choice")
        (src,) = read_sources(write_matches([m], fmt), fmt)
        back = validate_source(src).match
        assert back is not None
        notes = lambda x: (  # noqa: E731
            x.annotations,
            [(c.annotations) for c in x.hands[0].auction],
            [p.annotations for p in x.hands[0].plays],
            x.hands[0].declaration.annotations,
        )
        assert notes(back) == notes(m)
        assert back.annotations[-1].author == "director"


def test_older_plunge_record_shapes_are_read_and_written_back_as_they_were() -> None:
    code = (FOREIGN / "plunge" / "P1_tournament_point_bids_early_end.plunge").read_text().strip()
    v1 = {
        "schema": "plunge-hand-v1",
        "id": "a81d5e0f:3",
        "gameId": "a81d5e0f",
        "handNumber": 3,
        "code": code,
        "endedAt": "2026-09-27T12:00:15.500Z",
        "marksBefore": [2, 1],
        "marksAfter": [3, 1],
        "gameOver": False,
        "thrownIn": False,
        "player": "easy",
    }
    text = json.dumps(v1)
    assert sniff(text) == "plunge-hand-v2"
    (src,) = read_sources(text, "plunge-hand-v2")
    result = validate_source(src)
    assert result.valid and result.match is not None
    assert json.loads(write_matches([result.match], "plunge-hand-v2")) == v1


def test_a_tricksy_declaration_naming_another_contract_is_a_warning() -> None:
    bundle = json.loads((FOREIGN / "tricksy" / "T1_standard_then_redeal.tricksy.json").read_text())
    for ev in bundle["events"]:
        if ev["type"] == "CONTRACT_DECLARED":
            ev["contract"] = "plunge"
    (src,) = read_sources(json.dumps(bundle), "tricksy")
    result = validate_source(src)
    assert result.valid
    (w,) = [d for d in result.diagnostics if d.severity == "warning"]
    assert w.rule == "import" and "'plunge'" in w.message and "'standard'" in w.message


# -- the other programs' rules exactly (issue: stated facts, foreign rules) ---------


def test_the_tricksy_preset_is_tricksys_defaults() -> None:
    """tricksy's defaults enable nello (doubles their own suit), plunge and sevens."""
    from texas42_log.log.foreign.tricksy import DEFAULT_CONFIG

    assert rules_from_config(DEFAULT_CONFIG) == PRESETS["tricksy"]
    assert PRESETS["tricksy"].nello_doubles == "own-suit"


def test_tricksy_nello_and_nello_low_with_their_own_least_bids() -> None:
    config = {
        "enabled_contracts": ["nello", "nello_low", "standard"],
        "contract_options": {"nello": {"minimum_marks": 1}, "nello_low": {"minimum_marks": 3}},
    }
    rules = rules_from_config(config)
    assert (rules.nello_doubles, rules.nello_min_marks, rules.nello_low_min_marks) == (
        "own-suit-or-low",
        1,
        3,
    )
    from texas42_log.log.foreign.tricksy_write import config_from_rules

    back = config_from_rules(rules)
    assert back["enabled_contracts"] == ["nello", "nello_low", "standard"]
    assert back["contract_options"] == {"nello_low": {"minimum_marks": 3}}


def _tricksy_pair_match(low_bid: int) -> Doc:
    """A match under tricksy's nello + nello_low pair with a low Nel-O bid of ``low_bid``."""
    from texas42_log.play.generate import random_match

    rules = PRESETS["tricksy"].with_options(nello_doubles="own-suit-or-low", nello_low_min_marks=3)
    for seed in range(400):
        doc = random_match(seed, rules=rules, preset="tricksy", max_hands=12)
        doc["rules"]["options"] = {"nello_doubles": "own-suit-or-low", "nello_low_min_marks": 3}
        for i, h in enumerate(doc["hands"]):
            d = h.get("declaration", {})
            marks = [c for c in h["auction"] if c["call"] == "marks" and not c.get("rejected")]
            if d.get("doubles") == "low" and marks and marks[-1]["bid"] == low_bid:  # the contract
                return {"doc": doc, "hand": i}
    raise LookupError(low_bid)


Doc = dict[str, object]


def test_a_low_nello_needs_nello_low_min_marks() -> None:
    from texas42_log.files.validate import validate_bytes

    found = _tricksy_pair_match(3)
    doc, i = found["doc"], found["hand"]
    assert validate_bytes(json.dumps(doc)).valid
    hand = doc["hands"][i]  # type: ignore[index]
    bid = [c for c in hand["auction"] if c["call"] == "marks"][-1]  # the contract's bid
    assert bid["bid"] == 3
    doc["rules"]["options"]["nello_low_min_marks"] = 4  # type: ignore[index]
    (e,) = validate_bytes(json.dumps(doc)).errors
    assert e.rule == "variant:nello" and e.pointer == f"/hands/{i}/declaration/contract"
    assert "nello_low_min_marks" in e.message


def test_a_tricksy_import_says_which_storage_fields_it_left_out() -> None:
    bundle = json.loads((FOREIGN / "tricksy" / "T1_standard_then_redeal.tricksy.json").read_text())
    for k, ev in enumerate(bundle["events"]):
        ev |= {
            "PK": "GAME#7F3AKM",
            "SK": f"EVENT#{k:06d}",
            "seq": k,
            "timestamp": "2026-09-27T12:00:05+00:00",
        }
    (src,) = read_sources(json.dumps(bundle), "tricksy")
    result = validate_source(src)
    assert result.valid
    warnings = [d.message for d in result.diagnostics if d.severity == "warning"]
    n = len(bundle["events"])
    (left,) = [w for w in warnings if "not kept" in w]
    for key in ("PK", "SK", "seq", "timestamp"):
        assert f"{key} ({n} events)" in left


def test_a_plunge_record_for_a_match_of_ours_is_whole_and_compact() -> None:
    """plunge's validator requires every field of a plunge-hand-v2 record; the app
    writes compact JSON (canonical.ts)."""
    match = _valid("variant-casual-nello-plunge-splash.json").model_copy()
    match = Match.model_validate(
        {
            **json.loads(match.model_dump_json(by_alias=True, exclude_none=True)),
            "rules": {"preset": "plunge-c"},
        }
    )
    text = write_matches([match], "plunge-hand-v2")
    lines = text.splitlines()
    assert len(lines) == len(match.hands)
    required = {
        "schema",
        "id",
        "game",
        "app",
        "started",
        "ended",
        "outcome",
        "marksBefore",
        "code",
        "seats",
        "settings",
        "profiles",
        "actions",
        "assist",
    }
    import re

    for n, line in enumerate(lines, 1):
        assert ", " not in line and ": " not in line.replace('": "', "")  # compact separators
        rec = json.loads(line)
        assert set(rec) == required
        assert re.fullmatch(r"[0-9a-f]{32}", rec["id"]) and re.fullmatch(
            r"[0-9a-f]{32}", rec["game"]["id"]
        )
        assert rec["game"]["hand"] == n and re.fullmatch(r"[A-Za-z0-9_.:-]+", rec["app"])
        assert rec["outcome"] in ("finished", "abandoned") and len(rec["seats"]) == 4
        assert all(0 <= m <= 99 for m in rec["marksBefore"])
        # one action per decision in the code: the calls, a declaration, every play
        h = match.hands[n - 1]
        assert len(rec["actions"]) == len(h.auction) + (h.declaration is not None) + len(h.plays)
        assert rec["settings"][0]["preset"] == "casual"
    # the marks before each hand are the score after the one before
    recs = [json.loads(line) for line in lines]
    _, facts = replay_match(match)
    assert [r["marksBefore"] for r in recs[1:]] == [
        [f.score["A+C"], f.score["B+D"]] for f in facts[:-1]
    ]
    # and the records read back as the same hands
    (src,) = read_sources(text, "plunge-hand-v2")
    back = validate_source(src)
    assert back.valid and back.match is not None and len(back.match.hands) == len(match.hands)
