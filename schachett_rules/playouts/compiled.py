"""The game state compiled with numba: the phases of :class:`~schachett_rules.kernel.state.State` on arrays.

The tables become arrays once per ruleset (:class:`Plan`); one game's state is a
handful of arrays (:class:`Arrays`). The state walks the same phases as the
kernel's :class:`~schachett_rules.kernel.state.State`: the deal (with the stock
and the card turned up), the passing of cards, the auction, the exchange and the
call (:mod:`.before`), the moments of castling (the seats asked in turn, as
:func:`~schachett_rules.kernel.castling.options` orders them), the play of cards
under the follow rules, restrictions and obligations (past any seat sitting the
game out), the end. Its actions are the state's too: a card played, passed,
called or laid away, a bid, a castle, a chance to castle let go (:func:`apply`),
each undone by :func:`undo`; :func:`decider`, :func:`legal_cards` and
:func:`before_actions` say whose decision it is and which actions are open. A search walks this state; a test walks it beside the
kernel's, action by action. What it does not yet play it refuses
(:func:`~.plan.not_compiled`).

:func:`play` is the random player on this state: the deal of
:func:`~schachett_rules.kernel.deal.deal_cards`, one number per card a player
chooses or passes and per bid, call or card laid away (none for an automaton's card), and at each castling decision one number per
King on offer (taken below one half) and one for the officer, as
:func:`~schachett_rules.kernel.chance.random_action` draws them. Every rule it
applies is the kernel's own source compiled here: :mod:`schachett_rules.kernel.core`
(who takes a trick, the follow tier, the restrictions, a King's fate and scorer,
where passed cards go, the automaton's card, the shuffle) and :mod:`schachett_rules.kernel.castling` (who may be asked
to castle, which King may be rescued, the random player's choice). This module
only walks the game through its moments and keeps the hands as 64-bit words.

When the numbers run out, :func:`play` stops where it stands (a decision is
either made whole or not at all) and says how many more it needs at least;
called again with more, it goes on. So the one-game path draws exactly the
numbers the kernel's random player draws from any random source, and the batch
(whose rows hold a bound on a game's numbers) never runs out.

Numba compiles these functions once and keeps them in its cache (``cache=True``),
so a later process loads them instead of compiling them.
"""

from __future__ import annotations

import numpy as np

from ..kernel import castling as castle_rules
from ..kernel import core
from ..kernel.actions import AUCTION, CALL, CASTLE, DEAL, EXCHANGE, OFFER, OVER, PASSING, PLAY, RETURN  # noqa: F401
from .plan import (A_ANSWER, A_BID, A_CALL, A_CARD, A_CASTLE, A_DISCARD, A_GIVE, A_PASS, ASK, ASKED,  # noqa: F401
                   C_KIND, C_KING, OFFERED, OFFER_TURN, TAKER, TO_GIVE,
                   C_OFFICER, C_SEAT, C_TRICK, C_WITH, CALLED, CASTLED, CASTLING, CONTRACT, DEALER, DECLARER, DEPTH,
                   BEST_COLOUR, BEST_CONTRACT, BEST_RANK, BEST_SEAT, BID_TURN, ROUND, TO_DISCARD,
                   DRAWN, E_FIRST, E_KIND, E_OWNER, E_POINTS, E_SCORER, E_TRICK, EXCHANGER, FALLEN, GAME, H_COVERED,
                   H_PASSED, H_PLAYED, LEADER, MOMENT, N_CASTLES, N_EVENTS, PARTIES, PARTNER, PASSES, PHASE, PLAYED,
                   POS, REGS, RESTRICT, S_AUTO_CALL, S_AUTO_LAY, S_AUTO_PASS, S_COVERED,
                   S_CARDS, S_CASTLING, S_EACH, S_EACH_SEAT, S_FATES, S_LIMIT, S_NEVER, S_OTHER_KING, S_OWED,
                   S_PARTIES, S_PASS, S_RANDOM, S_REST, S_RULES, S_SAME, S_SEATS, S_SKIP, S_TRICKS, S_WORDS, SITTING,
                   SKIPPED, T_CARDS, T_LEADER, T_POINTS, T_WINNER, THROWN, TRICK, TRUMP, TURNED, UNSET, GAME_REGS, VARIANT,
                   Arrays,
                   Plan,
                   plan_of)
from .before import (LOOP, _before_actions, _before_apply, _before_decider, _bidder, _deal, _give, _passer,  # noqa: F401
                     _variant, bits_of, enter, laid_away, next_seat)
from .bits import (_U1, _bare, _inline, _jit, _same_source, copy_row, copy_rows, count_cards, has_card,  # noqa: F401
                   kth_card, popcount, toggle)

# the random player's loop deals, passes, bids, calls and lays away through copies of its own (before.LOOP; run
# as plain Python, with numba's compiler off, there are none and the loop calls the functions themselves)
_loop_deal, _loop_give = LOOP.get("_deal", _deal), LOOP.get("_give", _give)
_loop_actions, _loop_apply = LOOP.get("_before_actions", _before_actions), LOOP.get("_before_apply", _before_apply)

