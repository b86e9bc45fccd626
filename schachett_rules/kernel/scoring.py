"""King events and settlement, shared by the recorded engine and the fast play-outs.

Both paths call these same functions, so a King's fate and a game's money can
never be worked out two ways.
"""

from __future__ import annotations

from fractions import Fraction

from .tables import EventTable, Tables
from .core import RELATIONS, SCORERS, event_points, king_fate, king_scorer
from ..language.expr import evaluate


class KingCount:
    """How many Kings have met their fate so far: in all, and per kind of event."""

    __slots__ = ("total", "per_event")

    def __init__(self) -> None:
        self.total = 0
        self.per_event: dict[str, int] = {}

    @classmethod
    def copy_of(cls, other: "KingCount") -> "KingCount":
        """A copy to work out a trick provisionally without counting its Kings yet."""
        new = cls()
        new.total, new.per_event = other.total, dict(other.per_event)
        return new


def event_of(t: Tables) -> tuple[int, int, int]:
    """For each relation of a King's player to the winner (self, partner, opponent): the event's index, -1 for none."""
    cached = t.__dict__.get("_event_of")
    if cached is None:
        cached = tuple(next((i for i, e in enumerate(t.events) if e.when == rel), -1) for rel in RELATIONS)
        object.__setattr__(t, "_event_of", cached)
    return cached


def scorer_parties(t: Tables, scorer: int) -> tuple[int, ...]:
    """The parties a :func:`~.core.king_scorer` answer names."""
    if scorer >= 0:
        return (scorer,)
    return tuple(p for p in range(len(t.parties)) if p != -1 - scorer)


def king_events(t: Tables, trick_index: int, kings: list[tuple[int, int]], winner: int,
                count: KingCount) -> list[tuple[EventTable, int, int, bool, int, tuple[int, ...]]]:
    """The King events of one trick.

    ``kings`` lists the royal cards of the trick in play order as (seat, face).
    Returns, for each King that meets a fate: the event, the King's face, its
    owner (the seat that played it), whether it counts as the first King, the
    points, and the parties that score them.
    """
    out = []
    events, party_of, of = t.events, t.party_of, event_of(t)
    firsts, laters = [e.first for e in events], [e.later for e in events]
    before_total = count.total
    each_before = [count.per_event.get(e.name, 0) for e in events]
    each = list(each_before)
    for seat, face in kings:
        e, first = king_fate(party_of, of, t.count_each_event, t.same_trick_all_first, seat, winner,
                             count.total, before_total, each, each_before)
        if e < 0:
            continue
        ev = events[e]
        points = event_points(firsts, laters, e, first, trick_index)
        parties = scorer_parties(t, king_scorer(SCORERS.index(ev.scores), party_of, seat, winner))
        out.append((ev, face, seat, first, points, parties))
        count.total += 1
        each[e] += 1
        count.per_event[ev.name] = count.per_event.get(ev.name, 0) + 1
    return out


def amount(t: Tables, winner_points: int, loser_points: int) -> Fraction:
    """What each player of the winning party receives (and each loser pays)."""
    return evaluate(t.settlement.amount, {"winner": winner_points, "loser": loser_points})


def settle(t: Tables, totals: tuple[int, ...]) -> tuple[int | None, tuple[Fraction, ...]]:
    """The winning party (None on a tie) and the money per seat for a game's totals.

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> winner, money = settle(tables_for("original"), (190, 68))
    >>> winner, [int(m) for m in money]
    (0, [31, -31, 31, -31])
    """
    n = t.n_seats
    if totals[0] == totals[1]:
        return None, tuple(Fraction(0) for _ in range(n))
    w = 0 if totals[0] > totals[1] else 1      # the compiler allows a settlement per player between two parties
    (loser,) = t.other_parties(w)
    a = amount(t, totals[w], totals[loser])
    return w, tuple(a if t.party_of[s] == w else -a for s in range(n))


def penalty_money(t: Tables, points: int) -> Fraction:
    """The money for a penalty of ``points``: settled as a game won by that many points."""
    return amount(t, points, 0)
