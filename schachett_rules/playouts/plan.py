"""The compiled state's data: a ruleset's tables as arrays (:class:`Plan`), one game's arrays (:class:`Arrays`).

A plan is built once per ruleset (:func:`plan_of`) and shared by every thread, for it never changes; the
arrays of a game belong to whoever plays it (the one-game path keeps one set per thread). The numbers below
name the registers of a game, the scalars of a plan and the columns of the logs, which the compiled
functions (:mod:`.compiled`) read and write.
"""

from __future__ import annotations

import threading
import weakref

import numpy as np

from ..kernel import castling as castle_rules
from ..kernel import core
from ..kernel.automaton import policy_of, strength_order
from ..kernel.castling import officer_cards, permits_of
from ..kernel.scoring import event_of
from ..errors import SchachettError
from ..kernel.tables import Tables

BEFORE, BETWEEN, RESCUE = castle_rules.BEFORE, castle_rules.BETWEEN, castle_rules.RESCUE

# the registers of a game in progress
(POS, TRICK, PLAYED, LEADER, PHASE, CASTLED, N_CASTLES, FALLEN, N_EVENTS, DEALER, DRAWN, CASTLING, MOMENT, ASK,
 DEPTH,
 # what the phases before play decide (kernel.before_play), and the game's own seats and parties
 GAME, CONTRACT, TRUMP, DECLARER, CALLED, PARTNER, VARIANT, RSET, SITTING, ACTIVE, ROUND, BID_TURN, BEST_SEAT,
 BEST_CONTRACT, BEST_COLOUR, BEST_RANK, PASSES, EXCHANGER, TO_DISCARD, TURNED, THROWN, N_PRE, PRULE, REGS) = range(39)
# the scalars of a plan
(S_SEATS, S_TRICKS, S_CARDS, S_WORDS, S_REST, S_EACH, S_SAME, S_CASTLING, S_FATES, S_LIMIT, S_LEAD_DEALER, S_LEAD_OFF,
 S_EVENTS, S_ROYAL, S_RANDOM, S_PARTIES, S_OTHER_KING, S_NEVER, S_EACH_SEAT, N_SCALARS) = range(20)
# the columns of the logs
T_WINNER, T_POINTS, T_LEADER, T_CARDS = 0, 1, 2, 3      # tricks: winner, points, leader, then the cards in play order
E_KIND, E_TRICK, E_OWNER, E_FIRST, E_POINTS, E_SCORER = range(6)
C_TRICK, C_KIND, C_SEAT, C_KING, C_OFFICER, C_WITH = range(6)
A_CARD, A_CASTLE, A_PASS, A_GIVE, A_BID, A_CALL, A_DISCARD = range(7)   # the kinds of action apply() takes
# the flow's scalars (Plan.flow_sc)
(F_ON, F_PASS_COUNT, F_N_WAYS, F_STOCK, F_TURN, F_COVERED, F_FIRST_DEALER, F_FIRST_OFF, F_N_ROUNDS, F_ALL_PASS,
 F_PLAY_CONTRACT, F_PLAY_COLOUR, F_AUCTION, F_EX_WHO, F_EX_TAKES, F_EX_DISCARDS, F_PARTNER, F_N_CONTRACTS,
 F_MAX_BIDS, F_LEAD_CARD, F_COLOURS, N_FLOW) = range(22)
# a contract's columns (Plan.contracts)
(K_EACH, K_VARIANT, K_NOT_HELD, K_COLOUR_HELD, K_PARTNER, K_SIT_OUT, K_EX_WHO, K_EX_TAKES, K_EX_DISCARDS,
 N_K) = range(10)
# the rows of a game's card masks (Arrays.marks): the stock, the covered cards, the cards played, then per seat the
# cards passed, laid away, and held as play began
M_STOCK, M_COVERED, M_PLAYED, M_SEATS = 0, 1, 2, 3
# the log of the actions before play (Arrays.pre): kind (A_GIVE ...), seat, card or contract, colour
ALL_PASS = ("redeal", "play", "dealer")
OFFER_COLOURS = ("any", "turned", "not-turned")