# the kernel's leaf rules, the same source compiled
takes_from = _inline(core.takes_from)
holder_after = _same_source(core.holder_after, takes_from=takes_from)
serving_tier = _inline(core.serving_tier)
relation = _inline(core.relation)
king_fate = _same_source(core.king_fate, relation=relation)
king_scorer = _inline(core.king_scorer)
scores_for = _inline(core.scores_for)
event_points = _inline(core.event_points)
points_of = _inline(core.points_of)
automaton_pick = _inline(core.automaton_pick)
kth = _inline(core.kth)
restrict = _inline(core.restrict)
seat_at = _same_source(core.seat_at, next_seat=next_seat)
found_partner = _inline(core.found_partner)
party_of_seat = _inline(core.party_of_seat)
permitted = _inline(castle_rules.permitted)
within_limit = _inline(castle_rules.within_limit)
castle_open = _same_source(castle_rules.castle_open, permitted=permitted, within_limit=within_limit)
may_rescue = _same_source(castle_rules.may_rescue, relation=relation)
takes_other_king = _inline(castle_rules.takes_other_king)
chance_taken = _inline(castle_rules.chance_taken)
officer_at = _inline(castle_rules.officer_at)

BEFORE, BETWEEN, RESCUE = castle_rules.BEFORE, castle_rules.BETWEEN, castle_rules.RESCUE


# --- the state's flow ------------------------------------------------------------------------------------
# Every function below takes the plan's arrays (sc ... end) and the state's (hands ... each) in the orders of
# Plan.tables() and Arrays.arrays(); scratch holds two mask words (kings, offered) and faces one int per seat.

@_inline
def _winner(sc, card_face, beats2, trick, regs, faces, n):
    """The place (from 0) holding the trick after its first ``n`` cards."""
    last = 1 if regs[TRICK] == sc[S_TRICKS] - 1 else 0
    for i in range(n):
        faces[i] = card_face[trick[1, i]]
    return holder_after(beats2[last], faces, n)


@_inline
def _seat_castle(sc, royal, officers, with_seat, hands, regs, seat, kings, offered):
    """The hands a castle of ``seat`` at this moment exchanges: (the hand giving the officer, the hand giving the
    King); ``kings`` and ``offered`` receive the Kings and the officers on offer."""
    words = sc[S_WORDS]
    any_king = False
    for w in range(words):
        kings[w] = hands[seat, w] & royal[w]
        any_king = any_king or kings[w] != 0
    other = with_seat[seat]
    giver, king_seat = other, seat
    if takes_other_king(sc[S_OTHER_KING] != 0, regs[MOMENT], 1 if any_king else 0):
        giver, king_seat = seat, other
        for w in range(words):
            kings[w] = hands[other, w] & royal[w]
    for w in range(words):
        offered[w] = hands[giver, w] & officers[w]
    return giver, king_seat


@_inline
def _seek(sc, card_face, royal, officers, beats2, party_of, with_seat, permits, open_seats, hands, trick, regs,
          faces, scratch):
    """Ask the next seat that may castle at this moment (from regs[ASK] on); False when none is left."""
    n = sc[S_SEATS]
    kings, offered = scratch[0], scratch[1]
    if regs[MOMENT] == RESCUE:
        winner = trick[0, _winner(sc, card_face, beats2, trick, regs, faces, n)]
        for place in range(regs[ASK], n):
            seat, king = trick[0, place], trick[1, place]
            if not has_card(royal, king) or not may_rescue(sc[S_FATES], party_of, seat, winner):
                continue
            if not castle_open(sc[S_NEVER], permits[0], permits[1], permits[2], permits[3], permits[4], n,
                               regs[DEALER], seat, RESCUE, regs[TRICK], sc[S_LIMIT], party_of, regs[CASTLED]):
                continue
            other = with_seat[seat]
            for w in range(sc[S_WORDS]):
                offered[w] = hands[other, w] & officers[w]
            if count_cards(offered):
                regs[ASK] = place
                return True
        return False
    seats = open_seats[regs[DEALER], regs[MOMENT], regs[TRICK]]
    for seat in range(regs[ASK], n):
        if not (seats >> seat) & 1 or (sc[S_NEVER] >> seat) & 1:
            continue
        if not within_limit(sc[S_LIMIT], party_of, seat, regs[CASTLED]):
            continue
        _seat_castle(sc, royal, officers, with_seat, hands, regs, seat, kings, offered)
        if count_cards(kings) and count_cards(offered):
            regs[ASK] = seat
            return True
    return False


@_inline
def _active(sc, regs):
    """The seats playing this game: the cards of a full trick."""
    return sc[S_SEATS] - (bits_of(regs[SITTING]) if regs[SITTING] else 0)


@_inline
def _seat_to_play(sc, regs):
    """The seat whose card is due: the leader's, then to the left past any seat sitting out."""
    return seat_at(regs[SITTING], regs[LEADER], regs[PLAYED], sc[S_SEATS])


