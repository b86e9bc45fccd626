"""Comparing two runs on the same deals deal by deal (simulation.by_game, stats.paired_ratio, sweep.compare_metric)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings, strategies as st

from schachett_rules.simulation import simulate as sim
from schachett_rules.simulation.by_game import ByGame
from schachett_rules.simulation.stats import Tally, paired_ratio, two_proportions, welch
from schachett_rules.simulation.sweep import compare_metric, metrics, paired


def test_paired_share_of_games_by_hand():
    # party 0 wins deals 1, 2, 3 under one reading and deal 3 under the other: the deals differ by 1, 1, 0, 0;
    # mean 0.5, sd sqrt(1/3) = 0.5774, se 0.2887, z 1.732, two-sided p = erfc(1.732 / sqrt 2) = 0.0833
    diff, p = paired_ratio(np.array([1., 1., 1., 0.]), None, np.array([0., 0., 1., 0.]), None)
    assert diff == 0.5
    assert abs(p - 0.0833) < 5e-4


def test_paired_share_of_a_denominator_by_hand():
    # checkmates 2, 0, 1 of Kings 2, 1, 1 (3/4) against checkmates 1, 0, 1 of the same Kings (2/4): difference 1/4.
    # Linearised (mean Kings 4/3): (x - 3/4 y) / (4/3) = .375, -.5625, .1875 and (x - 1/2 y) / (4/3) = 0, -.375, .375;
    # their differences .375, -.1875, -.1875 have sd sqrt(.2109375 / 2) = .32476, se .1875, z 4/3, p 0.1824
    kings = np.array([2., 1., 1.])
    diff, p = paired_ratio(np.array([2., 0., 1.]), kings, np.array([1., 0., 1.]), kings)
    assert diff == 0.25
    assert abs(p - 0.1824) < 5e-4


def test_pairing_sees_through_the_luck_of_the_deal():
    # every deal is worth 0 to 990 points, and one reading adds exactly one point to each: as two samples the
    # difference of 1 drowns in a spread of about 290; deal by deal it is certain
    deals = np.arange(100) * 10.0
    a, b = Tally(), Tally()
    for x in deals:
        a.add(int(x) + 1)
        b.add(int(x))
    assert welch(a, b)[1] > 0.9
    assert paired_ratio(deals + 1, None, deals, None) == (1.0, 0.0)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 9), st.integers(1, 3), st.integers(0, 9), st.integers(1, 3)),
                min_size=2, max_size=40))
def test_paired_ratio_is_antisymmetric_and_a_run_equals_itself(rows):
    xa, ya, xb, yb = (np.array(col, dtype=float) for col in zip(*rows))
    d1, p1 = paired_ratio(xa, ya, xb, yb)
    d2, p2 = paired_ratio(xb, yb, xa, ya)
    assert math.isclose(d1, -d2, abs_tol=1e-12) and math.isclose(p1, p2, abs_tol=1e-9)
    assert paired_ratio(xa, ya, xa, ya) == (0.0, 1.0)
    assert math.isclose(d1, xa.sum() / ya.sum() - xb.sum() / yb.sum(), abs_tol=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-2**31 + 1, 2**31 - 1), max_size=50),
       st.lists(st.floats(allow_nan=False, allow_infinity=False, width=64), max_size=50))
def test_each_games_figures_are_stored_exactly(whole, money):
    kept = ByGame()
    kept.extend({"points": whole}, len(whole))
    other = ByGame()
    other.extend({"money": money}, len(money))
    kept.merge(other)
    back = ByGame.decode(kept.encode())
    assert back == kept and len(back) == len(whole) + len(money)
    assert back.column("points").tolist() == [float(x) for x in whole] + [0.0] * len(money)
    assert back.column("money").tolist() == [0.0] * len(whole) + money


def _add_up(s):
    """Each game's figures summed, against the run's own totals."""
    g = s.by_game
    assert len(g) == s.games
    assert g.column("win").sum() == s.wins[0]
    assert g.column("decided").sum() == s.games - s.draws
    assert g.column("leader").sum() == s.leader_party_wins
    assert g.column("kings").sum() == sum(k * v for k, v in s.events_per_game.items())
    for name, by_trick in s.events_by_trick.items():
        assert g.column("event:" + name).sum() == sum(by_trick)
    assert g.column("points").sum() == s.points[0].total
    assert math.isclose(g.column("money").sum(), float(s.money_per_winner.total), abs_tol=1e-6)
    assert g.column("changes").sum() == s.lead_changes.total and g.column("swung").sum() == s.lead_changes.n
    assert g.column("loser_led").sum() == s.loser_led


def test_each_games_figures_add_up_to_the_runs_totals():
    _add_up(sim.run(sim.Spec(ruleset="original", games=800, seed=3)))                       # the batch
    _add_up(sim.run(sim.Spec(ruleset="original", games=30, seed=3, bots=("heuristic",))))   # the engine
    _add_up(sim.run(sim.Spec(ruleset="five-players", games=30, seed=3)))


def test_each_games_figures_are_the_same_whatever_the_path_workers_chunks_and_cache(tmp_path, monkeypatch):
    from schachett_rules.kernel.state import State
    from schachett_rules.kernel.streams import GameStream
    spec = sim.Spec(ruleset="original", games=300, seed=8)
    t = sim.tables_of(spec)
    batch = sim.run(spec)
    engine = sim.empty_stats(t)
    for i in range(spec.games):
        stream = GameStream(8, i)
        game = State.deal(t, i % 4, stream, game=i)
        game.play_randomly(stream)
        sim.add_game(engine, t, game)
    for name in batch.by_game.names():
        assert np.array_equal(batch.by_game.column(name), engine.by_game.column(name)), name
    assert sim.run(spec.model_copy(update={"chunk": 70}), workers=2).by_game == batch.by_game
    monkeypatch.setenv("SCHACHETT_CACHE", str(tmp_path))
    stored, _ = sim.cached_run(spec)
    again, hit = sim.cached_run(spec)
    assert hit and again.by_game == stored.by_game == batch.by_game and again.seed == 8


def test_runs_of_one_seed_compare_deal_by_deal_and_others_as_two_samples():
    a = sim.run(sim.Spec(ruleset="original", games=2000, seed=4))
    b = sim.run(sim.Spec(ruleset="original", options={"remaining": "all-hands"}, games=2000, seed=4))
    c = sim.run(sim.Spec(ruleset="original", options={"remaining": "all-hands"}, games=2000, seed=5))
    win_a, win_b, win_c = (metrics(s)[0] for s in (a, b, c))
    assert paired(win_a, win_b) and not paired(win_a, win_c)
    assert compare_metric(win_c, win_a) == two_proportions(c.wins[0], c.games, a.wins[0], a.games)
    diff, p = compare_metric(win_b, win_a)
    assert diff == (b.wins[0] - a.wins[0]) / 2000
    assert (diff, p) == paired_ratio(b.by_game.column("win"), None, a.by_game.column("win"), None)
    # the reading changes only what a King event scores (§6), and random players' cards do not depend on it: every
    # deal is played card for card alike, the Kings meet the same fates, and the lead changes with the points, which
    # deal by deal shows far more clearly than two runs' totals do
    checkmates_a, checkmates_b = (next(m for m in metrics(s) if m.name == "checkmate share of Kings") for s in (a, b))
    assert compare_metric(checkmates_b, checkmates_a) == (0.0, 1.0)
    changes_a, changes_b = (next(m for m in metrics(s) if m.name == "lead changes per game") for s in (a, b))
    assert 0 < compare_metric(changes_b, changes_a)[1] < welch(changes_b.test[1], changes_a.test[1])[1] / 100
