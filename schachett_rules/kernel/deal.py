"""The deal: seats named in clauses, the shuffle, and the choice of the k-th card of a set.

Every path that deals or draws a card uses these, so that the recorded engine,
the fast play-outs and the studies deal the same hands from the same random
numbers.

>>> import random
>>> from schachett_rules.kernel.compiler import tables_for
>>> t = tables_for("original")
>>> hands = deal_cards(t, 3, random.Random(1))
>>> [h.bit_count() for h in hands], sum(hands) == t.full_mask
([13, 13, 13, 13], True)
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from ..errors import RecordError, UnknownCard
from .core import kth, named_seat, shuffle, tableau_piles
from .tables import Tables


def cards_in(mask: int) -> Iterator[int]:
    """The cards of a bitmask, lowest first (a step per card held, not per card of the deck).

    >>> list(cards_in(0b10110))
    [1, 2, 4]
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def pick(mask: int, r: float) -> int:
    """The card a uniform random choice ``r`` in [0, 1) picks from a bitmask: the k-th lowest, k = floor(r × count).

    >>> pick(0b10110, 0.0), pick(0b10110, 0.99)
    (1, 4)
    """
    k = kth(mask.bit_count(), r)
    while k:
        mask &= mask - 1
        k -= 1
    return (mask & -mask).bit_length() - 1


def seat_of(t: Tables, base: str, offset: int, dealer: int) -> int:
    """A seat named relative to the dealer (or absolutely).

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> seat_of(tables_for("original"), "dealer", 1, 3)
    0
    """
    return named_seat(base == "dealer", offset, dealer, t.n_seats)


def deal_cards(t: Tables, dealer: int, rng: random.Random) -> list[int]:
    """Deal the hands as the deal clause says: face-up cards first, then the rest shuffled.

    The shuffle is a Fisher-Yates driven by ``rng.random()``, one number per card.
    """
    return deal_full(t, dealer, rng)[0]


def deal_full(t: Tables, dealer: int, rng: random.Random) -> tuple[list[int], int, int, tuple]:
    """The deal whole: the hands (:func:`deal_cards`), the stock left over (a bitmask), the card turned up (-1:
    none): the stock's first card in the shuffled order, or the last card dealt to the dealer; and the tableau's
    piles, ``(card on top, card covered)``: of each hand the first cards dealt lie face down, each covered by
    one of the next."""
    n = t.n_seats
    hands = [0] * n
    for card, seat in t.dealt_to(dealer):
        hands[seat] |= 1 << card
    cards = list(t.rest_cards)
    rnd = rng.random
    shuffle(cards, [rnd() for _ in range(len(cards) - 1)], 0)
    pos, size, last_to_dealer = 0, t.hand_size, -1
    covered = t.flow.covered if t.flow is not None else 0
    piles = []
    for seat in range(n):
        h = hands[seat]
        need = size - h.bit_count()
        share = cards[pos:pos + need]
        piles += [(share[covered + i], share[i]) for i in range(tableau_piles(covered, need))]
        for c in share:
            h |= 1 << c
        if need and seat == dealer:
            last_to_dealer = cards[pos + need - 1]
        hands[seat] = h
        pos += need
    stock = 0
    for c in cards[pos:]:
        stock |= 1 << c
    flow = t.flow
    turned = -1
    if flow is not None and flow.turn == "stock" and pos < len(cards):
        turned = cards[pos]
    elif flow is not None and flow.turn == "dealer":
        turned = last_to_dealer
    return hands, stock, turned, tuple(piles)


def record_piles(t: Tables, masks: list[int], hands: list[list[str]]) -> tuple:
    """A recorded tableau: of each hand as the record lists it, the first cards lie face down and the next cover
    them in order (as :func:`deal_full` lays them)."""
    covered = t.flow.covered if t.flow is not None else 0
    if not covered:
        return ()
    piles = []
    for seat, hand in enumerate(hands):
        cards, taken = [], 0
        for name in hand:
            free = t.deck.face_cards[t.face(name)] & masks[seat] & ~taken
            card = (free & -free).bit_length() - 1
            taken |= 1 << card
            cards.append(card)
        piles += [(cards[covered + i], cards[i]) for i in range(tableau_piles(covered, len(cards)))]
    return tuple(piles)