class Plan:
    """The tables as arrays, built once per ruleset (:func:`plan_of`) and never changed after."""

    def __init__(self, t: Tables):
        n, words = t.n_seats, (t.n_cards + 63) // 64
        self.words = words

        def split(mask: int) -> np.ndarray:
            return np.array([(mask >> (64 * w)) & ((1 << 64) - 1) for w in range(words)], dtype=np.uint64)

        self.split = split
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
        self.n_parties = len(t.parties) if t.flow is None else max(len(t.parties), 2)
        sc[S_PARTIES] = self.n_parties
        self._flow(t, split)
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
        if t.flow is not None:
            # every action before play draws one number; a hand may grow by the stock or the turned card
            self.max_draws = self.deal_draws + t.n_cards + self.max_pre
            self.max_actions = t.n_cards + self.max_pre + 1

    def _flow(self, t: Tables, split) -> None:
        """The flow before play (kernel.flow) as arrays: the play tables of every contract and trump colour (a
        *variant*; variant 0 is the ruleset's own), their restriction sets, the contracts, the auction's rounds."""
        flow, n, words, d = t.flow, t.n_seats, self.words, t.deck
        contracts = flow.contracts if flow is not None else ()
        variants = [t] + [v for c in contracts for v in c.variants]
        depth = max(len(tiers) for v in variants for tiers in v.follow)
        nv, nf = len(variants), t.n_faces
        self.vbeats = np.array([[v.beats, v.beats_last] for v in variants], dtype=np.int64)
        self.vpoints = np.array([[v.points, v.points_last] for v in variants], dtype=np.int64)
        self.vfollow = np.zeros((nv, nf, depth * words), dtype=np.uint64)
        for k, v in enumerate(variants):
            for face, tiers in enumerate(v.follow):
                for i, m in enumerate(tiers):
                    self.vfollow[k, face, i * words:(i + 1) * words] = split(m)
        self.vparty = np.array([v.party_of for v in variants], dtype=np.int64)
        # the other seat of a party of two (whose partner sits out a game played alone), else -1
        self.vmate = np.array([[next((x for x in v.parties[v.party_of[s]] if x != s), -1)
                                if len(v.parties[v.party_of[s]]) == 2 else -1 for s in range(n)] for v in variants],
                              dtype=np.int64)
        # the restrictions and obligations in force: per variant, without a card called and with each callable face
        sets, self.rset_of = [], np.zeros((nv, nf + 1), dtype=np.int64)
        for k, v in enumerate(variants):
            self.rset_of[k, :] = len(sets)
            sets.append((v.restrictions, v.obligations))
            for face, rows in v.restrictions_by_called.items():
                self.rset_of[k, face] = len(sets)
                sets.append((rows, v.obligations_by_called[face]))
        most_r = max(1, max(len(r) for r, _o in sets))
        most_o = max(1, max(len(o) for _r, o in sets))
        self.r_n = np.array([[len(r), len(o)] for r, o in sets], dtype=np.int64)
        self.r_rows = np.zeros((len(sets), most_r, 2), dtype=np.int64)
        self.r_masks = np.zeros((len(sets), 3, most_r * words), dtype=np.uint64)
        self.o_masks = np.zeros((len(sets), 2, most_o * words), dtype=np.uint64)
        for i, (rows, owed) in enumerate(sets):
            for k, (act, when, cards, until, holding) in enumerate(rows):
                self.r_rows[i, k] = act, when
                for j, m in enumerate((cards, until, holding)):
                    self.r_masks[i, j, k * words:(k + 1) * words] = split(m)
            for k, (led, cards) in enumerate(owed):
                self.o_masks[i, 0, k * words:(k + 1) * words] = split(led)
                self.o_masks[i, 1, k * words:(k + 1) * words] = split(cards)
        # the contracts, and per contract variant what its bidder must hold and what its declarer may call
        from ..kernel.flow import PARTNER_RULES
        self.contracts = np.zeros((max(len(contracts), 1), N_K), dtype=np.int64)
        self.creq = np.zeros((nv, words), dtype=np.uint64)
        self.creq_every = np.zeros(nv, dtype=np.int64)
        self.ccall = np.zeros((nv, words), dtype=np.uint64)
        self.cmates = np.zeros((nv, t.n_cards * words), dtype=np.uint64)
        first = 1
        for k, c in enumerate(contracts):
            who, takes, discards = c.exchange if c.exchange is not None else ("", "", 0)
            self.contracts[k] = (c.each_colour, first, c.call_not_held, c.call_colour_held,
                                 PARTNER_RULES.index(c.partner), c.sit_out, -1 if not who else int(who != "dealer"),
                                 int(takes == "stock"), discards)
            for i, v in enumerate(c.variants):
                (req, every), call = c.requires[i], c.call[i]
                self.creq[first + i], self.creq_every[first + i], self.ccall[first + i] = split(req), every, split(call)
                groups = {g: j for j, g in enumerate(dict.fromkeys(v.face_group))}
                group = [groups[g] for g in v.face_group] or [0] * nf
                for card in range(t.n_cards):
                    mates = core.colour_mates(d.card_face, d.face_colour, group, t.n_cards, card)
                    self.cmates[first + i, card * words:(card + 1) * words] = split(mates)
            first += len(c.variants)
        rounds = flow.rounds if flow is not None else ()
        most = max([len(r.offers) for r in rounds] + [1])
        self.rounds = np.zeros((max(len(rounds), 1), 2), dtype=np.int64)
        self.offers = np.zeros((max(len(rounds), 1), most, 3), dtype=np.int64)
        for i, r in enumerate(rounds):
            self.rounds[i] = int(r.mode == "highest"), len(r.offers)
            for j, o in enumerate(r.offers):
                self.offers[i, j] = o.contract, OFFER_COLOURS.index(o.colour), o.rank
        self.holders = split(flow.holders if flow is not None else 0)
        self.card_colour = np.array([d.face_colour[f] for f in d.card_face], dtype=np.int64)
        ways = flow.passing[1] if flow is not None and flow.passing is not None else ("none",)
        self.ways = np.array([core.WAYS.index(w) for w in ways], dtype=np.int64)
        fs = np.zeros(N_FLOW, dtype=np.int64)
        if flow is not None:
            fs[F_ON] = 1
            fs[F_PASS_COUNT] = flow.passing[0] if flow.passing is not None else 0
            fs[F_N_WAYS] = len(ways)
            fs[F_STOCK], fs[F_TURN], fs[F_COVERED] = flow.stock, ("", "stock", "dealer").index(flow.turn), flow.covered
            fs[F_FIRST_DEALER], fs[F_FIRST_OFF] = flow.first_bidder[0] == "dealer", flow.first_bidder[1]
            fs[F_N_ROUNDS], fs[F_ALL_PASS], fs[F_AUCTION] = len(rounds), ALL_PASS.index(flow.all_pass), flow.has_auction
            o = flow.all_pass_offer
            fs[F_PLAY_CONTRACT] = o.contract if o is not None else -1
            fs[F_PLAY_COLOUR] = OFFER_COLOURS.index(o.colour) if o is not None else 0
            who, takes, discards = flow.exchange if flow.exchange is not None else ("", "", 0)
            fs[F_EX_WHO], fs[F_EX_TAKES], fs[F_EX_DISCARDS] = -1 if not who else int(who != "dealer"), takes == "stock", discards
            fs[F_PARTNER], fs[F_N_CONTRACTS] = PARTNER_RULES.index(flow.partner), len(contracts)
        fs[F_LEAD_CARD] = t.first_lead_card
        n_colours = fs[F_COLOURS] = len(d.colours)
        fs[F_MAX_BIDS] = max([sum(n_colours if contracts[o.contract].each_colour else 1 for o in r.offers)
                              for r in rounds] + [0]) + 1
        self.flow_sc = fs
        # the actions before play a game can hold: the cards passed, a bid per seat and round, a call, the discards
        most_discards = max([c.exchange[2] for c in contracts if c.exchange] +
                            [flow.exchange[2] if flow is not None and flow.exchange else 0])
        self.max_pre = int(fs[F_PASS_COUNT]) * n + len(rounds) * n + 1 + most_discards

    def flow_tables(self) -> tuple:
        """The flow's arrays the compiled state reads (:meth:`_flow`), in its order."""
        return (self.flow_sc, self.ways, self.vbeats, self.vpoints, self.vfollow, self.vparty, self.vmate,
                self.rset_of, self.r_n, self.r_rows, self.r_masks, self.o_masks, self.contracts, self.creq,
                self.creq_every, self.ccall, self.cmates, self.rounds, self.offers, self.holders, self.card_colour)

    def tables(self) -> tuple:
        """The arrays the compiled state reads, in its order."""
        return (self.scalars, self.card_face, self.strength, self.royal, self.officers, self.beats, self.points,
                self.follow, self.party_of, self.policy, self.controller, self.with_seat, self.event_of, self.scores,
                self.first, self.later, self.permits, self.open_seats, self.rest, self.given, self.start, self.end)

    def state(self) -> "Arrays":
        """Fresh arrays for one game."""
        return Arrays(self)


