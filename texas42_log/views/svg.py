"""One moment as a picture: an SVG board drawn from a
:class:`~texas42_log.views.visibility.View` alone.

``texas42 render --to svg`` (a moment for a forum post), ``View._repr_svg_`` and
``Game._repr_svg_`` (notebooks). Like every renderer it draws the view object and
nothing else (docs/architecture.md), so it can show no tile the observer may not see: a
hidden tile is a face-down domino, a covered trick a face-down stack.

The board is the HTML viewer's: the observer at the bottom (A for the public,
review and omniscient observers), the others clockwise — left, top (the
partner), right; the score box and the contract top left, the auction as a
bidding box top right, the current trick in the middle with its play order and
caption, the won tricks along the bottom labelled as the seeds draw them, with
the seeds' legend. Every word is from the message catalogue of ``lang``.

Text from the log (players' names) is escaped, its control characters made
visible, and set in its own bidi isolate, so it can neither make markup nor
reorder the board. No script, no external reference, deterministic bytes.

Pure: no I/O.
"""

from __future__ import annotations

import textwrap
from html import escape
from typing import Final

from ..engine.seats import SEATS, TEAMS, Seat, Team, next_seat
from ..log.inert import inert_value
from .locales import DEFAULT_LANGUAGE, catalogue
from .text import contract_sentence, moment_text, observer_label, trick_caption
from .visibility import View

__all__ = ["render_svg"]

WIDTH: Final = 960
HEIGHT: Final = 760
FELT: Final = "#17603c"
ACCENT: Final = "#ffc928"
TEAM_COLOUR: Final = {"A+C": "#1f5fbf", "B+D": "#b3261e"}
#: Pip places in a half (a unit square), per number 0–6.
_PIPS: Final[dict[int, tuple[tuple[float, float], ...]]] = {
    0: (),
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.24), (0.73, 0.24), (0.27, 0.5), (0.73, 0.5), (0.27, 0.76), (0.73, 0.76)),
}


def _text(value: str) -> str:
    """Log text as SVG character data: escaped, controls visible."""
    return escape(inert_value(value), quote=True)


def _halves(name: str) -> tuple[int, int]:
    """``"[0|5]"`` → (0, 5)."""
    low, high = name.strip("[]").split("|")
    return int(low), int(high)


def _domino(
    x: float, y: float, u: float, name: str | None, *, lying: bool = True, ring: bool = False
) -> str:
    """A domino at (x, y): ``u`` across and ``2u`` long, lying or standing; ``name``
    None: face down. Pips are a fifth of ``u`` across."""
    w, h = (2 * u, u) if lying else (u, 2 * u)
    r = u * 0.14
    if name is None:
        return (
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="{r:.1f}" '
            'fill="#7a4b2a" stroke="#3a2414" stroke-width="1.5"/>'
        )
    stroke = (
        f'stroke="{ACCENT}" stroke-width="3"' if ring else 'stroke="#2b2b2b" stroke-width="1.5"'
    )
    parts = [
        f'<g><title>{escape(name)}</title><rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" '
        f'height="{h:.1f}" '
        f'rx="{r:.1f}" fill="#fffdf4" {stroke}/>'
    ]
    if lying:
        parts.append(
            f'<line x1="{x + u:.1f}" y1="{y + 0.1 * u:.1f}" x2="{x + u:.1f}" '
            f'y2="{y + 0.9 * u:.1f}" stroke="#2b2b2b"/>'
        )
    else:
        parts.append(
            f'<line x1="{x + 0.1 * u:.1f}" y1="{y + u:.1f}" x2="{x + 0.9 * u:.1f}" '
            f'y2="{y + u:.1f}" stroke="#2b2b2b"/>'
        )
    for k, number in enumerate(_halves(name)):
        ox, oy = (x + k * u, y) if lying else (x, y + k * u)
        for px, py in _PIPS[number]:
            parts.append(
                f'<circle cx="{ox + px * u:.1f}" cy="{oy + py * u:.1f}" r="{u * 0.1:.1f}" '
                'fill="#1b1b1b"/>'
            )
    parts.append("</g>")
    return "".join(parts)


