"""The family's games played by hand: each test deals the cards itself, walks the game through the one State
and checks what the source's rule says should happen. Expected values are worked out from the rule text (the
summaries in manual/family/), never read back from the kernel."""

from __future__ import annotations

from fractions import Fraction

import pytest

from schachett_rules.errors import IllegalAction
from schachett_rules.kernel.compiler import tables_for
from schachett_rules.kernel.state import State
from schachett_rules.kernel.verify import action_word, decision_action


def decide(state: State, word: str) -> None:
    """The seat deciding now names ``word`` (a card passed, a bid, a call, a discard)."""
    state.apply(decision_action(state, word))


def legal_names(state: State) -> set[str]:
    """The names of the cards the seat to play may play now."""
    return set(state.legal())


def play(state: State, *cards: str) -> None:
    """Play the cards in turn, each by the seat whose turn it is (every play checked)."""
    for card in cards:
        state.apply(state.verify_play(card))


def options(state: State) -> list[str]:
    """The words of the decisions open now."""
    return [action_word(state.base, a) for a in state.legal_actions()]


def hand_names(state: State, seat: int) -> set[str]:
    name = state.t.deck.card_name
    return {name(c) for c in range(state.t.n_cards) if state.hands[seat] >> c & 1}


# --- Hearts -------------------------------------------------------------------------------------------------

HEARTS = [
    # seat 0 holds the two of clubs; seat 2 is void in clubs
    ["c2", "c3", "c4", "c5", "c6", "d2", "d3", "d4", "d5", "s2", "s3", "s4", "s5"],
    ["c7", "c8", "c9", "c10", "cJ", "d6", "d7", "d8", "d9", "s6", "s7", "s8", "s9"],
    ["h2", "h3", "h4", "h5", "h6", "h7", "h8", "sQ", "d10", "dJ", "dQ", "dK", "dA"],
    ["cQ", "cK", "cA", "h9", "h10", "hJ", "hQ", "hK", "hA", "s10", "sJ", "sK", "sA"],
]


def test_hearts_s2_three_cards_pass_to_the_left_in_the_first_game():
    game = State.from_record(tables_for("hearts"), 0, HEARTS, game=0)
    assert game.phase_name == "passing"
    given = {0: ["s5", "s4", "s3"], 1: ["s9", "s8", "s7"], 2: ["sQ", "dA", "dK"], 3: ["sA", "sK", "hA"]}
    for _ in range(12):
        seat = game.before_play_seat()
        decide(game, given[seat].pop())
    assert game.phase_name == "play"
    # left is the next seat in turn: seat 0's cards go to seat 1, seat 3's to seat 0
    assert {"s3", "s4", "s5"} <= hand_names(game, 1)
    assert {"sA", "sK", "hA"} <= hand_names(game, 0)
    assert not {"s3", "s4", "s5"} & hand_names(game, 0)
    assert all(len(hand_names(game, s)) == 13 for s in range(4))


@pytest.mark.parametrize("number, receiver", [(1, 3), (2, 2)])
def test_hearts_s2_right_in_the_second_game_across_in_the_third(number, receiver):
    game = State.from_record(tables_for("hearts"), 0, HEARTS, game=number)
    mine = ["s5", "s4", "s3"]
    while game.phase_name == "passing":
        seat = game.before_play_seat()
        decide(game, mine.pop() if seat == 0 else options(game)[0])
    assert {"s3", "s4", "s5"} <= hand_names(game, receiver)


def test_hearts_s2_nobody_passes_in_the_fourth_game():
    game = State.from_record(tables_for("hearts"), 0, HEARTS, game=3)
    assert game.phase_name == "play"


def test_hearts_s3_the_holder_of_the_two_of_clubs_leads_it():
    game = State.from_record(tables_for("hearts"), 1, HEARTS, game=3)   # seat 2 would lead by the dealer
    assert game.seat_to_play() == 0
    assert legal_names(game) == {"c2"}
    with pytest.raises(IllegalAction):
        game.verify_play("c3")


def test_hearts_s3_no_heart_and_no_queen_of_spades_in_the_first_trick():
    game = State.from_record(tables_for("hearts"), 0, HEARTS, game=3)
    play(game, "c2", "c7")
    # seat 2 has no club: any card but a heart or the Queen of spades
    assert legal_names(game) == {"d10", "dJ", "dQ", "dK", "dA"}


