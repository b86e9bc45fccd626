"""Alpha-beta over the compiled game state, with a transposition table: the exact value of open hands.

The search walks the compiled state of :mod:`schachett_rules.playouts.compiled` with that module's own building
blocks: the legal cards (``_legal``), a card laid (``_play_card``), a castle (``_castle``), a chance let go, the
moments and tricks that follow (``_settle``: who takes the trick, its points, the Kings' fates), the automaton's
card (``automaton_pick``), and :func:`~schachett_rules.playouts.compiled.undo`. No rule is written here.

The value of a position for a party ``P`` is its final points minus the points of every other party taken
together (with two parties: the point difference); the points already scored are part of it, so a value is
"where the game ends", and the table keeps each position's *future* (the value less the difference so far),
which is the same whatever came before: the key is the cards left in each hand, who leads, whether the first
King's points are gone (in all, or per event where each event counts its own first King: of the Kings fallen,
nothing else bears on the future), the seats that castled, and ``P``. Positions are kept at
the start of a trick. The cards of a chain (:func:`~.equivalence.chains`: a colour's suit cards V to X, its pawns)
are keyed by the order of their holders alone: positions that differ only in which of a chain's cards are gone
play alike move for move, and where those cards score differently (the pawns) an entry's bounds serve such a
position moved out by the most the points can differ (:func:`_gap`), so that one search bounds many.

Every seat of ``P`` maximises, every other seat minimises: with more than two parties the others play as one
coalition against ``P`` (the "paranoid" reading), the only one that keeps a value a sum of points.

The search is one loop over an explicit stack (a call per node would count references on forty arrays):
frame ``d`` holds its moves, the move being tried, its window and its best value so far. Moves are ordered
by the kernel's strength order (leading: strongest first; following: the cheapest card that takes the trick,
then the cheapest that does not), the table's best move first; of equivalent cards (:mod:`.equivalence`)
one is tried. A trick-start position whose remaining points cannot bring its value into the window is cut at
once.
"""

from __future__ import annotations

import numpy as np
from ..playouts import compiled as c
from ..playouts.bits import _bare, _inline, _jit
from ..playouts.plan import CONTRACT, H_COVERED, H_LAID, REGS, S_COVERED, TRUMP
from ..playouts.compiled import (A_CARD, A_CASTLE, A_PASS, ASK, CASTLE, CASTLED, FALLEN, LEADER, OVER,  # noqa: F401
                                 H_PLAYED, PHASE, PLAY, PLAYED, S_CARDS, S_EACH, S_OWED, S_PARTIES, S_RULES, S_SEATS,
                                 S_TRICKS, S_WORDS, TRICK, VARIANT,
                                 _castle, _castler, _legal, _play_card, _push, _seat_to_play, _settle, _winner,
                                 automaton_pick, count_cards, has_card, kth_card, takes_from, toggle)


# the compiled state's own functions, inlined into the loop from their very source (with numba switched off,
# NUMBA_DISABLE_JIT=1, they are the plain functions themselves)
_undo = c.undo_inline
_offer = _inline(getattr(c.castle_offer, "py_func", c.castle_offer))

INF = 1 << 40
# the statistics the search keeps (``counts``)
NODES, PROBES, HITS, STORES, ABORTED, N_COUNTS = range(6)
# per entry of the table: the two key words, the future's bounds (low, high), the best move
_MOVE_PASS = -1


