"""One self-contained HTML file that steps through a match as one observer saw it.

The page is the app in ``viewer/`` (HTML, CSS, vanilla JS; installed as
``texas42_log.viewer``) with the views of one observer inlined as JSON — the
views and their texts, never the deal — so it works from ``file://`` with no
network. A Content-Security-Policy allows only this file's own script and
style (by hash) and images from ``data:``; no outside resource can load.
Log text (player names, annotations) reaches the page only inside the JSON
block, escaped for HTML, and the script only ever sets it as ``textContent``,
each string inside its own ``<bdi>`` (bidi isolated: a U+202E in a name cannot
reorder the text around it). Each such string is in the page once, in the
table ``strings``; the views and their texts refer to it by a token
(``\ue000N\ue001``, private-use characters no log string can forge: they are
replaced in log strings), so a long name or note does not repeat in every
moment. Only strings the observer's views show are in the table. Each comment is in
the page once too, in the table ``notes`` (its fields and its line of text); a moment's
view lists the comments it shows as runs of that table, ``[first, count]`` each (the
comments of a moment stand together there), and ``notes_at`` says where in the moment's
lines they go — so a comment on the match is not repeated at every moment. The table
groups the comments of one target, so what they share (what they are on) is said once.

Output is deterministic: the same log, observer and language give the same bytes
(the leak tests compare pages byte for byte).
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from .._version import __version__
from ..log.broken import Broken
from ..log.model import Match
from .locales import DEFAULT_LANGUAGE, catalogue
from .text import (
    analysis_lines,
    contract_sentence,
    description_parts,
    fair_lines,
    lines_and_notes_at,
    moment_text,
    observer_label,
    result_line,
    trick_caption,
    trump_name,
)
from .visibility import Observer, View, in_play_hand, match_views

__all__ = ["render_html", "page_data", "sha256_source"]


def sha256_source(text: str) -> str:
    return (
        "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"
    )


def _script_safe_json(data: Any) -> str:
    """JSON that cannot close its <script> element or open a comment or entity."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return (
        text.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def _suit_words(view: View, m: Mapping[str, str]) -> Callable[[str], str]:
    """The score box names the trump in players' words ("Trump: sixes") where the seeds'
    template names a suit by its number ("Trump: 6"), which the description keeps."""
    c = view.contract
    if c is None or c.trump is None or not c.trump.isdigit():
        return lambda text: text
    seed = m["trump"].format(trump=c.trump)
    said = m["trump"].format(trump=m[f"suit.{c.trump}"])
    return lambda text: text.replace(seed, said)


def _entry(view: View, lang: str) -> dict[str, Any]:
    m = catalogue(lang)
    words = _suit_words(view, m)
    lines, notes_at = lines_and_notes_at(view, lang, notes=False)
    parts = description_parts(view, lang)  # the seeds' template: "Trump: 6", kept
    first = 1  # line 0 is the header; the description follows it
    return {
        "view": view.as_dict(notes=False),  # its comments: _shared_notes
        "description": " ".join(parts),  # describe(view)
        "description_lines": list(range(first, first + len(parts))),
        "lines": lines,
        # where the comments' lines go among them (the page's table ``notes``)
        "notes_at": notes_at,
        "moment": m["ui.hand_n"].format(number=view.hand) + " · " + moment_text(view, lang),
        "contract_line": words(contract_sentence(view, lang)),
        "caption": trick_caption(view, lang),
        # The analysis lines of the text (review and omniscient views only hold any).
        "analysis_lines": analysis_lines(view, lang, table=False),
        "analysis_table": _table_rows(view, lang),
        # The fair analysis lines this observer may see (a seat's own plays; review, omniscient).
        "fair_lines": fair_lines(view, lang, now=False),  # the values now: a table on the page
    }


#: A comment's fields in the page's table, in this order (trailing absent ones left off).
NOTE_FIELDS = ("id", "text", "author", "seat", "edited_by")


