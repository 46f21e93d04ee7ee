"""The plunge app's replay code and its ``plunge-hand-v2`` record (docs/conversions.md).

A code is one hand: ``v1`` + preset letter + shaker digit + 56 dealt characters
+ ``.`` + action tokens. Import gives a match of that one hand under the preset
``plunge-t``, ``plunge-f``, ``plunge-l`` or ``plunge-c``, marked ``unfinished``
(one hand does not finish a match). Several codes (one per line, or several
records of one game) import as one match when their shakers follow each other.
A record's other fields (ids, times, seats, settings, actions, the score before
the hand) are kept under ``x-plunge-hand-v2`` of the hand and written back as they were.

Export: one code per hand, under one of the four presets' rules exactly (or
``tournament``/``casual``, which are ``t``/``c``). The deal is written in the
log's order (the app sorts; both decode the same).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Callable
from typing import Any

from ...engine.presets import PRESETS
from ..inert import dumps
from ..model import Match
from ..notation import ParsedMatch
from . import (
    INDEX_OF,
    SEAT_OF,
    CannotExport,
    ForeignFormatError,
    attach_comments,
    canonical_tile,
    comments_line,
    high_low,
    json_items,
    read_comments_line,
    settle,
)

#: The longest replay code read: a real one is under 200 characters (61 for the deal,
#: a few per call, 2 per play); anything far longer is refused before it is parsed.
MAX_CODE = 4096
#: What a record's player id may not hold (the app's validator: [A-Za-z0-9_.:-]).
_NOT_ID = re.compile(r"[^A-Za-z0-9_.:-]+", re.ASCII)
#: A computer seat's ``player`` as the app's validator allows it.
_ID = re.compile(r"[A-Za-z0-9_.:-]{1,80}", re.ASCII)
#: What the writer puts for a computer seat the log names no player for.
_PLACEHOLDER = re.compile(r"seat-[1-3]")
#: A code's digits: ASCII only (str.isdigit would take ², ٣ and १).
_DIGITS = frozenset("0123456789")

__all__ = [
    "CODE_FORMAT",
    "RECORD_FORMAT",
    "read_codes",
    "read_records",
    "write_codes",
    "write_records",
    "preset_letter",
]

CODE_FORMAT = "plunge-code"
RECORD_FORMAT = "plunge-hand-v2"
#: Older record shapes carry the same replay code (docs/conversions.md); they are read too,
#: and written back in their own shape.
RECORD_SCHEMAS = (RECORD_FORMAT, "plunge-hand-v1", "plunge-history-v1")
RECORD_EXT = "x-plunge-hand-v2"
LETTERS = {"t": "plunge-t", "f": "plunge-f", "l": "plunge-l", "c": "plunge-c"}


def preset_letter(match: Match) -> str:
    """The code's preset letter for the match's rules, or :class:`CannotExport`."""
    from ..check import effective_rules

    rules = effective_rules(match)
    for letter, preset in LETTERS.items():
        if rules == PRESETS[preset]:
            return letter
    import dataclasses

    def differences(preset: str) -> list[str]:
        other = PRESETS[preset]
        return [
            f"{f.name} {getattr(rules, f.name)!s}, not {getattr(other, f.name)!s}"
            for f in dataclasses.fields(rules)
            if getattr(rules, f.name) != getattr(other, f.name)
        ]

    nearest = min(LETTERS.values(), key=lambda p: len(differences(p)))
    raise CannotExport(
        "a replay code names one of the presets t, f, l, c (plunge-t, plunge-f, plunge-l, "
        "plunge-c); "
        f"this match's rules ({match.rules.preset} with its options) are none of them: the "
        f"nearest, {nearest}, differs in {'; '.join(differences(nearest)[:3])}"
    )


def _deal(
    code: str,
    hp: str,
    at: dict[str, tuple[int, int]],
    place: tuple[int, int],
    bad: Callable[[str, int], ForeignFormatError],
) -> dict[str, list[str]]:
    """The code's 56 dealt characters: seven tile ids a seat, each placed."""
    ln, col = place
    deal: dict[str, list[str]] = {}
    seen: set[str] = set()
    for s in range(4):
        tiles = []
        for j in range(7):
            k = 4 + 14 * s + 2 * j
            hi, lo = code[k], code[k + 1]
            if hi not in "0123456" or lo not in "0123456" or hi < lo:
                raise bad(f"{hi}{lo} is not a tile id (high end first, 0–6)", k)
            tile = canonical_tile(int(hi), int(lo))
            if tile in seen:
                raise bad(f"the tile {hi}{lo} is dealt twice", k)
            seen.add(tile)
            tiles.append(tile)
            at[f"{hp}/deal/{SEAT_OF[s]}/{j}"] = (ln, col + k)
        deal[SEAT_OF[s]] = tiles
    return deal


