"""One test (or a few) per clause kind, each through a rule file and the public engine."""

from __future__ import annotations

import random

import pytest

from schachett_rules.kernel.trick import holds_against
from schachett_rules.kernel.compiler import compile_ruleset, tables_for
from schachett_rules.kernel.state import State
from schachett_rules.errors import IllegalAction, RecordError, RuleCheckError
from schachett_rules.rules.loader import load
from schachett_rules.rules.rulebook import render_ruleset
from schachett_rules.engine.replay import parse_record, record_of, replay
from schachett_rules.kernel.scoring import settle
from schachett_rules.engine.session import next_cycle_start, partner_counts, seatings

from .conftest import deal_with, game_with

ONLY_KING = ["wK", "w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8", "wI", "wII", "wIII", "wIV"]
NO_BLACK_PAWN_OR_SUIT = ["wK", "wD", "wT", "wT", "wL", "wL", "wS", "wS", "w1", "w2", "w3", "w4", "w5"]


def variant(rules, body: str, name: str = "variant"):
    return rules(f'ruleset {name} "A test variant" extends original\n' + body, name)


def play(game, cards):
    for c in cards:
        game.play(c)
    return game.tricks[-1]


# --- deck, seats, parties, deal, lead ---------------------------------------------------------

def test_s1_deck_faces_and_copies_come_from_the_deck_clause(rules):
    path = variant(rules, 'override deck [§1 design] {\n colours w "white", s "black"\n'
                          ' officer: K "King" royal, D "Dame", T "Rook" ×3, L "Bishop" ×2, S "Knight"\n'
                          ' pawn: 1..8\n suit: I..X\n}\n')
    t = compile_ruleset(load(str(path)))
    assert t.n_cards == 52
    assert t.deck.face_cards[t.face("wT")].bit_count() == 3
    assert t.deck.face_cards[t.face("sS")].bit_count() == 1
    game = State.deal(t, 0, random.Random(2))
    game.play_randomly(random.Random(3))
    assert game.over


def test_s1_original_deck_has_52_cards_and_two_of_each_minor_officer():
    t = tables_for("original")
    assert t.n_cards == 52 and t.n_faces == 46
    assert [t.deck.face_cards[t.face(n)].bit_count() for n in ("wK", "wD", "wT", "wL", "wS", "w8", "wX")] == [1, 1, 2, 2, 2, 1, 1]


def test_s1_parties_can_be_given_explicitly(rules):
    path = variant(rules, "override parties [§1 design]: 0 1 | 2 3\n")
    t = compile_ruleset(load(str(path)))
    assert t.party_of == (0, 0, 1, 1)
    assert tables_for("original").party_of == (0, 1, 0, 1)


def test_s1_parties_must_share_out_every_seat(rules):
    path = variant(rules, "override parties [§1 design]: 0 1 | 2\n")
    with pytest.raises(RuleCheckError, match="share out the seats"):
        compile_ruleset(load(str(path)))


def test_s4_printed_deal_puts_the_kings_face_up_with_dealer_and_left_neighbour():
    t = tables_for("original")
    for dealer in range(4):
        game = State.deal(t, dealer, random.Random(dealer))
        assert "wK" in [t.deck.card_name(c) for c in range(52) if game.hands[dealer] >> c & 1]
        assert "sK" in [t.deck.card_name(c) for c in range(52) if game.hands[(dealer + 1) % 4] >> c & 1]
        assert game.log[0].face_up == ((dealer, "wK"), ((dealer + 1) % 4, "sK"))


def test_s4_a_record_with_the_kings_elsewhere_is_rejected_and_the_ai_deal_allows_it():
    t = tables_for("original")
    hands = deal_with(t, 3, {})
    hands[3][hands[3].index("wK")], hands[2][0] = hands[2][0], "wK"
    record = {"ruleset": "original", "dealer": 3, "hands": hands, "actions": []}
    with pytest.raises(RecordError, match="face up to the dealer"):
        replay(parse_record(__import__("json").dumps(record)))
    t_ai = tables_for("original", (("deal", "random"),))
    assert State.from_record(t_ai, 3, hands).hands[2] & t_ai.deck.face_cards[t_ai.face("wK")]


