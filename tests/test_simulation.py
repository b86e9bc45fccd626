"""Simulation: bots, metrics, reproducibility, caching, sweeps and interruption."""

from __future__ import annotations

import collections
import json
import random

import pytest
from click.testing import CliRunner

from schachett_rules.simulation import simulate as sim
from schachett_rules.players.bots import HeuristicBot, RandomBot, fallen_kings, play_game
from schachett_rules.cli.main import main
from schachett_rules.kernel.compiler import compile_ruleset, tables_for
from schachett_rules.kernel.state import State
from schachett_rules.kernel.deal import names_of
from schachett_rules.rules.loader import load
from schachett_rules.players.montecarlo import MonteCarloBot, Sampler
from schachett_rules.kernel.observation import observe
from schachett_rules.simulation.stats import wilson
from schachett_rules.kernel.streams import GameStream
from schachett_rules.kernel.scoring import KingCount
from tests.lane import many

TINY = '''ruleset tiny "Four cards, one trick: every figure can be worked out by hand"
deck [§1 design] {
    colours w "white"
    officer "officer": K "King" royal, A "Ace", B "Bishop", C "Castle"
}
seats [§1 design]: 4
parties [§1 design]: opposite
deal [§4 design] { hands 1 }
lead first [§10.1 design]: dealer + 1
lead next [§10.1 design]: winner
ranking [§2 design]: A > B > C > K
capture [§2 design] { officer takes lower: any }
follow officer [§3.1 design] { 1: any }
points [§12 design] { A: 3  B: 2  C: 1  K: 0 }
remaining [§6 design]: each hand
king checkmate [§7 design] { when: taken by opponent scores: taker first: 10 later: 10 }
king selfmate [§8 design] { when: taken by partner scores: opponents first: 5 later: 5 }
king stalemate [§9 design] { when: wins the trick scores: owner first: 1 later: 1 }
king order [§7 design] { count: all events same trick: play order }
settlement [§12 design] { unit "points" amount: winner - loser per player }
stake [§12 design]: per seat
dealer [§4 design]: seat 0 deals first, passes left
'''


@pytest.fixture
def tiny(tmp_path):
    path = tmp_path / "tiny.schachett"
    path.write_text(TINY, encoding="utf-8")
    return str(path)


def test_metrics_on_a_ruleset_worked_out_by_hand(tiny):
    # A always takes the single trick: its party gets 3 + 2 + 1 = 6. The King lies with A's partner in
    # 1 deal of 3 (selfmate: 5 to the other party) and with an opponent in 2 of 3 (checkmate: +10).
    # So party 0 wins half the games; the winner's party has 16 against 0, or 6 against 5;
    # each winner is paid 2/3 × 16 + 1/3 × 1 = 11 on average.
    s = sim.run(sim.Spec(ruleset=tiny, games=6000, seed=3))
    assert s.draws == 0 and s.games == 6000
    lo, hi = wilson(s.wins[0], s.games)
    assert lo < 0.5 < hi
    kings = sum(k * v for k, v in s.events_per_game.items())
    assert kings == s.games                                   # one King, one fate, every game
    lo, hi = wilson(sum(s.events_by_trick["checkmate"]), kings)
    assert lo < 2 / 3 < hi
    assert sum(s.events_by_trick["stalemate"]) == 0           # the King never holds against A
    lo, hi = s.money_per_winner.ci()
    assert lo < 11 < hi
    lo, hi = s.points[0].ci()
    assert lo < 43 / 6 < hi                                   # 1/2 × (2/3 × 16 + 1/3 × 6) + 1/2 × (1/3 × 5)
    assert s.decided_at[0] == s.games and s.lead_changes.high == 0


def test_same_seed_same_result_whatever_the_workers_and_chunks():
    a = sim.run(sim.Spec(ruleset="original", games=3000, seed=5))
    b = sim.run(sim.Spec(ruleset="original", games=3000, seed=5, chunk=700), workers=2)
    assert sim.stats_json(a) == sim.stats_json(b)
    h1 = sim.run(sim.Spec(ruleset="original", games=40, seed=2, bots=("heuristic", "random")))
    h2 = sim.run(sim.Spec(ruleset="original", games=40, seed=2, bots=("heuristic", "random"), chunk=7), workers=2)
    assert sim.stats_json(h1) == sim.stats_json(h2)


