"""Writing the tricksy engine's event log (docs/conversions.md): a match as a bundle
``{"seats", "config", "events"}`` on one line, the inverse of
:mod:`texas42_log.log.foreign.tricksy`'s reader, with what tricksy cannot hold
refused (:class:`CannotExport`) and what the writer adds said (:func:`bundle_losses`).
"""

from __future__ import annotations

from typing import Any

from ...engine.auction import BidKind, Contract
from ...engine.declare import declaration_choices
from ...engine.rules import Rules
from ...engine.seats import Seat
from ..check import effective_rules
from ..inert import dumps
from ..model import Hand, Match
from ..replayed import HandFacts, replay_match
from . import COMMENTS, INDEX_OF, SEAT_OF, CannotExport, comments_of, high_low
from .tricksy import DEFAULT_OPTIONS, EXT, LEAD_NAMES, rules_from_config

__all__ = ["write_bundle", "bundle_losses", "config_from_rules"]


def config_from_rules(rules: Rules) -> dict[str, Any]:
    """The house rules for ``rules``, or :class:`CannotExport` when tricksy has none that equal
    them."""
    enabled = ["standard"]
    options: dict[str, dict[str, Any]] = {}
    if rules.nello:
        names = {
            "own-suit": ["nello"],
            "low": ["nello_low"],
            "own-suit-or-low": ["nello", "nello_low"],
        }.get(rules.nello_doubles)
        if names is None:
            raise CannotExport(
                f"tricksy's Nel-O has the doubles their own suit (nello), low (nello_low) or "
                f"either, by the bid (both); these rules have nello_doubles {rules.nello_doubles}"
            )
        enabled += names
        for n in names:
            least = rules.nello_min_marks
            if n == "nello_low" and len(names) == 2 and rules.nello_low_min_marks is not None:
                least = rules.nello_low_min_marks
            if least != 1:
                options[n] = {"minimum_marks": least}
    if rules.plunge:
        enabled.append("plunge")
        o = {"minimum_doubles": rules.plunge_min_doubles, "minimum_marks": rules.plunge_marks}
        if o != DEFAULT_OPTIONS["plunge"]:
            options["plunge"] = o
    if rules.splash:
        enabled.append("splash")
        o = {"minimum_doubles": rules.splash_min_doubles, "minimum_marks": rules.splash_min_marks}
        if o != DEFAULT_OPTIONS["splash"]:
            options["splash"] = o
    if rules.sevens:
        enabled.append("sevens")
        if rules.sevens_min_marks != 1:
            options["sevens"] = {"minimum_marks": rules.sevens_min_marks}
    lead = {v: k for k, v in LEAD_NAMES.items()}[rules.declared_lead]
    config = {
        "enabled_contracts": sorted(enabled),
        "contract_options": options,
        "doubles_are_own_suit": rules.doubles == "own-suit",
        "allow_declared_lead": lead,
        "marks_to_win": rules.match_goal_marks,
    }
    back = rules_from_config(config)
    if back != rules:
        diff = ", ".join(f"{k}={v[1]!r}" for k, v in back.differences(rules).items())
        raise CannotExport(
            "tricksy's house rules cannot say these rules: they differ from any tricksy game in "
            f"{diff}"
        )
    return config


def _ext_of(obj: Any) -> dict[str, Any]:
    value = (obj.__pydantic_extra__ or {}).get(EXT)
    return dict(value) if isinstance(value, dict) else {}


def _tricksy_name(rules: Rules, special: str, doubles: str | None) -> str:
    """tricksy's name of a Nel-O or Sevens contract: Nel-O with its doubles low is
    ``nello_low``; a choosing rule whose declaration says nothing is own-suit (``nello``)."""
    if special == "sevens":
        return "sevens"
    return "nello_low" if (doubles or rules.nello_doubles) == "low" else "nello"


