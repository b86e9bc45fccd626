"""Castling: a King exchanged for an officer of the hand opposite, as the castling clause allows.

Three moments are possible, each granted by a permit of the clause: before
the first card (``before play``), between tricks from some trick on
(``after trick N``), and as a rescue (``rescue in trick N``): when a King has
just been taken (checkmated or selfmated), it is lifted out of the full trick
and the officer takes its place there, before the trick is gathered.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from ..errors import IllegalAction, UnknownCard
from .records import CastleRecord

# The functions here take the engine's Game; engine.game imports this module, never the other way round.


class CastleOption(NamedTuple):
    """A castle allowed now: whose King, which card, with which hand, and the officers on offer."""

    seat: int
    king: int            # the King's card
    with_seat: int
    officers: tuple[int, ...]  # cards of the hand opposite that may be taken
    kind: str            # before | between | rescue
    position: int        # the King's place in the trick (rescue only), else -1


def _moment(game: "Game") -> str | None:
    if game.pending is not None:
        return "rescue"
    if game.trick or game.over:
        return None
    return "before" if not game.tricks else "between"


def _permitted(game: "Game", seat: int, moment: str) -> bool:
    t = game.t
    trick_done = len(game.tricks)
    for seats, any_holder, when, trick in t.castling.permits:
        named = {(game.dealer + off) % t.n_seats if base == "dealer" else off for base, off in seats}
        if seat not in named and not any_holder:
            continue
        if moment == "before" and when == "before":
            return True
        if moment == "between" and when == "after" and trick_done >= (trick or 0):
            return True
        if moment == "rescue" and when == "rescue" and (trick is None or trick == trick_done + 1):
            return True
    return False


def _within_limit(game: "Game", seat: int) -> bool:
    t = game.t
    limit = t.castling.limit
    if limit == "game":
        return not game.castles
    if limit == "party":
        return all(t.party_of[c.seat] != t.party_of[seat] for c in game.castles)
    if limit == "seat":
        return all(c.seat != seat for c in game.castles)
    return True


def _officers(game: "Game", with_seat: int) -> tuple[int, ...]:
    t = game.t
    faces = t.castling.officer_faces
    hand = game.hands[with_seat]
    return tuple(c for c in range(t.n_cards) if hand >> c & 1 and faces >> t.deck.card_face[c] & 1)


def castle_options(game: "Game") -> list[CastleOption]:
    """Every castle the rules allow at this moment."""
    t = game.t
    if t.castling is None:
        return []
    moment = _moment(game)
    if moment is None:
        return []
    out = []
    if moment == "rescue":
        wseat = game.pending[0]
        for position, (seat, card) in enumerate(game.trick):
            if not t.royal_cards >> card & 1 or (seat == wseat and not t.castling.rescue_own_take):
                continue
            if _permitted(game, seat, moment) and _within_limit(game, seat):
                officers = _officers(game, t.castling.partner_for(seat))
                if officers:
                    out.append(CastleOption(seat, card, t.castling.partner_for(seat), officers, "rescue", position))
        return out
    for seat in range(t.n_seats):
        kings = game.hands[seat] & t.royal_cards
        if not kings or not _permitted(game, seat, moment) or not _within_limit(game, seat):
            continue
        officers = _officers(game, t.castling.partner_for(seat))
        for card in range(t.n_cards):
            if kings >> card & 1 and officers:
                out.append(CastleOption(seat, card, t.castling.partner_for(seat), officers, moment, -1))
    return out


def rescues_possible(game: "Game", provisional) -> bool:
    """Whether the full trick just completed should wait: some King in it may still be rescued."""
    return any(o.kind == "rescue" for o in castle_options(game))


def verify_castle(game: "Game", seat: int, officer: str, king: str | None = None) -> CastleOption:
    """The castle asked for, if the clause allows it now; otherwise an error naming why."""
    t = game.t
    trick = len(game.tricks) + 1
    if t.castling is None:
        why = (f"its castling clause says none, {t.no_castling_cite}" if t.no_castling_cite else
               "it has no castling clause")
        raise IllegalAction(f"castling is not allowed here: ruleset {t.name} has no castling ({why})", trick=trick,
                            seat=seat, card=officer, clause=t.no_castling_cite or "castling")
    cite = t.castling.cite
    if not isinstance(seat, int) or not 0 <= seat < t.n_seats:
        raise IllegalAction(f"castle: seat {seat!r} does not exist", trick=trick)
    options = [o for o in castle_options(game) if o.seat == seat]
    moment = _moment(game)
    if not options:
        if moment is None:
            why = "castling happens before the first card, between tricks, or on a full trick as a rescue, not in the middle of a trick"
        elif moment != "rescue" and not game.hands[seat] & t.royal_cards:
            why = f"seat {seat} holds no King"
        elif not _permitted(game, seat, moment):
            when = {"before": "before play", "between": f"after trick {len(game.tricks)}", "rescue": "as a rescue now"}[moment]
            why = f"the castling clause does not let seat {seat} castle {when}"
        elif moment == "rescue" and not any(s == seat and t.royal_cards >> c & 1 for s, c in game.trick
                                            if s != game.pending[0]):
            why = f"seat {seat} has no King taken in trick {trick} to rescue"
        elif not _within_limit(game, seat):
            why = f"castling is limited to once per {t.castling.limit}, and that castle has been made"
        else:
            why = f"the hand opposite (seat {t.castling.partner_for(seat)}) has no officer that may be taken for the King"
        raise IllegalAction(f"{why} ({cite})", trick=trick, seat=seat, card=officer, clause=cite)
    if king is not None:
        try:
            kface = t.face(king)
        except UnknownCard as err:
            raise IllegalAction(err.message, trick=trick, seat=seat, card=king) from None
        options = [o for o in options if t.deck.card_face[o.king] == kface]
        if not options:
            raise IllegalAction(f"seat {seat} cannot castle with {king} now ({cite})", trick=trick, seat=seat, card=king)
    elif len({t.deck.card_face[o.king] for o in options}) > 1:
        names = ", ".join(sorted({t.deck.card_name(o.king) for o in options}))
        raise IllegalAction(f"seat {seat} may castle with {names}; say which King", trick=trick, seat=seat)
    option = options[0]
    try:
        oface = t.face(officer)
    except UnknownCard as err:
        raise IllegalAction(err.message, trick=trick, seat=seat, card=officer) from None
    if not any(t.deck.card_face[c] == oface for c in option.officers):
        offered = ", ".join(sorted({t.deck.card_name(c) for c in option.officers}))
        raise IllegalAction(f"{officer} cannot be taken for the King: seat {option.with_seat} offers {offered} "
                            f"(castle officer, {cite})", trick=trick, seat=seat, card=officer, clause=cite)
    return option


def apply_castle(game: "Game", option: CastleOption, officer: str) -> CastleRecord:
    """Make the exchange and log it; a rescue puts the officer in the King's place in the trick."""
    t = game.t
    oface = t.face(officer)
    card = next(c for c in option.officers if t.deck.card_face[c] == oface)
    king, seat, other = option.king, option.seat, option.with_seat
    game.hands[other] &= ~(1 << card)
    game.hands[other] |= 1 << king
    if option.kind == "rescue":
        game.trick[option.position] = (seat, card)
    else:
        game.hands[seat] &= ~(1 << king)
        game.hands[seat] |= 1 << card
    rec = CastleRecord(trick=len(game.tricks) + (1 if option.kind == "rescue" else 0), kind=option.kind, seat=seat,
                       by=t.controller(seat), king=t.deck.card_name(king), officer=t.deck.card_name(card),
                       with_seat=other, cite=t.castling.cite)
    game.castles.append(rec)
    game.log.append(rec)
    if option.kind == "rescue":
        game.pending = None
        game._complete()
    return rec


def random_castle(game: "Game", rng: random.Random) -> None:
    """The random player's castling: each chance taken with probability one half, the officer at random."""
    for option in castle_options(game):
        if rng.random() < 0.5:
            card = option.officers[int(rng.random() * len(option.officers))]
            apply_castle(game, option, game.t.deck.card_name(card))
            return
