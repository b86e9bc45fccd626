"""Seats played by a fixed rule: the opponents of a solitaire.

The rule is a clause of the ruleset (``automaton``), and is worked out from
the compiled tables alone: which legal card is lowest or highest by rank (and
then by points), and which cards would take the trick from the card holding
it.

>>> import random
>>> from schachett_rules.compiler import tables_for
>>> from schachett_rules.engine import Game
>>> t = tables_for("original")
>>> game = Game.deal(t, 3, random.Random(1))
>>> choose(game, "lowest") in game.legal()
True
"""

from __future__ import annotations

from .engine import Game


def _strength(t, card: int) -> tuple:
    face = t.deck.card_face[card]
    return (t.rank[face], t.points[face], card)


def choose(game: Game, policy: str) -> str:
    """The card the rule plays for the seat to move."""
    t = game.t
    legal = [c for c in range(t.n_cards) if game.legal().mask >> c & 1]
    if policy == "highest":
        return t.deck.card_name(max(legal, key=lambda c: _strength(t, c)))
    if policy == "cheapest-taker" and game.trick:
        last = len(game.tricks) == t.n_tricks - 1
        beats = t.beats_last if last else t.beats
        holder = t.deck.card_face[game.trick[0][1]]
        for _, c in game.trick[1:]:
            f = t.deck.card_face[c]
            if beats[f] >> holder & 1:
                holder = f
        takers = [c for c in legal if beats[t.deck.card_face[c]] >> holder & 1]
        if takers:
            return t.deck.card_name(min(takers, key=lambda c: _strength(t, c)))
    return t.deck.card_name(min(legal, key=lambda c: _strength(t, c)))


def plays(t, seat: int) -> str | None:
    """The rule a seat plays by, or None if a player plays it."""
    if t.automaton is None:
        return None
    seats, policy = t.automaton
    return policy if seat in seats else None