@_inline
def _gather(sc, card_face, royal, beats2, points2, party_of, event_of, scores, first_pts, later_pts, trick, regs,
            tricks, events, totals, each, faces):
    """Take in the full trick: its winner, card points and King fates; then the moment between tricks, or the end."""
    n, index = _active(sc, regs), regs[TRICK]
    last = 1 if index == sc[S_TRICKS] - 1 else 0
    best = _winner(sc, card_face, beats2, trick, regs, faces, n)
    winner = trick[0, best]
    partner = found_partner(regs[PARTIES], regs[PARTNER], regs[DECLARER], winner)
    if partner != regs[PARTNER]:
        # the first other player to take a trick is the declarer's partner, with this very trick
        # (kernel.before_play.found_partner)
        regs[PARTNER] = partner
        for s in range(sc[S_SEATS]):
            party_of[s] = party_of_seat(regs[PARTIES], s, regs[DECLARER], partner, 0, party_of[s])
    pts = points_of(points2[last], faces, n)
    for i in range(sc[S_SEATS]):
        tricks[index, T_CARDS + i] = trick[1, i] if i < n else -1     # -1: the places of seats sitting out
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
            if scores_for(scorer, p):
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
    if regs[TRICK] == sc[S_TRICKS]:
        regs[PHASE] = OVER
    else:
        enter(sc, regs, BETWEEN)


@_inline
def _settle(sc, card_face, royal, officers, beats2, points2, party_of, event_of, scores, first_pts, later_pts,
            with_seat, permits, open_seats, hands, trick, regs, tricks, events, totals, each, faces, scratch):
    """Go on until a decision is due: moments nobody may castle at pass, full tricks are gathered."""
    n = _active(sc, regs)
    while True:
        phase = regs[PHASE]
        if phase == CASTLE:
            if _seek(sc, card_face, royal, officers, beats2, party_of, with_seat, permits, open_seats, hands, trick,
                     regs, faces, scratch):
                return
            moment = regs[MOMENT]
            regs[PHASE], regs[MOMENT], regs[ASK] = PLAY, -1, 0
            if moment == RESCUE:
                _gather(sc, card_face, royal, beats2, points2, party_of, event_of, scores, first_pts, later_pts,
                        trick, regs, tricks, events, totals, each, faces)
            continue
        if phase == PLAY and regs[PLAYED] == n:
            kings_down = False
            for i in range(n):
                kings_down = kings_down or has_card(royal, trick[1, i])
            if kings_down and regs[CASTLING] != 0 and sc[S_CASTLING] != 0:
                regs[PHASE], regs[MOMENT], regs[ASK] = CASTLE, RESCUE, 0
            else:
                _gather(sc, card_face, royal, beats2, points2, party_of, event_of, scores, first_pts, later_pts,
                        trick, regs, tricks, events, totals, each, faces)
            continue
        return


@_inline
def _legal(sc, card_face, follow, rules, hands, trick, regs, seat, legal):
    """The cards ``seat`` may play to the trick on the table, into ``legal``: the follow tier served, then the
    restrictions and obligations (kernel.core.restrict, with the cards played so far)."""
    words = sc[S_WORDS]
    n = sc[S_SEATS]
    for w in range(words):
        legal[w] = hands[seat, w] & ~hands[2 * n + H_COVERED, w]       # in a tableau, face-up cards only
    led = trick[1, 0] if regs[PLAYED] else 0
    tiers = follow[card_face[led]]
    if regs[PLAYED]:
        tier = serving_tier(tiers, legal, words)
        if tier >= 0:
            for w in range(words):
                legal[w] &= tiers[tier * words + w]
    k = regs[RESTRICT]            # the set in force: the ruleset's own, or the called card's
    # after the first trick, only where one of the set's rules may still bind the card due (a follower's, a lead)
    if sc[S_RULES] + sc[S_OWED] > 0 and (regs[TRICK] == 0 or rules[23][k, 3 if regs[PLAYED] == 0 else 2] != 0):
        rows, owing = rules[23][k, 0], rules[23][k, 1]
        # a lead has no led card: the tier and the card given then are never read (kernel.trick.narrowed); a
        # hand's cards face down are in no restriction's sight (contracts.refused: none asks what it holds)
        restrict(legal, hands[seat], hands[n + H_PLAYED], tiers, rules[8][led], words, regs[PLAYED] == 0,
                 regs[TRICK] == 0, regs[TRICK] == sc[S_TRICKS] - 1, rules[0][k, :rows], rules[1][k, :rows],
                 rules[2][k], rules[3][k], rules[4][k], rules[5][k, :owing * words], rules[6][k])


@_inline
def _play_card(sc, hands, trick, regs, card):
    """The seat to play lays ``card`` on the trick (its legality is the caller's)."""
    played = regs[PLAYED]
    n = sc[S_SEATS]
    seat = _seat_to_play(sc, regs)
    toggle(hands[seat], card)
    hands[n + H_PLAYED, card >> 6] |= _U1 << np.uint64(card & 63)
    if sc[S_COVERED] > 0:
        down = regs[REGS + n + card]
        if down >= 0:           # the card it covered is turned face up
            hands[2 * n + H_COVERED, down >> 6] &= ~(_U1 << np.uint64(down & 63))
    trick[0, played], trick[1, played] = seat, card
    regs[PLAYED] = played + 1


