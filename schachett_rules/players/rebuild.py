"""A deal of the hidden cards made into the whole game, through the kernel's state.

A deal of the places (:func:`~.family_deals.places`: the current hands, the cards laid away, the stock) is not
yet a game: who leads, whether hearts are broken, the trumps, the parties are the kernel's to say.
:func:`replay` therefore rebuilds the whole game through the kernel's
:class:`~schachett_rules.kernel.state.State`: the deal (:func:`dealt`: the current hands with the cards each
seat played given back, the cards laid away and taken up given back to the stock, the passing undone), then
every decision before play the observation saw in the state's own order (the cards passed, the bids, the
cards laid away, the card called), then every card of the tricks. A bid or call the rules would refuse with
that deal, another declarer, a card the rules would not have allowed (a heart led before hearts were broken
by a hand that held another colour), a King taken within a party the seat saw taken across, shows the deal
to be impossible, and the sampler draws another. Passes between two hands the seat cannot see are unknown:
each such receiver is given that many of its cards as received, at random.

>>> import random
>>> from schachett_rules.kernel.compiler import tables_for
>>> from schachett_rules.kernel.state import State
>>> from schachett_rules.kernel.streams import GameStream
>>> from schachett_rules.players.family_deals import receiver
>>> from schachett_rules.players.montecarlo import Sampler
>>> t = tables_for("hearts")
>>> game = State.deal(t, 0, GameStream(1, 0), game=1)       # game 1 passes to the right
>>> rng = random.Random(0)
>>> while game.phase_name != "play" or game.done < 2:
...     _ = game.apply(game.legal_actions()[0])
>>> obs = game.observation(game.decider())
>>> obs.passed, receiver(t, obs) == (obs.seat - 1) % 4
(('c8', 'd3', 'd4'), True)
>>> again = replay(t, obs, Sampler(t, obs).sample(rng), rng)
>>> again.observation(obs.seat) == obs                      # the same game, as this seat sees it
True

In Euchre a defender does not know which card the dealer laid away after taking up the turned card; the
game rebuilt lays away the card the deal put there:

>>> t = tables_for("euchre")
>>> game = State.deal(t, 0, GameStream(3, 0))
>>> _ = game.apply(game.legal_actions()[0])                # ordered up; the dealer lays his first card away
>>> _ = game.apply(game.legal_actions()[0])
>>> obs = game.observation(1)
>>> hands = Sampler(t, obs).sample(rng)
>>> again = replay(t, obs, hands, rng)
>>> again.discarded[0] == hands[4] and again.observation(1) == obs
True
"""

from __future__ import annotations

import random

from ..errors import SchachettError
from ..kernel.actions import (AUCTION, BEFORE_PLAY, CASTLE, EXCHANGE, OFFER, PASSING, PLAY, RETURN, Answer, Bid, Deal,
                              Discard, Give, Play)
from ..kernel.deal import cards_in
from ..kernel.gamelog import trick_record
from ..kernel.observation import family_view
from ..kernel.state import State
from ..kernel.tables import Tables
from .family_deals import (covered_place, exchange, game_number, laid_place, offer_seen, passing_step, places,
                           plays_of, stock_place)


def _pick(items: list, k: int, rng) -> list:
    """``k`` of ``items`` at random, drawing only ``rng.random()`` (a game's own stream has nothing else)."""
    items = list(items)
    for i in range(k):
        j = i + int(rng.random() * (len(items) - i))
        items[i], items[j] = items[j], items[i]
    return items[:k]


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _copies(t: Tables) -> dict[str, int]:
    """Each card name's copies in the deck, as a mask (a name in a view is always the deck's own)."""
    return dict(zip(t.deck.face_names, t.deck.face_cards))