def _calls(
    code: str,
    k: int,
    hand: dict[str, Any],
    hp: str,
    at: dict[str, tuple[int, int]],
    place: tuple[int, int],
    bad: Callable[[str, int], ForeignFormatError],
) -> tuple[int, int | None, str | None]:
    """The calls from character ``k``: four, from the shaker's left, into ``hand``; the
    character after them, the last bidder's seat and its special contract."""
    ln, col = place
    n = len(code)
    seat = (int(code[3]) + 1) % 4
    high_bidder: int | None = None
    special: str | None = None
    while len(hand["auction"]) < 4 and k < n:
        c = code[k]
        at[f"{hp}/auction/{len(hand['auction'])}"] = (ln, col + k)
        call: dict[str, Any] = {"seat": SEAT_OF[seat]}
        if c == "P":
            call["call"] = "pass"
            k += 1
        elif c in _DIGITS:
            if k + 1 >= n or code[k + 1] not in _DIGITS:
                raise bad("a point bid is two digits", k)
            call |= {"call": "points", "bid": int(code[k : k + 2])}
            k += 2
            high_bidder, special = seat, None
        elif c in "MGSN":
            if k + 1 >= n or code[k + 1] not in _DIGITS:
                raise bad(f"{c} is followed by a digit of marks", k)
            if c == "N":
                raise bad("N (a forced Nel-O bid) needs an all-pass rule no preset has", k)
            call |= {"call": "marks", "bid": int(code[k + 1])}
            if c in "GS":
                call["special"] = "plunge" if c == "G" else "splash"
            k += 2
            high_bidder, special = seat, call.get("special")
        else:
            raise bad(f"{c!r} is not a call (P, two digits, M/G/S and a digit)", k)
        hand["auction"].append(call)
        seat = (seat + 1) % 4
    return k, high_bidder, special


def _hand_from_code(
    code: str, hp: str, at: dict[str, tuple[int, int]], ln: int, col: int
) -> tuple[str, dict[str, Any]]:
    def bad(why: str, k: int) -> ForeignFormatError:
        return ForeignFormatError(f"{why} (character {k + 1} of the code)", ln, col + k)

    if len(code) > MAX_CODE:
        raise ForeignFormatError(
            f"a replay code is at most {MAX_CODE:,} characters, and this one has {len(code):,}",
            ln,
            col,
        )
    if not code.startswith("v1"):
        raise bad("a replay code starts with v1", 0)
    if len(code) < 61:
        raise bad(
            "a replay code has at least 61 characters: v1, preset, shaker, 56 dealt, '.'", len(code)
        )
    letter = code[2]
    if letter not in LETTERS:
        raise bad(f"the preset letter is t, f, l or c, not {letter!r}", 2)
    if code[3] not in "0123":
        raise bad("the shaker is a digit 0–3", 3)
    dealer = SEAT_OF[int(code[3])]
    if code[60] != ".":
        raise bad("the 56 dealt characters end with '.'", 60)
    deal = _deal(code, hp, at, (ln, col), bad)
    hand: dict[str, Any] = {"dealer": dealer, "deal": deal, "auction": [], "plays": []}
    at[hp] = (ln, col)
    n = len(code)
    k, high_bidder, special = _calls(code, 61, hand, hp, at, (ln, col), bad)
    if k < n and high_bidder is not None:
        if code[k] != "D" or k + 1 >= n:
            raise bad("after the calls comes the declaration D and one character", k)
        v = code[k + 1]
        declarer = (high_bidder + 2) % 4 if special in ("plunge", "splash") else high_bidder
        decl: dict[str, Any] = {"seat": SEAT_OF[declarer]}
        if v in "0123456":
            decl["trump"] = v
        elif v == "7":
            decl["trump"] = "doubles"
        elif v == "9":
            decl["trump"] = "no-trump"
        elif v == "n":
            decl["contract"] = "nello"
        elif v == "s":
            decl["contract"] = "sevens"
        else:
            raise bad(f"D{v} is not a declaration (D0–D7, D9, Dn, Ds)", k)
        hand["declaration"] = decl
        at[f"{hp}/declaration"] = (ln, col + k)
        k += 2
        while k < n:
            if k + 1 >= n:
                raise bad("a play is a two-character tile id", k)
            hi, lo = code[k], code[k + 1]
            if hi not in "0123456" or lo not in "0123456" or hi < lo:
                raise bad(f"{hi}{lo} is not a tile id (high end first)", k)
            at[f"{hp}/plays/{len(hand['plays'])}"] = (ln, col + k)
            hand["plays"].append({"tile": canonical_tile(int(hi), int(lo))})
            k += 2
    elif k < n:
        raise bad("nothing may follow four passes (the hand is thrown in)", k)
    return letter, hand


