"""What a seat knows of the hidden hands in the family's games, and the game rebuilt for one deal of them.

Before play a family game passes cards (Hearts) or turns one up (Whist), and a seat's observation
(:mod:`schachett_rules.kernel.observation`) keeps what that taught it: the cards it passed lie in the
receiver's hand until he plays them, the card turned up lies in the dealer's hand until he plays it, and the
voids a player showed by not following are read from the follow tiers of the game's own tables (the
contract's, with its trumps). :func:`known_cards` and :func:`play_tables` give these to the sampler
(:class:`~.montecarlo.Sampler`).

A deal of the current hands is not yet a game: who leads, whether hearts are broken, the trumps, the parties
are the kernel's to say. :func:`replay` therefore rebuilds the whole game through the kernel's
:class:`~schachett_rules.kernel.state.State`: the hands as dealt (the current hands with the cards each seat
played given back and the passing undone), the passing in the state's own order, then every card of the
tricks. A card the rules would not have allowed from that deal (a heart led before hearts were broken by a
hand that held another colour, a heart thrown in the first trick by a hand that could have kept it) shows the
deal to be impossible, and the sampler draws another. Passes between two hands the seat cannot see are
unknown: each such receiver is given that many of its cards as received, at random.

>>> import random
>>> from schachett_rules.kernel.compiler import tables_for
>>> from schachett_rules.kernel.state import State
>>> from schachett_rules.kernel.streams import GameStream
>>> from schachett_rules.players.montecarlo import Sampler
>>> t = tables_for("hearts")
>>> game = State.deal(t, 0, GameStream(1, 0), game=1)       # game 1 passes to the right
>>> rng = random.Random(0)
>>> while game.phase_name != "play" or game.done < 2:
...     _ = game.apply(game.legal_actions()[0])
>>> obs = game.observation(game.decider())
>>> obs.passed, receiver(t, obs) == (obs.seat - 1) % 4
(('c8', 'd3', 'd4'), True)
>>> again = replay(t, obs, Sampler(t, obs).sample(rng), rng)
>>> again.observation(obs.seat) == obs                      # the same game, as this seat sees it
True
"""

from __future__ import annotations

import random
from collections import Counter

from ..errors import SchachettError
from ..kernel.actions import PASSING, PLAY, Deal, Give, Play
from ..kernel.core import WAYS, pass_step
from ..kernel.state import State
from ..kernel.tables import Tables


def _step(t: Tables, obs) -> int | None:
    """How many seats to the left the cards went in this game (None: nobody passed)."""
    if not obs.received:
        return None
    sender = obs.received[0][0]
    return (obs.seat - sender) % t.n_seats


def receiver(t: Tables, obs) -> int | None:
    """The seat that received the cards ``obs.seat`` passed (every seat passes the same way), or None."""
    step = _step(t, obs)
    return None if step is None else (obs.seat + step) % t.n_seats


def game_number(t: Tables, obs) -> int:
    """A number of the game in its session that passes the way this game passed (the passing clause asks it)."""
    flow = t.flow
    if flow is None or flow.passing is None:
        return 0
    ways = flow.passing[1]
    step = _step(t, obs)
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


def known_cards(t: Tables, obs) -> list[tuple[int, str]]:
    """The cards the seat knows to lie in a hand it cannot see: its passed cards in the receiver's hand and the
    card turned up in the dealer's, while they are not yet played (the turned card is known by name: a copy of
    it seen played from another hand leaves it with the dealer)."""
    if t.flow is None:
        return []
    out = []
    seen = played_faces(obs)
    to = receiver(t, obs)
    for name in obs.passed:
        if seen[name]:
            seen[name] -= 1
        elif to is not None and to not in obs.hands:
            out.append((to, name))
    turned_played = any(s == obs.dealer and name == obs.turned for s, name in plays_of(obs))
    if obs.turned is not None and t.flow.turn == "dealer" and obs.dealer not in obs.hands and not turned_played:
        out.append((obs.dealer, obs.turned))
    return out


def play_tables(t: Tables, obs) -> Tables:
    """The tables the tricks were played by: the contract's for its trumps, or the ruleset's own."""
    if t.flow is None or obs.contract is None:
        return t
    contract = next(c for c in t.flow.contracts if c.name == obs.contract)
    colour = t.deck.colours.index(obs.trump) if obs.trump is not None else 0
    return contract.tables(colour)


