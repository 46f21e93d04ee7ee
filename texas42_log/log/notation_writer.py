"""The text notation's canonical writer: a match as people read it (``docs/notation.md``).
Pure: no I/O. Every log string is written so that a terminal showing the file cannot
act on it: JSON strings through :func:`texas42_log.log.inert.dumps`, comments with
their control characters as ``\\uXXXX``."""

from __future__ import annotations

from typing import Any

from .inert import UNSAFE_IN_TEXT, dumps
from .model import Hand, Match

__all__ = ["write_text", "write_texts"]

SEATS = ("A", "B", "C", "D")
_COMMENT_UNSAFE = UNSAFE_IN_TEXT


def _s(v: Any) -> str:
    return dumps(v)


def _comment(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("{", "\\{").replace("}", "\\}")
    return "{" + _COMMENT_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", escaped) + "}"


def _extras(obj: Any) -> dict[str, Any]:
    return dict(obj.__pydantic_extra__ or {})


def _ext(obj: Any, note: bool = False) -> str:
    extra = _extras(obj)
    if note:
        # Since 1.9: a comment's seat and editor ride with its extensions (no words for them).
        extra = {k: v for k in ("seat", "edited_by") if (v := getattr(obj, k)) is not None} | extra
    if getattr(obj, "id", None) is not None:
        # Since 1.7: a comment's id rides with its extensions (no words for it).
        extra = {"id": obj.id} | extra
    analysis = getattr(obj, "analysis", None)
    if analysis is not None:
        # Since 1.3, a hand's or a play's open-hand analysis rides with its extensions.
        # a required field that may be null (a call's `supported`) is kept: defaults only go
        extra = {"analysis": analysis.model_dump(mode="json", exclude_defaults=True)} | extra
    return f" &{_s(extra)}" if extra else ""


def _notes(notes: Any) -> str:
    out = ""
    for a in notes:
        out += " " + _comment(a.text)
        if a.author is not None:
            out += "@" + _s(a.author)
        out += _ext(a, note=True)
    return out


def _teams(n: Any) -> str:
    return f"{n.AC}-{n.BD}{_ext(n)}"


def write_text(match: Match) -> str:
    """One match in canonical text notation (ends with a newline)."""
    lines = _header(match)
    if match.annotations:
        lines += ["", _notes(match.annotations).strip()]
    for i, hand in enumerate(match.hands):
        lines += _hand(i, hand)
    return "\n".join(lines) + "\n"


def _header(match: Match) -> list[str]:
    """The tag lines: format, version, rules, players, dealer, status, result, source,
    and the extensions of each."""
    lines: list[str] = [
        f"[Format {_s(match.format)}]",
        f"[Version {_s(match.version)}]",
        f"[Rules {_s(match.rules.preset)}]",
    ]
    for k, v in match.rules.options.model_dump(mode="json", exclude_none=True).items():
        if not k.startswith("x-"):
            lines.append(f"[Option {k} {_s(v)}]")
    header_ext: list[tuple[str, Any]] = [
        ("/rules", match.rules),
        ("/rules/options", match.rules.options),
    ]
    if match.players is not None:
        names = [(s, getattr(match.players, s)) for s in SEATS]
        lines += [f"[{s} {_s(v)}]" for s, v in names if v is not None]
        if all(v is None for _, v in names) and not _extras(match.players):
            lines.append('[Ext "/players" {}]')
        header_ext.append(("/players", match.players))
    lines.append(f"[FirstDealer {_s(match.first_dealer)}]")
    if match.dealer_draw is not None:
        if not match.dealer_draw:
            lines.append("[Draw]")
        for n_draw, draw in enumerate(match.dealer_draw):
            lines.append(f"[Draw {_s(draw.seat)} {_s(draw.tile)}]")
            header_ext.append((f"/dealer_draw/{n_draw}", draw))
    lines.append(f"[Status {_s(match.status)}]")
    if match.result is not None:
        marks = f" {_s(_teams_plain(match.result.marks))}" if match.result.marks is not None else ""
        lines.append(f"[Result {_s(match.result.winner)}{marks}]")
        header_ext.append(("/result", match.result))
        if match.result.marks is not None:
            header_ext.append(("/result/marks", match.result.marks))
    if match.source is not None:
        lines.append(f"[Source {_s(match.source.format)}]")
        header_ext.append(("/source", match.source))
        for n_warning, warning in enumerate(match.source.warnings):
            lines.append(f"[Warning {_s(warning.hand)} {_s(warning.text)}]")
            header_ext.append((f"/source/warnings/{n_warning}", warning))
    header_ext.insert(0, ("", match))
    for ptr, obj in header_ext:
        if _extras(obj):
            lines.append(f"[Ext {_s(ptr)} {_s(_extras(obj))}]")
    return lines


