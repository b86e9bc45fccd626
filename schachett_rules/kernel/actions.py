"""The actions of a game and its phases: small hashable tuples, cheap to make in a search.

An action names seats and cards as ints (cards as the deck numbers them). The
state (:mod:`.state`) says which are open; :mod:`.verify` says why one is not.

>>> Play(seat=0, card=17), Pass(seat=2)
(Play(seat=0, card=17), Pass(seat=2))
"""

from __future__ import annotations

from typing import NamedTuple

from . import castling as castle_rules

CHANCE = -1        # decider() while the cards are dealt
TERMINAL = -2      # decider() when the game is over
DEAL, CASTLE, PLAY, OVER, PASSING, AUCTION, CALL, EXCHANGE, OFFER, RETURN = range(10)
PHASES = ("deal", "castle", "play", "over", "passing", "auction", "call", "exchange", "offer", "return")
# the phases of decisions before the first card: cards passed, bids, a call, cards laid away, the answers to a card
# offered and the cards its taker gives back
BEFORE_PLAY = (PASSING, AUCTION, CALL, EXCHANGE, OFFER, RETURN)
BEFORE, BETWEEN, RESCUE = castle_rules.BEFORE, castle_rules.BETWEEN, castle_rules.RESCUE


class Deal(NamedTuple):
    """Chance deals: every seat's hand, as card bitmasks; the stock left over (a bitmask) and the card turned up
    (-1: none), where the deal clause leaves a stock or turns a card."""

    hands: tuple[int, ...]
    stock: int = 0
    turned: int = -1
    piles: tuple[tuple[int, int], ...] = ()     # a tableau: (the card on top, the card it covers)


class Play(NamedTuple):
    """A card played from the hand of ``seat`` (for a dummy, its player plays it)."""

    seat: int
    card: int


class Castle(NamedTuple):
    """``seat`` castles: ``king`` is exchanged for ``officer`` (see :class:`.castling.Option` for whose hands)."""

    seat: int
    king: int
    officer: int


class Pass(NamedTuple):
    """``seat`` lets its chance to castle at this moment go."""

    seat: int


class Give(NamedTuple):
    """``seat`` passes ``card`` on (the passing clause): it leaves his hand now and reaches the other hand when
    every player has passed. Where a card was offered and taken (the offer clause), its taker gives ``card`` back
    to the declarer."""

    seat: int
    card: int


class Bid(NamedTuple):
    """``seat`` bids contract number ``contract`` (of the flow's contracts) with trump ``colour`` (-1: the contract
    names none), or passes (``contract`` -1)."""

    seat: int
    contract: int = -1
    colour: int = -1


class Call(NamedTuple):
    """The declarer on ``seat`` calls ``card``: its holder is his partner."""

    seat: int
    card: int


class Discard(NamedTuple):
    """``seat`` discards ``card`` face down after taking up the turned card or the stock (the exchange clause)."""

    seat: int
    card: int


class Answer(NamedTuple):
    """``seat``, asked in turn, takes the card the declarer offers (``take``) or lets it lie (the offer clause)."""

    seat: int
    take: bool


class Penalty(NamedTuple):
    """A penalty clause applied to ``seat``; ``card`` the card taken back where the clause says so (-1: none)."""

    seat: int
    name: str
    card: int = -1




def describe(t, action) -> str:
    """An action in words, with card names (``w7``; ``seat 0 castles sK for wT``; ``seat 1 passes``).

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> t = tables_for("original")
    >>> describe(t, Play(0, t.deck.card_of("w7"))), describe(t, Pass(1))
    ('seat 0 plays w7', 'seat 1 lets the chance to castle go')
    """
    name = t.deck.card_name
    kind = type(action)
    if kind is Play:
        return f"seat {action.seat} plays {name(action.card)}"
    if kind is Castle:
        return f"seat {action.seat} castles {name(action.king)} for {name(action.officer)}"
    if kind is Pass:
        return f"seat {action.seat} lets the chance to castle go"
    if kind is Penalty:
        return f"penalty {action.name} on seat {action.seat}" + (f", {name(action.card)} taken back"
                                                                 if action.card >= 0 else "")
    if kind is Give:
        return f"seat {action.seat} passes {name(action.card)}"
    if kind is Answer:
        return f"seat {action.seat} {'takes the card offered' if action.take else 'lets the card offered lie'}"
    if kind is Call:
        return f"seat {action.seat} calls {name(action.card)}"
    if kind is Discard:
        return f"seat {action.seat} discards {name(action.card)}"
    if kind is Bid:
        if action.contract < 0:
            return f"seat {action.seat} passes"
        c = t.flow.contracts[action.contract]
        colour = f" in {t.deck.colour_names[action.colour]}" if action.colour >= 0 else ""
        return f"seat {action.seat} bids {c.title or c.name}{colour}"
    return "the deal"
