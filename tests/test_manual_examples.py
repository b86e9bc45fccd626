"""The manual's worked examples, each played through the rules of variants/original.schachett."""

from __future__ import annotations

import pytest

from schachett_rules.kernel.trick import holds_against
from schachett_rules.kernel.compiler import tables_for
from schachett_rules.errors import IllegalAction
from schachett_rules.kernel.scoring import settle

from .conftest import game_with

# Seat 0 leads when seat 3 deals (§10.1); the printed deal then gives wK to seat 3 and sK to seat 0.


def play_trick(game, cards):
    for card in cards:
        game.play(card)
    return game.tricks[-1]


def test_s2_first_played_officer_holds_against_an_equal_one():
    # §2: "if the 1st player plays wS, the 2nd player sL, then this sL has captured the wS; if the 3rd
    # player now plays wL, the trick still belongs to the 2nd player".
    game = game_with("original", {0: ["wS"], 1: ["sL"], 2: ["wL"]})
    trick = play_trick(game, ["wS", "sL", "wL", "wK"])
    assert trick.winner == 1
    assert trick.winning_card == "sL"
    assert "sL takes wS" in trick.why[0]
    assert "wL does not take sL" in trick.why[1] and "first played holds" in trick.why[1]


def test_s2_pawn_taken_only_by_a_higher_pawn_of_its_colour():
    # §2: s6 led; the 2nd player may take it "with s7, but not with w8; rather, in this case w8 would
    # only be a 'discarded' card". Seat 1 holds no black pawn or suit card, so w8 is a legal discard.
    blackless = ["wD", "wT", "wT", "wL", "wL", "wS", "wS", "w1", "w2", "w3", "w4", "w5", "w8"]
    game = game_with("original", {0: ["s6"], 1: blackless, 2: ["s7"], 3: ["s1"]})
    trick = play_trick(game, ["s6", "w8", "s7", "s1"])
    assert [c for _, c in trick.cards[:3]] == ["s6", "w8", "s7"]
    assert "w8 does not take s6" in trick.why[0]
    assert trick.winning_card == "s7" and trick.winner == 2


def test_s3_2_pawn_led_s8_discarded_does_not_take_w7():
    # §3.2: "if w7 is led and one has no wB and no wF, then for example s8 could be discarded, which
    # Pawn does not take that w7 because it is of a different color."
    no_white_pawn_or_suit = ["s1", "s2", "s3", "s4", "s5", "s8", "sI", "sII", "sIII", "sIV", "sV", "sD", "sT"]
    game = game_with("original", {0: ["w7"], 1: no_white_pawn_or_suit, 2: ["w1"], 3: ["w2"]})
    game.play("w7")
    assert "s8" in game.legal()
    trick = play_trick(game, ["s8", "w1", "w2"])
    assert trick.winner == 0 and trick.winning_card == "w7"
    assert "s8 does not take w7" in trick.why[0] and "of its own colour" in trick.why[0]


def test_s3_2_a_player_holding_a_pawn_of_the_led_colour_must_play_one():
    game = game_with("original", {0: ["w7"], 1: ["w3", "sD"]})
    game.play("w7")
    with pytest.raises(IllegalAction) as err:
        game.play("sD")
    message = str(err.value)
    assert "trick 1" in message and "seat 1" in message and "sD" in message
    assert "white pawn" in message and "§3.2" in message


def test_s3_3_suit_card_led_s8_discarded_does_not_take_wV():
    # §3.3: "if wV ... is led and one has neither wF nor wB, then one could, for example, play s8, but
    # this Pawn does not take that card wV because it is of a different color".
    no_white_pawn_or_suit = ["s1", "s2", "s3", "s4", "s5", "s8", "sI", "sII", "sIII", "sIV", "sV", "sD", "sT"]
    game = game_with("original", {0: ["wV"], 1: no_white_pawn_or_suit, 2: ["wI"], 3: ["wII"]})
    game.play("wV")
    assert game.legal().forced_by is None  # no white suit card or pawn: any card is allowed
    trick = play_trick(game, ["s8", "wI", "wII"])
    assert trick.winner == 0 and trick.winning_card == "wV"
    assert "s8 does not take wV" in trick.why[0]


def test_s3_3_suit_card_led_a_pawn_of_its_colour_takes_it():
    # The reading chosen for lacuna pawn-takes-suit: §3.3 blames only the colour, so w8 would take wV.
    no_white_suit = ["w8", "s1", "s2", "s3", "s4", "s5", "s6", "sI", "sII", "sIII", "sIV", "sD", "sT"]
    game = game_with("original", {0: ["wV"], 1: no_white_suit, 2: ["wI"], 3: ["wII"]})
    game.play("wV")
    assert "must follow wV with a white pawn" in game.legal().forced_by
    trick = play_trick(game, ["w8", "wI", "wII"])
    assert trick.winner == 1 and trick.winning_card == "w8"


def test_s3_3_same_example_under_the_kinds_apart_reading():
    no_white_suit = ["w8", "s1", "s2", "s3", "s4", "s5", "s6", "sI", "sII", "sIII", "sIV", "sD", "sT"]
    game = game_with("original", {0: ["wV"], 1: no_white_suit, 2: ["wI"], 3: ["wII"]},
                     options={"pawn-takes-suit": "kinds-apart"})
    trick = play_trick(game, ["wV", "w8", "wI", "wII"])
    assert trick.winner == 0


def test_s3_1_officer_led_must_be_followed_by_an_officer_even_the_king():
    # §3.1: "If no other Officer except the King is available, this must be played."
    only_king = ["wK", "w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8", "wI", "wII", "wIII", "wIV"]
    game = game_with("original", {3: only_king, 0: ["sD"]}, dealer=3)
    # seat 3 is the dealer and holds wK; seat 0 leads sD and seats 1, 2 follow with any officer.
    game.play("sD")
    game.play(next(iter(game.legal())))
    game.play(next(iter(game.legal())))
    assert list(game.legal()) == ["wK"]
    with pytest.raises(IllegalAction) as err:
        game.play("w1")
    assert "§3.1" in str(err.value)


def test_s12_worked_example_190_against_68_at_a_quarter_pfennig():
    # §12: "190 – 68 = 122 ... 122 / 4 = 30.5 = 31 Pfg. won" by each of W1 and W2.
    t = tables_for("original")
    winner, money = settle(t, (190, 68))
    assert winner == 0
    assert [int(m) for m in money] == [31, -31, 31, -31]
    assert sum(money) == 0


def test_s11_suit_card_I_counts_as_dame_in_the_last_trick():
    # §11: "In the last trick, F I counts as a Dame (D)". Seat 0 keeps sI for the last trick and
    # leads it; seat 1's wD counts as equal, and the first played (promoted) card holds.
    t = tables_for("original")
    assert holds_against(t, t.n_tricks - 1, t.face("sI"), t.face("wT"))
    assert not holds_against(t, 0, t.face("sI"), t.face("wT"))
    assert not holds_against(t, t.n_tricks - 1, t.face("wD"), t.face("sI"))
    assert t.points_last[t.face("wIV")] == 9 and t.points[t.face("wIV")] == 0
