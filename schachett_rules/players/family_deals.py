"""What a seat knows of the hidden cards in the family's games: where each may lie, and how many lie there.

A card the seat cannot see lies in a *place* (:func:`places`): a seat's hand, the cards laid away in an
exchange, the cards left face down in the stock, or a seat's cards covered in a tableau (Officers' Schafkopf):
each face-up card still on its pile covers one, seen by nobody, and what turned up under a card played every
seat saw. Before play a family game passes cards (Hearts), turns
one up (Whist, Euchre), holds an auction, lets a player take up the turned card or the stock and lay cards
away, and calls a partner's card; the seat's observation (:mod:`schachett_rules.kernel.observation`) keeps
what that taught it. The cards it passed lie in the receiver's hand until he plays them; the card turned up
lies in the dealer's hand until he plays it, or, where he took it up, in his hand or among the cards he laid
away; the cards it laid away itself it knows; a card turned down again lies in the stock. Which cards another player laid away nobody else knows, nor
the stock he took up, nor who holds a called card: those lie in any place of the right size. The voids a
player showed by not following are read from the follow tiers of the game's own tables (the contract's, with
its trumps). :func:`known_cards`, :func:`place_sizes` and :func:`play_tables` give these to the sampler
(:class:`~.montecarlo.Sampler`); :mod:`.rebuild` makes a whole game of each deal it draws.

>>> from schachett_rules.kernel.compiler import tables_for
>>> from schachett_rules.kernel.state import State
>>> from schachett_rules.kernel.streams import GameStream
>>> t = tables_for("euchre")
>>> game = State.deal(t, 0, GameStream(3, 0))
>>> _ = game.apply(game.legal_actions()[0])                # the dealer's left orders the turned card up
>>> [a.seat for a in game.legal_actions()][:1], game.phase_name    # the dealer lays one card away
([0], 'exchange')
>>> _ = game.apply(game.legal_actions()[0])
>>> obs = game.observation(1)
>>> exchange(t, obs), place_sizes(t, obs)                  # five cards a hand, one laid away, three in the stock
((0, 'turned', 1), [5, 5, 5, 5, 1, 3])
>>> known_cards(t, obs) == [((0, laid_place(t)), obs.turned)]   # the turned card: the dealer's, kept or laid away
True
"""

from __future__ import annotations

from collections import Counter

from ..errors import SchachettError
from ..kernel.before_play import colour_mates_of
from ..kernel.core import WAYS, pass_step
from ..kernel.tables import Tables
from ..kernel.deal import names_of


def passing_step(t: Tables, obs) -> int | None:
    """How many seats to the left the cards went in this game (None: nobody passed)."""
    if not obs.received:
        return None
    sender = obs.received[0][0]
    return (obs.seat - sender) % t.n_seats


def receiver(t: Tables, obs) -> int | None:
    """The seat that received the cards ``obs.seat`` passed (every seat passes the same way), or None."""
    step = passing_step(t, obs)
    return None if step is None else (obs.seat + step) % t.n_seats


def game_number(t: Tables, obs) -> int:
    """A number of the game in its session that passes the way this game passed (the passing clause asks it)."""
    flow = t.flow
    if flow is None or flow.passing is None:
        return 0
    ways = flow.passing[1]
    step = passing_step(t, obs)
    for g, way in enumerate(ways):
        s = pass_step(WAYS.index(way), t.n_seats) % t.n_seats
        if (step is None and way == "none") or (step is not None and way != "none" and s == step):
            return g
    raise SchachettError(f"no game of {t.name} passes as seat {obs.seat} saw the cards passed")


def plays_of(obs) -> list[tuple[int, str]]:
    """Every card seen played, with its seat, in the order of play."""
    return [(s, name) for tr in obs.tricks for s, name in tr.cards] + list(obs.trick)


def played_faces(obs) -> Counter:
    """Every card seen played, by name (copies counted)."""
    return Counter(name for _, name in plays_of(obs))


def places(t: Tables) -> int:
    """How many places a card may lie in: every seat's hand, then the cards laid away (:func:`laid_place`: the
    exchanger's discards) and those left in the stock (:func:`stock_place`), face down; in a tableau, each
    seat's cards still covered (:func:`covered_place`), which nobody sees, their owner included."""
    return t.n_seats + 2 + (t.n_seats if t.flow is not None and t.flow.covered else 0)


def laid_place(t: Tables) -> int:
    """The place of the cards laid away in the exchange."""
    return t.n_seats


def stock_place(t: Tables) -> int:
    """The place of the cards left face down in the stock."""
    return t.n_seats + 1


def covered_place(t: Tables, seat: int) -> int:
    """The place of ``seat``'s cards still covered in a tableau (a seat's hand is then its face-up cards)."""
    return t.n_seats + 2 + seat


