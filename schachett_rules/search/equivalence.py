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

from ..kernel.automaton import strength_order
from ..kernel.castling import officer_cards
from ..kernel.tables import Tables


def _split(mask: int, words: int) -> list[int]:
    return [(mask >> (64 * w)) & ((1 << 64) - 1) for w in range(words)]


def distinctions(t: Tables, by_points: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """``alike[f, g]``: whether faces f and g can ever be equivalent; ``apart[f, g]``: the cards that tell them apart.

    ``apart`` holds card masks as 64-bit words (faces × faces × words). With ``by_points`` False, two faces that
    score differently may still be alike: they then play alike but for their points (what :func:`chains` asks).
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
            if by_points and (t.points[f], t.points_last[f]) != (t.points[g], t.points_last[g]):
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


def chains(t: Tables, alike: np.ndarray, apart: np.ndarray) -> list[list[int]]:
    """Sets of cards, each in rank order, that differ only in which of them takes which: every pair equivalent
    whenever no card of the set lies between them, each face dealt once, the higher taking the lower in
    ordinary and last tricks alike. Two positions whose cards of a chain lie in the same order of holders
    play alike (a transposition table may key them as one).

    From the distinctions that ignore points (``distinctions(t, by_points=False)``) the chains may join cards
    of different points too, a colour's pawns: two such positions then play alike move for move, and their
    values differ by no more than the points by which the k-th card of a chain in one differs from the k-th in
    the other, summed (each card goes to the same party in both).

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> t = tables_for("original")
    >>> [[t.deck.card_name(c) for c in chain] for chain in chains(t, *distinctions(t))]
    [['wX', 'wIX', 'wVIII', 'wVII', 'wVI', 'wV'], ['sX', 'sIX', 'sVIII', 'sVII', 'sVI', 'sV']]
    >>> [len(chain) for chain in chains(t, *distinctions(t, by_points=False))]     # the pawns 8 to 1 join in
    [8, 6, 8, 6]
    """
    d, n = t.deck, t.n_faces
    words = apart.shape[2]

    def mask(f: int, g: int) -> int:
        return sum(int(apart[f, g, w]) << (64 * w) for w in range(words))

    def fits(f: int, g: int) -> bool:
        # equivalent but for cards that are themselves equivalent to both
        tells = mask(f, g) & ~(d.face_cards[f] | d.face_cards[g])
        return bool(alike[f, g]) and all(alike[f, h] and alike[g, h] for h in range(n) if d.face_cards[h] & tells)

    strength = strength_order(t)
    single = [f for f in range(n) if d.face_cards[f].bit_count() == 1]
    seen: set[int] = set()
    out = []
    for f in single:
        if f in seen:
            continue
        group = [f] + [g for g in single if g != f and fits(f, g)]
        while True:
            # the face that fits fewest of the others leaves, until every pair fits
            misfits = {g: sum(1 for h in group if h != g and not fits(g, h)) for g in group}
            worst = max(group, key=lambda g: (misfits[g], g != f))
            if not misfits[worst]:
                break
            group.remove(worst)
        if len(group) < 2:
            continue
        order = sorted(group, key=lambda g: sum(1 for h in group if t.beats[g] >> h & 1), reverse=True)
        cards = sum(d.face_cards[g] for g in group)
        places = [strength[(d.face_cards[g]).bit_length() - 1] for g in order]
        ranked = all((t.beats[g] >> h & 1) == (t.beats_last[g] >> h & 1) == (i < j) and not mask(g, h) & ~cards
                     for i, g in enumerate(order) for j, h in enumerate(order) if i != j)
        # the automaton's order of strength (a play-out's, an automaton seat's) must agree with the chain's
        ranked = ranked and (places == sorted(places) or places == sorted(places, reverse=True))
        if ranked:
            seen.update(group)
            out.append([(d.face_cards[g]).bit_length() - 1 for g in order])
    return out


def table_chains(t: Tables) -> list[list[int]]:
    """The chains a transposition table keys by their holders' order: those of cards that play alike but for their
    points (:func:`chains` over ``distinctions(t, by_points=False)``), then, of the cards none of those holds, the
    chains of cards that score alike too (which the first grouping may have passed over).

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> t = tables_for("ai-reconstruction")
    >>> sorted(len(chain) for chain in table_chains(t))
    [2, 2, 4, 4, 8, 8]
    """
    found = chains(t, *distinctions(t, by_points=False))
    taken = {card for chain in found for card in chain}
    return found + [chain for chain in chains(t, *distinctions(t)) if not taken & set(chain)]