def test_s10_1_the_lead_clause_names_the_first_leader(rules):
    path = variant(rules, "override lead first [§10.1 design]: dealer + 2\n")
    t = compile_ruleset(load(str(path)))
    assert State.deal(t, 1, random.Random(0)).to_move == 3
    assert State.deal(tables_for("original"), 1, random.Random(0)).to_move == 2


def test_s10_1_the_winner_leads_the_next_trick():
    game = State.deal(tables_for("original"), 0, random.Random(9))
    for _ in range(4):
        game.play(next(iter(game.legal())))
    assert game.to_move == game.tricks[0].winner


# --- ranking, capture, ties, follow ---------------------------------------------------------------

def test_s2_ranking_clause_orders_the_faces(rules):
    path = variant(rules, "drop lacuna suit-order\n"
                          "ranking [§2 design]: D > T = L > S > K > 8 > 7 > 6 > 5 > 4 > 3 > 2 > 1 > X > IX > "
                          "VIII > VII > VI > V > IV > III > II > I\n")
    t = compile_ruleset(load(str(path)))
    assert not holds_against(t, 0, t.face("sL"), t.face("wT")) and not holds_against(t, 0, t.face("wT"), t.face("sL"))
    assert holds_against(t, 0, t.face("sD"), t.face("wT"))


def test_s2_ranking_must_name_every_face_once(rules):
    path = variant(rules, "drop lacuna suit-order\nranking [§2 design]: D > T > L > S > K > 8 > 7\n")
    with pytest.raises(RuleCheckError, match="leaves out"):
        compile_ruleset(load(str(path)))


def test_s2_capture_clause_decides_which_kinds_take(rules):
    path = variant(rules, "drop lacuna pawn-takes-suit\ncapture [§2 design] {\n officer takes lower: any\n"
                          " pawn takes lower: pawn, suit\n suit takes lower: suit of same colour\n}\n")
    t = compile_ruleset(load(str(path)))
    assert holds_against(t, 0, t.face("s8"), t.face("w7"))       # this design lets pawns take across colours
    o = tables_for("original")
    assert not holds_against(o, 0, o.face("s8"), o.face("w7"))


def test_s2_ties_clause_can_let_the_later_card_take(rules):
    path = variant(rules, "drop lacuna ties\nties [§2 design] { officer: later played takes }\n")
    game = game_with("original", {0: ["wS"], 1: ["sL"], 2: ["wL"]}, path=path)
    trick = play(game, ["wS", "sL", "wL", "wK"])
    assert trick.winner == 2 and "later played takes" in trick.why[1]


def test_s3_follow_clause_tiers_decide_the_legal_cards(rules):
    path = variant(rules, "override follow pawn [§3.2 design] {\n 1: any\n}\n")
    game = game_with("original", {0: ["w7"], 1: ["w3", "sD"]}, path=path)
    game.play("w7")
    assert "sD" in game.legal() and game.legal().forced_by is None


def test_s3_1_king_last_reading_keeps_the_king_back():
    game = game_with("original", {0: ["sD"], 3: ["wK", "wT"]}, options={"king-follow": "king-last"})
    game.play("sD")
    game.play(next(iter(game.legal())))
    game.play(next(iter(game.legal())))
    assert "wK" not in game.legal() and "wT" in game.legal()
    assert "other than King" in game.legal().forced_by


# --- promotion and points ---------------------------------------------------------------------------

def test_s11_without_the_promotion_clause_suit_card_I_stays_low(rules):
    path = variant(rules, "drop promotion\ndrop lacuna promoted-points\n")
    t = compile_ruleset(load(str(path)))
    assert not holds_against(t, t.n_tricks - 1, t.face("sI"), t.face("wT"))
    o = tables_for("original")
    assert holds_against(o, o.n_tricks - 1, o.face("sI"), o.face("wT"))


