"""An automaton in a game that decides before play: the clause says which cards its seats pass, and that they
never bid.

Hearts (hearts:§2) asks every player to pass three cards before the first trick. An automaton's rule said only
which card to play, so the compiler refused an automaton there; with ``, pass the highest cards`` (or ``the
lowest cards``) the rule decides the passes too, and no bot or person is asked for them. The cards expected are
worked out by hand from the deal below and the order the rule ranks cards in (rank, then points, then the deck's
order: an Ace over a King, and of two Kings the one worth a point, the King of hearts).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from click.testing import CliRunner

from schachett_rules.cli.main import main
from schachett_rules.engine.replay import record_of
from schachett_rules.errors import RuleCheckError
from schachett_rules.kernel.actions import AUCTION, CALL, EXCHANGE, PASSING, PLAY, Bid, Call, Discard, Give
from schachett_rules.kernel.compiler import compile_ruleset
from schachett_rules.kernel.state import State
from schachett_rules.kernel.verify import decision_action
from schachett_rules.kernel.streams import GameStream
from schachett_rules.language.printer import clause
from schachett_rules.players import make_bot
from schachett_rules.players.bots import play_game
from schachett_rules.playouts.batch import random_batch, uniforms
from schachett_rules.playouts.single import random_game
from schachett_rules.rules.loader import load
from tests.test_batch import Stream
from tests.test_compiled_family import _card
from tests.test_family import EUCHRE, EUCHRE_STOCK, RUFER

AUTOMATA = ('ruleset hearts-auto "Hearts against three automata" extends hearts\n'
            'automaton [hearts:§1 design]: seat 1, seat 2, seat 3 play the lowest card, pass the highest cards\n')

# a deal (seat by seat); the dealer is seat 0, so seat 1 passes first, then seats 2, 3 and 0 (hearts:§2)
DEAL = [
    ["c10", "c4", "c6", "c8", "cQ", "d10", "d4", "d7", "dA", "dJ", "dQ", "h6", "s4"],
    ["c3", "c9", "dK", "h3", "h5", "h8", "hA", "hJ", "hQ", "s6", "s7", "s8", "sJ"],
    ["c5", "c7", "cA", "cJ", "d2", "d6", "d8", "d9", "h10", "h2", "s10", "s3", "sK"],
    ["c2", "cK", "d3", "d5", "h4", "h7", "h9", "hK", "s2", "s5", "s9", "sA", "sQ"],
]


@pytest.fixture()
def automata(rules):
    return compile_ruleset(load(str(rules(AUTOMATA, "hearts-auto"))))


def _names(t, mask: int) -> set[str]:
    return {t.deck.card_name(c) for c in range(t.n_cards) if mask >> c & 1}


def _three_paths(t, games: int, seed: int, numbers=None):
    """Play ``games`` random games on the state, the one-game path and the batch from the same numbers; assert
    that they draw the same numbers and play the same tricks; yield each game as the state played it."""
    u = uniforms(t, games, np.random.default_rng(seed))
    dealers = np.arange(games) % t.n_seats
    numbers = np.zeros(games, dtype=np.int64) if numbers is None else numbers
    out = random_batch(t, dealers, u, numbers)
    name = t.deck.card_name
    for g in range(games):
        stream, fast = Stream(u[g]), Stream(u[g])
        game = State.deal(t, int(dealers[g]), stream, game=int(numbers[g]))
        game.play_randomly(stream)
        one = random_game(t, int(dealers[g]), fast, game=int(numbers[g]))
        assert stream.i == fast.i, g            # the automata's decisions draw no numbers on either path
        tricks = [(tr.cards, tr.winner, tr.points) for tr in game.tricks]
        assert [(tuple((s, name(c)) for s, c in plays), w, int(p)) for plays, w, p in
                zip(one.tricks(), one.trick_winners, one.log[:, 1])] == tricks, g
        assert [int(out.winners[g, i]) for i in range(len(game.tricks))] == [tr.winner for tr in game.tricks], g
        if t.flow is not None and t.flow.contracts:
            assert tuple(one.game[:3]) == (game.contract, game.trump, game.declarer), g
        yield game


def test_hearts_s2_an_automaton_passes_its_highest_cards_by_its_rule(automata):
    t = automata
    state = State.from_record(t, 0, DEAL, game=0)            # game 0 passes to the left
    assert state.phase == PASSING
    passed = []
    while state.phase == PASSING:
        action = state.rule_action()
        if action is None:                                     # seat 0 is the person's: he passes his lowest
            assert state.before_play_seat() == 0
            action = min(state.legal_actions(), key=lambda a: t.strength_order[a.card])
        assert isinstance(action, Give)
        passed.append((action.seat, t.deck.card_name(action.card)))
        state.apply(action)
    # by hand: seat 1 holds one Ace (hA), one King (dK), one Queen (hQ); seat 2 the Ace of clubs, the King of
    # spades and, with no Queen, the Jack of clubs; seat 3 the Ace of spades, then of its Kings the heart (a
    # point) before the club
    assert passed[:9] == [(1, "hA"), (1, "dK"), (1, "hQ"), (2, "cA"), (2, "sK"), (2, "cJ"),
                          (3, "sA"), (3, "hK"), (3, "cK")]
    assert state.phase == PLAY
    # to the left: seat 2 now holds what seat 1 passed, seat 0 what seat 3 passed
    assert {"hA", "dK", "hQ"} <= _names(t, state.hands[2])
    assert {"sA", "hK", "cK"} <= _names(t, state.hands[0])


def test_hearts_s2_the_lowest_cards_reading(rules):
    t = compile_ruleset(load(str(rules(AUTOMATA.replace("pass the highest", "pass the lowest"), "hearts-auto"))))
    state = State.from_record(t, 0, DEAL, game=0)
    seat1 = [t.deck.card_name(state.rule_action().card)]
    state.apply(state.rule_action())
    seat1.append(t.deck.card_name(state.rule_action().card))
    # by hand: seat 1's lowest is its three (c3 before h3: the same rank, no points against one)
    assert seat1 == ["c3", "h3"]


def test_an_automaton_that_passes_where_nothing_is_passed_is_refused(rules):
    path = rules('ruleset v "V" extends solitaire\n'
                 'override automaton [§3 design]: seat 1, seat 3 play the cheapest card that takes, else the lowest '
                 'card, pass the highest cards, and never castle\n')
    with pytest.raises(RuleCheckError, match=r"passes no cards before play; leave that phrase out") as err:
        compile_ruleset(load(str(path)))
    assert ":2:" in str(err.value)


def test_an_automaton_still_may_not_sit_where_it_would_be_asked_to_bid(rules):
    path = rules('ruleset w "W" extends euchre\n'
                 'automaton [euchre:§1 design]: seat 3 play the highest card, pass the highest cards\n')
    with pytest.raises(RuleCheckError, match=r"this ruleset passes no cards before play"):
        compile_ruleset(load(str(path)))


def test_the_printer_writes_the_passing_rule_back(rules):
    ruleset = load(str(rules(AUTOMATA, "hearts-auto")))
    text = clause(ruleset.clause("automaton"))
    assert text == ("automaton [hearts:§1 design]: seat 1, seat 2, seat 3 play the lowest card, "
                    "pass the highest cards")
    # and what it writes parses to the same clause
    again = load(str(rules(AUTOMATA.splitlines()[0] + "\n" + text + "\n", "hearts-auto")))
    assert again.clause("automaton") == ruleset.clause("automaton")


def test_the_state_the_one_game_path_and_the_batch_agree_with_automata_passing(automata):
    t = automata
    for _game in _three_paths(t, 40, 3, np.arange(40) % 4):
        pass
    # pass by pass, each automaton's card is the highest it still holds (game 1 passes to the right)
    state = State.deal(t, 0, GameStream(7, 0), game=1)
    while state.phase == PASSING:
        seat = state.before_play_seat()
        action = state.rule_action() if seat != 0 else state.legal_actions()[0]
        if seat != 0:
            top = max((a.card for a in state.legal_actions()), key=lambda c: t.strength_order[c])
            assert action == Give(seat, top)
        state.apply(action)


def test_a_bot_plays_hearts_against_three_automata(automata):
    t = automata
    bots = [make_bot("mc", t)] + [make_bot("random", t)] * 3       # the automata's seats never ask their bot
    game = play_game(t, 0, bots, GameStream(4, 0))
    assert game.over and len(game.tricks) == t.n_tricks
    assert sum(game.card_points) == 26                               # every heart and the Queen of spades


def test_a_record_must_show_the_automaton_passing_by_its_rule(automata, rules, tmp_path):
    t = automata
    state = State.from_record(t, 0, DEAL, game=0)
    state.play_randomly(GameStream(1, 0))
    record = record_of(state, "hearts-auto").model_dump(mode="json", by_alias=True, exclude_none=True)
    folder = rules(AUTOMATA, "hearts-auto").parent
    good = folder / "good.json"
    good.write_text(json.dumps(record), encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(good)])
    assert result.exit_code == 0, result.output
    # seat 1 passes first; its rule passes hA (by hand, above): a record that says c3 is refused, naming both
    record["actions"][0] = {"give": "c3"}
    bad = folder / "bad.json"
    bad.write_text(json.dumps(record), encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(bad)])
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "action 1, seat 1, card c3: seat 1 is played by the automaton clause's rule, which passes hA here, " \
           "not c3" in result.output
    # a card played while cards are still being passed names whose turn it is to pass
    record["actions"] = record["actions"][:1] + ["c4"]
    record["actions"][0] = {"give": "hA"}
    bad.write_text(json.dumps(record), encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(bad)])
    assert "action 2, seat 0, card c4: no card is played yet: it is seat 1's turn to pass a card on" in result.output


# --- an automaton that never bids (schafkopf:§6, wendish:§3) ------------------------------------------------------

def test_schafkopf_s6_an_automaton_that_never_bids_passes_at_each_turn(rules):
    # seats 0, 2 and 3 are automata: West (seat 1) is the only one who bids; he plays a Rufer and calls the
    # acorn Ace, which East holds (the deal of test_family), so East, an automaton, is his partner
    t = compile_ruleset(load(str(rules('ruleset v "V" extends schafkopf\n'
                                       'automaton [schafkopf:§6 design]: seat 0, seat 2, seat 3 play the lowest card, '
                                       'never bid\n'))))
    state = State.from_record(t, 0, RUFER)
    assert state.phase == AUCTION
    assert state.rule_action() is None                  # seat 1 bids first (the dealer's left): a player's turn
    state.apply(Bid(1, t.flow.contract_index("rufer"), -1))
    for seat in (2, 3, 0):
        assert state.rule_action() == Bid(seat, -1, -1)
        state.apply(state.rule_action())
    state.apply(Call(1, _card(t, "eA")))
    assert state.phase == PLAY and state.t.party_of[1] == state.t.party_of[3] != state.t.party_of[0]


def test_schafkopf_s6_where_every_seat_never_bids_the_cards_are_thrown_in(rules):
    t = compile_ruleset(load(str(rules('ruleset v "V" extends schafkopf\n'
                                       'automaton [schafkopf:§6 design]: seat 0, seat 1, seat 2, seat 3 play the '
                                       'lowest card, never bid\n'))))
    state = State.deal(t, 0, GameStream(2, 0))
    state.play_randomly(GameStream(2, 1))
    # the auction's `all pass: redeal`: nobody plays, nobody scores
    assert state.over and state.thrown_in and not state.tricks


def test_wendish_s3_the_state_the_one_game_path_and_the_batch_agree_with_automata_that_never_bid(rules):
    t = compile_ruleset(load(str(rules('ruleset v "V" extends wendish-schafkopf\n'
                                       'automaton [wendish:§3 design]: seat 1, seat 3 play the cheapest card that '
                                       'takes, else the lowest card, never bid\n'))))
    bid_by_a_player = 0
    for game in _three_paths(t, 40, 5):
        assert all(b.contract is None for b in game.records_of("bid") if b.seat in (1, 3))
        bid_by_a_player += any(b.contract is not None for b in game.records_of("bid"))
        assert game.declarer in (-1, 0, 2) or game.contract == t.flow.contract_index("old-ones")
    assert bid_by_a_player           # the players' seats did bid, so the auction was walked, not only passed


def test_an_automaton_that_never_bids_may_not_sit_where_the_dealer_must_bid(rules):
    # euchre:§2: in the second round the dealer must name trumps when the others have passed
    path = rules('ruleset w "W" extends euchre\n'
                 'automaton [euchre:§1 design]: seat 3 play the highest card, never bid\n')
    with pytest.raises(RuleCheckError, match=r"never bids, but the auction makes the dealer bid when all the "
                                             r"others have passed \(euchre:§2\)"):
        compile_ruleset(load(str(path)))
    path = rules('ruleset h "H" extends hearts\n'
                 'automaton [hearts:§1 design]: seat 3 play the highest card, pass the lowest cards, never bid\n')
    with pytest.raises(RuleCheckError, match=r"says how the automaton bids, but this ruleset has no auction"):
        compile_ruleset(load(str(path)))


def test_a_record_must_show_the_automaton_passing_at_its_turn_to_bid(rules):
    path = rules('ruleset sk-auto "V" extends schafkopf\n'
                 'automaton [schafkopf:§6 design]: seat 0, seat 2, seat 3 play the lowest card, never bid\n',
                 "sk-auto")
    t = compile_ruleset(load(str(path)))
    state = State.from_record(t, 0, RUFER)
    state.apply(Bid(1, t.flow.contract_index("rufer"), -1))
    state.play_randomly(GameStream(3, 0))                 # the automata pass; the random player calls and plays
    record = record_of(state, "sk-auto").model_dump(mode="json", by_alias=True, exclude_none=True)
    assert record["actions"][1] == {"bid": "pass"}        # North, after West's Rufer
    record["actions"][1] = {"bid": "wenz"}                # a Wenz outbids a Rufer: open to a player, not to North
    bad = path.parent / "bad.json"
    bad.write_text(json.dumps(record), encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(bad)])
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert ("action 2, seat 2: seat 2 is played by the automaton clause's rule, which passes at its turn to bid "
            "here, not a bid of wenz") in result.output


# --- an automaton made to bid, and laying cards away (euchre:§2) --------------------------------------------------

EUCHRE_AUTOMATA = ('ruleset eu-auto "V" extends euchre\n'
                   'automaton [euchre:§2 design]: {} play the highest card, bid only when made to, '
                   'lay away the lowest cards\n')


def test_euchre_s2_an_automaton_dealer_lays_away_its_lowest_card(rules):
    t = compile_ruleset(load(str(rules(EUCHRE_AUTOMATA.format("seat 0"), "eu-auto"))))
    state = State.from_record(t, 0, EUCHRE, stock=EUCHRE_STOCK, turned="h9")
    state.apply(decision_action(state, "up h"))            # seat 1 orders hearts up; the first bid wins
    assert state.phase == EXCHANGE and state.before_play_seat() == 0
    # by hand: the dealer holds s9 s10 c9 c10 d9 and the turned h9; of its four Nines (one rank, no points) the
    # first in the deck's order (clubs, diamonds, hearts, spades) is laid away
    assert state.rule_action() == Discard(0, _card(t, "c9"))


def test_euchre_s2_an_automaton_dealer_made_to_bid_names_the_first_suit_open(rules):
    seats = "seat 0, seat 1, seat 2, seat 3"
    t = compile_ruleset(load(str(rules(EUCHRE_AUTOMATA.format(seats), "eu-auto"))))
    state = State.from_record(t, 0, EUCHRE, stock=EUCHRE_STOCK, turned="h9")
    while state.phase == AUCTION:
        state.apply(state.rule_action())                   # every seat passes while it may
    # by hand: both rounds pass; the dealer must name a suit other than the turned hearts, and the first bid of
    # the second round's order is "named" in clubs, the deck's first colour
    assert (state.declarer, t.flow.contracts[state.contract].name, t.deck.colours[state.trump]) == (0, "named", "c")


def test_euchre_s2_the_state_the_one_game_path_and_the_batch_agree_with_automata_making_and_laying_away(rules):
    t = compile_ruleset(load(str(rules(EUCHRE_AUTOMATA.format("seat 0, seat 2"), "eu-auto"))))
    laid_by_automaton = 0
    for game in _three_paths(t, 40, 9):
        laid_by_automaton += any(d.seat in (0, 2) for d in game.records_of("discard"))
    assert laid_by_automaton        # an automaton dealer was ordered up and laid a card away


def test_hearts_s2_the_state_leaves_an_automaton_no_choice_whoever_asks(automata):
    # the state, not only a record's replay, holds an automaton to its rule: at seat 1's first pass its one
    # open action is the rule's (hA, worked out above), and any other card it holds is refused by the clause
    from schachett_rules.errors import IllegalAction
    t = automata
    state = State.from_record(t, 0, DEAL, game=0)
    assert state.before_play_seat() == 1
    assert state.legal_actions() == [Give(1, _card(t, "hA"))]
    assert _card(t, "c3") in [a.card for a in state.open_actions()]      # the passing rules alone allow c3
    assert not state.can(Give(1, _card(t, "c3")))
    with pytest.raises(IllegalAction, match=r"seat 1, card c3: seat 1 is played by the automaton clause's rule, "
                                            r"which passes hA here, not c3") as err:
        state.apply(Give(1, _card(t, "c3")))
    assert err.value.clause == "automaton" and state.passes_done == 0 and state.hands[1] >> _card(t, "c3") & 1


def test_s3_the_solitaire_automaton_plays_only_the_card_its_rule_makes():
    # the solitaire's automaton (seats 1 and 3) plays the cheapest card that takes, else its lowest: in play,
    # the state opens that card alone, refuses another it could follow with, and refuses a card the follow
    # rules forbid in their own words first
    import random
    from schachett_rules.errors import IllegalAction
    from schachett_rules.kernel.compiler import tables_for
    t = tables_for("solitaire")
    rng = random.Random(5)
    refused = 0
    for seed in range(4):
        state = State.deal(t, 0, GameStream(seed, 0))
        for _ in range(seed * 3):                # the person's cards at random, the automaton's own
            state.apply(state.rule_action() or rng.choice(state.legal_actions()))
        while state.rule_action() is None:
            state.apply(rng.choice(state.legal_actions()))
        rule = state.rule_action()
        assert state.legal_actions() == [rule] and rule.seat in (1, 3)
        others = [c for c in state.legal() if t.deck.card_of(c) != rule.card]
        if others:
            with pytest.raises(IllegalAction, match=rf"trick {state.trick_number}, seat {rule.seat}, "
                                                    rf"card {others[0]}: .*automaton clause's rule, which plays "
                                                    rf"{t.deck.card_name(rule.card)} here") as err:
                state.play(others[0])
            assert err.value.clause == "automaton"
            refused += 1
        unplayable = [c for c in range(t.n_cards) if state.hands[rule.seat] >> c & 1 and not state.legal().mask >> c & 1]
        if unplayable:
            with pytest.raises(IllegalAction) as err:
                state.apply(type(rule)(rule.seat, unplayable[0]))
            assert err.value.clause != "automaton"
        state.apply(rule)
    assert refused >= 2


FIVE_AUTOMATON = ('ruleset e5-auto "V" extends five-hand-euchre\n'
                  'automaton [euchre5:§4 design]: {} play the highest card, bid only when made to, '
                  'lay away the lowest cards, call the highest card it may\n')
# a deal of the 28 cards with the dealer (seat 0) holding the right bower of clubs or not
FIVE_DEAL = [["cJ", "d8", "h8", "s8", "d9"], ["cA", "cK", "cQ", "c10", "c9"], ["dA", "dK", "dQ", "dJ", "d10"],
             ["hA", "hK", "hQ", "hJ", "h10"], ["sA", "sK", "sQ", "sJ", "s10"]]
FIVE_STOCK = ["h9", "c8", "s9"]


def _five_named_by_the_dealer(t, hands, stock) -> State:
    """The deal played through both rounds of making trump with every other seat passing: the automaton dealer
    is made to name a suit, and names clubs, the first bid open (as worked out for Euchre above)."""
    state = State.from_record(t, 0, hands, stock=stock, turned="h9")
    while state.phase == AUCTION:
        state.apply(state.rule_action() or decision_action(state, "pass"))
    assert (state.declarer, t.flow.contracts[state.contract].name, t.deck.colours[state.trump]) == (0, "named", "c")
    return state


def test_euchre5_s4_an_automaton_maker_calls_the_highest_card_it_may(rules):
    # by hand: in clubs the order is cJ (right bower) > sJ (left bower) > cA > cK ...; the maker may call any card
    # he does not hold (euchre5:§4). Holding cJ, the highest he may call is the left bower, sJ, which seat 4
    # holds: seat 4 is his hidden partner
    t = compile_ruleset(load(str(rules(FIVE_AUTOMATON.format("seat 0"), "e5-auto"))))
    state = _five_named_by_the_dealer(t, FIVE_DEAL, FIVE_STOCK)
    assert state.phase == CALL and state.legal_actions() == [Call(0, _card(t, "sJ"))]
    # another card it may call is refused by the clause, naming what the rule calls
    from schachett_rules.errors import IllegalAction
    with pytest.raises(IllegalAction, match=r"seat 0, card cA: seat 0 is played by the automaton clause's rule, "
                                            r"which calls sJ here, not cA") as err:
        state.apply(Call(0, _card(t, "cA")))
    assert err.value.clause == "automaton" and state.phase == CALL
    state.apply(state.rule_action())
    assert state.phase == PLAY and state.partner == 4
    # without cJ (it lies in the stock) he calls cJ itself: nobody holds it, and he plays alone (euchre5:§4)
    hands = [["c8"] + FIVE_DEAL[0][1:]] + FIVE_DEAL[1:]
    state = _five_named_by_the_dealer(t, hands, ["h9", "cJ", "s9"])
    assert state.rule_action() == Call(0, _card(t, "cJ"))
    state.apply(state.rule_action())
    assert state.partner == -1


def test_euchre5_s4_an_automaton_that_could_call_must_be_told_how(rules):
    # five-hand Euchre's maker names a card: an automaton that may make trumps and is not told which card it
    # calls is refused, naming the phrase; one whose contracts never call may not say it
    bare = ('ruleset e5-bare "V" extends five-hand-euchre\n'
            'automaton [euchre5:§4 design]: seat 0 play the highest card, bid only when made to, '
            'lay away the lowest cards\n')
    with pytest.raises(RuleCheckError, match=r"call a card, of which the rule says nothing.*"
                                             r"`, call the highest card it may` \(or the lowest\)"):
        compile_ruleset(load(str(rules(bare, "e5-bare"))))
    needless = EUCHRE_AUTOMATA.format("seat 0").rstrip("\n") + ", call the lowest card it may\n"
    with pytest.raises(RuleCheckError, match=r"which card the automaton calls \(lowest\), but in this ruleset no "
                                             r"contract it may declare calls a card; leave that phrase out"):
        compile_ruleset(load(str(rules(needless, "eu-auto"))))


def test_euchre5_the_printer_writes_the_call_rule_back(rules):
    t = load(str(rules(FIVE_AUTOMATON.format("seat 0, seat 3"), "e5-auto")))
    written = clause(t.clause("automaton"))
    assert written.endswith("seat 0, seat 3 play the highest card, bid only when made to, lay away the lowest "
                            "cards, call the highest card it may")


def test_euchre5_the_state_the_one_game_path_and_the_batch_agree_with_an_automaton_calling(rules):
    # four automata, so that the one player often passes and an automaton dealer is made to name trumps
    t = compile_ruleset(load(str(rules(FIVE_AUTOMATON.format("seat 0, seat 1, seat 2, seat 3"), "e5-auto"))))
    called_by_automaton = 0
    for game in _three_paths(t, 100, 4):
        called_by_automaton += any(c.seat != 4 for c in game.records_of("call"))
    assert called_by_automaton       # an automaton made trumps and called a card


@pytest.mark.parametrize("name", ["mc:4", "dd:3"])
def test_euchre5_a_strong_player_plays_five_hand_euchre_beside_four_automata(rules, name):
    import random
    from schachett_rules.players.bots import RandomBot
    t = compile_ruleset(load(str(rules(FIVE_AUTOMATON.format("seat 0, seat 1, seat 2, seat 3"), "e5-auto"))))
    game = play_game(t, 2, [RandomBot(t)] * 4 + [make_bot(name, t)], random.Random(3))
    assert game.over and len(game.tricks) == 5
    # every decision of seats 0 to 3 was their rule's: the record replays, and replay holds them to it
    from schachett_rules.engine.replay import state_of
    again = state_of(record_of(game, "e5-auto"), t)
    assert again.over and again.tricks == game.tricks and again.records_of("call") == game.records_of("call")
