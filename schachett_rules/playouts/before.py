"""The compiled phases between the deal and the first card: the deal itself, passing, the auction, the exchange,
the call, and the start of play with the game's own tables, parties and seats sitting out.

The same walk as :mod:`schachett_rules.kernel.before_play`, on arrays: every decision it lists is listed here in
the same order (the random player takes the k-th of them), and every rule it reads comes from the plan's arrays
(:mod:`.contracts`). The functions take the plan's ``sc`` and ``rules`` and the game's arrays; the game's play
tables and parties (``beats2``, ``points2``, ``follow``, ``party_of``) are written whole when play starts.
"""

from __future__ import annotations

import numpy as np

from ..kernel import core
from ..kernel.actions import AUCTION, CALL, CASTLE, EXCHANGE, OFFER, OVER, PASSING, PLAY, RETURN
from ..kernel.castling import BEFORE
from .bits import _inline, _jit, _same_source, count_cards, has_card, private_copies, toggle
from .contracts import (ALL_PASS, EX_DEALER, EX_NONE, K_ASK_DEALER, K_ASK_OFF, K_BACK, K_COLOUR_HELD, K_EACH,
                        K_EX_DISCARDS, K_EX_TAKES, K_EX_WHO, K_EXACTLY, K_FIRST, K_HELD, K_NOT_HELD, K_OFFER, K_PARTNER,
                        K_REFUSED, K_SIT_OUT, O_COLOUR, O_CONTRACT, O_RANK, R_END, R_HIGHEST, R_START, REFUSED,
                        TAKES_TURNED, TURN_DEALER, TURN_STOCK)
from .plan import (BEST_COLOUR, BEST_CONTRACT, BEST_RANK, BEST_SEAT, BID_TURN, CALLED, CONTRACT, DEALER, DECLARER,
                   EXCHANGER, GAME, H_COVERED, H_LAID, LAID, PARTIES, REGS, RESTRICT, S_CARDS, S_COVERED, H_PASSED,
                   H_STOCK, LEADER, MOMENT, ASK, ASKED, CASTLING, OFFER_TURN, OFFERED, PARTNER, PASSES, PHASE,
                   TAKER, TO_GIVE,
                   POS, ROUND, S_ALL_PASS, S_AUCTION, S_BID_DEALER, S_BID_OFF, S_CASTLING, S_COLOURS, S_LEAD_CARD,
                   S_LEAD_DEALER, S_LEAD_OFF, S_OWN_DISCARDS, S_OWN_EXCHANGE, S_OWN_TAKES, S_PARTNER, S_PASS,
                   S_PLAY_COLOUR, S_PLAY_CONTRACT, S_RANDOM_SEATS, S_REST, S_ROUNDS, S_SEATS, S_SKIP, S_TRICKS,
                   S_TURN, S_VARIANTS, S_WAYS, S_WORDS, SITTING, SKIPPED, THROWN, TO_DISCARD, TRUMP, TURNED,
                   VARIANT)

named_seat = _inline(core.named_seat)
pass_step = _inline(core.pass_step)
shuffle = _inline(core.shuffle)
next_seat = _inline(core.next_seat)
party_of_seat = _inline(core.party_of_seat)
holds_required = _inline(core.holds_required)
held_count = _inline(core.held_count)
asked_seat = _inline(core.asked_seat)
tableau_piles = _inline(core.tableau_piles)
may_call = _inline(core.may_call)
P_FIXED, P_CALLED, P_HOLDERS = core.P_FIXED, core.P_CALLED, core.P_HOLDERS
_PLAY, _DEALER_BIDS = ALL_PASS.index("play"), ALL_PASS.index("dealer")
_REDEAL = REFUSED.index("redeal")


@_inline
def bits_of(x) -> int:
    """The number of set bits of a small int (a mask of seats)."""
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


# --- the deal and passing --------------------------------------------------------------------------------------

@_inline
def _pass_way(sc, rules, regs):
    """Where this game's cards are passed (an index of kernel.core.WAYS: left, right, across, none)."""
    ways = rules[7]
    return ways[regs[GAME] % sc[S_WAYS]]