def _label(
    x: float,
    y: float,
    text: str,
    *,
    size: float = 14,
    anchor: str = "middle",
    weight: str = "normal",
    fill: str = "#ffffff",
) -> str:
    """``text`` is SVG character data already (escaped)."""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:g}" text-anchor="{anchor}" '
        f'font-weight="{weight}" '
        f'fill="{fill}" font-family="DejaVu Sans, Verdana, sans-serif">{text}</text>'
    )


def _lines(
    x: float,
    y: float,
    text: str,
    width: int,
    *,
    size: float = 13,
    step: float = 16,
    weight: str = "normal",
    fill: str = "#1b1b1b",
) -> tuple[str, float]:
    """Plain ``text`` wrapped at ``width`` characters (never inside a tile) from (x, y):
    the SVG and the y under the last line."""
    out = []
    for line in textwrap.wrap(text, width, break_long_words=True, break_on_hyphens=False) or [""]:
        out.append(_label(x, y, escape(line), size=size, anchor="start", weight=weight, fill=fill))
        y += step
    return "".join(out), y


def _seat_name(view: View, seat: Seat) -> str:
    name = view.players.get(seat)
    if not name:
        return seat
    shown = inert_value(name)
    if len(shown) > 24:
        shown = shown[:23] + "…"
    return (
        f'{seat} · <tspan style="unicode-bidi:isolate" '
        f'direction="ltr">{escape(shown, quote=True)}</tspan>'
    )


def render_svg(view: View, lang: str = DEFAULT_LANGUAGE) -> str:
    """The board of ``view`` in ``lang`` as a self-contained SVG document."""
    m = catalogue(lang)
    bottom: Seat = view.observer if view.observer in SEATS else "A"
    around = {
        bottom: "bottom",
        next_seat(bottom): "left",
        next_seat(bottom, 2): "top",
        next_seat(bottom, 3): "right",
    }
    header = (
        m["ui.hand_n"].format(number=view.hand)
        + " · "
        + moment_text(view, lang)
        + " · "
        + observer_label(view, lang)
    )
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" '
        f'height="{HEIGHT}" '
        f'role="img" aria-label="{escape(m["ui.title"])}">',
        f"<title>{escape(header)}</title>",
        f'<rect width="{WIDTH}" height="{HEIGHT}" rx="14" fill="{FELT}"/>',
        f'<rect width="{WIDTH}" height="34" rx="14" fill="#0f4529"/>',
        _label(WIDTH / 2, 23, escape(header), size=15, weight="bold"),
    ]
    out.append(_score(view, lang))
    out.append(_auction(view, lang))
    for seat, side in around.items():
        out.append(_hand(view, seat, side, lang))
    out.append(_trick(view, around, lang))
    out.append(_won(view, lang))
    out.append("</svg>")
    return "".join(out)


def _score(view: View, lang: str) -> str:
    m = catalogue(lang)
    contract = contract_sentence(view, lang)
    x, y, w = 14.0, 46.0, 300.0
    body, yy = _lines(x + 10, y + 40, contract, 34, weight="bold")
    rows: list[tuple[str, dict[Team, int] | None]] = [
        (
            m["ui.score_points"] if view.score_unit == "points" else m["ui.score_marks"],
            dict(view.marks),
        )
    ]
    if view.contract is not None and view.moment not in ("call", "auction"):
        rows.append((m["ui.hand_points"], None if view.points is None else dict(view.points)))
        rows.append((m["ui.tricks"], dict(view.tricks_won)))
    cells = [
        _label(x + 205, yy + 4, "A+C", size=13, weight="bold", fill=TEAM_COLOUR["A+C"]),
        _label(x + 262, yy + 4, "B+D", size=13, weight="bold", fill=TEAM_COLOUR["B+D"]),
    ]
    yy += 22
    for name, values in rows:
        cells.append(_label(x + 10, yy, escape(name), size=13, anchor="start", fill="#1b1b1b"))
        for k, t in enumerate(TEAMS):
            shown = m["ui.points_covered"] if values is None else str(values[t])
            cells.append(
                _label(
                    x + 205 + 57 * k, yy, escape(shown), size=12, weight="bold", fill=TEAM_COLOUR[t]
                )
            )
        yy += 19
    h = yy - y
    return "".join(
        [
            f'<rect x="{x}" y="{y}" width="{w}" height="{h:.1f}" rx="8" fill="#ffffff" '
            'opacity="0.96"/>',
            _label(
                x + 10,
                y + 20,
                escape(m["ui.score"].upper()),
                size=12,
                anchor="start",
                weight="bold",
                fill="#5b5b5b",
            ),
            body,
            *cells,
        ]
    )


