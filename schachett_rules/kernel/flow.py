"""The tables of what happens before the first card, and of a game's own parties: the flow of a ruleset.

Most of the family's games decide something at the table before play: cards are
passed (Hearts), a card is turned for trumps (Whist, Euchre), a contract is bid
and its declarer may call a partner or go alone (Schafkopf, five-hand Euchre),
the declarer takes up the stock and discards. A :class:`Flow` holds all of this
as the compiler built it from the clauses; :class:`ContractTable` holds each
contract, its play tables compiled once per trump colour.

Who plays with whom may be settled only by the deal or the bidding (the holders
of the Old Ones, the called Ace's holder, a player going alone). The tables a
game is played from are then the contract's tables with that game's parties,
the seats that sit it out and the card called: :func:`game_tables` makes them,
once per combination, and the state plays on them as on any other tables.

>>> from schachett_rules.kernel.compiler import tables_for
>>> t = tables_for("hearts")
>>> t.flow.passing, t.flow.contracts
((3, ('left', 'right', 'across', 'none')), ())
"""

from __future__ import annotations

import dataclasses
import functools
import threading
from dataclasses import dataclass, field
from fractions import Fraction

from .core import party_of_seat
from .tables import Tables

PARTNER_RULES = ("fixed", "called", "none", "first-trick", "holders", "each", "taker")


@dataclass(frozen=True)
class Offer:
    """A bid a round of the auction offers: a contract, for which colours, and its place in the round's order."""

    contract: int                  # index into Flow.contracts
    colour: str                    # any | turned | not-turned
    rank: int                      # higher outbids lower (a round whose first bid wins ranks them alike)


@dataclass(frozen=True)
class RoundTable:
    """One round of bidding: each player once, in turn from the first bidder."""

    offers: tuple[Offer, ...]
    mode: str                      # first: the first bid ends the auction; highest: the best bid after the round


@dataclass(frozen=True)
class OfferTable:
    """A contract's offer compiled (the ``offer`` clause): the declarer's one card of ``cards`` goes to the first
    other player asked who takes it, who gives back ``back_count`` cards of ``back`` and is his partner."""

    cards: tuple[int, ...]                # per variant: the cards (a bitmask) of which the declarer offers his one
    back: tuple[int, ...]                 # per variant: the cards the taker may give back
    back_count: int
    face_up: bool                         # the card offered is shown to all (face down: to the taker alone)
    first: tuple[str, int]                # the first seat asked, named from the dealer or absolutely
    refused: str                          # redeal | alone: what follows when nobody takes it
    cite: str
    refused_cite: str

    def offered(self, colour: int) -> int:
        """The cards offered in the variant of trump ``colour``."""
        return self.cards[colour if len(self.cards) > 1 else 0]

    def given_back(self, colour: int) -> int:
        """The cards that may be given back in the variant of trump ``colour``."""
        return self.back[colour if len(self.back) > 1 else 0]


@dataclass(frozen=True)
class ContractTable:
    """A contract compiled: its play tables (one per trump colour when it is played for each colour) and what it
    asks of the bidder, the call, the partner, the exchange and the settlement."""

    name: str
    title: str
    cite: str
    each_colour: bool
    variants: tuple[Tables, ...]          # by trump colour (each_colour), else one
    requires: tuple[tuple[int, bool], ...]  # per variant: the cards the bidder must hold, and whether all (or one)
    requires_cite: str
    call: tuple[int, ...]                 # per variant: the cards (a bitmask) the declarer may call; 0: no call
    call_not_held: bool
    call_colour_held: bool
    call_held: bool                       # he must hold a copy (two decks: its other copies' holders partner him)
    call_cite: str
    partner: str                          # one of PARTNER_RULES
    partner_cite: str
    sit_out: bool
    exchange: tuple[str, str, int] | None  # (who, takes, discards)
    exchange_cite: str
    requires_exactly: int = -1            # the bidder holds exactly this many of the required cards (-1: all or one)
    offer: OfferTable | None = None       # the declarer offers a card, and its taker plays with him

    def tables(self, colour: int) -> Tables:
        """The play tables of this contract for trump ``colour`` (any colour for a contract of one)."""
        return self.variants[colour if self.each_colour else 0]


