"""Views as text, in any language of the catalogue (:mod:`texas42_log.views.locales`).

:func:`describe` is the seeds' own description of a view — contract, bidder,
tiles played in order, tiles in hand per seat, visible won faces per trick with
team — which the seeds' five example views give word for word (docs/rules.md, end;
seeds 000 and 001). It is the accessible label of the HTML viewer too.
:func:`view_lines` adds the rest of the view, one line each, for the terminal.

Renders a :class:`~texas42_log.views.visibility.View` and nothing else. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..engine.seats import SEATS, TEAMS, Seat, Team
from ..log.inert import inert_value
from .locales import DEFAULT_LANGUAGE, catalogue
from .visibility import Note, View

__all__ = [
    "describe",
    "description_parts",
    "view_lines",
    "lines_and_notes_at",
    "render_text",
    "observer_label",
    "analysis_lines",
    "fair_lines",
    "result_line",
    "moment_text",
    "turn_line",
    "contract_sentence",
    "trick_caption",
]


class _Msg:
    def __init__(self, lang: str) -> None:
        self.m = catalogue(lang)

    def __call__(self, key: str, **kw: object) -> str:
        return self.m[key].format(**kw)


def trump_name(m: Mapping[str, str], trump: str) -> str:
    """A trump or a row as the format names it (``"6"``, ``"doubles"``, ``"no-trump"``,
    ``"nello low"``) in players' words in the catalogue ``m``: ``sixes``, ``doubles``…"""
    if len(trump) == 1 and trump.isdigit():
        return m[f"suit.{trump}"]
    if trump in ("doubles", "no-trump"):
        return m[f"analysis.trump.{trump}"]
    return trump


def _trump(m: _Msg, trump: str | None) -> str:
    if trump is None:
        return m("trump.undeclared")
    if trump == "no-trump":
        return m("trump.none")
    if trump == "doubles":
        return m("trump.doubles")
    return m("trump", trump=trump)  # the seeds' view template names a suit by its number


def _teams(numbers: dict[Team, int]) -> str:
    return ", ".join(f"{t} {numbers[t]}" for t in TEAMS)


def observer_label(view: View, lang: str) -> str:
    m = _Msg(lang)
    o = view.observer
    return m("observer.seat", seat=o) if o in SEATS else m(f"observer.{o}")


def description_parts(view: View, lang: str) -> list[str]:
    """The seeds' description of ``view``, sentence by sentence."""
    m = _Msg(lang)
    out: list[str] = []
    if view.observer in ("review", "omniscient"):
        out.append(m(f"visibility.{view.observer}") + ".")
    c = view.contract
    if c is None:
        out.append(m("contract.all_passed") if view.result == "no-contract" else m("contract.none"))
    else:
        if c.kind == "points":
            what = m("contract.points", bid=c.bid)
        else:
            what = m(f"contract.{c.special}" if c.special else "contract.marks", marks=c.marks)
        vis = m(f"visibility.{c.visibility}") if c.visibility else m("visibility.pending")
        trump = m("trump.none") if c.special in ("nello", "sevens") else _trump(m, c.trump)
        out.append(m("contract", contract=what, trump=trump, visibility=vis))
        out.append(m("bidder", seat=c.bidder))
    sep = m("list.sep")
    tsep = m("tiles.sep")
    if view.trick is not None:
        plays = sep.join(
            m("played.item", order=p.order, seat=p.seat, tile=p.tile) for p in view.trick.plays
        )
        out.append(m("played", plays=plays or m("none")))
    out.append(m("counts", counts=", ".join(f"{s}={view.counts[s]}" for s in SEATS)))
    if view.trick is not None:
        if view.observer in ("review", "omniscient"):
            items = [
                m(
                    "reviewed.item",
                    number=w.number,
                    team=w.team,
                    plays=tsep.join(f"{p.seat} {p.tile}" for p in (w.plays or ())),
                )
                for w in view.won
            ]
            out.append(m("reviewed", tricks=sep.join(items) or m("none")))
        else:
            items = [
                m("faces.item", number=w.number, team=w.team, tiles=tsep.join(w.faces))
                for w in view.won
                if w.faces is not None
            ]
            out.append(m("faces", faces=sep.join(items) or m("none")))
    return out