def piles_of(t: Tables, obs, hands: list[int], held: list[int], rng: random.Random) -> tuple[tuple[int, int], ...]:
    """A tableau's piles, ``(card on top, card it covers)``, as every seat saw them (the observation's
    ``tableau``): each card on the card that turned up when it was played, and each card still on its pile on
    one of its seat's covered cards in the sample (``hands``, by :func:`~.family_deals.covered_place`). Which
    covered card lies under which nobody saw: they are laid under the piles in a random order. ``held``: the
    hands as dealt."""
    copies = _copies(t)
    used = 0

    def card(seat: int, name: str) -> int:
        nonlocal used
        free = held[seat] & copies[name] & ~used
        if not free:
            raise SchachettError(f"{t.name}: seat {obs.seat}'s view of the tableau lays {name} in a pile of seat "
                                 f"{seat}, whose cards do not hold it; such a view does not come from a game of "
                                 f"these rules")
        used |= free & -free
        return _lowest(free)

    covered = {s: _pick(list(cards_in(hands[covered_place(t, s)])), hands[covered_place(t, s)].bit_count(), rng)
               for s in range(t.n_seats)}
    return tuple((card(seat, top), card(seat, under) if under is not None else covered[seat].pop())
                 for seat, top, under in obs.tableau)


def dealt(t: Tables, obs, hands: list[int], rng: random.Random) -> tuple[list[int], int, int, list[int], tuple, int]:
    """The deal a sample of the places (:func:`places`) was dealt from: the hands as dealt, the stock and the card
    turned up, the cards each seat passed on, a tableau's piles (:func:`piles_of`), and the cards the taker of a
    card offered gave back. The cards seen played and those still covered are given back to their hands, the
    cards laid away and taken up to the exchanger's hand and the stock, a card offered and those given for it
    to the hands they came from, the passing undone. Which of the exchanger's cards came from the stock nobody
    else saw: the stock is that many of his cards, at random (so too for the exchanger himself, whose
    observation does not keep it); which card was offered and which given back, a seat that did not see them
    does not know either: a card of the set offered of the taker's, and as many of the declarer's as he was
    given, at random."""
    n, d, flow = t.n_seats, t.deck, t.flow
    tableau = places(t) > n + 2
    held = [hands[s] | (hands[covered_place(t, s)] if tableau else 0) for s in range(n)]
    laid, stock = hands[laid_place(t)], hands[stock_place(t)]
    every, copies = 0, _copies(t)
    for h in hands:
        every |= h
    for s, name in plays_of(obs):
        card = copies[name] & ~every
        card &= -card
        held[s] |= card
        every |= card
    turned = -1
    shown = obs.turned if obs.turned is not None else obs.turned_down
    shown_copies = copies[shown] if shown is not None else 0
    ex = exchange(t, obs)
    if ex is not None:
        seat, takes, _ = ex
        held[seat] |= laid
        if takes == "turned":
            took = 1 << _lowest(held[seat] & shown_copies) if held[seat] & shown_copies else 0
        else:
            # the whole stock, with the card turned up from it
            kept = held[seat] & shown_copies
            took = 1 << _lowest(kept) if flow.turn == "stock" and kept else 0
            rest = [c for c in range(t.n_cards) if (held[seat] & ~took) >> c & 1]
            took |= sum(1 << c for c in _pick(rest, flow.stock - took.bit_count(), rng))
        held[seat] &= ~took
        stock |= took
    given_back = 0
    seen = offer_seen(t, obs)
    if seen is not None and seen[3] is not None:
        offer, colour, declarer, taker = seen
        offered = offer.offered(colour)
        if obs.offered is not None:
            card = copies[obs.offered] & held[taker]
            card &= -card
        else:
            cards = [c for c in range(t.n_cards) if (held[taker] & offered) >> c & 1]
            card = 1 << _pick(cards, 1, rng)[0] if cards else 0
        if obs.given_back:
            for name in obs.given_back:
                free = copies[name] & held[declarer] & ~given_back
                given_back |= free & -free
        else:
            cards = [c for c in range(t.n_cards) if (held[declarer] & offer.given_back(colour)) >> c & 1]
            given_back = sum(1 << c for c in _pick(cards, offer.back_count, rng))
        held[taker] = (held[taker] & ~card) | given_back
        held[declarer] = (held[declarer] & ~given_back) | card
    if flow.turn == "stock" and stock:
        # the card turned up lies in the stock: the one every seat saw
        turned = _lowest(stock & shown_copies) if stock & shown_copies else _pick([c for c in range(t.n_cards)
                                                                      if stock >> c & 1], 1, rng)[0]
    elif flow.turn == "dealer" and obs.turned is not None:
        turned = d.card_of(obs.turned)       # known by name, played or not (a copy's name is the card's own)
    passed = [0] * n
    step = passing_step(t, obs)
    if step is not None:
        count = flow.passing[0]
        received = [0] * n
        received[obs.seat] = sum(1 << d.card_of(name) for _, name in obs.received)
        received[(obs.seat + step) % n] = sum(1 << d.card_of(name) for name in obs.passed)
        for s in range(n):
            if not received[s]:
                cards = [c for c in range(t.n_cards) if held[s] >> c & 1]
                received[s] = sum(1 << c for c in _pick(cards, count, rng))
        for s in range(n):
            passed[(s - step) % n] = received[s]
        held = [(held[s] & ~received[s]) | passed[s] for s in range(n)]
    piles = piles_of(t, obs, hands, held, rng) if tableau else ()
    return held, stock, turned, passed, piles, given_back