@_inline
def _castle(sc, royal, officers, with_seat, hands, trick, regs, castles, seat, king, officer, scratch):
    """``seat``, being asked, castles ``king`` for ``officer``; the moment goes on or closes (castle moment)."""
    n = sc[S_SEATS]
    moment = regs[MOMENT]
    other = with_seat[seat]
    if moment == RESCUE:
        place = regs[ASK]
        toggle(hands[other], officer)
        toggle(hands[other], king)
        trick[1, place] = officer
    else:
        giver, king_seat = _seat_castle(sc, royal, officers, with_seat, hands, regs, seat, scratch[0], scratch[1])
        toggle(hands[giver], officer)
        toggle(hands[giver], king)
        toggle(hands[king_seat], king)
        toggle(hands[king_seat], officer)
    i = regs[N_CASTLES]
    if i < len(castles):
        castles[i, C_TRICK], castles[i, C_KIND], castles[i, C_SEAT] = regs[TRICK] + (moment == RESCUE), moment, seat
        castles[i, C_KING], castles[i, C_OFFICER], castles[i, C_WITH] = king, officer, other
    regs[N_CASTLES] = i + 1
    regs[CASTLED] |= 1 << seat
    regs[ASK] = regs[ASK] + 1 if sc[S_EACH_SEAT] != 0 else n


@_inline
def _castler(trick, regs):
    """The seat being asked to castle: the seat itself, or in a rescue the seat of the King at place ASK."""
    return trick[0, regs[ASK]] if regs[MOMENT] == RESCUE else regs[ASK]


# --- the state's actions, as a search takes them ------------------------------------------------------------

@_inline
def _push(sc, hands, trick, regs, totals, each, s_regs, s_trick, s_hands, s_totals, s_each):
    # element by element, as in undo: the search's loop, which counts no references, runs these too
    d = regs[DEPTH]
    copy_row(s_regs[d], regs)
    copy_rows(s_trick[d], trick, len(trick))
    copy_rows(s_hands[d], hands, len(hands))
    copy_rows(s_totals[d], totals, len(totals))
    copy_rows(s_each[d], each, len(each))
    regs[DEPTH] = d + 1


@_jit
def settle(sc, card_face, strength, royal, officers, beats2, points2, follow, party_of, policy, controller, with_seat,
           event_of, scores, first_pts, later_pts, permits, open_seats, rest, given, start, end, rules,
           hands, trick, regs, tricks, events, castles, totals, each):
    """Bring a state loaded from elsewhere to its next decision (full tricks gathered, empty moments passed)."""
    faces = np.zeros(sc[S_SEATS], dtype=np.int64)
    scratch = np.zeros((2, sc[S_WORDS]), dtype=np.uint64)
    _settle(sc, card_face, royal, officers, beats2, points2, party_of, event_of, scores, first_pts, later_pts,
            with_seat, permits, open_seats, hands, trick, regs, tricks, events, totals, each, faces, scratch)


@_jit
def apply(sc, card_face, strength, royal, officers, beats2, points2, follow, party_of, policy, controller, with_seat,
          event_of, scores, first_pts, later_pts, permits, open_seats, rest, given, start, end, rules,
          hands, trick, regs, tricks, events, castles, totals, each, s_regs, s_trick, s_hands, s_totals, s_each,
          kind, king, card):
    """Apply the decider's action (A_CARD: play ``card``; A_CASTLE: castle ``king`` for ``card``; A_PASS; A_GIVE:
    pass ``card`` on, or give it back to the declarer; A_BID: bid contract ``card`` (-1: pass) for colour ``king``;
    A_CALL: call ``card``; A_DISCARD: lay ``card`` away; A_ANSWER: take the card offered, ``card`` 1, or let it lie,
    0), kept for :func:`undo`. The caller gives a legal action of the decider (:func:`decider`,
    :func:`legal_cards`, :func:`before_actions`)."""
    scratch = np.zeros((2, sc[S_WORDS]), dtype=np.uint64)
    _push(sc, hands, trick, regs, totals, each, s_regs, s_trick, s_hands, s_totals, s_each)
    if kind == A_CARD:
        _play_card(sc, hands, trick, regs, card)
    elif kind == A_GIVE or kind == A_CALL or kind == A_DISCARD or kind == A_ANSWER:
        _before_apply(sc, rules, beats2, points2, follow, party_of, hands, regs, card)
    elif kind == A_BID:       # card: the contract (-1: a pass), king: the colour
        _before_apply(sc, rules, beats2, points2, follow, party_of, hands, regs, card * 64 + king + 1 if card >= 0
                      else -1)
    elif kind == A_CASTLE:
        _castle(sc, royal, officers, with_seat, hands, trick, regs, castles, _castler(trick, regs), king, card,
                scratch)
    else:
        regs[ASK] += 1
    # the settling compiled once in :func:`settle` and called: a second inlined copy of it cost seconds of every
    # first compilation, and an action applied from Python is dominated by the call from Python
    settle(sc, card_face, strength, royal, officers, beats2, points2, follow, party_of, policy, controller, with_seat,
           event_of, scores, first_pts, later_pts, permits, open_seats, rest, given, start, end, rules,
           hands, trick, regs, tricks, events, castles, totals, each)