@_inline
def _mix(z):
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@_inline
def _keys(sc, hands, regs, each, side, chains, chained, n_chains):
    """Two independent 64-bit hashes of a trick-start position (hands, leader, first King gone, castles, party, and
    what of the deal the hands do not show: the parties, the contract, the cards laid away, a tableau's layout).

    The cards of the first ``n_chains`` chains (:func:`~.equivalence.chains`: cards that differ only in taking
    one another, in rank order) count by the order of their holders alone, not by which of them each holds, so
    that positions alike but for the ranks of cards already gone share one entry.
    """
    a = np.uint64(0x243F6A8885A308D3) + np.uint64(side)
    b = np.uint64(0x13198A2E03707344) + np.uint64(side)
    for s in range(sc[S_SEATS]):
        for w in range(sc[S_WORDS]):
            h = hands[s, w] & ~chained[w] if n_chains > 0 else hands[s, w]
            a = _mix(a ^ h) + np.uint64(s * 8 + w + 1)
            b = _mix(b + h) ^ np.uint64(s * 16 + w + 7)
    for ch in range(n_chains):
        for i in range(chains.shape[1]):
            card = chains[ch, i]
            if card < 0:
                break
            for s in range(sc[S_SEATS]):
                if has_card(hands[s], card):
                    a = _mix(a ^ np.uint64(s + 1)) + np.uint64(ch)
                    b = _mix(b + np.uint64(s + 5)) ^ np.uint64(ch)
        a = _mix(a ^ np.uint64(0xFF))
        b = _mix(b + np.uint64(0xFE))
    if sc[S_RULES] + sc[S_OWED] > 0:       # a restriction asks what was played: a stock's cards are in no hand
        row = sc[S_SEATS] + H_PLAYED
        for w in range(sc[S_WORDS]):
            a = _mix(a ^ hands[row, w]) + np.uint64(997 + w)
            b = _mix(b + hands[row, w]) ^ np.uint64(991 + w)
    # what the hands do not show and a table kept from one deal to the next (a sampling player's deals, a survey's)
    # must not mix: who plays with whom, the contract and trumps (they fix the play tables), the cards laid away
    # (they count at the end), a tableau's cards still face down and what lies under each card
    n = sc[S_SEATS]
    deal = np.uint64((regs[CONTRACT] + 2) * 64 + regs[TRUMP] + 2)
    for s in range(n):
        deal = deal * np.uint64(8) + np.uint64(regs[REGS + s] + 1)
    a = _mix(a ^ deal)
    b = _mix(b + deal) ^ np.uint64(0x5BE0CD19)
    for w in range(sc[S_WORDS]):
        if hands[2 * n + H_LAID, w]:
            a = _mix(a ^ hands[2 * n + H_LAID, w]) + np.uint64(577 + w)
            b = _mix(b + hands[2 * n + H_LAID, w]) ^ np.uint64(571 + w)
    if sc[S_COVERED] > 0:
        for w in range(sc[S_WORDS]):
            a = _mix(a ^ hands[2 * n + H_COVERED, w]) + np.uint64(769 + w)
            b = _mix(b + hands[2 * n + H_COVERED, w]) ^ np.uint64(773 + w)
        for card in range(sc[S_CARDS]):
            a = _mix(a ^ np.uint64(regs[REGS + n + card] + 1)) + np.uint64(card)
            b = _mix(b + np.uint64(regs[REGS + n + card] + 1)) ^ np.uint64(card)
    extra = np.uint64(regs[LEADER] + 64 * ((1 if regs[FALLEN] > 0 else 0) + 64 * regs[CASTLED]))
    if sc[S_EACH] != 0:
        for e in range(each.shape[1]):
            extra = extra * np.uint64(3) + np.uint64(1 if each[0, e] > 0 else 0)
    return _mix(a ^ extra), _mix(b + extra * np.uint64(3))


_LOW = np.uint64(0xFFFFFFFF)
_HIGH = ~_LOW


@_inline
def _places(sc, hands, chains, spans, n_chains):
    """Which places of the chains that score differently (``spans``: each one's offset and length, or -1) still
    hold a card, a bit each: the low half of a key's second word. Two positions of one key but different places
    play alike, their k-th cards of a chain standing for each other; :func:`_gap` says how far apart their values
    can lie."""
    out = np.uint64(0)
    for ch in range(n_chains):
        if spans[ch, 0] < 0:
            continue
        for i in range(spans[ch, 1]):
            card = chains[ch, i]
            bit = np.uint64(1) << np.uint64(card & 63)
            for s in range(sc[S_SEATS]):
                if hands[s, card >> 6] & bit:
                    out |= np.uint64(1) << np.uint64(spans[ch, 0] + i)
    return out


