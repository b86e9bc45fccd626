"""The one game state: whose decision, which actions, apply and undo, clones, keys, and its compiled twin.

Every driver walks a game through :class:`~schachett_rules.kernel.state.State`; these tests hold it to its
promises: applying an action and undoing it restores the state and its key exactly, a clone is independent of
its original, the castling moments ask the seats in the order the castle moment clause gives, an automaton
that never castles is never asked, and the compiled state (playouts/compiled.py) gives the same decider, the
same legal cards, the same castle offers and the same scores as the kernel's, action by action.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from schachett_rules.errors import RuleCheckError
from schachett_rules.kernel.actions import (AUCTION, CALL, CASTLE, EXCHANGE, OVER, PASSING, PLAY, TERMINAL, Castle,
                                            Pass, Play)
from schachett_rules.kernel.compiler import compile_ruleset, tables_for
from schachett_rules.kernel.state import State
from schachett_rules.kernel.visibility import kept_tricks
from schachett_rules.kernel.streams import GameStream
from schachett_rules.players import make_bot
from schachett_rules.players.bots import chooser, play_game
from schachett_rules.playouts.walk import CompiledState
from schachett_rules.rules.loader import load
from schachett_rules.engine.replay import record_of, state_of

RULESETS = sorted(p.stem for p in (Path(__file__).resolve().parent.parent / "variants").glob("*.schachett"))
# every reading of every castling lacuna, each beside a castling that plays it
CASTLING = [(("castling", c),) for c in ("as-three-player", "before-play", "rescue", "both")] + [
    (("castling", "both"), (lacuna, option))
    for lacuna, option in (("castle-officer", "rook"), ("castle-limit", "once-per-game"),
                           ("castle-limit", "once-per-player"), ("castle-king", "partner-king"),
                           ("castle-moment", "each-seat"))] + [
    (("castling", "as-three-player"), ("castle-moment", "each-seat"), ("castle-limit", "once-per-player")),
    (("castling", "both"), ("castle-king", "partner-king"), ("deal", "random"), ("castle-moment", "each-seat"))]
# the family's rulesets the compiled state plays: all of them (what it would refuse, test_batch names in words)
FAMILY = sorted(p.stem for p in (Path(__file__).resolve().parent.parent / "variants" / "family").glob("*.schachett"))
COMPILED_FAMILY = ["dreiwendsch", "euchre", "five-hand-euchre", "hearts", "officers-schafkopf", "schafkopf",
                   "wendish-schafkopf", "whist"]
# Schachett's rulesets the compiled state does not play yet (none: the called forms compile too)
NOT_COMPILED: list[str] = []
COMPILED = [name for name in RULESETS if name not in NOT_COMPILED]
CASES = [(name, ()) for name in COMPILED + COMPILED_FAMILY] + [("original", o) for o in CASTLING] + \
    [("three-player", (("castle-king", "own-king-only"),)), ("three-player", (("castle-moment", "each-seat"),))]


def test_the_rulesets_are_found():
    # the cases above are built from variants/: an empty glob would test nothing
    assert len(RULESETS) >= 8 and "original" in RULESETS and "three-player" in RULESETS


def _random_walk(state: State, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if state.over:
            return
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])


def _everything(state: State):
    """Everything a state holds, its past included, to compare two states whole."""
    return (state.key(), tuple(state.points), tuple(state.card_points), tuple(state.debts), state.forfeited,
            tuple(state.trick_log), tuple(state.history()), state.decider())


@settings(max_examples=60, deadline=None)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**6), steps=st.integers(0, 80))
def test_apply_then_undo_restores_the_state_and_its_key(case, seed, steps):
    name, options = case
    t = tables_for(name, options)
    rng = random.Random(seed)
    state = State.deal(t, seed % t.n_seats, GameStream(seed, 0))
    _random_walk(state, rng, steps)
    if state.over:
        return
    before, key = _everything(state), state.key()
    for action in state.legal_actions():
        state.apply(action)
        state.undo()
        assert _everything(state) == before and state.key() == key, action


@settings(max_examples=40, deadline=None)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**6), steps=st.integers(0, 60))
def test_a_clone_goes_its_own_way(case, seed, steps):
    name, options = case
    t = tables_for(name, options)
    state = State.deal(t, seed % t.n_seats, GameStream(seed, 0))
    _random_walk(state, random.Random(seed), steps)
    before = _everything(state)
    twin = state.clone()
    assert _everything(twin) == before
    _random_walk(twin, random.Random(seed + 1), 200)
    assert twin.over and _everything(state) == before
    if not state.over:
        state.play_randomly(GameStream(seed, 9))
        assert state.over


def _fresh_records(state: State) -> tuple:
    """The tricks' and castles' records made afresh from the log's ints, none of them kept from before."""
    from schachett_rules.kernel import gamelog
    return (tuple(gamelog.trick_record(state, i) for i in range(len(state.trick_log))),
            tuple(gamelog.castle_record(state, i) for i in range(len(state._castles))))