@_jit
def undo(hands, trick, regs, totals, each, s_regs, s_trick, s_hands, s_totals, s_each):
    """Take back the last action :func:`apply` applied."""
    # element by element: an array assigned to a slice goes through a temporary copy, which needs the allocator
    # that the search's loop (which inlines this) does without
    d = regs[DEPTH] - 1
    copy_row(regs, s_regs[d])
    copy_rows(trick, s_trick[d], len(trick))
    copy_rows(hands, s_hands[d], len(hands))
    copy_rows(totals, s_totals[d], len(totals))
    copy_rows(each, s_each[d], len(each))


# undo inlined into the loops that count no references (the walk below, the solver's search): called, it would
# count them again on its ten arrays at every step (with numba off, undo is the plain function itself)
undo_inline = _inline(getattr(undo, "py_func", undo))


@_jit
def decider(sc, controller, trick, regs):
    """The seat of the player who decides now: -1 at the deal, -2 at the end (as the kernel's state says)."""
    phase = regs[PHASE]
    if phase >= PASSING:
        return controller[_before_decider(sc, regs)]
    if phase == PLAY:
        return controller[_seat_to_play(sc, regs)]
    if phase == CASTLE:
        return controller[_castler(trick, regs)]
    return -1 if phase == DEAL else -2


@_jit
def legal_cards(sc, card_face, follow, rules, hands, trick, regs, legal):
    """The cards the seat to play may play now (in passing: the cards the passing seat may pass), into the mask
    words ``legal``."""
    if regs[PHASE] == PASSING:
        for w in range(sc[S_WORDS]):
            legal[w] = hands[_passer(sc, regs), w]
        return
    _legal(sc, card_face, follow, rules, hands, trick, regs, _seat_to_play(sc, regs), legal)


@_jit
def before_actions(sc, rules, hands, regs, out):
    """The decider's actions before play, in the kernel's order, into ``out``; how many. A card to pass, to call or
    to lay away is the card; a bid is ``contract * 64 + colour + 1`` (a pass: -1)."""
    scratch = np.zeros(sc[S_WORDS], dtype=np.uint64)
    return _before_actions(sc, rules, hands, regs, out, scratch)


@_jit
def castle_offer(sc, royal, officers, with_seat, hands, trick, regs, kings, offered):
    """The Kings (into ``kings``) and officers (into ``offered``) on offer to the seat being asked to castle."""
    seat = _castler(trick, regs)
    if regs[MOMENT] == RESCUE:
        for w in range(sc[S_WORDS]):
            kings[w] = np.uint64(0)
            offered[w] = hands[with_seat[seat], w] & officers[w]
        toggle(kings, trick[1, regs[ASK]])
    else:
        _seat_castle(sc, royal, officers, with_seat, hands, regs, seat, kings, offered)


# --- the random player on this state ----------------------------------------------------------------------

@_inline
def _random_castle(sc, royal, officers, with_seat, hands, trick, regs, castles, u, scratch):
    """The random player's answer for the seat being asked; False (nothing changed) when the numbers ran out."""
    pos = regs[POS]
    kings, offered = scratch[0], scratch[1]
    seat = _castler(trick, regs)
    if regs[MOMENT] == RESCUE:
        for w in range(sc[S_WORDS]):
            kings[w] = np.uint64(0)
            offered[w] = hands[with_seat[seat], w] & officers[w]
        toggle(kings, trick[1, regs[ASK]])
    else:
        _seat_castle(sc, royal, officers, with_seat, hands, regs, seat, kings, offered)
    count = count_cards(offered)
    for i in range(count_cards(kings)):
        if pos >= len(u):
            return False
        taken = chance_taken(u[pos])
        pos += 1
        if not taken:
            continue
        if pos >= len(u):
            return False
        officer = kth_card(offered, officer_at(u[pos], count))
        regs[POS] = pos + 1
        _castle(sc, royal, officers, with_seat, hands, trick, regs, castles, seat, kth_card(kings, i), officer,
                scratch)
        return True
    regs[POS] = pos
    regs[ASK] += 1
    return True


@_inline
def _need(sc, regs, more):
    """At least how many numbers the rest of the game draws: every card still to pass or to choose (none for the
    seats sitting out, or for as many as may sit out while the game is not yet bid), and ``more``."""
    left = sc[S_PASS] * sc[S_SEATS] - regs[PASSES] if regs[PHASE] == PASSING else 0
    return left + sc[S_TRICKS] * sc[S_RANDOM] - regs[DRAWN] - regs[SKIPPED] + more


