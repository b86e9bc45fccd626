"""Seats and parties named for a reader: by the ruleset's names (seat names, party names) wherever a seat or a
party is meant, and from the dealer where a rule names a place from him, as §1 seats them and the deal of original
gives the Kings."""

from __future__ import annotations

import json
import re

from hypothesis import given, strategies as st

from schachett_rules.engine.replay import format_report, record_of, replay
from schachett_rules.kernel.compiler import compile_ruleset
from schachett_rules.rules.loader import load
from schachett_rules.language import ir
from schachett_rules.rules.prose import sentence
from schachett_rules.rules.rulebook import render_ruleset
from schachett_rules.rules.seating import and_list, or_list

from .conftest import game_with

T = compile_ruleset(load("original"))


def test_1_when_seat_3_deals_west_and_east_hold_the_wk():
    # original: partners opposite (§1), so the parties are seats 0 and 2, and seats 1 and 3; the deal gives
    # the wK to the dealer (seat 3) and the sK to dealer + 1 = seat 0. The parties go by their seats' names.
    assert T.parties[1] == (1, 3)
    assert T.party_name(1, 3) == "the dealer's party"           # a place from the dealer, as the rules say it
    assert T.party_label(1, 3) == "West and East (seats 1 and 3), which holds the wK"
    assert T.party_label(0, 3) == "South and North (seats 0 and 2), which holds the sK"


def test_4_2_3p_the_kaiser_game_names_its_seats_and_parties_by_their_roles():
    t = compile_ruleset(load("three-player"))
    assert [t.seat_title(s) for s in range(4)] == ["the Kaiser (seat 0)", "the Kaiser's left (seat 1)",
                                                   "the dummy (seat 2)", "the Kaiser's right (seat 3)"]
    assert t.party_label(0, 0) == "the Kaiser and his dummy (seats 0 and 2), which holds the wK"
    assert t.party_label(1, 0) == "the allies (the Kaiser's left and the Kaiser's right, seats 1 and 3), " \
                                  "which holds the sK"


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
    assert "Parties: South and North (seats 0 and 2), which holds the sK; " \
           "West and East (seats 1 and 3), which holds the wK." in text
    assert "Dealer: East (seat 3). Face up: wK to East, sK to South." in text
    assert "Seats: South (seat 0), West (seat 1), North (seat 2), East (seat 3)." in text
    assert not re.search(r"(: +|, |to )party \d|\bseat \d+ (leads|wins)", text)   # numbers where names belong
    assert re.search(r"^Trick 1: South leads; South \S+, West \S+, North \S+, East \S+$", text, re.M)
    assert re.search(r"^Winner: (South and North|West and East)$", text, re.M)
    data = rep.as_json()
    assert data["winner"] in (0, 1, None)
    assert "party_labels" not in json.dumps(data)


def test_1_the_prose_names_the_partnerships_from_the_dealer():
    text = render_ruleset(load("original"))
    assert ("the dealer and the player opposite the dealer are the dealer's party, which the deal gives the wK "
            "face up") in text


# --- seat lists in the prose: "A and B", "A, B and C" --------------------------------------------

def _dealer(offset: int) -> ir.SeatRef:
    return ir.SeatRef(base="dealer", offset=offset)


def test_s5_3p_two_castlers_are_joined_with_and():
    # reconstruction's `dealer, dealer + 2 after trick 1`: the dealer and his partner opposite (§1)
    clause = ir.Castling(mode="rules", permits=(ir.Permit(who=(_dealer(0), _dealer(2)), when="after", trick=1),))
    assert sentence(clause, seats=4) == ("Castling exchanges a King for an officer of the hand the castle reaches. "
                                         "The dealer and the player opposite the dealer may castle between tricks, "
                                         "from the end of trick 1 on.")


def test_s5_3p_three_castlers_are_a_list_with_and_before_the_last():
    clause = ir.Castling(mode="rules", permits=(ir.Permit(who=(_dealer(0), _dealer(1), _dealer(3)), when="before"),))
    assert ("The dealer, the player on the dealer's left and the player on the dealer's right may castle before the "
            "first card is played.") in sentence(clause, seats=4)
    # without the size of the table the places are counted from the dealer, and still joined as a list
    assert ("The dealer, the player to the dealer's left and the player three places to the dealer's left may castle"
            in sentence(clause))


def test_seat_lists_of_one_two_and_three():
    assert [and_list(names) for names in (["South"], ["South", "North"], ["South", "West", "North"])] == [
        "South", "South and North", "South, West and North"]
    assert or_list(["checkmate", "selfmate"]) == "checkmate or selfmate"


def test_1_the_seats_of_four_are_named_by_the_compass_clockwise_from_seat_0():
    # the brief numbers the seats clockwise and play goes to the left; the site draws seat 0 at the bottom
    assert [T.seat_name(s) for s in range(4)] == ["South", "West", "North", "East"]
    assert T.seat_title(3) == "East (seat 3)"
    six = compile_ruleset(load("six-players"))
    assert [six.seat_name(s) for s in range(6)] == ["South", "South-West", "North-West", "North", "North-East",
                                                    "South-East"]


def test_a_table_without_seat_names_keeps_its_numbers(rules):
    path = rules('ruleset v "V" extends original\ndrop seat names\n')
    t = compile_ruleset(load(str(path)))
    assert t.seat_name(2) == t.seat_title(2) == "seat 2" and t.party_names == ("seat 0 and seat 2", "seat 1 and seat 3")


def test_seat_names_must_name_every_seat_once(rules):
    from schachett_rules.errors import RuleCheckError
    import pytest
    for names, why in (('"South", "West", "North"', "3 seat names for a table of 4 seats"),
                       ('"South", "West", "South", "East"', "two seats have the same name")):
        path = rules(f'ruleset v "V" extends original\noverride seat names [§1 design]: {names}\n')
        with pytest.raises(RuleCheckError, match=why):
            compile_ruleset(load(str(path)))


def test_automaton_seats_are_listed_and_a_single_one_is_singular():
    assert sentence(ir.Automaton(seats=(1, 3), policy="lowest")).startswith("Seat 1 and seat 3 are played by a fixed")
    assert sentence(ir.Automaton(seats=(1, 3), policy="lowest", castles="never")).endswith(
        "each plays the lowest legal card, and never castles.")
    one = sentence(ir.Automaton(seats=(2,), policy="lowest"))
    assert one.startswith("Seat 2 is played by a fixed rule, not by a player: it plays")
