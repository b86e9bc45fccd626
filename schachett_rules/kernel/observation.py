"""What a player may see: his own hand, the face-up Kings, an exposed dummy, the trick, the tricks he may review.

Bots receive an :class:`Observation`, never the game: what is not in it, they
cannot use. The rules that shape it are clauses, asked through
:mod:`.visibility`: ``review`` (which finished tricks may be looked at),
``memory`` (whether earlier tricks are kept in mind), ``dummy`` (when the dummy
is laid open, and how its player sees his two hands before that), and the
deal's face-up cards. A card taken back after a penalty lies shown until it is
played.

>>> from schachett_rules.kernel.compiler import tables_for
>>> from schachett_rules.kernel.state import State
>>> from schachett_rules.kernel.streams import GameStream
>>> state = State.deal(tables_for("three-player"), dealer=0, rng=GameStream(1, 0))
>>> view = observe(state, 1)                # the left player leads the first trick
>>> sorted(view.hands), view.kings          # he sees his own hand; the Kings lie face up
([1], ((0, 'wK'), (1, 'sK')))
>>> sorted(observe(state, 0).hands)         # the Kaiser sees only the dummy's hand: it plays before his own
[2]
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from ..errors import SchachettError
from .actions import AUCTION, BEFORE_PLAY, CALL, CASTLE, EXCHANGE, OFFER, PASSING, PHASES, PLAY, RETURN
from .castling import MOMENTS, RESCUE
from .deal import cards_in, names_of
from .records import BidRecord, CastleRecord, TrickRecord
from .visibility import is_face_up, kept_tricks, known_partners, visible_seats


class CastleOffer(BaseModel):
    """A castle open to the seat being asked: which seat castles, which King, for one of which officers."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    seat: int
    king: str
    officers: tuple[str, ...]       # one entry per card on offer (copies apart), in deck order
    kind: Literal["before", "between", "rescue"]
    with_seat: int
    officer_from: int               # the hand the officer comes from
    king_from: int                  # the hand (or, in a rescue, the seat in the trick) the King comes from


def castle_moment(obs: "Observation") -> tuple[int, int] | None:
    """The moment of castling a seat is asked at, and the first seat (in a rescue, the first place in the trick)
    still to answer, as :meth:`~.state.State.at_position` takes them; None when the seat is not asked to castle.

    Everything here is on the table for every player: the moment, and the offer's King and seat.
    """
    if obs.decision != "castle" or not obs.castle_offers:
        return None
    offer = obs.castle_offers[0]
    moment = MOMENTS.index(offer.kind)
    if moment != RESCUE:
        return moment, offer.seat
    return moment, next(i for i, (seat, card) in enumerate(obs.trick) if seat == offer.king_from and card == offer.king)