def test_hearts_s3_hearts_are_not_led_until_one_is_played():
    game = State.from_record(tables_for("hearts"), 0, HEARTS, game=3)
    play(game, "c2", "c7", "dA", "cA")       # seat 3 takes the trick and leads
    assert game.seat_to_play() == 3
    assert not {n for n in legal_names(game) if n.startswith("h")}
    play(game, "cK", "c3", "c8", "dK")       # seat 3 again
    play(game, "cQ", "c4", "c9", "h2")       # a heart is thrown on a club: hearts are broken
    assert game.seat_to_play() == 3
    assert {"h9", "hA"} <= legal_names(game)


def test_hearts_s4_points_and_the_moon():
    t = tables_for("hearts")
    from schachett_rules.kernel.scoring import game_facts, game_points

    def scored(totals, tricks):
        return game_points(t, totals, tricks, game_facts(t, totals, tricks, [0] * 4))
    # every heart a point, the Queen of spades 13: one player taking all 26 scores 0 and the others 26 each
    assert scored((26, 0, 0, 0), (13, 0, 0, 0)) == (0, 26, 26, 26)
    assert scored((13, 5, 8, 0), (4, 3, 5, 1)) == (13, 5, 8, 0)


# a deal in which South (seat 0) can take every heart and the Queen of spades: he holds the top clubs, the top
# spades and seven hearts from the Ace down; the others' hearts go on his clubs and spades, the sQ on his sA
MOON = [
    ["cA", "cK", "cQ", "cJ", "sA", "sK", "hA", "hK", "hQ", "hJ", "h10", "h9", "h8"],
    ["c2", "c3", "c4", "c5", "d2", "d3", "d4", "d5", "d6", "h2", "h3", "s2", "s3"],
    ["c6", "c7", "c8", "c9", "d7", "d8", "d9", "d10", "h4", "h5", "s4", "s5", "sQ"],
    ["c10", "dJ", "dQ", "dK", "dA", "h6", "h7", "s6", "s7", "s8", "s9", "s10", "sJ"],
]


def test_hearts_s3_a_hand_of_nothing_else_may_throw_a_heart_in_the_first_trick():
    # one suit to each hand: South leads the c2 (game 3 passes nothing). West holds only hearts, so the rule
    # against hearts in the first trick gives way (hearts:§3, "unless he has nothing else"); East holds the sQ
    # beside other spades and must keep it back
    suits = [[f"{colour}{rank}" for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]
             for colour in "chds"]
    game = State.from_record(tables_for("hearts"), 3, suits, game=3)
    play(game, "c2")
    assert legal_names(game) == set(suits[1])
    play(game, "h5", "d7")
    assert legal_names(game) == set(suits[3]) - {"sQ"}


def test_hearts_s4_a_moon_shot_played_out():
    # the fourth game passes nothing; West holds c2 and leads it (hearts:§3). Worked by hand, trick by trick:
    # South wins the club tricks (East throws h6 and h7 on the second and third, breaking hearts), leads hA and
    # hK (the others' last hearts fall), takes the sQ with sA, then leads his last five hearts on which the
    # others throw diamonds: every heart and the sQ, 26 points, are his. The others score 26 each, he 0.
    game = State.from_record(tables_for("hearts"), 3, MOON, game=3)
    play(game, "c2", "c6", "c10", "cA")
    for trick in (["cK", "c3", "c7", "h6"], ["cQ", "c4", "c8", "h7"], ["cJ", "c5", "c9", "s6"],
                  ["hA", "h2", "h4", "s7"], ["hK", "h3", "h5", "s8"], ["sA", "s2", "sQ", "s9"],
                  ["sK", "s3", "s4", "s10"], ["hQ", "d2", "d7", "dJ"], ["hJ", "d3", "d8", "dQ"],
                  ["h10", "d4", "d9", "dK"], ["h9", "d5", "d10", "dA"], ["h8", "d6", "s5", "sJ"]):
        assert game.seat_to_play() == 0
        play(game, *trick)
    result = game.result()
    assert [tr.winner for tr in game.tricks] == [0] * 13
    assert result.card_points == (26, 0, 0, 0)
    assert result.game_points == (0, 26, 26, 26)


# --- Euchre -------------------------------------------------------------------------------------------------

EUCHRE = [
    ["s9", "s10", "c9", "c10", "d9"],      # the dealer
    ["hJ", "dJ", "hA", "dA", "sA"],        # orders hearts up
    ["h10", "hQ", "dK", "cA", "cK"],
    ["hK", "dQ", "d10", "sK", "sQ"],
]
EUCHRE_STOCK = ["h9", "cJ", "sJ", "cQ"]