def _match_doc(
    letter: str, hands: list[dict[str, Any]], fmt: str, warnings: list[dict[str, Any]]
) -> dict[str, Any]:
    for hand in hands:
        owner = {t: s for s, tiles in hand["deal"].items() for t in tiles}
        hand["plays"] = [{"seat": owner[p["tile"]], "tile": p["tile"]} for p in hand["plays"]]
        if not hand["plays"]:
            del hand["plays"]
    doc = {
        "format": "texas42-log",
        "version": "1.1",
        "rules": {"preset": LETTERS[letter]},
        "first_dealer": hands[0]["dealer"],
        "status": "unfinished",
        "hands": hands,
        "source": {"format": fmt, "warnings": warnings},
    }
    settle(doc)
    return doc


_ONE_HAND = (
    "a replay code holds one hand and no match score: the match starts from 0–0, and is "
    "complete only if its codes reach the winning marks"
)


def read_codes(text: str) -> ParsedMatch:
    """Replay codes, one per line (blank lines and ``#`` comments skipped) → one match."""
    at: dict[str, tuple[int, int]] = {}
    hands: list[dict[str, Any]] = []
    letters: set[str] = set()
    comments: list[Any] = []
    for ln, raw in enumerate(text.lstrip("\ufeff").split("\n"), start=1):
        line = raw.strip()
        found = read_comments_line(line, ln)
        if found is not None:
            comments += found
            continue
        if not line or (line.startswith("#") and not line.startswith("#r=")):
            continue
        col = raw.index(line) + 1
        code = line[3:] if line.startswith("#r=") else line
        letter, hand = _hand_from_code(code, f"/hands/{len(hands)}", at, ln, col)
        if letters and letter not in letters:
            raise ForeignFormatError(
                f"this code's preset {letter!r} differs from the earlier codes'; "
                "one match is played under one preset",
                ln,
                col + 2,
            )
        letters.add(letter)
        hands.append(hand)
    if not hands:
        raise ForeignFormatError("no replay code (a line starting v1)", 1, 1)
    (letter,) = letters
    doc = _match_doc(letter, hands, CODE_FORMAT, [{"text": _ONE_HAND}])
    attach_comments(doc, comments)
    return ParsedMatch(doc, at)


def read_records(text: str) -> ParsedMatch:
    """A ``plunge-hand-v2`` record (a JSON object), or a JSON list / JSON Lines of
    records of one game in hand order → one match."""
    records = json_items(text)
    at: dict[str, tuple[int, int]] = {}
    hands: list[dict[str, Any]] = []
    letters: set[str] = set()
    for rec, ln in records:
        if not isinstance(rec, dict) or rec.get("schema") not in RECORD_SCHEMAS:
            raise ForeignFormatError(
                f'not a plunge record (its "schema" is not one of {", ".join(RECORD_SCHEMAS)})',
                ln,
                1,
            )
        code = rec.get("code")
        if not isinstance(code, str):
            raise ForeignFormatError('a record\'s "code" is a replay code string', ln, 1)
        letter, hand = _hand_from_code(code, f"/hands/{len(hands)}", at, ln, 1)
        letters.add(letter)
        if len(letters) > 1:
            raise ForeignFormatError("the records' codes name different presets", ln, 1)
        hand[RECORD_EXT] = {k: v for k, v in rec.items() if k != "code"}
        hands.append(hand)
    if not hands:
        raise ForeignFormatError("no record", 1, 1)
    (letter,) = letters
    warnings = [
        {
            "text": "a record holds one hand; its score before the hand (marksBefore) is kept "
            "under "
            f"{RECORD_EXT}, and this match starts from 0–0"
        }
    ]
    names = [_record_players(rec) for rec, _ in records]
    if any(n != names[0] for n in names):
        warnings.append(
            {"text": "the records name different computer players; the first record's are kept"}
        )
    doc = _match_doc(letter, hands, RECORD_FORMAT, warnings)
    if names[0]:
        doc["players"] = names[0]
    return ParsedMatch(doc, at)


