"""The tricksy engine's JSON event log (docs/conversions.md); the writer is
:mod:`texas42_log.log.foreign.tricksy_write`.

Input is a bundle ``{"seats": META.seats, "config": META.config, "events": [...]}``
(the events need the seats to name players and the config for the house rules),
or such bundles as JSON Lines. One bundle is one game → one match under the preset
``tricksy`` with the house rules as option overrides.

Mapping: a point bid → a point bid (30–42); a Nel-O, Nel-O-low or Sevens bid → a
mark bid and a declaration naming that contract (tricksy sends no
``CONTRACT_DECLARED`` for them); a Plunge or Splash bid → a mark bid with
``special``. A Plunge proposal the partner declined is not a call: it is kept
under ``x-tricksy`` of the proposer's next call and written back as the events
it was. ``trump`` 7 is doubles; ``declared_suit`` is the play's ``led``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...engine.presets import PRESETS
from ...engine.rules import Rules
from ..inert import inert
from ..model import minimal_version
from ..notation import ParsedMatch
from ..positions import line_column, value_positions
from . import (
    COMMENTS,
    INDEX_OF,
    SEAT_OF,
    ForeignFormatError,
    attach_comments,
    canonical_tile,
    json_items,
    settle,
)

__all__ = [
    "FORMAT",
    "EXT",
    "DEFAULT_CONFIG",
    "DEFAULT_OPTIONS",
    "LEAD_NAMES",
    "read_bundles",
    "rules_from_config",
    "looks_like",
]

FORMAT = "tricksy"
EXT = "x-tricksy"
_SPECIALS = ("nello", "nello_low", "plunge", "splash", "sevens")
#: tricksy's ``allow_declared_lead`` values and our ``declared_lead``'s.
LEAD_NAMES = {"never": "never", "first_trick": "first-trick", "always": "always"}
DEFAULT_CONFIG: dict[str, Any] = {
    "enabled_contracts": ["nello", "plunge", "sevens", "standard"],
    "contract_options": {},
    "doubles_are_own_suit": False,
    "allow_declared_lead": "never",
    "marks_to_win": 7,
}
#: tricksy's default ``contract_options``.
DEFAULT_OPTIONS = {
    "nello": {"minimum_marks": 1},
    "nello_low": {"minimum_marks": 1},
    "plunge": {"minimum_doubles": 4, "minimum_marks": 4},
    "splash": {"minimum_doubles": 3, "minimum_marks": 2},
    "sevens": {"minimum_marks": 1},
}


#: The fields of each event type that the import reads; any other (PK, SK, seq,
#: timestamp: tricksy's storage) is reported as not kept.
_READ_FIELDS: dict[str, tuple[str, ...]] = {
    "HAND_DEALT": ("type", "hands", "dealer"),
    "PASS": ("type", "actor"),
    "BID": ("type", "actor", "contract", "points", "marks"),
    "BID_CONFIRMED": ("type", "actor", "accept"),
    "CONTRACT_DECLARED": ("type", "actor", "contract", "trump"),
    "PLAY_DOMINO": ("type", "actor", "domino", "declared_suit"),
}


def looks_like(value: Any) -> bool:
    return isinstance(value, dict) and "events" in value and "seats" in value


def rules_from_config(config: dict[str, Any]) -> Rules:
    """The effective rules of a tricksy game's house rules (META.config)."""
    if not isinstance(config, dict):
        raise ValueError("config is an object of house rules")
    cfg = DEFAULT_CONFIG | config
    if not isinstance(cfg["enabled_contracts"], list) or not all(
        isinstance(c, str) for c in cfg["enabled_contracts"]
    ):
        raise ValueError("enabled_contracts is a list of contract names")
    options = cfg["contract_options"]
    if not isinstance(options, dict) or not all(
        isinstance(v, dict)
        and all(isinstance(x, int) and not isinstance(x, bool) for x in v.values())
        for v in options.values()
    ):
        raise ValueError("contract_options maps a contract to its integer options")
    if not isinstance(cfg["doubles_are_own_suit"], bool):
        raise ValueError("doubles_are_own_suit is true or false")
    goal = cfg["marks_to_win"]
    if not isinstance(goal, int) or isinstance(goal, bool) or goal < 1:
        raise ValueError("marks_to_win is a whole number of at least 1")
    enabled = set(cfg["enabled_contracts"])
    unknown = enabled - {"standard", *_SPECIALS}
    if unknown:
        raise ValueError(f"unknown contracts {sorted(unknown)} in enabled_contracts")
    opts = {k: DEFAULT_OPTIONS.get(k, {}) | v for k, v in cfg["contract_options"].items()}

    def opt(contract: str, key: str) -> int:
        return _count(
            opts.get(contract, {}).get(key, DEFAULT_OPTIONS[contract][key]), f"{contract} {key}"
        )

    nello, low = "nello" in enabled, "nello_low" in enabled
    both = nello and low
    low_least = opt("nello_low", "minimum_marks") if low else None
    own = bool(cfg["doubles_are_own_suit"])
    if (
        not isinstance(cfg["allow_declared_lead"], str)
        or cfg["allow_declared_lead"] not in LEAD_NAMES
    ):
        raise ValueError(
            "allow_declared_lead is never, first_trick or always, not "
            f"{cfg['allow_declared_lead']!r}"
        )
    return PRESETS["tricksy"].with_options(
        nello=nello or low,
        nello_min_marks=opt("nello_low" if low and not nello else "nello", "minimum_marks"),
        # Both enabled: the bid names nello (doubles their own suit) or nello_low (low),
        # each with its own least bid.
        nello_doubles="own-suit-or-low" if both else ("low" if low else "own-suit"),
        nello_low_min_marks=low_least
        if both and low_least != opt("nello", "minimum_marks")
        else None,
        plunge="plunge" in enabled,
        plunge_min_doubles=opt("plunge", "minimum_doubles"),
        plunge_marks=opt("plunge", "minimum_marks"),
        splash="splash" in enabled,
        splash_min_doubles=opt("splash", "minimum_doubles"),
        splash_min_marks=opt("splash", "minimum_marks"),
        splash_max_marks=7 if "splash" in enabled else PRESETS["tricksy"].splash_max_marks,
        sevens="sevens" in enabled,
        sevens_min_marks=opt("sevens", "minimum_marks"),
        doubles="own-suit" if own else "in-suit",
        doubles_trump=own,
        declared_lead=LEAD_NAMES[cfg["allow_declared_lead"]],
        match_goal_marks=_count(cfg["marks_to_win"], "marks_to_win"),
    )