class Observation(BaseModel):
    """One player's view of the game at this moment."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    seat: int
    plays_for: tuple[int, ...]
    dealer: int
    trick_number: int
    to_move: int
    leader: int
    hands: dict[int, tuple[str, ...]]
    kings: tuple[tuple[int, str], ...]
    trick: tuple[tuple[int, str], ...]
    tricks: tuple[TrickRecord, ...]
    castles: tuple[CastleRecord, ...]
    legal: tuple[str, ...] = ()
    forced_by: str | None = None
    decision: Literal["card", "castle", "give", "bid", "call", "discard", "answer", "none"] = "none"
    castle_offers: tuple[CastleOffer, ...] = ()
    shown: tuple[tuple[int, str], ...] = ()
    # the family's games: the phase, the decisions open before play, what the table has said and shown
    phase: str = "play"
    options: tuple[str, ...] = ()            # a decision before play: the cards or bids open, in the state's order
    turned: str | None = None                # the card turned up at the deal, played or not; None once turned down
    turned_down: str | None = None           # that card once turned down: it lies in the stock, face down
    bids: tuple[BidRecord, ...] = ()
    contract: str | None = None
    trump: str | None = None
    declarer: int | None = None
    called: str | None = None
    partners: tuple[int, ...] | None = None  # the partners this seat knows it has; None while it cannot know
    sitting: tuple[int, ...] = ()            # the seats sitting this game out
    passed: tuple[str, ...] = ()             # the cards this seat passed on
    received: tuple[tuple[int, str], ...] = ()   # the cards passed to it, by the seat that passed them
    discarded: tuple[str, ...] = ()          # the cards this seat laid away in an exchange (its own view alone)
    # a card the declarer offered (the offer clause): the card, where this seat may know it (the declarer, its
    # taker, or all where it lies face up); who was asked and what each answered (True: took it), in order; the
    # cards its taker gave back, seen by the two of them alone
    offered: str | None = None
    answers: tuple[tuple[int, bool], ...] = ()
    given_back: tuple[str, ...] = ()
    # a tableau, as the whole table sees it: each pile's seat, its card on top and the card that lay under it,
    # None while that card is still covered
    tableau: tuple[tuple[int, str, str | None], ...] = ()


def visible_hands(state, seat: int) -> dict[int, int]:
    """The hands (as card bitmasks) that the player on ``seat`` may look at now (the kernel's ``visible_seats``).

    In a tableau every face-up card lies open to all, and a covered card is seen by nobody, its owner included.
    """
    flow = state.base.flow
    if flow is not None and flow.covered:
        return {s: state.hands[s] & ~state.covered for s in range(state.t.n_seats)}
    seats = visible_seats(state.t, seat, state.done, state.leader, {s for s, _ in state.trick})
    return {s: state.hands[s] for s in sorted(seats)}


def tableau_view(state) -> tuple[tuple[int, str, str | None], ...]:
    """The tableau's piles as every seat sees them, by seat and then by the card on top: the seat, the card on
    top, and the card under it, or None while it is still covered. The layout of the table is open to all, and
    a card that turned up was seen by all; what lies under a card still on its pile nobody knows, its owner
    included.

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> from schachett_rules.kernel.state import State
    >>> from schachett_rules.kernel.streams import GameStream
    >>> game = State.deal(tables_for("officers-schafkopf"), 0, GameStream(1, 0))
    >>> piles = tableau_view(game)
    >>> len(piles), {down for _, _, down in piles}             # eight piles a seat, every one still covered
    (16, {None})
    >>> i = next(i for i, (seat, _, _) in enumerate(piles) if seat == game.seat_to_play())
    >>> _ = game.play(piles[i][1])
    >>> tableau_view(game)[i][2] is not None                   # the card under the one played turns up
    True
    """
    if not state.under:
        return ()
    name = state.t.deck.card_name
    hands = state.start_hands or state.hands
    seat_of = {top: next(s for s, h in enumerate(hands) if h >> top & 1) for top in state.under}
    return tuple((seat_of[top], name(top), None if state.covered >> down & 1 else name(down))
                 for top, down in sorted(state.under.items(), key=lambda pile: (seat_of[pile[0]], pile[0])))


def observe(state, seat: int) -> Observation:
    """The view of the player on ``seat`` (a dummy has no view of its own)."""
    t = state.t
    dummy = t.dummy_of(seat) if isinstance(seat, int) else None
    if dummy is not None:
        raise SchachettError(f"seat {seat} is a dummy and sees nothing; seat {dummy.by} plays its cards "
                             f"({dummy.cite})")
    if not isinstance(seat, int) or not 0 <= seat < t.n_seats:
        raise SchachettError(f"seat {seat!r} does not exist (seats 0 to {t.n_seats - 1})")
    plays_for = tuple(s for s in range(t.n_seats) if t.controller(s) == seat)
    hands = {s: names_of(t, m) for s, m in sorted(visible_hands(state, seat).items())}
    castles = state.castles
    castled = {t.face(r.king) for r in castles}
    kings = []
    for s in range(t.n_seats):
        royal_here = state.hands[s] & t.royal_cards
        while royal_here:
            c = (royal_here & -royal_here).bit_length() - 1      # the hand's royal cards, lowest first
            royal_here &= royal_here - 1
            if is_face_up(t, c, castled):
                kings.append((s, t.deck.card_name(c)))
    shown = tuple((s, t.deck.card_name(c)) for s in range(t.n_seats) for c in cards_in(state.shown & state.hands[s]))
    # only the tricks the seat still has before it are put in records (every decision of every player asks); a game
    # taken up at a position (State.at_position) has no record of the tricks before it
    finished = tuple(state.trick_record(i - state.first_trick) for i in kept_tricks(t, state.done)
                     if i >= state.first_trick)
    legal: tuple[str, ...] = ()
    forced = None
    offers: tuple[CastleOffer, ...] = ()
    decision = "none"
    if not state.over and state.decider() == seat:
        if state.phase == PLAY:
            view = state.legal()
            # one entry per card, copies included, in the deck's order: a random player draws from it as the play-outs do
            legal, forced, decision = names_of(t, view.mask), view.forced_by, "card"
        elif state.phase == CASTLE:
            name = t.deck.card_name
            offers = tuple(CastleOffer(seat=o.seat, king=name(o.king), officers=tuple(name(c) for c in o.officers),
                                       kind=o.kind, with_seat=o.with_seat, officer_from=o.giver,
                                       king_from=o.king_seat)
                           for o in state.castle_offers())
            decision = "castle"
    options: tuple[str, ...] = ()
    if not state.over and state.decider() == seat and state.phase in BEFORE_PLAY:
        from .verify import action_word
        options = tuple(action_word(state.base, a) for a in state.legal_actions())
        decision = {PASSING: "give", AUCTION: "bid", CALL: "call", EXCHANGE: "discard", OFFER: "answer",
                    RETURN: "give"}[state.phase]
    family = family_view(state, seat) if state.base.flow is not None else {}
    return Observation(seat=seat, plays_for=plays_for, dealer=state.dealer, trick_number=state.trick_number, to_move=state.seat_to_play(),
                       leader=state.leader, hands=hands, kings=tuple(kings),
                       trick=tuple((s, t.deck.card_name(c)) for s, c in state.trick), tricks=finished,
                       castles=tuple(castles), legal=legal, forced_by=forced, decision=decision,
                       castle_offers=offers, shown=shown, phase=PHASES[state.phase], options=options,
                       partners=known_partners(state, seat), tableau=tableau_view(state), **family)


def family_view(state, seat: int) -> dict:
    """What the table has said and shown before play, as the fields of the seat's :class:`Observation`: bids,
    the contract, the turned card, the cards passed and the seat's own discard."""
    from .before_play import given_back as cards_given_back, pass_target
    t = state.base
    name = t.deck.card_name
    bids = tuple(state.records_of("bid")) if state.bids else ()
    turned = down = None
    if state.turned >= 0:
        # every seat saw the card turned at the deal: it stays known, played too; turned down where nobody takes
        # it up, it lies in the stock, face down, and every seat still knows which card lies there
        in_stock = state.stock >> state.turned & 1
        turned_down = in_stock and (state.round > 0 or state.contract >= 0)
        turned = None if turned_down else name(state.turned)
        down = name(state.turned) if turned_down else None
    passed = tuple(name(c) for c in range(t.n_cards) if state.passed[seat] >> c & 1)
    discarded = tuple(name(c) for c in range(t.n_cards) if state.discarded[seat] >> c & 1)
    received = ()
    if state.passes_done and state.passes_done == (t.flow.passing[0] * t.n_seats if t.flow.passing else -1):
        received = tuple((s, name(c)) for s in range(t.n_seats) if pass_target(state, s) == seat
                         for c in range(t.n_cards) if state.passed[s] >> c & 1)
    contract = t.flow.contracts[state.contract] if state.contract >= 0 else None
    offered, answers, given_back = None, (), ()
    if state.offered >= 0:
        # face down the card is the declarer's and then its taker's to know; face up every seat saw it
        if seat in (state.declarer, state.taker) or contract.offer.face_up:
            offered = name(state.offered)
        answers = tuple((e[1], e[2]) for e in state._history if e[0] == "answer")
        if seat in (state.declarer, state.taker):
            back = cards_given_back(state)
            given_back = tuple(name(c) for c in range(t.n_cards) if back >> c & 1)
    return dict(turned=turned, turned_down=down, bids=bids, passed=passed, received=received,
                discarded=discarded, offered=offered, answers=answers, given_back=given_back,
                contract=contract.name if contract else None,
                trump=t.deck.colours[state.trump] if state.trump >= 0 else None,
                declarer=state.declarer if state.declarer >= 0 else None,
                sitting=tuple(s for s in range(t.n_seats) if state.t.sitting >> s & 1),
                called=name(state.called) if state.called >= 0 else None)
