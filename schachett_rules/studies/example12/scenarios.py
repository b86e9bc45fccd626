"""The arithmetic of the §12 study: every way the totals can be made of King events, promotions and card points."""

from __future__ import annotations

import itertools
from typing import Sequence

from ...kernel.deal import seat_of
from ...kernel.scoring import KingCount, king_events
from ...kernel.tables import Tables
from .model import DEFAULT_TARGETS, FATES, KingFate, Scenario, card_total, kings, last_extra, seat_meeting, seats_for
from .structure import structural_problem


def _owner_tuples(t: Tables, royal: list[int]) -> list[tuple[int, ...]]:
    """The parties that can hold the Kings, up to renaming the two parties.

    A King dealt face up goes to a seat named from the dealer, so its party
    depends on the dealer only; another King may go to either party. When
    every tuple's mirror image is also possible (moving the dealer one seat
    renames the parties), one of each pair is kept: both target assignments
    are tried anyway.
    """
    given = {card: (base, off) for card, base, off in t.given_cards}
    parties = range(len(t.parties))
    out: set[tuple[int, ...]] = set()
    for dealer in range(t.n_seats):
        choices = [(t.party_of[seat_of(t, *given[k], dealer)],) if k in given else tuple(parties) for k in royal]
        out.update(itertools.product(*choices))
    if len(t.parties) == 2:
        def mirror(o: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(t.other_parties(p)[0] for p in o)
        if all(mirror(o) in out for o in out):
            out = {o for o in out if o <= mirror(o)}
    return sorted(out)


def _count_events(t: Tables, ordered: list[tuple[int, int, int, str]]) -> list[KingFate]:
    """First/later, points and scorers of Kings ordered by trick and play order, as the kernel scores them.

    Each King is scored by :func:`~schachett_rules.kernel.scoring.king_events`
    in a trick made up for it: a seat of its owner's party plays it, a seat that
    gives it its fate takes the trick, and the Kings of the plan played before
    it in that trick come first, on seats that give them their own fates. So a
    plan that no single winner can realise (the structure rules it out later)
    is still counted King by King as the kernel would count it.
    """
    d = t.deck
    out: list[KingFate] = []
    count = KingCount()
    for trick, group in itertools.groupby(ordered, key=lambda k: k[2]):
        group = list(group)
        start = count
        for position, (king, owner, _trick, fate) in enumerate(group):
            face = d.card_face[king]
            name = d.face_names[face]
            seats = seats_for(t, owner, fate)
            events: list = []
            if seats is not None:
                seat, winner = seats
                before = [(s, d.card_face[k]) for k, _o, _t, f in group[:position]
                          for s in (seat_meeting(t, winner, f),) if s is not None]
                scored_before = len(king_events(t, trick, before, winner, KingCount.copy_of(start))) if before else 0
                after = KingCount.copy_of(start)
                events = king_events(t, trick, before + [(seat, face)], winner, after)[scored_before:]
            if not events:
                out.append(KingFate(name, owner, fate, None, trick + 1, position, False, 0, (), t.party_names))
                continue
            ev, _face, _seat, first, points, parties = events[0]
            out.append(KingFate(name, owner, fate, ev.name, trick + 1, position, first, points, tuple(parties),
                                t.party_names))
            count = after
    return out


def _promotion_sets(t: Tables) -> dict[int, list[tuple[tuple[str, ...], int]]]:
    """Cards that score extra in the last trick, by how many: (faces, extra points together)."""
    d = t.deck
    extra = [c for c in range(t.n_cards) if not t.royal_cards >> c & 1 and last_extra(t, d.card_face[c])]
    out: dict[int, list[tuple[tuple[str, ...], int]]] = {}
    for size in range(t.n_seats + 1):
        seen = set()
        for combo in itertools.combinations(extra, size):
            faces = tuple(sorted((d.card_name(c) for c in combo), key=d.face))
            if faces in seen:
                continue
            seen.add(faces)
            pts = sum(last_extra(t, d.face(f)) for f in faces)
            out.setdefault(size, []).append((faces, pts))
    return out


def _fate_plans(t: Tables):
    """Every (owners, ordered King fates) the Kings can meet, as KingFate tuples, before any structure."""
    royal = kings(t)
    for owners in _owner_tuples(t, royal):
        for choice in itertools.product(itertools.product(range(t.n_tricks), FATES), repeat=len(royal)):
            tricks = sorted({tr for tr, _ in choice})
            # all play orders of Kings that share a trick
            groups = [[i for i, (tr, _) in enumerate(choice) if tr == trick] for trick in tricks]
            for orders in itertools.product(*(itertools.permutations(g) for g in groups)):
                ordered = [(royal[i], owners[i], choice[i][0], choice[i][1]) for g in orders for i in g]
                yield owners, tuple(_count_events(t, ordered))


def scenarios(tables: Tables, targets: Sequence[int] = DEFAULT_TARGETS) -> list[Scenario]:
    """Every decomposition of the targets into King events, promotions and card points.

    Each King meets one fate in one trick; the promoted cards are those of the
    last trick that score extra there. A scenario is listed when the points add
    up and each party's card points lie between 0 and all there are; ``excluded``
    then names the structural constraint (if any) that rules it out.
    """
    t = tables
    assert len(t.parties) == 2, "the parties W and S: two parties"
    total_cards = card_total(t)
    promos = _promotion_sets(t)
    out: list[Scenario] = []
    for owners, fates in _fate_plans(t):
        events = [0] * len(t.parties)
        for k in fates:
            for p in k.scorers:
                events[p] += k.points
        need = sum(targets) - total_cards - sum(events)
        in_last = [k for k in fates if k.trick == t.n_tricks]
        room = t.n_seats - len(in_last)
        for size in range(0, t.n_seats + 1):
            for faces, extra in promos.get(size, []):
                if extra != need:
                    continue
                available = total_cards + extra
                for assignment in sorted(set(itertools.permutations(targets))):
                    cards = tuple(assignment[p] - events[p] for p in range(len(t.parties)))
                    if any(c < 0 or c > available for c in cards):
                        continue
                    sc = Scenario(kings=fates, promoted=faces, promoted_points=extra, event_points=tuple(events),
                                  card_points=cards, totals=tuple(assignment), parties=t.party_names)
                    why = structural_problem(t, sc, room)
                    if why:
                        sc = Scenario(**{**sc.__dict__, "constraint": why[0], "excluded": why[1]})
                    out.append(sc)
    return out


def arithmetic_obstacle(tables: Tables, targets: Sequence[int] = DEFAULT_TARGETS) -> str | None:
    """Why no decomposition exists at all, in words; None if :func:`scenarios` finds some."""
    t = tables
    if scenarios(t, targets):
        return None
    total_cards = card_total(t)
    need = sum(targets) - total_cards
    sums = set()
    for _, fates in _fate_plans(t):
        sums.add(sum(k.points * len(k.scorers) for k in fates))
    extras = sorted({pts for lst in _promotion_sets(t).values() for _, pts in lst})
    low = sorted(s for s in sums if s <= need)
    text = (f"King events and promoted extras must make {sum(targets)} − {total_cards} = {need}; the promoted "
            f"cards of the last trick add one of {_span(extras)}; ")
    if not low:
        return text + f"the Kings' events always add at least {min(sums)}, more than {need}"
    fits = [s for s in low if need - s in extras]
    if not fits:
        text += f"the Kings' events add {_span(low)} (of the sums up to {need}), and no pair makes {need}"
        parities = {s % 2 for s in low}
        if len(parities) == 1 and len({e % 2 for e in extras}) == 1 and (low[0] + extras[0]) % 2 != need % 2:
            text += (f": every such event sum is {'odd' if low[0] % 2 else 'even'} and every extra "
                     f"{'odd' if extras[0] % 2 else 'even'}, but {need} is {'odd' if need % 2 else 'even'}")
        return text
    return text + "the sums can meet, but no split of the card points fits between 0 and all there are"


def _span(values: list[int]) -> str:
    if len(values) <= 8:
        return "{" + ", ".join(map(str, values)) + "}"
    return "{" + ", ".join(map(str, values[:6])) + f", …, {values[-1]}" + "}"
