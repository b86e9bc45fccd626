"""The compiled tables: everything a game is played from, as tuples of ints and small records.

A :class:`Tables` is built once per ruleset by :mod:`.compiler`; every path
that plays (the engine, the play-outs, the bots, the studies, the site) reads
the rules from it, through the queries of this package.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..language import ir
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

    def takes(self, new: int, holder: int, last: bool = False) -> bool:
        """Whether a card of face ``new`` takes the trick from face ``holder``."""
        return bool((self.beats_last if last else self.beats)[new] >> holder & 1)

    def explain(self, new: int, holder: int, last: bool = False) -> str:
        """Why ``new`` does or does not take the trick from ``holder``, citing the clause."""
        d = self.deck
        n, h = d.face_names[new], d.face_names[holder]
        en, eh = (self.promoted_as[new], self.promoted_as[holder]) if last else (new, holder)
        promo = ""
        if last and (en != new or eh != holder):
            parts = [f"{d.face_names[x]} counts as {d.face_names[y]}" for x, y in ((new, en), (holder, eh)) if x != y]
            promo = " (last trick: " + ", ".join(parts) + ")"
        kind = d.face_kind[en]
        words, cite = self.capture_words.get(kind, (f"a {kind} takes nothing", ""))
        if self.takes(new, holder, last):
            if self.rank[en] == self.rank[eh]:
                rule, tcite = self.tie_words.get(kind, ("later", ""))
                return f"{n} takes {h}{promo}: of two equal cards the later played takes ({tcite})"
            return f"{n} takes {h}{promo}: {words} ({cite})"
        may = self.capture_victims.get(kind, (0,) * len(d.colours))[d.face_colour[en]] >> eh & 1
        if not may:
            return f"{n} does not take {h}{promo}: {words} ({cite})"
        if self.rank[en] == self.rank[eh]:
            rule, tcite = self.tie_words.get(kind, ("first", cite))
            return f"{n} does not take {h}{promo}: of two equal cards the first played holds ({tcite or cite})"
        if self.capture_dir.get(kind, "lower") == "higher":
            return f"{n} does not take {h}{promo}: it ranks higher, and {words} ({cite})"
        return f"{n} does not take {h}{promo}: it ranks lower ({self.rank_cite})"

    rank_cite: str = ""
    given_cards: tuple[tuple[int, str, int], ...] = ()   # (card, 'dealer'|'seat', offset), dealt face up
    rest_cards: tuple[int, ...] = ()                      # the cards shuffled and dealt after them
    lead_cites: tuple[str, str] = ("", "")
    capture_victims: dict = field(default_factory=dict)  # kind -> face bitmask it may take, per colour
    capture_dir: dict = field(default_factory=dict)      # kind -> 'lower' | 'higher'
    castling: CastleTable | None = None
    no_castling_cite: str = ""                           # the citation of a `castling: none` clause
    dummies: tuple[DummyTable, ...] = ()
    automaton: tuple[tuple[int, ...], str] | None = None   # seats played by a fixed rule, and the rule
    review: int = 0                                      # finished tricks a player may look at
    memory: str = "every"                                # every | review
    first_dealer: int = 0                                # the seat that deals a session's first game (dealer)
    deal_step: int = 1                                   # +1: the deal passes left; -1: to the right
    dealer_cite: str = ""

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
        """The seat that plays after ``seat`` (play goes to the left)."""
        return (seat + 1) % self.n_seats

    def partners(self, seat: int) -> tuple[int, ...]:
        """The other seats of ``seat``'s party."""
        return tuple(s for s in self.parties[self.party_of[seat]] if s != seat)

    def opponents(self, seat: int) -> tuple[int, ...]:
        """The seats of the other parties."""
        return tuple(s for s in range(self.n_seats) if self.party_of[s] != self.party_of[seat])

    def other_parties(self, party: int) -> tuple[int, ...]:
        """Every party but ``party`` (with two parties: the one other)."""
        return tuple(p for p in range(len(self.parties)) if p != party)

    def fate_of(self, seat: int, winner: int) -> str:
        """How a King played from ``seat`` fares when ``winner`` takes the trick: the ``when`` of its event.

        ``'self'`` if it took the trick, ``'partner'`` if a partner of its seat
        did, ``'opponent'`` if an opponent did (the event tables' words).
        """
        if seat == winner:
            return "self"
        return "partner" if self.party_of[seat] == self.party_of[winner] else "opponent"

    def dealt_to(self, dealer: int) -> tuple[tuple[int, int], ...]:
        """The cards the deal gives face up, as (card, seat), when ``dealer`` deals."""
        return tuple((card, (dealer + offset) % self.n_seats if base == "dealer" else offset % self.n_seats)
                     for card, base, offset in self.given_cards)

    def seat_label(self, seat: int, dealer: int) -> str:
        """A seat named by its place from the dealer: 'the dealer', "the dealer's left", 'opposite the dealer' …"""
        return seat_words(seat - dealer, self.n_seats)

    def party_name(self, party: int, dealer: int) -> str:
        """A party's short name, from the dealer: "the dealer's party", "the party on the dealer's left" …"""
        return party_words(tuple(s - dealer for s in self.parties[party]), self.n_seats)

    def party_label(self, party: int, dealer: int) -> str:
        """A party named once for a reader: its name from the dealer, its seats and the cards dealt to it face up.

        With the deal of ``original`` (wK to the dealer, sK to the dealer's left), when seat 3 deals,
        party 1 (seats 1 and 3) is "the dealer's party (seats 1 and 3), which holds the wK".
        """
        face_up = tuple(self.deck.card_name(card) for card, seat in self.dealt_to(dealer)
                        if self.party_of[seat] == party)
        return describe_party(self.party_name(party, dealer), self.parties[party], face_up)

    def opposite(self, seat: int) -> int:
        """The seat across the table."""
        return (seat + self.n_seats // 2) % self.n_seats
