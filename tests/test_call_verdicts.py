"""Calls judged as players bid: the call that pays best by expected marks, marks on calls,
passed-out hands judged, and every sentence the report says of a call or a play true of
that line's numbers.

Format 1.10's rule (texas42_log.analysis.call_verdicts, a call as if the auction ended
with it, still the rule of logs annotated under 1.10) is checked against a recount from
the table itself (not the code under test): the expected marks of every open call, the
highest, ties to the lowest. Format 1.11's (each call worth the contract its auction
ends in) has its recount in tests/test_contract_worth.py; here, its marks: exactly when
the loss reaches its threshold past twice its error, never on the call that pays best.
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace
from pathlib import Path

import pytest

from texas42_log.analysis.api import fair_analysis, open_hand_analysis
from texas42_log.analysis.auction_fair import CallNote
from texas42_log.analysis.auction_report import auction_lines
from texas42_log.analysis.calibration import as_played, kind_of
from texas42_log.analysis.call_verdicts import CALL_BLUNDER, CALL_DUBIOUS
from texas42_log.analysis.fair_hands import FairHand
from texas42_log.analysis.report import hand_text
from texas42_log.files.validate import read_match
from texas42_log.log.model import Match
from texas42_log.play.generate import random_match

ROOT = Path(__file__).resolve().parent.parent
WORKED = ROOT / "fixtures" / "valid" / "seed-worked-example.json"
#: One worker runs this module (pytest-xdist): its corpus is made once.
pytestmark = pytest.mark.xdist_group("call-verdicts")


@functools.cache
def _corpus() -> list[tuple[Match, int, FairHand]]:
    """Fair analyses of twelve random hands: made when a test first asks (never while the
    suite is collected), once per process; the tests that read them share a worker."""
    out = []
    for seed in range(3):
        match = Match.model_validate(random_match(5100 + seed, max_hands=4))
        for h in range(len(match.hands)):
            out.append((match, h, fair_analysis(match, h, worlds=12, seed=seed)))
    return out


def _recount(n: CallNote) -> tuple[str, float, float]:
    """The call that pays best, its expected marks and the call made's, from the table
    alone: every bid's marks at stake × (2 × best chance as played − 1), a pass 0 (the
    chance as played: the open-hand share through its kind's curve, as stated)."""
    options: list[tuple[str, float, int]] = []
    if n.pass_open:
        options.append(("pass", 0.0, -1))
    for bid in n.table.bids:
        rows = n.table.made[bid]
        share = max(round(as_played(sum(v) / len(v), kind_of(bid, r)), 4) for r, v in rows.items())
        stake = 1 if bid.kind.value == "points" else bid.bid
        options.append((bid.key, round(stake * (2 * share - 1), 4), bid.size))
    top = max(e for _, e, _ in options)
    best = min((o for o in options if o[1] == top), key=lambda o: o[2])
    made = "pass" if n.call is None else n.call.key
    mine = next(e for k, e, _ in options if k == made)
    return best[0], best[1], mine


def test_every_call_is_judged_by_its_expected_marks_and_marked_by_its_threshold() -> None:
    calls = marked = passes_marked = 0
    for _, _, fair in _corpus():
        if fair.auction is None:
            continue
        for n in fair.auction.calls:
            assert n.judged and n.contract is not None  # a game of marks, 1.11's rule
            calls += 1
            old = replace(n, contract=None)  # 1.10's rule, recounted from the table
            key, top, mine = _recount(old)
            assert old.pays_best.key == key and old.pays_best.expected == top
            assert old.worth.expected == mine
            assert old.marks_lost == round(max(0.0, top - mine), 4)
            c = n.contract
            assert n.pays_best.key == c.best.key
            assert c.best.expected == max(o.expected for o in c.options)
            assert n.worth.expected == c.made.expected
            lost = round(max(0.0, c.best.expected - c.made.expected), 4)
            assert n.marks_lost == lost
            if n.worth.key == n.pays_best.key:
                assert n.mark is None and lost == 0  # the best call is never marked
            if n.mark is not None:
                marked += 1
                passes_marked += n.call is None
                least = CALL_BLUNDER if n.mark == "??" else CALL_DUBIOUS
                assert lost >= least and lost > 2 * n.marks_lost_se
            elif lost >= CALL_DUBIOUS:
                assert lost <= 2 * n.marks_lost_se  # unmarked only because of its error
    assert calls > 30 and marked >= 2 and passes_marked >= 1


_LINE = re.compile(r"^    (?P<seat>[ABCD]) (?P<call>.{14})(?P<mark>\?\?|\? |   )(?P<rest>.*)$")