@_inline
def _gap(chain_worth, spans, x, y):
    """The most the values of two positions of one key, with the chains' places ``x`` and ``y``, can differ: the
    worth of the k-th card left of a chain in one against the k-th in the other, summed (in ordinary tricks or in
    the last, whichever differs more); 0 when the places are the same, -1 when they cannot be matched."""
    if x == y:
        return 0
    total = 0
    for ch in range(spans.shape[0]):
        if spans[ch, 0] < 0:
            continue
        width = np.uint64(spans[ch, 1])
        a = (x >> np.uint64(spans[ch, 0])) & ((np.uint64(1) << width) - np.uint64(1))
        b = (y >> np.uint64(spans[ch, 0])) & ((np.uint64(1) << width) - np.uint64(1))
        while a != 0 and b != 0:
            i = c.popcount((a & (~a + np.uint64(1))) - np.uint64(1))
            j = c.popcount((b & (~b + np.uint64(1))) - np.uint64(1))
            total += max(abs(chain_worth[0, ch, i] - chain_worth[0, ch, j]),
                         abs(chain_worth[1, ch, i] - chain_worth[1, ch, j]))
            a &= a - np.uint64(1)
            b &= b - np.uint64(1)
        if a != b:
            return -1
    return total


@_inline
def _entry(tt_keys, bucket, k1, k2):
    """The entry of the table's bucket that holds the position of keys ``k1``, ``k2`` (the places of the chains,
    the low half of ``k2``, aside), or -1."""
    if tt_keys[bucket, 0] == k1 and (tt_keys[bucket, 1] ^ k2) & _HIGH == 0:
        return bucket
    if tt_keys[bucket + 1, 0] == k1 and (tt_keys[bucket + 1, 1] ^ k2) & _HIGH == 0:
        return bucket + 1
    return -1


@_inline
def _widened(word, gap):
    """The future's bounds of an entry's word, each moved out by ``gap`` (an unbounded side stays so)."""
    lo, hi = _low(word), _high(word)
    return (lo - gap if lo > -INF else lo), (hi + gap if hi < INF else hi)


# An entry's data is two 64-bit words (with its two key words, 32 bytes: a bucket of two fills one cache line):
# the future's bounds, 32 bits each, an unbounded side as the largest 32-bit value; and the best move in the low
# 24 bits under the tricks left plus 64 times the question's number.
_EDGE = (1 << 31) - 1


@_inline
def _bounds(lo, hi):
    """The two bounds in one word."""
    lo = -_EDGE if lo <= -_EDGE else lo
    hi = _EDGE if hi >= _EDGE else hi
    return (lo << 32) | (hi & 0xFFFFFFFF)


@_inline
def _low(word):
    """The lower bound of a word of :func:`_bounds`."""
    lo = word >> 32
    return -INF if lo == -_EDGE else lo


@_inline
def _high(word):
    """The upper bound of a word of :func:`_bounds`."""
    hi = word & 0xFFFFFFFF
    if hi >= 1 << 31:
        hi -= 1 << 32
    return INF if hi == _EDGE else hi


@_inline
def _move_asked(move, asked):
    """A best move (from -1) and the tricks left with the question's number, in one word."""
    return (asked << 24) | (move & 0xFFFFFF)


@_inline
def _move(word):
    """The best move of a word of :func:`_move_asked`."""
    move = word & 0xFFFFFF
    return move - (1 << 24) if move >= 1 << 23 else move


@_inline
def _asked(word):
    """The tricks left and the question's number of a word of :func:`_move_asked`."""
    return word >> 24


@_inline
def _diff(sc, totals, side):
    """The value so far for party ``side``: its points minus all the others'."""
    v = 0
    for p in range(sc[S_PARTIES]):
        v += totals[0, p] if p == side else -totals[0, p]
    return v