FORKED = """
import json, sys
from schachett_rules.simulation import parallel, simulate as sim
from schachett_rules.simulation.ladder import DuelSpec, duel
spec = sim.Spec(ruleset="original", games=12, seed=3, bots=("dd:2", "heuristic"), chunk=3)
alone = sim.stats_json(sim.run(spec))
forked = sim.stats_json(sim.run(spec, workers=2))
duels = [duel(DuelSpec(ruleset="two-player", a="dd:2", b="random", games=8, seed=3), workers=w, use_cache=False)
         for w in (1, 2)]
print(json.dumps({"same": alone == forked, "duels": [d.as_json() for d in duels], "warmed": sorted(map(list, parallel._WARMED))}))
"""


def test_workers_forked_after_a_game_played_here_give_the_same_results():
    # A process with one thread forks its workers; before the first fork of each kind of run it plays one game
    # itself (parallel.warm_here), so that the workers find the compiled code loaded. That game must change
    # nothing: the run and the duel come out as they do with no worker at all.
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-c", FORKED], capture_output=True, text=True, check=True)
    out = json.loads(done.stdout)
    assert out["same"]
    assert out["duels"][0] == out["duels"][1]
    assert out["warmed"] == [["dd", "heuristic"], ["duel", "dd", "random"]]


@pytest.mark.parametrize("ruleset,games", [("original", 500), ("reconstruction", 200), ("three-player", 200),
                                            ("two-player", 200), ("solitaire", 200), ("eight-players", 100),
                                            ("hearts", 300), ("whist", 300)])
def test_batch_statistics_equal_the_engines_game_by_game(ruleset, games):
    spec = sim.Spec(ruleset=ruleset, games=many(games, floor=50), seed=11)
    t = sim.tables_of(spec)
    assert sim.batched(t)                  # the run below is the batch's
    batch = sim.run(spec)
    engine = sim.empty_stats(t)
    for i in range(spec.games):
        stream = GameStream(11, i)
        game = State.deal(t, i % t.n_seats, stream, game=i)   # game i of the run passes as game i
        game.play_randomly(stream)
        sim.add_game(engine, t, game)
    assert sim.stats_json(engine) == sim.stats_json(batch)


def test_same_seed_deals_the_same_cards_whatever_the_bots_and_readings():
    t = tables_for("original")
    r = tables_for("reconstruction")
    for i in range(20):
        a = State.deal(t, i % 4, GameStream(9, i)).hands
        b = State.deal(r, i % 4, GameStream(9, i)).hands
        assert a == b


def test_cache_returns_the_stored_run(tmp_path, monkeypatch):
    monkeypatch.setenv("SCHACHETT_CACHE", str(tmp_path))
    spec = sim.Spec(ruleset="original", games=1000, seed=4)
    first, hit1 = sim.cached_run(spec)
    second, hit2 = sim.cached_run(spec)
    assert (hit1, hit2) == (False, True)
    assert sim.stats_json(first) == sim.stats_json(second)
    other, hit3 = sim.cached_run(spec.model_copy(update={"options": {"remaining": "all-hands"}}))
    assert not hit3 and sim.stats_json(other) != sim.stats_json(first)
    assert len(list(tmp_path.glob("*.json"))) == 2


def test_ctrl_c_stops_cleanly_and_keeps_the_finished_chunks():
    calls = []

    def progress(n):
        calls.append(n)
        if len(calls) == 2:
            raise KeyboardInterrupt

    s = sim.run(sim.Spec(ruleset="original", games=5000, seed=1, chunk=1000), progress=progress)
    assert s.stopped and s.games == 2000


def test_bots_play_only_legal_cards_in_every_ruleset():
    for ref in ("original", "three-player", "ai-reconstruction", "reconstruction"):
        t = tables_for(ref)
        for seed in range(4):
            bots = [HeuristicBot(t), RandomBot(t), MonteCarloBot(t, samples=2), RandomBot(t)]
            game = play_game(t, seed % 4, bots, GameStream(seed, 0))  # an illegal card would raise
            assert game.over and len(game.result().events) == 2


# §7–§9 and the king-order lacuna, by hand from variants/original.schachett: checkmate scores the taker
# 100 + 6 × remaining for the 1st King and 6 × remaining for a later one; stalemate scores the owner 25 + 2 ×
# remaining, later 2 × remaining; remaining is the cards each player held before the trick (13 − index).

def _fallen(**events):
    count = KingCount()
    for name, n in events.items():
        count.total += n
        count.per_event[name] = n
    return count


