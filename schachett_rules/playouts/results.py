"""A compiled game's tables and score: the game bid (contract, trumps, declarer, partner, seats sitting out) turned
back into the kernel's tables of that game, and its winner, money and game points by the kernel's scoring.

The compiled state reports what was bid as numbers (:data:`~.plan.GAME_REGS`); the kernel makes the game's
tables from them (:func:`~schachett_rules.kernel.flow.game_tables`, the one maker of a game's tables) and scores
it (:func:`~schachett_rules.kernel.scoring.outcome`), so a batch settles its games as the state does.

>>> import numpy as np
>>> from schachett_rules.kernel.compiler import tables_for
>>> from schachett_rules.playouts.batch import random_batch, uniforms
>>> t = tables_for("euchre")
>>> out = random_batch(t, np.array([0]), uniforms(t, 1, np.random.default_rng(3)))
>>> game = game_tables_of(t, out.game[0], out.party_of[0])
>>> game.contract in [c.name for c in t.flow.contracts], game.declarer == int(out.game[0, 2])
(True, True)
"""

from __future__ import annotations

from fractions import Fraction

from ..kernel.core import P_HOLDERS
from ..kernel.flow import PARTNER_RULES, game_tables
from ..kernel.scoring import outcome
from ..kernel.tables import Tables
from .plan import G_CALLED, G_CONTRACT, G_DECLARER, G_SITTING, G_THROWN, G_TRUMP


def game_tables_of(t: Tables, game, party_of) -> Tables:
    """The tables a compiled game was played from: ``t``'s, or its contract's for the trumps bid, with the game's
    parties, seats sitting out, card called and declarer (``game``: a row by :data:`~.plan.GAME_REGS`)."""
    flow = t.flow
    if flow is None or game[G_THROWN]:
        return t
    contract, trump, declarer = int(game[G_CONTRACT]), int(game[G_TRUMP]), int(game[G_DECLARER])
    t0 = flow.contracts[contract].tables(trump) if contract >= 0 else t
    rule = flow.contracts[contract].partner if contract >= 0 else flow.partner
    return game_tables(flow, t0, tuple(int(p) for p in party_of), int(game[G_SITTING]), int(game[G_CALLED]),
                       declarer, 0 if PARTNER_RULES.index(rule) == P_HOLDERS else -1)


def score_of(t: Tables, game, party_of, totals, tricks, hands) -> tuple[Tables, int | None, tuple[Fraction, ...],
                                                                        tuple[Fraction, ...]]:
    """A compiled game's tables, winning party (None: nobody), money by seat and game points by party, from its
    points and tricks by party and the hands as play began (a game thrown in: nothing to anybody)."""
    g = game_tables_of(t, game, party_of)
    if game[G_THROWN]:
        zero = tuple(Fraction(0) for _ in range(t.n_seats))
        return g, None, zero, tuple(Fraction(0) for _ in t.parties) if t.game_points is not None else ()
    parties = len(g.parties)
    return (g, *outcome(g, tuple(totals[:parties]), tuple(tricks[:parties]), hands))
