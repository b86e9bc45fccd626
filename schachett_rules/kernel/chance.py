"""The random player: the one home of every random choice a game makes, the deal's included.

A seat that plays at random takes the k-th of its legal cards, k = floor(u ×
count), for the next uniform number u (:func:`~.deal.pick`); at a moment of
castling it considers its castles King by King, takes each chance when its
number falls below one half (:func:`~.castling.chance_taken`) and then the
officer the next number picks (:func:`~.castling.officer_at`), and otherwise
lets the moment go; before play it takes the k-th of the actions open (a card
to pass, a bid, a card to call or to discard, an answer to a card offered, a card given back); chance deals with :func:`~.deal.deal_full`. The compiled
play-outs draw the very same numbers in the same order, so a random game is the
same game on every path.

>>> from schachett_rules.kernel.compiler import tables_for
>>> from schachett_rules.kernel.state import State
>>> from schachett_rules.kernel.streams import GameStream
>>> rng = GameStream(4, 0)
>>> state = State.deal(tables_for("reconstruction"), 3, rng)
>>> state.advance(lambda seat, s: random_action(s, rng)) == -2    # played to the end
True
>>> len(state.tricks)
13
"""

from __future__ import annotations

from .actions import BEFORE_PLAY, CASTLE, DEAL, PLAY, Castle, Deal, Pass, Play
from .castling import chance_taken, officer_at
from .core import kth
from .deal import deal_full, pick


def random_action(state, rng):
    """The random player's action for the decider of ``state`` (chance at the deal), drawing from ``rng.random``."""
    phase = state.phase
    if phase == PLAY:
        rule = state.rule_action()
        if rule is not None:
            return rule
        return Play(state.seat_to_play(), pick(state.legal().mask, rng.random()))
    if phase == CASTLE:
        offers = state.castle_offers()
        for o in offers:
            if chance_taken(rng.random()):
                return Castle(o.seat, o.king, o.officers[officer_at(rng.random(), len(o.officers))])
        return Pass(offers[0].seat)
    if phase == DEAL:
        hands, stock, turned, piles = deal_full(state.t, state.dealer, rng)
        return Deal(tuple(hands), stock, turned, piles)
    if phase in BEFORE_PLAY:
        # a card to pass, a bid, a card to call, a card to discard, an answer to a card offered, a card given
        # back: the k-th of the actions open, in their order
        actions = state.legal_actions()
        return actions[kth(len(actions), rng.random())]
    return None


def play_randomly(state, rng) -> None:
    """Finish a game with the random player in every seat (the automaton's seats by their rule)."""
    state.advance(lambda seat, s: random_action(s, rng))
