"""Many random games at once, from the same compiled tables.

Every game of a batch is played by the same compiled loop as
:func:`~schachett_rules.playouts.single.random_game` (:mod:`.compiled`), by the
rule of the engine's random player: the deal is a Fisher-Yates shuffle driven by
one uniform number per swap, each card a player chooses is the k-th lowest card
of the legal set, k = floor(u × number of legal cards), for the next uniform u,
an automaton's card follows its rule, and at each moment of castling each castle
on offer takes one number (taken below one half) and its officer one more.
Given the same uniform numbers, a batch, the one-game path and the engine play
the same games; a test checks it trick by trick for every ruleset.

A row of uniform numbers holds :func:`draws_per_game` numbers: the shuffle's,
one per card a player chooses, and a bound on what castling can draw. A game
reads its row in order and leaves the rest unread, so the numbers of game ``i``
(:func:`~schachett_rules.playouts.streams.block_uniforms`) are the first numbers
of its stream, whatever the bound.

>>> import numpy as np
>>> from schachett_rules.kernel.compiler import tables_for
>>> t = tables_for("original")
>>> out = random_batch(t, np.array([3, 0]), uniforms(t, 2, np.random.default_rng(1)))
>>> out.totals.shape, bool((out.card_points.sum(axis=1) >= 216).all())
((2, 2), True)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..kernel.scoring import scorer_parties
from ..kernel.tables import Tables
from .plan import not_compiled
from ..errors import SchachettError


def supported(t: Tables) -> str | None:
    """Why a ruleset cannot be played in batches, or None when it can."""
    if t.n_cards > 128:
        return f"{t.n_cards} cards do not fit in two 64-bit words"
    if t.n_faces > 63:
        return f"{t.n_faces} faces do not fit in a 64-bit word"
    return not_compiled(t)


def _compiled():
    from . import compiled   # numba and the compiled loop are loaded by the first batch, not by every import
    return compiled


def draws_per_game(t: Tables) -> int:
    """How many uniform numbers a row holds: the shuffle's, one per card a player chooses, and castling's bound."""
    return _compiled().plan_of(t).max_draws


def uniforms(t: Tables, games: int, rng: np.random.Generator) -> np.ndarray:
    """Fresh uniform numbers for ``games`` games, one row per game.

    The array is the transpose of a draw-major block, as
    :func:`~schachett_rules.playouts.streams.block_uniforms` gives it.
    """
    return rng.random((draws_per_game(t), games)).T


@dataclass
class BatchOutcome:
    """What a batch of games produced."""

    totals: np.ndarray        # (games, parties) points by party
    card_points: np.ndarray   # (games, parties)
    winners: np.ndarray       # (games, tricks) seat that took each trick
    trick_points: np.ndarray  # (games, tricks) card points of each trick
    event_kind: np.ndarray    # (games, kings) index into t.events, -1 if none
    event_trick: np.ndarray   # (games, kings) trick index
    event_first: np.ndarray   # (games, kings) bool
    event_points: np.ndarray  # (games, kings)
    event_party: np.ndarray   # (games, kings) scoring party (-1 for none)
    event_owner: np.ndarray = None  # (games, kings) the seat that played the King
    leaders: np.ndarray = None      # (games, tricks) seat that led each trick
    trick_cards: np.ndarray = None  # (games, tricks, seats) cards in playing order (a rescue's officer in its place)
    castles: np.ndarray = None      # (games,) castles made
    castle_log: np.ndarray = None   # (games, moments, 6) trick, kind, seat, King, officer, with seat; -1 past the last
    game: np.ndarray = None         # (games, 8) the game bid, by plan.GAME_REGS (G_CONTRACT, G_TRUMP ...: -1 none)
    party_of: np.ndarray = None     # (games, seats) each game's parties


def random_batch(t: Tables, dealers: np.ndarray, u: np.ndarray, numbers: np.ndarray | None = None) -> BatchOutcome:
    """Play one random game per row of ``u`` (uniform numbers), dealt by ``dealers``; ``numbers`` are the games'
    numbers in their sessions (where a passing clause turns its direction with them; default 0)."""
    why = supported(t)
    if why:
        raise SchachettError(f"ruleset {t.name} cannot be played in batches: {why}")
    c = _compiled()
    plan = c.plan_of(t)
    games = len(dealers)
    dealers = np.ascontiguousarray(dealers, dtype=np.int64)
    numbers = np.zeros(games, dtype=np.int64) if numbers is None else np.ascontiguousarray(numbers, dtype=np.int64)
    rows = np.ascontiguousarray(u, dtype=np.float64)   # a game's numbers side by side
    st = plan.state()
    n, tricks = t.n_seats, t.n_tricks
    totals = np.zeros((games,) + st.totals.shape, dtype=np.int64)
    log = np.zeros((games,) + st.tricks.shape, dtype=np.int64)
    events = np.zeros((games,) + st.events.shape, dtype=np.int64)
    castles = np.full((games,) + st.castles.shape, -1, dtype=np.int64)
    n_castles = np.zeros(games, dtype=np.int64)
    game = np.zeros((games, len(c.GAME_REGS)), dtype=np.int64)
    party_of = np.zeros((games, n), dtype=np.int64)
    short = c.play_batch(*st.tables(), *st.arrays(), dealers, numbers, rows, totals, log, events, castles, n_castles,
                         game, party_of)
    if short >= 0:
        raise SchachettError(f"game {short} of the batch needs more than the {rows.shape[1]} uniform numbers "
                             f"of its row (draws_per_game gives {plan.max_draws})")
    kind = events[:, :, c.E_KIND]
    scorer = events[:, :, c.E_SCORER]
    party = np.full(kind.shape, -1, dtype=np.int64)
    for code in np.unique(scorer[kind >= 0]).tolist():      # the parties a scorer names (kernel.scoring), the first
        party[(kind >= 0) & (scorer == code)] = scorer_parties(t, code)[0]
    return BatchOutcome(totals=totals[:, 0], card_points=totals[:, 1], winners=log[:, :, c.T_WINNER],
                        trick_points=log[:, :, c.T_POINTS], event_kind=kind, event_trick=events[:, :, c.E_TRICK],
                        event_first=events[:, :, c.E_FIRST].astype(bool), event_points=events[:, :, c.E_POINTS],
                        event_party=party, event_owner=events[:, :, c.E_OWNER], leaders=log[:, :, c.T_LEADER], trick_cards=log[:, :, c.T_CARDS:],
                        castles=n_castles, castle_log=castles, game=game, party_of=party_of)
