"""Castling's rules, on plain state: which moments exist, who may castle, how often, with which officers.

A castle exchanges a King for an officer of the hand of another seat
(``t.castling.partner_for``). Three moments are possible, each granted by a
permit of the castling clause: before the first card (``before play``),
between tricks from some trick on (``after trick N``), and as a rescue
(``rescue in trick N``) of a King just taken, which is lifted out of the full
trick while the officer takes its place there. Which fates a rescue may undo
is the ``castle rescue`` clause's (checkmate, selfmate, ...), asked by the
King's fate; whether a seat without a King may take the King of the hand it
castles with is the ``castle king`` clause's.

The recorded engine (:mod:`schachett_rules.engine.castling`), the one-game
play-out and the batch all ask these functions. The leaf rules
(:func:`permitted`, :func:`within_limit`, :func:`may_rescue`, :func:`takes_other_king`) take only ints and
int sequences, so the compiled play-outs run the very same source.

>>> from schachett_rules.kernel.compiler import tables_for
>>> t = tables_for("reconstruction")
>>> [seat for seat in range(4) if seat_permitted(t, seat, BEFORE, 0, dealer=3)]   # the player left of the dealer
[0]
>>> [seat for seat in range(4) if seat_permitted(t, seat, BETWEEN, 1, dealer=3)]  # the dealer's party
[1, 3]
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from .core import RELATIONS, relation
from .tables import Tables

BEFORE, BETWEEN, RESCUE = 0, 1, 2               # the moments of a game at which a castle may be made
MOMENTS = ("before", "between", "rescue")
_WHEN = {"before": 0, "after": 1, "rescue": 2}  # a permit's ``when``, as the moment it grants
LIMITS = ("game", "party", "seat", "none")


class Permits(NamedTuple):
    """The permits of a castling clause as int tuples (one entry per permit), for the leaf rules."""

    relative: tuple[int, ...]   # bitmask of seats named relative to the dealer (offset from the dealer)
    absolute: tuple[int, ...]   # bitmask of seats named absolutely
    any_holder: tuple[int, ...]  # 1: any King holder may castle
    when: tuple[int, ...]       # the moment granted (BEFORE, BETWEEN, RESCUE)
    trick: tuple[int, ...]      # the trick the permit names, -1 for none


def castle_permits(castling, n_seats: int) -> Permits:
    """A castling table's permits as int tuples, for the leaf rules (the compiler keeps them on the tables)."""
    rel, ab, anyh, when, trick = [], [], [], [], []
    for seats, any_holder, w, tr in (castling.permits if castling else ()):
        r = a = 0
        for base, off in seats:
            if base == "dealer":
                r |= 1 << (off % n_seats)
            else:
                a |= 1 << off
        rel.append(r), ab.append(a), anyh.append(int(any_holder)), when.append(_WHEN[w])
        trick.append(-1 if tr is None else tr)
    return Permits(tuple(rel), tuple(ab), tuple(anyh), tuple(when), tuple(trick))


def permits_of(t: Tables) -> Permits:
    """The castling clause's permits as int tuples (worked out by the compiler)."""
    return t.castle_permits or Permits((), (), (), (), ())


def permitted(relative, absolute, any_holder, when, trick, n_seats: int, dealer: int, seat: int, moment: int,
              tricks_done: int) -> bool:
    """Whether some permit lets ``seat`` castle at ``moment``, with ``tricks_done`` tricks gathered.

    ``after trick N`` opens the moments between tricks once N tricks are done;
    ``rescue in trick N`` the rescue in trick N alone (counted from 1), a
    rescue permit without a trick every rescue.
    """
    for p in range(len(when)):
        if not any_holder[p] and not (absolute[p] >> seat) & 1 and not (relative[p] >> ((seat - dealer) % n_seats)) & 1:
            continue
        w, tr = when[p], trick[p]
        if moment == BEFORE and w == BEFORE:
            return True
        if moment == BETWEEN and w == BETWEEN and tricks_done >= max(tr, 0):
            return True
        if moment == RESCUE and w == RESCUE and (tr < 0 or tr == tricks_done + 1):
            return True
    return False


def within_limit(limit: int, party_of, seat: int, castled: int) -> bool:
    """Whether the clause's limit (an index of :data:`LIMITS`) lets ``seat`` castle; ``castled``: bitmask of seats that have."""
    if limit == 0:
        return castled == 0
    if limit == 1:
        for s in range(len(party_of)):
            if (castled >> s) & 1 and party_of[s] == party_of[seat]:
                return False
        return True
    if limit == 2:
        return not (castled >> seat) & 1
    return True


def castle_open(never: int, relative, absolute, any_holder, when, trick, n_seats: int, dealer: int, seat: int,
                moment: int, tricks_done: int, limit: int, party_of, castled: int) -> bool:
    """Whether ``seat`` may be asked to castle at ``moment``: its player is not one who never castles (``never``,
    a bitmask of seats), a permit grants the moment (:func:`permitted`) and the limit allows another castle
    (:func:`within_limit`). Whether it has a King and an officer to exchange is the caller's to add."""
    return (not (never >> seat) & 1
            and permitted(relative, absolute, any_holder, when, trick, n_seats, dealer, seat, moment, tricks_done)
            and within_limit(limit, party_of, seat, castled))