def still_covered(obs) -> Counter:
    """By seat, how many of its cards still lie covered: as many as its piles whose top is not yet played."""
    return Counter(seat for seat, _top, under in obs.tableau if under is None)


def exchange(t: Tables, obs) -> tuple[int, str, int] | None:
    """The exchange of this game as the whole table saw it: the seat that took cards up, what it took (the
    ``turned`` card or the ``stock``) and how many cards it laid away; None where nobody exchanged. The flow
    says it: the contract's exchange, or the ruleset's own where no contract was bid."""
    flow = t.flow
    if flow is None or obs.phase not in ("play", "castle", "over"):
        return None
    rule = flow.contracts[flow.contract_index(obs.contract)].exchange if obs.contract is not None else flow.exchange
    if rule is None:
        return None
    who, takes, discards = rule
    return (obs.dealer if who == "dealer" or obs.declarer is None else obs.declarer), takes, discards


def taken_up(t: Tables, obs) -> int:
    """How many cards the exchanger took up: the turned card, or the whole stock."""
    ex = exchange(t, obs)
    if ex is None:
        return 0
    return 1 if ex[1] == "turned" else t.flow.stock


def place_sizes(t: Tables, obs) -> list[int]:
    """How many cards lie in each place now (:func:`places`): a hand as dealt, less the cards its seat played
    and, in a tableau, those still covered, with the exchanger's cards taken up and laid away; the cards laid
    away; the stock left; each seat's covered cards."""
    n = t.n_seats
    played = Counter(s for s, _ in plays_of(obs))
    covered = still_covered(obs)
    size = [t.hand_size - played[s] - covered[s] for s in range(n)] + [0, t.flow.stock]
    size += [covered[s] for s in range(n)] if places(t) > n + 2 else []
    ex = exchange(t, obs)
    if ex is not None:
        seat, _takes, discards = ex
        took = taken_up(t, obs)
        size[seat] += took - discards
        size[laid_place(t)] = discards
        size[stock_place(t)] -= took
    return size


def known_cards(t: Tables, obs) -> list[tuple[tuple[int, ...], str]]:
    """The cards the seat knows to lie in a few places it cannot see, with those places (:func:`places`): its
    passed cards in the receiver's hand and the card turned up in the dealer's, while they are not yet played;
    the cards it laid away itself; the turned card a dealer took up in his hand or among the cards he laid
    away (the turned card is known by name: a copy of it seen played from another hand leaves it with the
    dealer)."""
    if t.flow is None:
        return []
    out = []
    seen = played_faces(obs)
    to = receiver(t, obs)
    for name in obs.passed:
        if seen[name]:
            seen[name] -= 1
        elif to is not None and to not in obs.hands:
            out.append(((to,), name))
    ex = exchange(t, obs)
    if ex is not None and ex[0] == obs.seat:
        out += [((laid_place(t),), name) for name in obs.discarded]
    if obs.turned_down is not None:
        out.append(((stock_place(t),), obs.turned_down))
    turned_played = any(s == obs.dealer and name == obs.turned for s, name in plays_of(obs))
    if obs.turned is None or turned_played or (ex is not None and ex[0] == obs.seat):
        return out
    if t.flow.turn == "dealer":
        where = (obs.dealer,) + ((laid_place(t),) if ex is not None and ex[0] == obs.dealer else ())
    elif ex is not None:
        where = (ex[0], laid_place(t))      # taken up, alone or with the stock, and perhaps laid away again
    else:
        where = (stock_place(t),)
    where = tuple(p for p in where if p not in obs.hands)
    if where:
        out.append((where, obs.turned))
    return out


