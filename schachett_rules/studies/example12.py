"""Can the worked example of §12 happen? 190 against 68, reading by reading.

The question
------------
§12 of the manual ends with an example: the two W players "together (according
to §§ 7–9 and the counting cards in the tricks) have 190 Points, S₁ and S₂ 68".
The counting cards of a deck come to 216 points, so 258 − 216 = 42 points must
come from the King events of §7–§9 and, perhaps, from the suit cards promoted
in the last trick (§11). Whether and how that can happen depends on readings
the surviving pages leave open: what "remaining cards" are (lacuna
``remaining``), whether promoted I–III score as officers (``promoted-points``),
and which King is the "1st King" (``king-order``).

The method
----------
:func:`scenarios` works from the compiled :class:`~.compiler.Tables` only: the
card points, the event tables by trick (which already hold the reading of
*remaining*), the King-order flags, the last-trick points and the parties. Every
King meets exactly one fate in the trick in which it is played — it wins the
trick (``self``), a partner of its owner wins it (``partner``) or an opponent
does (``opponent``) — so a game is described, as far as points go, by each
King's trick and fate, the order of Kings that share a trick, the promoted
cards in the last trick that score extra points there, and which party is W.
The enumeration tries all of these, keeps those whose events and promotions
make up the difference exactly and leave each party a card-point share between
0 and everything there is, and then applies structural facts every legal game
obeys, each derived from the tables and named when it rules a candidate out:

* ``one-winner``: a trick has one winner; of two Kings in one trick at most one
  can win it, the first played holds against an equal King, and the other's fate
  follows from who wins (of two Kings of different parties in one trick, one is
  always taken by an opponent);
* ``last-trick-stalemate``: a King can win the last trick only if no card in it
  takes the King and is out of the King's reach (counting the capture chains in
  the last-trick table) — so a promoted card that counts as an officer above the
  King rules out a stalemate in the trick it must be in;
* ``last-trick-full``: the Kings and the promoted cards of the last trick must
  fit into one trick;
* ``last-trick-points``: when the last trick's winner is fixed by a King's fate
  there, that party's card points include the promoted cards.

The trick of the 2nd King is never earlier than the 1st one's: the Kings are
ordered by trick (and by play order within a trick) before first and later are
counted, exactly as :func:`~.scoring.king_events` counts them.

:func:`find_witness` then builds a real game for a surviving scenario. It plays
trick by trick *without a deal*: a card is taken from the cards not yet played,
and when a follower plays a card from a lower follow tier, he is recorded as
void in the higher tiers, so that he may never play such a card later. The hand
of each seat is, at the end, the cards it played; the King events' tricks and
fates, the promoted cards (kept for the last trick) and the cards that would
score extra in the last trick (played before it) are enforced card by card, and
each party's card points may never pass its target. A depth-first search with
restarts steers points to the party that lags behind its share. A game found is
replayed through :class:`~.engine.Game` and returned as a record.

The finding
-----------
* ``remaining = all-hands`` (52 cards in trick 1): impossible by arithmetic. Every
  multiple is now a multiple of 8, the cheapest two events are 25 + 8 + 8 = 41
  (both Kings in the last trick; under ``both-first`` those two would both be
  first, and the cheapest pair is 25 + 16 + 8 = 49), and no promoted card is
  worth the missing 1.
* ``king-order = per-event``: impossible by structure. Two different kinds of
  event both earn their bonus (at least 25 + 2 + 50 + 4 = 81), so both Kings
  must be stalemated, in different tricks (a trick has one winner); the sums
  that fit put the second stalemate in the last trick, next to the promoted
  card that has to be there — and that card, counting as an officer, takes the
  King.
* ``each-hand`` with ``by-fate`` or ``both-first`` (both readings of promoted
  points): possible, and in exactly one shape. Only a first stalemate is cheap
  enough; 25 + 2r is odd and every later event even, so the events are odd and
  the promoted extra must be odd: an F IV (+9) leaves 33, an F II under
  ``as-officers`` (+11) leaves 31, which needs a stalemate in the last trick
  beside that II, or a stalemate and a selfmate in one trick — both ruled out.
  What remains: events 33 = stalemate of the 1st King in trick 12
  (25 + 2 × 2 = 29, to its own party) + selfmate of the 2nd King in trick 13
  (4 × 1 = 4, to the opponents of the selfmated King, i.e. the same party).
  216 + 9 + 29 + 4 = 258. W may be the party that scores both events
  (33 + 157 card points) or the other one (190 card points against 33 + 35);
  the search finds real games for both.

The other lacunae of the printed ruleset (``deal``, ``castling``,
``suit-order``, ``pawn-takes-suit``, ``ties``, ``king-follow``) do not change
these verdicts: the enumeration depends only on the points, event tables,
King order and parties, and the search finds games under each of their
options too (``report`` accepts them as extra readings). A random deal adds
one more way to split the same shape (both Kings in one party: 29 and 4 to
different parties).

>>> from schachett_rules.kernel.compiler import tables_for
>>> t = tables_for("original")
>>> viable = [s for s in scenarios(t) if s.excluded is None]
>>> sorted({s.shape() for s in viable})
['stalemate t12 first 29 + selfmate t13 later 4 + IV promoted 9']
>>> record = find_witness(t, viable[0], budget=20_000)
>>> from schachett_rules.engine.replay import replay
>>> sorted(replay(record).result.totals)
[68, 190]
"""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from ..kernel.compiler import Tables, tables_for
from ..engine.game import Game
from ..kernel.deal import seat_of
from ..engine.replay import GameRecord, record_of, replay
from ..kernel.scoring import KingCount, king_events