def describe(view: View, lang: str = DEFAULT_LANGUAGE) -> str:
    """The seeds' one-paragraph description of ``view``."""
    return " ".join(description_parts(view, lang))


def contract_sentence(view: View, lang: str = DEFAULT_LANGUAGE) -> str:
    """The description's contract sentence (after a review's or omniscient label)."""
    parts = description_parts(view, lang)
    return parts[1] if view.observer in ("review", "omniscient") else parts[0]


def trick_caption(view: View, lang: str = DEFAULT_LANGUAGE) -> str | None:
    """The seeds' caption of a complete trick on the table ("Trick 1 · D · hand points:
    16"); None while the trick is not complete."""
    t = view.trick
    if t is None or t.winner is None:
        return None
    return _Msg(lang)("trick.won", number=t.number, seat=t.winner, points=t.points)


def _moment(m: _Msg, view: View) -> str:
    if view.moment == "play":
        assert view.trick is not None
        text = m("moment.play", play=view.play, trick=view.trick.number)
    elif view.moment == "call" or (view.moment == "auction" and 0 < len(view.auction) < 4):
        # an auction still going on (the recorder's show, a live view) is after its last call
        text = m("moment.call", call=len(view.auction))
    elif view.moment == "auction" and not view.auction:
        text = m("moment.deal")
    elif view.moment == "trick":
        text = m("moment.trick", trick=len(view.won))
    else:
        text = m(f"moment.{view.moment}")
    if view.over and view.moment != "end":
        text += " · " + m("moment.over")
    return text


def turn_line(view: View, lang: str = DEFAULT_LANGUAGE) -> str | None:
    """The line of :func:`view_lines` that says whose turn it is ("Next to play: C."),
    or None when nobody is to act (the hand is decided, or before a declaration)."""
    if view.to_play is None or view.over:
        return None
    return _Msg(lang)("next" if view.trick is not None else "next.call", seat=view.to_play)


def moment_text(view: View, lang: str = DEFAULT_LANGUAGE) -> str:
    """Where in the hand ``view`` is, as the header says it (``after play 3 (trick 1)``)."""
    return _moment(_Msg(lang), view)


def _note(m: _Msg, n: Note) -> str:
    kind, _, number = n.on.partition(" ")
    on = m(f"on.{kind}", n=number) if number else m(f"on.{kind}")
    # Log text, set inside the tool's own line: every control character shown as an escape.
    if n.author is None:
        return m("note", on=on, text=inert_value(n.text))
    return m("note.by", on=on, author=inert_value(n.author), text=inert_value(n.text))


def view_lines(view: View, lang: str = DEFAULT_LANGUAGE) -> list[str]:
    """The whole view, one line each: header, the seeds' description, then the rest."""
    return lines_and_notes_at(view, lang, notes=True)[0]


