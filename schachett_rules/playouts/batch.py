"""Many random games at once with numpy, from the same compiled tables.

Every game of a batch is played by the same rule as :func:`~schachett_rules.playouts.single.random_game`
and the engine: the deal is a Fisher-Yates shuffle driven by one uniform number
per card, and each card played is the k-th lowest card of the legal set, k =
floor(u × number of legal cards), for the next uniform u. Given the same
uniform numbers, a batch and the one-game engine play the same games; a test
checks it trick by trick.

Hands are 64-bit masks, so decks of up to 64 cards and up to 64 faces are played
here; rulesets with castling (choices between cards) are left to the engine.

>>> import numpy as np
>>> from schachett_rules.kernel.compiler import tables_for
>>> t = tables_for("original")
>>> out = random_batch(t, np.array([3, 0]), uniforms(t, 2, np.random.default_rng(1)))
>>> out.totals.shape, bool((out.card_points.sum(axis=1) >= 216).all())
((2, 2), True)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..kernel.compiler import Tables
from ..errors import SchachettError

U64 = np.uint64


def _kth_table() -> tuple[np.ndarray, np.ndarray]:
    """For every 16-bit value: its number of set bits, and where its k-th lowest set bit is."""
    values = np.arange(1 << 16, dtype=np.int64)
    bits = (values[:, None] >> np.arange(16)) & 1
    pop = bits.sum(axis=1)
    order = np.cumsum(bits, axis=1) - 1          # rank of each set bit among the set bits
    kth = np.zeros((1 << 16, 16), dtype=np.int8)
    rows, cols = np.nonzero(bits)
    kth[rows, order[rows, cols]] = cols
    return pop, kth


_POP16, _KTH16 = _kth_table()
_KTH16_FLAT = _KTH16.astype(np.int64).ravel()
_M16 = U64(0xFFFF)


def supported(t: Tables) -> str | None:
    """Why a ruleset cannot be played in batches, or None when it can."""
    if t.n_cards > 64 or t.n_faces > 64:
        return f"{t.n_cards} cards / {t.n_faces} faces do not fit in 64-bit masks"
    if t.castling is not None:
        return "castling adds choices the batch does not model"
    if t.automaton is not None:
        return "seats that follow an automaton's rule are played by the engine"
    if len(t.parties) != 2:
        return "the batch scores two parties"
    return None


def draws_per_game(t: Tables) -> int:
    """How many uniform numbers one game uses: the shuffle's, then one per card."""
    return max(len(t.rest_cards) - 1, 0) + t.n_cards


def uniforms(t: Tables, games: int, rng: np.random.Generator) -> np.ndarray:
    """Fresh uniform numbers for ``games`` games, one row per game.

    The array is the transpose of a draw-major block, so :func:`random_batch`
    reads it draw by draw without copying.
    """
    return rng.random((draws_per_game(t), games)).T


@dataclass
class BatchOutcome:
    """What a batch of games produced."""

    totals: np.ndarray        # (games, 2) points by party
    card_points: np.ndarray   # (games, 2)
    winners: np.ndarray       # (games, tricks) seat that took each trick
    trick_points: np.ndarray  # (games, tricks) card points of each trick
    event_kind: np.ndarray    # (games, kings) index into t.events, -1 if none
    event_trick: np.ndarray   # (games, kings) trick index
    event_first: np.ndarray   # (games, kings) bool
    event_points: np.ndarray  # (games, kings)
    event_party: np.ndarray   # (games, kings) scoring party (-1 for none)


