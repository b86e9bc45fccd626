"""The strong players in the family's games: the deals they sample agree with all the seat knows, they choose
from the observation alone, and they play the family's games to the end: Hearts and Whist, and those that
bid, exchange and call before play (Euchre, five-hand Euchre, Dreiwendsch, Schachett with a called partner)."""

from __future__ import annotations

import json
import random
import re

import pytest
from click.testing import CliRunner
from hypothesis import example, given, settings, strategies as st

from schachett_rules.cli.main import main
from schachett_rules.errors import SchachettError
from schachett_rules.kernel.actions import Bid, Call, Deal, Discard, Give, Play
from schachett_rules.kernel.compiler import tables_for
from schachett_rules.kernel.deal import names_of
from schachett_rules.kernel.state import State
from schachett_rules.kernel.streams import GameStream
from schachett_rules.players import make_bot
from schachett_rules.players.bots import HeuristicBot, play_game
from schachett_rules.players.family_deals import covered_place, place_sizes, plays_of
from schachett_rules.players.montecarlo import Sampler, positions
from schachett_rules.players.rebuild import replay
from schachett_rules.players.worth import values
from schachett_rules.playouts.plan import not_compiled
from schachett_rules.search.exact import Solver
from tests.lane import many
from tests.test_family import EUCHRE, EUCHRE_STOCK, decide, play


def position(ruleset: str, seed: int, cards: int) -> State:
    """A game of ``ruleset`` (its game number from the seed, so every way of passing comes up) played at random
    to ``cards`` cards into play (at the most: the last card is left to play)."""
    t = tables_for(ruleset)
    rng = random.Random(seed)
    game = State.deal(t, seed % t.n_seats, GameStream(seed, 0), game=seed % 4)
    while game.phase_name not in ("play", "over"):
        game.push(rng.choice(game.legal_actions()))
    while not game.over and cards > 0 and game.played.bit_count() < game.t.n_tricks * game.t.n_active - 1:
        game.push(rng.choice(game.legal_actions()))
        cards -= 1
    return game


# the games that bid, exchange or call before play
CONTRACTED = ["euchre", "five-hand-euchre", "dreiwendsch", "five-players", "six-players-called",
              "eight-players-called"]


def colour(t, name: str) -> int:
    return t.deck.face_colour[t.face(name)]


@settings(max_examples=many(60), deadline=None)
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