def lines_and_notes_at(
    view: View, lang: str = DEFAULT_LANGUAGE, *, notes: bool
) -> tuple[list[str], int]:
    """:func:`view_lines`, with the comments' lines only when ``notes``, and the index
    among the lines at which the comments' lines stand (or would stand)."""
    m = _Msg(lang)
    sep = m("list.sep")
    tsep = m("tiles.sep")
    lines = [
        m("header", hand=view.hand, moment=_moment(m, view), observer=observer_label(view, lang))
    ]
    lines += description_parts(view, lang)
    if view.players:
        lines.append(
            m(
                "players",
                players=", ".join(f"{s}={inert_value(n)}" for s, n in view.players.items()),
            )
        )
    lines.append(m("dealer", seat=view.dealer))
    if view.contract is not None and view.contract.declarer not in (None, view.contract.bidder):
        lines.append(m("declarer", seat=view.contract.declarer))
    if view.sits_out is not None:
        lines.append(m("sits_out", seat=view.sits_out))
    calls = [m(f"call.{sp or k}", seat=s, bid=b) for s, k, b, sp in view.auction]
    lines.append(m("bids", calls=sep.join(calls) or m("none")))
    covered = [m("covered.item", number=w.number, team=w.team) for w in view.won if w.faces is None]
    if covered:
        lines.append(m("covered", tricks=sep.join(covered)))
        lines.append(m("tricks_won", tricks=_teams(view.tricks_won)))
    caption = trick_caption(view, lang)
    if caption is not None:
        lines.append(caption)
    if view.points is not None:
        lines.append(m("hand_points", points=_teams(view.points)))
    if view.to_play is not None:
        lines.append(m("next" if view.trick is not None else "next.call", seat=view.to_play))
    result = _result_line(m, view)
    if result is not None:
        lines.append(result)
    lines.append(
        m("marks" if view.score_unit == "marks" else "points_score", marks=_teams(view.marks))
    )
    if view.observer in SEATS:
        seat: Seat = view.observer
        tiles = list(view.hands.get(seat, ()))
        if view.hidden[seat]:
            tiles.append(m("hand.hidden", count=view.hidden[seat]))
        lines.append(m("hand.own", seat=seat, tiles=tsep.join(tiles) or m("none")))
    elif view.observer in ("review", "omniscient"):
        parts = []
        for s in SEATS:
            tiles = list(view.hands.get(s, ()))
            if view.hidden[s]:
                tiles.append(m("hand.hidden", count=view.hidden[s]))
            parts.append(m("hand.seat", seat=s, tiles=tsep.join(tiles) or m("none")))
        lines.append(m("hands", hands=sep.join(parts)))
    notes_at = len(lines)
    if notes:
        lines += [_note(m, n) for n in view.notes]
    if view.analysis is not None:
        lines += _analysis_lines(m, view)
    if view.fair is not None:
        lines += _fair_lines(m, view)
    if view.auction_fair is not None:
        lines += _auction_fair_lines(m, view)
    return lines, notes_at


def _auction_fair_lines(m: _Msg, view: View) -> list[str]:
    """The log's fair verdict of the call just made (in the auction) or of the declaration
    (at the declaration), as this observer may see it."""
    a = view.auction_fair
    assert a is not None
    if view.moment == "declaration" and a.declaration is not None:
        d = a.declaration
        table = d["table"]
        mine = next(
            (k for k in table if view.contract is not None and k == _row_of_contract(view)), None
        )
        chance = table.get(mine, 0.0) if mine is not None else 0.0
        # since 1.12 the table states each chance as played (its open-hand share beside it)
        key = "fair.declaration.played" if "open_table" in d else "fair.declaration"
        return [
            m(
                key,
                seat=d["seat"],
                chance=f"{chance:.0%}",
                best=trump_name(m.m, d["best"]),
                best_chance=f"{table[d['best']]:.0%}",
                mark=f" {d['mark']}" if d.get("mark") else "",
            )
        ]
    if view.moment not in ("call", "auction") or not a.calls:
        return []
    last = a.calls[-1]
    if last["order"] != len(view.auction):
        return []
    if last.get("supported") is None:
        out = [m("fair.call.pass", seat=last["seat"], call=last["call"])]
    else:
        bid, trump = last["supported"], last["supported_trump"]
        out = [
            m(
                "fair.call",
                seat=last["seat"],
                call=last["call"],
                bid=bid,
                trump=trump_name(m.m, trump),
                chance=f"{last['table'][bid][trump]:.0%}",
            )
        ]
    return out + _call_verdict(m, last)


def _number(x: object) -> float:
    return float(x) if isinstance(x, (int, float)) else 0.0


