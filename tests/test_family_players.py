"""The strong players in the family's games: the deals they sample agree with all the seat knows, they choose
from the observation alone, and they play Hearts and Whist to the end."""

from __future__ import annotations

import json
import random
import re

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from schachett_rules.cli.main import main
from schachett_rules.errors import SchachettError
from schachett_rules.kernel.actions import Deal
from schachett_rules.kernel.compiler import tables_for
from schachett_rules.kernel.state import State
from schachett_rules.kernel.streams import GameStream
from schachett_rules.players import make_bot
from schachett_rules.players.bots import HeuristicBot, play_game
from schachett_rules.players.montecarlo import positions
from schachett_rules.players.worth import values
from schachett_rules.playouts.plan import not_compiled
from schachett_rules.search.exact import Solver


def position(ruleset: str, seed: int, cards: int) -> State:
    """A game of ``ruleset`` (its game number from the seed, so every way of passing comes up) played at random
    to ``cards`` cards into play (at the most: the last card is left to play)."""
    t = tables_for(ruleset)
    rng = random.Random(seed)
    game = State.deal(t, seed % 4, GameStream(seed, 0), game=seed % 4)
    while game.phase_name != "play":
        game.push(rng.choice(game.legal_actions()))
    for _ in range(min(cards, t.n_cards - 1)):
        game.push(rng.choice(game.legal_actions()))
    return game


def colour(t, name: str) -> int:
    return t.deck.face_colour[t.face(name)]


@settings(max_examples=60, deadline=None)
@given(ruleset=st.sampled_from(["hearts", "whist"]), seed=st.integers(0, 100_000), cards=st.integers(0, 51))
def test_sampled_deals_never_contradict_the_observation(ruleset, seed, cards):
    game = position(ruleset, seed, cards)
    t = game.base
    me = game.decider()
    obs = game.observation(me)
    d = t.deck
    for sample in positions(t, obs, random.Random(seed), 4):
        # the rebuilt game looks exactly the same from this seat: its hand, the cards passed and received, the
        # card turned up, every trick, the trumps, the cards it may play
        assert sample.observation(me) == obs
        assert sample.hands[me] == game.hands[me]
        # the same cards are still out, each hand as large as it truly is
        assert sum(sample.hands) == sum(game.hands)
        assert [h.bit_count() for h in sample.hands] == [h.bit_count() for h in game.hands]
        # the cards this seat passed lie with their receiver until he plays them; the turned card with the dealer
        played = {name for tr in obs.tricks for _, name in tr.cards} | {name for _, name in obs.trick}
        for name in obs.passed:
            if name not in played:
                holder = next(s for s in range(4) if game.hands[s] >> d.card_of(name) & 1)
                assert sample.hands[holder] >> d.card_of(name) & 1
        if obs.turned is not None and obs.turned not in played:
            assert sample.hands[obs.dealer] >> d.card_of(obs.turned) & 1
        # a player who did not follow the colour led holds none of it (Whist's trumps follow their own colour)
        for cards_played in [tr.cards for tr in obs.tricks] + [obs.trick]:
            if not cards_played:
                continue
            led = colour(t, cards_played[0][1])
            for seat, name in cards_played[1:]:
                if colour(t, name) != led:
                    assert not any(sample.hands[seat] >> c & 1 and d.face_colour[d.card_face[c]] == led
                                   for c in range(t.n_cards))
        # and the deal it was rebuilt from plays every card seen, each one checked by the kernel's rules
        check = State(t, obs.dealer, sample.game)
        history = sample.history()
        _, hands, stock, turned = history[0]
        check.apply(Deal(hands, stock, turned))
        for entry in history[1:]:
            if entry[0] == "give":
                check.apply(check.legal_actions()[[a.card for a in check.legal_actions()].index(entry[2])])
        for tr in obs.tricks:
            for seat, name in tr.cards:
                check.play(name, seat)
        for seat, name in obs.trick:
            check.play(name, seat)
        assert check.hands == sample.hands