@_inline
def _king_room(sc, regs, each, kingmax):
    """The most one King still to fall can move a value from this trick on: its best event, counted with the
    first King's points only while they are still to be had (no King fallen yet; where each event counts its own
    first King, none of that event)."""
    best = 0
    for e in range(kingmax.shape[1]):
        still_first = each[0, e] == 0 if sc[S_EACH] != 0 else regs[FALLEN] == 0
        best = max(best, kingmax[0 if still_first else 1, e, regs[TRICK]])
    return best


@_inline
def _room(sc, royal, hands, regs, each, maxpts, kingmax):
    """The most the points still to come can move a value: every card left at its best, each King at its best
    event (:func:`_king_room`)."""
    total = 0
    kings = 0
    for s in range(sc[S_SEATS]):
        for w in range(sc[S_WORDS]):
            m = hands[s, w]
            kings += c.popcount(m & royal[w])
            while m:
                low = m & (~m + np.uint64(1))
                total += maxpts[w * 64 + c.popcount(low - np.uint64(1))]
                m ^= low
    return total + kings * _king_room(sc, regs, each, kingmax) if kings else total


@_inline
def _order_key(sc, card_face, strength, beats2, points2, last, held, friend, card):
    """Where a card comes in the order of tries (lower first); see :func:`_gen`."""
    n_cards = sc[S_CARDS]
    if held < 0:
        return 2 * n_cards - strength[card]
    if takes_from(beats2[last], card_face[card], held):
        return strength[card]
    pts = points2[last, card_face[card]]
    return 2 * n_cards + (n_cards - pts if friend else pts) * n_cards + strength[card]


@_inline
def _gen(sc, card_face, strength, royal, officers, beats2, points2, follow, rules, party_of, policy, with_seat,
         alike, apart,
         hands, trick, regs, faces, legal, kings, offered, still, cards, takes, moves, d, first):
    """The moves of frame ``d`` into ``moves[d]`` (cards as ints, castles as ``n_cards * (1 + king) + officer``,
    a chance let go as -1), ordered, one card of each equivalent set; ``first`` (or -2) goes first. Returns
    how many."""
    n_cards = sc[S_CARDS]
    words = sc[S_WORDS]
    m = 0
    if regs[PHASE] == CASTLE:
        _offer(sc, royal, officers, with_seat, hands, trick, regs, kings, offered)
        for i in range(count_cards(kings)):
            k = kth_card(kings, i)
            last_face = -1
            for j in range(count_cards(offered)):
                o = kth_card(offered, j)
                if card_face[o] == last_face:
                    continue                     # a copy of the officer just offered
                last_face = card_face[o]
                moves[d, m] = n_cards * (1 + k) + o
                m += 1
        moves[d, m] = _MOVE_PASS
        m += 1
    else:
        played = regs[PLAYED]
        seat = _seat_to_play(sc, regs)         # past a seat sitting out (a Euchre hand played alone)
        _legal(sc, card_face, follow, rules, hands, trick, regs, seat, legal)
        last = 1 if regs[TRICK] == sc[S_TRICKS] - 1 else 0
        held = -1
        if played:
            held = faces[_winner(sc, card_face, beats2, trick, regs, faces, played)]
        count = count_cards(legal)
        if policy[seat] >= 0:
            # the automaton's card, as the compiled random player picks it (kernel.core.automaton_pick)
            for i in range(count):
                cards[i] = kth_card(legal, i)
                takes[i] = held >= 0 and takes_from(beats2[last], card_face[cards[i]], held)
            moves[d, 0] = automaton_pick(policy[seat], cards, takes, count, strength[regs[VARIANT]])
            return 1
        for w in range(words):
            still[w] = legal[w] ^ legal[w]
        for s in range(sc[S_SEATS]):
            for w in range(words):
                still[w] |= hands[s, w]
        for i in range(played):
            toggle(still, trick[1, i])
        # one card of each equivalent set: a card is kept unless one kept before plays exactly like it
        for i in range(count):
            card = kth_card(legal, i)
            f = card_face[card]
            twin = False
            for j in range(m):
                other = moves[d, j]
                g = card_face[other]
                if f == g:
                    twin = True
                elif alike[f, g]:
                    twin = True
                    for w in range(words):
                        rest = still[w]
                        if w == card >> 6:
                            rest &= ~(np.uint64(1) << np.uint64(card & 63))
                        if w == other >> 6:
                            rest &= ~(np.uint64(1) << np.uint64(other & 63))
                        if rest & apart[f, g, w]:
                            twin = False
                if twin:
                    break
            if not twin:
                moves[d, m] = card
                m += 1
        # order: leading, the strongest card first; following, a card that takes the trick (the cheapest first)
        # before one that does not, and of those the most points first while a partner holds the trick, the
        # fewest while an opponent does (insertion sort on a key)
        friend = played > 0 and party_of[trick[0, _winner(sc, card_face, beats2, trick, regs, faces, played)]] \
            == party_of[seat]
        for i in range(m):
            card = moves[d, i]
            key = _order_key(sc, card_face, strength[regs[VARIANT]], beats2, points2, last, held, friend, card)
            j = i
            while j > 0 and _order_key(sc, card_face, strength[regs[VARIANT]], beats2, points2, last, held, friend,
                                       moves[d, j - 1]) > key:
                moves[d, j] = moves[d, j - 1]
                j -= 1
            moves[d, j] = card
    if first > -2:
        for i in range(m):
            if moves[d, i] == first:
                for j in range(i, 0, -1):
                    moves[d, j] = moves[d, j - 1]
                moves[d, 0] = first
                break
    return m


