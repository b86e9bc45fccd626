"""The leaf decisions of a trick and a King's fate, on plain ints and int sequences.

These few functions are the one source of who takes a trick, which follow
tier a hand serves, which King event a fallen King meets, which party scores
it, which card an automaton plays and how a deck is shuffled. The Python
queries (:mod:`.trick`, :mod:`.scoring`, :mod:`.automaton`, :mod:`.deal`) call
them on the tables' tuples; the compiled play-outs
(:mod:`schachett_rules.playouts.compiled`) compile this very source with numba
and call it on arrays built once from the same tables. They take no Tables and
build no objects, so both can run them.

>>> beats = (0b000, 0b001, 0b011)          # face 1 takes face 0, face 2 takes faces 0 and 1
>>> takes_from(beats, 2, 1), takes_from(beats, 0, 2)
(True, False)
>>> holder_after(beats, (1, 2, 0), 3)   # the second card (face 2) takes the first and holds
1
"""

from __future__ import annotations

SELF, PARTNER, OPPONENT = 0, 1, 2                 # how a King's player stands to the trick's winner
RELATIONS = ("self", "partner", "opponent")
TAKER, OWNER, OPPONENTS = 0, 1, 2                 # who scores a King event
SCORERS = ("taker", "owner", "opponents")
LOWEST, HIGHEST, CHEAPEST_TAKER = 0, 1, 2         # the automaton's rules
POLICIES = ("lowest", "highest", "cheapest-taker")


def named_seat(from_dealer: bool, offset: int, dealer: int, n_seats: int) -> int:
    """The seat a clause names: ``offset`` places to the left of the ``dealer``, or seat ``offset`` itself.

    >>> named_seat(True, 1, 3, 4), named_seat(False, 2, 3, 4)
    (0, 2)
    """
    return (dealer + offset) % n_seats if from_dealer else offset % n_seats


def scores_for(scorer: int, party: int) -> bool:
    """Whether ``party`` scores a King event whose :func:`king_scorer` answer is ``scorer``.

    >>> scores_for(1, 1), scores_for(-1 - 0, 1), scores_for(-1 - 1, 1)
    (True, True, False)
    """
    return party == scorer or (scorer < 0 and party != -1 - scorer)


def takes_from(beats, face: int, holder_face: int) -> bool:
    """Whether a card of ``face`` takes the trick from the card of ``holder_face`` under ``beats`` (face -> face mask)."""
    return (beats[face] >> holder_face) & 1 == 1


def holder_after(beats, faces, n: int) -> int:
    """The place (from 0) of the card that holds a trick after its first ``n`` cards (``faces`` in playing order)."""
    best = 0
    for i in range(1, n):
        if takes_from(beats, faces[i], faces[best]):
            best = i
    return best


def points_of(points, faces, n: int) -> int:
    """The card points of the first ``n`` cards of a trick (``faces``), with ``points`` the table in force.

    >>> points_of((0, 9, 12), (1, 2, 0), 3)
    21
    """
    total = 0
    for i in range(n):
        total += points[faces[i]]
    return total