def euchre_game(bid: str) -> State:
    game = State.from_record(tables_for("euchre"), 0, EUCHRE, stock=EUCHRE_STOCK, turned="h9")
    assert game.phase_name == "auction" and game.before_play_seat() == 1     # left of the dealer bids first
    decide(game, bid)
    return game


def test_euchre_s2_ordering_up_gives_the_dealer_the_turned_card_and_a_discard():
    game = euchre_game("up h")
    assert game.phase_name == "exchange" and game.before_play_seat() == 0
    assert "h9" in hand_names(game, 0)
    decide(game, "c9")
    assert hand_names(game, 0) == {"s9", "s10", "c10", "d9", "h9"}
    assert game.phase_name == "play" and game.seat_to_play() == 1


def test_euchre_s3_the_bowers_are_the_highest_trumps_and_the_left_bower_follows_trumps():
    game = euchre_game("up h")
    decide(game, "c9")
    play(game, "hA")
    # seat 2 holds two hearts and must follow with one of them
    assert legal_names(game) == {"h10", "hQ"}
    play(game, "hQ")
    play(game, "hK", "h9")
    assert game.tricks[-1].winner == 1                # the Ace of the trump colour
    game = euchre_game("up h")
    decide(game, "d9")                                # the dealer keeps no diamond
    play(game, "dA")
    # the Jack of diamonds is a heart now: seat 2 must follow diamonds with the King, not with a bower
    assert legal_names(game) == {"dK"}
    play(game, "dK")
    assert legal_names(game) == {"dQ", "d10"}
    play(game, "dQ")
    assert "h9" in legal_names(game)                  # the dealer is void in diamonds and may trump
    play(game, "h9")
    assert game.tricks[-1].winner == 0
    play(game, "s9", "sA", "cA", "sK")                 # seat 2 has no spade; a club does not take
    assert game.tricks[-1].winner == 1
    play(game, "hJ", "h10", "hK", "s10")               # the right bower takes the King of trumps
    assert game.tricks[-1].winner == 1
    assert legal_names(game) == {"dJ", "hA"}
    play(game, "dJ")
    assert legal_names(game) == {"hQ"}                # the left bower is led as a trump: trumps follow
    play(game, "hQ", "sQ", "c10")
    assert game.tricks[-1].winner == 1                # and it ranks above the Queen of trumps


def test_euchre_s4_the_makers_take_three_tricks_for_one_point():
    game = euchre_game("up h")
    decide(game, "c9")
    play(game, "hA", "hQ", "hK", "h9")                 # seat 1
    play(game, "hJ", "h10", "d10", "s9")               # seat 1
    play(game, "dJ", "cK", "sQ", "s10")                # seat 1: three tricks
    play(game, "sA", "cA", "sK", "c10")                # seat 1: four
    play(game, "dA", "dK", "dQ", "d9")                 # seat 1: all five
    r = game.result()
    assert r.contract == "up" and r.trump == "h"
    # the makers (seats 1 and 3) march: 2 game points
    assert r.game_points[game.t.party_of[1]] == 2
    assert r.game_points[game.t.party_of[0]] == 0


def test_euchre_s4_the_makers_score_one_for_three_or_four_tricks_two_for_five_and_are_euchred_below_three():
    from schachett_rules.kernel.scoring import game_facts, game_points
    game = euchre_game("up h")                          # seat 1 makes hearts: seats 1 and 3 are the makers
    decide(game, "c9")
    t = game.t
    makers, defenders = t.party_of[1], t.party_of[0]

    def scored(taken: int) -> tuple:
        tricks = [0, 0]
        tricks[makers], tricks[defenders] = taken, 5 - taken
        points = game_points(t, (0, 0), tuple(tricks), game_facts(t, (0, 0), tuple(tricks), [0] * 4))
        return points[makers], points[defenders]
    # by the rules as the issue states them: 3-4 tricks 1 point, all 5 two, fewer than 3 give the defenders 2
    assert [scored(k) for k in range(6)] == [(0, 2), (0, 2), (0, 2), (1, 0), (1, 0), (2, 0)]


def test_euchre_s2_when_all_pass_twice_the_dealer_must_name_a_suit_other_than_the_turned_one():
    game = State.from_record(tables_for("euchre"), 0, EUCHRE, stock=EUCHRE_STOCK, turned="h9")
    for _ in range(4 + 3):                              # the first round round the table, then three more passes
        decide(game, "pass")
    assert game.phase_name == "auction" and game.before_play_seat() == 0
    offered = options(game)
    assert "pass" not in offered
    assert {o.split()[-1] for o in offered} == {"c", "d", "s"}     # any suit but hearts, the turned card's