def _record_players(rec: dict[str, Any]) -> dict[str, str]:
    """The players a record names: each computer seat's ``player`` (the person in seat 0
    has no name), but not the placeholder this writer puts for a seat with none."""
    seats = rec.get("seats")
    out: dict[str, str] = {}
    if not isinstance(seats, list):
        return out
    for index, seat in enumerate(seats[:4]):
        if not isinstance(seat, dict) or seat.get("kind") != "computer":
            continue
        player = seat.get("player")
        if isinstance(player, str) and _ID.fullmatch(player) and not _PLACEHOLDER.fullmatch(player):
            out[SEAT_OF[index]] = player
    return out


def _code(letter: str, hand: Any, n: int) -> str:
    if hand.deal is None or any(t is None for s in SEAT_OF for t in getattr(hand.deal, s)):
        raise CannotExport(
            f"hand {n}: a replay code starts with the whole deal, and this hand's deal is not known"
        )
    if any(c.rejected for c in hand.auction) or any(p.rejected for p in hand.plays):
        raise CannotExport(f"hand {n} has rejected attempts; a replay code has no syntax for them")
    out = ["v1", letter, str(INDEX_OF[hand.dealer])]
    for s in SEAT_OF:
        for t in getattr(hand.deal, s):
            hi, lo = high_low(t)
            out.append(f"{hi}{lo}")
    out.append(".")
    for c in hand.auction:
        if c.call == "pass":
            out.append("P")
        elif c.call == "points":
            out.append(f"{c.bid:02d}")
        else:
            if c.bid > 9:
                raise CannotExport(
                    f"hand {n}: a replay code writes marks as one digit, not {c.bid}"
                )
            out.append({"plunge": "G", "splash": "S", None: "M"}[c.special] + str(c.bid))
    d = hand.declaration
    if d is not None:
        if d.contract == "nello" and d.doubles not in (None, "own-suit"):
            raise CannotExport(
                f"hand {n}: a replay code's Nel-O has doubles their own suit, not {d.doubles}"
            )
        v = {"nello": "n", "sevens": "s"}.get(d.contract or "") or {
            "doubles": "7",
            "no-trump": "9",
        }.get(d.trump or "", d.trump)
        out.append(f"D{v}")
    for p in hand.plays:
        hi, lo = high_low(p.tile)
        out.append(f"{hi}{lo}")
    return "".join(out)


def write_codes(match: Match) -> str:
    """One replay code per hand, one per line."""
    letter = preset_letter(match)
    codes = "".join(_code(letter, h, i + 1) + "\n" for i, h in enumerate(match.hands))
    # The app reads one code; a file of them is ours, and keeps the comments.
    return codes + comments_line(match)


#: The app's settings name of each preset letter (its ``settings[].preset``); ``l``
#: has no older name, so its letter is written.
PRESET_NAMES = {"t": "tournament", "f": "plunge", "l": "l", "c": "casual"}
#: Written for a time the log does not know (plunge requires a date-time).
UNKNOWN_TIME = "1970-01-01T00:00:00.000Z"


