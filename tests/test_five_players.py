"""Schachett for five (variants/five-players): two against three, the partner called by a King or a Dame.

The deal below is worked by hand; the points come from §7 (checkmate: 100 and six times the cards each player
still held) and §12 (T 11, D 12, S 9, L 10, King nothing), the money from §12 and §12 (3p) (a quarter pfennig
a point of the difference; the party of fewer players receives the amount once per player, the others share it).
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from schachett_rules.errors import IllegalAction
from schachett_rules.kernel.actions import Call
from schachett_rules.kernel.compiler import tables_for
from schachett_rules.kernel.scoring import settle
from schachett_rules.kernel.state import State
from schachett_rules.kernel.verify import action_word, decision_action
from schachett_rules.players.bots import HeuristicBot, RandomBot, play_game

FIVE = [
    ["wT", "sT", "wL", "sL", "sL", "wS", "sS", "sS", "wIV", "wV"],               # the dealer
    ["wK", "wT", "s8", "s7", "s6", "wX", "wIX", "wVIII", "wVII", "wVI"],        # takes the game
    ["sK", "w1", "w2", "w3", "s1", "s2", "sI", "sII", "sIII", "sIV"],           # his only officer is the sK
    ["wD", "wL", "w4", "w5", "s3", "s4", "sV", "sVI", "sVII", "sVIII"],         # holds the Dame called
    ["sD", "wS", "w6", "w7", "s5", "sIX", "sX", "wI", "wII", "wIII"],
]
STOCK = ["sT", "w8"]


def decide(game: State, word: str) -> None:
    game.apply(decision_action(game, word))


def options(game: State) -> set[str]:
    return {action_word(game.base, a) for a in game.legal_actions()}


def names(game: State, seat: int) -> set[str]:
    return {game.t.deck.card_name(c) for c in range(game.t.n_cards) if game.hands[seat] >> c & 1}


def taken(hands=FIVE, stock=STOCK) -> State:
    """West (seat 1, left of the dealer) takes the game, picks up the stock and lays away wVI and wVII."""
    game = State.from_record(tables_for("five-players"), 0, hands, stock=stock)
    assert game.phase_name == "auction" and game.before_play_seat() == 1
    assert options(game) == {"called", "pass"}
    decide(game, "called")
    assert game.declarer == 1 and names(game, 1) == set(hands[1]) | set(stock)
    decide(game, "wVI")
    decide(game, "wVII")
    return game


def test_s1_five_hands_of_ten_and_two_cards_over():
    t = tables_for("five-players")
    game = State.deal(t, 0, random.Random(5))
    assert [h.bit_count() for h in game.hands] == [10] * 5
    assert game.stock.bit_count() == 2
    assert t.n_tricks == 10


def test_s1_the_first_bid_takes_the_game_and_the_dealer_must_take_it_when_all_pass():
    game = State.from_record(tables_for("five-players"), 0, FIVE, stock=STOCK)
    for seat in (1, 2, 3, 4):
        assert game.before_play_seat() == seat
        decide(game, "pass")
    assert game.before_play_seat() == 0 and options(game) == {"called"}       # the dealer may not pass


def test_s1_the_declarer_lays_two_away_and_calls_a_king_or_dame_he_lacks():
    game = taken()
    assert names(game, 1) == {"wK", "wT", "sT", "s8", "s7", "s6", "w8", "wX", "wIX", "wVIII"}
    assert game.phase_name == "call"
    assert options(game) == {"sK", "wD", "sD"}          # he holds the wK; Rooks, Bishops, Knights have twins


def test_s1_the_called_partner_is_hidden_until_his_dame_falls_and_s7_a_checkmate_between_the_parties():
    game = taken()
    decide(game, "wD")
    assert game.phase_name == "play" and game.seat_to_play() == 1
    for seat in (0, 1, 2, 4):                            # not even the declarer knows who holds the wD
        assert game.observation(seat).partners is None
    assert set(game.observation(3).partners) == {1}
    game.apply(game.verify_play("wT"))
    assert set(game.legal()) == {"sK"}                  # §3.1: an officer led, his only officer is the King
    for card in ("sK", "wD", "wS", "sL"):
        game.apply(game.verify_play(card))
    # the wD (seat 3) takes the trick and the sK of seat 2, an enemy King: checkmate for the pair, 100 + 6 × 10,
    # with the trick's cards: T 11 + K 0 + D 12 + S 9 + L 10
    pair, three = game.t.party_of[1], game.t.party_of[0]
    assert game.t.party_of[3] == pair and {game.t.party_of[s] for s in (0, 2, 4)} == {three}
    assert game.points[pair] == 160 + 42 and game.points[three] == 0
    assert set(game.observation(0).partners) == {2, 4}      # the Dame played, everyone knows the parties
    assert set(game.observation(1).partners) == {3}


def test_s12_3p_two_against_three_the_pair_receives_the_amount_each_and_the_three_share_it():
    game = taken()
    decide(game, "wD")
    pair = game.t.party_of[1]
    totals = (190, 68) if pair == 0 else (68, 190)
    winner, money = settle(game.t, totals)
    assert winner == pair
    # 190 - 68 = 122, a quarter pfennig a point: 30.5, rounded to 31 (§12); 2 × 31 shared by three
    assert [money[s] for s in (1, 3)] == [31, 31]
    assert [money[s] for s in (0, 2, 4)] == [Fraction(-62, 3)] * 3
    assert sum(money) == 0


def test_s1_a_declarer_who_took_up_every_king_and_dame_plays_alone_in_everyones_sight():
    hands = [list(h) for h in FIVE]
    # seat 1 holds wK, sK and wD, and the stock gives him the sD
    hands[1] = ["wK", "sK", "wD", "s8", "s7", "s6", "wX", "wIX", "wVIII", "wVII"]
    hands[2] = ["wT", "w1", "w2", "w3", "s1", "s2", "sI", "sII", "sIII", "sIV"]
    hands[3] = ["wVI", "wL", "w4", "w5", "s3", "s4", "sV", "sVI", "sVII", "sVIII"]
    hands[4] = ["sT", "wS", "w6", "w7", "s5", "sIX", "sX", "wI", "wII", "wIII"]
    game = State.from_record(tables_for("five-players"), 0, hands, stock=["sD", "w8"])
    decide(game, "called")
    decide(game, "w8")
    decide(game, "wVII")
    assert game.phase_name == "play" and game.called == -1
    assert [game.t.party_of[s] == game.t.party_of[1] for s in range(5)] == [False, True, False, False, False]
    for seat in range(5):
        assert set(game.observation(seat).partners) == (set() if seat == 1 else {0, 2, 3, 4} - {seat})


@pytest.mark.parametrize("bot", [RandomBot, HeuristicBot])
def test_random_and_heuristic_games_end_with_the_money_even_and_every_card_played_or_laid_away(bot):
    t = tables_for("five-players")
    for i in range(12):
        game = play_game(t, i % 5, [bot(t)] * 5, random.Random(i), game_number=i)
        assert game.over
        result = game.result()
        assert sum(result.net) == pytest.approx(0, abs=1e-9)
        assert len(result.parties) == 2 and sorted(len(p) for p in result.parties) in ([2, 3], [1, 4])
        played = [card for tr in game.tricks for _seat, card in tr.cards]
        laid_away = [t.deck.card_name(c) for c in range(t.n_cards) if any(m >> c & 1 for m in game.discarded)]
        assert sorted(played + laid_away) == sorted(t.deck.card_name(c) for c in range(t.n_cards))


def test_s1_a_king_he_laid_away_is_one_he_held_and_may_not_be_called():
    game = State.from_record(tables_for("five-players"), 0, FIVE, stock=STOCK)
    decide(game, "called")
    decide(game, "wK")          # he lays his own King away with a suit card
    decide(game, "wVI")
    assert options(game) == {"sK", "wD", "sD"}
    with pytest.raises(IllegalAction, match="he may not call a card he holds or laid away"):
        game.verify(Call(1, game.base.deck.card_of("wK")))