def test_euchre_s2_going_alone_sits_the_partner_out_and_a_march_scores_four():
    game = euchre_game("up-alone h")
    decide(game, "c9")
    assert game.t.n_active == 3
    play(game, "hA", "hQ", "h9")                        # seat 3 sits out: a trick of three cards
    assert game.tricks[-1].winner == 1 and len(game.tricks[-1].cards) == 3
    play(game, "hJ", "h10", "s9")
    play(game, "dJ", "cK", "s10")
    play(game, "sA", "cA", "c10")
    play(game, "dA", "dK", "d9")
    r = game.result()
    assert r.game_points[game.t.party_of[1]] == 4


# --- Bavarian Schafkopf -------------------------------------------------------------------------------------

SOLO = [
    ["e8", "e7", "sA", "s10", "sK", "s9", "s8", "s7"],       # the dealer
    ["eO", "gO", "hO", "eU", "gU", "hU", "sU", "eK"],       # the soloist: three runners, sO missing
    ["sO", "hA", "h10", "hK", "h9", "h8", "h7", "eA"],
    ["e10", "e9", "gA", "g10", "gK", "g9", "g8", "g7"],
]


def bid_alone(game: State, seat: int, bid: str) -> None:
    """``seat`` bids ``bid`` and every other seat passes."""
    while game.phase_name == "auction":
        decide(game, bid if game.before_play_seat() == seat and bid not in ("",) else "pass")
        if game.before_play_seat() == seat:
            bid = "pass"


def test_schafkopf_s7_the_worked_example_a_solo_with_schneider_and_three_runners():
    game = State.from_record(tables_for("schafkopf"), 0, SOLO)
    bid_alone(game, 1, "solo h")
    assert game.phase_name == "play" and game.declarer == 1
    for k, lead in enumerate(["eO", "gO", "hO", "eU", "gU", "hU", "sU"]):
        # the defenders keep g10 and sK for the last trick
        play(game, lead, SOLO[2][k], SOLO[3][k if k < 3 else k + 1], SOLO[0][k if k < 4 else k + 1])
    # the last trick: the soloist's King of acorns falls to the Ace: 4 + 11 + 10 + 4 = 29 points
    play(game, "eK", "eA", "g10", "sK")
    r = game.result()
    assert r.contract == "solo" and r.trump == "h"
    assert r.card_points[game.t.party_of[1]] == 120 - 29 == 91
    # 20 for the Solo, 10 for Schneider, 3 runners at 10: 60 from each opponent, 180 in all
    assert r.settlement[1] == Fraction(180)
    assert [r.settlement[s] for s in (0, 2, 3)] == [-60, -60, -60]


RUFER = [
    ["e7", "h7", "sA", "s10", "sK", "s9", "s8", "s7"],
    ["eO", "gO", "hO", "sO", "e10", "gA", "g10", "gK"],    # the declarer: no acorn Ace, an acorn to call it with
    ["eU", "gU", "hU", "sU", "e9", "g9", "g8", "g7"],
    ["eA", "eK", "e8", "hA", "h10", "hK", "h9", "h8"],     # the called Ace's holder
]


def rufer() -> State:
    game = State.from_record(tables_for("schafkopf"), 0, RUFER)
    bid_alone(game, 1, "rufer")
    assert game.phase_name == "call" and game.before_play_seat() == 1
    return game


def test_schafkopf_s2_only_an_ace_the_declarer_lacks_of_a_suit_he_holds_may_be_called():
    assert options(rufer()) == ["eA"]


def test_schafkopf_s3_the_called_ace_must_be_played_when_its_suit_is_led_and_its_holder_is_hidden_till_then():
    game = rufer()
    decide(game, "eA")
    assert game.phase_name == "play"
    for seat in (0, 2):
        assert game.observation(seat).partners is None                # nobody but the holder knows
    assert 1 in game.observation(3).partners
    play(game, "e10", "e9")
    assert legal_names(game) == {"eA"}
    play(game, "eA")
    # once the Ace is played everyone knows the parties: seat 0 sits with seat 2 against 1 and 3
    assert set(game.observation(0).partners) - {0} == {2}
    assert set(game.observation(2).partners) - {2} == {0}


def test_schafkopf_s3_the_holder_may_not_throw_the_ace_away_nor_run_from_it():
    game = rufer()
    decide(game, "eA")
    play(game, "gK", "g7")
    # seat 3 has no leaf: any card but the called Ace, which is not thrown away before the last trick
    assert legal_names(game) == {"eK", "e8", "hA", "h10", "hK", "h9", "h8"}
    play(game, "hA", "s7")
    assert game.seat_to_play() == 3
    # leading, he may not lead another acorn while he holds the Ace
    assert legal_names(game) == {"eA", "h10", "hK", "h9", "h8"}


