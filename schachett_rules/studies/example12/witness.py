"""The witness search of the §12 study: a real game that realises a scenario, built without a deal.

It plays trick by trick through a state without a fixed deal
(:meth:`State.unknown_deal <schachett_rules.kernel.state.State.unknown_deal>`):
a card is taken from the cards not yet played, and when a follower plays from a
lower follow tier he is recorded as void in the tiers above
(:func:`~schachett_rules.kernel.follow.tiers`), so that he never plays such a
card later; each seat's hand is, at the end, the cards it played. The state
walks the tricks (who leads, who takes each trick, its points and King events);
the search pushes and undoes cards, and the game found is replayed with its deal.
"""

from __future__ import annotations

import random

from ...kernel.state import State
from ...engine.replay import GameRecord, record_of, replay
from ...kernel.compiler import tables_for
from ...kernel.deal import seat_of
from ...kernel.actions import Play
from ...kernel.core import RELATIONS, relation
from ...kernel.follow import tiers
from ...kernel.tables import Tables
from ...kernel.trick import card_points, holder, holds_against, is_last
from .model import DEFAULT_BUDGET, RESTART_NODES, Scenario, last_extra, winning_party


class _OutOfNodes(Exception):
    pass


class _Search:
    """Depth-first construction of a game realising a scenario, without a deal fixed in advance."""

    def __init__(self, t: Tables, sc: Scenario, dealer: int, rng: random.Random, limit: int):
        self.t, self.sc, self.rng, self.limit = t, sc, rng, limit
        d = t.deck
        n = t.n_seats
        self.n, self.dealer, self.nodes = n, dealer, 0
        self.face = d.card_face
        self.state = State.unknown_deal(t, dealer)   # its hands: the cards known to lie there (face up)
        self.void = [0] * n
        self.last = t.n_tricks - 1
        # King schedule: card -> (trick index, owner party)
        self.kings_at = [0] * t.n_tricks
        self.king_owner: dict[int, int] = {}
        free = {f: d.face_cards[f] for f in range(t.n_faces)}
        for k in sc.kings:
            f = d.face(k.king)
            card = (free[f] & -free[f]).bit_length() - 1
            free[f] &= ~(1 << card)
            self.kings_at[k.trick - 1] |= 1 << card
            self.king_owner[card] = k.owner
        self.expected: list[list[tuple]] = [[] for _ in range(t.n_tricks)]
        self.fates: list[list[tuple]] = [[] for _ in range(t.n_tricks)]
        for k in sc.kings:
            self.fates[k.trick - 1].append((k.king, k.fate))
            if k.event is not None:
                self.expected[k.trick - 1].append((k.king, k.event, k.first, k.points, k.scorers))
        # promoted cards: kept for the last trick; other cards scoring extra there: played before it
        self.keep_last = 0
        taken = 0
        for f in sc.promoted:
            face = d.face(f)
            avail = d.face_cards[face] & ~taken
            card = (avail & -avail).bit_length() - 1
            taken |= 1 << card
        self.keep_last = taken
        self.not_last = 0
        for c in range(t.n_cards):
            if last_extra(t, self.face[c]) and not t.royal_cards >> c & 1 and not taken >> c & 1:
                self.not_last |= 1 << c
        # follow tiers per led face: (cards of this tier only, cards of the tiers before)
        self.tiers = [tiers(t, (d.face_cards[f] & -d.face_cards[f]).bit_length() - 1) for f in range(t.n_faces)]
        self.targets = sc.card_points
        # The last trick's winner is known when a King meets its fate there; that party will get the
        # promoted cards' points in it, so until then it must still need at least that much.
        self.forced = [0] * len(t.parties)
        for k in sc.kings:
            if k.trick == t.n_tricks:
                self.forced[winning_party(t, k.owner, k.fate)] = sum(card_points(t, self.last)[d.face(f)]
                                                                     for f in sc.promoted)
                break

    # -- feasibility --------------------------------------------------------------------------
    def room_ok(self) -> bool:
        """Hall's condition: every group of seats can still be given enough cards it may hold."""
        st = self.state
        n, pool, owned = self.n, st.pool, st.hands
        played_now = {s for s, _ in st.trick}
        owned_all = 0
        for o in owned:
            owned_all |= o
        rem, avail = [], []
        for s in range(n):
            rem.append(self.t.n_tricks - st.done - (1 if s in played_now else 0))
            avail.append(pool & ~self.void[s] & ~(owned_all & ~owned[s]))
            if owned[s] & self.void[s]:
                return False
        for r in range(1, 1 << n):
            union, need = 0, 0
            for s in range(n):
                if r >> s & 1:
                    union |= avail[s]
                    need += rem[s]
            if union.bit_count() < need:
                return False
        return True

    def candidates(self, seat: int) -> list[tuple[int, int]]:
        """(card, void mask it implies) for each card the seat may play now (one per face)."""
        t, st = self.t, self.state
        i, owned = st.done, st.hands
        avail = st.legal().mask & ~self.void[seat]     # not played, not known to lie in another hand
        royal_now = self.kings_at[i]
        avail &= ~(t.royal_cards & ~royal_now)
        kings = royal_now & avail
        while kings:
            low = kings & -kings
            kings ^= low
            if t.party_of[seat] != self.king_owner[low.bit_length() - 1]:
                avail &= ~low  # a King not dealt face up is held by a seat of the party the scenario says
        if owned[seat] & royal_now:
            avail &= owned[seat] & royal_now
        avail &= ~(self.keep_last if i != self.last else self.not_last)
        out: list[tuple[int, int]] = []
        if not st.trick:
            rows = [(avail, 0)]
        else:
            rows = []
            for only, before in self.tiers[self.face[st.trick[0][1]]]:
                if owned[seat] & before:
                    break  # he holds a card of an earlier tier: he may not play from this one
                rows.append((avail & only, before))
        seen = set()
        for mask, before in rows:
            while mask:
                low = mask & -mask
                c = low.bit_length() - 1
                mask ^= low
                key = (self.face[c], bool(owned[seat] >> c & 1))
                if key in seen:
                    continue
                seen.add(key)
                out.append((c, before))
        return out

    def order(self, seat: int, cands: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """Cards that help the lagging party first, with noise."""
        t, st = self.t, self.state
        i = st.done
        last = is_last(t, i)
        pts = card_points(t, i)
        free = [tg - fc for tg, fc in zip(self.targets, self.forced)] if not last else list(self.targets)
        need = [f - w for f, w in zip(free, st.card_points)]
        ratio = [need[p] / free[p] if free[p] > 0 else -1.0 for p in range(len(need))]
        want = max(range(len(need)), key=lambda p: (ratio[p], self.rng.random()))
        holder_seat, holder_face = holder(t, i, st.trick) if st.trick else (None, None)
        scored = []
        for c, before in cands:
            f = self.face[c]
            if holder_face is None or holds_against(t, i, f, holder_face):
                hs = seat
            else:
                hs = holder_seat
            gain = pts[f] if t.party_of[hs] == want else -pts[f]
            bonus = 20 if t.party_of[hs] == want else 0
            # a card from a lower follow tier makes the seat void in the tiers above: costly later
            cost = 3 * (before & ~self.void[seat] & st.pool).bit_count()
            scored.append((gain + bonus - cost + self.rng.random() * 16, c, before))
        scored.sort(reverse=True)
        return [(c, b) for _, c, b in scored]

    # -- the search ---------------------------------------------------------------------------
    def run(self) -> bool:
        st = self.state
        if st.over:
            return list(st.card_points) == list(self.targets)
        self.nodes += 1
        if self.nodes > self.limit:
            raise _OutOfNodes
        seat = st.seat_to_play()
        for card, before in self.order(seat, self.candidates(seat)):
            saved, done = self.void[seat], st.done
            self.void[seat] |= before
            st.push(Play(seat, card))
            ok = not before or self.room_ok()
            if ok and st.done > done:
                ok = self.trick_ok(done) and self.room_ok()
            if ok and self.run():
                return True
            st.undo()
            self.void[seat] = saved
        return False

    def trick_ok(self, i: int) -> bool:
        """Whether trick ``i``, just taken, goes as the scenario says: its Kings, their fates and the points."""
        t, st = self.t, self.state
        last = is_last(t, i)
        if st.pool & self.kings_at[i]:
            return False
        _leader, cards, wseat, _face, _points, fates, _rescues = st.trick_log[-1]
        kings = [(t.deck.face_names[t.deck.card_face[c]], RELATIONS[relation(t.party_of, s, wseat)])
                 for s, c in cards if t.royal_cards >> c & 1]
        if kings != self.fates[i]:
            return False
        p = t.party_of[wseat]
        if st.card_points[p] > self.targets[p] - (self.forced[p] if not last else 0):
            return False
        got = [(t.deck.face_names[face], ev.name, first, points, parties)
               for ev, face, _owner, first, points, parties in fates]
        if got != self.expected[i]:
            return False
        return not (i + 1 == self.last and st.pool & self.not_last)

    def plays(self) -> list[tuple[int, int]]:
        """The cards played, in order, as (seat, card)."""
        return [(entry[2], entry[3]) for entry in self.state.history() if entry[0] == "play"]

    def hands(self) -> list[list[str]]:
        d = self.t.deck
        out: list[list[int]] = [[] for _ in range(self.n)]
        for s, c in self.plays():
            out[s].append(c)
        return [[d.card_name(c) for c in sorted(h)] for h in out]


def _dealers(t: Tables, sc: Scenario) -> list[int]:
    """Dealers whose face-up Kings go to the parties the scenario says."""
    d = t.deck
    given = {d.card_name(card): (base, off) for card, base, off in t.given_cards}
    out = []
    for dealer in range(t.n_seats):
        if all(k.king not in given or t.party_of[seat_of(t, *given[k.king], dealer)] == k.owner for k in sc.kings):
            out.append(dealer)
    return out


def find_witness(tables: Tables, scenario: Scenario, budget: int = DEFAULT_BUDGET, seed: int = 0,
                 ruleset: str | None = None) -> GameRecord | None:
    """A legal game realising the scenario exactly, as a record; None if none is found within ``budget``.

    ``budget`` counts search nodes (cards tried); the search restarts with a
    fresh random order every :data:`RESTART_NODES` nodes. The game found is
    played through :class:`~schachett_rules.kernel.state.State`, and its totals, card points and King
    events are checked against the scenario before it is returned.
    """
    t = tables
    if not scenario.viable:
        return None
    dealers = _dealers(t, scenario)
    if not dealers:
        return None
    rng = random.Random(seed)
    spent = 0
    while spent < budget and dealers:
        limit = min(RESTART_NODES, budget - spent)
        dealer = rng.choice(dealers)
        search = _Search(t, scenario, dealer, random.Random(rng.random()), limit)
        try:
            found = search.run()
        except _OutOfNodes:
            found = None
        spent += max(1, min(search.nodes, limit))
        if found:
            return _verified(t, scenario, search, ruleset or t.name)
        if found is False:
            dealers.remove(dealer)  # searched to the end: no game at all with this dealer
    return None


def _verified(t: Tables, sc: Scenario, search: _Search, ruleset: str) -> GameRecord:
    game = State.from_record(t, search.dealer, search.hands())
    for seat, card in search.plays():
        game.play(t.deck.card_name(card), seat=seat)
    record = record_of(game, ruleset, dict(t.options))
    problem = witness_problem(record, sc)
    if problem:
        raise AssertionError(f"the search's game does not replay as planned: {problem}")
    return record


def witness_problem(record: GameRecord, scenario: Scenario) -> str | None:
    """Replay a record and say how it differs from the scenario (None if it realises it exactly)."""
    t = tables_for(record.ruleset, tuple(sorted(record.options.items())))
    rep = replay(record)
    r = rep.result
    if tuple(r.totals) != scenario.totals:
        return f"totals {r.totals}, not {scenario.totals}"
    if tuple(r.card_points) != scenario.card_points:
        return f"card points {r.card_points}, not {scenario.card_points}"
    got = [(e.king, e.event, e.trick, e.order == "first", e.points, tuple(e.scoring_parties)) for e in r.events]
    want = [(k.king, k.event, k.trick, k.first, k.points, k.scorers) for k in scenario.kings if k.event]
    if got != want:
        return f"events {got}, not {want}"
    extra = sorted((c for _, c in rep.tricks[-1].cards
                    if last_extra(t, t.face(c)) and not t.deck.face_royal[t.face(c)]), key=t.face)
    if extra != sorted(scenario.promoted, key=t.face):
        return f"the last trick holds {extra} scoring extra, not {list(scenario.promoted)}"
    return None
