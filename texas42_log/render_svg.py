"""One moment as a picture: an SVG board drawn from a :class:`~texas42_log.views.View` alone.

For notebooks (``View._repr_svg_``, ``Game._repr_svg_``) and anywhere a static
picture of a moment is wanted. Like every renderer it draws the view object and
nothing else (DESIGN.md), so it can show no tile the observer may not see:
a hidden tile is a face-down domino, a covered trick a face-down stack.

The observer's seat sits at the bottom (A for the public, review and omniscient
observers), the others clockwise: left, top (the partner), right. Text from the
log (players' names) is escaped, its control characters made visible, and set
in its own bidi isolate, so it can neither make markup nor reorder the board.

Pure: no I/O.
"""

from __future__ import annotations

from html import escape
from typing import Final

from .inert import inert_value
from .seats import SEATS, TEAMS, Seat, next_seat
from .views import View

__all__ = ["render_svg"]

WIDTH: Final = 720
HEIGHT: Final = 540
#: Pip positions in a unit square, per number 0–6.
_PIPS: Final[dict[int, tuple[tuple[float, float], ...]]] = {
    0: (),
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.22), (0.75, 0.22), (0.25, 0.5), (0.75, 0.5), (0.25, 0.78), (0.75, 0.78)),
}


def _text(value: str) -> str:
    """Log text as SVG character data: escaped, controls visible."""
    return escape(inert_value(value), quote=True)


def _halves(name: str) -> tuple[int, int]:
    """``"[0|5]"`` → (0, 5)."""
    low, high = name.strip("[]").split("|")
    return int(low), int(high)


def _domino(x: float, y: float, size: float, name: str | None, *, vertical: bool = False) -> str:
    """A domino ``2·size`` long at (x, y); ``name`` None: face down."""
    w, h = (size, 2 * size) if vertical else (2 * size, size)
    if name is None:
        return (f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="{size * 0.15:.1f}" '
                'fill="#3d5a80" stroke="#1d2d44"/>')
    parts = [f'<g><title>{escape(name)}</title><rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" '
             f'rx="{size * 0.15:.1f}" fill="#fffdf6" stroke="#222"/>']
    if vertical:
        parts.append(f'<line x1="{x + 2:.1f}" y1="{y + size:.1f}" x2="{x + w - 2:.1f}" y2="{y + size:.1f}" stroke="#222"/>')
    else:
        parts.append(f'<line x1="{x + size:.1f}" y1="{y + 2:.1f}" x2="{x + size:.1f}" y2="{y + h - 2:.1f}" stroke="#222"/>')
    r = max(size * 0.09, 1.2)
    for k, number in enumerate(_halves(name)):
        ox, oy = (x, y + k * size) if vertical else (x + k * size, y)
        for px, py in _PIPS[number]:
            parts.append(f'<circle cx="{ox + px * size:.1f}" cy="{oy + py * size:.1f}" r="{r:.1f}" fill="#222"/>')
    parts.append("</g>")
    return "".join(parts)


def _label(x: float, y: float, text: str, *, size: int = 14, anchor: str = "middle", weight: str = "normal",
           fill: str = "#111") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" font-weight="{weight}" '
            f'fill="{fill}" font-family="sans-serif">{text}</text>')


def _seat_name(view: View, seat: Seat) -> str:
    name = view.players.get(seat)
    if not name:
        return seat
    return f'{seat} · <tspan style="unicode-bidi:isolate">{_text(name)}</tspan>'


def render_svg(view: View) -> str:
    """The board of ``view`` as a self-contained SVG document (no script, no external reference)."""
    bottom: Seat = view.observer if view.observer in SEATS else "A"
    around = {bottom: "bottom", next_seat(bottom): "left", next_seat(bottom, 2): "top", next_seat(bottom, 3): "right"}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" '
           'role="img" aria-label="Texas 42 board">',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#2f6b3f"/>']
    for seat, side in around.items():
        out.append(_hand(view, seat, side))
    out.append(_trick(view, around))
    out.append(_info(view))
    out.append(_won(view))
    out.append("</svg>")
    return "".join(out)


