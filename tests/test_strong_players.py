"""The strong players and the ladder: they see only their seat's observation; duels seat both bots alike."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from schachett_rules.cli.main import main
from schachett_rules.kernel.compiler import tables_for
from schachett_rules.kernel.state import State
from schachett_rules.kernel.streams import GameStream
from schachett_rules.players import bot_problem, make_bot
from schachett_rules.simulation.ladder import DuelResult, DuelSpec, duel, ladder, ratings


def hidden_swap(seed: int, ruleset: str = "original"):
    """Two games at the same moment whose hands differ only in cards the seat to play cannot see, or None."""
    t = tables_for(ruleset)
    rng = random.Random(seed)
    game = State.deal(t, seed % t.n_seats, GameStream(seed, 0))
    for _ in range(rng.randrange(0, 30)):
        rule = game.rule_action()
        game.push(rule if rule is not None else rng.choice(game.legal_actions()))
    while game.phase != 2:
        game.push(game.legal_actions()[-1])
    me = game.seat_to_play()
    view = game.observation(me)
    others = [s for s in range(t.n_seats) if s not in view.hands]
    kings = t.royal_cards
    a, b = others[0], others[1]
    ca = [c for c in range(t.n_cards) if game.hands[a] >> c & 1 and not kings >> c & 1]
    cb = [c for c in range(t.n_cards) if game.hands[b] >> c & 1 and not kings >> c & 1]
    if not ca or not cb:
        return None
    other = game.clone()
    x, y = rng.choice(ca), rng.choice(cb)
    other.hands[a] ^= (1 << x) | (1 << y)
    other.hands[b] ^= (1 << x) | (1 << y)
    assert other.observation(me) == view and other.hands != game.hands
    return game, other, me


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), name=st.sampled_from(["dd:4", "ismcts:60", "mc:4"]))
def test_strong_players_choose_from_the_observation_alone(seed, name):
    # the same observation with other cards in the hidden hands: the same card, from the same random numbers
    pair = hidden_swap(seed)
    if pair is None:
        return
    game, other, me = pair
    t = game.t
    bot = make_bot(name, t)
    first = bot.play(game.observation(me), random.Random(seed))
    again = make_bot(name, t).play(other.observation(me), random.Random(seed))
    assert first == again and first in game.observation(me).legal


def test_bot_names_with_a_strength():
    assert make_bot("dd:3", tables_for("original")).samples == 3
    assert make_bot("ismcts:50", tables_for("original")).iterations == 50
    assert "unknown bot 'alpha'" in bot_problem("alpha")
    assert "no strength" in bot_problem("heuristic:4")


def test_the_tree_search_thinks_longer_where_two_people_play():
    # the two-player game (each person with a dummy) and two-handed Schafkopf seat two people; original four,
    # the three-player game three (the Kaiser plays his dummy)
    assert make_bot("ismcts", tables_for("two-player")).iterations == 750
    assert make_bot("ismcts", tables_for("officers-schafkopf")).iterations == 750
    assert make_bot("ismcts", tables_for("original")).iterations == 500
    assert make_bot("ismcts", tables_for("three-player")).iterations == 500
    assert make_bot("ismcts:40", tables_for("two-player")).iterations == 40


def test_the_sampling_player_plays_out_at_random_where_two_people_play():
    # two people: forty deals a decision, each position past the trick valued by three random play-outs; four
    # people: eighty deals and one greedy play-out; a strength sets the deals alone
    dd = make_bot("dd", tables_for("two-player"))
    assert (dd.samples, dd.playout, dd.rollouts) == (40, "random", 3)
    dd = make_bot("dd", tables_for("original"))
    assert (dd.samples, dd.playout, dd.rollouts) == (80, "greedy", 1)
    dd = make_bot("dd:4", tables_for("two-player"))
    assert (dd.samples, dd.playout, dd.rollouts) == (4, "random", 3)


def test_a_stored_duel_is_keyed_by_the_code_that_played_it(monkeypatch):
    # a bot's default strength is code, not a field of the duel: a duel stored before a default changed must
    # not be served after it
    from schachett_rules.simulation import ladder as ladder_module
    spec = DuelSpec(ruleset="two-player", a="ismcts", b="mc", games=10, seed=3)
    before = ladder_module._key(spec)
    assert ladder_module._key(spec) == before
    monkeypatch.setattr(ladder_module, "code_version", lambda: "0.0+another")
    assert ladder_module._key(spec) != before


def test_a_duel_plays_each_deal_in_both_seatings():
    # random against random: both seatings of a deal draw the same numbers, so they are the same game and each
    # bot wins exactly one of the two (or both are equal): the count is balanced to the game
    r = duel(DuelSpec(ruleset="original", a="random", b="random", games=40, seed=5), use_cache=False)
    assert r.games == 40 and r.a_wins == r.b_wins and r.a_wins + r.b_wins + r.draws == 40
    assert r.a_wins_first == r.b_wins_first      # the first party wins the same deals whoever sits in it


def test_same_seed_same_duel_on_any_number_of_workers():
    spec = DuelSpec(ruleset="original", a="heuristic", b="random", games=10, seed=2)
    assert duel(spec, workers=1, use_cache=False) == duel(spec, workers=2, use_cache=False)


def test_ratings_by_hand():
    # a beats b 30-10, b beats c 30-10, a beats c 36-4 (with half a game added each way)
    results = [DuelResult("a", "b", 40, 30, 10, 0, 15, 5), DuelResult("b", "c", 40, 30, 10, 0, 15, 5),
               DuelResult("a", "c", 40, 36, 4, 0, 18, 2)]
    r = ratings(["a", "b", "c"], results)
    assert r["a"] == 0 and r["a"] > r["b"] > r["c"]
    # two bots alone: the ratio of strengths is the ratio of wins
    two = ratings(["a", "b"], results[:1])
    assert round(two["b"], 1) == round(-400 * __import__("math").log10(30.5 / 10.5), 1)


def test_a_pair_with_no_decided_game_shows_no_share():
    # two games of a deal, both tied (in Hearts a tie for the best seat decides nothing): no share to give
    from schachett_rules.simulation.ladder import format_ladder
    results = [DuelResult("a", "b", 2, 0, 0, 2, 0, 0), DuelResult("a", "c", 2, 2, 0, 0, 1, 0)]
    text = format_ladder("hearts", ["a", "b", "c"], results, {"a": 0.0, "b": 0.0, "c": -100.0}, 0)
    assert "a vs b" in text and "none decided" in text and "[0.0, 100.0]" not in text
    assert "100.0% [34.2, 100.0]" in text      # two of two: Wilson's 95% interval runs from 34.2%


def test_ladder_and_duel_commands(tmp_path, monkeypatch):
    monkeypatch.setenv("SCHACHETT_CACHE", str(tmp_path))
    runner = CliRunner()
    out = runner.invoke(main, ["duel", "heuristic", "random", "original", "--games", "8", "--json", "-q", "-w", "1"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert {"a_share", "low", "high", "games"} <= set(data) and data["games"] == 8
    assert data["low"] <= data["a_share"] <= data["high"]
    out = runner.invoke(main, ["ladder", "original", "--bots", "random,heuristic,mc:2", "--games", "4", "-q",
                               "-w", "1"])
    assert out.exit_code == 0, out.output
    assert "random vs heuristic" in out.output and "rating (Elo, random = 0)" in out.output
    bad = runner.invoke(main, ["ladder", "original", "--bots", "random,wizard", "--games", "4"])
    assert bad.exit_code == 2 and "unknown bot 'wizard'" in bad.output and "Traceback" not in bad.output
    solo = runner.invoke(main, ["duel", "random", "heuristic", "solitaire", "--games", "4"])
    assert solo.exit_code == 2 and "automaton" in solo.output


def test_solve_command_on_a_record_and_a_deal(tmp_path):
    runner = CliRunner()
    record = tmp_path / "g.json"
    assert runner.invoke(main, ["sample", "original", "--seed", "3", "--out", str(record)]).exit_code == 0
    out = runner.invoke(main, ["solve", str(record), "--after", "40", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["trick"] == 11 and len(data["tricks"]) == 3 and len(data["line"]) == 12
    assert data["value"] == data["totals"][data["side"]] - data["totals"][1 - data["side"]]
    assert data["solved"] is True and data["low"] == data["high"] == data["value"]
    # a table of at most 2 MB (2**16 entries of 32 bytes: 2 MB, not the default 2**20, 32 MB) gives the same par
    assert data["table_mb"] == 32
    small = runner.invoke(main, ["solve", str(record), "--after", "40", "--json", "--table-mb", "2"])
    assert small.exit_code == 0 and json.loads(small.output)["table_mb"] == 2
    assert json.loads(small.output)["value"] == data["value"]
    tiny = runner.invoke(main, ["solve", str(record), "--after", "40", "--table-mb", "1"])
    assert tiny.exit_code == 2 and "--table-mb" in tiny.output and "Traceback" not in tiny.output
    text = runner.invoke(main, ["solve", str(record), "--after", "44"])
    assert text.exit_code == 0 and "Best line:" in text.output and "trick 13" in text.output
    bad = runner.invoke(main, ["solve", str(record), "--after", "60"])
    assert bad.exit_code == 2 and "has 52 actions" in bad.output
    # a fresh deal has no actions to count: the error says how to get a record that has them
    fresh = runner.invoke(main, ["solve", "original", "--deal", "3", "--after", "40"])
    assert fresh.exit_code == 2 and "schachett sample original --seed SEED --out FILE" in fresh.output
    broken = tmp_path / "broken.json"
    broken.write_text('{"ruleset": "original", "dealer": 0, "hands": [], "actions": []}')
    out = runner.invoke(main, ["solve", str(broken)])
    assert out.exit_code == 1 and str(broken) in out.output and "Traceback" not in out.output


def test_solve_within_a_budget_says_where_it_stopped():
    runner = CliRunner()
    out = runner.invoke(main, ["solve", "original", "--deal", "1", "--budget", "5000"])
    assert out.exit_code == 1 and "stopped after 5,000 positions" in out.output and "trick 1" in out.output
    assert "final value lies between" in out.output and "Traceback" not in out.output
    # as JSON, what it had proved is on standard output, the error beside it
    out = runner.invoke(main, ["solve", "original", "--deal", "1", "--budget", "5000", "--json"])
    data = json.loads(out.stdout)
    assert out.exit_code == 1 and "stopped after 5,000 positions" in out.stderr
    assert data["solved"] is False and data["value"] is None and data["line"] == []
    assert data["position"] == "the deal of seed 1 (dealer West)"
    # 5,000 positions do not answer the first question, so the range is the room of a fresh deal, by hand: the
    # cards' points (§12: pawns 2 * (1 + ... + 8) = 72, officers 4 * 9 + 4 * 10 + 4 * 11 + 2 * 12 = 144, the two
    # IV promoted in the last trick 2 * 9 = 18) and each King at its best fate (§7: 100 + 6 * 13 = 178, twice)
    assert (data["low"], data["high"]) == (-590, 590)
    assert f"between {data['low']:+d} and {data['high']:+d}" in out.stderr


WARMED_THEN_PLAYED = """
import gc, random
from numba.core.dispatcher import Dispatcher
from schachett_rules.kernel.compiler import tables_for
from schachett_rules.players import make_bot
from schachett_rules.players.bots import play_game
from schachett_rules.players.warm import warm_up