def _auction(view: View, lang: str) -> str:
    m = catalogue(lang)
    x, y, w = WIDTH - 314.0, 46.0, 300.0
    order = [next_seat(view.dealer, k) for k in range(1, 5)]
    col_w = (w - 20) / 4
    parts = [
        _label(
            x + 10,
            y + 20,
            escape(m["ui.auction"].upper()),
            size=12,
            anchor="start",
            weight="bold",
            fill="#5b5b5b",
        )
    ]
    for k, s in enumerate(order):
        team = "A+C" if s in ("A", "C") else "B+D"
        parts.append(
            _label(
                x + 10 + col_w * (k + 0.5),
                y + 40,
                s,
                size=13,
                weight="bold",
                fill=TEAM_COLOUR[team],
            )
        )
        if s == view.dealer:
            parts.append(
                _label(
                    x + 10 + col_w * (k + 0.5),
                    y + 53,
                    escape(m["ui.dealer"]),
                    size=10,
                    fill="#5b5b5b",
                )
            )
    winning = -1
    if view.contract is not None:
        for i, (s, kind, _, _) in enumerate(view.auction):
            if s == view.contract.bidder and kind != "pass":
                winning = i
    row, col = -1, 4
    for i, (s, kind, bid, special) in enumerate(view.auction):
        k = order.index(s)
        if row < 0 or k <= col:
            row += 1
        col = k
        if kind == "pass":
            text = m["ui.pass"]
        elif special:
            text = f"{special.capitalize()} {bid}"
        elif kind == "marks":
            text = (m["ui.bid_mark"] if bid == 1 else m["ui.bid_marks"]).format(bid=bid)
        else:
            text = str(bid)
        cx, cy = x + 10 + col_w * (k + 0.5), y + 76 + 22 * row
        if i == winning:
            parts.append(
                f'<rect x="{cx - col_w / 2 + 3:.1f}" y="{cy - 15:.1f}" width="{col_w - 6:.1f}" '
                'height="20" '
                f'rx="4" fill="{ACCENT}"/>'
            )
        parts.append(
            _label(
                cx,
                cy,
                escape(text),
                size=13,
                weight="bold",
                fill="#2d7a3a" if kind == "pass" else "#1b1b1b",
            )
        )
    if not view.auction:
        parts.append(
            _label(
                x + 10, y + 76, escape(m["ui.no_calls"]), size=13, anchor="start", fill="#5b5b5b"
            )
        )
    h = 76 + 22 * max(row, 0) + 14
    return (
        f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="8" fill="#ffffff" opacity="0.96"/>'
        + "".join(parts)
    )