def test_s12_points_clause_gives_the_card_points(rules):
    path = variant(rules, "override points [§12 design] {\n pawn: value * 2\n S: 9\n L: 10\n T: 11\n D: 12\n"
                          " K: 0\n suit: 0\n}\n")
    t = compile_ruleset(load(str(path)))
    assert t.points[t.face("w8")] == 16 and sum(t.points[f] * t.deck.face_cards[f].bit_count()
                                                 for f in range(t.n_faces)) == 216 + 72


def test_s12_points_must_cover_every_card(rules):
    path = variant(rules, "override points [§12 design] {\n pawn: value\n D: 12\n}\n")
    with pytest.raises(RuleCheckError, match="no points are given"):
        compile_ruleset(load(str(path)))


def test_s12_promoted_points_readings():
    printed = tables_for("original")
    officers = tables_for("original", (("promoted-points", "as-officers"),))
    assert [printed.points_last[printed.face(n)] for n in ("wI", "wII", "wIII", "wIV")] == [0, 0, 0, 9]
    assert [officers.points_last[officers.face(n)] for n in ("wI", "wII", "wIII", "wIV")] == [12, 11, 10, 9]


# --- King events -----------------------------------------------------------------------------------

def checkmate_in_trick_one(options=None):
    game = game_with("original", {3: ONLY_KING, 0: ["sD"]}, options=options)
    game.play("sD")
    game.play(next(iter(game.legal())))
    game.play(next(iter(game.legal())))
    return play(game, ["wK"])


def test_s7_checkmate_scores_100_plus_six_times_remaining_for_the_taker():
    trick = checkmate_in_trick_one()
    (event,) = [e for e in trick.events if e.king == "wK"]
    assert event.event == "checkmate" and event.order == "first"
    assert event.points == 100 + 6 * 13 and event.scoring_parties == (trick.winner % 2,)


def test_s6_remaining_all_hands_reading_multiplies_by_all_cards_held():
    trick = checkmate_in_trick_one({"remaining": "all-hands"})
    (event,) = [e for e in trick.events if e.king == "wK"]
    assert event.points == 100 + 6 * 52


def test_s8_selfmate_scores_for_the_opponents_of_the_king():
    # seat 3 (dealer) holds wK and no black pawn or suit card; seat 1, its partner, takes the trick.
    no_black_b_f = ["sT", "w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8", "wI", "wII", "wIII", "wIV"]
    game = game_with("original", {0: ["s1"], 1: no_black_b_f, 2: ["s2"], 3: ["wK", "wV", "wVI", "wVII", "wVIII",
                                                                           "wIX", "wX", "wD", "wT", "wL", "wL", "wS", "wS"]})
    trick = play(game, ["s1", "sT", "s2", "wK"])
    assert trick.winner == 1
    (event,) = trick.events
    assert event.event == "selfmate" and event.points == 50 + 4 * 13 and event.scoring_parties == (0,)


def test_s9_stalemate_scores_for_the_kings_own_party():
    game = game_with("original", {0: ["s1"], 1: ["s2"], 2: ["s3"], 3: NO_BLACK_PAWN_OR_SUIT})
    trick = play(game, ["s1", "s2", "s3", "wK"])
    assert trick.winner == 3
    (event,) = trick.events
    assert event.event == "stalemate" and event.points == 25 + 2 * 13 and event.scoring_parties == (1,)


@pytest.mark.parametrize("option, check", [
    ("by-fate", lambda firsts, kinds, same: firsts == 1),
    ("per-event", lambda firsts, kinds, same: firsts == kinds),
    ("both-first", lambda firsts, kinds, same: firsts == (2 if same else 1)),
])
def test_s7_king_order_readings_decide_which_king_is_first(option, check):
    t = tables_for("original", (("king-order", option),))
    for seed in range(150):
        rng = random.Random(seed)
        game = State.deal(t, seed % 4, rng)
        game.play_randomly(rng)
        events = game.result().events
        firsts = sum(e.order == "first" for e in events)
        assert check(firsts, len({e.event for e in events}), events[0].trick == events[1].trick), (option, seed)


# --- settlement, penalties, looking back, castling ---------------------------------------------------