def _hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _new_record(
    letter: str,
    match: Match,
    i: int,
    code: str,
    game_id: str,
    marks_before: list[int],
    finished: bool,
) -> dict[str, Any]:
    """A whole ``plunge-hand-v2`` record for a hand that did not come from one: every
    field the app's validator requires, from what the log knows; ids derived from the
    codes (the same log gives the same records), times unknown, seat 0 the person."""
    h = match.hands[i]
    names = match.players.model_dump() if match.players is not None else {}
    seats: list[dict[str, Any]] = [{"kind": "person"}]
    for s in SEAT_OF[1:]:
        seats.append(
            {"kind": "computer", "player": player_id(names.get(s), INDEX_OF[s]), "walt": None}
        )
    turns = [c.seat for c in h.auction] + (
        [h.declaration.seat] if h.declaration is not None else []
    )
    turns += [p.seat for p in h.plays]
    rules = PRESETS[LETTERS[letter]]
    return {
        "schema": RECORD_FORMAT,
        "id": _hex(f"{game_id}:{i + 1}"),
        "game": {"id": game_id, "seed": "", "hand": i + 1},
        "app": "texas42-log",
        "started": UNKNOWN_TIME,
        "ended": UNKNOWN_TIME,
        "outcome": "finished" if finished else "abandoned",
        "marksBefore": marks_before,
        "code": code,
        "seats": seats,
        "settings": [
            {
                "at": 0,
                "preset": PRESET_NAMES[letter],
                "difficulty": "easy",
                "hints": False,
                "thinkDeeper": False,
                "nello": rules.nello,
            }
        ],
        "profiles": [],
        "actions": [{"at": None, "by": "person" if seat == "A" else "computer"} for seat in turns],
        "assist": [],
    }


def player_id(name: Any, index: int) -> str:
    """A computer seat's ``player`` as the app's validator allows it: 1–80 characters of
    ``[A-Za-z0-9_.:-]``. A name that is one is kept as it is; in another, letters lose
    their accents and the other characters become ``-`` (``seat-1`` for none)."""
    text = str(name or "")
    if _ID.fullmatch(text):
        return text
    # Letters lose their accents (Ç → C, ğ → g) before what is left is replaced.
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    text = _NOT_ID.sub("-", plain).strip("-")[:80]
    return text or f"seat-{index}"


def record_losses(match: Match) -> list[str]:
    """What writing ``match`` as plunge records leaves out or changes, each a sentence
    for a note: a record written anew has the person at the app in seat 0 (A), with no
    name, and computers in the other seats, each named by an id of 1–80 of the letters,
    digits and ``_ . : -``. A hand imported from a record gets its record back as it was,
    and loses nothing here."""
    if all(isinstance((h.__pydantic_extra__ or {}).get(RECORD_EXT), dict) for h in match.hands):
        return []
    names = match.players.model_dump() if match.players is not None else {}
    out = [
        "a plunge record has the person at the app in seat 0 and computers in the others, "
        "so seat A is written as the person and B, C and D as computers"
    ]
    if names.get("A"):
        out.append(f"seat A's name {names['A']!r} is not kept: the record's person has no name")
    for s in SEAT_OF[1:]:
        name = names.get(s)
        if name and not _ID.fullmatch(name):
            written = player_id(name, INDEX_OF[s])
            out.append(
                f"seat {s}'s name {name!r} is written {written!r}: a record's player is 1–80 "
                "of the letters A–Z and a–z, the digits and _ . : -"
            )
    return out


def write_records(match: Match) -> str:
    """One ``plunge-hand-v2`` record per hand, as JSON Lines in the app's compact JSON.
    A hand imported from a record gets its fields back as they were; any other gets a
    whole record (:func:`_new_record`) that the app's validator accepts."""
    from ..replayed import replay_match

    letter = preset_letter(match)
    codes = [_code(letter, h, i + 1) for i, h in enumerate(match.hands)]
    game_id = _hex("\n".join(codes))
    _, facts = replay_match(match)
    before = [0, 0]
    lines = []
    for i, h in enumerate(match.hands):
        found = (h.__pydantic_extra__ or {}).get(RECORD_EXT)
        code = codes[i]
        f = facts[i] if i < len(facts) else None
        # At hand-over, as the app's validator replays the code: decided, or thrown in
        # (four passes); a hand left after its auction, before trumps, is abandoned.
        finished = f is not None and f.finished
        if isinstance(found, dict):
            # the record's own key order, with the code where the app writes it (after marksBefore)
            out: dict[str, Any] = {}
            for k, v in found.items():
                out[k] = v
                if k == "marksBefore":
                    out["code"] = code
            out.setdefault("schema", RECORD_FORMAT)
            out.setdefault("code", code)
        else:
            out = _new_record(
                letter, match, i, code, game_id, [min(b, 99) for b in before], finished
            )
        if f is not None and f.score:
            before = [f.score["A+C"], f.score["B+D"]]
        lines.append(dumps(out, separators=(",", ":")))
    return "\n".join(lines) + "\n"