@_jit
def play(sc, card_face, strength, royal, officers, beats2, points2, follow, party_of, policy, controller, with_seat,
         event_of, scores, first_pts, later_pts, permits, open_seats, rest, given, start, end, rules,
         hands, trick, regs, tricks, events, castles, totals, each, s_regs, s_trick, s_hands, s_totals, s_each, u):
    """Play the game in ``regs`` on from where it stands; 0 when it is over, else how many more numbers it needs."""
    faces, legal, scratch, cards, takes, order = _work(sc, rest)
    return _play(sc, card_face, strength, royal, officers, beats2, points2, follow, party_of, policy, with_seat,
                 event_of, scores, first_pts, later_pts, permits, open_seats, rest, given, start, end, rules,
                 hands, trick, regs, tricks, events, castles, totals, each, u,
                 faces, legal, scratch, cards, takes, order)


@_jit
def _work(sc, rest):
    """Scratch arrays for :func:`_play`."""
    words = sc[S_WORDS]
    return (np.zeros(sc[S_SEATS], dtype=np.int64), np.zeros(words, dtype=np.uint64),
            np.zeros((2, words), dtype=np.uint64), np.zeros(sc[S_CARDS], dtype=np.int64),
            np.zeros(sc[S_CARDS], dtype=np.bool_), rest.copy())


@_inline
def _hand_cards(hand, cards, takes):
    """The cards of ``hand`` into ``cards`` (none of them taking a trick, for :func:`automaton_pick`); how many."""
    m = 0
    for i in range(count_cards(hand)):
        cards[m] = kth_card(hand, i)
        takes[m] = False
        m += 1
    return m


@_bare
def _play(sc, card_face, strength, royal, officers, beats2, points2, follow, party_of, policy, with_seat, event_of,
          scores, first_pts, later_pts, permits, open_seats, rest, given, start, end, rules,
          hands, trick, regs, tricks, events, castles, totals, each, u,
          faces, legal, scratch, cards, takes, order):
    n = sc[S_SEATS]
    if regs[PHASE] == DEAL:
        _loop_deal(sc, rest, given, start, end, rules, beats2, points2, follow, party_of, hands, regs, u, order)
    while regs[PHASE] >= PASSING:
        # the random player takes the k-th of the actions open: a card to pass, a bid, a card to call or to lay
        # away (kernel.chance.random_action)
        if regs[POS] >= len(u):
            return _need(sc, regs, 0 if regs[PHASE] == PASSING else 1)
        if regs[PHASE] == PASSING:        # the k-th card of the hand, found in its words
            seat = _passer(sc, regs)
            hand = hands[seat]
            if policy[seat] >= 0:        # an automaton passes by its rule (kernel.automaton.automaton_give)
                m = _hand_cards(hand, cards, takes)
                _loop_give(sc, rules, beats2, points2, follow, party_of, hands, regs,
                      automaton_pick(sc[S_AUTO_PASS], cards, takes, m, strength[0]))   # the ruleset's order
                continue
            _loop_give(sc, rules, beats2, points2, follow, party_of, hands, regs,
                  kth_card(hand, kth(count_cards(hand), u[regs[POS]])))
        elif regs[PHASE] == AUCTION and policy[_bidder(sc, regs)] >= 0:
            # an automaton passes at its turn to bid; made to bid, it makes the first bid open (the bids come in
            # the round's order, the pass last; kernel.state.State.rule_action)
            m = _loop_actions(sc, rules, hands, regs, cards, scratch[0])
            _loop_apply(sc, rules, beats2, points2, follow, party_of, hands, regs, cards[m - 1] if cards[m - 1] < 0
                          else cards[0])
            continue
        elif regs[PHASE] == CALL and policy[regs[DECLARER]] >= 0:
            # an automaton calls by its rule among the cards it may call (kernel.state.State.rule_action), by the
            # contract's order of strength
            v = _variant(rules, regs[CONTRACT], regs[TRUMP])
            m = _loop_actions(sc, rules, hands, regs, cards, scratch[0])
            for i in range(m):
                takes[i] = False
            _loop_apply(sc, rules, beats2, points2, follow, party_of, hands, regs,
                          automaton_pick(sc[S_AUTO_CALL], cards, takes, m, strength[v]))
            continue
        elif regs[PHASE] == OFFER and policy[regs[ASKED]] >= 0:
            # a seat that takes no part in the bidding lets a card offered lie (kernel.state.State.rule_action)
            _loop_apply(sc, rules, beats2, points2, follow, party_of, hands, regs, 0)
            continue
        elif regs[PHASE] == EXCHANGE and policy[regs[EXCHANGER]] >= 0:
            # an automaton lays away by its rule (kernel.automaton.automaton_give)
            v = _variant(rules, regs[CONTRACT], regs[TRUMP]) if regs[CONTRACT] >= 0 else 0
            m = _hand_cards(hands[regs[EXCHANGER]], cards, takes)
            _loop_apply(sc, rules, beats2, points2, follow, party_of, hands, regs,
                          automaton_pick(sc[S_AUTO_LAY], cards, takes, m, strength[v]))
            continue
        else:
            m = _loop_actions(sc, rules, hands, regs, cards, scratch[0])
            _loop_apply(sc, rules, beats2, points2, follow, party_of, hands, regs, cards[kth(m, u[regs[POS]])])
        regs[POS] += 1
    settle_now = True
    while True:
        if settle_now:              # a full trick or a castling decision may set things going: settle them
            _settle(sc, card_face, royal, officers, beats2, points2, party_of, event_of, scores, first_pts,
                    later_pts, with_seat, permits, open_seats, hands, trick, regs, tricks, events, totals, each,
                    faces, scratch)
            settle_now = False
        if regs[PHASE] == OVER:
            laid_away(sc, points2, card_face, party_of, hands, regs, totals)
            return 0
        if regs[PHASE] == CASTLE:
            if not _random_castle(sc, royal, officers, with_seat, hands, trick, regs, castles, u, scratch):
                return _need(sc, regs, 1)
            settle_now = True
            continue
        played = regs[PLAYED]
        seat = _seat_to_play(sc, regs)
        _legal(sc, card_face, follow, rules, hands, trick, regs, seat, legal)
        rule = policy[seat]
        if rule >= 0:
            m = 0
            held = -1
            if played:
                held = faces[_winner(sc, card_face, beats2, trick, regs, faces, played)]
            last = 1 if regs[TRICK] == sc[S_TRICKS] - 1 else 0
            for i in range(count_cards(legal)):
                c = kth_card(legal, i)
                cards[m] = c
                takes[m] = held >= 0 and takes_from(beats2[last], card_face[c], held)
                m += 1
            card = automaton_pick(rule, cards, takes, m, strength[regs[VARIANT]])
        else:
            if regs[POS] >= len(u):
                return _need(sc, regs, 0)
            card = kth_card(legal, kth(count_cards(legal), u[regs[POS]]))
            regs[POS] += 1
            regs[DRAWN] += 1
        _play_card(sc, hands, trick, regs, card)
        settle_now = regs[PLAYED] == n - (bits_of(regs[SITTING]) if regs[SITTING] else 0)  # only a full trick
        # sets anything going (a moment, the gathering)


