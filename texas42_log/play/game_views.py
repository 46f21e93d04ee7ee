"""What a live :class:`~texas42_log.play.game.Game` shows: the view of the moment for one
observer, a hint for the seat to play, and its board in a notebook.

Every method here reads the game only through its log (:meth:`Game.to_match`) and
its public state, and shows it through :mod:`.views` — the one visibility boundary
(R25–R29) the logs use too. Pure: no I/O.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ..analysis import DEFAULT_SEED, DEFAULT_WORLDS
from ..views.svg import render_svg

if TYPE_CHECKING:
    from ..analysis.auction_fair import AuctionHint
    from ..analysis.fair import Decision
    from ..engine.actions import Action
    from ..engine.hand import PlayState
    from ..engine.live import Turn
    from ..engine.seats import Seat
    from ..log.model import Match
    from ..views.visibility import Observer, View

__all__ = ["GameViews", "hint"]


class _Game(Protocol):
    """What the showing half reads of a game (:class:`~texas42_log.play.game.Game` has it)."""

    def to_match(self) -> Match: ...

    @property
    def play_state(self) -> PlayState | None: ...

    def view(self, observer: Observer = "public") -> View: ...

    @property
    def to_act(self) -> Turn | None: ...

    def legal_actions(self) -> list[Action]: ...


class GameViews:
    """The showing half of :class:`~texas42_log.play.game.Game` (see the module text)."""

    def view(self: _Game, observer: Observer = "public") -> View:
        """The current moment of the current hand as ``observer`` may see it (R25–R29):
        ``"A"``–``"D"``, ``"public"``, ``"review"`` (only once the hand is over) or
        ``"omniscient"``. Built by :mod:`.views` from the log, the same code path as
        ``texas42 replay``; it holds nothing the observer may not see."""
        from ..views.visibility import Moment, parse_observer, view_for

        match = self.to_match()
        if not match.hands:
            raise ValueError("no hand has been dealt yet, so there is nothing to view")
        hand = match.hands[-1]
        plays = sum(1 for p in hand.plays if not p.rejected)
        # The moment itself (the seeds' "after play k"), not the hand's end: a view names it.
        moment = Moment.after_play(plays) if hand.declaration is not None else Moment.auction()
        who = parse_observer(observer)
        if who == "review":
            moment = (
                Moment.end()
            )  # R29: a review is of a hand as it ended (views refuses one still under way)
        return view_for(match, who, len(match.hands) - 1, moment)

    def hint(
        self: _Game,
        seat: Seat | None = None,
        *,
        worlds: int = DEFAULT_WORLDS,
        seed: int = DEFAULT_SEED,
        threads: int | None = None,
    ) -> Decision | AuctionHint:
        """The fair values of the current moment for the seat to act, from its own view
        alone (docs/analysis.md); show it to that seat only. In the play, a
        :class:`~texas42_log.analysis.fair.Decision`: each legal play's mean value and
        chance over the deals that seat cannot tell apart. In the auction and at the
        declaration, an :class:`~texas42_log.analysis.auction_fair.AuctionHint`: the
        seat's fair makeable table and the call or trump it suggests. ``threads``: the
        worlds are shared among that many threads (None: every core this process may
        use); the numbers are the same whatever it is."""
        from ..engine.search import search_threads

        with search_threads(threads):
            return hint(self, seat, worlds=worlds, seed=seed)

    # -- notebooks ---------------------------------------------------------------

    def _repr_svg_(self: _Game) -> str:
        """Jupyter: the board of the current moment, as the public sees it."""
        try:
            return render_svg(self.view("public"))
        except ValueError:
            return ""


def hint(
    game: _Game, seat: Seat | None = None, *, worlds: int = DEFAULT_WORLDS, seed: int = DEFAULT_SEED
) -> Decision | AuctionHint:
    """The fair values of the current moment for the seat to play (``seat`` must be
    it, when given): a function of that seat's own view, so it may be shown to that
    seat — and to nobody else at the table (it tells about the seat's tiles)."""
    from ..analysis.fair import decide
    from ..analysis.fair_hands import knowledge_at
    from ..log.check import effective_rules
    from ..views.visibility import hand_views

    turn = game.to_act
    if turn is not None and turn.kind in ("call", "declare"):
        return _auction_hint(game, seat, turn.seat, turn.kind, worlds, seed)
    state = game.play_state
    if state is None or state.to_play is None:
        raise ValueError(
            "there is nothing to hint at: the hand is not dealt yet or the match is over"
        )
    to_play = state.to_play
    if seat is not None and seat != to_play:
        raise ValueError(
            f"it is {to_play}'s turn to play, not {seat}'s: a hint is for the seat to play"
        )
    match = game.to_match()
    index = len(match.hands) - 1
    views = hand_views(match, to_play, index)
    knowledge = knowledge_at(
        views, sum(1 for p in match.hands[index].plays if not p.rejected), effective_rules(match)
    )
    return decide(knowledge, worlds=worlds, seed=seed, hand=index)


def _auction_hint(
    game: _Game, seat: Seat | None, to_act: Seat, kind: str, worlds: int, seed: int
) -> AuctionHint:
    """The hint of the seat to call or declare: from its own view of the moment (its
    tiles) and the public calls."""
    from ..analysis.auction_fair import CallTuple, auction_hint
    from ..analysis.bidding import Bid
    from ..engine.actions import Call, Declare
    from ..engine.auction import BidKind, BidSpecial, Contract
    from ..engine.tiles import TILE_BY_NAME
    from ..log.check import effective_rules

    if seat is not None and seat != to_act:
        verb = "call" if kind == "call" else "declare"
        raise ValueError(
            f"it is {to_act}'s turn to {verb}, not {seat}'s: a hint is for the seat to act"
        )
    match = game.to_match()
    index = len(match.hands) - 1
    view = game.view(to_act)
    if view.hidden.get(to_act):
        raise ValueError(f"{to_act}'s own tiles are not all known: there is no table to make")
    tiles = frozenset(TILE_BY_NAME[t] for t in view.hands.get(to_act, ()))
    rules = effective_rules(match)
    calls: list[CallTuple] = []
    for who, kind_, b, sp in view.auction:
        special: BidSpecial | None = (
            "plunge" if sp == "plunge" else "splash" if sp == "splash" else None
        )
        calls.append((who, BidKind(kind_), b, special))
    contract = None
    if kind == "declare":
        c = view.contract
        assert c is not None
        bid = Bid(BidKind(c.kind), c.bid, c.special if c.special in ("plunge", "splash") else None)  # type: ignore[arg-type]
        contract = Contract(c.bidder, bid.kind, bid.bid, bid.special)
    legal = [a for a in game.legal_actions() if isinstance(a, Call | Declare)]
    return auction_hint(
        rules,
        index,
        view.dealer,
        to_act,
        tiles,
        calls,
        legal,
        contract,
        worlds=worlds,
        seed=seed,
    )