def _hand(view: View, seat: Seat, side: str) -> str:
    faces = list(view.hands.get(seat, ()))
    tiles: list[str | None] = [*faces, *([None] * view.hidden.get(seat, 0))]
    mine = side == "bottom" and view.observer == seat
    size = 26.0 if mine else 16.0
    parts: list[str] = []
    turn = view.to_play == seat
    name = _seat_name(view, seat)
    if view.sits_out == seat:
        name += " (sits out)"
    colour = "#ffd166" if turn else "#f4f4f4"
    weight = "bold" if turn else "normal"
    marker = "▶ " if turn else ""
    vertical = side in ("left", "right")
    n = len(tiles)
    if side in ("bottom", "top"):
        span = n * (2 * size + 4)
        x0 = (WIDTH - span) / 2
        y = HEIGHT - size - 14 if side == "bottom" else 150
        for k, t in enumerate(tiles):
            parts.append(_domino(x0 + k * (2 * size + 4), y, size, t))
        ly = y - 8
        parts.append(_label(WIDTH / 2, ly, marker + name, weight=weight, fill=colour))
    else:
        span = n * (2 * size + 3)
        y0 = (HEIGHT - span) / 2
        x = 18 if side == "left" else WIDTH - size - 18
        for k, t in enumerate(tiles):
            parts.append(_domino(x, y0 + k * (2 * size + 3), size, t, vertical=True))
        lx = 18 if side == "left" else WIDTH - 18
        parts.append(_label(lx, y0 - 10, marker + name, anchor="start" if side == "left" else "end", weight=weight,
                            fill=colour))
    return "".join(parts)


def _trick(view: View, around: dict[Seat, str]) -> str:
    t = view.trick
    if t is None:
        return ""
    size = 24.0
    cx, cy = WIDTH / 2, HEIGHT / 2 + 10
    spot = {"bottom": (cx - size, cy + 18), "top": (cx - size, cy - 18 - size),
            "left": (cx - 2 * size - 60, cy - size / 2), "right": (cx + 60, cy - size / 2)}
    parts = []
    for p in t.plays:
        x, y = spot[around[p.seat]]
        parts.append(_domino(x, y, size, p.tile))
        parts.append(_label(x + size, y + size + 13 if around[p.seat] != "top" else y - 4, f"{p.order}", size=11,
                            fill="#e8f5e9"))
    caption = f"trick {t.number}"
    if t.winner is not None:
        caption += f" · won by {t.winner} · {t.points} points"
    parts.append(_label(cx, cy - 70, caption, size=12, fill="#e8f5e9"))
    return "".join(parts)


def _info(view: View) -> str:
    lines = [f"hand {view.hand} · dealer {view.dealer}"]
    c = view.contract
    if c is not None:
        bid = f"{c.bid}" if c.kind == "points" else f"{c.bid} mark{'s' if c.bid != 1 else ''}"
        what = f"{c.bidder} bid {bid}"
        if c.special:
            what += f" ({c.special})"
        if c.trump is not None:
            what += f" · trumps {c.trump}"
        lines.append(what)
    elif view.auction:
        lines.append("auction: " + ", ".join(
            f"{s} {k if b is None else b}{'m' if k == 'marks' else ''}" for s, k, b, _ in view.auction))
    unit = view.score_unit
    lines.append(f"{unit}: " + " · ".join(f"{t} {view.marks[t]}" for t in TEAMS))
    tricks = " · ".join(f"{t} {view.tricks_won.get(t, 0)}" for t in TEAMS)
    lines.append(f"tricks: {tricks}")
    if view.points is not None:
        lines.append("hand points: " + " · ".join(f"{t} {view.points[t]}" for t in TEAMS))
    if view.result is not None:
        lines.append(f"result: {view.result}")
    elif view.to_play is not None:
        lines.append(f"{view.to_play} to play")
    lines.append(f"as seen by {view.observer}")
    parts = [f'<rect x="6" y="6" width="200" height="{17 * len(lines) + 8}" rx="6" fill="#1b4028" opacity="0.9"/>']
    for k, line in enumerate(lines):
        parts.append(_label(12, 22 + 17 * k, escape(line), size=12, anchor="start", fill="#f4f4f4"))
    return "".join(parts)


def _won(view: View) -> str:
    if not view.won:
        return ""
    size = 9.0
    x0, y = WIDTH - 215, 22.0
    parts = [_label(x0, y - 6, "won tricks", size=11, anchor="start", fill="#e8f5e9")]
    for k, w in enumerate(view.won):
        yy = y + k * (size + 4)
        parts.append(_label(x0, yy + size, f"{w.number} · {w.team}", size=10, anchor="start", fill="#e8f5e9"))
        if w.faces is None:
            for j in range(3):
                parts.append(_domino(x0 + 70 + j * 3, yy - j * 1.5, size, None))
        else:
            for j, face in enumerate(w.faces):
                parts.append(_domino(x0 + 70 + j * (2 * size + 3), yy, size, face))
    return "".join(parts)


def _view_repr_svg(view: View) -> str:
    return render_svg(view)


# Notebooks: a View shows itself as its board. The views module is the visibility
# boundary and knows no renderer, so the display hook is attached from here (the
# package imports this module with :mod:`.game`).
setattr(View, "_repr_svg_", _view_repr_svg)
