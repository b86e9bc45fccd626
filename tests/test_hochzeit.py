"""Bavarian Schafkopf's Hochzeit (schafkopf:§8): a card offered, taken, a card given back, a partner made.

The source (manual/family/schafkopf/08-s8-hochzeit.md): a player dealt a single trump lays it face down and
offers it; the others are asked in turn, and the first who takes it gives back a card that is no trump, face down,
and plays with him. The deals and their results below are worked by hand from that rule and from the Rufer's
trumps and card points (schafkopf:§1, §2), not read back from the engine.
"""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from schachett_rules.cli.main import main
from schachett_rules.engine.replay import format_report, read_record, record_of, replay
from schachett_rules.errors import IllegalAction, RuleCheckError
from schachett_rules.kernel.actions import Answer, Bid, Give
from schachett_rules.kernel.compiler import compile_ruleset, tables_for
from schachett_rules.kernel.state import State
from schachett_rules.kernel.streams import GameStream
from schachett_rules.players.montecarlo import Sampler
from schachett_rules.players.rebuild import rebuilt, replay as rebuild
from schachett_rules.rules.loader import load
from schachett_rules.server.views import public_observation
from tests.test_family import bid_alone, decide, options, play

# West (seat 1) holds one trump, the h7; East (seat 3) holds seven trumps and one plain card, the s9, which is
# all he could give back; North (seat 2) holds the four Obers. The dealer is South (seat 0).
HOCHZEIT = [
    ["e7", "gK", "g7", "h9", "h8", "sK", "s8", "s7"],
    ["eA", "e10", "eK", "gA", "g10", "sA", "s10", "h7"],
    ["eO", "gO", "hO", "sO", "e9", "e8", "g9", "g8"],
    ["eU", "gU", "hU", "sU", "hA", "h10", "hK", "s9"],
]


def offered() -> State:
    game = State.from_record(tables_for("schafkopf"), 0, HOCHZEIT)
    bid_alone(game, 1, "hochzeit")
    assert game.phase_name == "offer" and game.declarer == 1
    return game


def test_schafkopf_s8_only_a_hand_of_exactly_one_trump_may_offer_a_hochzeit():
    game = State.from_record(tables_for("schafkopf"), 0, HOCHZEIT)
    assert "hochzeit" in options(game)               # West, first to bid, holds the h7 alone
    decide(game, "pass")
    assert "hochzeit" not in options(game)           # North holds four trumps
    decide(game, "pass")
    assert "hochzeit" not in options(game)           # East seven
    decide(game, "pass")
    assert "hochzeit" not in options(game)           # South two, the h9 and the h8
    with pytest.raises(IllegalAction, match=r"may not bid hochzeit.*schafkopf:§8"):
        decide(game, "hochzeit")


def test_schafkopf_s8_the_others_are_asked_in_turn_and_the_first_to_take_it_gives_back_a_plain_card():
    game = offered()
    # asked from the dealer's left, the declarer passed over: North first, then East, then South
    assert game.before_play_seat() == 2 and options(game) == ["take", "pass"]
    decide(game, "pass")
    assert game.before_play_seat() == 3
    decide(game, "take")
    # East now holds West's h7 and must give back a card that is no trump: the s9 is his only one
    assert game.phase_name == "return" and game.before_play_seat() == 3
    assert options(game) == ["s9"]
    with pytest.raises(IllegalAction, match=r"may not give back hA.*schafkopf:§8.*s9"):
        decide(game, "hA")
    decide(game, "s9")
    assert game.phase_name == "play"
    assert game.hands[1] == sum(1 << game.t.deck.card_of(c) for c in ["eA", "e10", "eK", "gA", "g10", "sA", "s10",
                                                                         "s9"])
    # West and East play together against South and North, and everyone knows it
    assert game.t.party_of[1] == game.t.party_of[3] != game.t.party_of[0] == game.t.party_of[2]
    assert [game.observation(s).partners for s in range(4)] == [(2,), (3,), (0,), (1,)]