def may_rescue(fates: int, party_of, seat: int, winner: int) -> bool:
    """Whether a King played by ``seat`` in a trick taken by ``winner`` is one that may be rescued.

    ``fates`` is the bitmask (by :data:`~.core.RELATIONS` index) of the fates
    the ``castle rescue`` clause names: a King taken by an opponent
    (checkmate), by its own party (selfmate), or winning the trick itself.

    >>> from .core import OPPONENT
    >>> may_rescue(1 << OPPONENT, (0, 1, 0, 1), 0, 1), may_rescue(1 << OPPONENT, (0, 1, 0, 1), 0, 2)
    (True, False)
    """
    return (fates >> relation(party_of, seat, winner)) & 1 == 1


def rescue_fates_mask(t: Tables) -> int:
    """The fates a rescue may undo (the tables' ``rescue_fates``) as a bitmask by :data:`~.core.RELATIONS` index."""
    fates = t.castling.rescue_fates if t.castling else ()
    return sum(1 << i for i, rel in enumerate(RELATIONS) if rel in fates)


def takes_other_king(other_king: bool, moment: int, own_kings: int) -> bool:
    """Whether a castle at ``moment`` takes the King of the hand castled with, for one of the castler's officers.

    Only where the tables allow it (``castle king``), only before play, and
    only when the castling seat holds no King (``own_kings``: its Kings, a mask).
    """
    return other_king and moment == BEFORE and own_kings == 0


def officer_cards(t: Tables) -> int:
    """The cards (a bitmask) that may be taken for a King: those of the clause's officer faces."""
    return t.castle_officers


def seat_permitted(t: Tables, seat: int, moment: int, tricks_done: int, dealer: int) -> bool:
    """Whether the castling clause lets ``seat`` castle at ``moment`` (see :func:`permitted`)."""
    if t.castling is None:
        return False
    p = permits_of(t)
    return permitted(p.relative, p.absolute, p.any_holder, p.when, p.trick, t.n_seats, dealer, seat, moment,
                     tricks_done)


def limit_code(t: Tables) -> int:
    """The clause's limit as an index of :data:`LIMITS`."""
    return LIMITS.index(t.castling.limit)


def castled_mask(seats: Sequence[int]) -> int:
    """The bitmask of the seats that have castled."""
    out = 0
    for s in seats:
        out |= 1 << s
    return out


class Option(NamedTuple):
    """A castle allowed now: who castles, which King, with which hand, and the officers on offer.

    Mostly the King is the castling seat's own and the officer comes from the
    hand castled with; where ``castle king`` allows it, a seat without a King
    takes the King of that hand for one of its own officers (then
    ``officer_seat`` is the castling seat itself).
    """

    seat: int
    king: int                    # the King's card
    with_seat: int
    officers: tuple[int, ...]    # cards that may be given for the King, in deck order
    kind: str                    # before | between | rescue
    position: int                # the King's place in the trick (rescue only), else -1
    officer_seat: int = -1       # the hand the officer comes from (-1: with_seat's, the usual castle)

    @property
    def giver(self) -> int:
        """The seat whose hand gives the officer (and receives the King)."""
        return self.with_seat if self.officer_seat < 0 else self.officer_seat

    @property
    def king_seat(self) -> int:
        """The seat whose hand (or, in a rescue, whose card in the trick) gives the King."""
        return self.with_seat if self.giver == self.seat else self.seat


def options(t: Tables, moment: int, hands: Sequence[int], trick: Sequence[tuple[int, int]], tricks_done: int,
            winner: int, castled: int, dealer: int) -> list[Option]:
    """Every castle the rules allow at ``moment``, in the order the random player considers them.

    Before play and between tricks: seat by seat, each King of the seat in deck
    order. As a rescue: the Kings of the full ``trick`` (taken by ``winner``) in
    playing order. ``castled`` is the bitmask of seats that have castled.
    """
    c = t.castling
    if c is None:
        return []
    p = permits_of(t)
    limit, officers_mask, fates = limit_code(t), officer_cards(t), rescue_fates_mask(t)

    def allowed(seat: int) -> bool:
        return castle_open(t.never_castle, p.relative, p.absolute, p.any_holder, p.when, p.trick, t.n_seats, dealer,
                           seat, moment, tricks_done, limit, t.party_of, castled)

    def officers_of(seat: int) -> tuple[int, ...]:
        m = hands[seat] & officers_mask
        return tuple(card for card in range(t.n_cards) if m >> card & 1)

    out = []
    kind = MOMENTS[moment]
    if moment == RESCUE:
        for position, (seat, card) in enumerate(trick):
            if t.royal_cards >> card & 1 and may_rescue(fates, t.party_of, seat, winner) and allowed(seat):
                offered = officers_of(c.partner_for(seat))
                if offered:
                    out.append(Option(seat, card, c.partner_for(seat), offered, kind, position))
        return out
    for seat in range(t.n_seats):
        kings = hands[seat] & t.royal_cards
        other = c.partner_for(seat)
        giver, from_seat = other, -1
        if takes_other_king(c.other_king_before_play, moment, kings):
            kings, giver, from_seat = hands[other] & t.royal_cards, seat, seat
        if not kings or not allowed(seat):
            continue
        offered = officers_of(giver)
        if offered:
            out.extend(Option(seat, card, other, offered, kind, -1, from_seat)
                       for card in range(t.n_cards) if kings >> card & 1)
    return out


def chance_taken(r: float) -> bool:
    """The random player's castling: a chance is taken when its uniform number ``r`` is below one half."""
    return r < 0.5


def officer_at(r: float, count: int) -> int:
    """Which of ``count`` officers on offer (in deck order) the random player takes for a uniform number ``r``."""
    return int(r * count)
