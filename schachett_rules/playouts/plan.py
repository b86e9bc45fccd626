"""The compiled state's data: a ruleset's tables as arrays (:class:`Plan`), one game's arrays (:class:`Arrays`).

A plan is built once per ruleset (:func:`plan_of`) and shared by every thread, for it never changes; the
arrays of a game belong to whoever plays it (the one-game path keeps one set per thread). The numbers below
name the registers of a game, the scalars of a plan and the columns of the logs, which the compiled
functions (:mod:`.compiled`) read and write.
"""

from __future__ import annotations

import weakref

import numpy as np

from ..kernel import castling as castle_rules
from ..kernel import core
from ..kernel.automaton import policy_of, strength_order
from ..kernel.castling import officer_cards, permits_of
from ..kernel.scoring import event_of
from ..errors import SchachettError
from ..kernel.tables import Tables, per_tables
from .contracts import flow_arrays, n_parties, refused, variants_of

BEFORE, BETWEEN, RESCUE = castle_rules.BEFORE, castle_rules.BETWEEN, castle_rules.RESCUE

# the registers of a game in progress
(POS, TRICK, PLAYED, LEADER, PHASE, CASTLED, N_CASTLES, FALLEN, N_EVENTS, DEALER, DRAWN, CASTLING, MOMENT, ASK,
 DEPTH,
 # the number of the game in its session (where the passing clause's direction turns with it), the cards passed
 GAME, PASSES,
 # the card turned up in the deal (-1: none)
 TURNED,
 # the auction: the round, the bidder's turn in it, the best bid so far (seat, contract, colour, rank; -1: none)
 ROUND, BID_TURN, BEST_SEAT, BEST_CONTRACT, BEST_COLOUR, BEST_RANK,
 # the game bid: its contract (-1: none), trumps, declarer, partner, card called, the exchanging seat and the
 # cards it has still to discard, whether the cards were thrown in
 CONTRACT, TRUMP, DECLARER, PARTNER, CALLED, EXCHANGER, TO_DISCARD, THROWN,
 # the seats sitting the game out (a bitmask), the card draws their absence saves, whether the cards laid away
 # have been counted, the play tables' variant
 SITTING, SKIPPED, LAID, VARIANT,
 # the restrictions and obligations in force (a set of Plan.rules: the ruleset's own, or those of the card
 # called), who plays with whom (kernel.core.P_FIXED ...)
 RESTRICT, PARTIES,
 # a card offered (the offer clause): the card (-1: none), how many seats have let it lie, the seat asked now,
 # its taker (-1: none yet), the cards he has still to give back
 OFFERED, OFFER_TURN, ASKED, TAKER, TO_GIVE,
 REGS) = range(44)
# Past these registers a game's array of registers holds its parties, seat by seat (Arrays.party_of is a view of
# them), and in a tableau the card each card covers (-1: none; from REGS + n_seats on): a partner found by a
# trick changes the parties in play and a card played turns another up, so the undo stack keeps both with the
# registers.
# the registers a fresh game holds at -1 ("none yet")
UNSET = (TURNED, BEST_SEAT, BEST_CONTRACT, BEST_COLOUR, BEST_RANK, CONTRACT, TRUMP, DECLARER, PARTNER, CALLED,
         EXCHANGER, OFFERED, TAKER)