def _count(value: Any, what: str, low: int = 0, high: int = 10_000) -> int:
    """A whole number of the house rules or an event: a JSON integer (not a string of
    digits, a float or true) from ``low`` to ``high``."""
    if type(value) is not int or not low <= value <= high:
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "…"
        raise ValueError(f"{what} is a whole number from {low} to {high:,}, not {shown}")
    return value


def _tile(text: Any) -> str:
    if not isinstance(text, str):
        raise ValueError(f'a tile is a string such as "6-4", not {text!r}')
    parts = text.strip().split("-")
    if len(parts) != 2 or not all(p in ("0", "1", "2", "3", "4", "5", "6") for p in parts):
        raise ValueError(f'{text!r} is not a tile such as "6-4"')
    return canonical_tile(int(parts[0]), int(parts[1]))


class _Events:
    """The walk over a bundle's events: the hands they make, one method per kind of
    event, and what the walk keeps between events (a Plunge proposal awaiting the
    partner, the proposals declined, the contract of the last bid)."""

    def __init__(
        self,
        seat_of: dict[str, str],
        rules: Rules,
        at: dict[str, tuple[int, int]],
        where: Callable[[int | None], tuple[int, int]],
    ) -> None:
        self.seat_of, self.rules, self.at, self.where = seat_of, rules, at, where
        self.hands: list[dict[str, Any]] = []
        self.warnings: list[dict[str, Any]] = []
        self.pending: dict[str, Any] | None = None  # a Plunge proposal awaiting the partner
        self.declined: list[dict[str, Any]] = []
        self.contract_name: str | None = None

    def dealt(self, ev: dict[str, Any], seat: str | None, k: int) -> None:
        deal: dict[str, list[str]] = {s: [] for s in SEAT_OF}
        for entry in ev["hands"]:
            deal[SEAT_OF[_count(entry[0], "a HAND_DEALT seat", 0, 3)]] = [
                _tile(t) for t in entry[1]
            ]
        dealer = SEAT_OF[len(self.hands) % 4]
        if ev.get("dealer") != INDEX_OF[dealer]:
            self.warnings.append(
                {
                    "hand": len(self.hands) + 1,
                    "text": f"HAND_DEALT names dealer {ev.get('dealer')!r}, "
                    "but tricksy's first dealer is seat 0 and the deal passes clockwise: "
                    f"{dealer} deals",
                }
            )
        self.hands.append({"dealer": dealer, "deal": deal, "auction": []})
        self.at[f"/hands/{len(self.hands) - 1}"] = self.where(k)
        self.pending, self.declined, self.contract_name = None, [], None

    def _auction_at(self) -> str:
        return f"/hands/{len(self.hands) - 1}/auction/{len(self.hands[-1]['auction'])}"

    def _with_declined(self, call: dict[str, Any]) -> dict[str, Any]:
        """``call`` carrying the Plunge proposals declined before it (``x-tricksy``)."""
        if self.declined:
            call[EXT] = call.get(EXT, {}) | {"declined": self.declined}
            self.declined = []
        return call

    def passed(self, ev: dict[str, Any], seat: str | None, k: int) -> None:
        self.at[self._auction_at()] = self.where(k)
        self.hands[-1]["auction"].append(self._with_declined({"seat": seat, "call": "pass"}))

    def bid(self, ev: dict[str, Any], seat: str | None, k: int) -> None:
        self.at.setdefault(self._auction_at(), self.where(k))
        contract = ev.get("contract")
        if contract is None:
            call: dict[str, Any] = {"seat": seat, "call": "points", "bid": ev.get("points")}
        else:
            if contract not in _SPECIALS:
                raise ValueError(f"a mark bid names a special contract, not {contract!r}")
            call = {"seat": seat, "call": "marks", "bid": ev.get("marks")}
            if contract in ("plunge", "splash"):
                call["special"] = contract
            else:
                # our mark bid names no contract; the winner's declaration will, but an
                # outbid one's name would be lost: keep it
                call[EXT] = {"contract": contract}
            self.contract_name = contract
        call = self._with_declined(call)
        if contract == "plunge":
            self.pending = call
        else:
            self.hands[-1]["auction"].append(call)
            if contract is None:
                self.contract_name = "standard"

    def confirmed(self, ev: dict[str, Any], seat: str | None, k: int) -> None:
        pending = self.pending
        if pending is None:
            raise ValueError("no Plunge proposal awaits an answer")
        if ev.get("accept") is True:
            self.hands[-1]["auction"].append(pending)
        else:
            self.declined = [
                *pending.pop(EXT, {}).get("declined", []),
                {"contract": "plunge", "marks": pending["bid"]},
            ]
        self.pending = None

    def declared(self, ev: dict[str, Any], seat: str | None, k: int) -> None:
        trump = ev.get("trump")
        if not isinstance(trump, int) or not 0 <= trump <= 7:
            raise ValueError("trump is 0–7")
        hand = self.hands[-1]
        hand["declaration"] = {"seat": seat, "trump": "doubles" if trump == 7 else str(trump)}
        self.at[f"/hands/{len(self.hands) - 1}/declaration"] = self.where(k)
        bids = [c for c in hand["auction"] if c["call"] != "pass"]
        won = (
            (bids[-1].get("special") or "standard")
            if bids and bids[-1]["call"] == "marks"
            else "standard"
        )
        if ev.get("contract") != won:
            self.warnings.append(
                {
                    "hand": len(self.hands),
                    "text": f"CONTRACT_DECLARED names the contract "
                    f"{ev.get('contract')!r}, but the auction's is {won!r}; the auction "
                    "decides",
                }
            )

    def played(self, ev: dict[str, Any], seat: str | None, k: int) -> None:
        hand = self.hands[-1]
        if "declaration" not in hand:
            # Nel-O, Nel-O-low, Sevens: no CONTRACT_DECLARED; the winning bid decides.
            bids = [c for c in hand["auction"] if c["call"] != "pass"]
            name = self.contract_name
            if bids and name in ("nello", "nello_low", "sevens"):
                decl: dict[str, Any] = {
                    "seat": bids[-1]["seat"],
                    "contract": "sevens" if name == "sevens" else "nello",
                }
                if name != "sevens" and self.rules.nello_doubles == "own-suit-or-low":
                    decl["doubles"] = "low" if name == "nello_low" else "own-suit"
                hand["declaration"] = decl
        play: dict[str, Any] = {"seat": seat, "tile": _tile(ev.get("domino"))}
        if ev.get("declared_suit") is not None:
            play["led"] = ev["declared_suit"]
        plays = hand.setdefault("plays", [])
        self.at[f"/hands/{len(self.hands) - 1}/plays/{len(plays)}"] = self.where(k)
        plays.append(play)