DEFAULT_TARGETS = (190, 68)
DEFAULT_BUDGET = 60_000          # search nodes (cards tried) per reading combination
RESTART_NODES = 4_000            # nodes before the search starts again with a fresh random order

READINGS: dict[str, tuple[str, ...]] = {
    "remaining": ("each-hand", "all-hands"),
    "promoted-points": ("knight-only", "as-officers"),
    "king-order": ("by-fate", "both-first", "per-event"),
}

FATES = ("self", "partner", "opponent")

CONSTRAINTS = {
    "one-winner": "a trick has one winner: two Kings in one trick cannot both win it, the first played of two "
                  "equal Kings holds, and the other King's fate follows from who wins",
    "last-trick-stalemate": "a King wins the last trick only if no card in it takes the King beyond its reach; "
                            "a promoted card that counts as an officer above the King does",
    "last-trick-full": "the Kings and promoted cards of the last trick must fit into one trick",
    "last-trick-points": "the party that must win the last trick gets the promoted cards' points",
}


# --- scenarios --------------------------------------------------------------------------------


@dataclass(frozen=True)
class KingFate:
    """One King's fate in a scenario."""

    king: str                      # face name, e.g. 'wK'
    owner: int                     # the party that holds (plays) it
    fate: str                      # 'self' (wins the trick) | 'partner' | 'opponent' (who takes it)
    event: str | None              # the event it scores ('stalemate', ...), None if the ruleset has none
    trick: int                     # counted from 1
    position: int                  # among the Kings of its trick, in play order
    first: bool
    points: int
    scorers: tuple[int, ...]       # parties that score the points

    def text(self) -> str:
        what = self.event or f"no event ({self.fate})"
        return (f"{self.king} (party {self.owner}) {what} in trick {self.trick}, "
                f"{'first' if self.first else 'later'} King, {self.points} to party "
                f"{', '.join(map(str, self.scorers))}")