# what the batch reports of each game bid (its columns: G_CONTRACT ...), and the registers it reads them from
G_CONTRACT, G_TRUMP, G_DECLARER, G_PARTNER, G_CALLED, G_SITTING, G_THROWN, G_TRICKS = range(8)
GAME_REGS = (CONTRACT, TRUMP, DECLARER, PARTNER, CALLED, SITTING, THROWN, TRICK)
# the scalars of a plan
(S_SEATS, S_TRICKS, S_CARDS, S_WORDS, S_REST, S_EACH, S_SAME, S_CASTLING, S_FATES, S_LIMIT, S_LEAD_DEALER, S_LEAD_OFF,
 S_EVENTS, S_ROYAL, S_RANDOM, S_PARTIES, S_OTHER_KING, S_NEVER, S_EACH_SEAT,
 # the family's rules: the card whose holder leads first (-1: none), the cards each seat passes, the
 # passing directions, how many restrictions and obligations
 S_LEAD_CARD, S_PASS, S_WAYS, S_RULES, S_OWED,
 # the flow before play (playouts.contracts.flow_arrays): the variants of play tables, the rounds of bidding,
 # what happens when all pass and what is then played, whether there is an auction, who bids first, the parties'
 # rule, the ruleset's own exchange, which card is turned up, the stock, the card draws a game not yet bid may
 # skip (thrown in, or a seat sitting out), the most cards discarded, the number of colours, the seats the random player plays (a bitmask)
 S_VARIANTS, S_ROUNDS, S_ALL_PASS, S_PLAY_CONTRACT, S_PLAY_COLOUR, S_AUCTION, S_BID_DEALER, S_BID_OFF, S_PARTNER,
 S_OWN_EXCHANGE, S_OWN_TAKES, S_OWN_DISCARDS, S_TURN, S_STOCK, S_SKIP, S_DISCARDS, S_COLOURS, S_RANDOM_SEATS,
 # the cards of a hand dealt face down in a tableau (0: none); which cards an automaton's seat passes, lays
 # away and calls (its rule, kernel.core.POLICIES: lowest or highest; -1 none)
 S_COVERED, S_AUTO_PASS, S_AUTO_LAY, S_AUTO_CALL,
 N_SCALARS) = range(47)
# the columns of the logs
T_WINNER, T_POINTS, T_LEADER, T_CARDS = 0, 1, 2, 3      # tricks: winner, points, leader, then the cards in play order
E_KIND, E_TRICK, E_OWNER, E_FIRST, E_POINTS, E_SCORER = range(6)
C_TRICK, C_KIND, C_SEAT, C_KING, C_OFFICER, C_WITH = range(6)
# the kinds of action apply() takes: a card played, a castle, a chance let go, a card passed (or given back to the
# declarer), a bid (card: the contract, -1 a pass; king: the colour), a card called, a card discarded, an answer to
# a card offered (card: 1 takes it, 0 lets it lie)
A_CARD, A_CASTLE, A_PASS, A_GIVE, A_BID, A_CALL, A_DISCARD, A_ANSWER = range(8)
# the rows of a game's card masks (Arrays.hands) past the hands themselves: the cards played so far (a
# restriction asks), each seat's cards passed, the stock, the cards laid away; kept there so that the undo stack
# keeps them too
H_PLAYED = 0      # row n_seats + H_PLAYED
H_PASSED = 1      # rows n_seats + H_PASSED + seat
H_STOCK = 1       # row 2 * n_seats + H_STOCK
H_LAID = 2        # row 2 * n_seats + H_LAID
H_COVERED = 3     # row 2 * n_seats + H_COVERED: a tableau's cards still face down

# the flow's scalars by the names playouts.contracts.flow_arrays gives them
_FLOW_SCALARS = dict(variants=S_VARIANTS, rounds=S_ROUNDS, all_pass=S_ALL_PASS, play_contract=S_PLAY_CONTRACT,
                     play_colour=S_PLAY_COLOUR, auction=S_AUCTION, bid_dealer=S_BID_DEALER, bid_off=S_BID_OFF,
                     partner=S_PARTNER, own_exchange=S_OWN_EXCHANGE, own_takes=S_OWN_TAKES,
                     own_discards=S_OWN_DISCARDS, turn=S_TURN, stock=S_STOCK, discards=S_DISCARDS)