#: Each kind of event tricksy writes, and the step of the walk that reads it.
_STEPS: dict[str, Callable[[_Events, dict[str, Any], str | None, int], None]] = {
    "HAND_DEALT": _Events.dealt,
    "PASS": _Events.passed,
    "BID": _Events.bid,
    "BID_CONFIRMED": _Events.confirmed,
    "CONTRACT_DECLARED": _Events.declared,
    "PLAY_DOMINO": _Events.played,
}


def _bundle_to_doc(
    bundle: dict[str, Any],
    at: dict[str, tuple[int, int]],
    ln: int,
    event_at: Callable[[int], tuple[int, int]] | None = None,
) -> dict[str, Any]:
    def where(k: int | None) -> tuple[int, int]:
        return event_at(k) if event_at is not None and k is not None else (ln, 1)

    def fail(why: str, k: int | None = None) -> ForeignFormatError:
        prefix = f"event {k} ({bundle['events'][k].get('type', '?')}): " if k is not None else ""
        return ForeignFormatError(prefix + why, *where(k))

    seats = bundle.get("seats")
    if not isinstance(seats, dict) or sorted(seats) != ["0", "1", "2", "3"]:
        raise fail('"seats" maps "0"–"3" to {player_id, username}')
    seat_of: dict[str, str] = {}
    for k, v in seats.items():
        if not isinstance(v, dict) or not isinstance(v.get("player_id"), str):
            raise fail(f"seat {k} has no player_id")
        seat_of[v["player_id"]] = SEAT_OF[int(k)]
    config = bundle.get("config", {})
    try:
        rules = rules_from_config(config)
    except (ValueError, TypeError, KeyError) as e:
        raise fail(f"config: {e}") from None
    events = bundle.get("events")
    if not isinstance(events, list) or not events:
        raise fail('"events" is a non-empty list')
    walk = _Events(seat_of, rules, at, where)
    left_out: dict[str, int] = {}
    for k, ev in enumerate(events):
        if not isinstance(ev, dict) or "type" not in ev:
            raise fail(f'event {k} is not an object with a "type"')
        kind = ev["type"]
        read = _READ_FIELDS.get(kind, ()) if isinstance(kind, str) else ()
        for key in ev:
            if key not in read:
                left_out[key] = left_out.get(key, 0) + 1
        actor = ev.get("actor")
        seat = seat_of.get(actor) if isinstance(actor, str) else None
        if kind != "HAND_DEALT" and seat is None:
            raise fail(f"the actor {actor!r} sits in no seat", k)
        if kind != "HAND_DEALT" and not walk.hands:
            raise fail("the log starts with HAND_DEALT", k)
        step = _STEPS.get(kind) if isinstance(kind, str) else None
        try:
            if step is None:
                raise ValueError(f"unknown event type {kind!r}")
            step(walk, ev, seat, k)
        except (ValueError, TypeError, KeyError, IndexError) as e:
            raise fail(str(e), k) from None
    if left_out:
        keys = ", ".join(
            f"{inert(key)} ({n} event{'s' if n != 1 else ''})"
            for key, n in sorted(left_out.items())
        )
        walk.warnings.append(
            {
                "text": f"not kept: the event fields {keys}; a texas42-log records the moves, not "
                "tricksy's storage keys, sequence numbers or timestamps"
            }
        )
    return _document(bundle, rules, walk)


