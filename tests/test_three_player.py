"""The three-player game (part B of the manual, "(3p)"): the Kaiser, his dummy, the Kings, the schedule.

Seats are numbered from the Kaiser: he sits on seat 0, the dummy's cards lie
opposite on seat 2, the two allies on seats 1 (his left) and 3 (his right).
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from click.testing import CliRunner

from schachett_rules.cli.main import main
from schachett_rules.kernel.compiler import tables_for
from schachett_rules.kernel.state import State
from schachett_rules.kernel.deal import names_of
from schachett_rules.errors import IllegalAction, SchachettError
from schachett_rules.rules.loader import load
from schachett_rules.kernel.observation import observe
from schachett_rules.engine.replay import parse_record, record_of, replay
from schachett_rules.engine.session import DUMMY, read_session, seatings

from .conftest import deal_with

DUMMY_CITE = "§4,2 (3p), §10 (3p)"

# §4,2 (3p): seats 0 (the Kaiser), 1 (his left), 2 (the dummy), 3 (his right), round by round.
KAISER_ROUNDS = [
    ["A", "B", DUMMY, "C"], ["A", "C", DUMMY, "B"],   # A reigns: B left, C right; then B and C change
    ["B", "C", DUMMY, "A"], ["B", "A", DUMMY, "C"],   # B reigns: C left, A right; then A and C change
    ["C", "A", DUMMY, "B"], ["C", "B", DUMMY, "A"],   # C reigns: A left, B right; then A and B change
]


def three_player():
    return tables_for("three-player")


def new_game(dealer: int, seed: int = 1) -> State:
    return State.deal(three_player(), dealer, random.Random(seed))


def names(game: State, seat: int) -> tuple[str, ...]:
    t = game.t
    return tuple(t.deck.card_name(c) for c in range(t.n_cards) if game.hands[seat] >> c & 1)


def a_played_record(seed: int = 4) -> dict:
    game = new_game(0, seed)
    game.play_randomly(random.Random(seed))
    return json.loads(record_of(game, "three-player").model_dump_json())


def dummy_turns(data: dict) -> list[int]:
    """Indices of the record's actions that play the dummy's cards (seat 2)."""
    t = three_player()
    game = State.from_record(t, data["dealer"], data["hands"])
    out = []
    for i, action in enumerate(data["actions"]):
        if isinstance(action, str):
            if game.to_move == 2:         # while a trick waits for a rescue, to_move is the next leader
                out.append(i)
            game.play(action)
        else:
            step = action["castle"]
            game.castle(step["seat"], step["officer"], step.get("king"))
    return out


# --- the dummy: played by the Kaiser (§4,2 (3p), §10 (3p)) -----------------------------------------------

def test_s4_2_3p_the_dummy_is_seat_2_played_by_the_kaiser():
    t = three_player()
    (dummy,) = t.dummies
    assert (dummy.seat, dummy.by, dummy.exposed_after) == (2, 0, 1)
    assert [t.controller(s) for s in range(4)] == [0, 1, 0, 3]
    assert t.party_of == (0, 1, 0, 1)


def test_s4_2_3p_a_record_plays_the_dummys_cards_by_the_kaiser():
    data = a_played_record()
    assert [a["castle"]["seat"] for a in data["actions"] if isinstance(a, dict)] == [1, 0]   # castles in it too
    plain = replay(parse_record(json.dumps(data)))
    turns = dummy_turns(data)
    assert len(turns) == 13
    for i in turns:
        data["actions"][i] = {"play": {"card": data["actions"][i], "by": 0}}
    report = replay(parse_record(json.dumps(data)))
    assert report.result == plain.result
    assert [tr.cards for tr in report.tricks] == [tr.cards for tr in plain.tricks]


@pytest.mark.parametrize("by, words", [
    (2, "seat 2 is a dummy: its cards are played by seat 0"),
    (1, "the dummy's cards are played by seat 0, not seat 1"),
    (3, "the dummy's cards are played by seat 0, not seat 3"),
])
def test_s4_2_3p_only_the_kaiser_plays_the_dummys_cards(by, words):
    data = a_played_record()
    i = dummy_turns(data)[0]
    card = data["actions"][i]
    data["actions"][i] = {"play": {"card": card, "by": by}}
    with pytest.raises(IllegalAction) as err:
        replay(parse_record(json.dumps(data)))
    message = err.value.message
    assert words in message and DUMMY_CITE in message
    assert f"action {i + 1}" in message and f"card {card}" in message


def test_s4_2_3p_the_kaiser_cannot_play_an_allys_card():
    game = new_game(0)
    assert game.to_move == 1
    card = next(iter(game.legal()))
    with pytest.raises(IllegalAction, match="it is seat 1's turn, not seat 0's"):
        game.play(card, by=0)
    game.play(card, by=1)
    assert game.to_move == 2
    dummy_card = next(iter(game.legal()))
    with pytest.raises(IllegalAction, match="seat 2 is a dummy"):
        game.play(dummy_card, by=2)
    assert game.play(dummy_card, by=0).seat == 2


# --- what each player sees (§10 (3p)) ---------------------------------------------------------------

def test_s10_3p_before_the_dummy_is_exposed_only_the_kaiser_sees_it():
    game = new_game(0)
    for seat in (1, 3):
        view = observe(game, seat)
        assert set(view.hands) == {seat}
        assert view.hands[seat] == names(game, seat)
    # Seat 1 leads: the dummy plays before the Kaiser, so he looks at the dummy's hand only.
    assert observe(game, 0).hands == {2: names(game, 2)}
    assert observe(game, 0).plays_for == (0, 2)
    # Seat 1 is asked first whether he castles before play (§5 (3p)); he lets it go and is to lead: only he is
    # offered legal cards; then the Kaiser, for the dummy.
    assert observe(game, 1).decision == "castle" and observe(game, 0).decision == "none"
    game.pass_castle(1)
    assert observe(game, 1).legal == names_of(game.t, game.legal().mask) and observe(game, 0).legal == ()
    game.play(next(iter(game.legal())))
    assert observe(game, 0).legal == names_of(game.t, game.legal().mask) and observe(game, 1).legal == ()
    assert set(observe(game, 1).hands) == {1} and set(observe(game, 3).hands) == {3}


def test_s10_3p_after_trick_1_everyone_sees_the_dummy():
    game = new_game(0)
    for _ in range(4):
        game.play(next(iter(game.legal())))
    if game.pending is not None:
        game.gather()
    assert len(game.tricks) == 1
    for seat in (0, 1, 3):
        view = observe(game, seat)
        assert set(view.hands) == {seat, 2}
        assert view.hands[2] == names(game, 2) and len(view.hands[2]) == 12


@pytest.mark.parametrize("dealer, leader, first", [(0, 1, 2), (1, 2, 2), (2, 3, 0), (3, 0, 0)])
def test_s10_3p_in_trick_1_the_kaiser_sees_one_hand_at_a_time(dealer, leader, first):
    game = new_game(dealer, seed=dealer + 10)
    assert game.to_move == leader
    other = 2 if first == 0 else 0
    while True:
        played = {s for s, _ in game.trick}
        view = observe(game, 0)
        if first in played:
            break
        assert set(view.hands) == {first}, (game.trick, view.hands)
        assert view.hands[first] == names(game, first)
        game.play(next(iter(game.legal())))
    # The first of his hands has played: now he may look at the other too.
    assert set(view.hands) == {first, other}
    assert view.hands[other] == names(game, other)


def test_s10_3p_observing_the_dummy_seat_is_an_error():
    game = new_game(0)
    with pytest.raises(SchachettError, match=r"seat 2 is a dummy.*seat 0 plays its cards") as err:
        observe(game, 2)
    assert DUMMY_CITE in err.value.message
    with pytest.raises(SchachettError, match="does not exist"):
        observe(game, 4)


def test_s5_3p_face_up_kings_are_seen_by_all_and_follow_a_castle():
    t = three_player()
    game = State.from_record(t, 0, deal_with(t, 0, {3: ["sT"]}))
    for seat in (0, 1, 3):
        assert observe(game, seat).kings == ((0, "wK"), (1, "sK"))
    assert "wK" not in observe(game, 1).hands[1]               # seen as a face-up King, not as a hand
    game.castle(1, "sT", "sK")                                 # the left player castles before play
    for seat in (0, 1, 3):
        view = observe(game, seat)
        assert view.kings == ((0, "wK"), (3, "sK"))
        assert [(c.seat, c.king, c.officer) for c in view.castles] == [(1, "sK", "sT")]
    assert "sK" in observe(game, 3).hands[3] and "sK" not in observe(game, 1).hands[1]


def test_s5_3p_a_played_king_is_no_longer_shown():
    game = new_game(0, seed=2)
    while any("wK" in names(game, s) for s in range(4)):
        assert "wK" in [k for _, k in observe(game, 1).kings]
        game.play(next(iter(game.legal())))
    assert "wK" not in [k for _, k in observe(game, 1).kings]
    assert any(c == "wK" for _, c in observe(game, 1).trick) or any(
        c == "wK" for tr in game.tricks for _, c in tr.cards)


# --- Kings and the deal in a session (§4,4 (3p), §4,5 (3p)) ------------------------------------------------

@pytest.fixture(scope="module")
def played_session(tmp_path_factory):
    path = tmp_path_factory.mktemp("session") / "three.json"
    result = CliRunner().invoke(main, ["session", "three-player", "--seed", "5", "--quiet", "--json", str(path)])
    assert result.exit_code == 0, result.output
    return read_session(path)


def test_s4_5_3p_the_deal_passes_left_from_the_kaiser(played_session):
    games = played_session.games
    assert len(games) == 24
    assert [g.record.dealer for g in games] == [i % 4 for i in range(24)]
    # The Kaiser deals the first game of each of his rounds.
    assert all(g.record.dealer == 0 for g in games if (g.number - 1) % 4 == 0)


def test_s4_4_3p_the_wk_lies_with_the_dealer_and_the_sk_on_his_left(played_session):
    for g in played_session.games:
        d = g.record.dealer
        assert "wK" in g.record.hands[d] and "sK" in g.record.hands[(d + 1) % 4], g.number
        report = replay(g.record, f"game {g.number}")
        first = report.tricks[0]
        assert first.leader == (d + 1) % 4
    wk_seats = [next(s for s, h in enumerate(g.record.hands) if "wK" in h) for g in played_session.games]
    assert wk_seats[0] == 0                                     # the Kaiser has the wK in game 1
    assert all(b == (a + 1) % 4 for a, b in zip(wk_seats, wk_seats[1:]))   # one place left each game


# --- the Kaiser schedule (§4,1 (3p), §4,2 (3p), §12 (3p)) ----------------------------------------------------

def test_s4_2_3p_the_seating_of_each_round_matches_the_manual():
    session = load("three-player").clause("session")
    assert seatings(session, "ABC", 4) == KAISER_ROUNDS
    assert (session.games_per_round, session.rounds_per_cycle) == (4, 6)


def test_s4_2_3p_every_player_is_kaiser_for_8_games_in_a_played_session(played_session):
    games = played_session.games
    assert Counter(g.seating[0] for g in games) == {"A": 8, "B": 8, "C": 8}
    assert all(g.seating[2] == DUMMY for g in games)
    by_round: dict[int, set] = {}
    for g in games:
        by_round.setdefault(g.round, set()).add(tuple(g.seating))
    assert sorted(by_round) == [1, 2, 3, 4, 5, 6]
    assert [list(next(iter(by_round[r]))) for r in range(1, 7)] == KAISER_ROUNDS
    assert all(len(s) == 1 for s in by_round.values())
    # Each Kaiser reigns for 8 games in a row (two rounds).
    assert [g.seating[0] for g in games] == ["A"] * 8 + ["B"] * 8 + ["C"] * 8


def test_s5_3p_a_record_says_both_hands_of_a_castle_with_the_partners_king(tmp_path):
    # in this game the Kaiser's left (seat 1), who holds no King, castles before play with his partner's wK:
    # the wK lies face up with the dealer, seat 3 (§4.4 3p), so the record says it came from seat 3's hand
    # and the officer from seat 1's own
    path = tmp_path / "game.json"
    res = CliRunner().invoke(main, ["sample", "three-player", "--seed", "3", "--out", str(path)])
    assert res.exit_code == 0, res.output
    record = json.loads(path.read_text())
    assert record["dealer"] == 3
    castle = next(a["castle"] for a in record["actions"] if isinstance(a, dict) and "castle" in a)
    assert castle == {"seat": 1, "officer": "sL", "king": "wK", "king_from": 3, "officer_from": 1}
    assert CliRunner().invoke(main, ["replay", str(path)]).exit_code == 0
    # a record that says another hand gave the King is refused in words, naming the seat and the clause
    castle["king_from"] = 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record), encoding="utf-8")
    res = CliRunner().invoke(main, ["replay", str(bad)])
    assert res.exit_code != 0 and "Traceback" not in res.output
    assert ("action 1, seat 1: the record says the wK came from seat 1's hand, but in this game seat 3 gave it "
            "(§5") in res.output