def _call_verdict(m: _Msg, call: dict[str, object]) -> list[str]:
    """A call judged as players bid, when the log states it: by the contract its auction
    ends in (format 1.11), or as if the auction ended with it (1.10)."""
    c = call.get("contract")
    if isinstance(c, dict):
        return _contract_verdict(m, call, c)
    best = call.get("pays_best")
    if not isinstance(best, str):
        return []
    lost = _number(call.get("marks_lost"))
    said = str(call["call"])
    if best == "pass":
        named = best
    else:
        named = f"{best} {m.m['fair.in']} {trump_name(m.m, str(call.get('pays_best_trump')))}"
    expected = f"{_number(call.get('pays_best_expected')):+.2f}"
    if lost == 0:
        return [m("fair.call.best", call=said, expected=f"{_number(call.get('expected')):+.2f}")]
    return [
        m(
            "fair.call.judged",
            best=named,
            call=said,
            expected=expected,
            lost=f"{lost:.2f}",
            se=f"{_number(call.get('marks_lost_se')):.2f}",
            mark=f" {call['mark']}" if call.get("mark") else "",
        )
    ]


def _contract_verdict(m: _Msg, call: dict[str, object], c: dict[str, Any]) -> list[str]:
    """A call worth the contract its auction ends in (format 1.11)."""
    best = str(c.get("best"))
    lost = _number(c.get("lost"))
    said = str(call["call"])
    named = best
    if best != "pass":
        named = f"{best} {m.m['fair.in']} {trump_name(m.m, str(c.get('best_trump')))}"
    if lost == 0:
        out = [m("fair.call.contract.best", call=said, expected=f"{_number(c.get('worth')):+.2f}")]
    else:
        out = [
            m(
                "fair.call.contract.judged",
                best=named,
                call=said,
                expected=f"{_number(c.get('best_worth')):+.2f}",
                lost=f"{lost:.2f}",
                se=f"{_number(c.get('lost_se')):.2f}",
                mark=f" {c['mark']}" if c.get("mark") else "",
            )
        ]
    ends = c.get("ends")
    if isinstance(ends, list) and ends and isinstance(ends[0], dict):
        e = ends[0]
        share = f"{_number(e.get('share')):.0%}"
        if e.get("by") is None:
            out.append(m("fair.call.ends.none", share=share))
        else:
            contract = m.m["fair.call.contract"].format(
                by=e.get("by"), bid=e.get("bid"), trump=trump_name(m.m, str(e.get("trump")))
            )
            made = f"{_number(e.get('made')):.0%}"
            out.append(m("fair.call.ends", contract=contract, share=share, made=made))
    return out


def _row_of_contract(view: View) -> str | None:
    c = view.contract
    if c is None:
        return None
    if c.special == "nello":
        return "nello" if c.doubles is None else f"nello {c.doubles}"
    if c.special == "sevens":
        return "sevens"
    return c.trump


def fair_lines(view: View, lang: str = DEFAULT_LANGUAGE, now: bool = True) -> list[str]:
    """The view's fair analysis as lines, the auction's verdicts included (none unless the
    view holds one); without ``now`` the values open now are left out (the page shows
    them as a table)."""
    m = _Msg(lang)
    out = _fair_lines(m, view, now) if view.fair is not None else []
    if view.auction_fair is not None:
        out += _auction_fair_lines(m, view)
    return out


