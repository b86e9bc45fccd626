"""Seats and parties named for a reader, from the dealer, as §1 seats them and the deal of original gives the Kings."""

from __future__ import annotations

import json
import re

from hypothesis import given, strategies as st

from schachett_rules.engine.replay import format_report, record_of, replay
from schachett_rules.kernel.compiler import compile_ruleset
from schachett_rules.rules.loader import load
from schachett_rules.rules.prose import render_ruleset

from .conftest import game_with

T = compile_ruleset(load("original"))


def test_1_when_seat_3_deals_seats_1_and_3_are_the_dealers_party_with_the_wk():
    # original: partners opposite (§1), so the parties are seats 0 and 2, and seats 1 and 3; the deal gives
    # the wK to the dealer (seat 3) and the sK to dealer + 1 = seat 0.
    assert T.parties[1] == (1, 3)
    assert T.party_name(1, 3) == "the dealer's party"
    assert T.party_label(1, 3) == "the dealer's party (seats 1 and 3), which holds the wK"
    assert T.party_label(0, 3) == "the party on the dealer's left (seats 0 and 2), which holds the sK"


def test_1_seats_are_named_from_the_dealer():
    # dealer 3: seat 0 plays after him (his left), seat 1 sits across, seat 2 plays before him (his right)
    assert [T.seat_label(s, 3) for s in range(4)] == ["the dealer's left", "opposite the dealer",
                                                      "the dealer's right", "the dealer"]


@given(st.integers(0, 3))
def test_1_every_deal_has_one_dealers_party_and_it_holds_the_dealer(dealer):
    names = [T.party_name(p, dealer) for p in range(len(T.parties))]
    assert len(set(names)) == len(names)
    assert names[T.party_of[dealer]] == "the dealer's party"
    assert "wK" in T.party_label(T.party_of[dealer], dealer)


def test_the_replay_report_names_the_parties_and_its_json_keeps_numbers():
    game = game_with("original", {}, dealer=3)
    while not game.over:
        game.play(next(iter(game.legal())))
    rec = record_of(game, "original")
    rep = replay(rec, "game.json")
    text = format_report(rep)
    assert "Parties: the party on the dealer's left (seats 0 and 2), which holds the sK; " \
           "the dealer's party (seats 1 and 3), which holds the wK." in text
    assert "Seats: seat 0: the dealer's left, seat 1: opposite the dealer, seat 2: the dealer's right." in text
    assert not re.search(r"(: +|, |to )party \d", text)   # the old "Card points: party 0 …", "Winner: party 1"
    assert re.search(r"^Winner: (the dealer's party|the party on the dealer's left)$", text, re.M)
    data = rep.as_json()
    assert data["winner"] in (0, 1, None)
    assert "party_labels" not in json.dumps(data)


def test_1_the_prose_names_the_partnerships_from_the_dealer():
    text = render_ruleset(load("original"))
    assert ("the dealer and the player opposite the dealer are the dealer's party, which the deal gives the wK "
            "face up") in text