def test_schafkopf_s8_the_cards_that_change_hands_are_seen_by_the_two_players_alone():
    game = offered()
    decide(game, "pass")
    decide(game, "take")
    decide(game, "s9")
    for seat in range(4):
        obs = game.observation(seat)
        assert obs.answers == ((2, False), (3, True))             # who took it, everyone saw
        if seat in (1, 3):
            assert obs.offered == "h7" and obs.given_back == ("s9",)
        else:
            assert obs.offered is None and obs.given_back == ()   # face down
    spectators = public_observation(game)
    assert spectators.offered is None and spectators.given_back == () and spectators.answers == ((2, False), (3, True))


def test_schafkopf_s8_a_hochzeit_played_out_by_hand():
    game = offered()
    decide(game, "pass")
    decide(game, "take")
    decide(game, "s9")
    # West leads (the dealer's left). Each trick: the cards in playing order, and who takes it
    play(game, "eA", "e8", "h7", "e7")       # East trumps the Ace: 11 points to West and East
    play(game, "eU", "h8", "e10", "sO")      # North's sO over the eU: 2 + 0 + 10 + 3 = 15 to South and North
    play(game, "eO", "gU", "h9", "eK")       # 3 + 2 + 0 + 4 = 9 to South and North
    play(game, "gO", "hU", "gK", "s9")       # 3 + 2 + 4 + 0 = 9
    play(game, "hO", "sU", "sK", "s10")      # 3 + 2 + 4 + 10 = 19
    play(game, "g8", "hA", "g7", "gA")       # East trumps North's g8: 0 + 11 + 0 + 11 = 22 to West and East
    play(game, "hK", "s7", "g10", "e9")      # 4 + 0 + 10 + 0 = 14
    play(game, "h10", "s8", "sA", "g9")      # 10 + 0 + 11 + 0 = 21
    r = game.result()
    assert [t.winner for t in game.tricks] == [3, 2, 2, 2, 2, 3, 3, 3]
    west_east, south_north = game.t.party_of[1], game.t.party_of[0]
    assert r.card_points[west_east] == 11 + 22 + 14 + 21 == 68
    assert r.card_points[south_north] == 15 + 9 + 9 + 19 == 52
    # the declarer's party has 61 or more: it wins. The tariff is a Rufer's, 10 (schafkopf:§7), and South and
    # North held the four Obers without a gap from the top, four runners at 10: 50 cents; each loser pays a winner
    assert r.winner == west_east
    assert list(r.settlement) == [-50, 50, -50, 50]


def test_schafkopf_s8_a_player_who_could_give_nothing_back_may_not_take_the_card():
    # North now holds eight trumps, so he could give back nothing that is no trump; East holds his plain cards
    hands = [HOCHZEIT[0], HOCHZEIT[1], ["eO", "gO", "hO", "sO", "hK", "h10", "hA", "hU"],
             ["eU", "gU", "e9", "e8", "g9", "g8", "sU", "s9"]]
    game = State.from_record(tables_for("schafkopf"), 0, hands)
    bid_alone(game, 1, "hochzeit")
    assert game.before_play_seat() == 2 and options(game) == ["pass"]
    with pytest.raises(IllegalAction, match=r"could not give back 1 card.*schafkopf:§8"):
        game.apply(Answer(2, True))


def test_schafkopf_s8_when_nobody_takes_the_card_the_deal_is_thrown_in():
    game = offered()
    for _ in range(3):
        decide(game, "pass")
    assert game.over and game.thrown_in
    r = game.result()
    assert r.thrown_in and r.contract == "hochzeit" and all(m == 0 for m in r.settlement)
    report = format_report(replay(record_of(game, "schafkopf")))
    assert "Nobody took the card offered: the cards are thrown in" in report and "Parties:" not in report


