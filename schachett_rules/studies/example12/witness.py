"""The witness search of the §12 study: a real game that realises a scenario, built without a deal.

It plays trick by trick: a card is taken from the cards not yet played, and
when a follower plays from a lower follow tier he is recorded as void in the
tiers above (:func:`~schachett_rules.kernel.follow.tiers`), so that he never
plays such a card later; each seat's hand is, at the end, the cards it played.
Who takes each trick, its points and its King events come from the trick
queries and the kernel's scorer; the game found is replayed by the engine.
"""

from __future__ import annotations

import random

from ...engine.game import Game
from ...engine.replay import GameRecord, record_of, replay
from ...kernel.compiler import tables_for
from ...kernel.deal import seat_of
from ...kernel.follow import tiers
from ...kernel.scoring import KingCount
from ...kernel.tables import Tables
from ...kernel.trick import card_points, holder, holds_against, is_last, kings_in, resolve
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
        self.owned = [0] * n
        for card, base, off in t.given_cards:
            self.owned[seat_of(t, base, off, dealer)] |= 1 << card
        self.pool = t.full_mask
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
        self.won = [0] * len(t.parties)
        self.leader = seat_of(t, *t.first_lead, dealer)
        self.trick: list[tuple[int, int]] = []
        self.done = 0
        self.count = KingCount()
        self.plays: list[tuple[int, int]] = []

    # -- feasibility --------------------------------------------------------------------------
    def room_ok(self) -> bool:
        """Hall's condition: every group of seats can still be given enough cards it may hold."""
        n, pool = self.n, self.pool
        played_now = {s for s, _ in self.trick}
        owned_all = 0
        for o in self.owned:
            owned_all |= o
        rem, avail = [], []
        for s in range(n):
            rem.append(self.t.n_tricks - self.done - (1 if s in played_now else 0))
            avail.append(pool & ~self.void[s] & ~(owned_all & ~self.owned[s]))
            if self.owned[s] & self.void[s]:
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
        t, i = self.t, self.done
        owned_others = 0
        for s, o in enumerate(self.owned):
            if s != seat:
                owned_others |= o
        avail = self.pool & ~self.void[seat] & ~owned_others
        royal_now = self.kings_at[i]
        avail &= ~(t.royal_cards & ~royal_now)
        kings = royal_now & avail
        while kings:
            low = kings & -kings
            kings ^= low
            if t.party_of[seat] != self.king_owner[low.bit_length() - 1]:
                avail &= ~low  # a King not dealt face up is held by a seat of the party the scenario says
        if self.owned[seat] & royal_now:
            avail &= self.owned[seat] & royal_now
        avail &= ~(self.keep_last if i != self.last else self.not_last)
        out: list[tuple[int, int]] = []
        if not self.trick:
            rows = [(avail, 0)]
        else:
            rows = []
            for only, before in self.tiers[self.face[self.trick[0][1]]]:
                if self.owned[seat] & before:
                    break  # he holds a card of an earlier tier: he may not play from this one
                rows.append((avail & only, before))
        seen = set()
        for mask, before in rows:
            while mask:
                low = mask & -mask
                c = low.bit_length() - 1
                mask ^= low
                key = (self.face[c], bool(self.owned[seat] >> c & 1))
                if key in seen:
                    continue
                seen.add(key)
                out.append((c, before))
        return out

    def order(self, seat: int, cands: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """Cards that help the lagging party first, with noise."""
        t, i = self.t, self.done
        last = is_last(t, i)
        pts = card_points(t, i)
        free = [tg - fc for tg, fc in zip(self.targets, self.forced)] if not last else list(self.targets)
        need = [f - w for f, w in zip(free, self.won)]
        ratio = [need[p] / free[p] if free[p] > 0 else -1.0 for p in range(len(need))]
        want = max(range(len(need)), key=lambda p: (ratio[p], self.rng.random()))
        holder_seat, holder_face = holder(t, i, self.trick) if self.trick else (None, None)
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
            cost = 3 * (before & ~self.void[seat] & self.pool).bit_count()
            scored.append((gain + bonus - cost + self.rng.random() * 16, c, before))
        scored.sort(reverse=True)
        return [(c, b) for _, c, b in scored]

    # -- the search ---------------------------------------------------------------------------
    def run(self) -> bool:
        if self.done == self.t.n_tricks:
            return list(self.won) == list(self.targets)
        self.nodes += 1
        if self.nodes > self.limit:
            raise _OutOfNodes
        seat = self.t.next_seat(self.trick[-1][0]) if self.trick else self.leader
        for card, before in self.order(seat, self.candidates(seat)):
            bit = 1 << card
            saved = (self.pool, self.void[seat], self.owned[seat])
            self.pool &= ~bit
            self.owned[seat] &= ~bit
            self.void[seat] |= before
            self.trick.append((seat, card))
            self.plays.append((seat, card))
            ok = (not before or self.room_ok())
            if ok:
                if len(self.trick) == self.n:
                    ok = self.finish_trick_and_go_on()
                else:
                    ok = self.run()
            if ok:
                return True
            self.trick.pop()
            self.plays.pop()
            self.pool, self.void[seat], self.owned[seat] = saved
        return False

    def finish_trick_and_go_on(self) -> bool:
        t, i = self.t, self.done
        last = is_last(t, i)
        if self.pool & self.kings_at[i]:
            return False
        count = KingCount.copy_of(self.count)
        outcome = resolve(t, i, self.trick, count)
        wseat, total = outcome.winner, outcome.points
        fates = [(t.deck.face_names[f], t.fate_of(s, wseat)) for s, f in kings_in(t, self.trick)]
        if fates != self.fates[i]:
            return False
        p = t.party_of[wseat]
        if self.won[p] + total > self.targets[p] - (self.forced[p] if not last else 0):
            return False
        got = [(t.deck.face_names[face], ev.name, first, points, parties)
               for ev, face, _owner, first, points, parties in outcome.fates]
        if got != self.expected[i]:
            return False
        if i + 1 == self.last and self.pool & self.not_last:
            return False
        saved = (self.leader, self.trick, self.count, self.done)
        self.won[p] += total
        self.leader, self.trick, self.count, self.done = wseat, [], count, i + 1
        ok = self.room_ok() and self.run()
        if not ok:
            self.won[p] -= total
            self.leader, self.trick, self.count, self.done = saved
        return ok

    def hands(self) -> list[list[str]]:
        d = self.t.deck
        out: list[list[int]] = [[] for _ in range(self.n)]
        for s, c in self.plays:
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
    played through :class:`~.engine.Game`, and its totals, card points and King
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
    game = Game.from_record(t, search.dealer, search.hands())
    for seat, card in search.plays:
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