@dataclass(frozen=True)
class Scenario:
    """A way the totals can decompose: King fates, promotions, and the card points they imply."""

    kings: tuple[KingFate, ...]          # in the order they meet their fate
    promoted: tuple[str, ...]            # faces in the last trick that score extra there
    promoted_points: int                 # their extra points together
    event_points: tuple[int, ...]        # per party
    card_points: tuple[int, ...]         # per party, implied
    totals: tuple[int, ...]              # per party
    excluded: str | None = None          # why it cannot happen in a legal game, if it cannot
    constraint: str | None = None        # the id of that constraint (see CONSTRAINTS)

    @property
    def viable(self) -> bool:
        return self.excluded is None

    def shape(self) -> str:
        """The scenario without colours and parties: events by trick, and promoted symbols."""
        parts = [f"{k.event or k.fate} t{k.trick} {'first' if k.first else 'later'} {k.points}" for k in self.kings]
        syms = sorted(p[1:] for p in self.promoted)
        if syms:
            parts.append(" ".join(syms) + f" promoted {self.promoted_points}")
        return " + ".join(parts)

    def text(self) -> str:
        lines = [f"totals {self.totals} = events {self.event_points} + card points {self.card_points}"]
        lines += ["  " + k.text() for k in self.kings]
        lines.append("  last trick: " + (", ".join(self.promoted) + f" (+{self.promoted_points})"
                                         if self.promoted else "no promoted card scoring extra"))
        if self.excluded:
            lines.append(f"  impossible ({self.constraint}): {self.excluded}")
        return "\n".join(lines)

    def as_json(self) -> dict:
        return {"kings": [k.__dict__ | {"scorers": list(k.scorers)} for k in self.kings],
                "promoted": list(self.promoted), "promoted_points": self.promoted_points,
                "event_points": list(self.event_points), "card_points": list(self.card_points),
                "totals": list(self.totals), "excluded": self.excluded, "constraint": self.constraint,
                "shape": self.shape()}


def _kings(t: Tables) -> list[int]:
    """The royal cards, in deck order."""
    return [c for c in range(t.n_cards) if t.royal_cards >> c & 1]


def _owner_tuples(t: Tables, kings: list[int]) -> list[tuple[int, ...]]:
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
        choices = [(t.party_of[seat_of(t, *given[k], dealer)],) if k in given else tuple(parties) for k in kings]
        out.update(itertools.product(*choices))
    if len(t.parties) == 2 and all(tuple(1 - p for p in o) in out for o in out):
        out = {o for o in out if o <= tuple(1 - p for p in o)}
    return sorted(out)


def _event_of(t: Tables, fate: str):
    return next((e for e in t.events if e.when == fate), None)


def _scorers(t: Tables, ev, fate: str, owner: int) -> tuple[int, ...]:
    others = tuple(p for p in range(len(t.parties)) if p != owner)
    if ev.scores == "owner":
        return (owner,)
    if ev.scores == "opponents":
        return others
    # 'taker': the winner's party
    return (owner,) if fate in ("self", "partner") else others


def _count_events(t: Tables, ordered: list[tuple[int, int, int, str]]) -> list[KingFate]:
    """First/later, points and scorers of Kings ordered by trick and play order, as scoring.king_events counts."""
    total, per_event = 0, {}
    out, position, prev_trick = [], 0, None
    before_total, before_each = 0, {}
    for king, owner, trick, fate in ordered:
        if trick != prev_trick:
            before_total, before_each, position, prev_trick = total, dict(per_event), 0, trick
        else:
            position += 1
        ev = _event_of(t, fate)
        name = t.deck.face_names[t.deck.card_face[king]]
        if ev is None:
            out.append(KingFate(name, owner, fate, None, trick + 1, position, False, 0, ()))
            continue
        if t.count_each_event:
            seen, seen_before = per_event.get(ev.name, 0), before_each.get(ev.name, 0)
        else:
            seen, seen_before = total, before_total
        first = seen == 0 or (t.same_trick_all_first and seen_before == 0)
        pts = (ev.first if first else ev.later)[trick]
        out.append(KingFate(name, owner, fate, ev.name, trick + 1, position, first, pts, _scorers(t, ev, fate, owner)))
        total += 1
        per_event[ev.name] = per_event.get(ev.name, 0) + 1
    return out


def _holders_after(beats: tuple[int, ...], x: int, n_faces: int) -> int:
    """Faces that may hold a trick at some moment after face ``x`` was played into it.

    Whatever ``x`` fails to take may still hold; whatever takes a holder holds.
    """
    mask = 1 << x
    for y in range(n_faces):
        if not beats[x] >> y & 1:
            mask |= 1 << y
    while True:
        grown = mask
        for z in range(n_faces):
            if not grown >> z & 1 and beats[z] & mask:
                grown |= 1 << z
        if grown == mask:
            return mask
        mask = grown


