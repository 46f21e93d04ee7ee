"""mk5 share links → matches: the tokens replayed by our engine (docs/conversions.md).

A link holds the whole game so far: the deal's seed (of the *current* deal) or the
first deal's hands, the seats' kinds, the layers (rules), and every action — the
players' bids, trumps and plays, each seat's agreements, and the steps mk5 takes by
itself (a redeal, a trick completed, a hand scored). This module walks those tokens
with the engine under the preset ``mk5`` with the link's layers: each token must be
what the game allows at that moment, a step must come exactly where mk5 takes it,
and a ``~?`` (an action mk5 cannot write: a Plunge, a Splash, a 4-mark bid, Nel-O,
Sevens) is every unwritable action the game allows there — each reading followed to
the end of the link. One consistent reading gives the match; none, the error of the
reading that went furthest; two or more, a refusal naming them.

What the format has no field for is kept in the match's ``x-mk5`` extension (the
seed, the seats' kinds, theme, layers, the agreements' order where it is not the
seats', the steps after the last action), so the same link can be written back.
Pure: no I/O.
"""

from __future__ import annotations

from typing import Any

from ..notation import ParsedMatch
from . import ForeignFormatError, attach_comments, read_comments_line, settle
from .mk5 import (
    LAYER_CODES,
    SEED_STEP,
    Link,
    decode_hands,
    parse_link,
    seed_value,
)
from .mk5_branch import EXT, FORMAT, MAX_READINGS, Branch, canonical_steps, humans_of, link_rules

__all__ = ["FORMAT", "EXT", "read_links", "link_rules", "canonical_steps", "humans_of", "Branch"]


def _layers(link: Link) -> list[str]:
    raw = link.params.get("l", ("", 0))[0]
    return [c for c in raw.split(",") if c]


def _deal_changes(link: Link) -> tuple[int, int]:
    """How many new deals came before the deal in play (from ``d=`` and the tokens),
    and the column of ``d=``: the actions record N = #B + #4 changes, less one when the
    last 4 ended the match, and the dealer moved on once for each."""
    line = link.line
    n = sum(1 for t in link.tokens if t.kind in ("redeal", "score"))
    dealer, col = 3, link.params["a"][1] if "a" in link.params else 1
    if "d" in link.params:
        dtext, col = link.params["d"]
        if dtext not in ("0", "1", "2", "3"):
            raise ForeignFormatError(f"d= is the dealer, 0–3, not {dtext!r}", line, col)
        dealer = int(dtext)
    fits = [k for k in (n, n - 1) if k >= 0 and (3 + k) % 4 == dealer]
    if not fits:
        raise ForeignFormatError(
            f"d={dealer} is not the dealer after the {n} new deals the actions record "
            f"(mk5's first dealer is 3, and each new deal moves the deal on)",
            line,
            col,
        )
    return fits[0], col


def _start(
    link: Link, changes: int, warnings: list[dict[str, Any]]
) -> tuple[Branch, dict[str, Any]]:
    """The reading before the first token (``changes``: the new deals before the deal in
    play, :func:`_deal_changes`), and the link's ``x-mk5``."""
    line = link.line
    ext: dict[str, Any] = {}
    if link.address:
        ext["address"] = link.address
    players = "haaa"
    if "p" in link.params:
        players, col = link.params["p"]
        if len(players) != 4:
            raise ForeignFormatError(
                f"p= is 4 characters, one a seat (h human, a computer), not {len(players)}",
                line,
                col,
            )
        ext["players"] = players
    if link.dropped:
        names = ", ".join(repr(n) for n in link.dropped[:5]) + (
            " …" if len(link.dropped) > 5 else ""
        )
        warnings.append(
            {
                "text": f"the link's parameters {names} are not mk5's; mk5 ignores them, and they "
                "are "
                "not kept"
            }
        )
    layers = _layers(link)
    unknown = [c for c in layers if c not in LAYER_CODES]
    if unknown:
        warnings.append(
            {
                "text": f"the layer codes {', '.join(unknown)} of l= are not mk5's; mk5 drops "
                "them, and so "
                "does this reading"
            }
        )
    known = [c for c in layers if c in LAYER_CODES]
    if "l" in link.params:
        ext["layers"] = link.params["l"][0]
    rules, _ = link_rules(known)
    for name, key in (("t", "theme"), ("v", "colors"), ("h", "section")):
        if name in link.params:
            ext[key] = link.params[name][0]
    branch = Branch(rules, humans_of(players), None, one_hand="o" in known)
    if "i" in link.params:
        text, col = link.params["i"]
        hands = decode_hands(text, line, col)
        ext["deal"] = "hands"
        if "s" in link.params:
            warnings.append(
                {"text": "the link has both i= and s=; mk5 deals from i= and ignores s="}
            )
        warnings.append(
            {
                "text": "an i= link holds the first deal only; later deals come from seed 0 and "
                "on, as mk5's "
                "replay deals them (the app itself dealt them from the clock)"
            }
        )
        branch.seed = 0
        branch.new_deal(hands)
    else:
        text, col = link.params.get("s", ("0", 0))
        current = seed_value(text, line, col) if "s" in link.params else 0
        # s= and d= are the current deal's; the first deal was that many changes before.
        first = current - SEED_STEP * changes
        if first < 0:
            raise ForeignFormatError(
                f"s= is {current:,}, and the {changes} new deals before it would make the first "
                "deal's seed negative "
                f"(the seed grows by {SEED_STEP:,} a deal)",
                line,
                col,
            )
        ext["deal"] = "seed"
        ext["seed"] = first
        branch.seed = first
        branch.new_deal()
    return branch, ext