class Arrays:
    """One game's arrays: hands, the trick on the table, the registers, the logs and the undo stack."""

    def __init__(self, plan: Plan):
        sc = plan.scalars
        n, tricks = int(sc[S_SEATS]), int(sc[S_TRICKS])
        self.plan = plan
        self.hands = np.zeros((n, plan.words), dtype=np.uint64)
        self.trick = np.zeros((2, n), dtype=np.int64)          # seats, cards
        self.regs = np.zeros(REGS, dtype=np.int64)
        self.tricks = np.zeros((tricks, T_CARDS + n), dtype=np.int64)
        self.events = np.zeros((max(plan.n_royal, 1), 6), dtype=np.int64)
        self.castles = np.zeros((max(plan.max_castles, 1), 6), dtype=np.int64)
        self.totals = np.zeros((2, plan.n_parties), dtype=np.int64)   # points by party: all, cards only
        self.each = np.zeros((2, max(len(plan.scores), 1)), dtype=np.int64)  # Kings fallen per event: so far, before
        depth = plan.max_actions
        self.s_regs = np.zeros((depth, REGS), dtype=np.int64)          # the undo stack: each array as it was
        self.s_trick = np.zeros((depth, 2, n), dtype=np.int64)
        self.s_hands = np.zeros((depth, n, plan.words), dtype=np.uint64)
        self.s_totals = np.zeros((depth, 2, plan.n_parties), dtype=np.int64)
        self.s_each = np.zeros((depth,) + self.each.shape, dtype=np.int64)
        # the play tables of this game (its contract's and trump's, its parties): the ruleset's until play begins
        self.beats, self.points, self.follow = plan.beats.copy(), plan.points.copy(), plan.follow.copy()
        self.party_of = plan.party_of.copy()
        self.marks = np.zeros((M_SEATS + 3 * n, plan.words), dtype=np.uint64)
        self.under = np.full(max(int(sc[S_CARDS]), 1), -1, dtype=np.int64)   # tableau: the card each card covers
        self.pre = np.zeros((max(plan.max_pre, 1), 4), dtype=np.int64)
        self.s_marks = np.zeros((depth,) + self.marks.shape, dtype=np.uint64)
        self.s_party = np.zeros((depth, n), dtype=np.int64)
        self.work = np.zeros((4, plan.words), dtype=np.uint64)                  # scratch: restrictions, options
        self.bids = np.zeros((max(int(plan.flow_sc[F_MAX_BIDS]), 1), 2), dtype=np.int64)  # scratch: the bids open

    def tables(self) -> tuple:
        """The plan's arrays the compiled state reads (:meth:`Plan.tables`), this game's play tables among them."""
        p = self.plan
        return (p.scalars, p.card_face, p.strength, p.royal, p.officers, self.beats, self.points, self.follow,
                self.party_of, p.policy, p.controller, p.with_seat, p.event_of, p.scores, p.first, p.later, p.permits,
                p.open_seats, p.rest, p.given, p.start, p.end)

    def arrays(self) -> tuple:
        """The arrays the compiled state writes, in its order."""
        return (self.hands, self.trick, self.regs, self.tricks, self.events, self.castles, self.totals, self.each,
                self.s_regs, self.s_trick, self.s_hands, self.s_totals, self.s_each)

    def flow_arrays(self) -> tuple:
        """The arrays of the phases before play the compiled state writes, in its order."""
        return (self.marks, self.under, self.pre, self.s_marks, self.s_party, self.work, self.bids)

    def args(self) -> tuple:
        """Every array a compiled call of the state takes: the plan's, this game's, the flow's (as two tuples)."""
        return self.tables() + self.arrays() + (self.plan.flow_tables(), self.flow_arrays())

    def reset(self, dealer: int, castling: bool = True) -> None:
        """Ready for a new deal by ``dealer``."""
        self.regs[:] = 0
        self.regs[DEALER], self.regs[CASTLING] = dealer, int(castling)
        self.totals[:] = 0
        self.each[:] = 0
        self.events[:] = -1
        self.events[:, E_POINTS] = 0
        self.marks[:] = 0
        self.under[:] = -1


