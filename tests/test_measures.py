"""The measures of a run named for readers, and drama counted by hand."""

from __future__ import annotations

import numpy as np

from schachett_rules.simulation.simulate import Spec, _leads, format_stats, run, stats_json
from schachett_rules.simulation.stats import Stats


def test_drama_by_hand():
    # running differences (first party minus second) after each of three tricks, and the final winner:
    # game 1: +5, -3, +4 -> the first party wins, but was behind after trick 2: drama
    # game 2: +2, +2, +9 -> the first party wins and was never behind: no drama
    # game 3: -1, -1, +0 -> equal points: not a decided game, no drama
    # game 4: +8, +1, -2 -> the second party wins from behind: drama
    running = np.array([[5, -3, 4], [2, 2, 9], [-1, -1, 0], [8, 1, -2]])
    final = np.array([1, 1, 0, -1])
    changes, settled, drama = _leads(running, final)
    assert drama.tolist() == [True, False, False, True]
    assert changes.tolist() == [2, 0, 0, 1]
    assert settled[[0, 1, 3]].tolist() == [2, 0, 2]      # decided from trick 3, 1, 3 (counted from 0 here)


def test_the_report_names_places_from_the_dealer_and_parties_by_name():
    spec = Spec(ruleset="original", games=200, seed=3)
    s = run(spec)
    text = format_stats(s, spec)
    assert "South and North: wins" in text and "West and East: wins" in text
    assert "the dealer's left" in text and "opposite the dealer" in text and "the dealer's right" in text
    assert "party 0" not in text and "dealer +" not in text
    assert "drama: the eventual loser was ahead" in text
    decided = s.games - s.draws
    assert 0 < s.loser_led <= decided
    assert stats_json(s)["loser_was_ahead"] == s.loser_led
    assert Stats.from_dict(s.to_dict()).loser_led == s.loser_led


def test_engine_games_count_drama_as_their_tricks_show():
    from schachett_rules.kernel.compiler import tables_for
    from schachett_rules.kernel.streams import GameStream
    from schachett_rules.players import make_bot
    from schachett_rules.players.bots import play_game
    t = tables_for("original")
    s = run(Spec(ruleset="original", games=16, seed=4, bots=("heuristic",)))
    count = 0
    for i in range(16):
        game = play_game(t, i % 4, [make_bot("heuristic", t)] * 4, GameStream(4, i))
        diff, behind = 0, set()
        for tr in game.tricks:
            diff += tr.points if t.party_of[tr.winner] == 0 else -tr.points
            for e in tr.events:
                diff += sum(e.points if p == 0 else -e.points for p in e.scoring_parties)
            behind |= {0} if diff < 0 else {1} if diff > 0 else set()
        winner = game.result().winner
        count += winner is not None and winner in behind
    assert s.loser_led == count