@pytest.mark.parametrize("reading,value", [("by-fate", 6 * 8), ("both-first", 6 * 8), ("per-event", 100 + 6 * 8)])
def test_s7_heuristic_values_a_checkmate_after_a_stalemate_by_the_king_order_in_force(reading, value):
    # One King was stalemated earlier. In trick 6 (8 cards in each hand before it) seat 0 takes seat 1's sK:
    # by fate it is the 2nd King (48); per event it is the 1st checkmate and earns the 100 as well (148).
    t = tables_for("original", (("king-order", reading),))
    bot = HeuristicBot(t)
    kings = [(1, t.face("sK"))]
    count = _fallen(stalemate=1)
    assert bot._event_value(5, kings, 0, 0, count) == value
    assert bot._event_value(5, kings, 0, 1, count) == -value        # the other party loses as much
    assert count.total == 1 and count.per_event == {"stalemate": 1}  # the bot's count is left as it was


@pytest.mark.parametrize("reading,value", [("by-fate", 106 + 2), ("both-first", 106 + 27), ("per-event", 106 + 27)])
def test_s7_heuristic_values_two_kings_in_one_trick_by_the_king_order_in_force(reading, value):
    # No King has fallen; in the last trick (1 card each before it) seat 0 plays the wK, seat 1 the sK and wins:
    # the wK is checkmated first (100 + 6 = 106 to party 1), the sK stalemated, 2nd by fate (2) but 1st when
    # both in one trick count first, or when each event has its own 1st King (25 + 2 = 27), to party 1.
    t = tables_for("original", (("king-order", reading),))
    kings = [(0, t.face("wK")), (1, t.face("sK"))]
    assert HeuristicBot(t)._event_value(12, kings, 1, 1, KingCount()) == value


def test_s7_heuristic_counts_the_kings_fallen_in_the_tricks_it_has_seen():
    t = tables_for("original")
    game = State.deal(t, 0, GameStream(3, 0))
    while not game.count.total and not game.over:
        game.play(next(iter(game.legal())))
    events = [e.event for tr in game.tricks for e in tr.events]
    assert events
    count = fallen_kings(observe(game, game.to_move if not game.over else 0))
    assert count.total == len(events) and count.per_event == dict(collections.Counter(events))


@pytest.mark.slow
def test_heuristic_beats_random_clearly():
    s = sim.run(sim.Spec(ruleset="original", games=240, seed=8, bots=("heuristic", "random")))
    lo, _ = wilson(s.wins[0], s.games)
    assert lo > 0.55


def _scrambled(game: State, seat: int, rng: random.Random) -> State:
    """The same game with the cards the seat cannot see shuffled among the hands it cannot see."""
    from schachett_rules.kernel.observation import visible_hands
    t = game.t
    seen = set(visible_hands(game, seat))
    hidden = [s for s in range(t.n_seats) if s not in seen]
    kings = {s: game.hands[s] & t.royal_cards for s in hidden}   # face-up Kings are seen where they are
    pool = [c for s in hidden for c in range(t.n_cards) if (game.hands[s] & ~t.royal_cards) >> c & 1]
    rng.shuffle(pool)
    other = game.clone()
    for s in hidden:
        size = (game.hands[s] & ~t.royal_cards).bit_count()
        other.hands[s] = kings[s] | sum(1 << c for c in pool[:size])
        pool = pool[size:]
    return other


@pytest.mark.parametrize("bot_class", [RandomBot, HeuristicBot])
def test_bots_never_read_hidden_cards(bot_class):
    t = tables_for("original")
    rng = random.Random(4)
    for seed in range(25):
        game = State.deal(t, seed % 4, GameStream(seed, 1))
        for _ in range(rng.randrange(0, 40)):
            game.play(next(iter(game.legal())))
        seat = game.to_move
        bot = bot_class(t)
        before = bot.play(observe(game, seat), random.Random(seed))
        other = _scrambled(game, seat, rng)
        assert other.hands != game.hands           # the hidden cards did move
        assert observe(other, seat) == observe(game, seat)
        assert bot.play(observe(other, seat), random.Random(seed)) == before


def test_monte_carlo_samples_agree_with_what_the_seat_has_seen():
    t = tables_for("original")
    for seed in range(15):
        game = State.deal(t, seed % 4, GameStream(seed, 2))
        for _ in range(random.Random(seed).randrange(5, 45)):
            game.play(next(iter(game.legal())))
        seat = game.to_move
        obs = observe(game, seat)
        sampler = Sampler(t, obs)
        played = {(s, c) for tr in game.tricks for s, c in tr.cards} | {(s, t.deck.card_name(c)) for s, c in game.trick}
        for k in range(10):
            hands = sampler.sample(random.Random(k))
            assert names_of(t, hands[seat]) == names_of(t, game.hands[seat])   # its own hand (copies alike)
            for s in range(4):
                assert hands[s].bit_count() == game.hands[s].bit_count()  # every hand its true size
                assert not hands[s] & sampler.excluded[s]               # no card of a suit it showed it lacks
            for s, name in obs.kings:                                   # the face-up Kings where they lie
                assert hands[s] & t.deck.face_cards[t.face(name)]
            names = {t.deck.card_name(c) for s in range(4) for c in range(52) if hands[s] >> c & 1}
            assert not names & {c for _, c in played if t.deck.face_cards[t.face(c)].bit_count() == 1}