@dataclass(frozen=True)
class Flow:
    """Everything that happens between the deal and the first card, compiled."""

    passing: tuple[int, tuple[str, ...]] | None = None      # (cards, directions by game number)
    passing_cite: str = ""
    stock: int = 0                                          # cards left over after the hands are dealt
    turn: str = ""                                          # '' | 'stock' (its top card) | 'dealer' (his last card)
    covered: int = 0                                        # tableau: cards of a hand dealt face down, covered
    first_bidder: tuple[str, int] = ("dealer", 1)
    rounds: tuple[RoundTable, ...] = ()
    all_pass: str = "redeal"                                 # redeal | play | dealer
    all_pass_offer: Offer | None = None
    auction_cite: str = ""
    has_auction: bool = False
    contracts: tuple[ContractTable, ...] = ()
    exchange: tuple[str, str, int] | None = None            # a ruleset's own exchange, where no contract is bid
    exchange_cite: str = ""
    partner: str = "fixed"                                  # the ruleset's own parties rule where no contract says
    holders: int = 0                                        # parties: holders of these cards (a bitmask)
    _games: dict = field(default_factory=dict, compare=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, compare=False, repr=False)

    def contract_index(self, name: str) -> int:
        """The number of a contract by its name."""
        for i, c in enumerate(self.contracts):
            if c.name == name:
                return i
        raise KeyError(name)


@functools.lru_cache(maxsize=4096)
def partition(n_seats: int, rule: str, declarer: int, partner: int, holders: tuple[int, ...],
              fixed: tuple[int, ...]) -> tuple[int, ...]:
    """Seat -> party for a game: party 0 is the declarer's (or the holders'), party 1 everyone else.

    >>> partition(4, "called", 2, 0, (), ()), partition(4, "none", 1, -1, (), ()), partition(4, "each", -1, -1, (), ())
    ((0, 1, 0, 1), (1, 0, 1, 1), (0, 1, 2, 3))
    >>> partition(4, "holders", -1, -1, (3, 1), ()), partition(4, "taker", 1, 2, (), ())
    ((1, 0, 1, 0), (1, 0, 0, 1))
    """
    code = PARTNER_RULES.index(rule)
    seats = sum(1 << s for s in holders)
    return tuple(party_of_seat(code, s, declarer, partner, seats, fixed[s] if fixed else 0) for s in range(n_seats))


def game_tables(flow: Flow | None, t: Tables, party_of: tuple[int, ...], sitting: int = 0, called: int = -1,
                declarer: int = -1, declarer_party: int = -1) -> Tables:
    """The tables of one game: ``t`` (a contract's, or the ruleset's) with this game's parties, the seats that sit
    it out (a bitmask), the card called (-1: none), the declarer (-1: none) and the declaring party (the
    declarer's; where the holders of some cards play together, theirs; -1: none).

    Made once per combination and kept by the ruleset's ``flow``, under a lock, so threads share them.
    """
    if declarer >= 0:
        declarer_party = party_of[declarer]
    key = (id(t), party_of, sitting, called, declarer, declarer_party)
    if flow is not None:
        with flow._lock:
            hit = flow._games.get(key)
            if hit is not None:
                return hit
    if party_of == t.party_of and not sitting and called < 0 and declarer < 0 and declarer_party < 0:
        return t
    n_parties = max(party_of) + 1
    parties = tuple(tuple(s for s in range(t.n_seats) if party_of[s] == p) for p in range(n_parties))
    names = t.party_names if len(t.party_names) == n_parties and t.party_names_fixed else tuple(
        " and ".join(t.seat_names[s] for s in p) if len(p) < 3 else
        ", ".join(t.seat_names[s] for s in p[:-1]) + " and " + t.seat_names[p[-1]] for p in parties)
    called_face = t.deck.card_face[called] if called >= 0 else -1
    extra = {}
    if called_face >= 0 and called_face in t.restrictions_by_called:
        extra = dict(restrictions=t.restrictions_by_called[called_face],
                     obligations=t.obligations_by_called[called_face],
                     restriction_words=t.restriction_words_called, obligation_words=t.obligation_words_called)
    game = dataclasses.replace(t, party_of=party_of, parties=parties, party_names=names, sitting=sitting,
                               called=called, declarer=declarer, declarer_party=declarer_party, **extra)
    if flow is not None:
        with flow._lock:
            game = flow._games.setdefault(key, game)
    return game


def value_env(t: Tables) -> dict[str, Fraction]:
    """The contract's named values (``value`` clauses), for its settlement and game points."""
    return dict(t.values)
