"""The two-player game and the solitaire: invariants over many games, and the solitaire's goal."""

from __future__ import annotations

import pytest

from schachett_rules.kernel.compiler import tables_for
from schachett_rules.kernel.state import State
from schachett_rules.kernel.observation import observe
from schachett_rules.studies.solitaire import difficulty, solve
from schachett_rules.kernel.streams import GameStream

from .conftest import deal_with


@pytest.mark.parametrize("games", [150, pytest.param(1500, marks=pytest.mark.slow)])   # a taste in the fast lane
@pytest.mark.parametrize("ref", ["two-player", "solitaire"])
def test_new_variants_keep_the_engines_invariants(ref, games):
    t = tables_for(ref)
    for i in range(games):
        stream = GameStream(7, i)
        game = State.deal(t, i % 4, stream)
        game.play_randomly(stream)
        r = game.result()
        played = sorted(t.deck.face_cards[t.face(c)].bit_length() for tr in game.tricks for _, c in tr.cards)
        assert len(game.tricks) == 13 and len(played) == 52
        assert all(h == 0 for h in game.hands)
        extra = sum(t.points_last[t.face(c)] - t.points[t.face(c)] for _, c in game.tricks[-1].cards)
        assert sum(r.card_points) == 216 + extra
        assert len(r.events) == 2 and sum(r.settlement) == 0


def test_two_player_each_player_plays_his_dummy_and_sees_it_only():
    t = tables_for("two-player")
    assert [t.controller(s) for s in range(4)] == [0, 1, 0, 1]
    game = State.deal(t, 3, GameStream(1, 0))                 # seat 0 leads; its dummy plays third
    assert set(observe(game, 0).hands) == {0}                 # his own hand plays first, so he sees it alone
    assert set(observe(game, 1).hands) == {1}                 # the dummy of seat 1 plays after seat 1's own hand
    game.play(next(iter(game.legal())))
    game.play(next(iter(game.legal())))
    assert set(observe(game, 0).hands) == {0, 2} and set(observe(game, 1).hands) == {1, 3}
    for _ in range(2):
        game.play(next(iter(game.legal())))
    assert set(observe(game, 1).hands) == {1, 2, 3}           # after trick 1 both dummies lie open


def test_solitaire_automaton_plays_its_rule():
    t = tables_for("solitaire")
    game = State.from_record(t, 3, deal_with(t, 3, {0: ["w5"], 1: ["w7", "w8", "wD"]}))
    game.play("w5")
    assert game.to_move == 1
    assert game.automaton_choice("cheapest-taker") == "w7"     # the cheapest card that takes w5
    lowest = game.automaton_choice("lowest")
    assert lowest == "w7" or t.rank[t.face(lowest)] <= t.rank[t.face("w7")]


# Twelve cards each: the deal adds a face-up King to one of the two hands (dealer 2: wK to seat 2, sK to seat 3).
STRONG = ["wD", "sD", "wT", "wT", "sT", "sT", "wL", "wL", "sL", "sL", "wS", "wS"]
STRONG_TOO = ["sS", "sS", "w8", "s8", "w7", "s7", "w6", "s6", "w5", "s5", "w4", "s4"]


def test_solitaire_a_deal_solved_by_hand_is_won():
    # The person's two hands hold every officer but the Kings and every pawn from 3 up: whatever the
    # automaton does, the person's party takes the tricks that count and wins.
    t = tables_for("solitaire")
    hands = deal_with(t, 2, {0: STRONG, 2: STRONG_TOO})
    game = State.from_record(t, 2, hands)
    verdict = solve(t, game=game, budget=20000)
    assert verdict.result == "win" and verdict.margin > 100


def test_solitaire_a_deal_solved_by_hand_is_lost():
    # Now the automaton holds all of that, and the person only the suit cards and low pawns: every trick
    # the person leads or follows is taken by the automaton's officers or pawns, so no line wins. The exact
    # search proves it, and no random line wins.
    t = tables_for("solitaire")
    hands = deal_with(t, 2, {1: STRONG, 3: STRONG_TOO})
    verdict = solve(t, game=State.from_record(t, 2, hands))
    assert verdict.result == "lost"
    for k in range(60):
        game = State.from_record(t, 2, hands)
        game.play_randomly(GameStream(5, k))
        result = game.result()
        assert result.winner == 1 and result.totals[1] > 150


def test_solitaire_difficulty_classes_are_consistent():
    t = tables_for("solitaire")
    label, verdict, rate = difficulty(t, 3, tries=30)
    assert label in ("easy", "medium", "hard") and verdict.result == "win"
    assert (label == "easy") == (rate >= 0.5)


def test_solitaire_the_solvers_bound_counts_the_points_of_a_later_king(rules):
    # A design where the later King scores far more than the first: the most the points still to come can move
    # a value counts a later King's 500, not only what a first King gives.
    from schachett_rules.kernel.compiler import compile_ruleset
    from schachett_rules.kernel.trick import card_points
    from schachett_rules.rules.loader import load
    from schachett_rules.search.exact import Solver
    path = rules('ruleset v "Late Kings" extends solitaire\n'
                 'override king checkmate [§7 design] { when: taken by opponent scores: taker first: 1 later: 500 }\n')
    t = compile_ruleset(load(str(path)))
    state = State.deal(t, 3, GameStream(1, 0))
    cards = sum(max(card_points(t, 0)[f], card_points(t, t.n_tricks - 1)[f]) for f in t.deck.card_face)
    assert Solver(t, table_bits=10)._room(state) >= cards + 2 * 500
    assert solve(t, game=state).result in ("win", "lost")