WENZ = [
    ["e7", "h7", "sA", "s10", "sK", "s9", "s8", "s7"],
    ["eU", "gU", "hU", "eA", "e10", "eK", "e9", "e8"],
    ["gO", "sO", "hO", "eO", "g10", "gK", "g9", "g8"],
    ["sU", "gA", "g7", "hA", "h10", "hK", "h9", "h8"],
]


def test_schafkopf_s4_in_a_wenz_only_the_unters_are_trumps_and_an_ober_follows_its_suit():
    game = State.from_record(tables_for("schafkopf"), 0, WENZ)
    bid_alone(game, 1, "wenz")
    play(game, "eA")
    assert legal_names(game) == {"eO"}
    play(game, "eO")
    play(game, "sU", "e7")          # the lowest Unter, a trump, takes the Ace
    assert game.tricks[-1].winner == 3


def test_schafkopf_s6_a_deal_nobody_bids_is_thrown_in():
    game = State.from_record(tables_for("schafkopf"), 0, WENZ)
    for _ in range(4):
        decide(game, "pass")
    assert game.over
    r = game.result()
    assert r.thrown_in and all(m == 0 for m in r.settlement)


# --- every family game, dealt at random and played at random --------------------------------------------------

import json  # noqa: E402
import random  # noqa: E402
from hypothesis import given, settings, strategies as st   # noqa: E402

from schachett_rules.engine.replay import record_of, replay  # noqa: E402
from schachett_rules.kernel.streams import GameStream  # noqa: E402
from schachett_rules.paths import family_rulesets  # noqa: E402

FAMILY = sorted(family_rulesets())


def random_game(name: str, seed: int, game_number: int, check) -> State:
    """A game of ``name`` from a fresh deal, every decision made at random; ``check(state)`` after each step."""
    import random
    t = tables_for(name)
    rng = random.Random(seed)
    game = State.deal(t, seed % t.n_seats, GameStream(seed, game_number), game=game_number)
    check(game)
    while not game.over:
        rule = game.rule_action()
        actions = game.legal_actions()
        game.apply(rule if rule is not None else actions[rng.randrange(len(actions))])
        check(game)
    return game


def test_the_family_rulesets_are_all_there():
    assert set(FAMILY) >= {"hearts", "whist", "euchre", "five-hand-euchre", "schafkopf", "wendish-schafkopf",
                           "dreiwendsch", "officers-schafkopf"}


@pytest.mark.parametrize("name", FAMILY)
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), number=st.integers(0, 3))
def test_invariants_of_random_family_games(name, seed, number):
    t = tables_for(name)
    n_cards = t.n_cards

    def check(game: State) -> None:
        # every card is in exactly one place: a hand, the stock, the cards laid away, or played
        # (cards being passed are with their passer until every seat has passed)
        places = list(game.hands) + [game.stock, *game.discarded, game.played]
        if game.phase_name == "passing":
            places += list(game.passed)
        together = 0
        for mask in places:
            assert not together & mask
            together |= mask
        if game.turned >= 0:
            together |= 1 << game.turned
        assert together == (1 << n_cards) - 1
        # a seat sees its own hand and no hidden card of another (a tableau's face-up cards lie open)
        for seat in range(t.n_seats):
            if t.dummy_of(seat) is not None:
                continue
            obs = game.observation(seat)
            if game.base.flow is None or not game.base.flow.covered:
                assert set(obs.hands) <= {seat} | {d for d in range(t.n_seats) if t.dummy_of(d) is not None}
            # a partner known only by a called card is hidden from the others until the card is played
            if game.called >= 0 and game.partner >= 0 and not game.played >> game.called & 1:
                if seat != game.partner:
                    assert obs.partners is None or game.partner not in obs.partners
    game = random_game(name, seed, number, check)
    r = game.result()
    if r.thrown_in:
        return
    # every trick holds a card from each seat in the game, no card twice
    cards = [c for tr in game.tricks for _, c in tr.cards]
    assert len(game.tricks) == game.t.n_tricks
    assert all(len(tr.cards) == game.t.n_active for tr in game.tricks)
    assert len(cards) == len(set(cards)) if all(t.deck.face_cards[f].bit_count() == 1 for f in range(t.n_faces)) else True
    # the card points are all the points in the deck, counted once (cards laid away count to their party)
    assert sum(r.card_points) == sum(tr.points for tr in game.tricks) + sum(
        t.points[t.deck.card_face[c]] for mask in game.discarded for c in range(n_cards) if mask >> c & 1)
    # money balances: what the winners receive the losers pay
    assert sum(r.settlement) == 0


