"""The deal: seats named in clauses, the shuffle, and the choice of the k-th card of a set.

Every path that deals or draws a card uses these, so that the recorded engine,
the fast play-outs and the studies deal the same hands from the same random
numbers.

>>> import random
>>> from schachett_rules.kernel.compiler import tables_for
>>> t = tables_for("original")
>>> hands = deal_cards(t, 3, random.Random(1))
>>> [h.bit_count() for h in hands], sum(hands) == t.full_mask
([13, 13, 13, 13], True)
"""

from __future__ import annotations

import random

from .core import kth, shuffle
from .tables import Tables


def pick(mask: int, r: float) -> int:
    """The card a uniform random choice ``r`` in [0, 1) picks from a bitmask: the k-th lowest, k = floor(r × count).

    >>> pick(0b10110, 0.0), pick(0b10110, 0.99)
    (1, 4)
    """
    k = kth(mask.bit_count(), r)
    while k:
        mask &= mask - 1
        k -= 1
    return (mask & -mask).bit_length() - 1


def seat_of(t: Tables, base: str, offset: int, dealer: int) -> int:
    """A seat named relative to the dealer (or absolutely).

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> seat_of(tables_for("original"), "dealer", 1, 3)
    0
    """
    return (dealer + offset) % t.n_seats if base == "dealer" else offset


def deal_cards(t: Tables, dealer: int, rng: random.Random) -> list[int]:
    """Deal the hands as the deal clause says: face-up cards first, then the rest shuffled.

    The shuffle is a Fisher-Yates driven by ``rng.random()``, one number per card.
    """
    n = t.n_seats
    hands = [0] * n
    for card, base, offset in t.given_cards:
        hands[(dealer + offset) % n if base == "dealer" else offset] |= 1 << card
    cards = list(t.rest_cards)
    rnd = rng.random
    shuffle(cards, [rnd() for _ in range(len(cards) - 1)], 0)
    pos, size = 0, t.hand_size
    for seat in range(n):
        h = hands[seat]
        need = size - h.bit_count()
        for c in cards[pos:pos + need]:
            h |= 1 << c
        hands[seat] = h
        pos += need
    return hands
