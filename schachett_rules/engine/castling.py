"""Castling in the recorded engine: verify, check and make a castle, with errors naming the clause.

A King is exchanged for an officer of the hand of another seat, as the
castling clause allows. The rules themselves (the moments, the permits, the
limit, the officers, which King may be rescued and whose hand a castle reaches)
are in :mod:`schachett_rules.kernel.castling`; this module applies them to a
:class:`~schachett_rules.engine.game.Game`.
"""

from __future__ import annotations

import random

from ..kernel import castling as rules
from ..errors import IllegalAction, UnknownCard
from .records import CastleRecord

# The functions here take the engine's Game; engine.game imports this module, never the other way round.


CastleOption = rules.Option   # a castle allowed now: seat, King, with_seat, officers, kind, position

_MOMENT_CODE = {name: code for code, name in enumerate(rules.MOMENTS)}


def _moment(game: "Game") -> str | None:
    if game.pending is not None:
        return "rescue"
    if game.trick or game.over:
        return None
    return "before" if not game.tricks else "between"


def _castled(game: "Game") -> int:
    return rules.castled_mask(c.seat for c in game.castles)


def _permitted(game: "Game", seat: int, moment: str) -> bool:
    return rules.seat_permitted(game.t, seat, _MOMENT_CODE[moment], len(game.tricks), game.dealer)


def _within_limit(game: "Game", seat: int) -> bool:
    t = game.t
    return rules.within_limit(rules.limit_code(t), t.party_of, seat, _castled(game))


def castle_options(game: "Game") -> list[CastleOption]:
    """Every castle the rules allow at this moment (:func:`schachett_rules.kernel.castling.options`)."""
    if game.t.castling is None:
        return []
    moment = _moment(game)
    if moment is None:
        return []
    winner = game.pending[0] if game.pending is not None else -1
    return rules.options(game.t, _MOMENT_CODE[moment], game.hands, game.trick, len(game.tricks), winner,
                         _castled(game), game.dealer)


def rescues_possible(game: "Game", provisional) -> bool:
    """Whether the full trick just completed should wait: some King in it may still be rescued."""
    return any(o.kind == "rescue" for o in castle_options(game))


def _too_late_to_rescue(game: "Game", seat: int) -> str:
    """Why a King just taken can no longer be rescued, when the castling clause limits rescues to some tricks."""
    t = game.t
    if not game.tricks:
        return ""
    last = game.tricks[-1]
    taken = [c for s, c in last.cards if s == seat and t.deck.face_royal[t.face(c)] and last.winner != s]
    rescue_tricks = [n for n in range(1, t.n_tricks + 1)
                     if rules.seat_permitted(t, seat, _MOMENT_CODE["rescue"], n - 1, game.dealer)]
    if not taken or not rescue_tricks or last.number in rescue_tricks:
        return ""
    only = " or ".join(f"trick {n}" for n in rescue_tricks) if len(rescue_tricks) < 4 else "some tricks"
    return (f": its {taken[0]} was taken in trick {last.number}, and the castling clause allows this seat a "
            f"rescue only in {only}")


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
            why = f"seat {seat} holds no King" + _too_late_to_rescue(game, seat)
        elif not _permitted(game, seat, moment):
            when = {"before": "before play", "between": f"after trick {len(game.tricks)}", "rescue": "as a rescue now"}[moment]
            why = f"the castling clause does not let seat {seat} castle {when}"
        elif moment == "rescue" and not any(s == seat and t.royal_cards >> c & 1 for s, c in game.trick
                                            if rules.may_rescue(rules.rescue_fates_mask(t), t.party_of, s,
                                                                game.pending[0])):
            why = f"seat {seat} has no King taken in trick {trick} to rescue"
        elif not _within_limit(game, seat):
            why = f"castling is limited to once per {t.castling.limit}, and that castle has been made"
        else:
            why = f"the hand of seat {t.castling.partner_for(seat)} has no officer that may be taken for the King"
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
        raise IllegalAction(f"{officer} cannot be taken for the King: seat {option.giver} offers {offered} "
                            f"(castle officer, {cite})", trick=trick, seat=seat, card=officer, clause=cite)
    return option


def apply_castle(game: "Game", option: CastleOption, officer: str) -> CastleRecord:
    """Make the exchange and log it; a rescue puts the officer in the King's place in the trick."""
    t = game.t
    oface = t.face(officer)
    card = next(c for c in option.officers if t.deck.card_face[c] == oface)
    king, seat, other = option.king, option.seat, option.with_seat
    giver, king_seat = option.giver, option.king_seat   # the King's and the officer's hands change places
    game.hands[giver] &= ~(1 << card)
    game.hands[giver] |= 1 << king
    if option.kind == "rescue":
        game.trick[option.position] = (seat, card)
    else:
        game.hands[king_seat] &= ~(1 << king)
        game.hands[king_seat] |= 1 << card
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
        if rules.chance_taken(rng.random()):
            card = option.officers[rules.officer_at(rng.random(), len(option.officers))]
            apply_castle(game, option, game.t.deck.card_name(card))
            return