@_jit
def play_batch(sc, card_face, strength, royal, officers, beats2, points2, follow, party_of, policy, controller,
               with_seat, event_of, scores, first_pts, later_pts, permits, open_seats, rest, given, start, end, rules,
               hands, trick, regs, tricks, events, castles, totals, each, s_regs, s_trick, s_hands, s_totals, s_each,
               dealers, numbers, rows, out_totals, out_tricks, out_events, out_castles, out_n_castles, out_game,
               out_party_of):
    """Play one game per row of ``rows`` (games, draws), dealt by ``dealers``, each game ``numbers[g]`` of its
    session (where the passing clause's direction turns with it). ``out_game`` receives each game's registers
    :data:`~.plan.GAME_REGS` (the contract, trumps, declarer ...), ``out_party_of`` its parties.

    Returns -1 when all are played, else the first game that ran short of numbers.
    """
    faces, legal, scratch, cards, takes, order = _work(sc, rest)
    # one call for the whole batch: the games are played by a loop that counts no references (see _batch_games)
    return _batch_games(sc, card_face, strength, royal, officers, beats2, points2, follow, party_of, policy,
                        with_seat, event_of, scores, first_pts, later_pts, permits, open_seats, rest, given, start,
                        end, rules, hands, trick, regs, tricks, events, castles, totals, each, dealers, numbers, rows,
                        out_totals, out_tricks, out_events, out_castles, out_n_castles, out_game, out_party_of,
                        faces, legal, scratch, cards, takes, order)


@_bare
def _batch_games(sc, card_face, strength, royal, officers, beats2, points2, follow, party_of, policy, with_seat,
                 event_of, scores, first_pts, later_pts, permits, open_seats, rest, given, start, end, rules, hands,
                 trick, regs, tricks, events, castles, totals, each, dealers, numbers, rows, out_totals, out_tricks,
                 out_events, out_castles, out_n_castles, out_game, out_party_of, faces, legal, scratch, cards, takes,
                 order):
    """The games of :func:`play_batch`, one after another. Compiled without reference counting: a function that
    counts them pays two atomic operations per array for every call it makes and every row it takes, and
    calling the game loop once a game with its forty arrays cost a fifth of the batch's time."""
    n = sc[S_SEATS]
    for g in range(len(dealers)):
        u = rows[g]
        regs[:] = 0
        for r in UNSET:
            regs[r] = -1
        for s in range(n):            # the parties are registers too: the ruleset's, until play begins
            party_of[s] = rules[21][s]
        regs[DEALER], regs[CASTLING], regs[GAME] = dealers[g], 1, numbers[g]
        tricks[:] = -1            # a game whose cards are thrown in plays no trick
        totals[:] = 0
        each[:] = 0
        events[:] = -1
        events[:, E_POINTS] = 0
        if _play(sc, card_face, strength, royal, officers, beats2, points2, follow, party_of, policy, with_seat,
                 event_of, scores, first_pts, later_pts, permits, open_seats, rest, given, start, end, rules,
                 hands, trick, regs, tricks, events, castles, totals, each, u,
                 faces, legal, scratch, cards, takes, order) != 0:
            return g
        # element by element: an array assigned to a slice is copied through a temporary, which needs the
        # allocator this loop does without
        copy_rows(out_totals[g], totals, len(totals))
        copy_rows(out_tricks[g], tricks, len(tricks))
        copy_rows(out_events[g], events, len(events))
        k = regs[N_CASTLES]
        out_n_castles[g] = k
        copy_rows(out_castles[g], castles, k)
        for i in range(len(GAME_REGS)):
            out_game[g, i] = regs[GAME_REGS[i]]
        for s in range(n):
            out_party_of[g, s] = party_of[s]
    return -1


