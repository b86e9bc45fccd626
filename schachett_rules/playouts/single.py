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

from ..kernel.actions import BEFORE_PLAY as DECISIONS_BEFORE_PLAY, CASTLE, DEAL, OFFER, PLAY
from ..kernel.before_play import partner_rule
from ..kernel.flow import PARTNER_RULES

BEFORE_PLAY = (DEAL,) + DECISIONS_BEFORE_PLAY
from ..kernel.castling import MOMENTS
from ..kernel.core import seat_at
from ..kernel.scoring import scorer_parties
from ..kernel.streams import GOLDEN, GameStream, MASK
from ..kernel.tables import Tables
from .contracts import variant_number


class Outcome(NamedTuple):
    """The score of one play-out."""

    totals: tuple[int, ...]                 # points by party
    card_points: tuple[int, ...]
    events: list                            # (EventTable, trick index, owner, first, points, parties)
    trick_winners: tuple[int, ...]          # seat that won each trick
    log: np.ndarray | None = None           # per trick: winner, points, leader, then the cards in playing order
    castles: tuple = ()                     # (trick, kind, seat, King card, officer card, with seat), as the state logs them
    game: tuple = ()                        # the game bid, by plan.GAME_REGS: contract, trumps, declarer, partner,
                                            # card called, seats sitting out, thrown in, tricks played
    party_of: tuple = ()                    # the game's parties, seat by seat

    def tricks(self) -> list[list[tuple[int, int]]]:
        """Each trick's ``(seat, card)`` in playing order (a rescued King's officer in its place), past the seats
        sitting out."""
        n = self.log.shape[1] - 3
        sitting, played = (self.game[5], self.game[7]) if self.game else (0, len(self.log))
        return [[(seat_at(sitting, row[2], i, n), card) for i, card in enumerate(row[3:]) if card >= 0]
                for row in self.log[:played].tolist()]


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


def _run(c, args, rng, draws: int, most: int, regs) -> None:
    """Play on from a fresh count of numbers (``regs[POS]`` 0), leaving ``rng`` past exactly the numbers the game
    used (``draws`` at first: a bound from below; ``most``: a bound from above).

    A :class:`GameStream` is a counter, so it is drawn ``most`` ahead in one call and set back to the numbers
    used: one crossing into the compiled code, where a game whose bids and discards the bound from below cannot
    foresee would cross again for each. Any other source is drawn as the game asks.
    """
    if type(rng) is GameStream:
        first = rng.state
        need = c.play(*args, _numbers(rng, most))
        if not need:
            rng.state = (first + int(regs[c.POS]) * GOLDEN) & MASK
            return
        rng.state = first
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
    regs = st.regs
    game = tuple(int(regs[r]) for r in c.GAME_REGS)
    parties = max(st.party_of) + 1 if not game[6] else len(t.parties)     # the parties of the game bid
    played = game[7]
    return Outcome(tuple(st.totals[0, :parties].tolist()), tuple(st.totals[1, :parties].tolist()), events,
                   tuple(st.tricks[:played, c.T_WINNER].tolist()), st.tricks[:played].copy(), castles, game,
                   tuple(st.party_of.tolist()))


def random_game(t: Tables, dealer: int, rng, game: int = 0) -> Outcome:
    """Play one game (number ``game`` of its session) with every player choosing uniformly among its legal cards,
    castling and passing as the random player."""
    c, plan, st, args = _arrays(t)
    st.reset(dealer, game=game)
    _run(c, args, rng, plan.deal_draws + plan.card_draws - int(plan.scalars[c.S_SKIP]), plan.max_draws, st.regs)
    return _outcome(t, c, st)