def made():
    return {id(d): len(d.overloads) for d in gc.get_objects() if isinstance(d, Dispatcher)}

warm_up()
before = made()
for ruleset in ("hearts", "reconstruction", "five-players"):
    t = tables_for(ruleset)
    bots = [make_bot(("dd:2", "mc:2", "ismcts:20")[s % 3], t) for s in range(t.n_seats)]
    play_game(t, 1, bots, random.Random(3))
after = made()
print(sum(before.values()), sum(1 for k in after if after[k] != before.get(k, 0)))
"""


@pytest.mark.slow
def test_after_the_warm_up_no_strong_player_waits_for_compiled_code():
    """`schachett serve` readies the strong bots when it starts (players/warm.py): after that one game, games of
    other rulesets with every strong player seated make no compiled function anew."""
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-c", WARMED_THEN_PLAYED], capture_output=True, text=True, check=True)
    made_by_warm_up, made_after = (int(x) for x in out.stdout.split())
    assert made_by_warm_up > 0 and made_after == 0


def castle_moments(ruleset: str, games: int, seed: int = 5):
    """Random games of ``ruleset`` stopped at every moment of castling: (state, the seat asked)."""
    t = tables_for(ruleset)
    for g in range(games):
        game = State.deal(t, g % t.n_seats, GameStream(seed, g))
        rng = random.Random(g)
        while not game.over:
            if game.phase_name == "castle":
                yield game.clone(), game.decider()
            game.apply(rng.choice(game.legal_actions()))


def _offers(state):
    name = state.t.deck.card_name
    return [(o.seat, name(o.king), sorted(name(c) for c in o.officers), o.kind) for o in state.castle_offers()]


@pytest.mark.parametrize("ruleset", ["reconstruction", "three-player", "two-player", "eight-players"])
def test_s5_a_moment_of_castling_sampled_from_what_a_seat_sees_offers_the_castles_the_table_offers(ruleset):
    # before play, between tricks and to rescue a King: every deal the strong players sample at a chance to castle
    # is a game at the same moment, asking the same seat about the same Kings and officers
    from schachett_rules.players.montecarlo import positions
    kinds = set()
    for game, seat in castle_moments(ruleset, 12):
        obs = game.observation(seat)
        for sample in positions(game.t, obs, random.Random(len(kinds)), 3):
            assert sample.phase_name == "castle" and sample.decider() == game.decider()
            assert (sample.done, sample.trick_number) == (game.done, game.trick_number)
            assert [(s, game.t.deck.card_name(c)) for s, c in sample.trick] == list(obs.trick)
            assert _offers(sample) == _offers(game)
        kinds.add(obs.castle_offers[0].kind)
    assert {"before", "between"} <= kinds


@pytest.mark.parametrize("bot", ["dd:4", pytest.param("ismcts:200", marks=pytest.mark.slow)])
def test_s5_the_searching_players_castle_from_the_observation_alone(bot):
    # at a chance to castle the sampling and the tree search players answer with a castle on offer or none, the
    # same answer whatever lies in the hands they cannot see
    from schachett_rules.players.bots import castle_choices
    t = tables_for("reconstruction")
    answers = 0
    for i, (game, seat) in enumerate(castle_moments("reconstruction", 8)):
        obs = game.observation(seat)
        answer = make_bot(bot, t).castle(obs, castle_choices(obs), random.Random(i))
        offered = {(o.seat, officer, o.king) for o in obs.castle_offers for officer in o.officers}
        assert answer is None or answer in offered
        hidden = [s for s in range(t.n_seats) if s not in obs.hands]
        a, b = hidden[0], hidden[-1]
        plain = ~(t.royal_cards | officer_mask(t))
        ca, cb = game.hands[a] & plain, game.hands[b] & plain
        if a != b and ca and cb:
            x, y = ca & -ca, cb & -cb
            other = game.clone()
            other.hands[a] ^= x | y
            other.hands[b] ^= x | y
            view = other.observation(seat)
            assert view == obs
            assert make_bot(bot, t).castle(view, castle_choices(view), random.Random(i)) == answer
        answers += answer is not None
    assert answers > 0                 # it does castle


def officer_mask(t) -> int:
    from schachett_rules.kernel.castling import officer_cards
    return officer_cards(t)


def forgetful_original(tmp_path):
    """Original with its memory clause read the other way: a player keeps in mind only the trick §10.3 lets him
    look back at."""
    from schachett_rules.kernel.compiler import compile_ruleset
    from schachett_rules.paths import home
    from schachett_rules.rules.loader import load
    text = (home() / "variants" / "original.schachett").read_text(encoding="utf-8")
    line = "memory [§10.3 inferred]: every trick"
    assert text.count(line) == 1
    path = tmp_path / "forgetful.schachett"
    path.write_text(text.replace(line, "memory [§10.3 inferred]: nothing but review"), encoding="utf-8")
    return compile_ruleset(load(str(path)))


def test_s10_3_a_seat_that_forgets_earlier_tricks_deals_their_cards_between_the_hands_and_the_forgotten(tmp_path):
    from collections import Counter
    from schachett_rules.kernel.deal import names_of
    from schachett_rules.players.montecarlo import Sampler
    t = forgetful_original(tmp_path)
    game = State.deal(t, 0, GameStream(4, 0))
    rng = random.Random(4)
    while game.done < 5 or len(game.trick) != 2:
        rule = game.rule_action()
        game.push(rule if rule is not None else rng.choice(game.legal_actions()))
    me = game.seat_to_play()
    view = game.observation(me)
    assert len(view.tricks) == 1                  # review 1: only the trick just gathered is kept in mind
    in_trick = {seat for seat, _ in view.trick}
    seen = Counter(name for _, name in list(view.tricks[0].cards) + list(view.trick))
    forgotten = {name for trick in game.tricks[:4] for _, name in trick.cards}
    deck = Counter(names_of(t, (1 << t.n_cards) - 1))
    sampler = Sampler(t, view)
    dealt = set()
    for k in range(200):
        places = sampler.sample(random.Random(k))
        assert places[me] == game.hands[me]
        for s in range(4):
            # 13 cards, less five tricks, less the card already played to this trick
            assert places[s].bit_count() == 13 - 5 - (s in in_trick)
        assert places[4].bit_count() == 16        # the four forgotten tricks' cards, in no hand
        assert sum((Counter(names_of(t, mask)) for mask in places), seen) == deck     # every card once
        dealt |= {name for s in range(4) if s != me for name in names_of(t, places[s])}
    # it cannot tell a card played in a forgotten trick from one still held: each of them is dealt to a hand
    assert forgotten <= dealt


@pytest.mark.parametrize("name", ["mc:4", "dd:4", "ismcts:60"])
def test_s10_3_the_searching_players_play_where_earlier_tricks_are_forgotten(tmp_path, name):
    from schachett_rules.players.bots import play_game
    t = forgetful_original(tmp_path)
    bots = [make_bot(name, t), make_bot("heuristic", t), make_bot(name, t), make_bot("heuristic", t)]
    game = play_game(t, 1, bots, random.Random(7))
    assert game.over and game.done == 13 and sum(len(tr.cards) for tr in game.tricks) == 52