def _fair_lines(m: _Msg, view: View, now: bool = True) -> list[str]:
    """The log's fair analysis as this observer may see it: the play just made, the
    values open now."""
    f = view.fair
    assert f is not None
    out: list[str] = []
    last = f.plays[-1] if f.plays and f.plays[-1].order == view.play else None
    if last is not None:
        if last.forced:
            out.append(m("fair.forced", seat=last.seat, order=last.order, tile=last.tile))
        else:
            mean, share = last.values.get(last.tile, (0.0, 0.0))
            out.append(
                m(
                    "fair.play",
                    seat=last.seat,
                    order=last.order,
                    tile=last.tile,
                    mean=f"{mean:.1f}",
                    share=f"{share:.0%}",
                    cost=f"{last.cost:.1f}",
                    lost=f"{last.chance_lost:.0%}",
                    mark=f" {last.mark}" if last.mark else "",
                )
            )
            if last.cost or last.chance_lost:
                out.append(
                    m("fair.best", seat=last.seat, best=", ".join(last.best))
                    if last.best
                    else m("fair.best.hidden", seat=last.seat)
                )
    if now and f.now and view.to_play is not None:
        values = m("list.sep").join(
            f"{k} {mean:.1f} ({share:.0%})" for k, (mean, share) in f.now.items()
        )
        out.append(m("fair.now", seat=view.to_play, values=values))
    return out


def _result_line(m: _Msg, view: View) -> str | None:
    if view.result is None:
        return None
    if view.result == "no-contract" or view.result_marks is None:
        return m("result.no-contract")
    gainer = max(TEAMS, key=lambda team: view.result_marks[team] if view.result_marks else 0)
    return m(f"result.{view.result}", team=gainer, marks=view.result_marks[gainer])


def result_line(view: View, lang: str = DEFAULT_LANGUAGE) -> str | None:
    """The hand's result as one sentence, once it is decided (None before)."""
    return _result_line(_Msg(lang), view)


def analysis_lines(view: View, lang: str = DEFAULT_LANGUAGE, *, table: bool = True) -> list[str]:
    """The view's open-hand analysis as lines (none unless the view holds one);
    ``table=False`` leaves out the makeable table's line (the viewer draws a table)."""
    return _analysis_lines(_Msg(lang), view, table) if view.analysis is not None else []


def _analysis_lines(m: _Msg, view: View, table: bool = True) -> list[str]:
    """The log's open-hand analysis (a review or omniscient view only holds one): the
    hand's value and table, the play just made, the values of the plays open now."""
    a = view.analysis
    c = view.contract
    assert a is not None and c is not None
    team = "A+C" if c.bidder in ("A", "C") else "B+D"
    out: list[str] = []
    if a.value is not None:
        verdict = m("analysis.makeable" if a.makeable else "analysis.unmakeable")
        out.append(m("analysis.value", team=team, value=a.value, verdict=verdict))
    if a.table and table:
        cells = m("list.sep").join(f"{trump_name(m.m, t)} {v}" for t, v in a.table.items())
        out.append(m("analysis.table", seat=c.bidder, cells=cells))
    last = a.plays[-1] if a.plays and a.plays[-1].order == view.play else None
    if last is not None:
        out.append(
            m(
                "analysis.play",
                order=last.order,
                seat=last.seat,
                tile=last.tile,
                team=team,
                value=last.value,
                cost=last.cost,
            )
        )
        if last.cost:
            if last.best:
                out.append(m("analysis.best", best=", ".join(last.best), value=last.best_value))
            else:
                out.append(m("analysis.best.hidden", value=last.best_value))
        if last.fate:
            out.append(m(f"analysis.fate.{last.fate}"))
    if a.now:
        out.append(
            m("analysis.now", values=m("list.sep").join(f"{k} {v}" for k, v in a.now.items()))
        )
    costly = [p for p in a.plays if p.cost]
    if view.over and costly:
        items = [
            m("analysis.costly.item", order=p.order, seat=p.seat, tile=p.tile, cost=p.cost)
            + (f" ({m('analysis.fate.' + p.fate).split(':')[0]})" if p.fate else "")
            for p in costly
        ]
        out.append(m("analysis.costly", plays=m("list.sep").join(items)))
    return out


def render_text(views: list[View], lang: str = DEFAULT_LANGUAGE) -> str:
    """Views as plain text: one block per view, a blank line between."""
    return "\n\n".join("\n".join(view_lines(v, lang)) for v in views) + "\n"