def test_each_call_line_says_what_its_numbers_say() -> None:
    """The sentence of every call: "pays best:" only for the call that pays best, "gave up
    X ± Y" with its own numbers, "uncertain" exactly where a loss past the threshold is
    within twice its error, "as good" only for a tie, the mark in its column."""
    seen = 0
    for _, _, fair in _corpus():
        if fair.auction is None:
            continue
        lines = auction_lines(fair.auction)[1:]
        for n, line in zip(fair.auction.calls, lines, strict=False):
            m = _LINE.match(line)
            assert m is not None, line
            seen += 1
            assert m["seat"] == n.seat and m["mark"].strip() == (n.mark or "")
            rest = m["rest"]
            gave = re.search(r"gave up (\d+\.\d\d) ± (\d+\.\d\d) expected marks", rest)
            if n.marks_lost > 0:
                assert gave is not None, rest
                assert float(gave[1]) == pytest.approx(n.marks_lost, abs=0.0051)
                assert float(gave[2]) == pytest.approx(n.marks_lost_se, abs=0.0051)
                assert "pays best:" not in rest and "as good" not in rest
            else:
                assert gave is None
                assert ("pays best:" in rest) == (n.worth.key == n.pays_best.key)
                assert ("as good" in rest) == (n.worth.key != n.pays_best.key)
            uncertain = n.mark is None and n.marks_lost >= CALL_DUBIOUS
            assert ("uncertain" in rest) == uncertain
            assert "as if" not in rest  # the assumption is said once, on the auction's line
    assert seen > 30


def test_every_play_verdict_is_true_of_its_line() -> None:
    """No "cost nothing" beside a cost; "wrong but lucky" only where the play's side could
    still reach its goal with every hand open and the play did not lose it; "right but
    unlucky" only with no chance lost; a mark past its threshold."""
    verdicts = 0
    for match, h, fair in _corpus():
        (opened,) = open_hand_analysis(match, h, table=False)
        text = "\n".join(hand_text(opened, False, fair))
        assert "cost nothing" not in text
        for f in fair.plays:
            d, o = f.decision, f.open
            if f.verdict is None or d is None or o is None:
                continue
            verdicts += 1
            if f.verdict == "wrong but lucky":
                assert o.fate is None and d.reaches(o.best)
            elif f.verdict == "wrong and punished":
                assert o.fate is not None
            else:
                assert f.chance_lost == 0 and o.fate is not None
            if f.mark is None:
                assert f.verdict == "right but unlucky"
    assert verdicts >= 3


def test_the_worked_example_judges_its_passed_out_hands_and_marks_d_on_seven_sixes() -> None:
    match = read_match(WORKED.read_bytes())
    first = fair_analysis(match, 0, worlds=20)
    assert first.auction is not None
    d = next(n for n in first.auction.calls if n.seat == "D")
    assert d.call is None and d.mark == "??"  # D held all seven sixes and passed
    assert d.pays_best.row is not None and d.pays_best.row.key == "6"
    for h in (5, 8, 9):  # hands 6, 9 and 10: all four passed
        fair = fair_analysis(match, h, worlds=20)
        assert fair.contract is None and fair.auction is not None
        assert [n.call for n in fair.auction.calls] == [None] * 4
        (skipped,) = open_hand_analysis(match, h)
        text = "\n".join(hand_text(skipped, False, fair))
        assert "all four passed, no contract" in text and "skipped" not in text
        assert any(n.marks_lost > 0 for n in fair.auction.calls)


def test_a_seat_reads_its_own_call_judged_in_players_words_in_every_language() -> None:
    """D's pass on seven sixes, annotated: D's view after its call says what pays best, in
    players' words (sixes), with the mark; the Turkish and Ukrainian lines carry the same
    numbers; another seat's view of the same moment says nothing of it."""
    from texas42_log.analysis.api import annotate_match
    from texas42_log.views.text import view_lines
    from texas42_log.views.visibility import Moment, view_for

    match = annotate_match(read_match(WORKED.read_bytes()), 0, fair=(20, 42)).match
    d_view = view_for(match, "D", 0, Moment.after_call(4))
    en = "\n".join(view_lines(d_view, "en"))
    assert "2 marks in sixes pays best" in en and "expected marks ??" in en, en
    assert "could go to" in en
    for lang, word in (("tr", "altılar"), ("uk", "шістки")):
        assert word in "\n".join(view_lines(d_view, lang))
    b_view = view_for(match, "B", 0, Moment.after_call(4))
    assert "pays best" not in "\n".join(view_lines(b_view, "en"))