def _blocks(t: Tables, x: int, king: int, last: bool) -> bool:
    """Whether face ``x`` in a trick keeps face ``king`` from winning it, whatever the order.

    Played after the King, ``x`` must not take it; played before, the King must
    take whatever holds by then. If ``x`` takes the King and the King takes
    nothing that may hold after ``x``, the King cannot win.
    """
    beats = t.beats_last if last else t.beats
    if not beats[x] >> king & 1:
        return False
    return not beats[king] & _holders_after(beats, x, t.n_faces)


def _trick_problem(t: Tables, group: list[KingFate], last: bool) -> str | None:
    """Why the Kings of one trick cannot meet these fates together (None if they can)."""
    d = t.deck
    face = {k.king: d.face(k.king) for k in group}
    beats = t.beats_last if last else t.beats
    winners = [k for k in group if k.fate == "self"]
    trick = group[0].trick
    if len(winners) > 1:
        return (f"{' and '.join(k.king for k in winners)} cannot both win trick {trick}: a trick has one winner, so "
                f"two Kings in one trick cannot both be stalemated")
    if winners:
        k = winners[0]
        for other in group:
            if other is k:
                continue
            if other.position > k.position and beats[face[other.king]] >> face[k.king] & 1:
                return f"{other.king}, played after {k.king} in trick {trick}, takes it, so {k.king} cannot win"
            if other.position < k.position and not beats[face[k.king]] & _holders_after(beats, face[other.king],
                                                                                         t.n_faces):
                return (f"{k.king} cannot win trick {trick}: {other.king} is played before it, and {k.king} takes "
                        f"neither it nor any card that may hold the trick after it (of two equal Kings the first "
                        f"played holds)")
    # Seats: each King is played by a seat of its owner's party, all different; some seat wins.
    n = t.n_seats
    for seats in itertools.permutations(range(n), len(group)):
        if any(t.party_of[s] != k.owner for s, k in zip(seats, group)):
            continue
        for w in range(n):
            fates = ["self" if s == w else "partner" if t.party_of[s] == t.party_of[w] else "opponent" for s in seats]
            if fates == [k.fate for k in group]:
                return None
    said = ", ".join(f"{k.king} (party {k.owner}) {k.event or k.fate}" for k in group)
    return f"no winner of trick {trick} gives {said}: whoever wins decides each King's fate"


def _promotion_sets(t: Tables) -> dict[int, list[tuple[tuple[str, ...], int]]]:
    """Cards that score extra in the last trick, by how many: (faces, extra points together)."""
    d = t.deck
    extra = [c for c in range(t.n_cards) if not t.royal_cards >> c & 1
             and t.points_last[d.card_face[c]] != t.points[d.card_face[c]]]
    out: dict[int, list[tuple[tuple[str, ...], int]]] = {}
    for size in range(t.n_seats + 1):
        seen = set()
        for combo in itertools.combinations(extra, size):
            faces = tuple(sorted((d.card_name(c) for c in combo), key=d.face))
            if faces in seen:
                continue
            seen.add(faces)
            pts = sum(t.points_last[d.face(f)] - t.points[d.face(f)] for f in faces)
            out.setdefault(size, []).append((faces, pts))
    return out


def _fate_plans(t: Tables):
    """Every (owners, ordered King fates) the Kings can meet, as KingFate tuples, before any structure."""
    kings = _kings(t)
    for owners in _owner_tuples(t, kings):
        for choice in itertools.product(itertools.product(range(t.n_tricks), FATES), repeat=len(kings)):
            tricks = sorted({tr for tr, _ in choice})
            # all play orders of Kings that share a trick
            groups = [[i for i, (tr, _) in enumerate(choice) if tr == trick] for trick in tricks]
            for orders in itertools.product(*(itertools.permutations(g) for g in groups)):
                ordered = [(kings[i], owners[i], choice[i][0], choice[i][1]) for g in orders for i in g]
                yield owners, tuple(_count_events(t, ordered))