@_jit
def walk_randomly(sc, card_face, strength, royal, officers, beats2, points2, follow, party_of, policy, controller,
                  with_seat, event_of, scores, first_pts, later_pts, permits, open_seats, rest, given, start, end, rules,
                  hands, trick, regs, tricks, events, castles, totals, each, s_regs, s_trick, s_hands, s_totals,
                  s_each, u, steps):
    """Apply and undo ``steps`` times: from the state as it stands, a random legal action is applied and the walk
    goes deeper, until the game ends; then every action is undone and the walk begins again (a benchmark of the
    compiled state's apply and undo, in a loop that counts no references, as the solver's does). Returns the
    actions applied."""
    faces = np.zeros(sc[S_SEATS], dtype=np.int64)
    scratch = np.zeros((2, sc[S_WORDS]), dtype=np.uint64)
    legal = np.zeros(sc[S_WORDS], dtype=np.uint64)
    cards = np.zeros(sc[S_CARDS], dtype=np.int64)
    return _walk(sc, card_face, royal, officers, beats2, points2, follow, party_of, with_seat, event_of, scores,
                 first_pts, later_pts, permits, open_seats, rules, hands, trick, regs, tricks, events, castles, totals,
                 each, s_regs, s_trick, s_hands, s_totals, s_each, u, steps, faces, scratch, legal, cards)


@_bare
def _walk(sc, card_face, royal, officers, beats2, points2, follow, party_of, with_seat, event_of, scores, first_pts,
          later_pts, permits, open_seats, rules, hands, trick, regs, tricks, events, castles, totals, each, s_regs,
          s_trick, s_hands, s_totals, s_each, u, steps, faces, scratch, legal, cards):
    """The walk of :func:`walk_randomly`, with its scratch arrays."""
    base = regs[DEPTH]
    done, k = 0, 0
    while done < steps:
        if regs[PHASE] == OVER or regs[PHASE] == DEAL:
            while regs[DEPTH] > base:
                undo_inline(hands, trick, regs, totals, each, s_regs, s_trick, s_hands, s_totals, s_each)
            if regs[PHASE] == OVER or regs[PHASE] == DEAL:
                return done
            continue
        _push(sc, hands, trick, regs, totals, each, s_regs, s_trick, s_hands, s_totals, s_each)
        r = u[k % len(u)]
        k += 1
        if regs[PHASE] == CASTLE:
            if chance_taken(r):
                regs[ASK] += 1
            else:
                kings, offered = scratch[0], scratch[1]
                seat = _castler(trick, regs)
                if regs[MOMENT] == RESCUE:
                    for w in range(sc[S_WORDS]):
                        kings[w] = np.uint64(0)
                        offered[w] = hands[with_seat[seat], w] & officers[w]
                    toggle(kings, trick[1, regs[ASK]])
                else:
                    _seat_castle(sc, royal, officers, with_seat, hands, regs, seat, kings, offered)
                officer = kth_card(offered, kth(count_cards(offered), u[k % len(u)]))
                _castle(sc, royal, officers, with_seat, hands, trick, regs, castles, seat, kth_card(kings, 0),
                        officer, scratch)
        elif regs[PHASE] >= PASSING:
            m = _before_actions(sc, rules, hands, regs, cards, legal)
            _before_apply(sc, rules, beats2, points2, follow, party_of, hands, regs, cards[kth(m, r)])
        else:
            _legal(sc, card_face, follow, rules, hands, trick, regs, _seat_to_play(sc, regs), legal)
            _play_card(sc, hands, trick, regs, kth_card(legal, kth(count_cards(legal), r)))
        _settle(sc, card_face, royal, officers, beats2, points2, party_of, event_of, scores, first_pts, later_pts,
                with_seat, permits, open_seats, hands, trick, regs, tricks, events, totals, each, faces, scratch)
        done += 1
    return done


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

    The same SplitMix64 sequence as :class:`~schachett_rules.kernel.streams.GameStream`, in wrapping 64-bit arithmetic.
    """
    for g in range(len(games)):
        key = _mix(base + np.uint64(games[g]) * _GOLDEN)
        for j in range(out.shape[1]):
            out[g, j] = np.float64(_mix(key + np.uint64(j + 1) * _GOLDEN) >> np.uint64(11)) * 1.1102230246251565e-16


@_jit
def stream_numbers(state, count, out):
    """The next ``count`` numbers of a stream whose state is ``state`` (as GameStream.random draws them), into
    ``out``; returns the stream's state after them."""
    for j in range(count):
        state = state + _GOLDEN
        out[j] = np.float64(_mix(state) >> np.uint64(11)) * 1.1102230246251565e-16
    return state