def _hand(view: View, seat: Seat, side: str, lang: str) -> str:
    m = catalogue(lang)
    faces = list(view.hands.get(seat, ()))
    tiles: list[str | None] = [*faces, *([None] * view.hidden.get(seat, 0))]
    u = 34.0 if side == "bottom" else 24.0
    per_row = 7 if side in ("bottom", "top") else 4
    gap = 5.0
    rows = max(1, -(-len(tiles) // per_row))
    width = min(len(tiles), per_row) * (u + gap) - gap if tiles else 0
    if side == "bottom":
        cx, y = WIDTH / 2, 528.0
    elif side == "top":
        cx, y = WIDTH / 2, 88.0
    elif side == "left":
        cx, y = 130.0, 270.0
    else:
        cx, y = WIDTH - 130.0, 270.0
    turn = view.to_play == seat and not view.over
    label = _seat_name(view, seat) + f" ({view.counts[seat]})"
    if view.sits_out == seat:
        label += " — " + escape(m["ui.sits_out"])
    parts = []
    words = 0
    if turn:
        word = m["ui.to_call"] if view.moment in ("call", "auction") else m["ui.to_play"]
        words = len(word) + 5
    box_w = min(
        max(width, 150.0, 9.0 * (len(inert_value(view.players.get(seat, ""))[:24]) + 8 + words))
        + 20,
        300.0,
    )
    box_h = 26 + rows * (2 * u + gap) + 6
    if turn:
        parts.append(
            f'<rect x="{cx - box_w / 2:.1f}" y="{y - 4:.1f}" width="{box_w:.1f}" '
            f'height="{box_h:.1f}" rx="10" '
            f'fill="{ACCENT}" fill-opacity="0.18" stroke="{ACCENT}" stroke-width="3"/>'
        )
        label = "▶ " + label + " · " + escape(word)
    parts.append(
        _label(cx, y + 16, label, size=15, weight="bold", fill=ACCENT if turn else "#ffffff")
    )
    x0 = cx - width / 2
    for i, t in enumerate(tiles):
        r, c = divmod(i, per_row)
        parts.append(_domino(x0 + c * (u + gap), y + 26 + r * (2 * u + gap), u, t, lying=False))
    return "".join(parts)


def _trick(view: View, around: dict[Seat, str], lang: str) -> str:
    m = catalogue(lang)
    t = view.trick
    cx, cy = WIDTH / 2, 350.0
    u = 32.0
    parts = [_label(cx, 236, escape(m["ui.current_trick"]), size=13, fill="#dfeee4")]
    if t is None:
        return "".join(parts)
    spot = {
        "bottom": (cx - u, cy + 36),
        "top": (cx - u, cy - 36 - u),
        "left": (cx - 110 - u, cy - u),
        "right": (cx + 110, cy - u),
    }
    for p in t.plays:
        side = around[p.seat]
        lying = side in ("top", "bottom")
        x, y = spot[side]
        parts.append(_domino(x, y, u, p.tile, lying=lying, ring=t.winner == p.seat))
        bx, by = (x - 16, y + u / 2) if lying else (x + u / 2, y - 12)
        parts.append(f'<circle cx="{bx:.1f}" cy="{by:.1f}" r="10" fill="{ACCENT}"/>')
        parts.append(_label(bx, by + 5, str(p.order), size=13, weight="bold", fill="#000000"))
    caption_text = trick_caption(view, lang)
    if caption_text is not None:
        caption = escape(caption_text)
        parts.append(
            f'<rect x="{cx - 160}" y="{cy + 84}" width="320" height="26" rx="5" fill="#000000" '
            'opacity="0.35"/>'
        )
        parts.append(_label(cx, cy + 102, caption, size=14))
    return "".join(parts)


def _won(view: View, lang: str) -> str:
    m = catalogue(lang)
    x0, y = 14.0, 634.0
    parts = [
        f'<rect x="{x0}" y="{y}" width="{WIDTH - 28}" height="{HEIGHT - y - 12}" rx="8" '
        'fill="#ffffff" opacity="0.96"/>',
        _label(
            x0 + 10,
            y + 18,
            escape(m["ui.won"]),
            size=13,
            anchor="start",
            weight="bold",
            fill="#1b1b1b",
        ),
        _label(x0 + 10, y + 34, escape(m["ui.legend"]), size=11, anchor="start", fill="#5b5b5b"),
    ]
    if not view.won:
        parts.append(
            _label(x0 + 10, y + 64, escape(m["ui.no_won"]), size=13, anchor="start", fill="#5b5b5b")
        )
        return "".join(parts)
    u = 17.0
    block = 2 * (2 * u + 4) + 22  # a trick's four faces in two rows of two
    for k, w in enumerate(view.won):
        bx = x0 + 10 + k * block
        team = w.team.replace("+", " + ")
        parts.append(
            _label(
                bx,
                y + 54,
                escape(m["ui.won_label"].format(number=w.number, team=team)),
                size=11,
                anchor="start",
                weight="bold",
                fill=TEAM_COLOUR[w.team],
            )
        )
        if w.faces is None:
            for j in range(4):  # a covered trick: a stack of four tiles face down
                parts.append(_domino(bx + 4 * j, y + 78 - 4 * j, u, None))
        else:
            faces = [p.tile for p in w.plays] if w.plays else list(w.faces)
            for j, face in enumerate(faces):
                r, c = divmod(j, 2)
                parts.append(_domino(bx + c * (2 * u + 4), y + 62 + r * (u + 4), u, face))
    return "".join(parts)


def _view_repr_svg(view: View) -> str:
    return render_svg(view)


# Notebooks: a View shows itself as its board. The views module is the visibility
# boundary and knows no renderer, so the display hook is attached from here (the
# package imports this module with :mod:`.game`).
View._repr_svg_ = _view_repr_svg  # type: ignore[attr-defined]