def _card_total(t: Tables) -> int:
    return sum(t.points[t.deck.card_face[c]] for c in range(t.n_cards))


def scenarios(tables: Tables, targets: Sequence[int] = DEFAULT_TARGETS) -> list[Scenario]:
    """Every decomposition of the targets into King events, promotions and card points.

    Each King meets one fate in one trick; the promoted cards are those of the
    last trick that score extra there. A scenario is listed when the points add
    up and each party's card points lie between 0 and all there are; ``excluded``
    then names the structural constraint (if any) that rules it out.
    """
    t = tables
    assert len(t.parties) == 2, "the parties W and S: two parties"
    total_cards = _card_total(t)
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
                                  card_points=cards, totals=tuple(assignment))
                    why = _structure(t, sc, room)
                    if why:
                        sc = Scenario(**{**sc.__dict__, "constraint": why[0], "excluded": why[1]})
                    out.append(sc)
    return out


def _structure(t: Tables, sc: Scenario, room: int) -> tuple[str, str] | None:
    """The first structural constraint a scenario breaks: (constraint id, explanation)."""
    by_trick: dict[int, list[KingFate]] = {}
    for k in sc.kings:
        by_trick.setdefault(k.trick, []).append(k)
    for trick, group in sorted(by_trick.items()):
        problem = _trick_problem(t, group, trick == t.n_tricks)
        if problem:
            return "one-winner", problem
    if len(sc.promoted) > room:
        return "last-trick-full", (f"the last trick holds {t.n_seats} cards, but {len(sc.promoted)} promoted cards "
                                   f"and {t.n_seats - room} King(s) would have to be in it")
    d = t.deck
    for k in by_trick.get(t.n_tricks, []):
        if k.fate == "self":
            for f in sc.promoted:
                if _blocks(t, d.face(f), d.face(k.king), last=True):
                    as_face = d.face_names[t.promoted_as[d.face(f)]]
                    return "last-trick-stalemate", (
                        f"{k.king} is to be stalemated in the last trick, but {f} must be in that trick to score its "
                        f"+{t.points_last[d.face(f)] - t.points[d.face(f)]}, and there it counts as {as_face} and "
                        f"takes the King")
    last_kings = by_trick.get(t.n_tricks, [])
    if last_kings and sc.promoted:
        k = last_kings[0]
        winner = k.owner if k.fate in ("self", "partner") else 1 - k.owner
        least = sum(t.points_last[d.face(f)] for f in sc.promoted)
        if sc.card_points[winner] < least:
            return "last-trick-points", (f"party {winner} wins the last trick ({k.king} {k.event or k.fate} there) "
                                         f"and with it {least} points of promoted cards, more than its "
                                         f"{sc.card_points[winner]} card points")
    return None


def arithmetic_obstacle(tables: Tables, targets: Sequence[int] = DEFAULT_TARGETS) -> str | None:
    """Why no decomposition exists at all, in words; None if :func:`scenarios` finds some."""
    t = tables
    if scenarios(t, targets):
        return None
    total_cards = _card_total(t)
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