def _walk(link: Link, branch: Branch) -> list[Branch]:
    live = [branch]
    best: tuple[int, ForeignFormatError] | None = None
    for index, tok in enumerate(link.tokens):
        nxt: list[Branch] = []
        for b in live:
            try:
                nxt.extend(b.step(index, tok, link.line))
            except ForeignFormatError as e:
                if best is None or index > best[0]:
                    best = (index, e)
        if not nxt:
            assert best is not None
            raise best[1]
        if len(nxt) > MAX_READINGS:
            raise ForeignFormatError(
                f"{tok.describe()}: the link's ~? tokens read more than {MAX_READINGS} ways here",
                link.line,
                tok.column,
            )
        live = nxt
    return live


def _ambiguity(link: Link, readings: list[Branch]) -> ForeignFormatError:
    """The refusal of a link that reads more than one way: the first ~? whose readings
    differ, and each of them."""
    depth = min(len(b.readings) for b in readings)
    for k in range(depth + 1):
        choices = list(dict.fromkeys(b.readings[k] for b in readings if k < len(b.readings)))
        if len(choices) > 1 or k == depth:
            break
    index = choices[0][0]
    tok = link.tokens[index]
    words = [w for _, w in choices]
    named = ", ".join(words[:-1]) + f" or {words[-1]}" if len(words) > 1 else words[0]
    count = "two" if len(readings) == 2 else str(len(readings))
    return ForeignFormatError(
        f"{tok.describe()} reads {count} ways, each consistent to the end of the link — {named}; "
        "mk5 writes "
        "'~?' for any of them, so the link does not say which, and it is not read",
        link.line,
        tok.column,
    )


def read_link(line: str, ln: int, col: int) -> ParsedMatch:
    """One link → one match."""
    link = parse_link(line, ln, col)
    warnings: list[dict[str, Any]] = []
    changes, dcol = _deal_changes(link)
    branch, ext = _start(link, changes, warnings)
    readings = _walk(link, branch)
    # d= tells whether the last 4 ended the match: a reading must reach that deal.
    fit = [b for b in readings if len(b.hands) == changes + 1]
    if not fit:
        reached = len(readings[0].hands)
        raise ForeignFormatError(
            f"d= says the link was taken in deal {changes + 1}, but its actions reach deal "
            f"{reached} "
            f"(the last 4 {'did not end' if reached > changes + 1 else 'ended'} the match)",
            ln,
            dcol,
        )
    readings = fit
    if len(readings) > 1:
        raise _ambiguity(link, readings)
    (b,) = readings
    for index, words in b.readings:
        tok = link.tokens[index]
        b.at[f"/source/warnings/{len(warnings)}"] = (ln, tok.column)
        warnings.append(
            {
                "text": f"the '~?' at column {tok.column} is read as: {words} — the one action the "
                "game allows there that mk5 cannot write"
            }
        )
    ext |= _steps_ext(b)
    _, options = link_rules([c for c in _layers(link) if c in LAYER_CODES])
    doc: dict[str, Any] = {
        "format": "texas42-log",
        "version": "1.5",
        "rules": {"preset": "mk5", "options": options},
        "first_dealer": "D",
        "status": "unfinished",
        "hands": b.hands,
        "source": {"format": FORMAT, "warnings": warnings},
        EXT: ext,
    }
    settle(doc)
    at = dict(b.at)
    at.setdefault("", (ln, col))
    for k in range(len(b.hands)):
        at.setdefault(f"/hands/{k}", (ln, col))
    return ParsedMatch(doc, at, ln)


def _steps_ext(b: Branch) -> dict[str, Any]:
    """The steps that differ from what mk5 writes by itself, and those after the last action."""
    out: dict[str, Any] = {}
    odd = {
        str(k + 1): s
        for k, s in enumerate(b.steps[:-1])
        if s != canonical_steps(b.humans, b.events[k])
    }
    if odd:
        out["steps"] = odd
    out["tail"] = b.steps[-1] if b.steps else ""
    return out


def read_links(text: str) -> list[ParsedMatch]:
    """A file of links, one a line (blank lines and ``#`` comments skipped) → a match each."""
    out: list[ParsedMatch] = []
    lines = text.lstrip("\ufeff").split("\n")
    # A browser's saved shortcut (.url): an [InternetShortcut] section whose URL= line is the link.
    shortcut = next((x.strip().lower() for x in lines if x.strip()), "") == "[internetshortcut]"
    for ln, raw in enumerate(lines, start=1):
        line = raw.strip()
        if shortcut:
            if not line[:4].upper() == "URL=":
                continue
            raw = raw.replace(line[:4], "    ", 1)
            line = line[4:].strip()
        found = read_comments_line(line, ln)
        if found is not None:
            if out:
                attach_comments(out[-1].doc, found)
            continue
        if not line or line.startswith("#"):
            continue
        out.append(read_link(line, ln, raw.index(line) + 1))
    if not out:
        raise ForeignFormatError("no mk5 link (a line with ?s=, ?i= or a=)", 1, 1)
    return out