def test_the_card_turned_up_in_whist_is_known_after_the_dealer_plays_it():
    t = tables_for("whist")
    d = t.deck
    checked = 0
    for seed in range(40):
        game = position("whist", seed, 40)
        obs = game.observation(game.decider())
        turned = d.card_name(game.turned)
        if obs.seat == game.dealer or (game.played >> game.turned & 1) == 0:
            continue
        # once played it is still named, so every rebuilt game turned up that very card (not another trump the
        # dealer played) and looks the same from this seat
        assert obs.turned == turned
        for sample in positions(t, obs, random.Random(seed), 3):
            assert sample.turned == game.turned and sample.observation(obs.seat) == obs
        checked += 1
    assert checked >= 3


def test_a_heart_led_before_hearts_are_broken_shows_a_hand_of_hearts():
    # West (seat 1) takes the first trick with the ace of clubs and leads a heart before any heart or the queen
    # has been played: the rule allows that only to a hand of nothing else, so in every deal the sampler draws
    # for North, West holds the eleven hearts North cannot see (nothing in the follow rules says so)
    t = tables_for("hearts")
    hands = ["c2 c5 c6 c7 c8 c9 c10 cJ cQ cK d2 d3 d4", "cA h2 h3 h4 h5 h6 h7 h8 h9 h10 hJ hQ hK",
             "c3 d5 d6 d7 d8 d9 d10 dJ dQ dK dA hA s2", "c4 s3 s4 s5 s6 s7 s8 s9 s10 sJ sQ sK sA"]
    game = State.from_record(t, 3, [h.split() for h in hands], game=3)       # the fourth game passes nothing
    for card in ["c2", "cA", "c3", "c4", "h2"]:
        game.play(card)
    obs = game.observation(2)
    for sample in positions(t, obs, random.Random(1), 12):
        assert sample.hands[1] == game.hands[1]


@settings(max_examples=6, deadline=None)
@given(ruleset=st.sampled_from(["hearts", "whist"]), seed=st.integers(0, 100_000),
       name=st.sampled_from(["mc:4", "dd:3", "ismcts:40"]))
def test_family_players_choose_from_the_observation_alone(ruleset, seed, name):
    # a game rebuilt from another deal of the hidden cards looks the same to the seat: the same card is chosen
    game = position(ruleset, seed, 10 + seed % 30)
    t = game.base
    me = game.decider()
    obs = game.observation(me)
    other = next(positions(t, obs, random.Random(seed + 1), 1))
    assert other.observation(me) == obs
    first = make_bot(name, t).play(obs, random.Random(seed))
    again = make_bot(name, t).play(other.observation(me), random.Random(seed))
    assert first == again and first in obs.legal


@pytest.mark.parametrize("ruleset", ["hearts", "whist"])
@pytest.mark.parametrize("name", ["mc:4", "dd:3", "ismcts:40"])
def test_strong_players_play_whole_family_games(ruleset, name):
    t = tables_for(ruleset)
    bots = [make_bot(name, t), HeuristicBot(t)] * 2
    game = play_game(t, 1, bots, random.Random(7))
    assert game.over and sum(tr.points for tr in game.tricks) == (26 if ruleset == "hearts" else 0)


def test_what_the_compiled_state_cannot_play_is_refused_in_its_words(rules):
    # a ruleset the compiled state does not yet play is refused with not_compiled's own words; one it plays, not
    from schachett_rules.kernel.compiler import compile_ruleset
    from schachett_rules.rules.loader import load
    kept = rules('ruleset v "Officers\' Schafkopf, hearts kept while the Ace is held" extends officers-schafkopf\n'
                 'restriction kept [wendish:§7 design]: no lead h while holding hA\n')
    refused = 0
    for t in [tables_for(ruleset) for ruleset in ["schafkopf", "euchre", "five-hand-euchre", "wendish-schafkopf",
                                                  "dreiwendsch", "officers-schafkopf"]] + [compile_ruleset(load(str(kept)))]:
        why = not_compiled(t)
        if why is None:
            assert make_bot("mc", t).name == "mc"
            continue
        refused += 1
        for name in ["mc", "dd", "ismcts"]:
            with pytest.raises(SchachettError, match=re.escape(f"cannot yet play {t.name}") + ".*" + re.escape(why)):
                make_bot(name, t)
    assert refused == 1