# --- witnesses --------------------------------------------------------------------------------


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
            f = self.face[c]
            if t.points_last[f] != t.points[f] and not t.royal_cards >> c & 1 and not taken >> c & 1:
                self.not_last |= 1 << c
        # follow tiers per led face: (cards of this tier only, cards of the tiers before)
        self.tiers = []
        for f in range(t.n_faces):
            rows, before = [], 0
            for m in t.follow[f]:
                rows.append((m & ~before, before))
                before |= m
            self.tiers.append(rows)
        self.targets = sc.card_points
        # The last trick's winner is known when a King meets its fate there; that party will get the
        # promoted cards' points in it, so until then it must still need at least that much.
        self.forced = [0] * len(t.parties)
        for k in sc.kings:
            if k.trick == t.n_tricks:
                winner = k.owner if k.fate in ("self", "partner") else 1 - k.owner
                self.forced[winner] = sum(t.points_last[d.face(f)] for f in sc.promoted)
                break
        self.won = [0] * len(t.parties)
        self.leader = seat_of(t, *t.first_lead, dealer)
        self.trick: list[tuple[int, int]] = []
        self.done = 0
        self.count = KingCount()
        self.plays: list[tuple[int, int]] = []
        self.pts = [t.points[f] for f in self.face]
        self.pts_last = [t.points_last[f] for f in self.face]

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
        t = self.t
        last = self.done == self.last
        beats = t.beats_last if last else t.beats
        pts = self.pts_last if last else self.pts
        free = [tg - fc for tg, fc in zip(self.targets, self.forced)] if not last else list(self.targets)
        need = [f - w for f, w in zip(free, self.won)]
        ratio = [need[p] / free[p] if free[p] > 0 else -1.0 for p in range(len(need))]
        want = max(range(len(need)), key=lambda p: (ratio[p], self.rng.random()))
        holder_seat, holder_face = None, None
        if self.trick:
            holder_seat, hc = self.trick[0]
            holder_face = self.face[hc]
            for s, c in self.trick[1:]:
                if beats[self.face[c]] >> holder_face & 1:
                    holder_seat, holder_face = s, self.face[c]
        scored = []
        for c, before in cands:
            f = self.face[c]
            if holder_face is None or beats[f] >> holder_face & 1:
                hs = seat
            else:
                hs = holder_seat
            gain = pts[c] if t.party_of[hs] == want else -pts[c]
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
        seat = (self.leader + len(self.trick)) % self.n
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
        last = i == self.last
        beats = t.beats_last if last else t.beats
        pts = self.pts_last if last else self.pts
        wseat, c0 = self.trick[0]
        wface = self.face[c0]
        total = 0
        kings = []
        for s, c in self.trick:
            f = self.face[c]
            if (s, c) != self.trick[0] and beats[f] >> wface & 1:
                wseat, wface = s, f
            total += pts[c]
            if t.royal_cards >> c & 1:
                kings.append((s, f))
        if self.pool & self.kings_at[i]:
            return False
        fates = [(t.deck.face_names[f], "self" if s == wseat else
                  "partner" if t.party_of[s] == t.party_of[wseat] else "opponent") for s, f in kings]
        if fates != self.fates[i]:
            return False
        p = t.party_of[wseat]
        if self.won[p] + total > self.targets[p] - (self.forced[p] if not last else 0):
            return False
        count = KingCount.copy_of(self.count)
        events = king_events(t, i, kings, wseat, count)
        got = [(t.deck.face_names[face], ev.name, first, points, parties)
               for ev, face, _owner, first, points, parties in events]
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
                    if t.points_last[t.face(c)] != t.points[t.face(c)] and not t.deck.face_royal[t.face(c)]),
                   key=t.face)
    if extra != sorted(scenario.promoted, key=t.face):
        return f"the last trick holds {extra} scoring extra, not {list(scenario.promoted)}"
    return None


# --- the report --------------------------------------------------------------------------------


def _split_key(sc: Scenario) -> tuple:
    """A class of scenarios: the shape, and how W's and S's totals split into events and card points."""
    w = sc.totals.index(max(sc.totals))
    s = 1 - w
    return (sc.shape(), sc.event_points[w], sc.card_points[w], sc.event_points[s], sc.card_points[s])


def _split_text(key: tuple) -> str:
    shape, we, wc, se, sc_ = key
    return f"{shape}; W {we + wc} = {we} events + {wc} cards, S {se + sc_} = {se} events + {sc_} cards"


@dataclass
class Witness:
    """A scenario and a game record that realises it."""

    scenario: Scenario
    record: GameRecord

    def text(self) -> str:
        sc = self.scenario
        w = sc.totals.index(max(sc.totals))
        events = "; ".join(k.text() for k in sc.kings)
        promo = ", ".join(sc.promoted) or "none"
        held = " and ".join(k.king for k in sc.kings if k.owner == w)
        return (f"{events}; promoted in the last trick: {promo} (+{sc.promoted_points}); W = party {w}"
                f"{f' (holds {held})' if held else ''}: "
                f"card points {sc.card_points}, totals {sc.totals} (dealer {self.record.dealer})")

    def as_json(self) -> dict:
        return {"scenario": self.scenario.as_json(), "record": self.record.model_dump(mode="json")}