@pytest.mark.parametrize("name", FAMILY)
def test_a_random_family_game_replays_from_its_record(name):
    game = random_game(name, 1888, 1, lambda g: None)
    record = record_of(game, name)
    again = replay(record.model_validate_json(record.model_dump_json()))
    r = game.result()
    assert again.result.settlement == r.settlement
    assert again.result.contract == r.contract and again.result.game_points == r.game_points


@pytest.mark.parametrize("name, kings, card_points", [("euchre", False, False), ("whist", False, False),
                                                       ("hearts", False, True), ("original", True, True)])
def test_euchre_s4_whist_s3_a_replay_reports_what_the_game_counts(name, kings, card_points):
    # Euchre and Whist count tricks and game points (euchre:§4, whist:§3), no card points and no Kings' fates;
    # Hearts counts its hearts and the Queen as points; Schachett its card points and King events (§6, §7)
    from schachett_rules.engine.replay import format_report
    game = random_game(name, 1888, 2, lambda g: None)
    text = format_report(replay(record_of(game, name)))
    assert ("King events" in text) is kings and ("King points:" in text) is kings
    assert ("Card points:" in text) is card_points and ("card points" in text) is card_points
    assert "Winner:" in text


@pytest.mark.parametrize("name, target, fewest", [("hearts", 100, True), ("euchre", 10, False)])
def test_hearts_s4_and_euchre_s4_a_session_is_played_until_someone_reaches_the_target(name, target, fewest):
    from schachett_rules.engine.session import ledger, play_to_target, session_winners
    t = tables_for(name)
    session = play_to_target(t, name, {}, ["A", "B", "C", "D"], seed=7)
    lines = ledger(t, session)
    scores = {line.player: line.game_points for line in lines}
    # it stops at the first game that takes someone to the target, not before and not after
    assert max(scores.values()) >= target
    before = ledger(t, session.model_copy(update={"games": session.games[:-1]}))
    assert max(line.game_points for line in before) < target
    best = (min if fewest else max)(scores.values())
    assert session_winners(t, lines) == [p for p, v in scores.items() if v == best]


# --- Wendish Schafkopf --------------------------------------------------------------------------------------

WENDISH = [
    ["cA", "c10", "cK", "c9", "c8", "c7", "h7", "h8"],
    ["cQ", "hQ", "dQ", "cJ", "sJ", "hJ", "dJ", "dA"],      # the Kreuz-Dame: an Old One
    ["sA", "s10", "sK", "s9", "s8", "s7", "h9", "hK"],
    ["sQ", "d10", "dK", "d9", "d8", "d7", "hA", "h10"],    # the Pik-Dame: the other
]


def test_wendish_s2_the_holders_of_the_old_ones_play_together_unknown_until_both_are_seen():
    game = State.from_record(tables_for("wendish-schafkopf"), 0, WENDISH)
    for _ in range(4):
        decide(game, "pass")                 # nobody holds both Old Ones or bids a solo: the Old Ones play
    assert game.phase_name == "play"
    assert game.t.party_of[1] == game.t.party_of[3] != game.t.party_of[0] == game.t.party_of[2]
    for seat in range(4):
        assert game.observation(seat).partners is None
    play(game, "cQ", "sA", "sQ")
    # seat 3 has now seen both Old Ones (one in his hand, one played): he knows his partner, and so does all
    # the table once both lie on it
    assert 1 in game.observation(3).partners
    assert set(game.observation(0).partners) - {0} == {2}


def test_wendish_s3_a_hochzeit_is_open_only_to_the_holder_of_both_old_ones():
    hands = [list(h) for h in WENDISH]
    hands[1][7], hands[3][0] = hands[3][0], hands[1][7]       # seat 1 now holds cQ and sQ
    game = State.from_record(tables_for("wendish-schafkopf"), 0, hands)
    assert {"hochzeit", "hochzeit-trick"} <= {w.split()[0] for w in options(game)}
    decide(game, "pass")
    assert not {"hochzeit", "hochzeit-trick"} & {w.split()[0] for w in options(game)}


# --- every family ruleset where a Schachett ruleset goes ---------------------------------------------------

