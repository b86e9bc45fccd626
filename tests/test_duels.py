"""Duels of games of more than two parties: seats alternate A, B, A, B and swap on the second game of a deal; a
game is decided for A when A's best seat is ahead of B's best seat."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from schachett_rules.kernel.compiler import tables_for
from schachett_rules.kernel.state import State
from schachett_rules.kernel.streams import GameStream
from schachett_rules.players import make_bot
from schachett_rules.players.bots import chooser
from schachett_rules.simulation.ladder import (MANY_PARTIES, TWO_PARTIES, DuelResult, DuelSpec, ahead, compared,
                                               duel, holders, standings, tally)

HEARTS = tables_for("hearts")


def hearts_result(game_points):
    return SimpleNamespace(parties=((0,), (1,), (2,), (3,)), game_points=game_points, totals=(), winner=None)


def test_seatings_alternate_and_balance():
    # Hearts: A in seats 0 and 2, then in 1 and 3; over a deal each bot sits in every seat once
    assert holders(HEARTS, 0) == [0, 1, 0, 1] and holders(HEARTS, 1) == [1, 0, 1, 0]
    for game in (0, 1):
        assert holders(HEARTS, 0)[game] != holders(HEARTS, 1)[game]
    # two parties: A holds the first party's seats, then the second's, as before
    original = tables_for("original")
    assert holders(original, 0) == [0, 1, 0, 1] and holders(original, 1) == [1, 0, 1, 0]
    schafkopf = tables_for("schafkopf")
    assert holders(schafkopf, 0) == [0, 1, 1, 1] and holders(schafkopf, 1) == [1, 0, 0, 0]


def test_a_hand_made_set_of_hearts_games_gives_a_known_share():
    # (game of the deal, game points by seat); A sits in seats 0 and 2 in game 0, in 1 and 3 in game 1
    games = [(0, (20, 0, 6, 0)),     # A's best took 6, B's best none: B
             (1, (20, 0, 6, 0)),     # the same points, seats swapped: A
             (0, (3, 10, 0, 13)),    # A's seat 2 took none: A (however badly A's seat 0 did)
             (1, (3, 10, 0, 13)),    # B
             (0, (0, 0, 13, 13)),    # a seat of each took none: not decided
             (1, (0, 26, 26, 26)),   # seat 0 shot the moon, B's seat in game 1: B
             (0, (5, 4, 8, 9)),      # 4 is B's: B
             (1, (5, 4, 8, 9))]      # A
    counts = tally((game, ahead(standings(HEARTS, hearts_result(gp)), holders(HEARTS, game))) for game, gp in games)
    # A wins 3 (one in game 0, holding seat 0), B wins 4 (two in game 1, holding seat 0), one not decided
    assert counts == (3, 4, 1, 1, 2)
    r = DuelResult("a", "b", 8, *counts, compared=compared(HEARTS))
    assert r.decided == 7 and r.a_share == pytest.approx(3 / 7)
    # Wilson, p = 3/7, n = 7, z = 1.96: centre 0.70297 / 1.5488 = 0.45388, half 1.96 * sqrt(0.054585) / 1.5488
    low, high = r.interval
    assert low == pytest.approx(0.15822, abs=1e-4) and high == pytest.approx(0.74954, abs=1e-4)
    assert r.as_json()["compared"] == f"{MANY_PARTIES}, the fewest game points the best"


def test_two_parties_are_judged_by_the_kernels_winner():
    original = tables_for("original")
    won = SimpleNamespace(parties=((0, 2), (1, 3)), winner=1)
    assert standings(original, won) == [0, 1, 0, 1] and ahead(standings(original, won), holders(original, 0)) == 1
    equal = SimpleNamespace(parties=((0, 2), (1, 3)), winner=None)
    assert ahead(standings(original, equal), holders(original, 1)) is None
    # parties formed in the play: the winning party's seats decide, a party of both bots' seats decides nothing
    schafkopf = tables_for("schafkopf")
    called = SimpleNamespace(parties=((2, 3), (0, 1)), winner=0)
    assert ahead(standings(schafkopf, called), holders(schafkopf, 0)) == 1
    mixed = SimpleNamespace(parties=((0, 1), (2, 3)), winner=0)
    assert ahead(standings(schafkopf, mixed), holders(schafkopf, 0)) is None
    assert compared(original) == TWO_PARTIES


def test_a_played_hearts_game_is_decided_for_the_kernels_winner():
    for deal in range(4):
        stream = GameStream(3, deal)
        state = State.deal(HEARTS, deal % 4, stream)
        holder = holders(HEARTS, deal % 2)
        bots = make_bot("heuristic", HEARTS), make_bot("random", HEARTS)
        state.advance(chooser([bots[h] for h in holder], stream))
        result = state.result()
        verdict = ahead(standings(HEARTS, result), holder)
        if result.winner is not None:          # one seat alone took the fewest points
            assert verdict == holder[result.winner]
        else:
            best = min(result.game_points)
            assert (verdict is None) == (len({holder[s] for s in range(4) if result.game_points[s] == best}) == 2)


def test_a_hearts_duel_of_equals_is_balanced_and_repeatable():
    # random against random: both seatings of a deal draw the same numbers, so they are the same game and the
    # seat that wins it is A's in one and B's in the other
    r = duel(DuelSpec(ruleset="hearts", a="random", b="random", games=20, seed=4), use_cache=False)
    assert r.games == 20 and r.a_wins == r.b_wins and r.a_wins + r.b_wins + r.draws == 20
    assert r.a_wins_first == r.b_wins_first
    spec = DuelSpec(ruleset="hearts", a="heuristic", b="random", games=8, seed=2)
    assert duel(spec, workers=1, use_cache=False) == duel(spec, workers=2, use_cache=False)