@dataclass
class Row:
    """The verdict for one combination of readings."""

    readings: dict[str, str]
    verdict: str                     # impossible-arithmetic | impossible-structure | possible | unknown
    reason: str
    candidates: int = 0              # arithmetic decompositions
    viable: int = 0                  # of them, not ruled out by structure
    classes: list[str] = field(default_factory=list)       # viable shapes with W's and S's splits
    witnesses: list[Witness] = field(default_factory=list)  # one per class a game was found for
    unwitnessed: list[str] = field(default_factory=list)    # classes the search found no game for
    spent: int = 0                   # search nodes allotted (restarts × RESTART_NODES)

    @property
    def witness(self) -> GameRecord | None:
        return self.witnesses[0].record if self.witnesses else None

    def line(self) -> str:
        if self.verdict == "impossible-arithmetic":
            return f"impossible (arithmetic: {self.reason})"
        if self.verdict == "impossible-structure":
            return f"impossible (structure: {self.reason})"
        if self.verdict == "possible":
            return f"possible — witness found: {self.reason}"
        return f"arithmetically possible, no witness found within the budget ({self.reason})"

    def as_json(self) -> dict:
        return {"readings": self.readings, "verdict": self.verdict, "text": self.line(), "reason": self.reason,
                "candidates": self.candidates, "viable": self.viable, "classes": self.classes,
                "witnesses": [w.as_json() for w in self.witnesses], "unwitnessed": self.unwitnessed,
                "spent": self.spent}


@dataclass
class Report:
    """Verdicts for every combination of readings, with a text summary and JSON."""

    ruleset: str
    targets: tuple[int, ...]
    budget: int
    rows: list[Row]

    def as_json(self) -> dict:
        return {"ruleset": self.ruleset, "targets": list(self.targets), "budget": self.budget,
                "constraints": CONSTRAINTS, "rows": [r.as_json() for r in self.rows]}

    def json_text(self) -> str:
        return json.dumps(self.as_json(), ensure_ascii=False, indent=2)

    def table(self) -> str:
        """One line per combination: the readings and the verdict in a word."""
        keys = list(self.rows[0].readings) if self.rows else []
        word = {"impossible-arithmetic": "impossible (arithmetic)", "impossible-structure": "impossible (structure)",
                "possible": "possible — witness found", "unknown": "no witness within the budget"}
        width = [max(len(k), *(len(r.readings[k]) for r in self.rows)) for k in keys]
        lines = ["  ".join(k.ljust(w) for k, w in zip(keys, width)) + "  verdict"]
        for r in self.rows:
            lines.append("  ".join(r.readings[k].ljust(w) for k, w in zip(keys, width)) + "  " + word[r.verdict])
        return "\n".join(lines)

    def as_text(self) -> str:
        keys = list(self.rows[0].readings) if self.rows else []
        lines = [f"§12 worked example: can the parties end at {self.targets[0]} and {self.targets[1]}? "
                 f"(ruleset {self.ruleset}, search budget {self.budget} nodes per combination)", "",
                 self.table(), ""]
        for r in self.rows:
            lines.append(", ".join(f"{k}={r.readings[k]}" for k in keys) + ":")
            lines.append("    " + r.line())
            for w in r.witnesses:
                lines.append("      witness: " + w.text())
            for u in r.unwitnessed:
                lines.append("      no witness found for: " + u)
        possible = [r for r in self.rows if r.verdict == "possible"]
        lines.append("")
        lines.append(f"{len(possible)} of {len(self.rows)} combinations reach {self.targets[0]}/{self.targets[1]} "
                     f"in a real game; "
                     f"{sum(r.verdict == 'impossible-arithmetic' for r in self.rows)} fail on arithmetic, "
                     f"{sum(r.verdict == 'impossible-structure' for r in self.rows)} on structure, "
                     f"{sum(r.verdict == 'unknown' for r in self.rows)} undecided.")
        return "\n".join(lines)


