"""Fast random play-outs: whole games with no records, from the same tables.

The recorded engine (:mod:`.engine`) builds a frozen record for every card; a
simulation of thousands of games needs only the score. :func:`random_game`
plays the same game the engine plays for the same random numbers (the deal of
:func:`~schachett_rules.kernel.deal.deal_cards`, one ``rng.random()`` per card,
the choice of :func:`~schachett_rules.kernel.deal.pick`), with everything held in
local variables. A test plays both paths side by side and compares them.

>>> import random
>>> from schachett_rules.kernel.compiler import tables_for
>>> from schachett_rules.engine.game import Game
>>> t = tables_for("original")
>>> out = random_game(t, 3, random.Random(5))
>>> game = Game.deal(t, 3, random.Random(5))
>>> game.play_randomly(random.Random(5))  # a fresh stream: not the same game
>>> rng = random.Random(5)
>>> same = Game.deal(t, 3, rng)
>>> same.play_randomly(rng)               # the deal and the play from one stream, as random_game does
>>> out.totals == same.result().totals, [tr.winner for tr in same.tricks] == list(out.trick_winners)
(True, True)
"""

from __future__ import annotations

import random
from typing import NamedTuple

from ..kernel.compiler import Tables
from ..kernel.deal import deal_cards, seat_of
from ..kernel.scoring import KingCount, king_events, take_trick


class Outcome(NamedTuple):
    """The score of one play-out."""

    totals: tuple[int, ...]                 # points by party
    card_points: tuple[int, ...]
    events: list                            # (EventTable, trick index, owner, first, points, parties)
    trick_winners: tuple[int, ...]          # seat that won each trick


def random_game(t: Tables, dealer: int, rng: random.Random) -> Outcome:
    """Play one game with every seat choosing uniformly among its legal cards."""
    if t.castling is not None or t.automaton is not None:
        return _through_engine(t, dealer, rng)
    hands = deal_cards(t, dealer, rng)
    rnd = rng.random
    card_face = t.deck.card_face
    follow, royal = t.follow, t.royal_cards
    n_seats, n_tricks = t.n_seats, t.n_tricks
    party_of = t.party_of
    won = [0] * len(t.parties)
    count = KingCount()
    events = []
    winners = []
    leader = seat_of(t, *t.first_lead, dealer)
    for trick in range(n_tricks):
        if trick == n_tricks - 1:
            beats, points = t.beats_last, t.points_last
        else:
            beats, points = t.beats, t.points
        # the lead: any card of the hand
        h = hands[leader]
        k = int(rnd() * h.bit_count())
        m = h
        while k:
            m &= m - 1
            k -= 1
        low = m & -m
        hands[leader] = h ^ low
        c = low.bit_length() - 1
        wface = card_face[c]
        wseat = leader
        total = points[wface]
        kings = [(leader, wface)] if royal & low else None
        tiers = follow[wface]
        seat = leader
        for _ in range(n_seats - 1):
            seat += 1
            if seat == n_seats:
                seat = 0
            h = hands[seat]
            for tier in tiers:
                m = h & tier
                if m:
                    break
            else:
                m = h
            k = int(rnd() * m.bit_count())
            while k:
                m &= m - 1
                k -= 1
            low = m & -m
            hands[seat] = h ^ low
            f = card_face[low.bit_length() - 1]
            if beats[f] >> wface & 1:
                wface = f
                wseat = seat
            total += points[f]
            if royal & low:
                if kings is None:
                    kings = []
                kings.append((seat, f))
        won[party_of[wseat]] += total
        if kings:
            for ev, face, owner, first, pts, parties in king_events(t, trick, kings, wseat, count):
                events.append((ev, trick, owner, first, pts, parties))
        winners.append(wseat)
        leader = wseat
    totals = list(won)
    for ev, trick, owner, first, pts, parties in events:
        for p in parties:
            totals[p] += pts
    return Outcome(tuple(totals), tuple(won), events, tuple(winners))


def _through_engine(t: Tables, dealer: int, rng: random.Random) -> Outcome:
    # Castling adds choices between cards, and an automaton a rule of its own, that this loop does not model.
    from ..engine.game import Game
    game = Game.deal(t, dealer, rng)
    game.play_randomly(rng)
    result = game.result()
    events = []
    by_name = {e.name: e for e in t.events}
    for e in result.events:
        events.append((by_name[e.event], e.trick - 1, e.owner, e.order == "first", e.points, e.scoring_parties))
    return Outcome(result.totals, result.card_points, events, tuple(tr.winner for tr in game.tricks))


def continue_randomly(t: Tables, hands: list[int], trick: list[tuple[int, int]], leader: int, trick_index: int,
                      won: list[int], count, rng: random.Random) -> list[int]:
    """Finish a game from any position with random legal play; the parties' final points.

    ``hands`` are card masks by seat, ``trick`` the (seat, card) already on the
    table, ``won`` the points each party has so far (cards and Kings), ``count``
    the Kings fallen so far (a :class:`~schachett_rules.kernel.scoring.KingCount`,
    copied here, not changed). Castling is not played out. The Monte-Carlo
    player uses this to value a card.
    """
    hands = list(hands)
    totals = list(won)
    count = KingCount.copy_of(count)
    card_face, follow = t.deck.card_face, t.follow
    n_seats = t.n_seats
    rnd = rng.random
    trick = list(trick)
    for index in range(trick_index, t.n_tricks):
        while len(trick) < n_seats:
            seat = (leader + len(trick)) % n_seats
            h = hands[seat]
            m = h
            if trick:
                for tier in follow[card_face[trick[0][1]]]:
                    m = h & tier
                    if m:
                        break
            k = int(rnd() * m.bit_count())
            while k:
                m &= m - 1
                k -= 1
            low = m & -m
            hands[seat] = h ^ low
            trick.append((seat, low.bit_length() - 1))
        leader = take_trick(t, index, trick, totals, count)
        trick = []
    return totals