@settings(max_examples=12, deadline=None)
@given(ruleset=st.sampled_from(["hearts", "whist"] + CONTRACTED), seed=st.integers(0, 100_000),
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


@pytest.mark.parametrize("ruleset", CONTRACTED + ["schafkopf", "wendish-schafkopf"])
def test_a_position_in_play_reads_the_strength_of_its_own_tables(ruleset):
    # a game in play is loaded into the plan of its own tables (its contract's, one variant): the variant
    # register must name a row of that plan's order of strength, which compiled code reads unchecked (it once
    # named the contract's row among the ruleset's variants, past the end of the game's one row)
    from schachett_rules.playouts.compiled import VARIANT
    from schachett_rules.playouts.walk import CompiledState
    for seed in range(6):
        game = position(ruleset, seed, 5)
        walk = CompiledState(game)
        strength = walk.tables[2]
        assert strength.shape == (1, game.t.n_cards) and walk.arrays.regs[VARIANT] == 0


def test_the_sampling_player_decides_the_same_way_twice_on_one_observation():
    # six players with a called partner, a position in which an out-of-range strength row once made the
    # search order its moves by whatever memory lay beyond the table: the same call gave different cards
    game = position("six-players-called", 497, 10 + 497 % 30)
    obs = game.observation(game.decider())
    chosen = {make_bot("dd:3", game.base).play(obs, random.Random(497)) for _ in range(3)}
    assert len(chosen) == 1 and chosen <= set(obs.legal)


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
    # the parties' totals as the value counts them: the 52 cards of the thirteen tricks, one a card, the value
    # their difference (the game's own points stay 0 until it is settled, and say nothing of the value)
    side, other = data["side"], 1 - data["side"]
    assert sum(data["counted"]) == 52 and data["counted"][side] - data["counted"][other] == data["value"]
    text = runner.invoke(main, ["solve", str(record), "--after", "40"])
    assert (f"ends {data['party']} {data['counted'][side]}, " in text.output
            and "as the value counts them" in text.output)


@pytest.mark.parametrize("ruleset, phase", [("hearts", "passing"), ("euchre", "auction"), ("schafkopf", "auction")])
def test_the_solver_refuses_a_game_still_before_play(ruleset, phase):
    # its moves are cards and castles: a deal still passing or bidding has none of them to search (it once read
    # the bidding's registers as a trick and crashed the process)
    t = tables_for(ruleset)
    game = State.deal(t, 0, GameStream(3, 0))
    with pytest.raises(SchachettError, match=f"still before it \\({phase}: "):
        Solver(t).value(game)


def test_solve_a_fresh_deal_of_a_called_game_from_its_first_card_for_the_party_of_the_seat_to_lead():
    runner = CliRunner()
    out = runner.invoke(main, ["solve", "schafkopf", "--deal", "0", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    # dealer South (seed 0 of four seats), so West bids first and leads the first trick; its party is the one
    # the call made, not the ruleset's placeholder (South against the other three), whose second party holds West
    assert "the heuristic player deciding before play:" in data["position"]
    assert data["solved"] and len(data["tricks"]) == 8 and data["tricks"][0]["leader"] == "West"
    assert "West" in data["party"] and data["party"] != "West, North and East"
    # Schafkopf's cards score 120 in all: four Aces at 11, Tens at 10, Kings at 4, Obers at 3 and Unters at 2
    assert sum(data["totals"]) == 120
    assert data["value"] == data["totals"][data["side"]] - data["totals"][1 - data["side"]]
    text = runner.invoke(main, ["solve", "schafkopf", "--deal", "0"])
    assert text.exit_code == 0 and f"{data['party']} to decide" in text.output


def test_solve_a_record_still_before_play_names_the_action_its_first_card_follows(tmp_path):
    runner = CliRunner()
    record = tmp_path / "h.json"
    assert runner.invoke(main, ["sample", "hearts", "--seed", "3", "--out", str(record)]).exit_code == 0
    out = runner.invoke(main, ["solve", str(record), "--after", "5"])
    # Hearts: each of the four hands passes three cards before the first is led, 12 passes
    assert out.exit_code == 2 and "--after 12 or more" in out.output and "(passing: " in out.output
    assert "Traceback" not in out.output


def test_a_thinking_player_plays_the_heuristic_card_where_no_deal_agrees_with_the_bids(monkeypatch):
    # Schafkopf: North bid a Hochzeit (one trump in his hand) and South outbid him with a Solo; deals that give
    # North one trump come by chance alone, and where none of the draws does, the player still plays a card,
    # the heuristic player's, rather than stop the game
    from schachett_rules.players import rebuild
    from schachett_rules.players.montecarlo import MonteCarloBot
    t = tables_for("schafkopf")
    game = State.deal(t, 0, GameStream(3, 0))
    from schachett_rules.kernel.actions import BEFORE_PLAY
    from schachett_rules.players.bots import chooser
    bids = chooser([HeuristicBot(t) for _ in range(4)], random.Random(0))
    game.advance(lambda seat, g: bids(seat, g) if g.phase in BEFORE_PLAY else None)
    while len(set(game.observation(game.decider()).legal)) < 2:
        game.apply(game.legal_actions()[0])
    obs = game.observation(game.decider())

    def none_agrees(*args, **kwargs):
        raise rebuild.NoAgreeingDeal("schafkopf: no deal of the cards seat 1 cannot see, of 800 drawn, leads to "
                                     "the game it saw before play")
    monkeypatch.setattr("schachett_rules.players.montecarlo.rebuilt", none_agrees)
    assert MonteCarloBot(t, samples=4).play(obs, random.Random(1)) == HeuristicBot(t).play(obs, random.Random(1))


# --- the games that bid, exchange and call before play ------------------------------------------------------



def walked_by_the_rules(t, sample: State) -> State:
    """The sample's game walked again from its deal, every action checked by the kernel's rules (an action they
    refuse raises): the deal rebuilt was one the rules would have allowed to come to this game."""
    history = sample.history()
    _, hands, stock, turned = history[0]
    check = State(t, sample.dealer, sample.game)
    check.apply(Deal(hands, stock, turned, tuple(sample.under.items())))
    make = {"give": Give, "bid": Bid, "call": Call, "discard": Discard}
    for entry in history[1:]:
        if entry[0] in make:
            check.apply(make[entry[0]](*entry[1:]))
        elif entry[0] == "play":
            check.apply(Play(entry[2], entry[3]))
    return check


def names(t, mask: int) -> tuple[str, ...]:
    return names_of(t, mask)


def turned_face(t, game: State) -> str | None:
    return t.deck.card_name(game.turned) if game.turned >= 0 else None


def check_sample(t, game: State, seat: int, obs, sample: State) -> None:
    """What every deal sampled for ``seat`` must agree with, from what the seat saw and the rules."""
    assert sample.observation(seat) == obs
    check = walked_by_the_rules(t, sample)
    assert check.hands == sample.hands and check.discarded == sample.discarded
    n = t.n_seats
    # its own hand and the cards it laid away itself are its own; every hand, the cards laid away and the
    # stock are as large as they truly are
    assert names(t, sample.hands[seat]) == names(t, game.hands[seat])
    assert names(t, sample.discarded[seat]) == names(t, game.discarded[seat])
    assert [h.bit_count() for h in sample.hands] == [h.bit_count() for h in game.hands]
    assert [h.bit_count() for h in sample.discarded] == [h.bit_count() for h in game.discarded]
    assert sample.stock.bit_count() == game.stock.bit_count()
    # the same cards are out: in the hands, laid away or in the stock (copies alike)
    out = lambda g: sorted(names(t, sum(g.hands) + sum(g.discarded) + g.stock))
    assert out(sample) == out(game)
    # the card turned up: turned down into the stock it lies there; taken up, with the dealer (kept or laid
    # away) until he plays it
    face = turned_face(t, game)
    if face is not None and not any(name == face for _, name in
                                    [c for tr in obs.tricks for c in tr.cards] + list(obs.trick)):
        copies = t.deck.face_cards[t.face(face)]
        if game.stock & copies:
            assert sample.stock & copies
        elif game.exchanger == game.dealer:
            assert (sample.hands[game.dealer] | sample.discarded[game.dealer]) & copies
    # the seats sitting out, the declarer, and the party the seat knows it is in
    assert sample.t.sitting == game.t.sitting and sample.declarer == game.declarer
    if obs.partners is not None:
        assert sample.t.parties[sample.t.party_of[seat]] == game.t.parties[game.t.party_of[seat]]
    # a called card's holders at the first card are the declarer's partners in the deal sampled
    if sample.called >= 0 and sample.declarer >= 0:
        copies = t.deck.face_cards[t.deck.card_face[sample.called]]
        holders = {s for s in range(n) if s != sample.declarer and sample.start_hands[s] & copies}
        mates = {s for s in sample.t.parties[sample.t.party_of[sample.declarer]] if s != sample.declarer}
        assert holders == mates


# The same examples on every run (derandomize): where a trick's Kings showed the parties, as few as one deal
# in a hundred agrees with it, and a run must not pass or fail by the luck of which positions it drew.
@settings(max_examples=40, deadline=None, derandomize=True)
@given(ruleset=st.sampled_from(CONTRACTED), seed=st.integers(0, 100_000), cards=st.integers(0, 103))
@example(ruleset="eight-players-called", seed=113, cards=60)   # the first trick took three Kings: one deal in 20 fits
@example(ruleset="eight-players-called", seed=785, cards=8)    # the first trick showed the parties: one in 25 to 100
def test_deals_sampled_after_an_auction_agree_with_every_seat_s_view(ruleset, seed, cards):
    # every seat at the table (the declarer, a partner known or hidden, a defender, the dealer who took up the
    # turned card, a seat sitting out) gets deals that rebuild into the game it sees
    game = position(ruleset, seed, cards % (tables_for(ruleset).n_cards // 2))
    t = game.base
    if game.over:
        return
    for seat in range(t.n_seats):
        obs = game.observation(seat)
        for sample in positions(t, obs, random.Random(seed + seat), 2):
            check_sample(t, game, seat, obs, sample)


def roles(game: State, seat: int) -> set[str]:
    """What ``seat`` is in this game, as a card player would say it."""
    out = set()
    if seat == game.declarer:
        out.add("declarer")
    elif game.t.party_of[seat] == game.t.party_of[game.declarer] if game.declarer >= 0 else False:
        out.add("partner")
    else:
        out.add("defender")
    if seat == game.exchanger == game.dealer and game.turned >= 0 and not game.stock >> game.turned & 1:
        out.add("dealer who took the turned card up")
    if game.called >= 0:
        out.add("before the called card falls" if not game.played & game.t.deck.face_cards[
            game.t.deck.card_face[game.called]] else "after the called card falls")
    return out


@pytest.mark.parametrize("ruleset", CONTRACTED)
def test_every_role_at_the_table_gets_deals_agreeing_with_its_view(ruleset):
    t = tables_for(ruleset)
    seen: set[str] = set()
    for seed in range(12):
        for cards in (1, t.n_cards // 3, 2 * t.n_cards // 3):
            game = position(ruleset, seed, cards)
            if game.over:
                continue
            seat = game.decider()
            obs = game.observation(seat)
            for sample in positions(t, obs, random.Random(seed), 2):
                check_sample(t, game, seat, obs, sample)
            seen |= roles(game, seat)
    assert {"declarer", "defender"} <= seen
    if t.flow.contracts and any(c.call[0] for c in t.flow.contracts):
        assert {"partner", "before the called card falls", "after the called card falls"} <= seen
    if ruleset == "euchre":
        assert {"partner", "dealer who took the turned card up"} <= seen


# the places as the rules of each game leave them at the first card: the hands, the cards laid away and the
# stock (euchre:§2: five cards each and four over, the turned card taken up for one laid away; euchre5:§3: three
# over; wendish:§6: ten each and a skat of two, taken up for two laid away; five-players §1: ten each and two
# over, taken up for two laid away; six and eight players: 17 and 13 each, nothing over)
SIZES = {
    ("euchre", "up"): [5, 5, 5, 5, 1, 3], ("euchre", "named"): [5, 5, 5, 5, 0, 4],
    ("five-hand-euchre", "up"): [5] * 5 + [1, 2], ("five-hand-euchre", "named"): [5] * 5 + [0, 3],
    ("dreiwendsch", None): [10, 10, 10, 2, 0], ("five-players", "called"): [10] * 5 + [2, 0],
    ("six-players-called", "called"): [17] * 6 + [0, 0], ("eight-players-called", "called"): [13] * 8 + [0, 0],
}


@pytest.mark.parametrize("ruleset, contract", sorted(SIZES, key=str))
def test_the_places_of_the_hidden_cards_are_as_large_as_the_rules_make_them(ruleset, contract):
    t = tables_for(ruleset)
    for seed in range(400):
        game = position(ruleset, seed, 0)
        obs = game.observation(game.decider())
        if obs.contract is not None and obs.contract.removesuffix("-alone") != contract:
            continue
        assert place_sizes(t, obs) == SIZES[ruleset, contract]
        return
    pytest.fail(f"no game of {ruleset} with contract {contract} in 400 deals")


def euchre(*words: str) -> State:
    """The Euchre deal of the family's tests (the dealer seat 0, the h9 turned up), decided as ``words`` say."""
    game = State.from_record(tables_for("euchre"), 0, EUCHRE, stock=EUCHRE_STOCK, turned="h9")
    for word in words:
        decide(game, word)
    return game


def test_euchre_a_defender_does_not_know_which_card_the_dealer_laid_away():
    # euchre:§2: hearts ordered up, the dealer takes the h9 and lays the c9 away face down. Seat 2 sees its own
    # five cards, the h9 go to the dealer, and nothing else: of the dealer's six cards any one may have been
    # laid away, the h9 too, and never one of seat 2's own
    game = euchre("up h", "c9")
    t = game.base
    obs = game.observation(2)
    laid, kept_turned = set(), 0
    rng = random.Random(5)
    sampler = Sampler(t, obs)
    for _ in range(80):
        places = sampler.sample(rng)
        again = replay(t, obs, places, rng)
        assert again is not None and again.observation(2) == obs
        assert again.discarded[0] == places[4] and places[4].bit_count() == 1   # the card sampled, laid away
        assert not set(names(t, places[4])) & set(EUCHRE[2])
        assert (again.hands[0] | again.discarded[0]) >> t.deck.card_of("h9") & 1
        laid |= set(names(t, again.discarded[0]))
        kept_turned += again.hands[0] >> t.deck.card_of("h9") & 1
    assert "h9" in laid and len(laid) >= 5 and kept_turned > 40
    # the dealer himself knows his discard: every deal for him lays the c9 away and gives him the h9
    obs = game.observation(0)
    for again in positions(t, obs, rng, 10):
        assert names(t, again.discarded[0]) == ("c9",) and again.hands[0] == game.hands[0]


def test_euchre_the_turned_card_turned_down_stays_in_the_stock():
    # all four pass the hearts (the dealer too), so the h9 is turned down; seat 1 names spades
    game = euchre("pass", "pass", "pass", "pass", "named s")
    t = game.base
    obs = game.observation(2)
    assert obs.turned is None and obs.turned_down == "h9"
    for again in positions(t, obs, random.Random(3), 20):
        assert again.stock >> t.deck.card_of("h9") & 1 and again.observation(2) == obs


def test_euchre_going_alone_the_partner_sits_out_with_his_five_cards_unseen():
    # euchre:§2: seat 1 orders up alone, his partner (seat 3) lays his cards aside
    game = euchre("up-alone h", "c9")
    t = game.base
    play(game, "hJ", "h10")
    obs = game.observation(2)
    assert obs.sitting == (3,)
    for again in positions(t, obs, random.Random(2), 20):
        assert again.t.sitting == 1 << 3 and again.hands[3].bit_count() == 5
        assert not again.hands[3] & (game.hands[2] | again.played)
        assert again.observation(2) == obs


def first_trick_with_a_hidden_partner(ruleset: str, defender: bool) -> tuple[State, int]:
    """A game of ``ruleset`` at its first trick, the called card unplayed, seen from a seat that does not hold it
    (a defender, or else the declarer)."""
    t = tables_for(ruleset)
    for seed in range(200):
        game = position(ruleset, seed, 0)
        if game.over or game.called < 0 or game.partner < 0:
            continue
        copies = t.deck.face_cards[t.deck.card_face[game.called]]
        for seat in range(t.n_seats):
            mine = game.hands[seat] & copies
            if not mine and (seat != game.declarer) == defender:
                return game, seat
    raise AssertionError("no such game")


@pytest.mark.parametrize("ruleset", ["five-hand-euchre", "five-players"])
def test_a_hidden_partner_is_the_sampled_deal_s_until_the_called_card_falls(ruleset):
    # five-players §1, euchre5:§4: the holder of the called card is the declarer's partner, known to the others
    # only when that card is played. Before it falls the deals give it to any of the hands that may hold it
    # (never the declarer's: he calls a card he does not hold, nor the seat's own); once it falls, to its player
    for defender in (True, False):
        game, seat = first_trick_with_a_hidden_partner(ruleset, defender)
        t = game.base
        obs = game.observation(seat)
        assert obs.partners is None
        partners = set()
        for again in positions(t, obs, random.Random(1), 40):
            assert again.observation(seat) == obs
            partners.add(again.partner)
            assert again.partner not in (seat, again.declarer)
        assert len(partners - {-1}) >= 2
        # play on until the called card falls: then every deal has its player as the partner
        copies = t.deck.face_cards[t.deck.card_face[game.called]]
        rng = random.Random(4)
        while not game.played & copies:
            game.push(rng.choice(game.legal_actions()))
        if game.over:
            continue
        obs = game.observation(seat)
        assert obs.partners is not None
        for again in positions(t, obs, rng, 10):
            assert again.partner == game.partner and again.observation(seat) == obs


def test_a_called_partner_knows_himself_in_every_deal():
    t = tables_for("five-players")
    for seed in range(100):
        game = position("five-players", seed, 3)
        if game.partner >= 0 and not game.played >> game.called & 1:
            break
    obs = game.observation(game.partner)
    assert obs.partners is not None
    for again in positions(t, obs, random.Random(2), 10):
        assert again.partner == game.partner and again.t.party_of[game.partner] == again.t.party_of[game.declarer]


def test_dreiwendsch_the_queen_of_clubs_lies_with_the_soloist():
    # wendish:§6: the holder of the Queen of clubs takes up the skat, lays two away and plays alone: a defender
    # who has not seen the Queen finds it in the soloist's hand or among the two he laid away, in every deal
    t = tables_for("dreiwendsch")
    queen = t.deck.card_of("cQ")
    found = 0
    for seed in range(30):
        game = position("dreiwendsch", seed, seed % 12)
        if game.over or game.played >> queen & 1:
            continue
        for seat in range(3):
            if seat == game.declarer:
                continue
            obs = game.observation(seat)
            for again in positions(t, obs, random.Random(seed), 5):
                assert (again.hands[game.declarer] | again.discarded[game.declarer]) >> queen & 1
                assert again.observation(seat) == obs
            found += 1
    assert found >= 10


# the six- and eight-hand games (each a second or so a player) only in the whole suite
@pytest.mark.parametrize("ruleset", [r if "players" not in r else pytest.param(r, marks=pytest.mark.slow)
                                     for r in CONTRACTED])
@pytest.mark.parametrize("name", ["mc:4", "dd:3", "ismcts:40"])
def test_strong_players_play_whole_games_after_an_auction(ruleset, name):
    t = tables_for(ruleset)
    bots = [make_bot(name, t) if s % 2 == 0 else HeuristicBot(t) for s in range(t.n_seats)]
    game = play_game(t, 1, bots, random.Random(7))
    assert game.over and not game.thrown_in
    # every card of the hands that played went into a trick once
    cards = [c for entry in game.trick_log for _, c in entry[1]]
    assert len(cards) == len(set(cards)) == t.n_tricks * t.n_active
    assert sum(game.start_hands[s].bit_count() for s in range(t.n_seats) if not game.t.sitting >> s & 1) == len(cards)
    assert sum(game.result().net) == pytest.approx(0, abs=1e-9)


def test_the_tree_search_takes_back_every_walk_so_a_deal_serves_several_iterations():
    from schachett_rules.players.ismcts import TreeSearchBot, _Node
    game = position("hearts", 5, 12)
    t = game.base
    obs = game.observation(game.decider())
    state = next(positions(t, obs, random.Random(1), 1))
    before = (state.key(), state.history(), list(state.points), state.observation(obs.seat))
    bot, root, rng = TreeSearchBot(t, iterations=8), _Node(-1), random.Random(2)
    for _ in range(8):
        bot._iterate(root, state, rng)
    assert sum(child.visits for child in root.children.values()) == 8
    assert (state.key(), state.history(), list(state.points), state.observation(obs.seat)) == before


# --- Officers' Schafkopf: a tableau of covered cards (wendish:§7) -------------------------------------------------

def officers(seed: int, cards: int) -> State:
    """A game of Officers' Schafkopf played at random to ``cards`` cards into play (the last card left to play)."""
    return position("officers-schafkopf", seed, cards)


def covered_by_seat(game: State) -> list[int]:
    return [game.hands[s] & game.covered for s in range(game.t.n_seats)]


def sampled(game: State, seed: int, deals: int = 10):
    """For each seat of a game of two, its view and ``deals`` samples of the places drawn from that view."""
    for seat in range(2):
        obs = game.observation(seat)
        sampler = Sampler(game.base, obs)
        rng = random.Random(seed + seat)
        yield obs, [sampler.sample(rng) for _ in range(deals)]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 100_000), cards=st.integers(0, 31))
def test_officers_schafkopf_the_deals_sampled_never_move_a_card_the_seat_has_seen(seed, cards):
    # wendish:§7: every face-up card lies open to both players; a covered card nobody sees, its owner included
    game = officers(seed, cards)
    t = game.base
    hidden = set(names(t, game.covered))
    for obs, deals in sampled(game, seed):
        seen = {name for hand in obs.hands.values() for name in hand} | {name for _, name in plays_of(obs)}
        assert not seen & hidden and not {x for pile in obs.tableau for x in pile[1:]} & hidden   # none named
        for places in deals:
            # every face-up card in its own hand, no card played anywhere, and the covered places hold only
            # cards the seat cannot see
            for s in range(2):
                assert places[s] == game.hands[s] & ~game.covered
                assert not places[covered_place(t, s)] & (game.played | sum(places[:2]))
            assert not sum(places) & game.played


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 100_000), cards=st.integers(0, 31))
def test_officers_schafkopf_covered_cards_go_only_to_covered_places_as_large_as_the_seat_s_piles(seed, cards):
    game = officers(seed, cards)
    t = game.base
    under = [u.bit_count() for u in covered_by_seat(game)]
    for obs, deals in sampled(game, seed):
        assert place_sizes(t, obs) == [(game.hands[s] & ~game.covered).bit_count() for s in range(2)] + [0, 0] + under
        for places in deals:
            # the cards still covered, and only they, lie covered, each seat's as many as it truly has; nothing
            # is laid away and there is no stock
            assert places[covered_place(t, 0)] | places[covered_place(t, 1)] == game.covered
            assert [places[covered_place(t, s)].bit_count() for s in range(2)] == under
            assert not places[2] and not places[3]


def rebuilt_games(game: State, seed: int, deals: int = 4):
    """For each seat of a game of two, its view and games rebuilt from ``deals`` deals sampled from it."""
    for seat in range(2):
        obs = game.observation(seat)
        for again in positions(game.base, obs, random.Random(seed + seat), deals):
            yield seat, obs, again


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 100_000), cards=st.integers(0, 31))
def test_officers_schafkopf_a_rebuilt_game_keeps_every_pile_as_the_table_saw_it(seed, cards):
    game = officers(seed, cards)
    for _seat, _obs, again in rebuilt_games(game, seed):
        # the same cards on top; a card that turned up under the very card it lay under; a card still on
        # its pile still covers one of its own seat's cards, which nobody has seen
        assert again.under.keys() == game.under.keys()
        for top, down in game.under.items():
            if not game.covered >> down & 1:
                assert again.under[top] == down
            else:
                mine = next(s for s in range(2) if game.hands[s] >> top & 1)
                assert again.covered >> again.under[top] & 1 and again.hands[mine] >> again.under[top] & 1
        assert [h.bit_count() for h in covered_by_seat(again)] == [h.bit_count() for h in covered_by_seat(game)]
        # and the rebuilt deal plays every card seen by the rules: no card played lay covered then
        check = walked_by_the_rules(game.base, again)
        assert check.hands == again.hands and check.covered == again.covered


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 100_000), cards=st.integers(0, 31))
def test_officers_schafkopf_a_rebuilt_game_looks_to_the_seat_as_its_own_game(seed, cards):
    for seat, obs, again in rebuilt_games(officers(seed, cards), seed + 7):
        assert again.observation(seat) == obs
        assert again.observation(1 - seat).tableau == obs.tableau       # the layout is the same for both


