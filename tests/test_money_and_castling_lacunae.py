"""Three gaps the manual leaves, now lacunae with readings: the Kaiser's stake, how penalty points become money,
and the player left of the Kaiser castling his partner's King; and a rescue that asks the King's fate.

Expected values are worked by hand from the rule text: §12's quarter pfennig (an amount of
round_half_up(difference / 4)), the 25 points of §3.4, §10.2 and §10.3, the seats of the 3-player game
(Kaiser on seat 0, the dummy on seat 2, the two others on seats 1 and 3; §4,2 (3p)) and its deal (the wK to the
dealer, the sK to his left; §4,4 (3p), §4,5 (3p)).
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from schachett_rules.kernel.state import State
from schachett_rules.engine.replay import record_of, replay
from schachett_rules.engine.session import ledger
from schachett_rules.errors import IllegalAction
from schachett_rules.kernel import castling as castle_rules
from schachett_rules.kernel.compiler import compile_ruleset, tables_for
from schachett_rules.kernel.scoring import penalty_settlement, settle
from schachett_rules.rules.loader import load

from .test_batch import test_the_state_the_one_game_path_and_the_batch_play_the_same_games as three_paths_agree
from .test_sessions import money_sum, played

SINGLE = (("stake", "single"),)


# --- the three-player stake ---------------------------------------------------------------------------------

def test_12_3p_double_stake_the_kaiser_settles_for_both_hands():
    # 190 against 68 at a quarter pfennig: 122 / 4 = 30.5, 31 Pfg. (§12); every seat settles it
    winner, money = settle(tables_for("three-player"), (190, 68))
    assert winner == 0 and money == (31, -31, 31, -31)
    kaiser = money[0] + money[2]
    assert kaiser == 62 and money[1] == money[3] == -31


@pytest.mark.parametrize("totals, kaiser, each_other", [((190, 68), 31, Fraction(-31, 2)),
                                                        ((68, 190), -31, Fraction(31, 2))])
def test_12_3p_single_stake_the_kaiser_settles_once_and_the_others_share(totals, kaiser, each_other):
    # the Kaiser receives (pays) the 31 once, on his own seat; each of the two others pays (receives) half
    winner, money = settle(tables_for("three-player", SINGLE), totals)
    assert money == (kaiser, each_other, 0, each_other)


@given(st.integers(0, 400), st.integers(0, 400), st.sampled_from([(), SINGLE]))
def test_12_3p_the_money_at_the_table_sums_to_zero_under_either_stake(a, b, options):
    assert sum(settle(tables_for("three-player", options), (a, b))[1]) == 0


def test_12_four_players_settle_alike_under_either_stake():
    # four players, one seat each: per player is per seat
    t = tables_for("original")
    assert t.stake == "seat" and settle(t, (190, 68))[1] == (31, -31, 31, -31)


def test_3_4_3p_single_stake_a_penalty_to_each_opponent_reaches_the_kaiser_once():
    # §3.4: 25 points to each member of the opposing party; at a quarter pfennig 25 / 4 = 6.25, 6 Pfg.
    for options, want in (((), (6, -12, 6, 0)), (SINGLE, (6, -6, 0, 0))):
        t = tables_for("three-player", options)
        game = State.deal(t, 0, random.Random(3))
        rec = game.penalty(1, "revoke", t.deck.card_name(game.hands[1].bit_length() - 1))
        assert rec.to == ((0, 2) if not options else (0,))
        assert game.penalty_money == want


def test_12_3p_the_session_ledger_follows_the_stake():
    for options in ({}, dict(SINGLE)):
        t, session = played("three-player", 5, options)
        lines = ledger(t, session)
        assert money_sum(lines) == 0
        by_game = []
        ledger(t, session, after_each=lambda n, lines: by_game.append(money_sum(lines)))
        assert set(by_game) == {0}


def test_12_3p_a_stake_per_player_needs_the_dummy_played_by_its_own_party(rules):
    path = rules('ruleset v "V" extends three-player\nchoose stake single\n'
                 'override dummy [§4,2 (3p) design]: seat 2 played by seat 1, exposed after trick 1\n')
    with pytest.raises(Exception, match="seat 1 plays seat 2, a seat of the other party"):
        compile_ruleset(load(str(path)))


# --- penalty points into money --------------------------------------------------------------------------------

@pytest.mark.parametrize("reading, each", [("each-penalty", 12), ("per-game", 13)])
def test_3_4_two_revokes_each_rounded_or_summed_first(reading, each):
    # two revokes by seat 1, each 25 points to seats 0 and 2: 6 + 6 = 12 Pfg. each, or 50 / 4 = 12.5, 13 Pfg.
    t = tables_for("original", (("penalty-money", reading),))
    game = State.deal(t, 3, random.Random(1))
    taken_back = t.deck.card_name(game.hands[1].bit_length() - 1)   # §3.4: the card is taken back into the hand
    game.penalty(1, "revoke", taken_back)
    game.penalty(1, "revoke", taken_back)
    game.play_randomly(random.Random(2))
    r = game.result()
    assert r.penalties == (each, -2 * each, each, 0)
    assert sum(r.net) == 0


def test_10_3_per_game_debts_between_two_players_are_set_against_each_other():
    # §10.3: 25 points to each player. Seat 0 and seat 1 both look back: their debts to each other cancel;
    # each still owes seats 2 and 3 25 points, 6 Pfg. each
    t = tables_for("original", (("penalty-money", "per-game"),))
    game = State.deal(t, 3, random.Random(4))
    game.penalty(0, "looking-back")
    game.penalty(1, "looking-back")
    assert game.penalty_money == (-12, -12, 12, 12)
    # §10.2 and §3.4 together, seat 1 to seat 0: 25 + 25 = 50 points, 13 Pfg. (each rounded: 6 + 6 = 12)
    debts = [(1, 0, 25), (1, 0, 25), (0, 1, 25)]
    assert penalty_settlement(t, debts) == (6, -6, 0, 0)        # 25 net, 6.25: 6
    assert penalty_settlement(tables_for("original"), debts) == (6, -6, 0, 0)


def test_12_the_printed_and_the_reconstructed_rulesets_choose_a_penalty_reading():
    assert tables_for("original").penalty_rounding == "each"
    assert tables_for("reconstruction").penalty_rounding == "game"


# --- §5 (3p): the left player's castling with his partner's King -------------------------------------------

def test_5_3p_the_left_player_without_a_king_castles_his_partners():
    # game 3 of a reign: seat 2 deals, the wK lies with the dummy (seat 2), the sK with seat 3; seat 1 holds none
    t = tables_for("three-player")
    assert t.castling.other_king_before_play
    game = State.deal(t, 2, random.Random(7))
    sk = t.deck.card_name(next(c for c in range(t.n_cards) if t.royal_cards >> c & 1 and game.hands[3] >> c & 1))
    assert sk == "sK" and not game.hands[1] & t.royal_cards
    options = [o for o in game.castle_options() if o.seat == 1]
    assert options and all(o.kind == "before" and o.with_seat == 3 and o.giver == 1 for o in options)
    officer = t.deck.card_name(options[0].officers[0])
    before1, before3 = game.hands[1], game.hands[3]
    rec = game.castle(1, officer, "sK")
    assert rec.seat == 1 and rec.with_seat == 3 and rec.king == "sK"
    assert game.hands[1] & t.royal_cards and not game.hands[3] & t.royal_cards
    assert bin(game.hands[1]).count("1") == bin(before1).count("1") == 13
    assert bin(game.hands[3]).count("1") == bin(before3).count("1") == 13


def test_5_3p_own_king_only_the_left_player_without_a_king_cannot_castle():
    t = tables_for("three-player", (("castle-king", "own-king-only"),))
    game = State.deal(t, 2, random.Random(7))
    assert not [o for o in game.castle_options() if o.seat == 1]
    officer = next(t.deck.card_name(c) for c in range(t.n_cards) if game.hands[1] >> c & 1
                   and castle_rules.officer_cards(t) >> c & 1)
    with pytest.raises(IllegalAction, match="seat 1 holds no King"):
        game.castle(1, officer)


def test_5_3p_a_left_player_holding_a_king_castles_his_own():
    # game 1: the Kaiser deals; the sK lies with seat 1, who castles it with an officer of seat 3
    t = tables_for("three-player")
    game = State.deal(t, 0, random.Random(9))
    options = [o for o in game.castle_options() if o.seat == 1]
    assert options and all(o.giver == 3 and o.king_seat == 1 for o in options)


# --- castle rescue by the King's fate --------------------------------------------------------------------------

CHECKMATE_ONLY = 'ruleset v "V" extends three-player\noverride castle rescue [§5 (3p) design]: checkmate\n'


def _card(t, name):
    face = t.face(name)
    return next(c for c in range(t.n_cards) if t.deck.card_face[c] == face)


def test_5_3p_a_rescue_from_checkmate_only_leaves_a_selfmated_king(rules):
    # the Kaiser's wK (seat 0) falls in trick 1: taken by seat 1 (an opponent: checkmate, §7) or by his own
    # dummy's card (seat 2: selfmate, §8). The rule file names only checkmate, so only the first may be rescued.
    t = compile_ruleset(load(str(rules(CHECKMATE_ONLY))))
    assert t.castling.rescue_fates == ("opponent",)
    assert t.castling.may_rescue("opponent") and not t.castling.may_rescue("partner")
    wk, sd, wd, w1 = (_card(t, n) for n in ("wK", "sD", "wD", "w1"))
    trick = [(0, wk), (1, sd), (2, wd), (3, w1)]
    hands = [0, 0, 1 << _card(t, "wT"), 0]          # the dummy's hand (opposite the Kaiser) holds a Rook
    taken_by_opponent = castle_rules.options(t, castle_rules.RESCUE, hands, trick, 0, 1, 0, 0)
    taken_by_partner = castle_rules.options(t, castle_rules.RESCUE, hands, trick, 0, 2, 0, 0)
    assert [(o.seat, o.king, o.with_seat) for o in taken_by_opponent] == [(0, wk, 2)]
    assert taken_by_partner == []
    printed = tables_for("three-player")           # checkmate, selfmate (§5 (3p)): both may be rescued
    assert len(castle_rules.options(printed, castle_rules.RESCUE, hands, trick, 0, 2, 0, 0)) == 1


def test_5_3p_a_checkmate_only_rescue_plays_alike_on_every_path(rules):
    three_paths_agree(str(rules(CHECKMATE_ONLY)), ())


def test_5_3p_a_partner_king_castle_replays_from_its_record():
    # a game in which seat 1, holding no King, castled the sK of seat 3 before play replays to the same score
    t = tables_for("three-player")
    for seed in range(200):
        game = State.deal(t, 2, random.Random(seed))
        game.play_randomly(random.Random(seed))
        if any(c.seat == 1 and c.kind == "before" for c in game.castles):
            break
    else:
        pytest.fail("no castle of seat 1 before play in 200 games")
    report = replay(record_of(game, "three-player"))
    assert report.result == game.result()
    assert [(c.seat, c.king, c.officer, c.with_seat) for c in report.castles] == \
        [(c.seat, c.king, c.officer, c.with_seat) for c in game.castles]
