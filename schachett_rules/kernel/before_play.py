"""The phases between the deal and the first card: passing, the auction, the call, the exchange.

The state (:mod:`.state`) asks these functions whose decision it is and which
actions are open in each phase, and hands them the action to apply; they move
the state on to the next phase, and at the end fix the tables the game is
played from (:func:`start_play`): the contract's, with the game's parties,
the seats sitting out and the card called (:func:`~.flow.game_tables`).
Everything they decide comes from the flow the compiler built
(:class:`~.flow.Flow`); nothing here knows a game by name.

>>> from schachett_rules.kernel.compiler import tables_for
>>> from schachett_rules.kernel.state import State
>>> from schachett_rules.kernel.streams import GameStream
>>> state = State.deal(tables_for("hearts"), dealer=0, rng=GameStream(1, 0))
>>> state.phase_name, state.decider(), len(state.legal_actions())    # the dealer's left passes first
('passing', 1, 13)
"""

from __future__ import annotations

from .actions import AUCTION, CALL, EXCHANGE, OFFER, OVER, PASSING, PLAY, RETURN, Answer, Bid, Call, Discard, Give
from .core import WAYS, asked_seat, colour_mates, found_partner as core_found_partner, held_count, \
    holds_required as holds_all_or_one, may_call, named_seat, pass_step
from .flow import PARTNER_RULES, ContractTable, game_tables, partition

# --- passing -------------------------------------------------------------------------------------------------


def pass_direction(state) -> str:
    """Where the cards go in this game: left, right, across or none (by the game's number)."""
    count, directions = state.base.flow.passing
    return directions[state.game % len(directions)]


def pass_target(state, seat: int) -> int:
    """The seat that receives the cards ``seat`` passes."""
    n = state.base.n_seats
    return (seat + pass_step(WAYS.index(pass_direction(state)), n)) % n