def _won(f: HandFacts, c: Any) -> bool:
    """Whether call ``c`` is the hand's winning bid."""
    return f.contract is not None and c.seat == f.contract.bidder and c.bid == f.contract.bid


def _could_be(rules: Rules, c: Any) -> str | None:
    """A special contract an outbid mark bid ``c`` may name, for a bid our log keeps plain
    (its bidder never declared), where tricksy's bid names one: the first Nel-O or Sevens
    the engine would let its bidder declare after it (:func:`declaration_choices`); None
    if neither."""
    contract = Contract(c.seat, BidKind.MARKS, c.bid)
    for choice in declaration_choices(rules, contract):
        if choice.special is not None:
            return _tricksy_name(rules, choice.special, choice.doubles)
    return None


def bundle_losses(match: Match) -> list[str]:
    """What writing ``match`` as a tricksy bundle adds: the contract named for each
    outbid mark bid that names none (:func:`_could_be`), each a sentence for a note."""
    rules = effective_rules(match)
    try:
        _, facts = replay_match(match)
    except ValueError:
        return []
    out = []
    for f, hand in zip(facts, match.hands, strict=True):
        for c in hand.auction:
            if c.call != "marks" or c.special or c.rejected or _ext_of(c).get("contract"):
                continue
            named = None if _won(f, c) else _could_be(rules, c)
            if named is not None:
                out.append(
                    f"hand {f.index + 1}: {c.seat}'s {c.bid}-mark bid, outbid, names no contract, "
                    f"and a tricksy bid names one: it is written as {named}"
                )
    return out


def _hand_events(
    f: HandFacts,
    hand: Hand,
    rules: Rules,
    pid: dict[Seat, Any],
    last_unfinished: bool,
) -> list[dict[str, Any]]:
    """One hand's events: HAND_DEALT, the auction's, CONTRACT_DECLARED, the plays;
    ``last_unfinished``: the hand is the last of an unfinished match (it may stop
    short of the 7th trick)."""
    n = f.index + 1
    events: list[dict[str, Any]] = []
    if hand.deal is None or any(t is None for s in SEAT_OF for t in getattr(hand.deal, s)):
        raise CannotExport(
            f"hand {n}: HAND_DEALT needs the whole deal, and this hand's deal is not known"
        )
    if any(c.rejected for c in hand.auction) or any(p.rejected for p in hand.plays):
        raise CannotExport(f"hand {n} has rejected attempts; tricksy logs only accepted moves")
    events.append(
        {
            "type": "HAND_DEALT",
            "hands": [
                [i, [f"{high_low(t)[0]}-{high_low(t)[1]}" for t in getattr(hand.deal, s)]]
                for i, s in enumerate(SEAT_OF)
            ],
            "dealer": INDEX_OF[hand.dealer],
        }
    )
    decl = hand.declaration
    special_contract = None
    if decl is not None and decl.contract is not None:
        doubles = decl.doubles or rules.nello_doubles
        if doubles in ("bidder-chooses", "own-suit-or-low"):
            doubles = "own-suit"  # a choosing declaration that says nothing: own-suit
        if decl.contract == "nello" and doubles not in ("own-suit", "low"):
            raise CannotExport(
                f"hand {n}: tricksy's Nel-O has doubles their own suit (nello) or low "
                f"(nello_low), not {doubles}"
            )
        special_contract = _tricksy_name(rules, decl.contract, doubles)
    events += _auction_events(f, hand, rules, pid, special_contract)
    if decl is not None and decl.contract is None:
        assert decl.trump is not None
        if decl.trump == "no-trump":
            raise CannotExport(f"hand {n}: tricksy has no no-trump")
        name = f.contract.special if f.contract is not None and f.contract.special else "standard"
        events.append(
            {
                "type": "CONTRACT_DECLARED",
                "actor": pid[decl.seat],
                "contract": name,
                "trump": 7 if decl.trump == "doubles" else int(decl.trump),
            }
        )
    if hand.plays and (not f.finished or len(f.tricks) != 7):
        if not last_unfinished:
            raise CannotExport(
                f"hand {n} is not played to the 7th trick; tricksy always plays all 7"
            )
    for p in hand.plays:
        hi, lo = high_low(p.tile)
        events.append(
            {
                "type": "PLAY_DOMINO",
                "actor": pid[p.seat],
                "domino": f"{hi}-{lo}",
                "declared_suit": p.led,
            }
        )
    return events


