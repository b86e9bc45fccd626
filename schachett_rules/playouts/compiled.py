"""The random game compiled with numba: one loop for the one-game play-out and the batch.

The tables become arrays once per ruleset (:class:`Plan`). :func:`play` deals
and plays one game from a row of uniform numbers, as the engine's random player
plays it: the deal of :func:`~schachett_rules.kernel.deal.deal_cards`, one number
per card a player chooses (none for an automaton's), and at each moment of
castling one number per castle on offer (taken below one half) and one for the
officer. Every rule it applies is the kernel's own source compiled here:
:mod:`schachett_rules.kernel.core` (who takes a trick, the follow tier, a King's
fate and scorer, the automaton's card, the shuffle) and
:mod:`schachett_rules.kernel.castling` (the permits, the limit, which King may be
rescued, the random player's choice). This module only walks the game through
its moments and keeps the hands as 64-bit words.

When the numbers run out, :func:`play` stops where it stands and says how many
more it needs at least; called again with more, it goes on. So the one-game
path draws exactly the numbers the engine draws from any random source, and the
batch (whose rows hold a bound on a game's numbers) never runs out.

Numba compiles these functions once and keeps them in its cache (``cache=True``),
so a later process loads them instead of compiling them.
"""

from __future__ import annotations

import types

import numpy as np
from numba import njit

from ..kernel import castling as castle_rules
from ..kernel import core
from ..kernel.automaton import policy_of, strength_order
from ..kernel.castling import officer_cards, permits_of
from ..kernel.scoring import event_of
from ..kernel.tables import Tables

_jit = njit(cache=True, nogil=True)
# Everything the loop calls is inlined into it: a call that passes arrays costs two atomic reference counts
# per array, which, card after card, cost more than the game itself.
_inline = njit(cache=True, nogil=True, inline="always")
_bare = njit(cache=True, nogil=True, _nrt=False)   # allocates nothing, so it counts no references either


def _same_source(func, **callees):
    """``func`` compiled from its own source, its calls to other leaf rules bound to their compiled versions."""
    scope = dict(func.__globals__, **callees)
    clone = types.FunctionType(func.__code__, scope, func.__name__, func.__defaults__, func.__closure__)
    clone.__qualname__, clone.__module__, clone.__doc__ = func.__qualname__, func.__module__, func.__doc__
    return _inline(clone)


# the kernel's leaf rules, the same source compiled
takes_from = _inline(core.takes_from)
holder_after = _same_source(core.holder_after, takes_from=takes_from)
serving_tier = _inline(core.serving_tier)
relation = _inline(core.relation)
king_fate = _same_source(core.king_fate, relation=relation)
king_scorer = _inline(core.king_scorer)
event_points = _inline(core.event_points)
automaton_pick = _inline(core.automaton_pick)
shuffle = _inline(core.shuffle)
kth = _inline(core.kth)
permitted = _inline(castle_rules.permitted)
within_limit = _inline(castle_rules.within_limit)
may_rescue = _same_source(castle_rules.may_rescue, relation=relation)
takes_other_king = _inline(castle_rules.takes_other_king)
chance_taken = _inline(castle_rules.chance_taken)
officer_at = _inline(castle_rules.officer_at)

BEFORE, BETWEEN, RESCUE = castle_rules.BEFORE, castle_rules.BETWEEN, castle_rules.RESCUE

# the registers of a game in progress
POS, TRICK, PLAYED, LEADER, PHASE, CASTLED, N_CASTLES, FALLEN, N_EVENTS, DEALER, DRAWN, CASTLING, REGS = range(13)
DEAL, START, PLAY, FULL, OVER = range(5)             # phases
# the scalars of a plan
(S_SEATS, S_TRICKS, S_CARDS, S_WORDS, S_REST, S_EACH, S_SAME, S_CASTLING, S_FATES, S_LIMIT, S_LEAD_DEALER, S_LEAD_OFF,
 S_EVENTS, S_ROYAL, S_RANDOM, S_PARTIES, S_OTHER_KING, N_SCALARS) = range(18)