@pytest.mark.parametrize("name", FAMILY)
def test_a_family_ruleset_reads_as_prose_and_diffs_against_schachett(name):
    from schachett_rules.rules.diff import diff_rulesets
    from schachett_rules.rules.loader import load
    from schachett_rules.rules.prose import sentence
    from schachett_rules.rules.rulebook import render_ruleset
    r = load(name)
    text = render_ruleset(r)
    assert r.title in text
    for contract in r.contracts:
        for c in contract.clauses:          # every clause of every contract can be said in words
            assert sentence(c, None, None)
    d = diff_rulesets(r, load("original"))
    assert d.entries and any(e.key == "deck" for e in d.entries)


def test_euchre_s3_the_ranking_reads_with_the_bowers_named():
    from schachett_rules.rules.loader import load
    from schachett_rules.rules.rulebook import render_ruleset
    text = render_ruleset(load("euchre"))
    assert "J of trump colour > J of trump shade > A > K > Q > J > 10 > 9" in text
    assert "of the trump colour is a trump: such a card is led, followed and takes as a trump" in text


def test_a_simulation_of_hearts_names_its_players_and_reports_no_money_or_kings(tmp_path, monkeypatch):
    from click.testing import CliRunner
    from schachett_rules.cli.main import main
    monkeypatch.chdir(tmp_path)
    out = CliRunner().invoke(main, ["simulate", "hearts", "--games", "12", "--seed", "5"])
    assert out.exit_code == 0, out.output
    text = out.output
    # four players each for himself: a line per player, by the seat names, and game points by seat
    assert all(f"  {name}: wins" in text for name in ("South", "West", "North", "East"))
    assert "Game points" in text
    # the game points by seat, by the seat names too (hearts.schachett's seat names clause), never "seat 0"
    by_seat = next(line for line in text.splitlines() if "mean game points by seat:" in line)
    assert [part.split()[0] for part in by_seat.split(":", 1)[1].split(",")] == ["South", "West", "North", "East"]
    # Hearts pays no money and has no King: neither is reported
    assert "money" not in text and "King events" not in text and "castling" not in text


def test_schafkopf_s2_s4_s5_the_rules_in_words_give_every_contract_with_its_own_clauses():
    from schachett_rules.rules.loader import load
    from schachett_rules.rules.rulebook import render_ruleset
    text = render_ruleset(load("schafkopf"))
    contracts = text[text.index("\nContracts\n"):]
    assert "Rufer (contract rufer) [schafkopf:§2 printed]" in contracts
    assert "Solo (contract solo for each colour, like wenz)" in contracts
    # the Wenz's own ranking, the Unters alone above the Sow
    assert "eU > gU > hU > sU > A > 10 > K > O > 9 > 8 > 7" in contracts


def test_hearts_s3_a_heart_led_too_soon_is_refused_with_the_rule_in_its_own_words():
    game = State.from_record(tables_for("hearts"), 0, HEARTS, game=3)
    play(game, "c2", "c7", "dA", "cA")
    with pytest.raises(IllegalAction) as err:
        game.verify_play("h9")
    text = str(err.value)
    assert "trick 2, seat 3, card h9" in text
    assert "restriction broken: no lead h until played h, sQ (hearts:§3)" in text


def test_euchre_the_dealers_discard_is_in_his_view_alone_and_the_turned_card_stays_known():
    game = euchre_game("up h")
    decide(game, "c9")
    assert game.observation(0).discarded == ("c9",)
    assert all(game.observation(s).discarded == () for s in (1, 2, 3))
    play(game, "hA", "hQ", "hK", "h9")                # the dealer plays the card turned up
    # every seat saw it turned up: it is still named once played, and the discard is still the dealer's alone
    assert [game.observation(s).turned for s in range(4)] == ["h9"] * 4
    assert game.observation(0).discarded == ("c9",) and game.observation(2).discarded == ()


DREI = [
    ["cA", "cK", "c10", "c9", "c8", "sA", "sK", "s10", "s9", "s8"],          # the dealer
    ["cQ", "sQ", "hQ", "dQ", "cJ", "sJ", "hA", "h10", "hK", "h9"],           # holds the Queen of clubs
    ["hJ", "dJ", "dA", "d10", "dK", "d9", "d8", "d7", "h8", "h7"],
]
DREI_SKAT = ["c7", "s7"]


