"""What a card played to a trick tells about the hand it came from.

A follower must play from the first follow tier his hand can serve
(:func:`~.trick.legal`); so a player who played from a later tier, or from
none, held no card of the tiers before it. The Monte-Carlo player's deals and
the search that builds games without a deal reason this way; both ask these
queries, which ask :func:`~.trick.legal` and nothing else.

>>> from schachett_rules.kernel.compiler import tables_for
>>> t = tables_for("original")
>>> card = t.deck.card_of
>>> trick = [(0, card("w7"))]
>>> voids = void_after(t, trick, card("s8"))       # a black pawn on a white pawn: no white pawn left
>>> bool(voids >> card("w1") & 1), bool(voids >> card("s1") & 1)
(True, False)
>>> void_after(t, trick, card("w1"))               # he followed: nothing learnt
0
"""

from __future__ import annotations

from typing import Sequence

from .tables import Tables
from .trick import follows as legal


def tiers(t: Tables, led_card: int) -> list[tuple[int, int]]:
    """The follow tiers after ``led_card`` is led, in order: the cards each tier adds, and the cards of the tiers before it.

    A hand holding a card of a tier's ``before`` may not play from that tier.
    A card in no tier may be played only by a hand that can serve none.
    """
    trick = [(0, led_card)]
    rest, before, out = t.full_mask, 0, []
    while True:
        mask, tier = legal(t, rest, trick)
        if tier is None:
            return out
        out.append((mask, before))
        before |= mask
        rest &= ~mask


def void_after(t: Tables, trick: Sequence[tuple[int, int]], card: int) -> int:
    """The cards a player cannot hold after playing ``card`` to ``trick`` (``(seat, card)`` so far, led already).

    They are the cards of the follow tiers before the one ``card`` serves (of
    every tier, if it serves none).
    """
    rows = tiers(t, trick[0][1])
    for mask, before in rows:
        if mask >> card & 1:
            return before
    return (rows[-1][0] | rows[-1][1]) if rows else 0