class Plan:
    """The tables as arrays, built once per ruleset (:func:`plan_of`) and never changed after."""

    def __init__(self, t: Tables):
        n, words = t.n_seats, (t.n_cards + 63) // 64
        self.words = words
        self._play_arrays: dict[int, tuple] = {}

        def split(mask: int) -> np.ndarray:
            return np.array([(mask >> (64 * w)) & ((1 << 64) - 1) for w in range(words)], dtype=np.uint64)

        self.split = split
        self.card_face = np.array(t.deck.card_face, dtype=np.int64)
        # the automaton's order of strength, one row per variant of play tables (a contract ranks its own way)
        self.strength = np.array([strength_order(v) for v in variants_of(t)], dtype=np.int64)
        self.royal = split(t.royal_cards)
        self.officers = split(officer_cards(t))
        # the play tables: the ruleset's own, and those of every contract for each trump colour
        # (the plan keeps no tables: it lives as long as they do, kept by a weak reference to them)
        self.depth = max(len(tiers) for v in variants_of(t) for tiers in v.follow)
        self.beats, self.points, self.follow = self.play_tables(t)
        self.party_of = np.array(t.party_of, dtype=np.int64)
        policies = [policy_of(t, t.controller(s)) for s in range(n)]
        self.policy = np.array([-1 if p is None else core.POLICIES.index(p) for p in policies], dtype=np.int64)
        self.controller = np.array([t.controller(s) for s in range(n)], dtype=np.int64)
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
            for card, seat in t.dealt_to(dealer):
                self.given[dealer, seat, card // 64] |= np.uint64(1 << (card % 64))
                counts[seat] += 1
            pos = 0
            for seat in range(n):
                need = t.hand_size - counts[seat]
                self.start[dealer, seat], self.end[dealer, seat] = pos, pos + need
                pos += need
        self.random_seats = int((self.policy < 0).sum())
        self.n_royal = t.royal_cards.bit_count()
        # the registers, then the game's parties and, in a tableau, the card each card covers
        self.n_regs = REGS + n + (t.n_cards if t.flow is not None and t.flow.covered else 0)
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
        sc[S_NEVER] = t.never_castle
        sc[S_EACH_SEAT] = bool(c and c.per_moment == "each")
        self.scalars = sc
        self.n_parties = len(t.parties)
        # the castling decisions a game can hold: at each moment a permit opens, every seat once at the most
        moments = 0
        if sc[S_CASTLING]:
            when, trick = np.array(p.when), np.array(p.trick)
            moments += int((when == BEFORE).any())
            after = trick[when == BETWEEN]
            moments += max(t.n_tricks - int(np.maximum(after, 1).min()), 0) if len(after) else 0
            rescue = trick[when == RESCUE]
            moments += (t.n_tricks if (rescue < 0).any() else len(set(rescue.tolist()))) if len(rescue) else 0
        per_moment = n if sc[S_EACH_SEAT] else 1
        self.max_castles = moments * per_moment
        self.max_actions = t.n_cards + moments * n + 1
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
        # a moment asks each seat once, and a seat draws a number per King on offer and one for an officer taken.
        # With one castle a moment no King moves before the moment ends, so each King is offered to its holder (and,
        # where a seat without a King may take another hand's, to that seat too) and one officer is drawn; where
        # every seat may castle, a King may move on and be offered again to each seat after.
        if sc[S_EACH_SEAT]:
            per_moment_draws = n * self.n_royal * 2 + n
        else:
            per_moment_draws = self.n_royal * (2 if sc[S_OTHER_KING] else 1) + 1
        self.max_draws = self.deal_draws + self.card_draws + moments * per_moment_draws
        self._family(t, split)

    def play_tables(self, v: Tables) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The arrays of the play tables ``v`` (the ruleset's, or a contract's for a trump colour): who takes
        from whom, the card points, the follow tiers; in the last trick and before it.

        Kept per tables (never written to): a play-out from a kernel state loads them every time (a tree search a
        thousand times a decision), and building them anew cost ten times the play-out itself."""
        kept = self._play_arrays.get(id(v))
        if kept is not None and kept[0]() is v:
            return kept[1]
        words = self.words
        follow = np.zeros((v.n_faces, self.depth * words), dtype=np.uint64)
        for face, tiers in enumerate(v.follow):
            for i, m in enumerate(tiers):
                follow[face, i * words:(i + 1) * words] = self.split(m)
        arrays = (np.array([v.beats, v.beats_last], dtype=np.int64),
                  np.array([v.points, v.points_last], dtype=np.int64), follow)
        self._play_arrays[id(v)] = (weakref.ref(v, lambda _ref, k=id(v): self._play_arrays.pop(k, None)), arrays)
        return arrays

    def _family(self, t: Tables, split) -> None:
        """The family's rules as arrays, the tuple :attr:`rules` the compiled state reads by place: 0-6 the
        restrictions and obligations by set (:meth:`restriction_set`; of each, kernel.core.restrict's arguments:
        acts, whens, cards, untils, holdings, cards led, cards owed), 7 the passing directions, 8 each card as a
        mask, 9-11 the play tables by variant (beats, points, follow: :mod:`.contracts`), 12 each card's colour,
        13-22 the flow before play (contracts, offers, rounds, cards required, whether all, cards called, their
        colour mates, the holders' cards, the fixed parties, each card's copies), 23 each set's restrictions and
        obligations (how many, and whether any may bind after the first trick, following and leading), 24 the set in
        force by variant and card called, 25-26 by variant the cards a
        declarer offers and those its taker may give back (the offer clause); and the scalars that say how many."""
        sc, n, words = self.scalars, t.n_seats, self.words
        flow = t.flow
        count, ways = flow.passing if flow is not None and flow.passing is not None else (0, ("none",))
        sc[S_LEAD_CARD], sc[S_PASS], sc[S_WAYS] = t.first_lead_card, count, len(ways)
        sc[S_COVERED] = flow.covered if flow is not None else 0
        self.rule_sets, restrictions, counts, by_called = _restriction_sets(t, split, words)
        # S_RULES and S_OWED say how many at most: a set's own counts are its row of rules[23]
        sc[S_RULES], sc[S_OWED] = counts[:, :2].max(axis=0)
        single = np.zeros((t.n_cards, words), dtype=np.uint64)
        for card in range(t.n_cards):
            single[card] = split(1 << card)
        named, arrays = flow_arrays(t, split, self.play_tables, self.depth)
        for key, value in named.items():
            if key in _FLOW_SCALARS:
                sc[_FLOW_SCALARS[key]] = value
        # until the game is bid, its cards may yet be thrown in (no card drawn), or a seat may sit it out
        thrown = flow is not None and flow.has_auction and (flow.all_pass == "redeal" or any(
            c.offer is not None and c.offer.refused == "redeal" for c in flow.contracts))
        sc[S_SKIP] = t.n_tricks * self.random_seats if thrown else t.n_tricks if named["sit_out"] else 0
        sc[S_COLOURS] = len(t.deck.colours)
        sc[S_RANDOM_SEATS] = sum(1 << s for s in range(n) if self.policy[s] < 0)
        sc[S_AUTO_PASS] = core.POLICIES.index(t.automaton_passes) if t.automaton_passes else -1
        sc[S_AUTO_LAY] = core.POLICIES.index(t.automaton_lays) if t.automaton_lays else -1
        sc[S_AUTO_CALL] = core.POLICIES.index(t.automaton_calls) if t.automaton_calls else -1
        colour = np.array([t.deck.face_colour[f] for f in t.deck.card_face], dtype=np.int64)
        self.rules = restrictions + (np.array([core.WAYS.index(w) for w in ways], dtype=np.int64), single,
                                     arrays[0], arrays[1], arrays[2], colour) + arrays[3:13] + (counts, by_called) \
            + arrays[13:]
        self.n_parties = sc[S_PARTIES] = n_parties(t)
        # every seat passes one card at a time, each drawing a number; every card passed is an action; every bid,
        # call and discard is one number and one action: each seat once a round, a call, the cards laid away, the
        # answers to a card offered and the cards given back
        before = int(sc[S_ROUNDS]) * n + 1 + int(sc[S_DISCARDS]) + named["answers"] if flow is not None else 0
        self.max_draws += count * n + before
        self.max_actions += count * n + before

    def restriction_set(self, game: Tables) -> int:
        """The set of restrictions and obligations (of :attr:`rules`) a game's own tables play by."""
        return self.rule_sets[(game.restrictions, game.obligations)]

    def tables(self) -> tuple:
        """The arrays the compiled state reads, in its order."""
        return (self.scalars, self.card_face, self.strength, self.royal, self.officers, self.beats, self.points,
                self.follow, self.party_of, self.policy, self.controller, self.with_seat, self.event_of, self.scores,
                self.first, self.later, self.permits, self.open_seats, self.rest, self.given, self.start, self.end,
                self.rules)

    def tables_with(self, beats, points, follow, party_of) -> tuple:
        """:meth:`tables` with a game's own play tables and parties in place of the ruleset's (:meth:`Arrays.tables`)."""
        out = list(self.tables())
        out[5], out[6], out[7], out[8] = beats, points, follow, party_of
        return tuple(out)

    def state(self) -> "Arrays":
        """Fresh arrays for one game."""
        return Arrays(self)


class Arrays:
    """One game's arrays: hands, the trick on the table, the registers, the logs and the undo stack."""

    def __init__(self, plan: Plan):
        sc = plan.scalars
        n, tricks = int(sc[S_SEATS]), int(sc[S_TRICKS])
        self.plan = plan
        # the hands, then H_PLAYED, H_PASSED, H_STOCK, H_LAID, H_COVERED
        self.hands = np.zeros((2 * n + 4, plan.words), dtype=np.uint64)
        self.trick = np.zeros((2, n), dtype=np.int64)          # seats, cards
        self.regs = np.zeros(plan.n_regs, dtype=np.int64)
        self.tricks = np.zeros((tricks, T_CARDS + n), dtype=np.int64)
        self.events = np.zeros((max(plan.n_royal, 1), 6), dtype=np.int64)
        self.castles = np.zeros((max(plan.max_castles, 1), 6), dtype=np.int64)
        self.totals = np.zeros((2, plan.n_parties), dtype=np.int64)   # points by party: all, cards only
        self.each = np.zeros((2, max(len(plan.scores), 1)), dtype=np.int64)  # Kings fallen per event: so far, before
        depth = plan.max_actions
        self.s_regs = np.zeros((depth, plan.n_regs), dtype=np.int64)          # the undo stack: each array as it was
        self.s_trick = np.zeros((depth, 2, n), dtype=np.int64)
        self.s_hands = np.zeros((depth,) + self.hands.shape, dtype=np.uint64)
        self.s_totals = np.zeros((depth, 2, plan.n_parties), dtype=np.int64)
        self.s_each = np.zeros((depth,) + self.each.shape, dtype=np.int64)
        # this game's play tables: the ruleset's, until a contract fixes them (they are not on the undo stack:
        # nothing before play reads them, and the start of play writes them whole); its parties are registers
        self.beats, self.points, self.follow = plan.beats.copy(), plan.points.copy(), plan.follow.copy()
        self.party_of = self.regs[REGS:REGS + n]
        self.party_of[:] = plan.party_of

    def tables(self) -> tuple:
        """The arrays the compiled state reads (:meth:`Plan.tables`), with this game's own play tables."""
        return self.plan.tables_with(self.beats, self.points, self.follow, self.party_of)

    def arrays(self) -> tuple:
        """The arrays the compiled state writes, in its order."""
        return (self.hands, self.trick, self.regs, self.tricks, self.events, self.castles, self.totals, self.each,
                self.s_regs, self.s_trick, self.s_hands, self.s_totals, self.s_each)

    def reset(self, dealer: int, castling: bool = True, game: int = 0) -> None:
        """Ready for a new deal by ``dealer`` (game number ``game`` of its session)."""
        self.regs[:] = 0
        self.regs[DEALER], self.regs[CASTLING], self.regs[GAME] = dealer, int(castling), game
        for r in UNSET:
            self.regs[r] = -1
        self.regs[REGS + len(self.party_of):] = -1       # a tableau: no card covers another yet
        self.party_of[:] = self.plan.party_of
        self.hands[:] = 0
        self.totals[:] = 0
        self.each[:] = 0
        self.events[:] = -1
        self.events[:, E_POINTS] = 0


def _restriction_sets(t: Tables, split, words: int) -> tuple[dict, tuple, np.ndarray, np.ndarray]:
    """The sets of restrictions and obligations a game of ``t`` may play by: the ruleset's own (set 0), and where a
    clause names the card called, those a contract's tables hold for the face called (kernel.flow.game_tables
    puts them in force). Returns the sets by their rows (the number of each), kernel.core.restrict's arguments by
    set (acts, whens, cards, untils, holdings, cards led, cards owed), how many restrictions and obligations each
    set holds, and the set in force by variant and card called."""
    numbers = {(t.restrictions, t.obligations): 0}
    variants = variants_of(t)
    by_called = np.zeros((len(variants), t.n_cards), dtype=np.int64)
    for v, vt in enumerate(variants):
        for face, rows in vt.restrictions_by_called.items():
            k = numbers.setdefault((rows, vt.obligations_by_called[face]), len(numbers))
            for card in range(t.n_cards):
                if t.deck.card_face[card] == face:
                    by_called[v, card] = k
    sets = list(numbers)
    # beside each set's counts, whether any of its rules may bind after the first trick, for a card that follows
    # and for a lead (an obligation binds a follower; a rule of the first trick alone binds nobody later; a rule of
    # leads binds no follower, a rule of discards no lead): where none may, the loop does not ask them
    counts = np.array([(len(rows), len(owed),
                        int(bool(owed) or any(r[0] != core.R_LEAD and not r[1] & core.W_FIRST for r in rows)),
                        int(any(r[0] != core.R_DISCARD and not r[1] & core.W_FIRST for r in rows)))
                       for rows, owed in sets], dtype=np.int64)
    most_rows, most_owed = (max(int(x), 1) for x in counts[:, :2].max(axis=0))

    def flat(masks, most: int) -> np.ndarray:
        out = np.zeros(most * words, dtype=np.uint64)
        for k, m in enumerate(masks):
            out[k * words:(k + 1) * words] = split(m)
        return out

    acts = np.zeros((len(sets), most_rows), dtype=np.int64)
    whens = np.zeros((len(sets), most_rows), dtype=np.int64)
    for i, (rows, _owed) in enumerate(sets):
        for k, r in enumerate(rows):
            acts[i, k], whens[i, k] = r[0], r[1]
    masks = tuple(np.array([flat([r[col] for r in rows], most_rows) for rows, _owed in sets]) for col in (2, 3, 4))
    owed = tuple(np.array([flat([o[col] for o in owing], most_owed) for _rows, owing in sets]) for col in (0, 1))
    return numbers, (acts, whens) + masks + owed, counts, by_called


def not_compiled(t: Tables) -> str | None:
    """What of a ruleset the compiled state cannot yet play, or None when it plays all of it.

    It plays passing before play (each seat in turn, a card at a time, the direction by the game's number), a
    stock and a card turned up, a tableau dealt face down (each card turned up when the card on it is played),
    rounds of bidding for contracts (by colour, alone, the dealer made to bid), the exchange with the stock or the
    turned card, a card called and its holder as partner, a partner found by the first trick he takes, the
    holders of cards as a party, seats sitting the game out, the restrictions and obligations on play (those
    naming the card called too), the first lead by a card's holder. It refuses what no ruleset yet asks of it
    (:func:`.contracts.refused`): a tableau beside a restriction that asks what a hand holds, a partner found
    by a trick who would then sit out, a contract whose own tables change what the compiled state takes from
    the ruleset's, a round offering more bids than the deck has cards.
    """
    why = refused(t)
    if why is None and t.flow is not None and max_bids(t) > t.n_cards:
        why = f"it plays no round of bidding offering more bids than the deck has cards ({t.n_cards})"
    return why


def max_bids(t: Tables) -> int:
    """The most bids one seat may be offered at once (and a pass): the random player lists them in a scratch row."""
    flow = t.flow
    colours = len(t.deck.colours)
    return max((sum(colours if flow.contracts[o.contract].each_colour else 1 for o in rd.offers)
                for rd in flow.rounds), default=0) + 1


@per_tables
def plan_of(t: Tables) -> Plan:
    """The arrays of a ruleset, built on first use and shared by every thread (a plan never changes).

    Raises :class:`~schachett_rules.errors.SchachettError` for a ruleset it cannot play (:func:`not_compiled`):
    the compiled loop would otherwise play it by the wrong rules.
    """
    why = not_compiled(t)       # asked once, when the plan is built
    if why is not None:
        raise SchachettError(f"the compiled game state cannot yet play {t.name}: {why}; the engine, the "
                             f"heuristic and the random players play it")
    return Plan(t)