@settings(max_examples=40, deadline=None)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**6), steps=st.integers(1, 80), back=st.integers(1, 30))
def test_the_records_a_state_keeps_are_those_of_its_log_after_undo_and_in_a_clone(case, seed, steps, back):
    # the state keeps each trick's and castle's record once made (every observation asks for them); a record kept
    # from a line that was taken back, or from a clone's other line, must never be shown
    name, options = case
    t = tables_for(name, options)
    rng = random.Random(seed)
    state = State.deal(t, seed % t.n_seats, GameStream(seed, 0))
    applied = 0
    for _ in range(steps):
        if state.over:
            break
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
        applied += 1
        assert (tuple(state.tricks), tuple(state.castles)) == _fresh_records(state)
    twin = state.clone()
    for _ in range(min(back, applied)):          # back at most to the deal
        state.undo()
    _random_walk(state, random.Random(seed + 1), 80)
    _random_walk(twin, random.Random(seed + 2), 80)
    for game in (state, twin):
        assert (tuple(game.tricks), tuple(game.castles)) == _fresh_records(game)
        assert [game.trick_record(i) for i in range(len(game.trick_log))] == game.tricks
        seat = game.decider() if game.decider() >= 0 else 0
        view = game.observation(seat) if t.dummy_of(seat) is None else None
        if view is not None:
            kept = [r for r in _fresh_records(game)[0] if r.number - 1 in kept_tricks(t, game.done)]
            assert list(view.tricks) == kept and list(view.castles) == list(_fresh_records(game)[1])


def test_the_key_names_the_position_not_the_way_to_it():
    # Two orders of the same two tricks reach different keys only where the position differs.
    t = tables_for("original")
    a = State.deal(t, 3, GameStream(4, 0))
    b = a.clone()
    assert a.key() == b.key() and hash(a.key()) == hash(b.key())
    a.apply(a.legal_actions()[0])
    assert a.key() != b.key()
    a.undo()
    assert a.key() == b.key()


def test_s5_3p_the_left_player_is_asked_before_play_and_a_pass_lets_him_lead():
    # §5 (3p): "The player sitting to the left of the Kaiser may, however, castle even before the start of the
    # game". Seat 1 holds the sK (dealer 0) and is the only one asked; he lets it go and leads the first trick.
    t = tables_for("three-player")
    state = State.deal(t, 0, GameStream(1, 0))
    assert state.phase_name == "castle" and state.decider() == 1
    actions = state.legal_actions()
    assert actions[-1] == Pass(1) and all(type(a) is Castle and a.seat == 1 for a in actions[:-1])
    record = state.apply(Pass(1))
    assert (record.action, record.seat, record.kind) == ("pass", 1, "before")
    assert state.phase_name == "play" and state.decider() == 1 and state.seat_to_play() == 1
    assert all(type(a) is Play for a in state.legal_actions())


def test_s5_a_card_played_while_a_chance_is_open_lets_it_go():
    t = tables_for("three-player")
    state = State.deal(t, 0, GameStream(1, 0))
    card = state.legal().mask & -state.legal().mask
    state.play(card.bit_length() - 1)
    assert state.trick and [r.action for r in state.log[1:]] == ["pass", "play"]


def test_the_state_refuses_an_action_out_of_turn_naming_the_seat():
    t = tables_for("original")
    state = State.deal(t, 3, GameStream(4, 0))
    other = next(s for s in range(4) if s != state.decider())
    card = (state.hands[other] & -state.hands[other]).bit_length() - 1
    with pytest.raises(Exception, match=rf"it is seat {state.decider()}'s turn, not seat {other}'s"):
        state.apply(Play(other, card))
    assert not state.trick


