"""Fast random play-outs one game at a time, through the compiled state: the same games as the kernel's.

The kernel's :class:`~schachett_rules.kernel.state.State` builds a frozen record
for every card; a simulation of thousands of games needs only the score.
:func:`random_game` plays the same game the kernel's random player plays for the
same random numbers (:mod:`schachett_rules.kernel.chance`: the deal, one
``rng.random()`` per card a player chooses, the castling decisions, the
automaton's cards), through the compiled state of :mod:`.compiled` that the
batch plays too. It draws exactly the numbers the kernel draws, in the same
order, so the same stream plays the same game. :func:`rollout` finishes a game
from any position of a kernel state (castling included), as the Monte-Carlo
player's play-outs do. A test plays the paths side by side.

>>> from schachett_rules.kernel.compiler import tables_for
>>> from schachett_rules.kernel.state import State
>>> from schachett_rules.kernel.streams import GameStream
>>> t = tables_for("reconstruction")
>>> out = random_game(t, 3, GameStream(5, 0))
>>> rng = GameStream(5, 0)
>>> same = State.deal(t, 3, rng)
>>> same.play_randomly(rng)               # the deal and the play from one stream, as random_game does
>>> out.totals == same.result().totals, [tr.winner for tr in same.tricks] == list(out.trick_winners)
(True, True)
>>> len(out.castles) == len(same.castles)
True

The arrays a play-out reuses belong to the thread that plays it, so bots and a server may play in threads.
"""

from __future__ import annotations

import threading
from typing import NamedTuple

import numpy as np

from ..kernel.actions import AUCTION, CALL, CASTLE, DEAL, EXCHANGE, PASSING, PLAY

BEFORE_PLAY = (DEAL, PASSING, AUCTION, CALL, EXCHANGE)
from ..kernel.castling import MOMENTS
from ..kernel.scoring import scorer_parties
from ..kernel.streams import GameStream, MASK
from ..kernel.tables import Tables


class Outcome(NamedTuple):
    """The score of one play-out."""

    totals: tuple[int, ...]                 # points by party
    card_points: tuple[int, ...]
    events: list                            # (EventTable, trick index, owner, first, points, parties)
    trick_winners: tuple[int, ...]          # seat that won each trick
    log: np.ndarray | None = None           # per trick: winner, points, leader, then the cards in playing order
    castles: tuple = ()                     # (trick, kind, seat, King card, officer card, with seat), as the state logs them

    def tricks(self) -> list[list[tuple[int, int]]]:
        """Each trick's ``(seat, card)`` in playing order (a rescued King's officer in its place)."""
        n = self.log.shape[1] - 3
        return [[((row[2] + i) % n, card) for i, card in enumerate(row[3:])] for row in self.log.tolist()]


def _compiled():
    from . import compiled   # numba and the compiled state are loaded by the first play-out, not by every import
    return compiled


_LOCAL = threading.local()


def _arrays(t: Tables):
    """The compiled plan of ``t`` and one game's arrays, this thread's own, reused from game to game."""
    c = _compiled()
    plan = c.plan_of(t)
    kept = getattr(_LOCAL, "arrays", None)
    if kept is None:
        kept = _LOCAL.arrays = {}
    entry = kept.get(id(plan))
    if entry is None or entry[0] is not plan:
        arrays = plan.state()
        entry = kept[id(plan)] = (plan, arrays, arrays.tables() + arrays.arrays())
    return c, plan, entry[1], entry[2]


def _numbers(rng, count: int) -> np.ndarray:
    """The next ``count`` numbers of ``rng`` (a GameStream's drawn by the compiled stream, any other one by one)."""
    out = np.empty(count)
    if type(rng) is GameStream:
        rng.state = int(_compiled().stream_numbers(np.uint64(rng.state), count, out)) & MASK
    else:
        for i in range(count):
            out[i] = rng.random()
    return out