def load(state, c, plan, st, args) -> None:
    """Copy a kernel state's position into the compiled arrays (its past as counts: tricks, Kings, castles, points)."""
    t = state.t
    words = plan.words
    st.reset(state.dealer, game=state.game)
    n = t.n_seats
    # the hands, then the cards played so far, each seat's cards passed, the stock, the cards laid away, a
    # tableau's cards face down (plan.H_PLAYED, plan.H_PASSED, plan.H_STOCK, plan.H_LAID, plan.H_COVERED)
    rows = list(state.hands) + [state.played] + list(state.passed) + [state.stock, sum(state.discarded),
                                                                      state.covered]
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
    best = state.best if state.best is not None else (-1, -1, -1, -1)
    regs[c.ROUND], regs[c.BID_TURN] = state.round, state.bid_turn
    regs[c.BEST_SEAT], regs[c.BEST_CONTRACT], regs[c.BEST_COLOUR], regs[c.BEST_RANK] = best
    regs[c.CONTRACT], regs[c.TRUMP], regs[c.DECLARER] = state.contract, state.trump, state.declarer
    regs[c.PARTNER], regs[c.CALLED], regs[c.EXCHANGER] = state.partner, state.called, state.exchanger
    regs[c.TO_DISCARD], regs[c.THROWN], regs[c.SITTING] = state.to_discard, state.thrown_in, t.sitting
    regs[c.OFFERED], regs[c.OFFER_TURN], regs[c.TAKER], regs[c.TO_GIVE] = (state.offered, state.offer_turn,
                                                                         state.taker, state.to_give)
    regs[c.ASKED] = state.before_play_seat() if state.phase == OFFER else -1
    regs[c.PARTIES] = PARTNER_RULES.index(partner_rule(state))
    regs[c.RESTRICT] = plan.restriction_set(t)
    for top, down in state.under.items():
        regs[c.REGS + n + top] = down
    random = sum(1 << s for s in range(n) if plan.policy[s] < 0)
    regs[c.SKIPPED] = plan.scalars[c.S_SKIP]
    if state.phase not in BEFORE_PLAY:           # the game's own play tables (its trumps) and parties
        st.beats[:], st.points[:], st.follow[:] = plan.play_tables(t)
        st.party_of[:] = t.party_of
        regs[c.SKIPPED] = (t.sitting & random).bit_count() * t.n_tricks
        # the variant among the plan's own tables: a game's tables (state.t) hold one variant, its contract's,
        # and the compiled code reads the strength row by this register unchecked
        regs[c.VARIANT] = variant_number(t, state.contract, state.trump)
    for e, ev in enumerate(t.events):
        st.each[0, e] = state.count.per_event.get(ev.name, 0)
    st.totals[0, :] = state.points
    st.totals[1, :] = state.card_points
    if state.phase in BEFORE_PLAY:
        return
    # the card draws made so far, as the count of those still to come leaves them
    playing = [s for s in range(n) if not t.sitting >> s & 1 and random >> s & 1]
    left_now = sum(random >> t.seat_at(state.leader, i) & 1 for i in range(len(state.trick), t.n_active)) \
        if state.phase == PLAY else 0
    later = t.n_tricks - state.done - (1 if state.phase == PLAY else 0)
    regs[c.DRAWN] = t.n_tricks * plan.random_seats - regs[c.SKIPPED] - (left_now + later * len(playing))


def rollout(state, rng) -> list[int]:
    """Finish a game from a kernel state's position with the random player in every seat; the parties' points.

    The state is not changed. Castling is played as the random player plays it, from the castles already made.
    """
    if state.phase == DEAL:
        raise ValueError("a rollout starts from a dealt game")
    c, plan, st, args = _arrays(state.t)
    load(state, c, plan, st, args)
    sc = plan.scalars
    _run(c, args, rng, int(sc[c.S_TRICKS] * sc[c.S_RANDOM] - st.regs[c.DRAWN] - st.regs[c.SKIPPED])
         if state.phase == PLAY else 1, plan.max_draws, st.regs)
    return st.totals[0].tolist()


__all__ = ["Outcome", "random_game", "rollout", "load", "CASTLE"]