def test_wendish_s6_the_soloist_who_lays_the_queen_of_clubs_away_still_plays_alone_in_everyones_sight():
    """wendish §6: the holder of the Queen of clubs takes up the skat, lays two away and plays alone against the
    other two. Laying the Queen itself away leaves him the soloist; his taking up the skat shows it to all."""
    from schachett_rules.kernel.verify import decision_action
    game = State.from_record(tables_for("dreiwendsch"), 0, DREI, stock=DREI_SKAT)
    assert game.phase_name == "exchange" and game.exchanger == 1
    game.apply(decision_action(game, "cQ"))
    game.apply(decision_action(game, "c7"))
    assert game.phase_name == "play"
    assert game.t.parties[game.t.party_of[1]] == (1,)
    assert game.t.parties[game.t.party_of[0]] == (0, 2)
    for seat in range(3):
        assert game.observation(seat).partners == tuple(s for s in game.t.parties[game.t.party_of[seat]]
                                                        if s != seat)
    while not game.over:
        game.apply(game.legal_actions()[0])
    r = game.result()
    assert sum(r.settlement) == 0
    assert sorted(r.parties) == [(0, 2), (1,)]


# the card points of a whole deck, from the sources: Schafkopf's 120 (Ace 11, Ten 10, King 4, Ober 3, Unter 2:
# four of each, schafkopf:§1), the same pack in Wendish Schafkopf, Dreiwendsch and Officers' Schafkopf; Hearts'
# 13 hearts and the Queen of spades' 13; nothing in Whist and the euchres, which count tricks
DECK_POINTS = {"schafkopf": 120, "wendish-schafkopf": 120, "dreiwendsch": 120, "officers-schafkopf": 120,
               "hearts": 26, "whist": 0, "euchre": 0, "five-hand-euchre": 0}


@settings(max_examples=16, deadline=None)
@given(ruleset=st.sampled_from(sorted(DECK_POINTS)), seed=st.integers(0, 10**6))
def test_family_every_deal_counts_the_whole_decks_card_points(ruleset, seed):
    # every card ends in a trick or among the cards laid away, and each counts once to some party
    t = tables_for(ruleset)
    game = State.deal(t, seed % t.n_seats, GameStream(seed, 0), game=seed % 4)
    game.play_randomly(random.Random(seed))
    result = game.result()
    assert result.thrown_in or sum(result.card_points) == DECK_POINTS[ruleset]


def _hearts_record(**fields) -> dict:
    record = {"ruleset": "hearts", "dealer": 0, "hands": HEARTS, "actions": []}
    record.update(fields)
    return record


def test_hearts_s2_a_record_may_name_its_pass_direction_instead_of_its_game():
    # the cycle is left, right, across, none (hearts:§2): "across" alone is the third game, so seat 0's three
    # cards go to seat 2 (as in test_hearts_s2_right_in_the_second_game_across_in_the_third)
    from schachett_rules.engine.replay import parse_record, state_of
    t = tables_for("hearts")
    game = state_of(parse_record(json.dumps(_hearts_record(passing="across"))), t)
    assert game.game == 2
    mine = ["s5", "s4", "s3"]
    while game.phase_name == "passing":
        decide(game, mine.pop() if game.before_play_seat() == 0 else options(game)[0])
    assert {"s3", "s4", "s5"} <= hand_names(game, 2) and not {"s3", "s4", "s5"} & hand_names(game, 0)
    # and what the game writes names both, which replay together
    written = json.loads(record_of(game, "hearts").model_dump_json())
    assert (written["game"], written["passing"]) == (2, "across")


@pytest.mark.parametrize("fields, words", [
    ({"game": 0, "passing": "right"}, "the record says game 0 and that the cards pass right, but in game 0 of "
                                      "hearts they pass left (the passing clause: game 0 left, game 1 right"),
    ({"passing": "up"}, "passing"),
])
def test_hearts_s2_a_record_whose_direction_disagrees_is_refused_in_words(tmp_path, fields, words):
    from click.testing import CliRunner
    from schachett_rules.cli.main import main
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_hearts_record(**fields)), encoding="utf-8")
    res = CliRunner().invoke(main, ["replay", str(path)])
    assert res.exit_code != 0 and "Traceback" not in res.output and words in res.output, res.output


def test_a_record_of_a_game_that_passes_nothing_may_not_name_a_direction(tmp_path):
    from click.testing import CliRunner
    from schachett_rules.cli.main import main
    path = tmp_path / "w.json"
    assert CliRunner().invoke(main, ["sample", "whist", "--seed", "2", "--out", str(path)]).exit_code == 0
    record = json.loads(path.read_text())
    assert record["passing"] is None
    record["passing"] = "left"
    path.write_text(json.dumps(record), encoding="utf-8")
    res = CliRunner().invoke(main, ["replay", str(path)])
    assert res.exit_code != 0 and "Traceback" not in res.output
    assert "the record says the cards pass left, but whist passes no cards before play" in res.output