def _shared_notes(hands: list[dict[str, Any]], views: list[list[View]], lang: str) -> Any:
    """Every comment the moments show, once (module docstring): ``groups`` of the
    comments on one target (``on``, its words ``label``, and each comment's
    :data:`NOTE_FIELDS` as a list), numbered in order across the groups; each moment's
    ``view.notes`` becomes the runs ``[first, count]`` of that numbering it shows; and the
    templates of a comment's line (``{on}``, ``{author}``, ``{text}``)."""
    m = catalogue(lang)
    groups: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    count = 0
    for hand, hand_views in zip(hands, views, strict=True):
        for entry, view in zip(hand["views"], hand_views, strict=True):
            refs: list[list[int]] = []
            for note in view.notes:
                key = note.id or f"{note.on}\x00{note.text}"
                if key not in index:
                    if not groups or groups[-1]["on"] != note.on or groups[-1]["hand"] != view.hand:
                        kind, _, n = note.on.partition(" ")
                        label = m[f"on.{kind}"].format(n=n) if n else m[f"on.{kind}"]
                        groups.append({"on": note.on, "hand": view.hand, "label": label,
                                       "items": []})  # fmt: skip
                    fields = [getattr(note, f) for f in NOTE_FIELDS]
                    while fields[-1] is None:
                        fields.pop()
                    groups[-1]["items"].append(fields)
                    index[key] = count
                    count += 1
                k = index[key]
                if refs and refs[-1][0] + refs[-1][1] == k:
                    refs[-1][1] += 1
                else:
                    refs.append([k, 1])
            entry["view"]["notes"] = refs
    return {"groups": groups, "line": m["note"], "line_by": m["note.by"], "count": count}


def _table_rows(view: View, lang: str) -> list[dict[str, Any]]:
    """The makeable table of a view's analysis as rows: the trump's name in ``lang``,
    the open-hand value with that trump, and whether the contract is made with it."""
    a = view.analysis
    if a is None or not a.table or a.table_makeable is None:
        return []
    m = catalogue(lang)
    return [
        {
            "trump": trump_name(m, t),
            "value": v,
            "makeable": a.table_makeable[t],
        }
        for t, v in a.table.items()
    ]


_OPEN, _CLOSE = "\ue000", "\ue001"
_TOKEN = re.compile("\ue000([0-9]+)\ue001")


def _tokenized(match: Match) -> tuple[Match, list[str]]:
    """``match`` with every player name and comment (text and author) replaced by a
    token, and the strings the tokens stand for."""
    strings: list[str] = []
    index: dict[str, int] = {}

    def token(text: str) -> str:
        text = text.replace(_OPEN, "\ufffd").replace(_CLOSE, "\ufffd")
        k = index.setdefault(text, len(strings))
        if k == len(strings):
            strings.append(text)
        return f"{_OPEN}{k}{_CLOSE}"

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for note in value.get("annotations") or ():
                note["text"] = token(note["text"])
                if note.get("author") is not None:
                    note["author"] = token(note["author"])
            for k, v in value.items():
                if k != "annotations":
                    walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    doc = match.model_dump(mode="json", by_alias=True)
    for seat, name in (doc.get("players") or {}).items():
        if isinstance(name, str) and seat in ("A", "B", "C", "D"):
            doc["players"][seat] = token(name)
    walk(doc)
    return Match.model_validate(doc), strings


def page_data(
    match: Match,
    observer: Observer,
    lang: str = DEFAULT_LANGUAGE,
    broken: dict[int, Broken] | None = None,
) -> dict[str, Any]:
    """Everything the page is given: the observer's views and their texts, UI labels,
    the log strings they show (``strings``, referred to by token), and for a hand that
    breaks a rule its flag (rule id and place only, :mod:`texas42_log.log.broken`)."""
    tokenized, strings = _tokenized(match)
    data = _page_data(tokenized, observer, lang)
    for i, flag in (broken or {}).items():
        if i < len(data["hands"]):
            data["hands"][i]["broken"] = flag.text()
    # Keep only the strings these views show, numbered by first appearance.
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    used: dict[int, int] = {}
    for found in _TOKEN.finditer(text):
        used.setdefault(int(found.group(1)), len(used))
    text = _TOKEN.sub(lambda t: f"{_OPEN}{used[int(t.group(1))]}{_CLOSE}", text)
    out: dict[str, Any] = json.loads(text)
    out["strings"] = [strings[k] for k in used]
    return out