_PLANS: dict[int, tuple] = {}
_PLANS_LOCK = threading.Lock()


def not_compiled(t: Tables) -> str | None:
    """What of a ruleset the compiled state cannot yet play, or None when it plays all of it."""
    if t.flow is not None:
        return "it plays no phase before the first card (passing, bidding, a call, an exchange, a stock)"
    if t.restrictions or t.obligations or t.first_lead_card >= 0:
        return "it plays no restriction on leads or plays and no first lead by the holder of a card"
    return None


def plan_of(t: Tables) -> Plan:
    """The arrays of a ruleset, built on first use and shared by every thread (a plan never changes).

    Raises :class:`~schachett_rules.errors.SchachettError` for a ruleset it cannot play (:func:`not_compiled`):
    the compiled loop would otherwise play it by the wrong rules.
    """
    why = not_compiled(t)
    if why is not None:
        raise SchachettError(f"the compiled game state cannot yet play {t.name}: {why}; the engine, the "
                             f"heuristic and the random players play it")
    key = id(t)
    with _PLANS_LOCK:
        entry = _PLANS.get(key)
        if entry is not None and entry[0]() is t:
            return entry[1]
        plan = Plan(t)
        _PLANS[key] = (weakref.ref(t, lambda _ref, k=key: _PLANS.pop(k, None)), plan)
        return plan