@_inline
def _apply(sc, card_face, royal, officers, beats2, points2, party_of, event_of, scores, first_pts, later_pts,
           with_seat, permits, open_seats, hands, trick, regs, tricks, events, castles, totals, each, s_regs, s_trick,
           s_hands, s_totals, s_each, faces, scratch, move):
    """Apply a move of :func:`_gen` as the compiled state's ``apply`` does, with this search's scratch arrays."""
    _push(sc, hands, trick, regs, totals, each, s_regs, s_trick, s_hands, s_totals, s_each)
    if regs[PHASE] == CASTLE:
        if move == _MOVE_PASS:
            regs[ASK] += 1
        else:
            n_cards = sc[S_CARDS]
            _castle(sc, royal, officers, with_seat, hands, trick, regs, castles, _castler(trick, regs),
                    move // n_cards - 1, move % n_cards, scratch)
    else:
        _play_card(sc, hands, trick, regs, move)
    _settle(sc, card_face, royal, officers, beats2, points2, party_of, event_of, scores, first_pts, later_pts,
            with_seat, permits, open_seats, hands, trick, regs, tricks, events, totals, each, faces, scratch)


@_bare
def _rollouts(sc, card_face, strength, royal, officers, beats2, points2, follow, party_of, policy, with_seat,
              event_of, scores, first_pts, later_pts, permits, open_seats, rest, given, start, end, rules, hands, trick,
              regs, tricks, events, castles, totals, each, s_regs, s_trick, s_hands, s_totals, s_each, u, seed,
              faces, legal, scratch, cards, takes, order, side, rollouts):
    """The mean final value for ``side`` of ``rollouts`` random play-outs from here (the state is left as it was).

    Called, not inlined: numba cannot inline a function this long into the search's loop, and a leaf's call
    costs little beside its play-outs."""
    total = 0
    for _ in range(rollouts):
        _push(sc, hands, trick, regs, totals, each, s_regs, s_trick, s_hands, s_totals, s_each)
        for i in range(len(u)):
            seed[0] = _mix(seed[0] + np.uint64(0x9E3779B97F4A7C15))
            u[i] = np.float64(seed[0] >> np.uint64(11)) * 1.1102230246251565e-16
        regs[c.POS], regs[c.DRAWN] = 0, 0
        c._play(sc, card_face, strength, royal, officers, beats2, points2, follow, party_of, policy, with_seat,
                event_of, scores, first_pts, later_pts, permits, open_seats, rest, given, start, end, rules,
                hands, trick, regs, tricks, events, castles, totals, each, u, faces, legal, scratch, cards, takes,
                order)
        total += _diff(sc, totals, side)
        _undo(hands, trick, regs, totals, each, s_regs, s_trick, s_hands, s_totals, s_each)
    return total // rollouts


# the columns of a frame of the search's stack
F_N, F_I, F_ALPHA, F_BETA, F_BEST, F_MOVE, F_MAX, F_SLOT, F_A0, F_B0, F_BASE, N_FRAME = range(12)


@_jit
def search(sc, card_face, strength, royal, officers, beats2, points2, follow, party_of, policy, controller, with_seat,
           event_of, scores, first_pts, later_pts, permits, open_seats, rest, given, start, end, rules,
           hands, trick, regs, tricks, events, castles, totals, each, s_regs, s_trick, s_hands, s_totals, s_each,
           alike, apart, maxpts, kingmax, chains, chained, chain_worth, spans, tt_keys, tt_data, moves, frames, fkeys,
           counts, u, seed, order,
           playout_policy, side, alpha, beta, budget, stop, rollouts, generation):
    """The value for party ``side`` of the position in the arrays, within the window (``alpha``, ``beta``).

    The search goes to the end of the game, or with ``stop`` < the number of tricks no further than the
    start of trick ``stop`` (from 0): the value is then the points up to there, or with ``rollouts`` > 0
    the mean final value of that many play-outs from there (the compiled random player, its numbers from the
    generator state ``seed[0]`` into ``u``; a seat whose ``playout_policy`` is an automaton's rule plays by
    that rule instead): a horizon, for players that cannot search a whole deal in their time. The table
    keeps the values of each horizon and kind of play-out apart.

    Fail-soft: a value at or below ``alpha`` is an upper bound, at or above ``beta`` a lower bound. The
    arrays are left as they were. ``generation`` numbers the question the search serves: the table prefers the
    positions with most tricks left of the question at hand, and lets an earlier question's go. With ``budget``
    > 0 the search stops after that many positions, sets ``counts[ABORTED]`` and returns 0.
    """
    n_seats, words = sc[S_SEATS], sc[S_WORDS]
    faces = np.zeros(n_seats, dtype=np.int64)
    scratch = np.zeros((2, words), dtype=np.uint64)
    legal = np.zeros(words, dtype=np.uint64)
    kings = np.zeros(words, dtype=np.uint64)
    offered = np.zeros(words, dtype=np.uint64)
    still = np.zeros(words, dtype=np.uint64)
    cards = np.zeros(sc[S_CARDS], dtype=np.int64)
    takes = np.zeros(sc[S_CARDS], dtype=np.bool_)
    return _search(sc, card_face, strength, royal, officers, beats2, points2, follow, party_of, policy, with_seat,
                   event_of, scores, first_pts, later_pts, permits, open_seats, rest, given, start, end, rules,
                   hands, trick, regs, tricks, events, castles, totals, each, s_regs, s_trick, s_hands, s_totals,
                   s_each, alike, apart, maxpts, kingmax, chains, chained, chain_worth, spans, tt_keys, tt_data, moves,
                   frames, fkeys, counts, u, seed, order, playout_policy, side, alpha, beta, budget, stop, rollouts,
                   generation,
                   faces, scratch, legal, kings, offered, still, cards, takes)


@_bare
def _search(sc, card_face, strength, royal, officers, beats2, points2, follow, party_of, policy, with_seat,
            event_of, scores, first_pts, later_pts, permits, open_seats, rest, given, start, end, rules,
            hands, trick, regs, tricks, events, castles, totals, each, s_regs, s_trick, s_hands, s_totals, s_each,
            alike, apart, maxpts, kingmax, chains, chained, chain_worth, spans, tt_keys, tt_data, moves, frames, fkeys,
            counts, u, seed, order, playout_policy, side, alpha, beta, budget, stop, rollouts, generation,
            faces, scratch, legal, kings, offered, still, cards, takes):
    """The loop of :func:`search`, with its scratch arrays. Compiled without reference counting: in a function
    that counts them every view of a hand or a table row costs two atomic operations, and they took five times
    the search's own work."""
    size_mask = np.uint64(len(tt_data) - 1)
    d = 0
    v = 0
    entering = True
    frames[0, F_ALPHA], frames[0, F_BETA] = alpha, beta
    while True:
        if entering:
            counts[NODES] += 1
            if budget > 0 and counts[NODES] > budget:
                counts[ABORTED] = 1
                while d > 0:
                    _undo(hands, trick, regs, totals, each, s_regs, s_trick, s_hands, s_totals, s_each)
                    d -= 1
                return 0
            a, b = frames[d, F_ALPHA], frames[d, F_BETA]
            base = _diff(sc, totals, side)
            entering = False
            if regs[PHASE] == OVER:
                v = base
                continue
            slot, first = -1, -2
            if regs[PHASE] == PLAY and regs[PLAYED] == 0:
                if regs[TRICK] >= stop:
                    v = base
                    if rollouts > 0:
                        v = _rollouts(sc, card_face, strength, royal, officers, beats2, points2, follow, party_of,
                                      playout_policy, with_seat, event_of, scores, first_pts, later_pts, permits,
                                      open_seats, rest, given, start, end, rules, hands, trick, regs, tricks, events,
                                      castles, totals, each, s_regs, s_trick, s_hands, s_totals, s_each, u, seed,
                                      faces, legal, scratch, cards, takes, order, side, rollouts)
                    continue
                kind = rollouts * 8 + (playout_policy[0] + 1 if rollouts > 0 else 0)
                # play-outs draw their cards by place, so their positions keep the cards' own ranks
                # a tableau turns up the card under the one played: which of a chain's cards is gone then matters
                n_chains = chains.shape[0] if rollouts == 0 and sc[S_RULES] + sc[S_OWED] + sc[S_COVERED] == 0 else 0
                k1, k2 = _keys(sc, hands, regs, each, side + 64 * (stop + 64 * kind), chains, chained, n_chains)
                k2 = (k2 & _HIGH) | _places(sc, hands, chains, spans, n_chains)
                slot = np.int64(k1 & size_mask) & ~np.int64(1)      # a bucket of two entries
                fkeys[d, 0], fkeys[d, 1] = k1, k2
                counts[PROBES] += 1
                j = _entry(tt_keys, slot, k1, k2)
                gap = _gap(chain_worth, spans, tt_keys[j, 1] & _LOW, k2 & _LOW) if j >= 0 else 0
                if gap >= 0 and j >= 0:
                    counts[HITS] += 1
                    lo, hi = _widened(tt_data[j, 0], gap)
                    lo, hi = lo + base, hi + base
                    first = _move(tt_data[j, 1])
                    if lo >= b or lo == hi:
                        v = lo
                        continue
                    if hi <= a:
                        v = hi
                        continue
                    a, b = max(a, lo), min(b, hi)
                room = _room(sc, royal, hands, regs, each, maxpts, kingmax)
                if base + room <= a:
                    v = base + room
                    continue
                if base - room >= b:
                    v = base - room
                    continue
            n = _gen(sc, card_face, strength, royal, officers, beats2, points2, follow, rules, party_of, policy,
                     with_seat,
                     alike, apart,
                     hands, trick, regs, faces, legal, kings, offered, still, cards, takes, moves, d, first)
            if regs[PHASE] == CASTLE:
                mover = _castler(trick, regs)
            else:
                mover = _seat_to_play(sc, regs)
            maximise = party_of[mover] == side
            frames[d, F_N], frames[d, F_I], frames[d, F_ALPHA], frames[d, F_BETA] = n, 0, a, b
            frames[d, F_A0], frames[d, F_B0], frames[d, F_SLOT], frames[d, F_BASE] = a, b, slot, base
            frames[d, F_MAX] = 1 if maximise else 0
            frames[d, F_BEST] = -INF if maximise else INF
            frames[d, F_MOVE] = moves[d, 0]
            move = moves[d, 0]
        else:
            # v is the value of the node at depth d
            if d == 0:
                return v
            _undo(hands, trick, regs, totals, each, s_regs, s_trick, s_hands, s_totals, s_each)
            d -= 1
            i = frames[d, F_I]
            if frames[d, F_MAX]:
                if v > frames[d, F_BEST]:
                    frames[d, F_BEST], frames[d, F_MOVE] = v, moves[d, i]
                if v > frames[d, F_ALPHA]:
                    frames[d, F_ALPHA] = v
            else:
                if v < frames[d, F_BEST]:
                    frames[d, F_BEST], frames[d, F_MOVE] = v, moves[d, i]
                if v < frames[d, F_BETA]:
                    frames[d, F_BETA] = v
            if frames[d, F_ALPHA] >= frames[d, F_BETA] or i + 1 == frames[d, F_N]:
                v = frames[d, F_BEST]
                slot = frames[d, F_SLOT]
                if slot >= 0:
                    future = v - frames[d, F_BASE]
                    lo, hi = -INF, INF
                    if v <= frames[d, F_A0]:
                        hi = future
                    elif v >= frames[d, F_B0]:
                        lo = future
                    else:
                        lo, hi = future, future
                    left = sc[S_TRICKS] - regs[TRICK]
                    j = _entry(tt_keys, slot, fkeys[d, 0], fkeys[d, 1])
                    if j >= 0:
                        # what the entry knew of a position alike (or of this one) still bounds this one
                        gap = _gap(chain_worth, spans, tt_keys[j, 1] & _LOW, fkeys[d, 1] & _LOW)
                        if gap >= 0:
                            was_lo, was_hi = _widened(tt_data[j, 0], gap)
                            lo, hi = max(lo, was_lo), min(hi, was_hi)
                    elif _asked(tt_data[slot, 1]) >> 6 != generation or left >= _asked(tt_data[slot, 1]) & 63:
                        # the bucket's first entry keeps the position with the most tricks left (the most work
                        # saved) of this question, the one it held moves to the second, which takes whatever comes
                        j = slot
                        tt_keys[slot + 1, 0], tt_keys[slot + 1, 1] = tt_keys[slot, 0], tt_keys[slot, 1]
                        tt_data[slot + 1, 0], tt_data[slot + 1, 1] = tt_data[slot, 0], tt_data[slot, 1]
                    else:
                        j = slot + 1
                    tt_keys[j, 0], tt_keys[j, 1] = fkeys[d, 0], fkeys[d, 1]
                    tt_data[j, 0] = _bounds(lo, hi)
                    tt_data[j, 1] = _move_asked(frames[d, F_MOVE], left + 64 * generation)
                    counts[STORES] += 1
                continue
            i += 1
            frames[d, F_I] = i
            move = moves[d, i]
            a, b = frames[d, F_ALPHA], frames[d, F_BETA]
        # one site applies the move, whether it is a node's first or its next: each inlined copy of the state's
        # settling is compiled again
        _apply(sc, card_face, royal, officers, beats2, points2, party_of, event_of, scores, first_pts, later_pts,
               with_seat, permits, open_seats, hands, trick, regs, tricks, events, castles, totals, each, s_regs,
               s_trick, s_hands, s_totals, s_each, faces, scratch, move)
        d += 1
        frames[d, F_ALPHA], frames[d, F_BETA] = a, b
        entering = True
