"""The records of a game built from its state's compact history: the game log, in words a reader and JSON keep.

A :class:`~.state.State` keeps what happened as ints (the deal, each card, castle, pass and penalty, each
trick gathered) so that a search pays nothing for words; these functions turn one entry into its frozen
record (:mod:`.records`) when the record is asked for. The reasons of a trick are the kernel's
(:func:`~.trick.explain`), the follow rule that forced a card the follow clause's words.
"""

from __future__ import annotations

from .before_play import pass_target
from .castling import MOMENTS
from .deal import names_of
from .records import (AnswerRecord, BidRecord, CallRecord, CastleRecord, DealRecord, DiscardRecord, GiveRecord, KingEventRecord,
                      PassRecord, PenaltyRecord, PlayRecord, TrickRecord)
from .trick import explain, holders, is_last


def record(state, entry: tuple):
    """The frozen record of one entry of ``state``'s history."""
    t, name = state.t, state.t.deck.card_name
    kind = entry[0]
    if kind == "deal":
        stock, turned = (entry[2], entry[3]) if len(entry) > 2 else (0, -1)
        return DealRecord(dealer=state.dealer, hands=tuple(names_of(t, h) for h in dealt_hands(state)),
                          face_up=tuple((s, name(c)) for c, s in t.dealt_to(state.dealer)),
                          stock=names_of(t, stock), turned=name(turned) if turned >= 0 else None)
    if kind == "play":
        _, trick, seat, card, lead, tier, rule = entry
        forced = None
        if tier is not None:
            led = t.deck.card_face[_trick_cards(state, trick)[0][1]]
            forced = f"must follow {t.deck.face_names[led]} with {t.follow_words[led][tier]} ({t.follow_cite[led]})"
        if rule is not None:
            forced = restriction_words(t, rule)
        return PlayRecord(trick=trick, seat=seat, card=name(card), lead=lead, forced_by=forced)
    if kind in ("give", "bid", "call", "discard", "answer"):
        return _before_play_record(state, entry)
    if kind == "trick":
        return trick_record(state, entry[1])
    if kind == "castle":
        return castle_record(state, entry[1])
    if kind == "pass":
        _, trick, moment, seat, _implied = entry
        return PassRecord(trick=trick, kind=MOMENTS[moment], seat=seat, by=t.controller(seat))
    _, trick, seat, pname, to, card = entry
    p = t.penalties[pname]
    return PenaltyRecord(trick=trick, seat=seat, name=pname, points=p.pays or 0, to=to, forfeit=p.forfeit,
                         cite=", ".join(p.basis.cites), card=name(card) if card >= 0 else None)


def restriction_words(t, rule: int) -> str:
    """The restriction (or obligation, as ``-1 - k``) that narrowed a player's choice, in words with its citation."""
    if rule < 0:
        name, cite = t.obligation_words[-1 - rule]
        return f"obligation {name}: the card is owed to this trick ({cite})"
    name, cite = t.restriction_words[rule]
    return f"restriction {name} ({cite})"


def _before_play_record(state, entry: tuple):
    base, name = state.base, state.base.deck.card_name
    flow = base.flow
    kind = entry[0]
    if kind == "give" and len(entry) > 3:
        # a card given back to the declarer by the taker of the card he offered
        return GiveRecord(seat=entry[1], card=name(entry[2]), to=entry[3],
                          cite=flow.contracts[state.contract].offer.cite, back=True)
    if kind == "give":
        return GiveRecord(seat=entry[1], card=name(entry[2]), to=pass_target(state, entry[1]), cite=flow.passing_cite)
    if kind == "answer":
        return AnswerRecord(seat=entry[1], take=entry[2], card=name(entry[3]),
                            cite=flow.contracts[state.contract].offer.cite)
    if kind == "bid":
        _, seat, contract, colour = entry
        rnd = _bid_round(state, entry)
        if contract < 0:
            return BidRecord(seat=seat, round=rnd, cite=flow.auction_cite)
        c = flow.contracts[contract]
        return BidRecord(seat=seat, round=rnd, contract=c.name, title=c.title,
                         colour=base.deck.colours[colour] if colour >= 0 else None, cite=c.cite or flow.auction_cite)
    if kind == "call":
        c = flow.contracts[state.contract]
        return CallRecord(seat=entry[1], card=name(entry[2]), cite=c.call_cite)
    cite = flow.contracts[state.contract].exchange_cite if state.contract >= 0 else flow.exchange_cite
    return DiscardRecord(seat=entry[1], card=name(entry[2]), cite=cite)


def _bid_round(state, entry: tuple) -> int:
    """The round (from 1) of a bid: each round gives every seat one turn."""
    n = state.base.n_seats
    count = 0
    for e in state._history:
        if e is entry:
            break
        if e[0] == "bid":
            count += 1
    return count // n + 1


def _trick_cards(state, number: int) -> tuple:
    """The cards of trick ``number`` (from 1), finished or on the table."""
    i = number - 1 - state.first_trick
    return state._tricks[i][1] if i < len(state._tricks) else tuple(state.trick)


def dealt_hands(state) -> list[int]:
    """The hands as dealt (a game without a deal: the cards each seat played, and those it still holds face up)."""
    if state.known_deal:
        return list(state._history[0][1])
    hands = list(state.hands)
    for entry in state._history:
        if entry[0] == "play":
            hands[entry[2]] |= 1 << entry[3]
    return hands


def castle_record(state, i: int) -> CastleRecord:
    """The record of the ``i``-th castle of the game."""
    t = state.t
    trick, moment, seat, king, officer, with_seat, king_from, officer_from = state._castles[i]
    return CastleRecord(trick=trick, kind=MOMENTS[moment], seat=seat, by=t.controller(seat),
                        king=t.deck.card_name(king), officer=t.deck.card_name(officer), with_seat=with_seat,
                        cite=t.castling.cite, king_from=king_from, officer_from=officer_from)


def trick_record(state, i: int) -> TrickRecord:
    """The record of the ``i``-th trick of the state's log (from 0): its cards, who took it and why, its points,
    its Kings and rescues. A log that begins at a position (``State.at_position``) begins at its trick, so the
    record is numbered, and the last trick's rules found, by the game's count, not the log's."""
    t, d = state.t, state.t.deck
    leader, cards, winner, face, points, fates, rescues = state._tricks[i]
    i += state.first_trick
    held = holders(t, i, cards)
    why = tuple(explain(t, i, d.card_face[c], held[k][1]) for k, (_, c) in enumerate(cards[1:]))
    events = tuple(KingEventRecord(event=ev.name, king=d.face_names[f], owner=owner, taker=winner, trick=i + 1,
                                   order="first" if first else "later", points=pts, scoring_parties=parties,
                                   cite=ev.cite)
                   for ev, f, owner, first, pts, parties in fates)
    return TrickRecord(number=i + 1, leader=leader, cards=tuple((s, d.card_name(c)) for s, c in cards),
                       winner=winner, winning_card=d.face_names[face], why=why, points=points, last=is_last(t, i),
                       events=events, rescues=tuple(castle_record(state, k) for k in rescues))
