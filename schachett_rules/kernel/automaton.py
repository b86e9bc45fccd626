"""Seats played by a fixed rule (the ``automaton`` clause): which legal card the rule plays.

The rule is worked out from the compiled tables and the trick queries alone:
which legal card is lowest or highest by rank (then by points), and which
cards would take the trick from the card holding it.

>>> from schachett_rules.kernel.compiler import tables_for
>>> t = tables_for("original")
>>> hand = t.deck.face_cards[t.face("w1")] | t.deck.face_cards[t.face("wK")]
>>> t.deck.card_name(automaton_card(t, hand, [], 0, "lowest"))
'w1'
>>> t.deck.card_name(automaton_card(t, hand, [], 0, "highest"))
'wK'

Where cards are passed before play, the clause may say which the seat passes:
its highest or its lowest, one card at a time by the same order of strength.

>>> h = tables_for("hearts")
>>> hand = sum(h.deck.face_cards[h.face(f)] for f in ("c2", "sQ", "hA"))
>>> h.deck.card_name(automaton_give(h, hand, "highest")), h.deck.card_name(automaton_give(h, hand, "lowest"))
('hA', 'c2')
"""

from __future__ import annotations

from typing import Sequence

from .core import POLICIES, automaton_pick, takes_from
from .tables import Tables
from .trick import captures, holder, legal


def strength(t: Tables, card: int) -> tuple:
    """How strong a card is for the automaton's choice: rank, then points, then deck order."""
    face = t.deck.card_face[card]
    return (t.rank[face], t.points[face], card)


def policy_of(t: Tables, seat: int) -> str | None:
    """The rule a seat plays by, or None if a player plays it."""
    if t.automaton is None:
        return None
    seats, policy = t.automaton
    return policy if seat in seats else None


def strength_places(rank, points, card_face) -> tuple[int, ...]:
    """Card -> its place when all cards are sorted by rank, then points, then deck order (the compiler keeps it).

    >>> strength_places((2, 1), (0, 5), (0, 1, 1))     # card 0 ranks highest; cards 1 and 2 are one face
    (2, 0, 1)
    """
    order = sorted(range(len(card_face)), key=lambda c: (rank[card_face[c]], points[card_face[c]], c))
    place = [0] * len(card_face)
    for i, c in enumerate(order):
        place[c] = i
    return tuple(place)


def strength_order(t: Tables) -> tuple[int, ...]:
    """Card -> its place when all cards are sorted by :func:`strength` (worked out by the compiler)."""
    return t.strength_order


def passes_of(t: Tables, seat: int) -> str | None:
    """Which cards an automaton's seat passes (``highest`` or ``lowest``), or None if a player passes them."""
    return t.automaton_passes if policy_of(t, seat) is not None else None


def automaton_give(t: Tables, hand: int, rule: str) -> int:
    """The card the rule ``rule`` (``highest`` or ``lowest``) passes next from ``hand``."""
    cards = [c for c in range(t.n_cards) if hand >> c & 1]
    return automaton_pick(POLICIES.index(rule), cards, [False] * len(cards), len(cards), strength_order(t))


def automaton_card(t: Tables, hand: int, trick: Sequence[tuple[int, int]], index: int, policy: str,
                   played: int = 0) -> int:
    """The card the rule ``policy`` plays from ``hand`` to ``trick`` (trick ``index``, from 0; ``played``: the
    cards played so far, for the restrictions)."""
    mask, _tier = legal(t, hand, trick, played, index)
    cards = [c for c in range(t.n_cards) if mask >> c & 1]
    takes = [False] * len(cards)
    if trick:
        beats, held = captures(t, index), holder(t, index, trick)[1]
        takes = [takes_from(beats, t.deck.card_face[c], held) for c in cards]
    return automaton_pick(POLICIES.index(policy), cards, takes, len(cards), strength_order(t))


def action_words(state, action, verb: bool = True) -> str:
    """An automaton's action in words: "passes hA", "plays w7", "passes at its turn to bid" (without the verb:
    "hA", "a bid of rufer"); ``action`` is a :class:`~.actions.Play`, ``Give``, ``Discard``, ``Call``, ``Bid`` or
    ``Answer``."""
    if type(action).__name__ == "Answer":
        if action.take:
            return "takes the card offered" if verb else "taking the card offered"
        return "lets the card offered lie" if verb else "letting it lie"
    if type(action).__name__ == "Bid":
        if action.contract < 0:
            return "passes at its turn to bid" if verb else "a pass"
        return ("bids " if verb else "a bid of ") + state.base.flow.contracts[action.contract].name
    name = state.t.deck.card_name(action.card) if 0 <= action.card < state.t.n_cards else repr(action.card)
    doing = {"Give": "passes ", "Discard": "lays away ", "Call": "calls ", "Play": "plays "}[type(action).__name__]
    return (doing if verb else "") + name