def _before_play(t: Tables, obs, state: State, passed: list[int], laid: int, given_back: int = 0) -> bool:
    """Walk the game from the deal to its first card as the observation saw it: the cards passed, every bid,
    every answer to a card offered and the cards given back for it, the cards laid away, the card called, each
    in the state's own order and each asked of the state (a bid, answer or call its rules refuse with this deal
    makes the deal impossible). Whether the game reached play as the seat saw it reach it: the same contract,
    trumps, declarer, card called, seats sitting out."""
    d, flow = t.deck, t.flow
    bids = list(obs.bids)
    answers = list(obs.answers)
    ex = exchange(t, obs)
    while state.phase in BEFORE_PLAY:
        seat = state.before_play_seat()
        if state.phase == PASSING:
            action = Give(seat, _lowest(passed[seat] & state.hands[seat]))
        elif state.phase == AUCTION:
            if not bids or bids[0].seat != seat:
                return False
            said = bids.pop(0)
            action = Bid(seat, flow.contract_index(said.contract) if said.contract is not None else -1,
                         d.colours.index(said.colour) if said.colour is not None else -1)
            if action not in state.legal_actions():
                return False
        elif state.phase == OFFER:
            if not answers or answers[0][0] != seat:
                return False
            action = Answer(*answers.pop(0))
            if action not in state.legal_actions():
                return False
        elif state.phase == RETURN:
            left = given_back & state.hands[seat]
            if not left:
                return False
            action = Give(seat, _lowest(left))
            if action not in state.legal_actions():
                return False
        elif state.phase == EXCHANGE:
            left = laid & state.hands[seat]
            if ex is None or seat != ex[0] or not left:
                return False
            action = Discard(seat, _lowest(left))
        else:
            action = next((a for a in state.legal_actions() if d.card_name(a.card) == obs.called), None)
            if action is None:
                return False
        state.push(action)
    if bids or answers or state.phase not in (PLAY, CASTLE):
        return False
    view = family_view(state, obs.seat)
    return all(getattr(obs, key) == value for key, value in view.items())