@_inline
def _passer(sc, regs):
    """The seat passing now: each seat in turn from the dealer's left passes all its cards, one at a time."""
    return (regs[DEALER] + 1 + regs[PASSES] // sc[S_PASS]) % sc[S_SEATS]


@_inline
def _deal(sc, rest, given, start, end, rules, beats2, points2, follow, party_of, hands, regs, u, order):
    """Deal the cards from the numbers ``u`` (the deal's shuffle; kernel.deal.deal_full), the stock left over and
    the card turned up, then what follows the deal."""
    n, words, dealer = sc[S_SEATS], sc[S_WORDS], regs[DEALER]
    for i in range(len(rest)):
        order[i] = rest[i]
    shuffle(order, u, 0)
    for row in range(n, len(hands)):      # nothing played, passed, left over or laid away yet
        for w in range(words):
            hands[row, w] = 0
    for seat in range(n):
        for w in range(words):
            hands[seat, w] = given[dealer, seat, w]
        for i in range(start[dealer, seat], end[dealer, seat]):
            toggle(hands[seat], order[i])
    dealt = end[dealer, n - 1]
    for i in range(dealt, len(rest)):
        toggle(hands[2 * n + H_STOCK], order[i])
    covered = sc[S_COVERED]
    if covered > 0:
        # a tableau: of each hand the first cards dealt lie face down, each under one of the next
        # (kernel.deal.deal_full); the registers past the parties say which card covers which
        under = REGS + n
        for card in range(sc[S_CARDS]):
            regs[under + card] = -1
        for seat in range(n):
            first = start[dealer, seat]
            for i in range(tableau_piles(covered, end[dealer, seat] - first)):
                regs[under + order[first + covered + i]] = order[first + i]
                toggle(hands[2 * n + H_COVERED], order[first + i])
    regs[POS] = max(sc[S_REST] - 1, 0)
    regs[SKIPPED] = sc[S_SKIP]     # the card draws a game not yet bid may skip (a bound from below)
    if sc[S_TURN] == TURN_DEALER and end[dealer, dealer] > start[dealer, dealer]:
        regs[TURNED] = order[end[dealer, dealer] - 1]      # the last card dealt to the dealer
    elif sc[S_TURN] == TURN_STOCK and dealt < len(rest):
        regs[TURNED] = order[dealt]                        # the stock's first card
    if sc[S_PASS] > 0 and _pass_way(sc, rules, regs) != 3:      # 3: "none", a game without passing
        regs[PHASE], regs[PASSES] = PASSING, 0
    else:
        _after_passing(sc, rules, beats2, points2, follow, party_of, hands, regs)


@_inline
def _give(sc, rules, beats2, points2, follow, party_of, hands, regs, card):
    """The passing seat passes ``card``; when every seat has passed, each receives its cards and what follows
    the passing begins (kernel.before_play.give)."""
    n, words = sc[S_SEATS], sc[S_WORDS]
    seat = _passer(sc, regs)
    toggle(hands[seat], card)
    toggle(hands[n + H_PASSED + seat], card)
    regs[PASSES] += 1
    if regs[PASSES] == sc[S_PASS] * n:
        step = pass_step(_pass_way(sc, rules, regs), n)
        for s in range(n):
            to = (s + step) % n
            for w in range(words):
                hands[to, w] |= hands[n + H_PASSED + s, w]
        _after_passing(sc, rules, beats2, points2, follow, party_of, hands, regs)


# --- the auction -----------------------------------------------------------------------------------------------

@_inline
def _after_passing(sc, rules, beats2, points2, follow, party_of, hands, regs):
    """The auction, or the ruleset's own exchange, or play (kernel.before_play.after_passing)."""
    if sc[S_AUCTION] != 0:
        regs[PHASE], regs[ROUND], regs[BID_TURN], regs[BEST_SEAT] = AUCTION, 0, 0, -1
        if sc[S_ROUNDS] == 0:
            _all_pass(sc, rules, beats2, points2, follow, party_of, hands, regs)
        return
    if sc[S_PARTNER] == P_HOLDERS:
        one = _one_holder(sc, rules, hands)
        if one >= 0:
            regs[DECLARER] = one       # one player holds them all: he plays alone, as the declarer
    _exchange(sc, rules, beats2, points2, follow, party_of, hands, regs)


@_inline
def _one_holder(sc, rules, hands):
    """The seat holding every card of a ``parties: holders of`` clause, where one seat holds them all; else -1."""
    holders = rules[20]
    seat, count = -1, 0
    for s in range(sc[S_SEATS]):
        for w in range(sc[S_WORDS]):
            if hands[s, w] & holders[w]:
                seat, count = s, count + 1
                break
    return seat if count == 1 else -1


@_inline
def _bidder(sc, regs):
    """The seat whose turn it is to bid."""
    first = named_seat(sc[S_BID_DEALER] != 0, sc[S_BID_OFF], regs[DEALER], sc[S_SEATS])
    return (first + regs[BID_TURN]) % sc[S_SEATS]


@_inline
def _turned_colour(rules, regs):
    return rules[12][regs[TURNED]] if regs[TURNED] >= 0 else -1


@_inline
def _variant(rules, contract, colour):
    """The play tables' variant of ``contract`` played for ``colour``."""
    row = rules[13][contract]
    return row[K_FIRST] + (colour if row[K_EACH] != 0 else 0)


# the call's functions are compiled once and called, not inlined at every site: inlined, they multiplied the
# compiled state's first compilation many times over, and a call is decided once a game
@_jit
def _may_call_card(sc, rules, hands, seat, contract, colour, laid, card):
    """Whether ``seat`` may call ``card`` as declarer of ``contract`` in ``colour`` (kernel.before_play.callable_cards).

    A card he holds is one of whose copies he holds or laid away (``laid``: whether the cards laid away are his);
    of a card's copies (two decks) the first stands for them all."""
    v = _variant(rules, contract, colour)
    if not has_card(rules[18][v], card):
        return False
    row = rules[13][contract]
    mates, copies = rules[19][v], rules[22][card]
    words, n = sc[S_WORDS], sc[S_SEATS]
    word, bit = card // 64, np.uint64(card % 64)
    held, mate = False, False
    for w in range(words):
        if w < word and copies[w] or w == word and copies[w] & ((np.uint64(1) << bit) - np.uint64(1)):
            return False          # a copy with a lower number stands for this card
        had = hands[seat, w] | (hands[2 * n + H_LAID, w] if laid else np.uint64(0))
        held = held or (had & copies[w]) != 0
        mate = mate or (hands[seat, w] & mates[card, w]) != 0
    return may_call(True, held, row[K_NOT_HELD] != 0, row[K_COLOUR_HELD] != 0, mate, row[K_HELD] != 0)


@_jit
def _callable(sc, rules, hands, seat, contract, colour, laid, out):
    """The cards ``seat`` may call (:func:`_may_call_card`), into the mask words ``out``; how many."""
    count = 0
    for w in range(sc[S_WORDS]):
        out[w] = 0
    for card in range(len(rules[12])):
        if _may_call_card(sc, rules, hands, seat, contract, colour, laid, card):
            toggle(out, card)
            count += 1
    return count


@_jit
def _any_callable(sc, rules, hands, seat, contract, colour, laid):
    """Whether ``seat`` may call any card at all (:func:`_may_call_card`)."""
    for card in range(len(rules[12])):
        if _may_call_card(sc, rules, hands, seat, contract, colour, laid, card):
            return True
    return False


@_inline
def _may_bid(sc, rules, hands, seat, contract, colour, scratch):
    v = _variant(rules, contract, colour)
    exactly = rules[13][contract][K_EXACTLY]
    if exactly >= 0:
        if held_count(hands[seat], rules[16][v], sc[S_WORDS]) != exactly:
            return False
    elif not holds_required(hands[seat], rules[16][v], rules[17][v] != 0, sc[S_WORDS]):
        return False
    if count_cards(rules[18][v]) and not _any_callable(sc, rules, hands, seat, contract, colour, False):
        return False
    return True


@_inline
def _bids(sc, rules, hands, regs, out, scratch):
    """The bids open to the seat to bid, in the kernel's order (kernel.before_play.bid_actions), into ``out`` as
    ``contract * 64 + colour + 1`` (a pass: -1); how many."""
    offers, rounds = rules[14], rules[15]
    rnd = rounds[regs[ROUND]]
    seat = _bidder(sc, regs)
    turned = _turned_colour(rules, regs)
    m = 0
    for i in range(rnd[R_START], rnd[R_END]):
        o = offers[i]
        if regs[BEST_SEAT] >= 0 and rnd[R_HIGHEST] != 0 and o[O_RANK] <= regs[BEST_RANK]:
            continue
        k = o[O_CONTRACT]
        each = rules[13][k][K_EACH] != 0
        for c in range(sc[S_COLOURS] if each else 1):
            colour = -1
            if each:
                colour = turned if o[O_COLOUR] == 1 else c
                if (o[O_COLOUR] == 1 and c > 0) or (o[O_COLOUR] == 2 and c == turned):
                    continue
            code = k * 64 + colour + 1
            seen = False
            for j in range(m):
                seen = seen or out[j] == code
            if not seen and _may_bid(sc, rules, hands, seat, k, colour, scratch):
                out[m] = code
                m += 1
    if not (m > 0 and _must_bid(sc, regs)):
        out[m] = -1
        m += 1
    return m


@_inline
def _must_bid(sc, regs):
    """Whether the seat to bid may not pass: the dealer, last in the last round, when all the others passed."""
    return (sc[S_ALL_PASS] == _DEALER_BIDS and regs[ROUND] == sc[S_ROUNDS] - 1 and regs[BEST_SEAT] < 0
            and _bidder(sc, regs) == regs[DEALER] and regs[BID_TURN] == sc[S_SEATS] - 1)


@_inline
def _bid(sc, rules, beats2, points2, follow, party_of, hands, regs, contract, colour):
    """Apply a bid of the seat to bid (a pass: ``contract`` -1; kernel.before_play.bid)."""
    rnd = rules[15][regs[ROUND]]
    seat = _bidder(sc, regs)
    if contract >= 0:
        rank = 0
        offers = rules[14]
        for i in range(rnd[R_START], rnd[R_END]):
            if offers[i][O_CONTRACT] == contract:
                rank = offers[i][O_RANK]
                break
        if rnd[R_HIGHEST] == 0:
            _declare(sc, rules, beats2, points2, follow, party_of, hands, regs, seat, contract, colour)
            return
        regs[BEST_SEAT], regs[BEST_CONTRACT], regs[BEST_COLOUR], regs[BEST_RANK] = seat, contract, colour, rank
    regs[BID_TURN] += 1
    if regs[BID_TURN] < sc[S_SEATS]:
        return
    if regs[BEST_SEAT] >= 0:
        _declare(sc, rules, beats2, points2, follow, party_of, hands, regs, regs[BEST_SEAT], regs[BEST_CONTRACT],
                 regs[BEST_COLOUR])
    elif regs[ROUND] + 1 < sc[S_ROUNDS]:
        regs[ROUND], regs[BID_TURN] = regs[ROUND] + 1, 0
    else:
        _all_pass(sc, rules, beats2, points2, follow, party_of, hands, regs)


@_inline
def _all_pass(sc, rules, beats2, points2, follow, party_of, hands, regs):
    """Nobody bid: the contract played then (for the turned colour), or the cards are thrown in."""
    k = sc[S_PLAY_CONTRACT]
    if sc[S_ALL_PASS] == _PLAY and k >= 0:
        colour = _turned_colour(rules, regs) if sc[S_PLAY_COLOUR] == 1 else -1
        _declare(sc, rules, beats2, points2, follow, party_of, hands, regs, -1, k,
                 colour if rules[13][k][K_EACH] != 0 else -1)
        return
    regs[THROWN], regs[PHASE] = 1, OVER


@_inline
def _declare(sc, rules, beats2, points2, follow, party_of, hands, regs, seat, contract, colour):
    regs[DECLARER], regs[CONTRACT], regs[TRUMP] = seat, contract, colour
    if rules[13][contract][K_OFFER] != 0 and seat >= 0:
        # the declarer offers his one card of those the offer clause names (kernel.before_play._declare)
        offered = rules[25][_variant(rules, contract, colour)]
        for card in range(len(rules[12])):
            if has_card(hands[seat], card) and has_card(offered, card):
                regs[OFFERED] = card
                break
        regs[PHASE], regs[OFFER_TURN] = OFFER, 0
        regs[ASKED] = _answerer(sc, rules, regs)
        return
    _exchange(sc, rules, beats2, points2, follow, party_of, hands, regs)


# --- a card offered -----------------------------------------------------------------------------------------------

@_inline
def _answerer(sc, rules, regs):
    """The seat to ask whether it takes the card offered, once OFFER_TURN seats have let it lie: the others in turn
    from the offer clause's first seat, the declarer passed over (kernel.before_play.answerer); kept in ASKED."""
    row = rules[13][regs[CONTRACT]]
    first = named_seat(row[K_ASK_DEALER] != 0, row[K_ASK_OFF], regs[DEALER], sc[S_SEATS])
    return asked_seat(first, regs[DECLARER], regs[OFFER_TURN], sc[S_SEATS])


@_inline
def _may_take(sc, rules, hands, regs, seat):
    """Whether ``seat`` could give back what a taker gives back (kernel.before_play.may_take)."""
    back = rules[26][_variant(rules, regs[CONTRACT], regs[TRUMP])]
    return held_count(hands[seat], back, sc[S_WORDS]) >= rules[13][regs[CONTRACT]][K_BACK]


@_jit
def _answer(sc, rules, beats2, points2, follow, party_of, hands, regs, take):
    """The seat asked takes the card offered (``take``) or lets it lie (kernel.before_play.answer)."""
    seat = regs[ASKED]
    row = rules[13][regs[CONTRACT]]
    if take != 0:
        toggle(hands[regs[DECLARER]], regs[OFFERED])
        toggle(hands[seat], regs[OFFERED])
        regs[TAKER], regs[PARTNER] = seat, seat
        regs[TO_GIVE], regs[PHASE] = row[K_BACK], RETURN
        return
    regs[OFFER_TURN] += 1
    if regs[OFFER_TURN] < sc[S_SEATS] - 1:
        regs[ASKED] = _answerer(sc, rules, regs)
        return
    if row[K_REFUSED] == _REDEAL:
        regs[THROWN], regs[PHASE] = 1, OVER
        return
    _exchange(sc, rules, beats2, points2, follow, party_of, hands, regs)


@_inline
def _give_back(sc, rules, beats2, points2, follow, party_of, hands, regs, card):
    """The taker gives ``card`` back to the declarer; after the last, on to the exchange, the call or play."""
    toggle(hands[regs[TAKER]], card)
    toggle(hands[regs[DECLARER]], card)
    regs[TO_GIVE] -= 1
    if regs[TO_GIVE] == 0:
        _exchange(sc, rules, beats2, points2, follow, party_of, hands, regs)


# --- the exchange and the call --------------------------------------------------------------------------------

# compiled once and called (as the call's functions are): the exchange, the call and the start of play are reached
# from every kind of action before play, and each inlined copy was compiled again
@_jit
def _exchange(sc, rules, beats2, points2, follow, party_of, hands, regs):
    """The exchanging seat takes up the turned card or the stock and has cards to lay away; or on to the call."""
    who, takes, discards = sc[S_OWN_EXCHANGE], sc[S_OWN_TAKES], sc[S_OWN_DISCARDS]
    if regs[CONTRACT] >= 0:
        row = rules[13][regs[CONTRACT]]
        who, takes, discards = row[K_EX_WHO], row[K_EX_TAKES], row[K_EX_DISCARDS]
    if who == EX_NONE:
        _call_or_play(sc, rules, beats2, points2, follow, party_of, hands, regs)
        return
    n = sc[S_SEATS]
    seat = regs[DEALER] if who == EX_DEALER or regs[DECLARER] < 0 else regs[DECLARER]
    stock = hands[2 * n + H_STOCK]
    if takes == TAKES_TURNED:
        toggle(hands[seat], regs[TURNED])
        toggle(stock, regs[TURNED])
    else:
        for w in range(sc[S_WORDS]):
            hands[seat, w] |= stock[w]
            stock[w] = 0
    regs[EXCHANGER], regs[TO_DISCARD], regs[PHASE] = seat, discards, EXCHANGE


@_inline
def _discard(sc, rules, beats2, points2, follow, party_of, hands, regs, card):
    """The exchanging seat lays ``card`` away; after the last card, on to the call or play."""
    toggle(hands[regs[EXCHANGER]], card)
    toggle(hands[2 * sc[S_SEATS] + H_LAID], card)
    regs[TO_DISCARD] -= 1
    if regs[TO_DISCARD] == 0:
        _call_or_play(sc, rules, beats2, points2, follow, party_of, hands, regs)


@_jit
def _call_or_play(sc, rules, beats2, points2, follow, party_of, hands, regs):
    k = regs[CONTRACT]
    if k >= 0 and regs[DECLARER] >= 0 and count_cards(rules[18][_variant(rules, k, regs[TRUMP])]):
        # the exchange may have left him nothing to call: then he plays alone (kernel.before_play._call_or_play)
        if _any_callable(sc, rules, hands, regs[DECLARER], k, regs[TRUMP], regs[EXCHANGER] == regs[DECLARER]):
            regs[PHASE] = CALL
            return
    _start_play(sc, rules, beats2, points2, follow, party_of, hands, regs)


@_inline
def _call(sc, rules, beats2, points2, follow, party_of, hands, regs, card):
    """The declarer calls ``card``: its holder, if it was dealt to a hand, is his partner; with two decks the first
    other holder of a copy (:func:`_called_holders` gives them all)."""
    regs[CALLED], regs[PARTNER] = card, -1
    held = _called_holders(sc, rules, hands, regs)
    for s in range(sc[S_SEATS] - 1, -1, -1):
        if (held >> s) & 1:
            regs[PARTNER] = s
    _start_play(sc, rules, beats2, points2, follow, party_of, hands, regs)


@_inline
def _called_holders(sc, rules, hands, regs):
    """The seats (a bitmask) other than the declarer's holding the called card or a copy of it."""
    out = 0
    if regs[CALLED] < 0:
        return out
    copies = rules[22][regs[CALLED]]
    for s in range(sc[S_SEATS]):
        if s == regs[DECLARER]:
            continue
        for w in range(sc[S_WORDS]):
            if hands[s, w] & copies[w]:
                out |= 1 << s
                break
    return out


# --- the start of play ------------------------------------------------------------------------------------------

@_jit
def _start_play(sc, rules, beats2, points2, follow, party_of, hands, regs):
    """The game's play tables, parties and seats sitting out, the first leader (a seat named, or the holder of a
    card, past a seat sitting out), then the moment before play or the play (kernel.before_play.start_play)."""
    n = sc[S_SEATS]
    k = regs[CONTRACT]
    if sc[S_VARIANTS] > 1 or sc[S_PARTNER] != P_FIXED:
        v = _variant(rules, k, regs[TRUMP]) if k >= 0 else 0
        regs[VARIANT] = v
        vbeats, vpoints, vfollow = rules[9][v], rules[10][v], rules[11][v]
        for i in range(2):                   # element by element: the play-outs allocate nothing
            for f in range(beats2.shape[1]):
                beats2[i, f] = vbeats[i, f]
                points2[i, f] = vpoints[i, f]
        for f in range(follow.shape[0]):
            for j in range(follow.shape[1]):
                follow[f, j] = vfollow[f, j]
        rule = rules[13][k][K_PARTNER] if k >= 0 else sc[S_PARTNER]
        regs[PARTIES] = rule
        # the restrictions of the card called, where a clause names it (kernel.flow.game_tables)
        regs[RESTRICT] = rules[24][v, regs[CALLED]] if regs[CALLED] >= 0 else 0
        holder_seats = 0
        if rule == P_HOLDERS:
            for s in range(n):
                for w in range(sc[S_WORDS]):
                    # a card laid away is still its holder's (kernel.before_play.holders)
                    had = hands[s, w] | (hands[2 * n + H_LAID, w] if s == regs[EXCHANGER] else np.uint64(0))
                    if had & rules[20][w]:
                        holder_seats |= 1 << s
                        break
            if regs[DECLARER] < 0 and bits_of(holder_seats) == 1:
                for s in range(n):
                    if (holder_seats >> s) & 1:
                        regs[DECLARER] = s
        elif rule == P_CALLED:
            holder_seats = _called_holders(sc, rules, hands, regs)
        fixed = rules[21]
        for s in range(n):
            party_of[s] = party_of_seat(rule, s, regs[DECLARER], regs[PARTNER], holder_seats, fixed[s])
        sitting = 0
        declarer = regs[DECLARER]
        if k >= 0 and rules[13][k][K_SIT_OUT] != 0 and declarer >= 0:
            if rule == P_FIXED:
                for s in range(n):
                    if s != declarer and fixed[s] == fixed[declarer]:
                        sitting = 1 << s
            elif regs[PARTNER] >= 0:
                sitting = 1 << regs[PARTNER]
        regs[SITTING] = sitting
        regs[SKIPPED] = bits_of(sitting & sc[S_RANDOM_SEATS]) * sc[S_TRICKS]
    leader = named_seat(sc[S_LEAD_DEALER] != 0, sc[S_LEAD_OFF], regs[DEALER], n)
    if sc[S_LEAD_CARD] >= 0:
        for seat in range(n):
            if has_card(hands[seat], sc[S_LEAD_CARD]):
                leader = seat
                break
    if (regs[SITTING] >> leader) & 1:
        leader = next_seat(regs[SITTING], leader, n)
    regs[LEADER] = leader
    enter(sc, regs, BEFORE)


@_inline
def enter(sc, regs, moment):
    """Play goes on through a moment of castling (asking from the first seat), where the game castles."""
    if regs[CASTLING] != 0 and sc[S_CASTLING] != 0:
        regs[PHASE], regs[MOMENT], regs[ASK] = CASTLE, moment, 0
    else:
        regs[PHASE] = PLAY


@_inline
def _before_decider(sc, regs):
    """The seat deciding before play: passing, bidding, calling or discarding (-1 otherwise)."""
    phase = regs[PHASE]
    if phase == PASSING:
        return _passer(sc, regs)
    if phase == AUCTION:
        return _bidder(sc, regs)
    if phase == CALL:
        return regs[DECLARER]
    if phase == EXCHANGE:
        return regs[EXCHANGER]
    if phase == OFFER:
        return regs[ASKED]
    if phase == RETURN:
        return regs[TAKER]
    return -1


# the phases before play are compiled once and called: inlined into every loop that plays a game, they made the
# compiled state's first compilation take minutes; they run a few times a game, so the call costs nothing
@_jit
def _before_actions(sc, rules, hands, regs, out, scratch):
    """The decider's actions before play, in the kernel's order, into ``out`` (a card to pass, to call or to lay
    away; a bid as :func:`_bids` writes it); how many."""
    phase = regs[PHASE]
    if phase == AUCTION:
        return _bids(sc, rules, hands, regs, out, scratch)
    if phase == OFFER:
        # to take it (1), where the seat could give back what a taker gives, then to let it lie (0)
        m = 0
        if _may_take(sc, rules, hands, regs, regs[ASKED]):
            out[0] = 1
            m = 1
        out[m] = 0
        return m + 1
    if phase == RETURN:
        back = rules[26][_variant(rules, regs[CONTRACT], regs[TRUMP])]
        for w in range(sc[S_WORDS]):
            scratch[w] = hands[regs[TAKER], w] & back[w]
        cards = scratch
    elif phase == CALL:
        _callable(sc, rules, hands, regs[DECLARER], regs[CONTRACT], regs[TRUMP], regs[EXCHANGER] == regs[DECLARER],
                  scratch)
        cards = scratch
    else:
        cards = hands[_before_decider(sc, regs)]
    m = 0
    for card in range(len(rules[12])):
        if has_card(cards, card):
            out[m] = card
            m += 1
    return m


@_jit
def _before_apply(sc, rules, beats2, points2, follow, party_of, hands, regs, action):
    """Apply the decider's action before play, as :func:`_before_actions` lists it."""
    phase = regs[PHASE]
    if phase == PASSING:
        _give(sc, rules, beats2, points2, follow, party_of, hands, regs, action)
    elif phase == AUCTION:
        if action < 0:
            _bid(sc, rules, beats2, points2, follow, party_of, hands, regs, -1, -1)
        else:
            _bid(sc, rules, beats2, points2, follow, party_of, hands, regs, action // 64, action % 64 - 1)
    elif phase == CALL:
        _call(sc, rules, beats2, points2, follow, party_of, hands, regs, action)
    elif phase == OFFER:
        _answer(sc, rules, beats2, points2, follow, party_of, hands, regs, action)
    elif phase == RETURN:
        _give_back(sc, rules, beats2, points2, follow, party_of, hands, regs, action)
    else:
        _discard(sc, rules, beats2, points2, follow, party_of, hands, regs, action)


@_inline
def laid_away(sc, points2, card_face, party_of, hands, regs, totals):
    """Once, at the end: the cards laid away count to the party of the player who laid them away (as the skat
    does; kernel.state.State.result)."""
    if regs[LAID] != 0 or regs[EXCHANGER] < 0:
        return
    regs[LAID] = 1
    laid = hands[2 * sc[S_SEATS] + H_LAID]
    worth = 0
    for card in range(len(card_face)):
        if has_card(laid, card):
            worth += points2[0, card_face[card]]
    party = party_of[regs[EXCHANGER]]
    totals[0, party] += worth
    totals[1, party] += worth


# the random player's loop calls copies of its own of every phase above (bits.private_copies)
LOOP = private_copies(globals(), "_in_loop")
