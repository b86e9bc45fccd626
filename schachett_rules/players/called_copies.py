"""Where the called card's copies may lie, as the Kings' fates in the tricks told a seat that does not know them.

In the called forms of Schachett the declarer's partners are the holders of the copies of the card he called,
unknown to a seat until it has seen every copy. A King taken in a trick says more: checkmate where its taker
plays against it, selfmate where they play together, and a trick with two or three Kings can tell a seat who
plays with whom. A deal drawn without regard to that agrees with those fates in one try in twenty or a hundred
(the rebuilt game gives it up, :mod:`.rebuild`), too rare for a player at a table. So the sampler first places
the unseen copies (:func:`copy_placements`): every way of laying them in the hidden hands that lets the kernel's
own King fates (:func:`~schachett_rules.kernel.scoring.king_events`, with the parties
:func:`~schachett_rules.kernel.before_play.game_if_called_by` makes) give every event seen, each weighted by the
number of deals of the other cards it leaves, and draws the rest of the deal around the one it picks.

>>> ways({3: 2, 5: 1}, {3: 6, 5: 4})   # three copies: two among seat 3's six free cards, one among seat 5's four
360
>>> 3 * (6 * 5) * 4                     # by hand: the copy for seat 5, the others' places in seat 3, its place
360
"""

from __future__ import annotations

import random
from itertools import combinations_with_replacement
from math import factorial, perm

from ..kernel.before_play import game_if_called_by
from ..kernel.scoring import KingCount, king_events
from ..kernel.tables import Tables
from ..kernel.trick import kings_in
from .family_deals import exchange, plays_of


def ways(counts: dict[int, int], room: dict[int, int]) -> int:
    """How many deals of the copies put ``counts[s]`` of them in place ``s`` of ``room[s]`` free cards, relative
    to the deals of the other cards (the same for every placement): the copies' order among the places times
    the places' cards they take."""
    k = sum(counts.values())
    out = factorial(k)
    for s, c in counts.items():
        out = out * perm(room[s], c) // factorial(c)
    return out


def _events_of(tr) -> list[tuple]:
    return [(e.event, e.king, e.owner, e.order, e.points) for e in tr.events]


def copy_placements(t: Tables, obs, game, unseen: list[int], known: list[int], excluded: list[int],
                    room: dict[int, int], musts: list) -> list[tuple[dict[int, int], int]] | None:
    """The ways the unseen copies of the called card may lie in the hidden hands so that every King fate the seat
    saw is the one the kernel gives, each as (place -> mask of copies, :func:`ways`). None where the seat knows
    the parties, the game's parties are not made by a called card, no King has been taken, or a card may lie
    outside the hands (an exchange): then the sampler draws as it always does.

    ``game()`` rebuilds the game for some deal that reaches play as the seat saw it (the contract, trumps,
    declarer and card called are the same in all), or gives None; ``room`` the free cards of each hidden place; ``musts`` the
    sets the declarer must have held one of (:func:`~.family_deals.call_holdings`): a set of the copies is met
    by the placement itself.
    """
    flow = t.flow
    if (flow is None or obs.partners is not None or obs.called is None or obs.declarer is None
            or obs.contract is None or flow.contracts[flow.contract_index(obs.contract)].partner != "called"
            or exchange(t, obs) is not None or flow.stock):
        return None
    d = t.deck
    tricks = [[(s, d.card_of(name)) for s, name in tr.cards] for tr in obs.tricks]
    if not any(kings_in(t, cards) for cards in tricks):
        return None
    state = game()
    if state is None:
        return None
    face = d.face_cards[t.face(obs.called)]
    copies = [c for c in unseen if face >> c & 1]
    declarer, n = obs.declarer, t.n_seats
    seen = {s for s, name in plays_of(obs) if name == obs.called}
    seen |= {s for s, hand in obs.hands.items() if obs.called in hand}
    seen |= {s for s in range(n) if known[s] & face}
    hidden = [s for s in range(n) if s not in obs.hands and room.get(s, 0) > 0]
    if any(excluded[s] & face not in (0, face) for s in hidden):
        return None                  # the copies are not alike to every hand: leave them to the sampler's draws
    hidden = [s for s in hidden if not excluded[s] & face]
    needs = [where for where, mask in musts if mask & face == mask and mask & face]
    games: dict[tuple[int, ...], Tables] = {}
    out = []
    for seats in combinations_with_replacement(hidden, len(copies)):
        counts: dict[int, int] = {}
        for s in seats:
            counts[s] = counts.get(s, 0) + 1
        if any(c > room[s] for s, c in counts.items()) or any(not set(where) & counts.keys() for where in needs):
            continue
        holders = tuple(sorted((seen | counts.keys()) - {declarer}))
        game = games.get(holders)
        if game is None:
            game = games[holders] = game_if_called_by(state, holders)
        count = KingCount()
        agrees = True
        for i, (tr, cards) in enumerate(zip(obs.tricks, tricks)):
            kings = kings_in(game, cards)
            fates = king_events(game, i, kings, tr.winner, count) if kings else []
            said = [(ev.name, d.face_names[f], owner, "first" if first else "later", pts)
                    for ev, f, owner, first, pts, _ in fates]
            if said != _events_of(tr):
                agrees = False
                break
        if not agrees:
            continue
        placed: dict[int, int] = {}
        for s, c in zip(seats, copies):
            placed[s] = placed.get(s, 0) | 1 << c
        out.append((placed, ways(counts, room)))
    return out or None


def pick(placements: list[tuple[dict[int, int], int]], rng: random.Random) -> dict[int, int]:
    """One placement, by its weight."""
    total = sum(w for _, w in placements)
    r = rng.random() * total
    for placed, w in placements:
        r -= w
        if r < 0:
            return placed
    return placements[-1][0]