def _run(c, args, rng, draws: int) -> None:
    """Play on, drawing exactly the numbers the game uses (``draws`` at first: a bound from below)."""
    u = _numbers(rng, draws)
    need = c.play(*args, u)
    while need:
        u = np.concatenate((u, _numbers(rng, need)))
        need = c.play(*args, u)


def _outcome(t: Tables, c, st) -> Outcome:
    events = [(t.events[e], trick, owner, bool(first), pts, scorer_parties(t, scorer))
              for e, trick, owner, first, pts, scorer in st.events[:st.regs[c.N_EVENTS]].tolist()]
    castles = tuple((trick, MOMENTS[kind], seat, king, officer, other)
                    for trick, kind, seat, king, officer, other in st.castles[:st.regs[c.N_CASTLES]].tolist())
    return Outcome(tuple(st.totals[0].tolist()), tuple(st.totals[1].tolist()), events,
                   tuple(st.tricks[:, c.T_WINNER].tolist()), st.tricks.copy(), castles)


def random_game(t: Tables, dealer: int, rng, game: int = 0) -> Outcome:
    """Play one game (number ``game`` of its session) with every player choosing uniformly among its legal cards,
    castling and passing as the random player."""
    c, plan, st, args = _arrays(t)
    st.reset(dealer, game=game)
    _run(c, args, rng, plan.deal_draws + plan.card_draws)
    return _outcome(t, c, st)


def load(state, c, plan, st, args) -> None:
    """Copy a kernel state's position into the compiled arrays (its past as counts: tricks, Kings, castles, points)."""
    t = state.t
    words = plan.words
    st.reset(state.dealer, game=state.game)
    n = t.n_seats
    # the hands, then the cards played so far and each seat's cards passed (plan.H_PLAYED, plan.H_PASSED)
    rows = list(state.hands) + [state.played] + list(state.passed)
    for row, h in enumerate(rows):
        for w in range(words):
            st.hands[row, w] = (h >> (64 * w)) & MASK
    for i, (seat, card) in enumerate(state.trick):
        st.trick[0, i], st.trick[1, i] = seat, card
    regs = st.regs
    regs[c.TRICK], regs[c.PLAYED], regs[c.LEADER] = state.done, len(state.trick), state.leader
    regs[c.PHASE], regs[c.MOMENT], regs[c.ASK] = state.phase, max(state.moment, -1), state.ask
    regs[c.CASTLED], regs[c.FALLEN] = state.castled, state.count.total
    regs[c.PASSES], regs[c.TURNED] = state.passes_done, state.turned
    if state.phase not in BEFORE_PLAY:           # the game's own play tables (its trumps), once play has begun
        st.beats[:], st.points[:], st.follow[:] = plan.play_tables(t)
    for e, ev in enumerate(t.events):
        st.each[0, e] = state.count.per_event.get(ev.name, 0)
    st.totals[0, :] = state.points
    st.totals[1, :] = state.card_points
    policy = plan.policy
    left_now = sum(policy[(state.leader + i) % n] < 0 for i in range(len(state.trick), n)) if state.phase == PLAY else 0
    later = t.n_tricks - state.done - (1 if state.phase == PLAY else 0)
    regs[c.DRAWN] = t.n_tricks * plan.random_seats - (left_now + later * plan.random_seats)


def rollout(state, rng) -> list[int]:
    """Finish a game from a kernel state's position with the random player in every seat; the parties' points.

    The state is not changed. Castling is played as the random player plays it, from the castles already made.
    """
    if state.phase == DEAL:
        raise ValueError("a rollout starts from a dealt game")
    c, plan, st, args = _arrays(state.t)
    load(state, c, plan, st, args)
    sc = plan.scalars
    _run(c, args, rng, int(sc[c.S_TRICKS] * sc[c.S_RANDOM] - st.regs[c.DRAWN]) if state.phase == PLAY else 1)
    return st.totals[0].tolist()


__all__ = ["Outcome", "random_game", "rollout", "load", "CASTLE"]