@pytest.mark.parametrize("name", ["mc:4", "dd:3", "ismcts:40"])
def test_strong_players_play_whole_games_of_officers_schafkopf(name):
    t = tables_for("officers-schafkopf")
    for dealer, bots in ((0, [make_bot(name, t), HeuristicBot(t)]), (1, [HeuristicBot(t), make_bot(name, t)])):
        game = play_game(t, dealer, bots, random.Random(3 + dealer))
        assert game.over and len(game.tricks) == 16 and not game.covered
        assert sum(game.result().card_points) == 120


def test_officers_schafkopf_the_strong_players_duel_to_the_end_at_the_command_line(tmp_path, monkeypatch):
    monkeypatch.setenv("SCHACHETT_CACHE", str(tmp_path))
    out = CliRunner().invoke(main, ["duel", "dd:2", "ismcts:20", "officers-schafkopf", "--games", "2", "--json",
                                    "-q", "-w", "1"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["games"] == 2 and data["a_wins"] + data["b_wins"] + data["draws"] == 2


def test_officers_schafkopf_a_view_no_game_could_give_is_refused_in_one_paragraph():
    game = officers(4, 9)
    t = game.base
    obs = game.observation(game.decider())
    # a pile said still to cover a card whose card has turned up: more covered cards than cards unseen
    i = next(i for i, (_, _, under) in enumerate(obs.tableau) if under is not None)
    seat, top, _ = obs.tableau[i]
    more = obs.model_copy(update={"tableau": obs.tableau[:i] + ((seat, top, None),) + obs.tableau[i + 1:]})
    with pytest.raises(SchachettError, match="no deal agrees with seat") as err:
        next(positions(t, more, random.Random(0), 1))
    assert "\n" not in err.value.message
    # a pile laid in the other seat's tableau
    moved = obs.model_copy(update={"tableau": obs.tableau[:i] + ((1 - seat, top, obs.tableau[i][2]),)
                                   + obs.tableau[i + 1:]})
    with pytest.raises(SchachettError, match="whose cards do not hold it") as err:
        next(positions(t, moved, random.Random(0), 1))
    assert "\n" not in err.value.message


FAMILY_GAMES = ["schafkopf", "wendish-schafkopf", "officers-schafkopf", "dreiwendsch", "euchre", "five-hand-euchre"]


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", FAMILY_GAMES)
@pytest.mark.parametrize("name", ["mc:3", "dd:2", "ismcts:30"])
def test_strong_players_play_whole_games_of_every_contracted_family_ruleset(ruleset, name):
    # every card of the deal played once, by the bots' choices through the state, to a scored end
    t = tables_for(ruleset)
    bots = [make_bot(name, t), HeuristicBot(t)] * 3
    game = play_game(t, 1, bots[:t.n_seats], random.Random(11))
    assert game.over
    result = game.result()
    if result.thrown_in:
        return
    played = [c for tr in game.tricks for _, c in tr.cards]
    assert len(played) == len(set(played)) == game.t.n_tricks * game.t.n_active


@pytest.mark.parametrize("ruleset", FAMILY_GAMES + ["hearts", "whist"])
def test_simulate_plays_every_family_ruleset_with_the_quick_bots(ruleset, tmp_path):
    out = tmp_path / "stats.json"
    seats = tables_for(ruleset).n_seats
    bots = ",".join((["heuristic", "random"] * seats)[:seats])          # one bot per seat
    res = CliRunner().invoke(main, ["simulate", ruleset, "--games", "30", "--bots", bots, "-q",
                                    "--json", str(out)])
    assert res.exit_code == 0, res.output
    data = json.loads(out.read_text())
    assert data["games"] == 30 and sum(data["wins"]) + data["draws"] <= 30