class _Plan:
    """The tables in numpy form, built once per ruleset."""

    def __init__(self, t: Tables):
        why = supported(t)
        if why:
            raise SchachettError(f"ruleset {t.name} cannot be played in batches: {why}")
        n = t.n_seats
        self.card_face = np.array(t.deck.card_face, dtype=np.int64)
        self.card_bit = np.array([1 << c for c in range(t.n_cards)], dtype=U64)
        self.royal = np.array([t.royal_cards >> c & 1 for c in range(t.n_cards)], dtype=bool)
        self.beats = np.array(t.beats, dtype=U64)
        self.beats_last = np.array(t.beats_last, dtype=U64)
        self.points = np.array(t.points, dtype=np.int64)
        self.points_last = np.array(t.points_last, dtype=np.int64)
        depth = max(len(tiers) for tiers in t.follow)
        self.follow = np.array([list(tiers) + [t.full_mask] * (depth - len(tiers)) for tiers in t.follow], dtype=U64)
        self.follow_by_tier = np.ascontiguousarray(self.follow.T)   # tier -> led face -> mask
        self.party_of = np.array(t.party_of, dtype=np.int64)
        self.order = (np.arange(n)[:, None] + np.arange(n)) % n   # seats in playing order, by leader
        rest = list(t.rest_cards)
        self.rest = np.array(rest, dtype=np.int64)
        # For each dealer: the face-up cards of each seat, and which seat each shuffled position goes to.
        self.given = np.zeros((n, n), dtype=U64)
        # Each seat takes a run of consecutive shuffled positions: [start, end) per dealer and seat.
        self.start = np.zeros((n, n), dtype=np.int64)
        self.end = np.zeros((n, n), dtype=np.int64)
        for dealer in range(n):
            counts = [0] * n
            for card, base, off in t.given_cards:
                seat = (dealer + off) % n if base == "dealer" else off
                self.given[dealer, seat] |= U64(1 << card)
                counts[seat] += 1
            pos = 0
            for seat in range(n):
                need = t.hand_size - counts[seat]
                self.start[dealer, seat], self.end[dealer, seat] = pos, pos + need
                pos += need
        lead_base, lead_off = t.first_lead
        self.first_lead = (lead_base, lead_off)
        # King events by the relation of the King's player to the trick's winner.
        self.event_of = np.full(3, -1, dtype=np.int64)   # 0 self, 1 partner, 2 opponent
        relation = {"self": 0, "partner": 1, "opponent": 2}
        for i, e in enumerate(t.events):
            self.event_of[relation[e.when]] = i
        self.first_pts = np.array([e.first for e in t.events] or [[0] * t.n_tricks], dtype=np.int64)
        self.later_pts = np.array([e.later for e in t.events] or [[0] * t.n_tricks], dtype=np.int64)
        self.scores = np.array([{"taker": 0, "owner": 1, "opponents": 2}[e.scores] for e in t.events] or [0],
                               dtype=np.int64)


def _plan(t: Tables) -> _Plan:
    # Kept on the tables themselves: it lives and dies with them (the dataclass is frozen, not slotted).
    plan = t.__dict__.get("_batch_plan")
    if plan is None:
        plan = _Plan(t)
        object.__setattr__(t, "_batch_plan", plan)
    return plan


def _kth_bit(mask: np.ndarray, k: np.ndarray) -> np.ndarray:
    """The position of the k-th lowest set bit of each mask (k below the mask's bit count)."""
    pop0 = np.bitwise_count(mask & _M16).astype(np.int64)
    pop1 = np.bitwise_count((mask >> U64(16)) & _M16).astype(np.int64)
    pop2 = np.bitwise_count((mask >> U64(32)) & _M16).astype(np.int64)
    in1 = k >= pop0
    in2 = k >= pop0 + pop1
    in3 = k >= pop0 + pop1 + pop2
    chunk_index = in1.astype(np.int64) + in2 + in3          # which 16-bit quarter holds the bit
    before = in1 * pop0 + in2 * pop1 + in3 * pop2           # set bits in the quarters below it
    chunk = ((mask >> (chunk_index * 16).astype(U64)) & _M16).astype(np.int64)
    return chunk_index * 16 + _KTH16_FLAT.take(chunk * 16 + (k - before))


