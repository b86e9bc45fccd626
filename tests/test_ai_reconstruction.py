"""The AI reconstruction as it reads, the count of its King splits, and our reconstruction's reasons."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from schachett_rules.language import ir
from schachett_rules.studies.kings import compare, kings_exact, kings_simulated
from schachett_rules.kernel.trick import holds_against
from schachett_rules.kernel.compiler import compile_ruleset, tables_for
from schachett_rules.kernel.state import State
from schachett_rules.rules.loader import load
from schachett_rules.kernel.scoring import settle

from .conftest import deal_with


def test_ai_every_clause_cites_the_ai_text():
    r = load("ai-reconstruction")
    for e in r.clauses:
        assert all(c.startswith("ai:") for c in e.clause.basis.cites), e.key
        assert e.clause.basis.grade in (ir.Grade.ai, ir.Grade.inferred, ir.Grade.conjecture), e.key
    assert sum(e.clause.basis.grade == ir.Grade.ai for e in r.clauses) > 20


def test_ai_notes_deal_is_random_with_nothing_face_up():
    t = tables_for("ai-reconstruction")
    assert t.gives == () and t.given_cards == ()


def test_ai_s2_ties_first_played_holds_for_every_card():
    rules = load("ai-reconstruction").clause("ties").rules
    assert [(r.kind, r.rule) for r in rules] == [("any", "first")]


def test_ai_s2_as_written_lets_a_pawn_take_a_higher_card_of_its_colour():
    t = tables_for("ai-reconstruction")
    assert holds_against(t, 0, t.face("w3"), t.face("w5"))          # 'can only beat higher cards of the same color'
    assert holds_against(t, 0, t.face("w3"), t.face("wD"))          # officers included, as written
    assert not holds_against(t, 0, t.face("w5"), t.face("w3"))
    assert not holds_against(t, 0, t.face("w3"), t.face("s5"))
    meant = tables_for("ai-reconstruction", (("ai-pawn-capture", "as-meant"),))
    assert holds_against(meant, 0, meant.face("w5"), meant.face("w3")) and not holds_against(meant, 0, meant.face("w3"), meant.face("w5"))


def test_ai_s12_settlement_divides_by_a_quarter_pfennig():
    # 'Difference in total points, divided by stake (e.g., quarter pfennig)': 122 / (1/4) = 488.
    winner, money = settle(tables_for("ai-reconstruction"), (190, 68))
    assert winner == 0 and [int(m) for m in money] == [488, -488, 488, -488]


def test_ai_s5_castling_swaps_the_kings_of_two_partners():
    t = tables_for("ai-reconstruction")
    dealer = 3
    hands = deal_with(t, dealer, {0: ["wK", "wD"], 2: ["sK", "sD"]})
    game = State.from_record(t, dealer, hands)
    options = game.castle_options()
    assert [(o.seat, t.deck.card_name(o.king)) for o in options] == [(0, "wK")]  # only dealer + 1 may castle
    record = game.castle(0, "sK")
    assert (record.king, record.officer, record.with_seat) == ("wK", "sK", 2)
    assert game.hands[2] & t.deck.face_cards[t.face("wK")] and game.hands[0] & t.deck.face_cards[t.face("sK")]
    assert not game.castle_options()                                          # once per game


def test_ai_random_deal_king_split_exactly():
    exact = kings_exact(tables_for("ai-reconstruction"))
    # wK lies somewhere; of the 51 other places, 12 are in its holder's hand and 13 with his partner.
    assert exact == {(2, 0): Fraction(25, 102), (1, 1): Fraction(26, 51), (0, 2): Fraction(25, 102)}
    assert sum(exact.values()) == 1


def test_ai_random_deal_king_split_simulation_agrees_with_counting():
    rows, chi2 = compare(tables_for("ai-reconstruction"), 20000, seed=5)
    assert all(r["agrees"] for r in rows), rows
    assert chi2 < 13.82  # 0.1% critical value on 2 degrees of freedom


def test_printed_deal_always_splits_the_kings():
    t = tables_for("original")
    assert kings_exact(t) == {(1, 1): Fraction(1)}
    assert kings_simulated(t, 500, seed=1) == {(1, 1): 500}


def test_ai_ruleset_plays_whole_games_with_two_king_events():
    t = tables_for("ai-reconstruction")
    for seed in range(60):
        rng = random.Random(seed)
        game = State.deal(t, seed % 4, rng)
        game.play_randomly(rng)
        result = game.result()
        assert len(result.events) == 2 and sum(result.settlement) == 0


@pytest.mark.parametrize("name", ["reconstruction"])
def test_our_reconstruction_gives_a_reason_for_every_reading(name):
    r = load(name)
    assert r.chain == ("original", name)
    for chosen in r.lacunae:
        assert chosen.chosen_by == name, chosen.lacuna.name
        assert chosen.because and len(chosen.because) > 40, chosen.lacuna.name
    assert r.choice("castling") != "none"
    compile_ruleset(r)
