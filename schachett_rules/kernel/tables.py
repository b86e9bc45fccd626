"""The compiled tables: everything a game is played from, as tuples of ints and small records.

A :class:`Tables` is built once per ruleset by :mod:`.compiler`; every path
that plays (the engine, the play-outs, the bots, the studies, the site) reads
the rules from it, through the queries of this package.
"""

from __future__ import annotations

import functools
import threading
import weakref
from dataclasses import dataclass, field

from ..language import ir
from .core import named_seat, next_seat, seat_at
from ..language.cards import Deck
from ..rules.seating import describe_party, party_words, seat_words


@dataclass(frozen=True)
class EventTable:
    """A King event compiled: when it happens, who scores, points by trick."""

    name: str
    when: str                         # 'opponent' | 'partner' | 'self'
    scores: str                       # 'taker' | 'owner' | 'opponents'
    first: tuple[int, ...]            # points by trick index when this is the first King
    later: tuple[int, ...]
    cite: str


@dataclass(frozen=True)
class CastleTable:
    """Castling compiled: who may castle when, with which officers, how often."""

    permits: tuple[tuple[tuple[tuple[str, int], ...], bool, str, int | None], ...]  # (seats, any King holder, when, trick)
    officer_faces: int                                                              # face bitmask
    limit: str                                                                      # game | party | seat | none
    cite: str
    with_seat: tuple[int, ...] = ()      # seat -> the seat whose hand its castle reaches (castle with)
    rescue_fates: tuple[str, ...] = ()   # the fates a rescue may undo (castle rescue), as in EventTable.when
    other_king_before_play: bool = False  # castle king: before play, a seat without a King may take the reached hand's
    per_moment: str = "one"               # castle moment: one castle ends a moment, or each seat may castle once

    def partner_for(self, seat: int) -> int:
        """The seat whose hand a castle from ``seat`` exchanges with."""
        return self.with_seat[seat]

    @property
    def rescue_own_take(self) -> bool:
        """Whether a King whose own seat holds the trick (it wins the trick itself) may be rescued."""
        return "self" in self.rescue_fates

    def may_rescue(self, fate: str) -> bool:
        """Whether a rescue may undo a King's ``fate`` ('opponent', 'partner' or 'self')."""
        return fate in self.rescue_fates


@dataclass(frozen=True)
class DummyTable:
    """A dummy hand: its seat, the seat that plays it, when it is laid open."""

    seat: int
    by: int
    exposed_after: int
    one_hand_at_a_time: bool
    cite: str