# the columns of the logs
T_WINNER, T_POINTS, T_LEADER, T_CARDS = 0, 1, 2, 3      # tricks: winner, points, leader, then the cards in play order
E_KIND, E_TRICK, E_OWNER, E_FIRST, E_POINTS, E_SCORER = range(6)
C_TRICK, C_KIND, C_SEAT, C_KING, C_OFFICER, C_WITH = range(6)

_U1 = np.uint64(1)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


class Plan:
    """The tables as arrays, built once per ruleset (kept on the tables)."""

    def __init__(self, t: Tables):
        n, words = t.n_seats, (t.n_cards + 63) // 64
        self.words = words

        def split(mask: int) -> np.ndarray:
            return np.array([(mask >> (64 * w)) & ((1 << 64) - 1) for w in range(words)], dtype=np.uint64)

        self.card_face = np.array(t.deck.card_face, dtype=np.int64)
        self.strength = np.array(strength_order(t), dtype=np.int64)
        self.royal = split(t.royal_cards)
        self.officers = split(officer_cards(t))
        self.beats = np.array([t.beats, t.beats_last], dtype=np.int64)
        self.points = np.array([t.points, t.points_last], dtype=np.int64)
        depth = max(len(tiers) for tiers in t.follow)
        follow = np.zeros((t.n_faces, depth * words), dtype=np.uint64)
        for face, tiers in enumerate(t.follow):
            for i, m in enumerate(tiers):
                follow[face, i * words:(i + 1) * words] = split(m)
        self.follow = follow
        self.party_of = np.array(t.party_of, dtype=np.int64)
        policies = [policy_of(t, t.controller(s)) for s in range(n)]
        self.policy = np.array([-1 if p is None else core.POLICIES.index(p) for p in policies], dtype=np.int64)
        self.with_seat = np.array([t.castling.partner_for(s) if t.castling else s for s in range(n)], dtype=np.int64)
        self.event_of = np.array(event_of(t), dtype=np.int64)
        n_events = len(t.events)
        self.scores = np.array([core.SCORERS.index(e.scores) for e in t.events] or [0], dtype=np.int64)
        self.first = np.array([e.first for e in t.events] or [[0] * t.n_tricks], dtype=np.int64)
        self.later = np.array([e.later for e in t.events] or [[0] * t.n_tricks], dtype=np.int64)
        p = permits_of(t)
        self.permits = np.array([p.relative, p.absolute, p.any_holder, p.when, p.trick], dtype=np.int64).reshape(5, -1)
        self.rest = np.array(t.rest_cards, dtype=np.int64)
        self.given = np.zeros((n, n, words), dtype=np.uint64)
        self.start = np.zeros((n, n), dtype=np.int64)
        self.end = np.zeros((n, n), dtype=np.int64)
        for dealer in range(n):
            counts = [0] * n
            for card, base, off in t.given_cards:
                seat = (dealer + off) % n if base == "dealer" else off
                self.given[dealer, seat, card // 64] |= np.uint64(1 << (card % 64))
                counts[seat] += 1
            pos = 0
            for seat in range(n):
                need = t.hand_size - counts[seat]
                self.start[dealer, seat], self.end[dealer, seat] = pos, pos + need
                pos += need
        self.random_seats = int((self.policy < 0).sum())
        self.n_royal = t.royal_cards.bit_count()
        c = t.castling
        sc = np.zeros(N_SCALARS, dtype=np.int64)
        sc[S_SEATS], sc[S_TRICKS], sc[S_CARDS], sc[S_WORDS] = n, t.n_tricks, t.n_cards, words
        sc[S_REST], sc[S_EACH], sc[S_SAME] = len(t.rest_cards), t.count_each_event, t.same_trick_all_first
        sc[S_CASTLING] = c is not None and bool(c.permits)
        sc[S_FATES] = castle_rules.rescue_fates_mask(t)
        sc[S_OTHER_KING] = bool(c and c.other_king_before_play)
        sc[S_LIMIT] = castle_rules.limit_code(t) if c else 3
        sc[S_LEAD_DEALER], sc[S_LEAD_OFF] = t.first_lead[0] == "dealer", t.first_lead[1]
        sc[S_EVENTS], sc[S_ROYAL], sc[S_RANDOM], sc[S_PARTIES] = n_events, self.n_royal, self.random_seats, len(t.parties)
        self.scalars = sc
        self.n_parties = len(t.parties)
        # the moments a permit opens: before play, between tricks (from its trick on), rescues (in its trick or all)
        moments = 0
        if sc[S_CASTLING]:
            when, trick = np.array(p.when), np.array(p.trick)
            moments += int((when == BEFORE).any())
            after = trick[when == BETWEEN]
            moments += max(t.n_tricks - int(np.maximum(after, 1).min()), 0) if len(after) else 0
            rescue = trick[when == RESCUE]
            moments += (t.n_tricks if (rescue < 0).any() else len(set(rescue.tolist()))) if len(rescue) else 0
        self.max_castles = moments
        # the seats a permit lets castle before play / between tricks, by dealer and tricks done (a bitmask)
        self.open_seats = np.zeros((n, 2, t.n_tricks + 1), dtype=np.int64)
        for dealer in range(n):
            for moment in (BEFORE, BETWEEN):
                for done in range(t.n_tricks + 1):
                    self.open_seats[dealer, moment, done] = sum(
                        1 << seat for seat in range(n)
                        if castle_rules.permitted(*p, n, dealer, seat, moment, done))
        self.deal_draws = max(len(t.rest_cards) - 1, 0)
        self.card_draws = t.n_tricks * self.random_seats
        # each moment: a number per castle on offer (one per King at most; twice where a seat without a King
        # may take another hand's) and one for the officer
        per_moment = self.n_royal * (2 if sc[S_OTHER_KING] else 1) + 1
        self.max_draws = self.deal_draws + self.card_draws + moments * per_moment

    def tables(self) -> tuple:
        """The arrays :func:`play` reads, in its order."""
        return (self.scalars, self.card_face, self.strength, self.royal, self.officers, self.beats, self.points,
                self.follow, self.party_of, self.policy, self.with_seat, self.event_of, self.scores, self.first,
                self.later, self.permits, self.open_seats, self.rest, self.given, self.start, self.end)

    def state(self) -> "State":
        """Fresh arrays for one game."""
        return State(self)


class State:
    """One game's arrays: hands, the trick on the table, the registers and the logs."""

    def __init__(self, plan: Plan):
        sc = plan.scalars
        n, tricks = int(sc[S_SEATS]), int(sc[S_TRICKS])
        self.hands = np.zeros((n, plan.words), dtype=np.uint64)
        self.trick = np.zeros((2, n), dtype=np.int64)          # seats, cards
        self.regs = np.zeros(REGS, dtype=np.int64)
        self.tricks = np.zeros((tricks, T_CARDS + n), dtype=np.int64)
        self.events = np.zeros((max(plan.n_royal, 1), 6), dtype=np.int64)
        self.castles = np.zeros((max(plan.max_castles, 1), 6), dtype=np.int64)
        self.totals = np.zeros((2, plan.n_parties), dtype=np.int64)   # points by party: all, cards only
        self.each = np.zeros((2, max(len(plan.scores), 1)), dtype=np.int64)  # Kings fallen per event: so far, before this trick

    def arrays(self) -> tuple:
        """The arrays :func:`play` writes, in its order."""
        return self.hands, self.trick, self.regs, self.tricks, self.events, self.castles, self.totals, self.each


def plan_of(t: Tables) -> Plan:
    """The arrays of a ruleset (built on first use, kept on the tables)."""
    plan = t.__dict__.get("_compiled_plan")
    if plan is None:
        plan = Plan(t)
        object.__setattr__(t, "_compiled_plan", plan)
    return plan


# --- bits of mask words ----------------------------------------------------------------------------

@_inline
def popcount(x):
    """The number of set bits of a 64-bit word."""
    x = x - ((x >> _U1) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return np.int64((x * _H01) >> np.uint64(56))


@_inline
def count_cards(words) -> int:
    """The number of cards in a mask of words."""
    total = 0
    for w in range(len(words)):
        total += popcount(words[w])
    return total


@_inline
def kth_card(words, k):
    """The k-th lowest card (from 0) of a mask of words."""
    for w in range(len(words)):
        m = words[w]
        c = popcount(m)
        if k < c:
            while k > 0:
                m &= m - _U1
                k -= 1
            low = m & (~m + _U1)
            return w * 64 + popcount(low - _U1)
        k -= c
    return -1


@_inline
def has_card(words, card) -> bool:
    """Whether a mask of words holds ``card``."""
    return (words[card >> 6] >> np.uint64(card & 63)) & _U1 == _U1


@_inline
def toggle(words, card):
    """Add or take away ``card`` in a mask of words."""
    words[card >> 6] ^= _U1 << np.uint64(card & 63)


# --- the moments of a game ----------------------------------------------------------------------------

@_inline
def _allowed(sc, party_of, permits, regs, seat, moment):
    return (permitted(permits[0], permits[1], permits[2], permits[3], permits[4], sc[S_SEATS], regs[DEALER], seat,
                      moment, regs[TRICK])
            and within_limit(sc[S_LIMIT], party_of, seat, regs[CASTLED]))


@_inline
def _castle(sc, regs, castles, kind, trick, seat, king, officer, with_seat):
    i = regs[N_CASTLES]
    castles[i, C_TRICK], castles[i, C_KIND], castles[i, C_SEAT] = trick, kind, seat
    castles[i, C_KING], castles[i, C_OFFICER], castles[i, C_WITH] = king, officer, with_seat
    regs[N_CASTLES] = i + 1
    regs[CASTLED] |= 1 << seat


@_inline
def _castle_choice(u, pos, offered, count):
    """The random player's choice on one castle offered: (the next number's place, the officer taken).

    The officer is -1 when the chance is let go and -2 when the numbers ran out (the caller then stops
    with nothing changed, to be resumed with more numbers).
    """
    if pos >= len(u):
        return pos, -2
    pos += 1
    if not chance_taken(u[pos - 1]):
        return pos, -1
    if pos >= len(u):
        return pos, -2
    return pos + 1, kth_card(offered, officer_at(u[pos], count))


@_inline
def _castle_between(sc, royal, officers, party_of, with_seat, open_seats, hands, regs, castles, u, moment, scratch):
    """The random player's castle before play or between tricks; False if the numbers ran out (nothing changed).

    ``open_seats`` are the seats the permits let castle now (:func:`~schachett_rules.kernel.castling.permitted`).
    """
    pos = regs[POS]
    words = sc[S_WORDS]
    for seat in range(sc[S_SEATS]):
        if not (open_seats >> seat) & 1 or not within_limit(sc[S_LIMIT], party_of, seat, regs[CASTLED]):
            continue
        kings = scratch[0]
        any_king = False
        for w in range(words):
            kings[w] = hands[seat, w] & royal[w]
            any_king = any_king or kings[w] != 0
        other = with_seat[seat]
        giver, king_seat = other, seat          # the hands the officer and the King come from
        if takes_other_king(sc[S_OTHER_KING] != 0, moment, 1 if any_king else 0):
            giver, king_seat = seat, other
            for w in range(words):
                kings[w] = hands[other, w] & royal[w]
                any_king = any_king or kings[w] != 0
        if not any_king:
            continue
        offered = scratch[1]
        for w in range(words):
            offered[w] = hands[giver, w] & officers[w]
        count = count_cards(offered)
        if count == 0:
            continue
        for i in range(count_cards(kings)):
            king = kth_card(kings, i)
            pos, officer = _castle_choice(u, pos, offered, count)
            if officer == -2:
                return False
            if officer >= 0:
                toggle(hands[giver], officer)
                toggle(hands[giver], king)
                toggle(hands[king_seat], king)
                toggle(hands[king_seat], officer)
                _castle(sc, regs, castles, moment, regs[TRICK], seat, king, officer, other)
                regs[POS] = pos
                return True
    regs[POS] = pos
    return True


@_inline
def _winner(sc, card_face, beats, trick, faces):
    n = sc[S_SEATS]
    for i in range(n):
        faces[i] = card_face[trick[1, i]]
    return holder_after(beats, faces, n)


@_inline
def _rescue(sc, card_face, royal, officers, beats, party_of, with_seat, permits, hands, trick, regs, castles, u,
            faces, scratch):
    """The random player's rescue of a King just taken; False if the numbers ran out (nothing changed)."""
    pos = regs[POS]
    winner = trick[0, _winner(sc, card_face, beats, trick, faces)]
    for place in range(sc[S_SEATS]):
        seat, king = trick[0, place], trick[1, place]
        if not has_card(royal, king) or not may_rescue(sc[S_FATES], party_of, seat, winner):
            continue
        if not _allowed(sc, party_of, permits, regs, seat, RESCUE):
            continue
        other = with_seat[seat]
        offered = scratch[1]
        for w in range(sc[S_WORDS]):
            offered[w] = hands[other, w] & officers[w]
        count = count_cards(offered)
        if count == 0:
            continue
        pos, officer = _castle_choice(u, pos, offered, count)
        if officer == -2:
            return False
        if officer >= 0:
            toggle(hands[other], officer)
            toggle(hands[other], king)
            trick[1, place] = officer
            _castle(sc, regs, castles, RESCUE, regs[TRICK] + 1, seat, king, officer, other)
            break
    regs[POS] = pos
    return True


@_inline
def _gather(sc, card_face, royal, beats, points, party_of, event_of, scores, first_pts, later_pts, trick, regs,
            tricks, events, totals, each, faces):
    """Take in the full trick: its winner, card points and King fates."""
    n, index = sc[S_SEATS], regs[TRICK]
    best = _winner(sc, card_face, beats, trick, faces)
    winner = trick[0, best]
    pts = 0
    for i in range(n):
        pts += points[faces[i]]
        tricks[index, T_CARDS + i] = trick[1, i]
    tricks[index, T_WINNER], tricks[index, T_POINTS], tricks[index, T_LEADER] = winner, pts, regs[LEADER]
    totals[0, party_of[winner]] += pts
    totals[1, party_of[winner]] += pts
    before = regs[FALLEN]
    for e in range(len(each[0])):
        each[1, e] = each[0, e]
    for i in range(n):
        if not has_card(royal, trick[1, i]):
            continue
        seat = trick[0, i]
        e, first = king_fate(party_of, event_of, sc[S_EACH] != 0, sc[S_SAME] != 0, seat, winner, regs[FALLEN],
                             before, each[0], each[1])
        if e < 0:
            continue
        value = event_points(first_pts, later_pts, e, first, index)
        scorer = king_scorer(scores[e], party_of, seat, winner)
        for p in range(sc[S_PARTIES]):
            if p == scorer or (scorer < 0 and p != -1 - scorer):
                totals[0, p] += value
        k = regs[N_EVENTS]
        if k < len(events):
            events[k, E_KIND], events[k, E_TRICK], events[k, E_OWNER] = e, index, seat
            events[k, E_FIRST], events[k, E_POINTS], events[k, E_SCORER] = first, value, scorer
        regs[N_EVENTS] = k + 1
        regs[FALLEN] += 1
        each[0, e] += 1
    regs[LEADER] = winner
    regs[TRICK] = index + 1
    regs[PLAYED] = 0


@_inline
def _need(sc, regs, more):
    """At least how many numbers the rest of the game draws: every card still to choose, and ``more``."""
    return sc[S_TRICKS] * sc[S_RANDOM] - regs[DRAWN] + more


@_jit
def play(sc, card_face, strength, royal, officers, beats2, points2, follow, party_of, policy, with_seat, event_of,
         scores, first_pts, later_pts, permits, open_seats, rest, given, start, end,
         hands, trick, regs, tricks, events, castles, totals, each, u):
    """Play the game in ``regs`` on from where it stands; 0 when it is over, else how many more numbers it needs."""
    faces, legal, scratch, cards, takes, order = _work(sc, rest)
    return _play(sc, card_face, strength, royal, officers, beats2, points2, follow, party_of, policy, with_seat,
                 event_of, scores, first_pts, later_pts, permits, open_seats, rest, given, start, end,
                 hands, trick, regs, tricks, events, castles, totals, each, u,
                 faces, legal, scratch, cards, takes, order)


@_jit
def _work(sc, rest):
    """Scratch arrays for :func:`_play`."""
    words = sc[S_WORDS]
    return (np.zeros(sc[S_SEATS], dtype=np.int64), np.zeros(words, dtype=np.uint64),
            np.zeros((2, words), dtype=np.uint64), np.zeros(sc[S_CARDS], dtype=np.int64),
            np.zeros(sc[S_CARDS], dtype=np.bool_), rest.copy())


@_bare
def _play(sc, card_face, strength, royal, officers, beats2, points2, follow, party_of, policy, with_seat, event_of,
          scores, first_pts, later_pts, permits, open_seats, rest, given, start, end,
          hands, trick, regs, tricks, events, castles, totals, each, u,
          faces, legal, scratch, cards, takes, order):
    n, words = sc[S_SEATS], sc[S_WORDS]
    if regs[PHASE] == DEAL:
        dealer = regs[DEALER]
        for i in range(len(rest)):
            order[i] = rest[i]
        shuffle(order, u, 0)
        for seat in range(n):
            for w in range(words):
                hands[seat, w] = given[dealer, seat, w]
            for i in range(start[dealer, seat], end[dealer, seat]):
                toggle(hands[seat], order[i])
        regs[POS] = max(sc[S_REST] - 1, 0)
        regs[LEADER] = (dealer + sc[S_LEAD_OFF]) % n if sc[S_LEAD_DEALER] else sc[S_LEAD_OFF]
        regs[PHASE] = START
    castling = regs[CASTLING] != 0 and sc[S_CASTLING] != 0
    while regs[TRICK] < sc[S_TRICKS]:
        last = 1 if regs[TRICK] == sc[S_TRICKS] - 1 else 0
        beats, points = beats2[last], points2[last]
        if regs[PHASE] == START:
            if castling:
                moment = BEFORE if regs[TRICK] == 0 else BETWEEN
                seats = open_seats[regs[DEALER], moment, regs[TRICK]]
                if seats and not _castle_between(sc, royal, officers, party_of, with_seat, seats, hands, regs,
                                                 castles, u, moment, scratch):
                    return _need(sc, regs, 1)
            regs[PHASE] = PLAY
        tiers = follow[card_face[trick[1, 0]]]    # the led face's follow tiers (read once the lead is down)
        while regs[PHASE] == PLAY and regs[PLAYED] < n:
            played = regs[PLAYED]
            seat = (regs[LEADER] + played) % n
            for w in range(words):
                legal[w] = hands[seat, w]
            if played:
                if played == 1:
                    tiers = follow[card_face[trick[1, 0]]]
                tier = serving_tier(tiers, legal, words)
                if tier >= 0:
                    for w in range(words):
                        legal[w] &= tiers[tier * words + w]
            rule = policy[seat]
            if rule >= 0:
                m = 0
                held = -1
                if played:
                    for i in range(played):
                        faces[i] = card_face[trick[1, i]]
                    held = faces[holder_after(beats, faces, played)]
                for i in range(count_cards(legal)):
                    c = kth_card(legal, i)
                    cards[m] = c
                    takes[m] = held >= 0 and takes_from(beats, card_face[c], held)
                    m += 1
                card = automaton_pick(rule, cards, takes, m, strength)
            else:
                if regs[POS] >= len(u):
                    return _need(sc, regs, 0)
                card = kth_card(legal, kth(count_cards(legal), u[regs[POS]]))
                regs[POS] += 1
                regs[DRAWN] += 1
            hands[seat, card >> 6] ^= _U1 << np.uint64(card & 63)
            trick[0, played], trick[1, played] = seat, card
            regs[PLAYED] = played + 1
        regs[PHASE] = FULL
        kings_down = False
        for i in range(n):
            kings_down = kings_down or has_card(royal, trick[1, i])
        if castling and kings_down:
            if not _rescue(sc, card_face, royal, officers, beats, party_of, with_seat, permits, hands, trick, regs,
                           castles, u, faces, scratch):
                return _need(sc, regs, 1)
        _gather(sc, card_face, royal, beats, points, party_of, event_of, scores, first_pts, later_pts, trick, regs,
                tricks, events, totals, each, faces)
        regs[PHASE] = START
    regs[PHASE] = OVER
    return 0


@_jit
def play_batch(sc, card_face, strength, royal, officers, beats2, points2, follow, party_of, policy, with_seat, event_of,
               scores, first_pts, later_pts, permits, open_seats, rest, given, start, end,
               hands, trick, regs, tricks, events, castles, totals, each, dealers, rows,
               out_totals, out_tricks, out_events, out_castles, out_n_castles):
    """Play one game per row of ``rows`` (games, draws), dealt by ``dealers``.

    Returns -1 when all are played, else the first game that ran short of numbers.
    """
    faces, legal, scratch, cards, takes, order = _work(sc, rest)
    for g in range(len(dealers)):
        u = rows[g]
        regs[:] = 0
        regs[DEALER], regs[CASTLING] = dealers[g], 1
        totals[:] = 0
        each[:] = 0
        events[:] = -1
        events[:, E_POINTS] = 0
        if _play(sc, card_face, strength, royal, officers, beats2, points2, follow, party_of, policy, with_seat,
                 event_of, scores, first_pts, later_pts, permits, open_seats, rest, given, start, end,
                 hands, trick, regs, tricks, events, castles, totals, each, u,
                 faces, legal, scratch, cards, takes, order) != 0:
            return g
        out_totals[g] = totals
        out_tricks[g] = tricks
        out_events[g] = events
        k = regs[N_CASTLES]
        out_n_castles[g] = k
        out_castles[g, :k] = castles[:k]
    return -1


# --- the numbers of game streams, a block at a time ---------------------------------------------------

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1, _MIX2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)


@_inline
def _mix(z):
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@_jit
def fill_uniforms(base, games, out):
    """``out[g, j]``: the ``j``-th number (from 0) of game ``games[g]``'s stream, whose run key mixes to ``base``.

    The same SplitMix64 sequence as :class:`~schachett_rules.playouts.streams.GameStream`, in wrapping 64-bit arithmetic.
    """
    for g in range(len(games)):
        key = _mix(base + np.uint64(games[g]) * _GOLDEN)
        for j in range(out.shape[1]):
            out[g, j] = np.float64(_mix(key + np.uint64(j + 1) * _GOLDEN) >> np.uint64(11)) * 1.1102230246251565e-16