def test_s12_settlement_clause_turns_points_into_money(rules):
    path = variant(rules, 'drop lacuna rounding settlement [§12 design] {\n unit "points"\n amount: winner - loser\n per player\n}\n')
    t = compile_ruleset(load(str(path)))
    winner, money = settle(t, (68, 190))
    assert winner == 1 and [int(m) for m in money] == [-122, 122, -122, 122]


def random_record(seed=4):
    t = tables_for("original")
    rng = random.Random(seed)
    game = State.deal(t, 3, rng)
    game.play_randomly(rng)
    return record_of(game, "original").model_dump()


@pytest.mark.parametrize("name, expected", [
    ("revoke", {1: -12, 0: 6, 2: 6, 3: 0}),          # 25 points to each opponent = 6 Pfg each (25 / 4 rounded)
    ("looking-back", {1: -18, 0: 6, 2: 6, 3: 6}),    # to each other player
])
def test_s3_4_and_s10_penalties_pay_each_opponent_or_player(name, expected):
    record = random_record()
    penalty = {"seat": 1, "name": name}
    if name == "revoke":   # §3.4: "take the card back": the card seat 1 wrongly played stays in its hand
        last = replay(parse_record(__import__("json").dumps(record))).tricks[-1]
        penalty["card"] = next(c for s, c in last.cards if s == 1)    # still in seat 1's hand in trick 2
    record["actions"].insert(5, {"penalty": penalty})
    report = replay(parse_record(__import__("json").dumps(record)))
    assert {s: report.result.penalties[s] for s in range(4)} == expected
    assert sum(report.result.net) == 0


def test_s3_4_late_revoke_forfeits_the_partys_points():
    record = random_record()
    record["actions"].append({"penalty": {"seat": 2, "name": "late-revoke"}})
    report = replay(parse_record(__import__("json").dumps(record)))
    assert report.result.totals[0] == 0 and report.result.forfeited == (0,)


def test_s10_3_review_clause_is_kept_and_shown():
    r = load("original")
    assert r.clause("review").tricks == 1
    assert "no earlier one" in render_ruleset(r)


def test_s5_castling_none_rejects_a_castle_in_a_record():
    record = random_record()
    record["actions"].insert(0, {"castle": {"seat": 0, "officer": "sT"}})
    with pytest.raises(IllegalAction, match="castling"):
        replay(parse_record(__import__("json").dumps(record)))


# --- sessions ------------------------------------------------------------------------------------------

def test_s13_seat_changes_return_to_the_first_seating_after_six_rounds():
    session = load("original").clause("session")
    rounds = seatings(session, "ABCD")
    assert len(rounds) == 6 and len({"".join(r) for r in rounds}) == 6
    assert next_cycle_start(session, "ABCD") == list("ABCD")


def test_s13_every_pair_of_players_is_partnered_equally_often():
    session = load("original").clause("session")
    counts = partner_counts(session, "ABCD", tables_for("original").parties)
    assert set(counts.values()) == {2} and len(counts) == 6


def test_s4_dealer_clause_passes_the_deal_left():
    assert load("original").clause("dealer").passes == "left"


# --- inheritance and lacunae ------------------------------------------------------------------------------

def test_extends_drop_by_section_removes_the_clauses_filed_there(rules):
    path = variant(rules, "drop §10.3\n")
    r = load(str(path))
    assert r.clause("review") is None and r.clause("penalty looking-back") is None
    assert r.clause("penalty out-of-turn") is not None
    compile_ruleset(r)


def test_extends_override_needs_the_keyword_and_a_parent_clause(rules):
    with pytest.raises(RuleCheckError, match="write `override seats"):
        load(str(variant(rules, "seats [§1 design]: 4\n")))
    with pytest.raises(RuleCheckError, match="does not have"):
        load(str(variant(rules, "override king coronation [§7 design] { when: taken by opponent scores: taker "
                                "first: 1 later: 1 }\n")))


def test_lacuna_choice_can_be_overridden_by_a_child_and_by_options(rules):
    path = variant(rules, "choose deal random\n")
    assert load(str(path)).choice("deal") == "random"
    assert load(str(path), {"§4": "kings-face-up"}).choice("deal") == "kings-face-up"
    with pytest.raises(RecordError, match="several lacunae"):
        load("original", {"§2": "numeral"})