def test_schafkopf_s8_the_record_keeps_the_answers_and_the_card_given_back_and_replays(tmp_path):
    game = offered()
    decide(game, "pass")
    decide(game, "take")
    decide(game, "s9")
    game.play_randomly(random.Random(3))
    record = record_of(game, "schafkopf").model_dump(mode="json", by_alias=True, exclude_none=True)
    assert record["actions"][:7] == [{"bid": "hochzeit"}, {"bid": "pass"}, {"bid": "pass"}, {"bid": "pass"},
                                     {"answer": "pass"}, {"answer": "take"}, {"give": "s9"}]
    path = tmp_path / "hochzeit.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    again = replay(read_record(path))
    assert again.result.settlement == game.result().settlement
    text = CliRunner().invoke(main, ["replay", str(path)]).output
    assert "Offer: the declarer offers h7; North lets it lie; East takes it (schafkopf:§8)." in text
    assert "East gives back s9 (schafkopf:§8)." in text
    # East may not give back a trump: the record is refused with the clause
    record["actions"][6] = {"give": "hA"}
    path.write_text(json.dumps(record), encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "may not give back hA" in result.output and "schafkopf:§8" in result.output


def test_schafkopf_s8_an_automaton_that_never_bids_lets_the_card_offered_lie(rules):
    t = compile_ruleset(load(str(rules('ruleset v "V" extends schafkopf\n'
                                       'automaton [schafkopf:§6 design]: seat 2, seat 3 play the lowest card, '
                                       'never bid\n'))))
    game = State.from_record(t, 0, HOCHZEIT)
    game.apply(Bid(1, t.flow.contract_index("hochzeit"), -1))
    game.apply(game.rule_action())
    game.apply(game.rule_action())
    game.apply(Bid(0))
    assert game.phase_name == "offer" and game.rule_action() == Answer(2, False)
    with pytest.raises(IllegalAction, match="automaton"):
        game.apply(Answer(2, True))
    game.apply(game.rule_action())
    assert game.rule_action() == Answer(3, False)
    game.apply(game.rule_action())
    assert game.rule_action() is None and game.before_play_seat() == 0     # South, a person, decides


def test_schafkopf_s8_hochzeit_games_walk_alike_on_the_state_and_the_compiled_state():
    from tests.test_compiled_family import _walk_bidding
    t = tables_for("schafkopf")
    taken = refused = 0
    for g in range(160):
        state, walk, _ = _walk_bidding(t, "hochzeit", g)
        if state.contract != t.flow.contract_index("hochzeit"):
            continue
        assert walk.arrays.regs[walk.c.PARTNER] == state.partner == state.taker
        assert state.t.party_of == tuple(walk.arrays.party_of.tolist())
        if state.thrown_in:
            refused += 1
            continue
        taken += 1
        assert list(state.result().totals) == walk.points()
    assert taken > 10 and refused > 0


def test_schafkopf_s8_deals_drawn_for_a_seat_agree_with_what_it_saw_of_the_offer():
    # every seat's view after the offer and a few cards: deals drawn for it rebuild into its very game, the
    # declarer without a trump, the taker with the card offered, the card given back where it went
    game = offered()
    decide(game, "pass")
    decide(game, "take")
    decide(game, "s9")
    play(game, "eA", "e8", "h7", "e7", "eU")
    t = game.base
    rng = random.Random(7)
    for seat in range(4):
        obs = game.observation(seat)
        sampler = Sampler(t, obs)
        for _ in range(8):
            hands = sampler.sample(rng)
            if seat != 1:
                assert not hands[1] & t.flow.contracts[t.flow.contract_index("hochzeit")].offer.offered(0)
            state = rebuild(t, obs, hands, rng)
            assert state is not None and state.observation(seat) == obs
        assert rebuilt(t, sampler, obs, rng).observation(seat) == obs


OFFER_RULES = '''ruleset v "V" extends schafkopf
drop contract hochzeit
override auction [schafkopf:§6 design] {{
    from dealer + 1
    round: rufer, gift < wenz, solo: highest bid wins
    all pass: redeal
}}
contract gift [schafkopf:§8 design] "Gift" {{
    class trump [schafkopf:§2 printed]: O, U, h
    ranking [schafkopf:§2 printed]: (eO) > (gO) > (hO) > (sO) > (eU) > (gU) > (hU) > (sU) > A > 10 > K > 9 > 8 > 7
    value tariff [schafkopf:§7 design]: 10
    value least [schafkopf:§7 design]: 3
{body}
}}
'''


@pytest.mark.parametrize("body, message", [
    ("    requires [schafkopf:§8 design]: holds exactly 1 of trump\n"
     "    offer [schafkopf:§8 design]: trump face down, asked from dealer + 1, taker gives back 1 of any except trump\n"
     "    offer refused [schafkopf:§8 design]: redeal\n    partner [schafkopf:§8 design]: none\n",
     "must also say `partner: taker`"),
    ("    requires [schafkopf:§8 design]: holds one of trump\n"
     "    offer [schafkopf:§8 design]: trump face down, asked from dealer + 1, taker gives back 1 of any except trump\n"
     "    offer refused [schafkopf:§8 design]: redeal\n    partner [schafkopf:§8 design]: taker\n",
     "holds exactly 1 of"),
    ("    requires [schafkopf:§8 design]: holds exactly 1 of trump\n"
     "    offer [schafkopf:§8 design]: trump face down, asked from dealer + 1, taker gives back 1 of any\n"
     "    offer refused [schafkopf:§8 design]: redeal\n    partner [schafkopf:§8 design]: taker\n",
     "could be one of the cards offered"),
    ("    requires [schafkopf:§8 design]: holds exactly 1 of trump\n"
     "    offer [schafkopf:§8 design]: trump face down, asked from dealer + 1, taker gives back 1 of any except trump\n"
     "    partner [schafkopf:§8 design]: taker\n",
     "no `offer refused` clause"),
    ("    requires [schafkopf:§8 design]: holds exactly 1 of trump\n    partner [schafkopf:§8 design]: taker\n",
     "no offer clause says what is offered"),
])
def test_schafkopf_s8_an_offer_the_other_clauses_do_not_bear_out_is_refused(rules, body, message):
    path = rules(OFFER_RULES.format(body=body))
    with pytest.raises(RuleCheckError, match=message) as err:
        compile_ruleset(load(str(path)))
    assert str(path) in str(err.value) or path.name in str(err.value)


def test_schafkopf_s8_a_card_offered_face_up_is_shown_to_all_and_refused_it_leaves_the_declarer_alone(rules):
    body = ("    requires [schafkopf:§8 design]: holds exactly 1 of trump\n"
            "    offer [schafkopf:§8 design]: trump face up, asked from dealer + 1, taker gives back 1 of any except "
            "trump\n    offer refused [schafkopf:§8 design]: declarer alone\n    partner [schafkopf:§8 design]: taker\n")
    t = compile_ruleset(load(str(rules(OFFER_RULES.format(body=body)))))
    game = State.from_record(t, 0, HOCHZEIT)
    bid_alone(game, 1, "gift")
    assert all(game.observation(s).offered == "h7" for s in range(4))        # face up: every seat sees it
    for _ in range(3):
        decide(game, "pass")
    # nobody took it: West keeps his h7 and plays alone against the three
    assert game.phase_name == "play" and not game.thrown_in
    assert game.t.party_of[1] != game.t.party_of[0] == game.t.party_of[2] == game.t.party_of[3]
    assert game.hands[1] >> t.deck.card_of("h7") & 1


def test_schafkopf_s8_the_state_the_one_game_path_and_the_batch_play_the_same_hochzeits(rules):
    # an auction that offers the Hochzeit alone, so that random bidders play it in every deal that deals a single
    # trump (thrown in otherwise): the three paths must play each game alike, the offer, its answers and the card
    # given back included (tests/test_batch.py compares them card by card, Kings, bids and money)
    from tests.test_batch import test_the_state_the_one_game_path_and_the_batch_play_the_same_games as same_games
    path = rules('ruleset only-hochzeit "Schafkopf, the Hochzeit alone" extends schafkopf\n'
                 'override auction [schafkopf:§6 design] {\n    from dealer + 1\n    round: hochzeit: highest bid wins\n'
                 '    all pass: redeal\n}\n', "only-hochzeit")
    same_games(str(path), ())
    t = tables_for(str(path))
    played = 0
    for g in range(150):
        game = State.deal(t, g % 4, GameStream(18, g))
        game.play_randomly(random.Random(g))
        played += game.contract >= 0 and not game.thrown_in
    assert played > 5          # Hochzeits were taken and played, not only thrown in