def _hand(i: int, hand: Hand) -> list[str]:
    """Hand ``i`` (from 0): its heading, its notes, its deal, auction, declaration,
    tricks and outcome."""
    lines = ["", f"Hand {i + 1}: dealer {hand.dealer}{_ext(hand)}"]
    if hand.annotations:
        lines.append(_notes(hand.annotations).strip())
    if hand.deal is not None:
        lines.append(f"Deal:{_ext(hand.deal)}")
        for s in SEATS:
            tiles = " ".join(t if t is not None else "?" for t in getattr(hand.deal, s))
            lines.append(f"  {s}: {tiles}".rstrip())
    calls = []
    for c in hand.auction:
        if c.call == "pass":
            word = "pass"
        elif c.call == "points":
            word = str(c.bid)
        else:
            word = f"{c.bid}m" + (f" {c.special}" if c.special else "")
        calls.append(
            f"{c.seat} {word}{' (rejected)' if c.rejected else ''}{_ext(c)}{_notes(c.annotations)}"
        )
    lines.append(("Auction: " + ", ".join(calls)).rstrip())
    d = hand.declaration
    if d is not None:
        words: list[str] = [d.seat]
        if d.trump is not None:
            words.append(f"trump {d.trump}")
        if d.contract is not None:
            words.append(d.contract)
        if d.doubles is not None:
            words.append(f"doubles {d.doubles}")
        if d.stacks is not None:
            words.append(f"stacks {d.stacks}")
        lines.append(f"Declare: {' '.join(words)}{_ext(d)}{_notes(d.annotations)}")
    size = 3 if d is not None and d.contract == "nello" else 4
    trick: list[str] = []
    number, counted = 1, 0
    for p in hand.plays:
        led = f" led {p.led}" if p.led is not None else ""
        trick.append(
            f"{p.seat} "
            f"{p.tile}{led}{' (rejected)' if p.rejected else ''}"
            f"{_ext(p)}{_notes(p.annotations)}"
        )
        if not p.rejected:
            counted += 1
            if counted == size:
                lines.append(f"Trick {number}: " + ", ".join(trick))
                trick, number, counted = [], number + 1, 0
    if trick:
        lines.append(f"Trick {number}: " + ", ".join(trick))
    o = hand.outcome
    if o is not None:
        bits: list[str] = [o.result] if o.result is not None else []
        bits += [
            f"{key} {_teams(getattr(o, key))}"
            for key in ("points", "marks", "score")
            if getattr(o, key) is not None
        ]
        lines.append(f"Outcome:{_ext(o)} " + ", ".join(bits))
        lines[-1] = lines[-1].rstrip()
        if o.tricks is not None:
            items = []
            for t in o.tricks:
                who = t.winner or ("" if t.points is not None else "-")
                items.append(who + (f"+{t.points}" if t.points is not None else "") + _ext(t))
            lines.append(("Tricks: " + ", ".join(items)).rstrip())
    return lines


def _teams_plain(n: Any) -> str:
    return f"{n.AC}-{n.BD}"


def write_texts(matches: list[Match]) -> str:
    """Several matches, one after another, separated by a blank line."""
    return "\n".join(write_text(m) for m in matches)