def replay(t: Tables, obs, hands: list[int], rng: random.Random, strict: bool = True, probe=None) -> State | None:
    """The game rebuilt through the kernel's state for ``hands`` (the cards of every place, :func:`places`, as
    card masks): dealt (:func:`dealt`), passed, bid, exchanged, called and played as the observation saw it.
    None when the deal could not have led to the game the seat saw before play (a bid or call the rules refuse
    with it, another declarer), or when a card seen played would have broken a rule with that deal (``strict``;
    otherwise the card is played all the same). ``probe(state, seat, card)`` is called before each card seen
    played."""
    copies = _copies(t)
    if len(obs.tricks) != obs.trick_number - 1:
        raise SchachettError(f"{t.name}: the seat does not remember every trick, so its game cannot be rebuilt")
    held, stock, turned, passed, piles, given_back = dealt(t, obs, hands, rng)
    state = State(t, obs.dealer, game_number(t, obs))
    state.push(Deal(tuple(held), stock, turned, piles))
    if not _before_play(t, obs, state, passed, hands[laid_place(t)], given_back):
        return None
    # A seat that does not know the parties may have seen them in the tricks (a King taken within a party or
    # across it): each trick as the deal plays it is held against the trick seen, so that a deal showing other
    # parties is given up at the first trick that shows it, not at the end.
    watch = strict and obs.partners is None
    for s, name in plays_of(obs):
        card = _lowest(state.hands[s] & copies[name])
        if probe is not None:
            probe(state, s, card)
        # a hand the seat sees played by the rules in the game itself: only a hidden hand's card is asked
        if strict and s not in obs.hands and not state.legal().mask >> card & 1:
            return None
        done = state.done
        state.push(Play(s, card))
        if watch and state.done > done and trick_record(state, done) != obs.tricks[done]:
            return None
    # one that knows them has seen nothing the cards played by the rules do not show alike
    if watch and state.observation(obs.seat) != obs:
        return None
    return state


def rule_voids(t: Tables, obs, unseen: list[int], deals) -> list[int]:
    """By seat, the unseen cards a hidden hand cannot hold, because with that card beside the one it played the
    rules would have barred the card played: the follow tiers (a colour not followed) and the restrictions (a
    heart led before hearts were broken, a heart thrown in the first trick: the hand held nothing else), and an
    automaton's rule (a card it would have played instead of the one it played).

    The kernel's own legal cards are asked of a hand of the two cards at each card seen played, in a game
    rebuilt for the first of ``deals`` (samples of the places) that reaches play as the seat saw it (any such
    deal agrees with the cards seen: the tricks, and so the rules' memory, are the same in all of them). A card
    barred beside one card is barred beside more: neither a follow tier nor a restriction lets a fuller hand
    play what a smaller hand may not.
    """
    out = [0] * t.n_seats

    face = t.deck.card_face

    def probe(state: State, seat: int, card: int) -> None:
        if seat in obs.hands:
            return
        kept = state.hands[seat]
        for x in unseen:
            state.hands[seat] = 1 << card | 1 << x
            if not state.legal().mask >> card & 1:
                out[seat] |= 1 << x
                continue
            # an automaton's rule prefers one card to another whatever else the hand holds: a card it would
            # have played instead was not in the hand
            rule = state.rule_action()
            if rule is not None and face[rule.card] != face[card]:
                out[seat] |= 1 << x
        state.hands[seat] = kept

    for hands in deals:
        if replay(t, obs, hands, random.Random(0), strict=False, probe=probe) is not None:
            return out
        out = [0] * t.n_seats
    return out


class NoAgreeingDeal(SchachettError):
    """No deal the sampler drew leads to the game the seat saw before play: the thinking players then play that
    card as the heuristic player does (:meth:`~.montecarlo.Deliberating.play`)."""


def rebuilt(t: Tables, sampler, obs, rng: random.Random, tries: int = 400) -> State:
    """A game rebuilt (:func:`replay`) for a deal the sampler draws, drawing again while the rules rule it out;
    after ``tries`` draws a deal that reaches play as the seat saw it is played on as it is.

    The draws are many because a few Kings' fates can tell a seat much: in Schachett for eight, a trick that
    took three Kings showed who plays with whom, and one deal in twenty agrees with it."""
    for _ in range(tries):
        state = replay(t, obs, sampler.sample(rng), rng)
        if state is not None:
            return state
    for _ in range(tries):
        state = replay(t, obs, sampler.sample(rng), rng, strict=False)
        if state is not None:
            return state
    raise NoAgreeingDeal(f"{t.name}: no deal of the cards seat {obs.seat} cannot see, of {2 * tries} drawn, leads to "
                      f"the game it saw before play (the bids, the declarer, the card called); the sampling "
                      f"players cannot play on from here")