def call_holdings(t: Tables, obs) -> tuple[list[tuple[tuple[int, ...], int]], dict[int, int]]:
    """What the card called says of the declarer's hand when he called it, for a seat that cannot see that hand:
    the sets of cards of which at least one lay there (a copy of the card, where he must hold one: Schachett
    for eight; a plain card of its colour, where he must hold its colour: the Rufspiel), each with the places
    it may lie in now (his hand, and the cards he laid away where a held card may be one of them), and the
    cards that cannot lie in a place (every copy, where he may not hold the card). A set one of whose cards he
    has been seen playing asks nothing more. The call clause's conditions are the kernel's
    (:func:`~schachett_rules.kernel.core.may_call`, :func:`~schachett_rules.kernel.before_play.colour_mates_of`).

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> from schachett_rules.kernel.observation import Observation
    >>> t = tables_for("schafkopf")
    >>> view = Observation(seat=1, plays_for=(1,), dealer=0, trick_number=1, to_move=1, leader=1, hands={1: ()},
    ...                    kings=(), trick=(), tricks=(), castles=(), phase="play", contract="rufer",
    ...                    declarer=2, called="gA")
    >>> musts, bars = call_holdings(t, view)
    >>> [(where, names_of(t, mask)) for where, mask in musts]      # a plain green card, in his hand
    [((2,), ('gK', 'g7', 'g8', 'g9', 'g10'))]
    >>> names_of(t, bars[2])                                   # and not the Ace itself
    ('gA',)
    """
    flow = t.flow
    declarer = obs.declarer
    if flow is None or obs.called is None or declarer is None or declarer in obs.hands or obs.contract is None:
        return [], {}
    contract = flow.contracts[flow.contract_index(obs.contract)]
    colour = t.deck.colours.index(obs.trump) if obs.trump is not None else 0
    v = contract.tables(colour)
    d = v.deck
    copies = d.face_cards[v.face(obs.called)]
    ex = exchange(t, obs)
    laid = (laid_place(t),) if ex is not None and ex[0] == declarer else ()
    shown = 0
    for s, name in plays_of(obs):
        if s == declarer:
            shown |= d.face_cards[v.face(name)]
    musts: list[tuple[tuple[int, ...], int]] = []
    bars: dict[int, int] = {}
    if contract.call_held and not shown & copies:
        musts.append(((declarer,) + laid, copies))
    if contract.call_not_held:
        for p in (declarer,) + laid:
            bars[p] = bars.get(p, 0) | copies
    if contract.call_colour_held:
        mates = colour_mates_of(v, (copies & -copies).bit_length() - 1)
        if not shown & mates:
            musts.append(((declarer,), mates))
    return musts, bars


def offer_seen(t: Tables, obs):
    """The card offer of this game as the table saw it: (the offer clause compiled, the trump colour, the
    declarer, the taker or None), or None where no card was offered."""
    flow = t.flow
    if flow is None or obs.contract is None or obs.declarer is None or not obs.answers:
        return None
    contract = flow.contracts[flow.contract_index(obs.contract)]
    if contract.offer is None:
        return None
    colour = t.deck.colours.index(obs.trump) if obs.trump is not None else 0
    taker = next((s for s, took in obs.answers if took), None)
    return contract.offer, colour, obs.declarer, taker


def offer_holdings(t: Tables, obs) -> tuple[list[tuple[tuple[int, ...], str]], list[tuple[tuple[int, ...], int]],
                                            dict[int, int]]:
    """What a card offered and taken says of two hands the seat may not see: the cards it knows changed hands
    and where they lie now (the card offered with its taker, the cards given back with the declarer, where the
    seat saw them and they are not yet played), the sets of which a hand holds at least one (the taker holds a
    card of those offered, where the seat does not know which and he has played none of them), and the cards a
    hand cannot hold (the declarer held exactly one of the cards offered and gave it away: he holds none).

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> from schachett_rules.kernel.observation import Observation
    >>> t = tables_for("schafkopf")
    >>> view = Observation(seat=0, plays_for=(0,), dealer=0, trick_number=1, to_move=1, leader=1, hands={0: ()},
    ...                    kings=(), trick=(), tricks=(), castles=(), phase="play", contract="hochzeit",
    ...                    declarer=1, answers=((2, False), (3, True)))
    >>> known, musts, bars = offer_holdings(t, view)
    >>> known, [(where, len(names_of(t, mask))) for where, mask in musts], len(names_of(t, bars[1]))
    ([], [((3,), 14)], 14)
    """
    seen = offer_seen(t, obs)
    if seen is None or seen[3] is None:
        return [], [], {}
    offer, colour, declarer, taker = seen
    offered = offer.offered(colour)
    played = Counter(plays_of(obs))
    known: list[tuple[tuple[int, ...], str]] = []
    musts: list[tuple[tuple[int, ...], int]] = []
    if obs.offered is not None:
        if taker not in obs.hands and not played[(taker, obs.offered)]:
            known.append(((taker,), obs.offered))
    elif not any(s == taker and t.deck.face_cards[t.face(name)] & offered for s, name in plays_of(obs)):
        musts.append(((taker,), offered))
    if declarer not in obs.hands:
        for name in obs.given_back:
            if not played[(declarer, name)]:
                known.append(((declarer,), name))
    return known, musts, {declarer: offered}


def play_tables(t: Tables, obs) -> Tables:
    """The tables the tricks were played by: the contract's for its trumps, or the ruleset's own."""
    if t.flow is None or obs.contract is None:
        return t
    contract = next(c for c in t.flow.contracts if c.name == obs.contract)
    colour = t.deck.colours.index(obs.trump) if obs.trump is not None else 0
    return contract.tables(colour)
