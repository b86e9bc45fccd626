"""The structure of the §12 study: facts every legal game obeys, worked out from the trick queries.

A scenario that adds up may still be impossible: a trick has one winner, a
King cannot win a trick against a card that takes it beyond its reach, the
last trick holds one card per seat. :func:`structural_problem` names the first such
fact a scenario breaks.
"""

from __future__ import annotations

import itertools

from ...kernel.scoring import fate_word
from ...kernel.tables import Tables
from ...kernel.trick import card_points, holds_against, takers
from .model import KingFate, Scenario, last_extra, winning_party


def _index(t: Tables, last: bool) -> int:
    # the capture relation differs only between the last trick and the others
    return t.n_tricks - 1 if last else 0


def _faces(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _holders_after(t: Tables, index: int, x: int) -> int:
    """Faces that may hold trick ``index`` at some moment after face ``x`` was played into it.

    Whatever ``x`` fails to take may still hold; whatever takes a holder holds.
    """
    mask = 1 << x
    for y in range(t.n_faces):
        if not holds_against(t, index, x, y):
            mask |= 1 << y
    while True:
        grown = mask
        for y in _faces(mask):
            grown |= takers(t, index, y)
        if grown == mask:
            return mask
        mask = grown


def _takes_any(t: Tables, index: int, face: int, mask: int) -> bool:
    """Whether a card of ``face`` takes the trick from a card of any face in ``mask``."""
    return any(holds_against(t, index, face, y) for y in _faces(mask))


def _blocks(t: Tables, x: int, king: int, last: bool) -> bool:
    """Whether face ``x`` in a trick keeps face ``king`` from winning it, whatever the order.

    Played after the King, ``x`` must not take it; played before, the King must
    take whatever holds by then. If ``x`` takes the King and the King takes
    nothing that may hold after ``x``, the King cannot win.
    """
    index = _index(t, last)
    if not holds_against(t, index, x, king):
        return False
    return not _takes_any(t, index, king, _holders_after(t, index, x))


def _trick_problem(t: Tables, group: list[KingFate], last: bool) -> str | None:
    """Why the Kings of one trick cannot meet these fates together (None if they can)."""
    d = t.deck
    face = {k.king: d.face(k.king) for k in group}
    index = _index(t, last)
    winners = [k for k in group if k.fate == "self"]
    trick = group[0].trick
    if len(winners) > 1:
        return (f"{' and '.join(k.king for k in winners)} cannot both win trick {trick}: a trick has one winner, so "
                f"two Kings in one trick cannot both be stalemated")
    if winners:
        k = winners[0]
        for other in group:
            if other is k:
                continue
            if other.position > k.position and holds_against(t, index, face[other.king], face[k.king]):
                return f"{other.king}, played after {k.king} in trick {trick}, takes it, so {k.king} cannot win"
            if other.position < k.position and not _takes_any(t, index, face[k.king],
                                                              _holders_after(t, index, face[other.king])):
                return (f"{k.king} cannot win trick {trick}: {other.king} is played before it, and {k.king} takes "
                        f"neither it nor any card that may hold the trick after it (of two equal Kings the first "
                        f"played holds)")
    # Seats: each King is played by a seat of its owner's party, all different; some seat wins.
    n = t.n_seats
    for seats in itertools.permutations(range(n), len(group)):
        if any(t.party_of[s] != k.owner for s, k in zip(seats, group)):
            continue
        for w in range(n):
            fates = [fate_word(t, s, w) for s in seats]
            if fates == [k.fate for k in group]:
                return None
    said = ", ".join(f"{k.king} ({t.party_title(k.owner)}) {k.event or k.fate}" for k in group)
    return f"no winner of trick {trick} gives {said}: whoever wins decides each King's fate"


def structural_problem(t: Tables, sc: Scenario, room: int) -> tuple[str, str] | None:
    """The first structural constraint a scenario breaks: (constraint id, explanation)."""
    by_trick: dict[int, list[KingFate]] = {}
    for k in sc.kings:
        by_trick.setdefault(k.trick, []).append(k)
    for trick, group in sorted(by_trick.items()):
        problem = _trick_problem(t, group, trick == t.n_tricks)
        if problem:
            return "one-winner", problem
    if len(sc.promoted) > room:
        return "last-trick-full", (f"the last trick holds {t.n_seats} cards, but {len(sc.promoted)} promoted cards "
                                   f"and {t.n_seats - room} King(s) would have to be in it")
    d = t.deck
    for k in by_trick.get(t.n_tricks, []):
        if k.fate == "self":
            for f in sc.promoted:
                if _blocks(t, d.face(f), d.face(k.king), last=True):
                    as_face = d.face_names[t.promoted_as[d.face(f)]]
                    return "last-trick-stalemate", (
                        f"{k.king} is to be stalemated in the last trick, but {f} must be in that trick to score its "
                        f"+{last_extra(t, d.face(f))}, and there it counts as {as_face} and "
                        f"takes the King")
    last_kings = by_trick.get(t.n_tricks, [])
    if last_kings and sc.promoted:
        k = last_kings[0]
        winner = winning_party(t, k.owner, k.fate)
        least = sum(card_points(t, t.n_tricks - 1)[d.face(f)] for f in sc.promoted)
        if sc.card_points[winner] < least:
            return "last-trick-points", (f"{t.party_title(winner)} win the last trick ({k.king} {k.event or k.fate} there) "
                                         f"and with it {least} points of promoted cards, more than their "
                                         f"{sc.card_points[winner]} card points")
    return None