def random_batch(t: Tables, dealers: np.ndarray, u: np.ndarray) -> BatchOutcome:
    """Play one random game per row of ``u`` (uniform numbers), dealt by ``dealers``."""
    p = _plan(t)
    games = len(dealers)
    rows = np.arange(games)
    n, n_tricks = t.n_seats, t.n_tricks
    dealers = np.asarray(dealers, dtype=np.int64)
    uT = np.ascontiguousarray(u.T)              # one row of uniform numbers per draw, for all games
    # the deal: Fisher-Yates, one uniform per swap, from the last place down (a row per place)
    length = len(p.rest)
    placesT = np.repeat(p.rest[:, None], games, axis=1)
    flat = placesT.ravel()
    col = 0
    for i in range(length - 1, 0, -1):
        at = (uT[col] * (i + 1)).astype(np.int64) * games + rows
        col += 1
        here = placesT[i].copy()
        placesT[i] = flat[at]
        flat[at] = here
    cards = placesT.T
    # The bits are distinct powers of two, so sums are unions: a seat's hand is the difference of
    # two running sums at the ends of its run of positions.
    running = np.zeros((games, len(p.rest) + 1), dtype=U64)
    np.cumsum(p.card_bit[cards], axis=1, out=running[:, 1:])
    hands = p.given[dealers] | (np.take_along_axis(running, p.end[dealers], axis=1)
                                - np.take_along_axis(running, p.start[dealers], axis=1))
    base, off = p.first_lead
    leader = (dealers + off) % n if base == "dealer" else np.full(games, off, dtype=np.int64)
    won = np.zeros((games, 2), dtype=np.int64)
    totals = np.zeros((games, 2), dtype=np.int64)
    winners = np.zeros((games, n_tricks), dtype=np.int64)
    trick_points = np.zeros((games, n_tricks), dtype=np.int64)
    kings_total = int(p.royal.sum())
    ev_kind = np.full((games, kings_total), -1, dtype=np.int64)
    ev_trick = np.zeros((games, kings_total), dtype=np.int64)
    ev_first = np.zeros((games, kings_total), dtype=bool)
    ev_pts = np.zeros((games, kings_total), dtype=np.int64)
    ev_party = np.full((games, kings_total), -1, dtype=np.int64)
    fallen = np.zeros(games, dtype=np.int64)
    fallen_each = np.zeros((games, max(len(t.events), 1)), dtype=np.int64)
    for trick in range(n_tricks):
        last = trick == n_tricks - 1
        beats = p.beats_last if last else p.beats
        points = p.points_last if last else p.points
        trick_seats = p.order[leader]
        # the hands in playing order for this trick, one contiguous row per place
        rel = np.take_along_axis(hands, trick_seats, axis=1).T.copy()
        seats_t = trick_seats.T
        trick_royal = np.zeros((n, games), dtype=bool)
        wseat = leader.copy()
        for pos in range(n):
            hand = rel[pos]
            if pos == 0:
                legal = hand
            else:
                # the first tier the hand can serve (the last tier of a sound ruleset takes anything)
                legal = hand & tiers[0]
                for tier in tiers[1:]:
                    legal = np.where(legal == 0, hand & tier, legal)
            k = (uT[col] * np.bitwise_count(legal)).astype(np.int64)
            col += 1
            card = _kth_bit(legal, k)
            rel[pos] = hand ^ p.card_bit[card]
            face = p.card_face[card]
            if pos == 0:
                wface = face.astype(U64)
                tiers = list(p.follow_by_tier[:, face])
                total = points[face]
            else:
                take = ((beats[face] >> wface) & U64(1)).astype(bool)
                wface = np.where(take, face.astype(U64), wface)
                wseat = np.where(take, seats_t[pos], wseat)
                total = total + points[face]
            trick_royal[pos] = p.royal[card]
        np.put_along_axis(hands, trick_seats, rel.T, axis=1)
        winners[:, trick] = wseat
        trick_points[:, trick] = total
        won[rows, p.party_of[wseat]] += total
        if len(t.events) and trick_royal.any():
            before_total = fallen.copy()
            before_each = fallen_each.copy()
            for pos in range(n):
                sub = np.nonzero(trick_royal[pos])[0]    # the games with a King in this place
                if not len(sub):
                    continue
                owner = trick_seats[sub, pos]
                taker = wseat[sub]
                rel = np.where(owner == taker, 0, np.where(p.party_of[owner] == p.party_of[taker], 1, 2))
                kind = p.event_of[rel]
                keep = kind >= 0
                sub, owner, taker, kind = sub[keep], owner[keep], taker[keep], kind[keep]
                if t.count_each_event:
                    seen, seen_before = fallen_each[sub, kind], before_each[sub, kind]
                else:
                    seen, seen_before = fallen[sub], before_total[sub]
                first = (seen == 0) | (t.same_trick_all_first & (seen_before == 0))
                pts = np.where(first, p.first_pts[kind, trick], p.later_pts[kind, trick])
                how = p.scores[kind]
                party = np.where(how == 0, p.party_of[taker],
                                 np.where(how == 1, p.party_of[owner], 1 - p.party_of[owner]))
                slot = np.minimum(fallen[sub], kings_total - 1)
                ev_kind[sub, slot] = kind
                ev_trick[sub, slot] = trick
                ev_first[sub, slot] = first
                ev_pts[sub, slot] = pts
                ev_party[sub, slot] = party
                np.add.at(totals, (sub, party), pts)
                fallen[sub] += 1
                fallen_each[sub, kind] += 1
        leader = wseat
    totals += won
    return BatchOutcome(totals=totals, card_points=won, winners=winners, trick_points=trick_points,
                        event_kind=ev_kind, event_trick=ev_trick,
                        event_first=ev_first, event_points=ev_pts, event_party=ev_party)