def test_worth_by_game_points_by_hand():
    # Hearts: the fewest points win; four players alone, so 26 points are shared out and each worth is
    # twice the player's own less the whole: -2 x 20 + 26 = -14
    assert values(tables_for("hearts"), [20, 0, 6, 0], [5, 2, 3, 3], [0] * 4) == [-14, 26, 14, 26]
    # Whist: 9 tricks to 4 are three game points to none
    assert values(tables_for("whist"), [0, 0], [9, 4], [0] * 4) == [3, -3]


def test_solver_counts_tricks_in_whist_and_hearts_points_against():
    # every card of a trick counts one in Whist, so a value is four times the difference in tricks
    game = position("whist", 3, 40)
    while game.trick:
        game.push(game.legal_actions()[0])
    par = Solver(game.t).par(game)
    tricks = [0, 0]
    line = game.clone()
    for action in par.line:
        line.push(action)
    for entry in line.trick_log[game.done:]:
        tricks[game.t.party_of[entry[2]]] += 1
    before = [0, 0]
    for entry in game.trick_log:
        before[game.t.party_of[entry[2]]] += 1
    mine = par.side
    assert par.value == 4 * ((before[mine] + tricks[mine]) - (before[1 - mine] + tricks[1 - mine]))
    # in Hearts the value of the seat to play is every other player's points less its own
    game = position("hearts", 5, 44)
    while game.trick:
        game.push(game.legal_actions()[0])
    par = Solver(game.t).par(game)
    end = game.clone()
    for action in par.line:
        end.push(action)
    assert par.value == sum(end.points) - 2 * end.points[par.side]


@pytest.mark.parametrize("ruleset, compared", [("whist", "decided games: A's party beats B's"),
                                               ("hearts", "decided games: A's best seat ahead of B's best seat")])
def test_duel_and_ladder_play_whist_and_hearts(ruleset, compared, tmp_path, monkeypatch):
    monkeypatch.setenv("SCHACHETT_CACHE", str(tmp_path))
    runner = CliRunner()
    out = runner.invoke(main, ["duel", "dd:3", "mc:4", ruleset, "--games", "2", "--json", "-q", "-w", "1"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["games"] == 2 and data["a_wins"] + data["b_wins"] + data["draws"] == 2
    assert {"a_share", "low", "high"} <= set(data) and data["compared"].startswith(compared)
    text = runner.invoke(main, ["duel", "dd:3", "mc:4", ruleset, "--games", "2", "-q", "-w", "1"])
    assert text.exit_code == 0 and compared in text.output
    out = runner.invoke(main, ["ladder", ruleset, "--bots", "heuristic,ismcts:30", "--games", "2", "-q", "-w", "1"])
    assert out.exit_code == 0, out.output
    assert "heuristic vs ismcts:30" in out.output and compared in out.output


def test_solve_says_what_a_whist_value_counts(tmp_path):
    runner = CliRunner()
    record = tmp_path / "w.json"
    assert runner.invoke(main, ["sample", "whist", "--seed", "3", "--out", str(record)]).exit_code == 0
    out = runner.invoke(main, ["solve", str(record), "--after", "40", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["value_counts"] == "one a card taken, so a trick counts 4"
    mine = sum(tr["winner"] in data["party"] for tr in data["tricks"])
    assert data["future"] == 4 * (mine - (3 - mine))        # three tricks left: four a trick, for and against
