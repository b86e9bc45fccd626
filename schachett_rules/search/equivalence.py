"""Which cards of one hand a search may treat as one: they play alike against every card still out.

Two cards of one hand are *equivalent* at a position when swapping them throughout the rest of the game
changes nothing: neither is a King, both score the same points (in the last trick too), each is followed
by the same cards when led and serves the same follow tiers when it follows, neither may be taken for a
King in castling, and no card still out tells them apart, that is takes one and not the other, or is
taken by one and not the other (a card "between" them in rank). Two copies of one face are always
equivalent. A search then tries one card of each set of equivalent cards, as double-dummy solvers of
bridge do with touching honours.

The rules are the tables' own (the capture relation of ordinary and last tricks, the card points, the
follow tiers); this module only compares faces under them. The search (:mod:`.alphabeta`) asks
``still_out & apart[f, g] == 0`` at a position, ``alike[f, g]`` beforehand.

>>> from schachett_rules.kernel.compiler import tables_for
>>> t = tables_for("original")
>>> alike, apart = distinctions(t)
>>> f, g = t.face("wV"), t.face("wVII")        # suit cards score nothing: only the wVI between them tells them apart
>>> bool(alike[f, g]), [t.deck.card_name(c) for c in range(t.n_cards) if int(apart[f, g, 0]) >> c & 1]
(True, ['wV', 'wVI', 'wVII'])
>>> bool(alike[t.face("w2"), t.face("w3")])      # a pawn scores its number
False
"""

from __future__ import annotations

import numpy as np

from ..kernel.castling import officer_cards
from ..kernel.tables import Tables


def _split(mask: int, words: int) -> list[int]:
    return [(mask >> (64 * w)) & ((1 << 64) - 1) for w in range(words)]


def distinctions(t: Tables) -> tuple[np.ndarray, np.ndarray]:
    """``alike[f, g]``: whether faces f and g can ever be equivalent; ``apart[f, g]``: the cards that tell them apart.

    ``apart`` holds card masks as 64-bit words (faces × faces × words).
    """
    d, n = t.deck, t.n_faces
    words = (t.n_cards + 63) // 64
    alike = np.zeros((n, n), dtype=np.bool_)
    apart = np.zeros((n, n, words), dtype=np.uint64)
    castles = t.castling is not None and bool(t.castling.permits)
    officers = officer_cards(t) if castles else 0
    fixed = [f for f in range(n) if d.face_royal[f] or d.face_cards[f] & officers]

    def serves(f: int) -> tuple:
        # in which tiers of which led faces a card of face f counts
        return tuple(bool(m & d.face_cards[f]) for tiers in t.follow for m in tiers)

    for f in range(n):
        for g in range(n):
            if f == g or f in fixed or g in fixed:
                continue
            if (t.points[f], t.points_last[f]) != (t.points[g], t.points_last[g]):
                continue
            if t.follow[f] != t.follow[g] or serves(f) != serves(g):
                continue
            alike[f, g] = True
            tells = 0
            for beats in (t.beats, t.beats_last):
                for h in range(n):
                    if (beats[f] >> h & 1) != (beats[g] >> h & 1) or (beats[h] >> f & 1) != (beats[h] >> g & 1):
                        tells |= d.face_cards[h]
            apart[f, g] = _split(tells, words)
    return alike, apart
