"""Sessions: rounds, cycles and the seat changes between rounds (§13).

>>> from schachett_rules.loader import load
>>> for seating in seatings(load("original").clause("session"), "ABCD"):
...     print("".join(seating))
ABCD
ACBD
ACDB
ADCB
ADBC
ABDC
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from . import ir


def _change(seating: list[str], session: ir.Session, round_number: int, a: str) -> None:
    parity = "even" if round_number % 2 == 0 else "odd"
    n = len(seating)
    for ch in session.changes:
        if ch.rounds == parity:
            i = (seating.index(a) + ch.after_a) % n
            j = (i + 1) % n  # the left neighbour sits on the next seat
            seating[i], seating[j] = seating[j], seating[i]


def seatings(session: ir.Session, players) -> list[list[str]]:
    """Who sits on each seat in each round of a cycle; the first player is A."""
    seating = list(players)
    out = [list(seating)]
    for round_number in range(2, session.rounds_per_cycle + 1):
        _change(seating, session, round_number, players[0])
        out.append(list(seating))
    return out


def next_cycle_start(session: ir.Session, players) -> list[str]:
    """The seating the change before the next cycle's first round produces."""
    seating = seatings(session, players)[-1]
    _change(seating, session, session.rounds_per_cycle + 1, players[0])
    return seating


def partner_counts(session: ir.Session, players, parties) -> Counter:
    """How many rounds of a cycle each pair of players plays in one party."""
    counts: Counter = Counter({frozenset(p): 0 for p in combinations(players, 2)})
    for seating in seatings(session, players):
        for party in parties:
            for a, b in combinations([seating[s] for s in party], 2):
                counts[frozenset((a, b))] += 1
    return counts
