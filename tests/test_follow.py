"""What a card played to a trick tells about the hand it came from (§3: follow the first tier you can)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schachett_rules.kernel.compiler import tables_for
from schachett_rules.kernel.follow import tiers, void_after
from schachett_rules.kernel.trick import legal
from tests.lane import many

RULESETS = ("original", "reconstruction", "six-players")


def names(t, mask: int) -> set[str]:
    return {t.deck.card_name(c) for c in range(t.n_cards) if mask >> c & 1}


def test_s3_2_a_black_card_on_a_white_pawn_shows_no_white_pawn_or_suit_card():
    # §3.2: to a pawn one follows with a pawn of its colour, failing that a suit card of its colour; only
    # then with any card. A player who puts s8 on w7 holds no white pawn and no white suit card.
    t = tables_for("original")
    card = t.deck.card_of
    voids = names(t, void_after(t, [(0, card("w7"))], card("s8")))
    assert {f"w{n}" for n in range(1, 9)} <= voids
    assert {"wI", "wV", "wX"} <= voids
    assert not voids & {"s1", "s8", "sI", "wD", "sK"}


def test_s3_the_tiers_are_disjoint_and_in_order():
    t = tables_for("original")
    for led in range(t.n_cards):
        seen = 0
        for mask, before in tiers(t, led):
            assert mask and not mask & seen and before == seen
            seen |= mask


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=many(150), deadline=None)
@given(data=st.data())
def test_s3_a_card_is_legal_exactly_when_the_hand_holds_none_of_its_voids(ruleset, data):
    t = tables_for(ruleset)
    led = data.draw(st.integers(0, t.n_cards - 1))
    others = [c for c in range(t.n_cards) if c != led]
    hand_cards = data.draw(st.lists(st.sampled_from(others), min_size=1, max_size=t.hand_size, unique=True))
    hand = sum(1 << c for c in hand_cards)
    card = data.draw(st.sampled_from(hand_cards))
    trick = [(0, led)]
    allowed, _tier = legal(t, hand, trick)
    assert bool(allowed >> card & 1) == (not hand & void_after(t, trick, card))
