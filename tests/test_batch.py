"""The numpy batch plays the same games as the one-game engine for the same uniform numbers."""

from __future__ import annotations

import numpy as np
import pytest

from schachett_rules.playouts.batch import draws_per_game, random_batch, supported, uniforms
from schachett_rules.kernel.compiler import tables_for
from schachett_rules.engine.game import Game
from schachett_rules.playouts.single import random_game


class Stream:
    """A random source that hands out a fixed row of uniform numbers, as ``random.Random.random`` would."""

    def __init__(self, row):
        self.row, self.i = row, 0

    def random(self) -> float:
        value = float(self.row[self.i])
        self.i += 1
        return value


OPTION_SETS = [(), (("deal", "random"),), (("king-order", "per-event"),), (("king-order", "both-first"),),
               (("promoted-points", "as-officers"), ("remaining", "all-hands")),
               (("pawn-takes-suit", "kinds-apart"), ("suit-order", "unlisted-lowest"), ("king-follow", "king-last"))]


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o) or "printed")
def test_batch_and_one_game_play_agree_on_10000_games(options):
    t = tables_for("original", options)
    games = 10000
    u = uniforms(t, games, np.random.default_rng(len(options)))
    dealers = np.arange(games) % 4
    out = random_batch(t, dealers, u)
    for g in range(games):
        one = random_game(t, int(dealers[g]), Stream(u[g]))
        assert tuple(out.winners[g]) == one.trick_winners, g
        assert tuple(out.totals[g]) == one.totals and tuple(out.card_points[g]) == one.card_points, g
        kings = [(e.name, trick, first, pts) for e, trick, _owner, first, pts, _parties in one.events]
        batch_kings = [(t.events[k].name, int(tr), bool(f), int(p)) for k, tr, f, p in
                       zip(out.event_kind[g], out.event_trick[g], out.event_first[g], out.event_points[g]) if k >= 0]
        assert batch_kings == kings, g


def test_batch_and_engine_agree_trick_by_trick():
    t = tables_for("original")
    u = uniforms(t, 300, np.random.default_rng(9))
    out = random_batch(t, np.arange(300) % 4, u)
    for g in range(300):
        stream = Stream(u[g])
        game = Game.deal(t, g % 4, stream)
        game.play_randomly(stream)
        assert [tr.winner for tr in game.tricks] == list(out.winners[g])
        assert tuple(game.result().totals) == tuple(out.totals[g])


@pytest.mark.parametrize("ref", ["reconstruction", "three-player", "ai-reconstruction"])
def test_rulesets_with_castling_are_left_to_the_engine(ref):
    assert "castling" in supported(tables_for(ref))
    assert supported(tables_for("original")) is None


def test_a_game_uses_one_uniform_per_shuffle_swap_and_per_card():
    t = tables_for("original")
    assert draws_per_game(t) == (52 - 2 - 1) + 52