def _pick(items: list, k: int, rng) -> list:
    """``k`` of ``items`` at random, drawing only ``rng.random()`` (a game's own stream has nothing else)."""
    items = list(items)
    for i in range(k):
        j = i + int(rng.random() * (len(items) - i))
        items[i], items[j] = items[j], items[i]
    return items[:k]


def replay(t: Tables, obs, hands: list[int], rng: random.Random, strict: bool = True, probe=None) -> State | None:
    """The game rebuilt through the kernel's state for ``hands`` (every seat's current hand, as card masks):
    dealt, passed and played as the observation saw it; None when a card seen played would have broken a rule
    with that deal (``strict``; otherwise the card is played all the same). ``probe(state, seat, card)`` is
    called before each card seen played."""
    n, d = t.n_seats, t.deck
    me = obs.seat
    plays = plays_of(obs)
    if len(obs.tricks) != obs.trick_number - 1:
        raise SchachettError(f"{t.name}: the seat does not remember every trick, so its game cannot be rebuilt")
    held = [h for h in hands]
    for s, name in plays:
        free = d.face_cards[t.face(name)] & ~held[s]
        held[s] |= free & -free
    game = game_number(t, obs)
    count = t.flow.passing[0] if t.flow.passing else 0
    step = _step(t, obs)
    passed = [0] * n
    if step is not None:
        received = [0] * n
        received[me] = sum(1 << d.card_of(name) for _, name in obs.received)
        received[(me + step) % n] = sum(1 << d.card_of(name) for name in obs.passed)
        for s in range(n):
            if not received[s]:
                cards = [c for c in range(t.n_cards) if held[s] >> c & 1]
                received[s] = sum(1 << c for c in _pick(cards, count, rng))
        for s in range(n):
            passed[(s - step) % n] = received[s]
        held = [(held[s] & ~received[s]) | passed[s] for s in range(n)]
    # the card turned up is known by name, played or not (a copy's name is the card's own)
    turned = d.card_of(obs.turned) if t.flow.turn == "dealer" and obs.turned is not None else -1
    state = State(t, obs.dealer, game)
    state.push(Deal(tuple(held), 0, turned))
    while state.phase == PASSING:
        seat = state.before_play_seat()
        left = passed[seat] & state.hands[seat]
        state.push(Give(seat, (left & -left).bit_length() - 1))
    if state.phase != PLAY:
        raise SchachettError(f"{t.name}: the sampling players cannot yet rebuild its phases before play")
    for s, name in plays:
        free = state.hands[s] & d.face_cards[t.face(name)]
        card = (free & -free).bit_length() - 1
        if probe is not None:
            probe(state, s, card)
        # a hand the seat sees played by the rules in the game itself: only a hidden hand's card is asked
        if strict and s not in obs.hands and not state.legal().mask >> card & 1:
            return None
        state.push(Play(s, card))
    return state


def rule_voids(t: Tables, obs, unseen: list[int], hands: list[int]) -> list[int]:
    """By seat, the unseen cards a hidden hand cannot hold, because with that card beside the one it played the
    rules would have barred the card played: the follow tiers (a colour not followed) and the restrictions (a
    heart led before hearts were broken, a heart thrown in the first trick: the hand held nothing else).

    The kernel's own legal cards are asked of a hand of the two cards at each card seen played, in a game
    rebuilt for ``hands`` (any deal agreeing with the cards seen: the tricks, and so the rules' memory, are the
    same in all of them). A card barred beside one card is barred beside more: neither a follow tier nor a
    restriction lets a fuller hand play what a smaller hand may not.
    """
    out = [0] * t.n_seats

    def probe(state: State, seat: int, card: int) -> None:
        if seat in obs.hands:
            return
        kept = state.hands[seat]
        for x in unseen:
            state.hands[seat] = 1 << card | 1 << x
            if not state.legal().mask >> card & 1:
                out[seat] |= 1 << x
        state.hands[seat] = kept

    replay(t, obs, hands, random.Random(0), strict=False, probe=probe)
    return out


def rebuilt(t: Tables, sampler, obs, rng: random.Random, tries: int = 100) -> State:
    """A game rebuilt (:func:`replay`) for a deal the sampler draws, drawing again while the rules rule it out;
    after ``tries`` draws the last one is played as it is."""
    for _ in range(tries - 1):
        state = replay(t, obs, sampler.sample(rng), rng)
        if state is not None:
            return state
    return replay(t, obs, sampler.sample(rng), rng, strict=False)