def test_decider_is_terminal_and_no_action_is_open_when_the_game_is_over():
    state = State.deal(tables_for("original"), 0, GameStream(2, 0))
    state.play_randomly(GameStream(2, 1))
    assert state.over and state.decider() == TERMINAL and state.legal_actions() == []
    assert state.phase == OVER


# --- rules out of the drivers: the automaton and the castle moment -----------------------------------------

@pytest.mark.slow
def test_an_automaton_that_never_castles_is_never_asked_on_any_path(rules):
    # A designer's solitaire with castling: the automaton clause says "and never castle", so seats 1 and 3 are
    # never asked, on the state's random player, the bots' table and the compiled batch alike.
    path = rules('ruleset v "Solitaire with castling" extends solitaire\nchoose castling both\n')
    t = compile_ruleset(load(str(path)))
    assert t.never_castle == 0b1010
    import numpy as np
    from schachett_rules.playouts.batch import random_batch, uniforms
    out = random_batch(t, np.arange(300) % 4, uniforms(t, 300, np.random.default_rng(5)))
    batch_castlers = {int(s) for g in range(300) for s in out.castle_log[g, :out.castles[g], 2]}
    state_castlers, bot_castlers = set(), set()
    for g in range(300):
        s = State.deal(t, g % 4, GameStream(g, 0))
        s.play_randomly(GameStream(g, 1))
        state_castlers |= {c.seat for c in s.castles}
        game = play_game(t, g % 4, [make_bot("random", t)] * 4, GameStream(g, 2))
        bot_castlers |= {c.seat for c in game.castles}
    assert {1, 3}.isdisjoint(batch_castlers | state_castlers | bot_castlers)
    assert batch_castlers and state_castlers and bot_castlers        # the person's seats did castle


def test_an_automaton_the_castling_clause_reaches_must_say_whether_it_castles(rules):
    path = rules('ruleset v "V" extends solitaire\nchoose castling both\n'
                 'override automaton [§3 design]: seat 1, seat 3 play the lowest card\n')
    with pytest.raises(RuleCheckError, match=r"seat 1 is played by this rule, which says which card it plays but "
                                             r"not whether it castles.*`, and never castle`"):
        compile_ruleset(load(str(path)))


def test_an_automaton_is_refused_where_a_decision_comes_before_the_first_card(rules):
    # the automaton's rule chooses cards to play; Hearts asks every seat to pass three cards first (hearts:§2)
    path = rules('ruleset v "V" extends hearts\n'
                 'automaton [hearts:§1 design]: seat 1, seat 2 play the lowest card\n')
    with pytest.raises(RuleCheckError, match=r"seat 1, seat 2 are played by this rule.*ask a seat to pass cards, "
                                             r"of which the rule says nothing") as err:
        compile_ruleset(load(str(path)))
    assert ":2:1:" in str(err.value)
    # Euchre: an auction, and the dealer lays a card away after taking the turned card up
    path = rules('ruleset w "W" extends euchre\nautomaton [euchre:§1 design]: seat 3 play the highest card\n')
    with pytest.raises(RuleCheckError, match=r"seat 3 is played by this rule.*to bid and lay cards away"):
        compile_ruleset(load(str(path)))


def test_castling_must_say_how_many_castles_a_moment_allows(rules):
    path = rules('ruleset v "V" extends reconstruction\ndrop lacuna castle-moment\n')
    with pytest.raises(RuleCheckError, match=r"how many castles one moment allows"):
        compile_ruleset(load(str(path)))


def test_the_compiler_refuses_a_ruleset_that_leaves_the_dealer_and_the_stake_unsaid(rules):
    path = rules('ruleset v "V" extends original\ndrop dealer\ndrop stake\n')
    with pytest.raises(RuleCheckError) as err:
        compile_ruleset(load(str(path)))
    assert "must say who deals" in str(err.value) and "must say who settles the amount" in str(err.value)


# --- the kernel's state and the compiled state, side by side -----------------------------------------------