def names_of(t: Tables, mask: int) -> tuple[str, ...]:
    """Card names of a bitmask, in deck order (copies of a face once each).

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> t = tables_for("original")
    >>> names_of(t, t.deck.face_cards[t.face("wT")] | t.deck.face_cards[t.face("w7")])
    ('wT', 'wT', 'w7')
    """
    name = t.deck.card_name
    return tuple(name(c) for c in cards_in(mask & t.full_mask))


def sort_cards(t: Tables, names) -> list[str]:
    """Cards as a hand is shown, at the terminal and at a table online: by kind (in the deck's order of kinds),
    then colour, then rank from high to low.

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> sort_cards(tables_for("original"), ["w7", "sIV", "wK", "wD", "s8"])
    ['wD', 'wK', 'w7', 's8', 'sIV']
    """
    d = t.deck

    def key(name: str):
        f = t.face(name)
        return d.kinds.index(d.face_kind[f]), d.face_colour[f], -t.rank[f], f
    return sorted(names, key=key)


def hands_of_record(t: Tables, dealer: int, hands: list[list[str]], stock: list[str] | None = None,
                    turned: str | None = None) -> tuple[list[int], int, int]:
    """A recorded deal as hand bitmasks, the stock's bitmask and the turned card, checked against the deal
    clause: hand sizes, the stock, the deck, the face-up cards, the card turned up."""
    if not isinstance(dealer, int) or not 0 <= dealer < t.n_seats:
        raise RecordError(f"dealer {dealer!r} is not a seat of this table (seats 0 to {t.n_seats - 1})")
    if len(hands) != t.n_seats:
        raise RecordError(f"the record deals {len(hands)} hands, but ruleset {t.name} seats {t.n_seats}")
    taken = 0

    def take(name: str, where: str) -> int:
        nonlocal taken
        try:
            face = t.face(name)
        except UnknownCard as err:
            raise RecordError(f"{where}: {err.message}") from None
        free = t.deck.face_cards[face] & ~taken
        if not free:
            copies = t.deck.face_cards[face].bit_count()
            raise RecordError(f"{where}: {name} is dealt more often than the deck has it "
                              f"({copies} {'copy' if copies == 1 else 'copies'})")
        card = (free & -free).bit_length() - 1
        taken |= 1 << card
        return 1 << card

    masks = []
    for seat, hand in enumerate(hands):
        if len(hand) != t.hand_size:
            raise RecordError(f"seat {seat} is dealt {len(hand)} cards, but the deal clause gives {t.hand_size}")
        mask = 0
        for name in hand:
            mask |= take(name, f"seat {seat}'s hand")
        masks.append(mask)
    flow = t.flow
    size = flow.stock if flow is not None else 0
    stock = list(stock or [])
    if len(stock) != size:
        raise RecordError(f"the record leaves {len(stock)} card{'s' if len(stock) != 1 else ''} in the stock, but the "
                          f"deal clause leaves {size}")
    stock_mask = 0
    for name in stock:
        stock_mask |= take(name, "the stock")
    turned_card = -1
    turn = flow.turn if flow is not None else ""
    if turn and turned is None:
        raise RecordError("the deal clause turns a card up, so the record must say which (\"turned\")")
    if turned is not None:
        if not turn:
            raise RecordError(f"the record turns {turned} up, but the deal clause turns no card up")
        try:
            face = t.face(turned)
        except UnknownCard as err:
            raise RecordError(f"the turned card: {err.message}") from None
        where = stock_mask if turn == "stock" else masks[dealer]
        found = where & t.deck.face_cards[face]
        if not found:
            place = "the stock" if turn == "stock" else "the dealer's hand"
            raise RecordError(f"the turned card {turned} must come from {place}, which does not hold it")
        turned_card = (found & -found).bit_length() - 1
    for face, base, offset in t.gives:
        seat = seat_of(t, base, offset, dealer)
        if not masks[seat] & t.deck.face_cards[face]:
            where = f"dealer + {offset}" if base == "dealer" and offset else ("the dealer" if base == "dealer" else f"seat {offset}")
            raise RecordError(f"the deal clause gives {t.deck.face_names[face]} face up to {where} (seat {seat}), "
                              f"but the record deals it elsewhere")
    return masks, stock_mask, turned_card, record_piles(t, masks, hands)