def _document(bundle: dict[str, Any], rules: Rules, walk: _Events) -> dict[str, Any]:
    """The match the walk made: the preset and the house rules, the players, the hands,
    what the reading noted, and what tricksy kept that the format does not."""
    overrides = rules.overrides(PRESETS["tricksy"])
    seats, config = bundle["seats"], bundle.get("config", {})
    doc: dict[str, Any] = {
        "format": "texas42-log",
        "version": "1.1",
        "rules": {"preset": "tricksy"} | ({"options": overrides} if overrides else {}),
    }
    names = {
        SEAT_OF[int(k)]: v["username"]
        for k, v in seats.items()
        if isinstance(v.get("username"), str)
    }
    if names:
        doc["players"] = names
    doc |= {"first_dealer": "A", "status": "unfinished", "hands": walk.hands}
    doc["source"] = {"format": FORMAT, "warnings": walk.warnings}
    doc[EXT] = {"seats": seats, "config": config} | {
        k: v for k, v in bundle.items() if k not in ("seats", "config", "events", COMMENTS)
    }
    if COMMENTS in bundle:
        attach_comments(doc, bundle[COMMENTS])
    settle(doc)
    doc["version"] = max("1.1", minimal_version(doc))
    return doc


def read_bundles(text: str) -> list[ParsedMatch]:
    """One bundle (a JSON object), a JSON list of bundles, or JSON Lines of bundles."""
    items = json_items(text)
    event_at: Callable[[int], tuple[int, int]] | None = None
    if len(items) == 1 and isinstance(items[0][0], dict):
        # one bundle, likely indented: place each event on its own line
        stripped = text.lstrip("\ufeff")
        events = items[0][0].get("events")
        count = len(events) if isinstance(events, list) else 0
        # one place per event, the events themselves stepped over: memory for the list, not the tree
        offsets = value_positions(stripped, [f"/events/{k}" for k in range(count)])

        def event_at(k: int) -> tuple[int, int]:
            offset = offsets.get(f"/events/{k}")
            return line_column(stripped, offset) if offset is not None else (1, 1)

    out = []
    for bundle, ln in items:
        if not looks_like(bundle):
            raise ForeignFormatError(
                'a tricksy bundle is an object with "seats", "config" and "events"', ln, 1
            )
        at: dict[str, tuple[int, int]] = {}
        out.append(ParsedMatch(_bundle_to_doc(bundle, at, ln, event_at), at, ln))
    return out