def _structure_summary(cands: list[Scenario]) -> str:
    by: dict[str, list[Scenario]] = {}
    for s in cands:
        by.setdefault(s.constraint or "?", []).append(s)
    parts = []
    for cid, group in by.items():
        shapes = "; ".join(sorted({s.shape() for s in group}))
        parts.append(f"{cid} rules out {shapes} ({len(group)} candidates), e.g. {group[0].excluded}")
    return " | ".join(parts)


def judge(tables: Tables, targets: Sequence[int] = DEFAULT_TARGETS, budget: int = DEFAULT_BUDGET, seed: int = 0,
          readings: dict[str, str] | None = None) -> Row:
    """The verdict for one compiled ruleset: arithmetic, then structure, then a search for games.

    The viable scenarios are grouped into classes (shape, and how W's and S's
    totals split into events and card points); the budget is shared among the
    classes, and within a class the search moves round the scenarios (colours
    of the cards, which King is which) one restart at a time, until it finds a
    game for each class or the budget is spent.
    """
    t = tables
    readings = dict(readings if readings is not None else t.options)
    cands = scenarios(t, targets)
    row = Row(readings=readings, verdict="", reason="", candidates=len(cands))
    if not cands:
        row.verdict, row.reason = "impossible-arithmetic", arithmetic_obstacle(t, targets) or ""
        return row
    viable = [s for s in cands if s.viable]
    row.viable = len(viable)
    if not viable:
        row.verdict, row.reason = "impossible-structure", _structure_summary(cands)
        return row
    classes: dict[tuple, list[Scenario]] = {}
    for sc in viable:
        classes.setdefault(_split_key(sc), []).append(sc)
    row.classes = [_split_text(k) for k in classes]
    share = budget // len(classes)
    for n, (key, group) in enumerate(classes.items()):
        spent, turn = 0, 0
        while spent < share:
            sc = group[turn % len(group)]
            step = min(RESTART_NODES, share - spent)
            record = find_witness(t, sc, budget=step, seed=seed + 104729 * n + turn)
            spent += step
            turn += 1
            if record is not None:
                row.witnesses.append(Witness(sc, record))
                break
        else:
            row.unwitnessed.append(_split_text(key))
        row.spent += spent
    if row.witnesses:
        row.verdict = "possible"
        first = row.witnesses[0].scenario
        row.reason = (f"{first.shape()}; games found for {len(row.witnesses)} of {len(classes)} ways to split "
                      f"the totals (" + "; ".join(
                          f"W {w.scenario.event_points[i]} events + {w.scenario.card_points[i]} cards"
                          for w in row.witnesses for i in [w.scenario.totals.index(max(w.scenario.totals))]) + ")")
    else:
        row.verdict = "unknown"
        row.reason = (f"{len(viable)} scenario(s) survive arithmetic and structure "
                      f"({'; '.join(sorted({s.shape() for s in viable}))}), but the search found no game within "
                      f"{budget} nodes")
    return row


def report(readings: dict[str, Iterable[str]] | None = None, *, ruleset: str = "original",
           targets: Sequence[int] = DEFAULT_TARGETS, budget: int = DEFAULT_BUDGET, seed: int = 0) -> Report:
    """Verdicts for every combination of the readings (lacuna name → options to try).

    The default sweeps ``remaining`` × ``promoted-points`` × ``king-order``
    (:data:`READINGS`), the lacunae the totals depend on.
    """
    readings = {k: tuple(v) for k, v in (readings or READINGS).items()}
    rows = []
    for combo in itertools.product(*readings.values()):
        options = dict(zip(readings, combo))
        t = tables_for(ruleset, tuple(sorted(options.items())))
        rows.append(judge(t, targets, budget, seed, options))
    return Report(ruleset=ruleset, targets=tuple(targets), budget=budget, rows=rows)


__all__ = ["DEFAULT_TARGETS", "DEFAULT_BUDGET", "READINGS", "CONSTRAINTS", "KingFate", "Scenario", "Witness", "Row",
           "Report", "scenarios", "arithmetic_obstacle", "find_witness", "witness_problem", "judge", "report"]