def _compare(state: State, walk: CompiledState) -> None:
    assert walk.phase == state.phase
    assert walk.decider() == state.decider()
    assert walk.hands() == state.hands and walk.points() == state.points
    if state.phase == PLAY:
        assert walk.legal_cards() == state.legal().mask
    elif state.phase == PASSING:
        assert walk.legal_cards() == sum(1 << a.card for a in state.legal_actions())
    if state.phase in (PASSING, AUCTION, CALL, EXCHANGE):
        # every decision before play: the same actions in the same order (the random player takes the k-th)
        assert walk.before_actions() == state.legal_actions()
    elif state.phase == CASTLE:
        seat, kings, offered = walk.castle_offer()
        offers = state.castle_offers()
        assert seat == offers[0].seat
        assert kings == sum(1 << o.king for o in offers)
        assert offered == sum(1 << c for c in offers[0].officers)


@pytest.mark.parametrize("ref,options", CASES, ids=lambda x: x if isinstance(x, str) else
                         ",".join(f"{k}={v}" for k, v in x) or "printed")
def test_the_state_and_the_compiled_state_walk_a_game_side_by_side(ref, options):
    t = tables_for(ref, options)
    castles = 0
    for g in range(12):
        rng = random.Random(g)
        state = State.deal(t, g % t.n_seats, GameStream(g, 0), game=g)     # the game's number turns the passing
        walk = CompiledState(state)
        depth = 0
        while not state.over:
            _compare(state, walk)
            actions = state.legal_actions()
            # castle where one is open, so that the castling moments are walked, not only passed
            castling = [a for a in actions if type(a) is Castle]
            action = castling[rng.randrange(len(castling))] if castling and rng.random() < 0.6 else \
                actions[rng.randrange(len(actions))]
            state.apply(action)
            walk.apply(action)
            depth += 1
            if rng.random() < 0.1:                  # and undo now and then, on both sides
                state.undo()
                walk.undo()
                _compare(state, walk)
                state.apply(action)
                walk.apply(action)
        _compare(state, walk)
        castles += len(state.castles)
        a = walk.arrays
        assert [tuple(row) for row in a.tricks[:, :3].tolist()] == [(w, p, ld) for ld, _c, w, _f, p, _e, _r in state.trick_log]
        kings = [(e.king, e.owner, e.taker, e.trick, e.order == "first", e.points)
                 for tr in state.tricks for e in tr.events]
        compiled_kings = [(t.deck.face_names[t.deck.card_face[int(a.tricks[trick, 3 + (owner - int(a.tricks[trick, 2])) % t.n_seats])]],
                           owner, int(a.tricks[trick, 0]), trick + 1, bool(first), pts)
                          for _kind, trick, owner, first, pts, _scorer in a.events[:a.regs[walk.c.N_EVENTS]].tolist()]
        assert compiled_kings == kings
    if t.castling is not None and t.castling.permits:
        assert castles > 0


# --- every driver's games replay through the state, move by move ---------------------------------------------

@pytest.mark.parametrize("bots", [("heuristic", "random"), ("mc", "heuristic")])
@pytest.mark.parametrize("ref", ["reconstruction", "three-player"])
def test_bot_games_replay_through_the_state_move_by_move(ref, bots):
    t = tables_for(ref)
    names = [bots[t.party_of[s]] for s in range(t.n_seats)]
    for g in range(3 if "mc" in bots else 8):
        players = [make_bot(n, t, **({"samples": 4} if n == "mc" else {})) for n in names]
        game = play_game(t, g % t.n_seats, players, GameStream(g, 0))
        record = record_of(game, ref, passes=True)
        again = state_of(record, t)
        # the same game record by record (the two copies of a face may change places, so names are compared)
        assert again.over and [r.model_dump() for r in again.log] == [r.model_dump() for r in game.log]
        assert again.result() == game.result()
        # without its passes the record replays to the same game: the next card or castle says them
        quiet = state_of(record_of(game, ref), t)
        quiet.lapse()
        assert quiet.result() == game.result() and [c.model_dump() for c in quiet.castles] == \
            [c.model_dump() for c in game.castles]


@pytest.mark.parametrize("ref", ["original", "reconstruction", "three-player", "six-players", "hearts", "schafkopf",
                                 "officers-schafkopf"])