def passer(state) -> int:
    """The seat passing now: each seat in turn from the dealer's left passes all its cards."""
    count = state.base.flow.passing[0]
    return (state.dealer + 1 + state.passes_done // count) % state.base.n_seats


def give_actions(state) -> list:
    """One :class:`Give` per card the passing seat still holds."""
    seat = passer(state)
    hand = state.hands[seat]
    return [Give(seat, c) for c in range(state.base.n_cards) if hand >> c & 1]


def give(state, seat: int, card: int) -> None:
    """``seat`` passes ``card``; when every seat has passed, each receives what was passed to it."""
    bit = 1 << card
    state.hands[seat] &= ~bit
    state.passed[seat] |= bit
    state.passes_done += 1
    t = state.base
    if state.passes_done == t.flow.passing[0] * t.n_seats:
        for s in range(t.n_seats):
            state.hands[pass_target(state, s)] |= state.passed[s]
        after_passing(state)


# --- the auction -----------------------------------------------------------------------------------------------

def after_deal(state) -> None:
    """The deal is done: pass cards, bid, or begin play, as the flow says."""
    flow = state.base.flow
    if flow is not None and flow.passing is not None and pass_direction(state) != "none":
        state.phase = PASSING
        return
    after_passing(state)


def after_passing(state) -> None:
    flow = state.base.flow
    if flow is not None and flow.has_auction:
        state.phase, state.round, state.bid_turn, state.best = AUCTION, 0, 0, None
        if not flow.rounds:
            _all_pass(state)
        return
    if flow is not None and flow.partner == "holders":
        seats = holders(state)
        if len(seats) == 1:
            state.declarer = seats[0]      # one player holds them all: he plays alone, as the declarer
    if flow is not None and flow.exchange is not None:
        _exchange(state)
        return
    start_play(state)


def bidder(state) -> int:
    """The seat whose turn it is to bid."""
    t = state.base
    base, offset = t.flow.first_bidder
    first = named_seat(base == "dealer", offset, state.dealer, t.n_seats)
    return (first + state.bid_turn) % t.n_seats


def turned_colour(state) -> int:
    """The colour of the card turned up in the deal (-1: none)."""
    return state.base.deck.face_colour[state.base.deck.card_face[state.turned]] if state.turned >= 0 else -1


def _colours(state, c: ContractTable, which: str) -> list[int]:
    if not c.each_colour:
        return [-1]
    turned = turned_colour(state)
    every = range(len(state.base.deck.colours))
    if which == "turned":
        return [turned]
    if which == "not-turned":
        return [x for x in every if x != turned]
    return list(every)


def holds_required(state, seat: int, c: ContractTable, colour: int) -> bool:
    """Whether ``seat`` holds what the contract's requires clause asks of its bidder."""
    mask, every = c.requires[colour if c.each_colour else 0]
    if c.requires_exactly >= 0:
        return held_count((state.hands[seat],), (mask,), 1) == c.requires_exactly
    if not mask:
        return True
    return holds_all_or_one((state.hands[seat],), (mask,), every, 1)


def colour_mates_of(t, card: int) -> int:
    """The cards (a bitmask) whose holding makes ``card``'s colour held for a call, in the play tables ``t``
    (:func:`~.core.colour_mates`, with each face's class numbered)."""
    d = t.deck
    groups = {g: i for i, g in enumerate(dict.fromkeys(t.face_group))}
    return colour_mates(d.card_face, d.face_colour, [groups[g] for g in t.face_group], t.n_cards, card)


def callable_cards(state, seat: int, c: ContractTable, colour: int) -> int:
    """The cards (a bitmask) ``seat`` may call as declarer of contract ``c`` in ``colour`` (the call clause).

    With two decks a card has copies, and calling it calls them all: he holds it if he holds a copy, and of the
    copies one (the first) stands for the card called.
    """
    mask = c.call[colour if c.each_colour else 0]
    if not mask:
        return 0
    hand = state.hands[seat]
    had = hand | state.discarded[seat]      # a card he laid away he held: he may not call it
    t = c.tables(colour)
    d = t.deck
    keep = seen = 0
    for card in range(t.n_cards):
        copies = d.face_cards[d.card_face[card]]
        if not mask >> card & 1 or seen & copies:
            continue
        seen |= copies
        mates = colour_mates_of(t, card) if c.call_colour_held else 0
        if may_call(True, bool(had & copies), c.call_not_held, c.call_colour_held, bool(hand & mates),
                    c.call_held):
            keep |= 1 << card
    return keep


def _may_bid(state, seat: int, c: ContractTable, colour: int) -> bool:
    if not holds_required(state, seat, c, colour):
        return False
    if c.call[colour if c.each_colour else 0] and not callable_cards(state, seat, c, colour):
        return False
    return True


def bid_actions(state) -> list:
    """The bids open to the seat to bid: each contract (and colour) the round offers that it may bid and that
    outbids the best so far, then passing (unless the dealer must bid)."""
    flow, seat = state.base.flow, bidder(state)
    rnd = flow.rounds[state.round]
    out = []
    for o in rnd.offers:
        if state.best is not None and rnd.mode == "highest" and o.rank <= state.best[3]:
            continue
        c = flow.contracts[o.contract]
        for colour in _colours(state, c, o.colour):
            bid = Bid(seat, o.contract, colour)
            if bid not in out and _may_bid(state, seat, c, colour):
                out.append(bid)
    if not (out and must_bid(state)):
        out.append(Bid(seat, -1, -1))
    return out


def must_bid(state) -> bool:
    """Whether the seat to bid may not pass: the dealer, last in the last round, when all the others passed."""
    flow = state.base.flow
    return (flow.all_pass == "dealer" and state.round == len(flow.rounds) - 1 and state.best is None
            and bidder(state) == state.dealer and state.bid_turn == state.base.n_seats - 1)


def bid(state, seat: int, contract: int, colour: int) -> None:
    """Apply a bid (or a pass, ``contract`` -1)."""
    flow = state.base.flow
    rnd = flow.rounds[state.round]
    state.bids.append((seat, contract, colour))
    if contract >= 0:
        rank = next(o.rank for o in rnd.offers if o.contract == contract)
        if rnd.mode == "first":
            _declare(state, seat, contract, colour)
            return
        state.best = (seat, contract, colour, rank)
    state.bid_turn += 1
    if state.bid_turn < state.base.n_seats:
        return
    if state.best is not None:
        s, k, col, _rank = state.best
        _declare(state, s, k, col)
    elif state.round + 1 < len(flow.rounds):
        state.round, state.bid_turn = state.round + 1, 0
    else:
        _all_pass(state)


def _all_pass(state) -> None:
    flow = state.base.flow
    if flow.all_pass == "play" and flow.all_pass_offer is not None:
        o = flow.all_pass_offer
        c = flow.contracts[o.contract]
        colour = turned_colour(state) if o.colour == "turned" else -1
        _declare(state, -1, o.contract, colour if c.each_colour else -1)
        return
    state.thrown_in = True        # the cards are thrown in: nobody plays, nobody scores
    state.phase = OVER


def _declare(state, seat: int, contract: int, colour: int) -> None:
    state.declarer, state.contract, state.trump = seat, contract, colour
    offer = offer_of(state)
    if offer is not None and seat >= 0:
        state.phase, state.offer_turn = OFFER, 0
        state.offered = offered_card(state)
        return
    _exchange(state)


# --- a card offered: the others answer in turn, its taker gives cards back ---------------------------------------

def offer_of(state):
    """The offer of the contract being played (:class:`~.flow.OfferTable`), or None."""
    return state.base.flow.contracts[state.contract].offer if state.contract >= 0 else None


def offered_card(state) -> int:
    """The card the declarer offers: his one card of those the offer clause names (the requires clause saw to
    it that he holds exactly one)."""
    mask = offer_of(state).offered(state.trump) & state.hands[state.declarer]
    return (mask & -mask).bit_length() - 1


def answerer(state) -> int:
    """The seat asked now whether it takes the card offered: the others in turn from the first seat the offer
    clause names, the declarer passed over."""
    n = state.base.n_seats
    base, offset = offer_of(state).first
    return asked_seat(named_seat(base == "dealer", offset, state.dealer, n), state.declarer, state.offer_turn, n)


def may_take(state, seat: int) -> bool:
    """Whether ``seat`` could give back what the taker of the card offered must give back (and so may take it)."""
    offer = offer_of(state)
    return held_count((state.hands[seat],), (offer.given_back(state.trump),), 1) >= offer.back_count


def answer_actions(state) -> list:
    """The answers open to the seat asked: to take the card (where it could give back what a taker gives back),
    then to let it lie."""
    seat = answerer(state)
    return ([Answer(seat, True)] if may_take(state, seat) else []) + [Answer(seat, False)]


def answer(state, seat: int, take: bool) -> None:
    """``seat`` takes the card offered (it goes to its hand, and it is the declarer's partner) or lets it lie;
    when every other player has let it lie, the offer refused clause says what follows."""
    if take:
        card = state.offered
        state.hands[state.declarer] &= ~(1 << card)
        state.hands[seat] |= 1 << card
        state.taker = state.partner = seat
        state.to_give, state.phase = offer_of(state).back_count, RETURN
        return
    state.offer_turn += 1
    if state.offer_turn < state.base.n_seats - 1:
        return
    if offer_of(state).refused == "redeal":
        state.thrown_in = True        # the cards are thrown in: nobody plays, nobody scores
        state.phase = OVER
        return
    _exchange(state)                  # the declarer plays alone: nobody took the card, so he keeps it


def give_back_actions(state) -> list:
    """One :class:`Give` per card of the taker's hand that the offer clause lets him give back."""
    seat = state.taker
    mask = state.hands[seat] & offer_of(state).given_back(state.trump)
    return [Give(seat, c) for c in range(state.base.n_cards) if mask >> c & 1]


def given_back(state) -> int:
    """The cards (a bitmask) the taker of the card offered has given back so far, as the game's log has them."""
    return sum(1 << e[2] for e in state._history if e[0] == "give" and len(e) > 3)


def give_back(state, seat: int, card: int) -> None:
    """The taker gives ``card`` to the declarer; after the last card, on to the exchange, the call or play."""
    bit = 1 << card
    state.hands[seat] &= ~bit
    state.hands[state.declarer] |= bit
    state.to_give -= 1
    if state.to_give == 0:
        _exchange(state)


def _call_or_play(state) -> None:
    """After the exchange (if any): the declarer calls his partner's card, or play begins."""
    if state.contract < 0:
        start_play(state)
        return
    c = state.base.flow.contracts[state.contract]
    if c.call[state.trump if c.each_colour else 0] and state.declarer >= 0:
        # the exchange may have given him every card he could call: then he calls none and plays alone
        if callable_cards(state, state.declarer, c, state.trump):
            state.phase = CALL
            return
    start_play(state)


# --- the call and the exchange -----------------------------------------------------------------------------------

def call_actions(state) -> list:
    """One :class:`Call` per card the declarer may call."""
    c = state.base.flow.contracts[state.contract]
    mask = callable_cards(state, state.declarer, c, state.trump)
    return [Call(state.declarer, x) for x in range(state.base.n_cards) if mask >> x & 1]


def call(state, seat: int, card: int) -> None:
    """The declarer calls ``card``: its holder (if it was dealt) becomes his partner; with two decks, the holders
    of its copies but himself."""
    state.called = card
    held = called_holders(state)
    state.partner = held[0] if held else -1
    start_play(state)


def called_copies(state) -> int:
    """The called card and its copies (a bitmask; 0 before a call)."""
    d = state.base.deck
    return d.face_cards[d.card_face[state.called]] if state.called >= 0 else 0


def called_holders(state) -> tuple[int, ...]:
    """The seats other than the declarer's that hold the called card or a copy of it, in seat order."""
    copies = called_copies(state)
    return tuple(s for s in range(state.base.n_seats) if s != state.declarer and state.hands[s] & copies)


def exchange_rule(state) -> tuple[str, str, int] | None:
    """The exchange of this game: the contract's, or the ruleset's own where no contract is bid."""
    flow = state.base.flow
    return flow.contracts[state.contract].exchange if state.contract >= 0 else flow.exchange


def exchanger(state) -> int:
    """The seat taking up cards and discarding."""
    who = exchange_rule(state)[0]
    return state.dealer if who == "dealer" or state.declarer < 0 else state.declarer


def _exchange(state) -> None:
    rule = exchange_rule(state)
    if rule is None:
        _call_or_play(state)
        return
    who, takes, discards = rule
    seat = exchanger(state)
    if takes == "turned":
        state.hands[seat] |= 1 << state.turned
        state.stock &= ~(1 << state.turned)
    else:
        state.hands[seat] |= state.stock
        state.stock = 0
    state.exchanger, state.to_discard, state.phase = seat, discards, EXCHANGE


def discard_actions(state) -> list:
    """One :class:`Discard` per card of the exchanging hand."""
    seat = state.exchanger
    hand = state.hands[seat]
    return [Discard(seat, c) for c in range(state.base.n_cards) if hand >> c & 1]


def discard(state, seat: int, card: int) -> None:
    """``seat`` lays ``card`` away; when the last card is discarded, play begins."""
    bit = 1 << card
    state.hands[seat] &= ~bit
    state.discarded[seat] |= bit
    state.to_discard -= 1
    if state.to_discard == 0:
        _call_or_play(state)


# --- the game's own tables ----------------------------------------------------------------------------------------

def partner_rule(state) -> str:
    """Who plays with whom in this game: the contract's rule, else the ruleset's."""
    flow = state.base.flow
    if flow is None:
        return "fixed"
    if state.contract >= 0:
        return flow.contracts[state.contract].partner
    return flow.partner


def holders(state) -> tuple[int, ...]:
    """The seats holding the cards of a ``parties: holders of`` clause, in seat order. A card laid away in the
    exchange is still its holder's (as a called card laid away is): Dreiwendsch's soloist who lays the Queen of
    clubs away still plays alone."""
    flow = state.base.flow
    return tuple(s for s in range(state.base.n_seats) if (state.hands[s] | state.discarded[s]) & flow.holders)


def game_of(state, partner: int, called_by: tuple[int, ...] | None = None) -> object:
    """The tables of this game with ``partner`` as the declarer's partner (-1: none yet); ``called_by``: the seats
    taken to hold the called card's copies (None: those that hold them in ``state``)."""
    flow = state.base.flow
    t0 = flow.contracts[state.contract].tables(state.trump) if state.contract >= 0 else state.base
    rule = partner_rule(state)
    if called_by is None:
        called_by = called_holders(state) if rule == "called" else ()
    party_of = partition(state.base.n_seats, rule, state.declarer, partner,
                         holders(state) if rule == "holders" else called_by if rule == "called" else (),
                         t0.party_of)
    sitting = 0
    if state.contract >= 0 and flow.contracts[state.contract].sit_out and state.declarer >= 0:
        if rule == "fixed":
            mate = next(s for s in t0.parties[t0.party_of[state.declarer]] if s != state.declarer)
            sitting = 1 << mate
        elif partner >= 0:
            sitting = 1 << partner
    return game_tables(flow, t0, party_of, sitting, state.called, state.declarer, 0 if rule == "holders" else -1)


def game_if_called_by(state, seats: tuple[int, ...]) -> object:
    """The tables this game would have if ``seats`` (in seat order, the declarer's own left out) held the called
    card's copies: the parties a player imagines for a deal he cannot see, made as :func:`call` makes them."""
    return game_of(state, seats[0] if seats else -1, seats)


def start_play(state) -> None:
    """Fix the game's tables and its first leader, and go on to play (through the moment before play)."""
    flow = state.base.flow
    if flow is not None:
        if state.declarer < 0 and partner_rule(state) == "holders" and len(holders(state)) == 1:
            state.declarer = holders(state)[0]     # one player holds them all: he plays alone, as the declarer
        state.t = game_of(state, state.partner)
    t = state.t
    state.points, state.card_points = [0] * len(t.parties), [0] * len(t.parties)
    leader = t.first_leader(state.dealer)
    if t.first_lead_card >= 0:
        leader = next((s for s in range(t.n_seats) if state.hands[s] >> t.first_lead_card & 1), leader)
    if t.sitting >> leader & 1:
        leader = t.next_seat(leader)
    state.leader = leader
    state.start_hands = tuple(state.hands)
    state.phase = PLAY
    state._enter_play()


def found_partner(state, winner: int) -> None:
    """After a trick: where the declarer's partner is the first other player to take a trick, he is found."""
    partner = core_found_partner(PARTNER_RULES.index(partner_rule(state)), state.partner, state.declarer, winner)
    if partner != state.partner:
        state.partner = partner
        state.t = game_of(state, partner)
