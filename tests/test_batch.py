"""The batch, the one-game play-out and the engine play the same games for the same uniform numbers."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from schachett_rules.playouts.batch import draws_per_game, random_batch, supported, uniforms
from schachett_rules.kernel.compiler import compile_ruleset, tables_for
from schachett_rules.rules.loader import load
from schachett_rules.kernel.state import State
from schachett_rules.playouts.single import random_game
from tests.lane import many


class Stream:
    """A random source that hands out a fixed row of uniform numbers, as ``random.Random.random`` would."""

    def __init__(self, row):
        self.row, self.i = row, 0

    def random(self) -> float:
        value = float(self.row[self.i])
        self.i += 1
        return value


OPTION_SETS = [(), (("deal", "random"),), (("king-order", "per-event"),), (("king-order", "both-first"),),
               (("promoted-points", "as-officers"), ("remaining", "all-hands")),
               (("pawn-takes-suit", "kinds-apart"), ("suit-order", "unlisted-lowest"), ("king-follow", "king-last"))]


# the fast lane plays the printed reading and the three options at once; the whole suite every set
@pytest.mark.parametrize("options", [o if o in (OPTION_SETS[0], OPTION_SETS[-1]) else
                                     pytest.param(o, marks=pytest.mark.slow) for o in OPTION_SETS],
                         ids=lambda o: ",".join(f"{k}={v}" for k, v in o) or "printed")
def test_batch_and_one_game_play_agree_on_10000_games(options):
    t = tables_for("original", options)
    games = 10000
    u = uniforms(t, games, np.random.default_rng(len(options)))
    dealers = np.arange(games) % 4
    out = random_batch(t, dealers, u)
    for g in range(games):
        one = random_game(t, int(dealers[g]), Stream(u[g]))
        assert tuple(out.winners[g]) == one.trick_winners, g
        assert tuple(out.totals[g]) == one.totals and tuple(out.card_points[g]) == one.card_points, g
        kings = [(e.name, trick, first, pts) for e, trick, _owner, first, pts, _parties in one.events]
        batch_kings = [(t.events[k].name, int(tr), bool(f), int(p)) for k, tr, f, p in
                       zip(out.event_kind[g], out.event_trick[g], out.event_first[g], out.event_points[g]) if k >= 0]
        assert batch_kings == kings, g


def test_batch_and_engine_agree_trick_by_trick():
    t = tables_for("original")
    u = uniforms(t, 300, np.random.default_rng(9))
    out = random_batch(t, np.arange(300) % 4, u)
    for g in range(300):
        stream = Stream(u[g])
        game = State.deal(t, g % 4, stream)
        game.play_randomly(stream)
        assert [tr.winner for tr in game.tricks] == list(out.winners[g])
        assert tuple(game.result().totals) == tuple(out.totals[g])


from tests.test_state import CASES, COMPILED, COMPILED_FAMILY, FAMILY, NOT_COMPILED, RULESETS  # noqa: F401
from schachett_rules.kernel.core import seat_at
from schachett_rules.kernel.records import money
from schachett_rules.playouts.plan import G_SITTING, G_TRICKS
from schachett_rules.playouts.results import score_of


def engine_castles(t, game):
    return [(c.trick, c.kind, c.seat, c.king, c.officer, c.with_seat) for c in game.castles]


def _king(t, cards, leader: int, owner: int) -> str:
    """The King the owner played to a trick whose cards (in play order) ``leader`` led."""
    return t.deck.face_names[t.deck.card_face[int(cards[(owner - leader) % t.n_seats])]]


@pytest.mark.parametrize("ref,options", CASES, ids=lambda x: x if isinstance(x, str) else
                         ",".join(f"{k}={v}" for k, v in x) or "printed")
def test_the_state_the_one_game_path_and_the_batch_play_the_same_games(ref, options):
    """The same uniform numbers give the same game on all three paths: every trick, castle, King and score, and
    where the game is bid, the bid (contract, trumps, declarer, partner, card called, seats sitting out) and the
    settlement (the winner, money and game points the kernel's scoring gives the compiled game's tables).

    Each King event is compared whole: which King, whose it was, who took it, in which trick, first or later,
    its points and the parties that score them.
    """
    t = tables_for(ref, options)
    games = many(150, floor=40)
    u = uniforms(t, games, np.random.default_rng(18))
    dealers = np.arange(games) % t.n_seats
    numbers = np.arange(games) % 5          # the games' numbers in their sessions: a passing clause turns with them
    out = random_batch(t, dealers, u, numbers)
    name = t.deck.card_name
    castled = bids = 0
    for g in range(games):
        stream, fast_stream = Stream(u[g]), Stream(u[g])
        game = State.deal(t, int(dealers[g]), stream, game=int(numbers[g]))
        game.play_randomly(stream)
        result = game.result()
        one = random_game(t, int(dealers[g]), fast_stream, game=int(numbers[g]))
        assert stream.i == fast_stream.i, g                       # the same numbers drawn, no more, no fewer
        tricks = [(tr.cards, tr.winner, tr.points) for tr in game.tricks]
        assert [(tuple((s, name(c)) for s, c in plays), w, int(p)) for plays, w, p in
                zip(one.tricks(), one.trick_winners, one.log[:, 1])] == tricks, g
        bid = out.game[g]
        sitting = int(bid[G_SITTING])
        batch_tricks = [(tuple((seat_at(sitting, int(out.leaders[g, i]), k, t.n_seats), name(int(c)))
                               for k, c in enumerate(out.trick_cards[g, i]) if c >= 0), int(out.winners[g, i]),
                         int(out.trick_points[g, i])) for i in range(int(bid[G_TRICKS]))]
        assert batch_tricks == tricks, g
        if t.flow is not None:
            bids += game.contract >= 0
            assert tuple(one.game) == tuple(int(x) for x in bid), g
            assert tuple(int(x) for x in bid[:7]) == (game.contract, game.trump, game.declarer, game.partner,
                                                       game.called, game.t.sitting, int(game.thrown_in)), g
            assert tuple(out.party_of[g]) == game.t.party_of == one.party_of, g
            played = [0] * t.n_seats      # the hands as play began, from the cards played
            for plays in one.tricks():
                for s, c in plays:
                    played[s] |= 1 << c
            tricks_by_party = [0] * len(game.t.parties)
            for w in one.trick_winners:
                tricks_by_party[game.t.party_of[w]] += 1
            g_t, winner, money_by_seat, gp = score_of(t, bid, out.party_of[g], out.totals[g], tricks_by_party,
                                                     [played[s] | (game.start_hands[s] if game.t.sitting >> s & 1
                                                                   else 0) for s in range(t.n_seats)])
            assert g_t is game.t and winner == result.winner, g
            assert tuple(money(m) for m in money_by_seat) == result.settlement, g
            assert tuple(money(x) for x in gp) == result.game_points, g
        castles = engine_castles(t, game)
        castled += bool(castles)
        assert [(tr, kind, s, name(k), name(o), w) for tr, kind, s, k, o, w in one.castles] == castles, g
        kinds = ("before", "between", "rescue")
        batch_castles = [(int(tr), kinds[kind], int(s), name(int(k)), name(int(o)), int(w))
                         for tr, kind, s, k, o, w in out.castle_log[g, :out.castles[g]]]
        assert batch_castles == castles and int(out.castles[g]) == len(castles), g
        assert one.totals == result.totals == tuple(out.totals[g]), g
        assert one.card_points == result.card_points == tuple(out.card_points[g]), g
        kings = [(e.event, e.king, e.owner, e.taker, e.trick, e.order == "first", e.points, e.scoring_parties)
                 for e in result.events]
        one_kings = [(ev.name, _king(t, one.log[tr, 3:], int(one.log[tr, 2]), owner), owner, int(one.log[tr, 0]),
                      tr + 1, first, pts, parties) for ev, tr, owner, first, pts, parties in one.events]
        assert one_kings == kings, g
        batch_kings = [(t.events[k].name, _king(t, out.trick_cards[g, tr], int(out.leaders[g, tr]), int(owner)),
                        int(owner), int(out.winners[g, tr]), int(tr) + 1, bool(f), int(p), (int(party),))
                       for k, tr, f, p, party, owner in zip(out.event_kind[g], out.event_trick[g], out.event_first[g],
                                                            out.event_points[g], out.event_party[g],
                                                            out.event_owner[g]) if k >= 0]
        assert batch_kings == kings, g
    if t.castling is not None and t.castling.permits:
        assert castled > 0     # the castles were played, not only their absence compared
    if t.flow is not None and t.flow.contracts:
        assert bids > 0        # games were bid and played, not only thrown in


def test_every_ruleset_is_played_in_batches():
    assert all(supported(tables_for(name)) is None for name in COMPILED + COMPILED_FAMILY)


def test_every_family_ruleset_compiles_and_what_none_asks_is_refused_in_words(rules):
    """The compiled state plays every family ruleset (the cases compared above are all of them); what no ruleset
    asks of it yet, it refuses saying what it lacks, and the batch refuses it with the same words."""
    from schachett_rules.errors import SchachettError
    from schachett_rules.playouts.plan import not_compiled, plan_of
    refused = {name: not_compiled(tables_for(name)) for name in FAMILY + NOT_COMPILED}
    assert sorted(name for name, why in refused.items() if why is None) == sorted(COMPILED_FAMILY) == FAMILY
    # a hand's cards face down are in no restriction's sight: one that asks what a hand holds is refused
    path = rules('ruleset v "Officers\' Schafkopf, hearts kept while the Ace is held" extends officers-schafkopf\n'
                 'restriction kept [wendish:§7 design]: no lead h while holding hA\n')
    t = compile_ruleset(load(str(path)))
    why = "it plays no tableau beside a restriction that asks what a hand holds"
    assert not_compiled(t) == supported(t) == why
    with pytest.raises(SchachettError, match="cannot yet play v: " + why):
        plan_of(t)
    # a game decided by its game points: the solver counts its own worth of the cards, not their points
    from schachett_rules.search.exact import Solver
    for name in ("hearts", "whist"):
        assert Solver(tables_for(name), table_bits=4).counted is not None


def test_a_game_uses_one_uniform_per_shuffle_swap_and_per_card():
    t = tables_for("original")
    assert draws_per_game(t) == (52 - 2 - 1) + 52