def test_a_table_of_random_bots_plays_the_random_players_game_from_the_same_numbers(ref):
    # the random bot decides from its seat's view what the kernel's random player decides from the state (the
    # figures of How to play are searched with the latter, the bots play at tables): the same game, move by move
    t = tables_for(ref)
    for g in range(6):
        by_bots = play_game(t, g % t.n_seats, [make_bot("random", t) for _ in range(t.n_seats)], random.Random(g))
        walked = State.deal(t, g % t.n_seats, rng := random.Random(g))
        walked.play_randomly(rng)
        assert [r.model_dump() for r in walked.log] == [r.model_dump() for r in by_bots.log], (ref, g)
        assert walked.result() == by_bots.result()


def test_a_person_at_the_table_stops_the_walk_where_he_decides():
    t = tables_for("original")
    state = State.deal(t, 3, GameStream(6, 0))
    bots = {s: make_bot("random", t) for s in (1, 2, 3)} | {0: None}
    rng = GameStream(6, 1)
    asked = 0
    while (seat := state.advance(chooser(bots, rng))) != TERMINAL:
        assert seat == 0 and state.decider() == 0
        state.apply(state.legal_actions()[0])
        asked += 1
    assert state.over and asked == 13             # one card a trick, no castling in the printed game


def test_games_played_in_threads_are_the_games_played_one_after_another():
    # The tables are shared and never change; each thread plays the compiled one-game path on arrays of its
    # own, so a server or a bot may play in threads and every game comes out as it would alone.
    from concurrent.futures import ThreadPoolExecutor
    from schachett_rules.playouts.single import random_game
    t = tables_for("reconstruction")

    def games(first: int) -> list:
        return [random_game(t, g % 4, GameStream(g, 0)).totals for g in range(first, first + 150)]

    alone = [games(k * 150) for k in range(4)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(games, [k * 150 for k in range(4)]))
    assert together == alone
    with ThreadPoolExecutor(max_workers=4) as pool:          # and the kernel's state in threads, on its own
        states = list(pool.map(lambda g: State.deal(t, g % 4, GameStream(g, 0)), range(40)))
        list(pool.map(lambda s: s.play_randomly(GameStream(7, s.dealer)), states))
    assert all(s.over for s in states)


@pytest.mark.parametrize("name", ["original", "reconstruction"])
def test_s10_3_a_game_taken_up_at_a_position_numbers_its_tricks_by_the_game(name):
    # §10.3 (original): a player may look back at the previous trick. A game taken up at trick 12 by
    # State.at_position knows nothing before it; its own tricks must still be tricks 12 and 13 (the last with
    # the last trick's rules), and what a seat sees must show them by those numbers, not fail on the missing past.
    t = tables_for(name)
    whole = State.deal(t, 0, GameStream(11, 0))
    rng = random.Random(5)
    while whole.done < 11 or whole.phase != PLAY or whole.trick:
        _random_walk(whole, rng, 1)
    taken = [0] * len(t.parties)                             # the eleven tricks before, by the party that took each
    for tr in whole.tricks:
        taken[t.party_of[tr.winner]] += 1
    assert sum(taken) == 11
    part = State.at_position(t, whole.dealer, whole.hands, whole.leader, whole.trick, whole.done, whole.count,
                             whole.castled, whole.points, whole.card_points, tricks=taken)
    assert part.observation(0).tricks == ()                 # no trick of the log yet: none to look back at
    while not whole.over:
        action = whole.legal_actions()[rng.randrange(len(whole.legal_actions()))]
        whole.apply(action)
        part.apply(action)
        if part.phase == PLAY and not part.trick and not part.over:
            seen = part.observation(part.seat_to_play()).tricks
            assert [tr.number for tr in seen] == [part.done]     # the one previous trick, by the game's number
    assert [tr.number for tr in part.tricks] == [12, 13]
    assert part.tricks == whole.tricks[11:]                  # who took them and why, the last trick's rules too
    assert part.tricks[-1].last and not part.tricks[0].last
    # the score counts the tricks taken before the position with its own: all thirteen, as the whole game's
    assert part.result().tricks == whole.result().tricks and sum(part.result().tricks) == 13
    assert part.result().totals == whole.result().totals