def serving_tier(tiers, hand, words: int) -> int:
    """The first follow tier ``hand`` can serve, or -1 when it serves none (then any card may go).

    ``tiers`` holds the led face's tiers word by word (tier ``i``, word ``w`` at
    ``i * words + w``), ``hand`` the hand's ``words`` mask words: one Python int
    for the Python queries, 64-bit words for the compiled play-outs.
    """
    for i in range(len(tiers) // words):
        for w in range(words):
            if hand[w] & tiers[i * words + w]:
                return i
    return -1


# restrictions: what they forbid, and when (bits of ``whens``)
R_LEAD, R_PLAY, R_DISCARD = 0, 1, 2
ACTS = ("lead", "play", "discard")
W_FIRST, W_BEFORE_LAST, W_UNTIL, W_HOLDING = 1, 2, 4, 8


def restrict(legal, hand, played, follows, led, words: int, leading: bool, first_trick: bool, last_trick: bool,
             acts, whens, cards, untils, holdings, owed_led, owed) -> int:
    """Narrow ``legal`` (mask words, changed in place) by the obligations and restrictions; returns the restriction
    (or obligation, as ``-1 - k``) that narrowed it last, else ``len(acts)``.

    An obligation ``k`` (``owed_led``, ``owed``: mask words, ``k * words`` on) binds when the led card ``led`` is one
    of its led cards and the hand may play one of the owed cards: then only those may go. A restriction ``k``
    forbids its ``cards`` (to lead, to play, or to discard: to play one that does not serve the led card's first
    follow tier, ``follows``) while its conditions hold: in the first trick, before the last, until one of
    ``untils`` has been ``played``, while the hand holds one of ``holdings``. No restriction leaves a hand
    without a card to play: one that would forbid every legal card does not bind.

    >>> legal = [0b1111]            # four cards; a heart restriction forbids cards 2 and 3 to be led until one is played
    >>> restrict(legal, (0b1111,), (0,), (0,), (0,), 1, True, False, False, (0,), (4,), (0b1100,), (0b1100,), (0,),
    ...          (), ())
    0
    >>> legal
    [3]
    """
    narrowed = len(acts)
    if not leading:
        for k in range(len(owed_led) // words):
            hit, have = False, False
            for w in range(words):
                if led[w] & owed_led[k * words + w]:
                    hit = True
                if legal[w] & owed[k * words + w]:
                    have = True
            if hit and have:
                for w in range(words):
                    legal[w] &= owed[k * words + w]
                narrowed = -1 - k
    for k in range(len(acts)):
        act, when = acts[k], whens[k]
        if (act == R_LEAD and not leading) or (act == R_DISCARD and leading):
            continue
        if (when & W_FIRST and not first_trick) or (when & W_BEFORE_LAST and last_trick):
            continue
        if when & W_UNTIL:
            seen = False
            for w in range(words):
                if played[w] & untils[k * words + w]:
                    seen = True
            if seen:
                continue
        if when & W_HOLDING:
            holds = False
            for w in range(words):
                if hand[w] & holdings[k * words + w]:
                    holds = True
            if not holds:
                continue
        # first whether a card would be left, then the narrowing: no scratch words, so the compiled play-outs
        # (which allocate nothing) run this very code
        left, changed = False, False
        for w in range(words):
            banned = cards[k * words + w]
            if act == R_DISCARD:
                banned = banned & ~follows[w]
            if legal[w] & ~banned:
                left = True
            if legal[w] & banned:
                changed = True
        if left and changed:
            for w in range(words):
                banned = cards[k * words + w]
                if act == R_DISCARD:
                    banned = banned & ~follows[w]
                legal[w] = legal[w] & ~banned
            narrowed = k
    return narrowed


def relation(party_of, seat: int, winner: int) -> int:
    """How the seat that played a King stands to the trick's winner: SELF, PARTNER or OPPONENT."""
    if seat == winner:
        return SELF
    if party_of[seat] == party_of[winner]:
        return PARTNER
    return OPPONENT


def king_fate(party_of, event_of, count_each: bool, same_trick_all_first: bool, seat: int, winner: int,
              total: int, total_before: int, each, each_before) -> tuple[int, bool]:
    """The King event (an index of the tables' events, -1 for none) of a King ``seat`` played, and whether it is first.

    ``event_of`` maps a :func:`relation` to its event; ``total`` and ``each``
    count the Kings fallen so far (in all and per event), ``total_before`` and
    ``each_before`` those fallen before this trick.
    """
    e = event_of[relation(party_of, seat, winner)]
    if e < 0:
        return -1, False
    if count_each:
        seen, before = each[e], each_before[e]
    else:
        seen, before = total, total_before
    return e, seen == 0 or (same_trick_all_first and before == 0)


def event_points(first, later, event: int, is_first: bool, trick: int) -> int:
    """The points of King event ``event`` in trick ``trick`` (from 0): its first-King or its later points."""
    return first[event][trick] if is_first else later[event][trick]


def king_scorer(scores: int, party_of, seat: int, winner: int) -> int:
    """The party that scores a King event (>= 0), or ``-1 - p``: every party but ``p``."""
    if scores == TAKER:
        return party_of[winner]
    if scores == OWNER:
        return party_of[seat]
    return -1 - party_of[seat]


def automaton_pick(policy: int, cards, takes, n: int, strength) -> int:
    """The card an automaton plays among the legal ``cards[:n]`` (``takes[i]``: whether ``cards[i]`` would take the trick).

    ``strength`` orders the cards (rank, then points, then deck order); the
    cheapest taker falls back on the lowest card when no card would take.
    """
    best = -1
    if policy == CHEAPEST_TAKER:
        for i in range(n):
            if takes[i] and (best < 0 or strength[cards[i]] < strength[best]):
                best = cards[i]
        if best >= 0:
            return best
    for i in range(n):
        c = cards[i]
        if best < 0 or (strength[c] > strength[best] if policy == HIGHEST else strength[c] < strength[best]):
            best = c
    return best


def shuffle(cards, u, start: int) -> None:
    """Fisher-Yates over ``cards`` in place, from the last place down, one uniform number per swap from ``u[start:]``."""
    k = start
    for i in range(len(cards) - 1, 0, -1):
        j = int(u[k] * (i + 1))
        k += 1
        cards[i], cards[j] = cards[j], cards[i]


def kth(count: int, r: float) -> int:
    """Which of ``count`` choices (counted from 0, in deck order) a uniform number ``r`` picks."""
    return int(r * count)


# --- the seats and parties of a game, and the rules before the first card --------------------------------------
# who plays with whom (kernel.flow.PARTNER_RULES, in that order)
P_FIXED, P_CALLED, P_NONE, P_FIRST_TRICK, P_HOLDERS, P_EACH, P_TAKER = range(7)
# where passed cards go (the passing clause's directions, in this order): how many seats to the left
WAYS = ("left", "right", "across", "none")


def next_seat(sitting: int, seat: int, n_seats: int) -> int:
    """The seat that plays after ``seat``: the next to the left, past the seats (a bitmask) sitting the game out.

    >>> next_seat(0, 3, 4), next_seat(0b0010, 0, 4)
    (0, 2)
    """
    seat = (seat + 1) % n_seats
    while (sitting >> seat) & 1:
        seat = (seat + 1) % n_seats
    return seat


def seat_at(sitting: int, leader: int, place: int, n_seats: int) -> int:
    """The seat that plays the ``place``-th card (from 0) of a trick ``leader`` leads, past the seats sitting out.

    >>> seat_at(0, 3, 2, 4), seat_at(0b0100, 1, 2, 4)
    (1, 0)
    """
    if sitting == 0:
        return (leader + place) % n_seats
    seat = leader
    for _ in range(place):
        seat = next_seat(sitting, seat, n_seats)
    return seat


def party_of_seat(rule: int, seat: int, declarer: int, partner: int, holder_seats: int, fixed_party: int) -> int:
    """The party of ``seat`` in a game whose parties follow ``rule`` (P_FIXED ...): the fixed parties'
    (``fixed_party``), each alone, the holders' (``holder_seats``, a bitmask) as party 0, or the declarer and his
    partner (-1: none) as party 0 against everyone else.

    >>> [party_of_seat(P_CALLED, s, 2, 0, 0, 0) for s in range(4)], [party_of_seat(P_HOLDERS, s, -1, -1, 0b1010, 0) for s in range(4)]
    ([0, 1, 0, 1], [1, 0, 1, 0])
    """
    if rule == P_FIXED:
        return fixed_party
    if rule == P_EACH:
        return seat
    if rule == P_HOLDERS:
        return 0 if (holder_seats >> seat) & 1 else 1
    # a called card with copies (two decks) partners the declarer with each copy's holder (``holder_seats``)
    return 0 if seat == declarer or (partner >= 0 and seat == partner) or (holder_seats >> seat) & 1 else 1


def found_partner(rule: int, partner: int, declarer: int, winner: int) -> int:
    """The declarer's partner once ``winner`` has taken a trick: where the parties follow ``rule`` P_FIRST_TRICK
    and none is found yet, the first player other than the declarer to take a trick; else ``partner`` as it was.

    >>> found_partner(P_FIRST_TRICK, -1, 2, 2), found_partner(P_FIRST_TRICK, -1, 2, 0), found_partner(P_FIRST_TRICK, 0, 2, 3)
    (-1, 0, 0)
    """
    if rule == P_FIRST_TRICK and partner < 0 and declarer >= 0 and winner != declarer:
        return winner
    return partner


def tableau_piles(covered: int, dealt: int) -> int:
    """How many piles a hand dealt ``dealt`` cards lays out where ``covered`` lie face down: pile ``i`` is the
    hand's ``i``-th card dealt, face down, under its ``covered + i``-th; a hand too small for all of them lays
    out as many as it can.

    >>> tableau_piles(8, 16), tableau_piles(8, 10), tableau_piles(0, 8)
    (8, 5, 0)
    """
    return min(covered, dealt // 2)


def pass_step(way: int, n_seats: int) -> int:
    """How many seats to the left the cards passed go (``way`` an index of WAYS: left, right, across, none).

    >>> [pass_step(w, 4) for w in range(4)]
    [1, -1, 2, 0]
    """
    if way == 0:
        return 1
    if way == 1:
        return -1
    if way == 2:
        return n_seats // 2
    return 0


def holds_required(hand, required, every: bool, words: int) -> bool:
    """Whether ``hand`` holds what a contract requires of its bidder: all of ``required`` (``every``) or one of them
    (mask words; nothing required: True).

    >>> holds_required((0b0110,), (0b0110,), True, 1), holds_required((0b0100,), (0b0110,), True, 1)
    (True, False)
    """
    anything, have, all_of = False, False, True
    for w in range(words):
        if required[w] != 0:
            anything = True
        if hand[w] & required[w]:
            have = True
        if hand[w] & required[w] != required[w]:
            all_of = False
    if not anything:
        return True
    return all_of if every else have


def held_count(hand, cards, words: int) -> int:
    """How many of ``cards`` the ``hand`` holds (mask words): a Hochzeit is bid on exactly one trump, and a player
    asked to take a card offered must hold as many cards as its taker gives back.

    >>> held_count((0b0110,), (0b0111,), 1), held_count((0b0110,), (0b0011,), 1)
    (2, 1)
    """
    held = 0
    for w in range(words):
        m = hand[w] & cards[w]
        while m != 0:       # bit by bit: the same source runs on Python ints and, compiled, on unsigned words
            held += m & 1
            m = m >> 1
    return held


def asked_seat(first: int, declarer: int, turn: int, n_seats: int) -> int:
    """The seat asked whether it takes a card offered once ``turn`` seats have let it lie: the seats in turn from
    ``first``, the declarer passed over.

    >>> [asked_seat(1, 1, k, 4) for k in range(3)], [asked_seat(1, 3, k, 4) for k in range(3)]
    ([2, 3, 0], [1, 2, 0])
    """
    seat, left = first, turn
    while True:
        if seat != declarer:
            if left == 0:
                return seat
            left -= 1
        seat = (seat + 1) % n_seats


def may_call(in_call: bool, held: bool, not_held: bool, colour_held: bool, mate_held: bool,
             must_hold: bool = False) -> bool:
    """Whether a declarer may call a card: one the call clause names (``in_call``), not one he holds (``held``: a
    copy of it) where the clause says so (``not_held``), one he holds where it asks that (``must_hold``), and
    where it asks for his colour (``colour_held``) only one of whose colour and class, but other face, he holds
    another card (``mate_held``: :func:`colour_mates` against his hand).

    >>> may_call(True, False, True, False, False), may_call(True, True, True, False, False)
    (True, False)
    >>> may_call(True, True, False, False, False, True), may_call(True, False, False, False, False, True)
    (True, False)
    """
    return in_call and not (not_held and held) and (held or not must_hold) and (mate_held or not colour_held)


def colour_mates(card_face, face_colour, face_group, n_cards: int, card: int) -> int:
    """The cards (a bitmask) of ``card``'s colour and class but of another face: those that make its colour held
    for a call (``face_group``: each face's class as an int)."""
    f = card_face[card]
    out = 0
    for x in range(n_cards):
        g = card_face[x]
        if g != f and face_colour[g] == face_colour[f] and face_group[g] == face_group[f]:
            out |= 1 << x
    return out