def _page_data(match: Match, observer: Observer, lang: str) -> dict[str, Any]:
    """A review (R29) shows every finished hand; the one still being played is named."""
    m = catalogue(lang)
    hands = match_views(match, observer, finished=observer == "review")
    in_play = in_play_hand(match) if observer == "review" else None
    if not hands and in_play is not None:
        _review_only_after_hand(match, in_play)
    label = observer_label(hands[0][0], lang) if hands and hands[0] else observer
    return {
        "lang": lang,
        "observer": observer,
        "observer_label": label,
        "omniscient": observer == "omniscient",
        "ui": {k[3:]: v for k, v in m.items() if k.startswith("ui.")},
        # a trump in players' words, by the format's name ("6" → "sixes")
        "trumps": {t: trump_name(m, t) for t in (*map(str, range(7)), "doubles", "no-trump")},
        "hands": (built := [_hand(i, views, lang) for i, views in enumerate(hands)]),
        "notes": _shared_notes(built, hands, lang),
        **({"in_play": m["ui.in_play"].format(number=in_play)} if in_play is not None else {}),
    }


def _review_only_after_hand(match: Match, number: int) -> None:
    raise ValueError(
        f"hand {number} is still being played and no hand has ended yet: a review shows a hand "
        "only "
        "after it ends (R29); view it --as public or as a player (A–D)"
    )


def _hand(i: int, views: list[View], lang: str) -> dict[str, Any]:
    """A hand's entries, and its summary for the match page (from its last view)."""
    entries = [_entry(v, lang) for v in views]
    last = views[-1] if views else None
    summary = None
    if last is not None:
        summary = {"contract": entries[-1]["contract_line"], "result": result_line(last, lang)}
    return {"number": i + 1, "views": entries, "summary": summary}


def render_html(
    match: Match,
    observer: Observer,
    lang: str = DEFAULT_LANGUAGE,
    broken: dict[int, Broken] | None = None,
    *,
    assets: Callable[[str], str],
) -> str:
    """The self-contained viewer page for ``observer`` in ``lang``; ``broken`` flags the
    hands of a log that breaks rules (shown up to their first illegal action). ``assets``
    gives the viewer's files by name (:func:`texas42_log.files.assets.viewer_asset`)."""
    m = catalogue(lang)
    script, domino = assets("viewer.js"), assets("domino.js")
    style = assets("viewer.css")
    csp = (
        f"default-src 'none'; script-src {sha256_source(domino)} {sha256_source(script)}; "
        f"style-src {sha256_source(style)}; img-src data:; base-uri 'none'; form-action 'none'"
    )
    data = page_data(match, observer, lang, broken)
    title = m["ui.title"] + " — " + data["observer_label"]
    page = assets("viewer.html")
    # Fill the placeholders in one pass, so text from the log is never re-scanned.
    values = {
        "{{LANG}}": html.escape(lang),
        "{{CSP}}": html.escape(csp),
        "{{VERSION}}": html.escape(__version__),
        "{{TITLE}}": html.escape(title),
        "{{HEADING}}": html.escape(m["ui.title"]),
        "{{STYLE}}": style,
        "{{DOMINO}}": domino,
        "{{SCRIPT}}": script,
        "{{DATA}}": _script_safe_json(data),
    }
    out: list[str] = []
    rest = page
    while True:
        start = rest.find("{{")
        if start < 0:
            out.append(rest)
            break
        end = rest.index("}}", start) + 2
        out.append(rest[:start])
        out.append(values[rest[start:end]])
        rest = rest[end:]
    return "".join(out)
