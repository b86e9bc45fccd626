"""A record may leave out the chances to castle that were let go: the next card or castle says them.

Found by the game server, whose eight-player tables stored games that did not replay: a King taken in a
trick, its rescue let go, and a castle between that trick and the next. Without the pass, the castle was
tried as the rescue and refused. Sampled the way `schachett sample` deals and plays.
"""

from __future__ import annotations

import pytest

from schachett_rules.engine.replay import GameRecord, record_of, state_of
from schachett_rules.kernel.compiler import tables_for
from schachett_rules.kernel.state import State
from schachett_rules.kernel.streams import GameStream


@pytest.mark.parametrize("ruleset", ["eight-players", "six-players", "three-player"])
def test_a_record_without_its_passes_replays_to_the_same_game(ruleset):
    t = tables_for(ruleset)
    later_castles = 0
    for seed in range(60):
        game = State.deal(t, seed % t.n_seats, GameStream(seed, 0))
        game.play_randomly(GameStream(seed, 0))
        record = GameRecord.model_validate(record_of(game, ruleset).model_dump(mode="json", by_alias=True))
        again = state_of(record, t)
        again.lapse()
        assert again.result() == game.result() and again.castles == game.castles, seed
        later_castles += any(c.kind == "between" for c in game.castles)
    assert later_castles          # the case that failed: a castle between tricks is among these games