def test_monte_carlo_deals_the_unseen_cards_evenly_when_nothing_is_known_of_them():
    # At the first card of original each of the three other hands holds 13 cards, none of them shown (a King
    # face up is known where it lies), so by the hand count every unseen card lies in each of them one time in
    # three. 3,000 deals: a share within 0.05 of 1/3 is more than five standard deviations wide.
    t = tables_for("original")
    game = State.deal(t, 0, GameStream(11, 0))
    while game.phase != 2:
        game.push(game.legal_actions()[-1])
    seat = game.to_move
    sampler = Sampler(t, observe(game, seat))
    others = [s for s in range(4) if s != seat]
    counts = {(c, s): 0 for c in sampler.unseen for s in others}
    rng = random.Random(5)
    for _ in range(3000):
        hands = sampler.sample(rng)
        assert [hands[s].bit_count() for s in others] == [game.hands[s].bit_count() for s in others]
        for s in others:
            for c in sampler.unseen:
                counts[c, s] += hands[s] >> c & 1
    assert len(sampler.unseen) == 39 - sum(1 for s, _ in observe(game, seat).kings if s != seat)
    assert all(abs(n / 3000 - 1 / 3) < 0.05 for n in counts.values())


def test_sweep_ranks_readings_against_the_baseline():
    from schachett_rules.simulation.sweep import sweep
    names, rows, alpha = sweep("original", ["remaining"], 2000, 3, use_cache=False)
    assert names == ["remaining"] and rows[0].baseline and rows[0].options == {"remaining": "each-hand"}
    other = rows[1]
    money = next(e for e in other.effects if e[0] == "money per winning player")
    assert money[2] > 10 and money[3] < alpha        # all hands multiplies the King events by four


def test_cli_simulate_json_plot_and_bad_bots(tmp_path):
    runner = CliRunner()
    out = tmp_path / "run.json"
    result = runner.invoke(main, ["simulate", "original", "-n", "2000", "-s", "1", "-q", "--no-cache",
                                  "--json", str(out), "--plot", str(tmp_path / "plots")])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["games"] == 2000 and set(data["king_events"]) == {"checkmate", "selfmate", "stalemate"}
    assert len(list((tmp_path / "plots").glob("*.svg"))) == 4 and len(list((tmp_path / "plots").glob("*.png"))) == 4
    bad = runner.invoke(main, ["simulate", "original", "--bots", "genius"])
    assert bad.exit_code == 2 and "unknown bot" in bad.output
    bad = runner.invoke(main, ["simulate", "original", "--bots", "random,random,random"])
    assert bad.exit_code == 2 and "one per party" in bad.output


def test_cli_compare_puts_rulesets_side_by_side():
    result = CliRunner().invoke(main, ["compare", "original", "ai-reconstruction", "-n", "1000", "-q", "--no-cache"])
    assert result.exit_code == 0, result.output
    assert "original" in result.output and "ai-reconstruction" in result.output
    assert "money per winning player" in result.output


def test_castling_use_is_measured():
    s = sim.run(sim.Spec(ruleset="reconstruction", games=200, seed=2))
    assert s.castles > 0 and 0 < s.games_with_castling <= s.games
    assert sim.run(sim.Spec(ruleset="original", games=200, seed=2)).castles == 0


def test_a_tiny_ruleset_compiles_from_the_test_text(tiny):
    assert compile_ruleset(load(tiny)).n_cards == 4


def test_cache_files_are_written_whole_when_several_writers_finish_the_same_run_at_once(tmp_path):
    # two test workers (or two simulations) may finish the same run together: each writes a temporary file of its
    # own and renames it into place, so the entry is always one writer's whole text and no temporary file is left
    import threading
    from schachett_rules.simulation.simulate import cache_write
    path = tmp_path / "run.json"
    failures: list[BaseException] = []

    def write(writer: int) -> None:
        try:
            for k in range(100):
                cache_write(path, json.dumps({"writer": writer, "k": k, "pad": "x" * 20000}))
        except BaseException as err:       # collected for the assertion below
            failures.append(err)

    threads = [threading.Thread(target=write, args=(w,)) for w in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert failures == []
    assert json.loads(path.read_text(encoding="utf-8"))["k"] == 99
    assert [p.name for p in tmp_path.iterdir()] == ["run.json"]