@dataclass(frozen=True, repr=False)
class Tables:
    """Everything the engine needs, as tuples of ints and small records."""

    def __repr__(self) -> str:
        return f"<Tables {self.name}: {self.n_cards} cards, {self.n_seats} seats, {self.n_tricks} tricks>"

    name: str
    deck: Deck
    n_cards: int
    n_faces: int
    n_seats: int
    hand_size: int
    n_tricks: int
    full_mask: int
    royal_cards: int
    follow: tuple[tuple[int, ...], ...]          # led face -> card masks, tier by tier
    follow_words: tuple[tuple[str, ...], ...]    # led face -> each tier in words
    follow_cite: tuple[str, ...]                 # led face -> the follow clause's citation
    beats: tuple[int, ...]                       # face -> faces it takes when they hold the trick
    beats_last: tuple[int, ...]                  # the same in the last trick
    rank: tuple[int, ...]                        # face -> rank key (higher is stronger)
    promoted_as: tuple[int, ...]                 # face -> the face it counts as in the last trick
    points: tuple[int, ...]
    points_last: tuple[int, ...]
    party_of: tuple[int, ...]
    parties: tuple[tuple[int, ...], ...]
    gives: tuple[tuple[int, str, int], ...]      # (face, 'dealer'|'seat', offset)
    first_lead: tuple[str, int]
    events: tuple[EventTable, ...]
    count_each_event: bool
    same_trick_all_first: bool
    settlement: ir.Settlement
    stake: str = "seat"                          # seat: every seat settles; player: every player once (stake clause)
    penalty_rounding: str = "each"               # each: every penalty rounded; game: a game's debts summed first
    penalties: dict = field(default_factory=dict)
    capture_words: dict = field(default_factory=dict)   # kind -> (words, cite)
    tie_words: dict = field(default_factory=dict)       # kind -> (rule, cite)
    options: tuple[tuple[str, str], ...] = ()

    def face(self, name: str) -> int:
        """Face index of a card name."""
        return self.deck.face(name)

    rank_cite: str = ""
    given_cards: tuple[tuple[int, str, int], ...] = ()   # (card, 'dealer'|'seat', offset), dealt face up
    rest_cards: tuple[int, ...] = ()                      # the cards shuffled and dealt after them
    lead_cites: tuple[str, str] = ("", "")
    capture_victims: dict = field(default_factory=dict)  # group -> per capture rule, the faces it may take by colour
    capture_dir: dict = field(default_factory=dict)      # group -> per capture rule, 'lower' | 'higher' | 'any'
    capture_rule_words: dict = field(default_factory=dict)  # group -> per capture rule, (its words, its citation)
    face_group: tuple[str, ...] = ()                     # face -> its class (the first holding it), else its kind
    castling: CastleTable | None = None
    no_castling_cite: str = ""                           # the citation of a `castling: none` clause
    dummies: tuple[DummyTable, ...] = ()
    automaton: tuple[tuple[int, ...], str] | None = None   # seats played by a fixed rule, and the rule
    automaton_passes: str | None = None                   # highest | lowest: the cards those seats pass
    automaton_bids: str | None = None                     # never | forced: how those seats bid (pass, or when made to)
    automaton_lays: str | None = None                     # highest | lowest: the cards those seats lay away
    automaton_calls: str | None = None                    # highest | lowest: the card those seats call
    review: int = 0                                      # finished tricks a player may look at
    memory: str = "every"                                # every | review
    first_dealer: int = 0                                # the seat that deals a session's first game (dealer)
    deal_step: int = 1                                   # +1: the deal passes left; -1: to the right
    dealer_cite: str = ""
    never_castle: int = 0                                # seats (a bitmask) whose player never castles (automaton)
    seat_names: tuple[str, ...] = ()                     # the seat names clause, seat by seat
    party_names: tuple[str, ...] = ()                    # the party names clause (or the seats' names joined)
    event_of: tuple[int, int, int] = (-1, -1, -1)        # self, partner, opponent -> the event's index, -1 for none
    strength_order: tuple[int, ...] = ()                 # card -> its place by rank, points, deck order (automaton)
    castle_permits: tuple = ()                           # the castling permits as int tuples (castling.Permits)
    castle_officers: int = 0                             # the cards (a bitmask) that may be taken for a King
    # what the family's games add: restrictions on play, the first lead by a card, a game's own parties
    restrictions: tuple[tuple[int, int, int, int, int], ...] = ()   # (act, when, cards, until, holding): restrict
    restrictions_by_called: dict = field(default_factory=dict)     # called face -> restrictions naming the called card
    restriction_words: tuple[tuple[str, str], ...] = ()            # per restriction: its name, its citation
    obligations: tuple[tuple[int, int], ...] = ()                   # (cards led, cards then owed)
    obligations_by_called: dict = field(default_factory=dict)
    obligation_words: tuple[tuple[str, str], ...] = ()
    restriction_words_called: tuple[tuple[str, str], ...] = ()     # the same once a card is called
    obligation_words_called: tuple[tuple[str, str], ...] = ()
    first_lead_card: int = -1                            # the holder of this card leads the first trick (-1: a seat)
    sitting: int = 0                                     # seats (a bitmask) that sit this game out
    called: int = -1                                     # the card called in this game
    declarer: int = -1                                   # the declarer of this game (-1: none)
    declarer_party: int = -1                             # the declaring party: the declarer's, or the holders'; -1
    trump: int = -1                                      # the contract's trump colour (-1: none named)
    contract: str = ""                                   # the contract these tables play ('' for a ruleset of one)
    values: tuple[tuple[str, object], ...] = ()          # the contract's named values (value clauses)
    game_points: object = None                           # the game points clause (ir.GamePoints), or None
    runners: tuple[int, ...] = ()                        # the runners clause's cards, highest first
    party_names_fixed: bool = False                      # the party names clause names parties made in the game
    flow: object = None                                  # the flow (kernel.flow.Flow): passing, bidding, contracts

    @property
    def money_unit(self) -> str:
        """What a game's settlement is counted in ('cents'), or '' for a game settled by game points alone."""
        return self.settlement.unit if self.settlement is not None else ""

    @property
    def n_active(self) -> int:
        """The seats that play this game (all but those sitting it out): the cards of a full trick."""
        return self.n_seats - self.sitting.bit_count()

    @property
    def n_players(self) -> int:
        """The people at the table: one for each seat that plays its own cards (a dummy's are played by another).

        >>> from schachett_rules.kernel.compiler import tables_for
        >>> tables_for("original").n_players, tables_for("three-player").n_players, tables_for("two-player").n_players
        (4, 3, 2)
        """
        return len({self.controller(s) for s in range(self.n_seats) if not self.sitting >> s & 1})

    @property
    def counts_kings(self) -> bool:
        """Whether a game counts Kings' fates (Schachett's checkmate and the rest; the family's games do not)."""
        return bool(self.events)

    @property
    def counts_card_points(self) -> bool:
        """Whether the cards carry points (Schachett's, Schafkopf's, Hearts'; not Euchre's or Whist's)."""
        return any(self.points) or any(self.points_last)

    def seat_name(self, seat: int) -> str:
        """What a seat is called at the table (the seat names clause): 'South', 'the Kaiser' ...

        >>> from schachett_rules.kernel.compiler import tables_for
        >>> tables_for("original").seat_name(1), tables_for("three-player").seat_name(2)
        ('West', 'the dummy')
        """
        return self.seat_names[seat]

    def seat_title(self, seat: int) -> str:
        """A seat's name with its number, for a reader who also reads records: 'West (seat 1)'."""
        name = self.seat_names[seat]
        return name if name == f"seat {seat}" else f"{name} (seat {seat})"

    def party_title(self, party: int) -> str:
        """What a party is called (the party names clause, or its seats' names): 'South and North' ..."""
        return self.party_names[party]

    def first_leader(self, dealer: int) -> int:
        """The seat that leads the first trick when ``dealer`` deals (the lead first clause)."""
        return named_seat(self.first_lead[0] == "dealer", self.first_lead[1], dealer, self.n_seats)

    def dealer_of(self, game: int) -> int:
        """The seat that deals game number ``game`` of a session (counted from 0), by the dealer clause."""
        return (self.first_dealer + self.deal_step * game) % self.n_seats

    def controller(self, seat: int) -> int:
        """The seat whose player plays this seat's cards (a dummy's are played by another)."""
        for d in self.dummies:
            if d.seat == seat:
                return d.by
        return seat

    def dummy_of(self, seat: int) -> DummyTable | None:
        """The dummy clause of a seat, if the seat is a dummy."""
        return next((d for d in self.dummies if d.seat == seat), None)

    def next_seat(self, seat: int) -> int:
        """The seat that plays after ``seat`` (play goes to the left, past any seat sitting the game out)."""
        return next_seat(self.sitting, seat, self.n_seats)

    def seat_at(self, leader: int, place: int) -> int:
        """The seat that plays the ``place``-th card (from 0) of a trick ``leader`` leads."""
        return seat_at(self.sitting, leader, place, self.n_seats)

    def partners(self, seat: int) -> tuple[int, ...]:
        """The other seats of ``seat``'s party."""
        return tuple(s for s in self.parties[self.party_of[seat]] if s != seat)

    def opponents(self, seat: int) -> tuple[int, ...]:
        """The seats of the other parties."""
        return tuple(s for s in range(self.n_seats) if self.party_of[s] != self.party_of[seat])

    def other_parties(self, party: int) -> tuple[int, ...]:
        """Every party but ``party`` (with two parties: the one other)."""
        return tuple(p for p in range(len(self.parties)) if p != party)

    def dealt_to(self, dealer: int) -> tuple[tuple[int, int], ...]:
        """The cards the deal gives face up, as (card, seat), when ``dealer`` deals."""
        return tuple((card, named_seat(base == "dealer", offset, dealer, self.n_seats))
                     for card, base, offset in self.given_cards)

    def seat_label(self, seat: int, dealer: int) -> str:
        """A seat named by its place from the dealer: 'the dealer', "the dealer's left", 'opposite the dealer' …"""
        return seat_words(seat - dealer, self.n_seats)

    def party_name(self, party: int, dealer: int) -> str:
        """A party's short name, from the dealer: "the dealer's party", "the party on the dealer's left" …"""
        return party_words(tuple(s - dealer for s in self.parties[party]), self.n_seats)

    def party_label(self, party: int, dealer: int) -> str:
        """A party named once for a reader: its name, its seats and the cards dealt to it face up when ``dealer`` deals.

        >>> from schachett_rules.kernel.compiler import tables_for
        >>> tables_for("original").party_label(1, 3)
        'West and East (seats 1 and 3), which holds the wK'
        """
        face_up = tuple(self.deck.card_name(card) for card, seat in self.dealt_to(dealer)
                        if self.party_of[seat] == party)
        return describe_party(self.party_names[party], self.parties[party], face_up, self.seat_names)

    def opposite(self, seat: int) -> int:
        """The seat across the table."""
        return (seat + self.n_seats // 2) % self.n_seats


def per_tables(build):
    """``build(t)`` made once for each :class:`Tables` and shared by every thread (a Tables never changes); the
    value goes when the tables do. A build that raises is asked again next time.

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> made = []
    >>> @per_tables
    ... def seats_twice(t):
    ...     made.append(t.name)
    ...     return 2 * t.n_seats
    >>> t = tables_for("original")
    >>> seats_twice(t), seats_twice(t), made
    (8, 8, ['original'])
    """
    values: dict[int, tuple] = {}
    lock = threading.Lock()

    @functools.wraps(build)
    def cached(t: Tables):
        key = id(t)
        with lock:
            entry = values.get(key)
            if entry is not None and entry[0]() is t:
                return entry[1]
        value = build(t)              # outside the lock: a build may ask for another table's value
        with lock:
            entry = values.get(key)
            if entry is not None and entry[0]() is t:
                return entry[1]       # another thread built it meanwhile: every caller shares one
            values[key] = (weakref.ref(t, lambda _ref, k=key: values.pop(k, None)), value)
        return value
    return cached
