"""Fast random play-outs: whole games with no records, from the same tables.

The recorded engine (:mod:`schachett_rules.engine`) builds a frozen record for
every card; a simulation of thousands of games needs only the score.
:func:`random_game` plays the same game the engine's random player plays for
the same random numbers (the deal of
:func:`~schachett_rules.kernel.deal.deal_cards`, one ``rng.random()`` per card a
player chooses, the choice of :func:`~schachett_rules.kernel.deal.pick`, the
castles of :func:`~schachett_rules.engine.castling.random_castle`, the
automaton's cards), through the compiled loop of :mod:`.compiled` that the batch
plays too. It draws exactly the numbers the engine draws, in the same order, so
the same stream plays the same game. A test plays the paths side by side.

>>> import random
>>> from schachett_rules.kernel.compiler import tables_for
>>> from schachett_rules.kernel.state import State
>>> t = tables_for("reconstruction")
>>> out = random_game(t, 3, random.Random(5))
>>> rng = random.Random(5)
>>> same = State.deal(t, 3, rng)
>>> same.play_randomly(rng)               # the deal and the play from one stream, as random_game does
>>> out.totals == same.result().totals, [tr.winner for tr in same.tricks] == list(out.trick_winners)
(True, True)
>>> len(out.castles) == len(same.castles)
True
"""

from __future__ import annotations

import random
from typing import NamedTuple

import numpy as np

from ..kernel.tables import Tables
from ..kernel.castling import MOMENTS
from ..kernel.scoring import KingCount, scorer_parties


class Outcome(NamedTuple):
    """The score of one play-out."""

    totals: tuple[int, ...]                 # points by party
    card_points: tuple[int, ...]
    events: list                            # (EventTable, trick index, owner, first, points, parties)
    trick_winners: tuple[int, ...]          # seat that won each trick
    log: np.ndarray | None = None           # per trick: winner, points, leader, then the cards in playing order
    castles: tuple = ()                     # (trick, kind, seat, King card, officer card, with seat), as the engine logs them

    def tricks(self) -> list[list[tuple[int, int]]]:
        """Each trick's ``(seat, card)`` in playing order (a rescued King's officer in its place)."""
        n = self.log.shape[1] - 3
        return [[((row[2] + i) % n, card) for i, card in enumerate(row[3:])] for row in self.log.tolist()]


def _compiled():
    from . import compiled   # numba and the compiled loop are loaded by the first play-out, not by every import
    return compiled


def _state(t: Tables):
    """The compiled plan of ``t`` and one game's arrays, kept with it and reused (one game at a time)."""
    c = _compiled()
    plan = c.plan_of(t)
    st = plan.__dict__.get("_state")
    if st is None:
        st = plan.state()
        plan._state = st
        plan._args = plan.tables() + st.arrays()
    st.regs[:] = 0
    st.totals[:] = 0
    st.each[:] = 0
    return c, plan, st


def _run(c, plan, st, rnd, draws: int) -> None:
    """Play on, drawing exactly the numbers the game uses (``draws`` at first: a bound from below)."""
    u = np.array([rnd() for _ in range(draws)])
    need = c.play(*plan._args, u)
    while need:
        u = np.concatenate((u, [rnd() for _ in range(need)]))
        need = c.play(*plan._args, u)


def random_game(t: Tables, dealer: int, rng: random.Random) -> Outcome:
    """Play one game with every player choosing uniformly among its legal cards, castling as the engine's random player."""
    c, plan, st = _state(t)
    st.regs[c.DEALER], st.regs[c.CASTLING] = dealer, 1
    _run(c, plan, st, rng.random, plan.deal_draws + plan.card_draws)
    events = [(t.events[e], trick, owner, bool(first), pts, scorer_parties(t, scorer))
              for e, trick, owner, first, pts, scorer in st.events[:st.regs[c.N_EVENTS]].tolist()]
    castles = tuple((trick, MOMENTS[kind], seat, king, officer, other)
                    for trick, kind, seat, king, officer, other in st.castles[:st.regs[c.N_CASTLES]].tolist())
    return Outcome(tuple(st.totals[0].tolist()), tuple(st.totals[1].tolist()), events,
                   tuple(st.tricks[:, c.T_WINNER].tolist()), st.tricks.copy(), castles)


def continue_randomly(t: Tables, hands: list[int], trick: list[tuple[int, int]], leader: int, trick_index: int,
                      won: list[int], count, rng: random.Random) -> list[int]:
    """Finish a game from any position with random legal play; the parties' final points.

    ``hands`` are card masks by seat, ``trick`` the (seat, card) already on the
    table, ``won`` the points each party has so far (cards and Kings), ``count``
    the Kings fallen so far (a :class:`~schachett_rules.kernel.scoring.KingCount`,
    not changed). Automaton seats play by their rule; castling is not played out
    (a position does not say which castles were made). The Monte-Carlo player
    uses this to value a card.
    """
    c, plan, st = _state(t)
    n, words = t.n_seats, plan.words
    for seat, h in enumerate(hands):
        for w in range(words):
            st.hands[seat, w] = (h >> (64 * w)) & 0xFFFFFFFFFFFFFFFF
    for i, (seat, card) in enumerate(trick):
        st.trick[0, i], st.trick[1, i] = seat, card
    regs = st.regs
    regs[c.TRICK], regs[c.PLAYED], regs[c.LEADER], regs[c.PHASE] = trick_index, len(trick), leader, c.PLAY
    regs[c.FALLEN] = count.total
    for e, ev in enumerate(t.events):
        st.each[0, e] = count.per_event.get(ev.name, 0)
    st.totals[0, :len(won)] = won
    policy = plan.policy
    left = sum(policy[(leader + i) % n] < 0 for i in range(len(trick), n)) + \
        (t.n_tricks - trick_index - 1) * plan.random_seats
    regs[c.DRAWN] = t.n_tricks * plan.random_seats - left
    _run(c, plan, st, rng.random, int(left))
    return st.totals[0].tolist()


__all__ = ["KingCount", "Outcome", "continue_randomly", "random_game"]