def _auction_events(
    f: HandFacts,
    hand: Hand,
    rules: Rules,
    pid: dict[Seat, Any],
    special_contract: str | None,
) -> list[dict[str, Any]]:
    """The auction's events: each call (a mark bid named by its special contract), and
    before it the Plunge proposals its seat made and the partner declined."""
    n = f.index + 1
    events: list[dict[str, Any]] = []
    for c in hand.auction:
        for d in _ext_of(c).get("declined", []):
            events.append(
                {
                    "type": "BID",
                    "actor": pid[c.seat],
                    "contract": d["contract"],
                    "points": None,
                    "marks": d["marks"],
                }
            )
            partner = SEAT_OF[(INDEX_OF[c.seat] + 2) % 4]
            events.append({"type": "BID_CONFIRMED", "actor": pid[partner], "accept": False})
        if c.call == "pass":
            events.append({"type": "PASS", "actor": pid[c.seat]})
        elif c.call == "points":
            events.append(
                {
                    "type": "BID",
                    "actor": pid[c.seat],
                    "contract": None,
                    "points": c.bid,
                    "marks": None,
                }
            )
        else:
            winner = _won(f, c)
            name = (
                c.special
                or _ext_of(c).get("contract")
                or (special_contract if winner else _could_be(rules, c))
            )
            if name is None:
                raise CannotExport(
                    f"hand {n}: tricksy names the special contract of every mark bid, and "
                    f"{c.seat}'s "
                    f"{c.bid}-mark bid, outbid, says none"
                    if not winner
                    else (
                        f"hand {n}: tricksy has mark bids only for special contracts, and "
                        f"{c.seat}'s is plain"
                    )
                )
            events.append(
                {
                    "type": "BID",
                    "actor": pid[c.seat],
                    "contract": name,
                    "points": None,
                    "marks": c.bid,
                }
            )
            if name == "plunge":
                partner = SEAT_OF[(INDEX_OF[c.seat] + 2) % 4]
                events.append({"type": "BID_CONFIRMED", "actor": pid[partner], "accept": True})
    return events


def write_bundle(match: Match) -> str:
    """The match as a tricksy bundle (one JSON object on one line)."""
    rules = effective_rules(match)
    ext: dict[str, Any] = _ext_of(match)
    config = config_from_rules(rules)
    if "config" in ext and rules_from_config(ext["config"]) == rules:
        config = ext["config"]
    seats = ext.get("seats") or {
        str(i): {
            "player_id": f"seat-{s}",
            "username": getattr(match.players, s, None) or f"seat {s}",
        }
        for i, s in enumerate(SEAT_OF)
    }
    pid = {SEAT_OF[int(k)]: v["player_id"] for k, v in seats.items()}
    if match.first_dealer != "A":
        raise CannotExport(
            f"tricksy's first dealer is always seat 0 (A), and this match's is {match.first_dealer}"
        )
    _, facts = replay_match(match)
    events: list[dict[str, Any]] = []
    for f, hand in zip(facts, match.hands, strict=True):
        last_unfinished = f is facts[-1] and match.status == "unfinished"
        events += _hand_events(f, hand, rules, pid, last_unfinished)
    bundle: dict[str, Any] = {k: v for k, v in ext.items() if k not in ("seats", "config")}
    bundle |= {"seats": seats, "config": config, "events": events}
    comments = comments_of(match)
    if comments:  # tricksy stores no comments; the bundle is ours and keeps them
        bundle[COMMENTS] = comments
    return dumps(bundle) + "\n"
