"""The exact open-hand solver against brute force: every line of small endgames enumerated by the kernel's state.

The brute force knows nothing of the solver: it walks every legal action (cards, castles, chances let go, the
automaton's card) through :class:`State` push and undo and takes, at each decision, the best final value for the
party of the seat deciding (the root's party maximises its points minus the others', every other seat minimises
it). The solver must find the same value, a line that reaches it, and never do worse than that value against any
play of the other party (the meaning of "the best result a party can force").
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from schachett_rules.engine.replay import replay
from schachett_rules.kernel.actions import CASTLE, PLAY
from schachett_rules.kernel.compiler import tables_for
from schachett_rules.kernel.state import State
from schachett_rules.kernel.streams import GameStream
from schachett_rules.search.exact import SearchLimit, Solver
from schachett_rules.studies import example12 as ex
from tests.lane import many


def brute(state: State, side: int, totals=None) -> int:
    """The minimax value by enumerating every line (no pruning, no table); ``totals(state)``: the parties' totals
    at the end (default: their points)."""
    if state.over:
        return sum(p if i == side else -p for i, p in enumerate(state.points if totals is None else totals(state)))
    rule = state.rule_action()
    actions = [rule] if rule is not None else state.legal_actions()
    mover = state.t.party_of[state.decider()]
    values = []
    for action in actions:
        state.push(action)
        values.append(brute(state, side, totals))
        state.undo()
    return max(values) if mover == side else min(values)


def endgame(ruleset: str, seed: int, left: int, options=(), castle: bool = True) -> State:
    """A game of ``ruleset`` dealt from ``seed`` and played at random until ``left`` tricks remain (without
    ``castle``, every chance to castle is let go)."""
    t = tables_for(ruleset, options)
    rng = random.Random(seed)
    game = State.deal(t, seed % t.n_seats, GameStream(seed, 0))
    while not game.over and (game.done < t.n_tricks - left or game.phase != PLAY):
        rule = game.rule_action()
        actions = game.legal_actions()
        game.apply(rule if rule is not None else rng.choice(actions) if castle else actions[-1])
    return game


@pytest.mark.parametrize("ruleset", ["schafkopf", "wendish-schafkopf", "euchre", "five-hand-euchre"])
def test_the_solver_plays_each_contract_by_its_own_order_of_the_cards(ruleset):
    # a Solo makes another suit trumps, a Wenz leaves only the Unters as trumps, and a Euchre suit made trumps
    # takes in the other Jack of its colour: which cards play alike and which form chains of the table's key are
    # the contract's own, not those of the ruleset's first contract; and a hand played alone leaves its partner
    # out of every trick (Euchre seed 9: the search once asked the seat sitting out for a card). One solver
    # answers every game in turn, its table kept, as a sampling player's does; Euchre counts the cards taken
    t = tables_for(ruleset)
    solver = Solver(t, table_bits=16)
    totals = solver.worth_so_far if "euchre" in ruleset else None
    contracts = set()
    for seed in range(80):
        game = endgame(ruleset, seed, 3)
        if game.over or (game.t.beats, game.t.follow) == (t.beats, t.follow):
            continue
        side = solver.side_of(game)
        assert solver.value(game) == brute(game.clone(), side, totals), f"seed {seed}, contract {game.contract}"
        contracts.add((game.contract, game.trump))
    assert len(contracts) >= 2


SOLVERS: dict = {}


def solver_for(t) -> Solver:
    if t.name + str(t.options) not in SOLVERS:
        SOLVERS[t.name + str(t.options)] = Solver(t, table_bits=16)
    return SOLVERS[t.name + str(t.options)]


CASES = [("original", (), 3), ("reconstruction", (), 3), ("ai-reconstruction", (), 3), ("three-player", (), 3),
         ("two-player", (), 3), ("solitaire", (), 4), ("original", (("castling", "as-three-player"),), 2)]


@pytest.mark.parametrize("ruleset,options,left", CASES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_par_equals_the_brute_force_minimax_of_every_line(ruleset, options, left, seed):
    game = endgame(ruleset, seed, left, options)
    solver = solver_for(game.t)
    side = game.t.party_of[game.decider()]
    par = solver.par(game)
    assert par.side == side
    assert par.value == brute(game.clone(), side)
    # the line is a real game: the kernel plays it and it ends where the solver says
    line = game.clone()
    for action in par.line:
        line.apply(action)
    assert line.over and tuple(line.points) == par.totals
    assert par.totals[side] - sum(p for i, p in enumerate(par.totals) if i != side) == par.value


def castle_decisions(state: State) -> int:
    """How many moments of castling with a choice some line from here reaches."""
    if state.over:
        return 0
    rule = state.rule_action()
    count = int(state.phase == CASTLE)
    for action in [rule] if rule is not None else state.legal_actions():
        state.push(action)
        count += castle_decisions(state)
        state.undo()
    return count


@pytest.mark.parametrize("reading", ["as-three-player", "both"])
def test_castling_is_searched_as_the_castlers_decision(reading):
    # §5's readings with castling late in the game: between tricks (as-three-player) or a rescue in any trick
    options = (("castling", reading),)
    for seed in range(60):
        game = endgame("original", seed, 2, options, castle=False)
        if castle_decisions(game.clone()):
            side = game.t.party_of[game.decider()]
            assert solver_for(game.t).value(game) == brute(game.clone(), side)
            return
    pytest.fail("no endgame with a chance to castle among 60 seeds")


def test_four_tricks_left_of_the_printed_game():
    game = endgame("original", 11, 4)
    side = game.t.party_of[game.decider()]
    assert solver_for(game.t).value(game) == brute(game.clone(), side)


def test_the_s12_witness_game_solved_from_its_last_tricks():
    # the real game of the §12 study that ends 190 against 68: from its last three tricks on, the solver's par
    # agrees with every line enumerated
    t = tables_for("original", (("king-order", "by-fate"), ("promoted-points", "knight-only"),
                                ("remaining", "each-hand")))
    scenario = next(s for s in ex.scenarios(t) if s.viable)
    record = ex.find_witness(t, scenario, budget=60_000, seed=1)
    assert record is not None and sorted(replay(record).result.totals) == [68, 190]
    game = State.from_record(t, record.dealer, record.hands)
    for action in record.actions[:4 * 10]:
        game.play(action)
    side = t.party_of[game.decider()]
    assert solver_for(t).value(game) == brute(game.clone(), side)


def one_king_fallen(ruleset: str, options, left: int, seeds=range(200)):
    """Endgames with ``left`` tricks to go where one King has fallen and the other is still held."""
    t = tables_for(ruleset, options)
    for seed in seeds:
        game = endgame(ruleset, seed, left, options)
        held = sum((h & t.royal_cards).bit_count() for h in game.hands)
        if game.count.total == 1 and held == 1 and not game.trick:
            yield game


@pytest.mark.parametrize("order", ["by-fate", "both-first", "per-event"])
def test_s7_to_s9_par_once_the_first_king_has_fallen(order):
    # the search bounds a King still held by its later points once the first King's are gone (§7: "for the
    # later-captured 2nd King, only six times the remaining cards"); where each kind of event has its own 1st
    # King, a later King may still earn another event's first points
    games = list(one_king_fallen("original", (("king-order", order),), 3))[:12]
    assert len(games) == 12
    for game in games:
        side = game.t.party_of[game.decider()]
        assert solver_for(game.t).value(game) == brute(game.clone(), side)


def test_s7_the_room_left_once_the_first_king_has_fallen():
    # what the points still to come can move a value, from §12's card points and §7's later King: six times the
    # cards each player holds (the largest of §7 to §9's later points), not the first King's 100 more
    game = next(one_king_fallen("original", (), 5))
    t = game.t
    points = {"D": 12, "T": 11, "L": 10, "S": 9}
    cards = 0
    for hand in game.hands:
        for card in range(t.n_cards):
            if hand >> card & 1:
                name = t.deck.card_name(card)
                cards += 9 if name[1:] == "IV" else points.get(name[1:], int(name[1:]) if name[1:].isdigit() else 0)
    assert Solver(t)._room(game) == cards + 6 * 5


@pytest.mark.parametrize("order,shared", [("by-fate", True), ("per-event", False)])
def test_s7_to_s9_positions_alike_but_for_how_the_first_king_fell_share_an_entry(order, shared):
    # of the Kings fallen the future asks only whether the first King's points are gone: by fate (one 1st King in
    # all), a position after a checkmate is the one after a stalemate; where each event has its own 1st King
    # (per event), it is not, since a stalemate's first points are still to be had after a checkmate
    from schachett_rules.playouts import compiled as c
    from schachett_rules.playouts.walk import CompiledState
    from schachett_rules.search import alphabeta as ab
    game = next(one_king_fallen("original", (("king-order", order),), 5))
    solver, walk = Solver(game.t), CompiledState(game)
    chains, chained = solver.extra[4], solver.extra[5]
    events = [e.name for e in game.t.events]

    def key(fallen: int, event: str | None):
        walk.arrays.regs[c.FALLEN] = fallen
        walk.arrays.each[0, :] = 0
        if event is not None:
            walk.arrays.each[0, events.index(event)] = fallen
        return ab._keys(walk.tables[0], walk.arrays.hands, walk.arrays.regs, walk.arrays.each, 0, chains, chained,
                        len(chains))

    assert (key(1, "checkmate") == key(1, "stalemate")) == shared
    assert key(1, "checkmate") != key(0, None)


def _card(t, name: str) -> int:
    # the one card of a face dealt once
    return t.deck.face_cards[t.face(name)].bit_length() - 1


def _places_of(solver: Solver, names: list[str]) -> int:
    # the places bits of the named cards, as the table's key marks the cards still held (alphabeta._places)
    t, chains, spans = solver.t, solver.extra[4], solver.extra[7]
    out = 0
    for name in names:
        card = _card(t, name)
        ch, i = [(ch, i) for ch in range(len(chains)) for i in range(chains.shape[1]) if chains[ch, i] == card][0]
        out |= 1 << int(spans[ch, 0] + i)
    return out


@pytest.mark.parametrize("held,other,gap", [(["w8", "w5"], ["w7", "w5"], 1), (["w8", "w2"], ["w3", "w1"], 6),
                                            (["s6"], ["s1"], 5), (["w4", "s4"], ["w4", "s4"], 0)])
def test_s12_pawns_alike_but_for_their_numbers_bound_each_other_by_the_points_between(held, other, gap):
    # §12: a pawn scores its number. Two positions whose pawns of a colour lie in the same order of holders play
    # alike move for move, the k-th pawn left in one standing for the k-th in the other; every line's value then
    # differs by the points between the pawns so paired at the most (w8 for w7: 1; w8, w2 for w3, w1: 5 + 1)
    import numpy as np
    from schachett_rules.search import alphabeta as ab
    solver = Solver(tables_for("original"), table_bits=10)
    chain_worth, spans = solver.extra[6], solver.extra[7]
    x, y = _places_of(solver, held), _places_of(solver, other)
    assert ab._gap(chain_worth, spans, np.uint64(x), np.uint64(y)) == gap


def test_s12_positions_alike_but_for_which_pawns_are_gone_share_an_entry_and_are_solved_exactly():
    # a pawn in a hand swapped for a pawn of its colour already gone, none of that colour held between them: the
    # table keys both positions as one, and a solver that has solved the one gives the other's exact value
    from schachett_rules.playouts.walk import CompiledState
    from schachett_rules.search import alphabeta as ab
    t = tables_for("original")
    pairs, seeds = 0, many(40)
    for seed in range(seeds):
        game = endgame("original", seed, 3, castle=False)
        held = [c for h in game.hands for c in range(t.n_cards) if h >> c & 1]
        for seat, hand in enumerate(game.hands):
            for card in range(t.n_cards):
                name = t.deck.card_name(card)
                if not (hand >> card & 1) or not name[1:].isdigit():
                    continue
                colour, number = name[0], int(name[1:])
                for step in (-1, 1):
                    gone = f"{colour}{number + step}"
                    if not 1 <= number + step <= 8 or _card(t, gone) in held:
                        continue
                    twin = game.clone()
                    twin.hands[seat] = hand & ~(1 << card) | 1 << _card(t, gone)
                    solver = Solver(t, table_bits=16)
                    keys = []
                    for g in (game, twin):
                        walk = CompiledState(g)
                        a = walk.arrays
                        k1, k2 = ab._keys(walk.tables[0], a.hands, a.regs, a.each, 0, solver.extra[4],
                                          solver.extra[5], len(solver.extra[4]))
                        keys.append((int(k1), int(k2) >> 32))
                    assert keys[0] == keys[1]
                    side = t.party_of[game.decider()]
                    truth = brute(game.clone(), side), brute(twin.clone(), side)
                    assert abs(truth[0] - truth[1]) <= 1          # one point between the two pawns
                    assert (solver.value(game, side), solver.value(twin, side)) == truth
                    pairs += 1
                    break
    assert pairs >= seeds // 4


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), mine=st.booleans())
def test_the_solvers_party_never_does_worse_than_par_whatever_the_others_play(seed, mine):
    # par is what the party can *force*: following the solver's moves against random play of the other party
    # never ends below it, and random play against the solver's other party never ends above it
    game = endgame("original", seed, 5)
    t = game.t
    solver = solver_for(t)
    side = t.party_of[game.decider()]
    par = solver.value(game)
    rng = random.Random(seed)
    while not game.over:
        mover = t.party_of[game.decider()]
        if (mover == side) == mine:
            actions = game.legal_actions()
            values = solver.move_values(game, side=side)
            pick = max if mover == side else min
            game.apply(pick(values, key=lambda av: av[1])[0])
        else:
            game.apply(rng.choice(game.legal_actions()))
    final = game.points[side] - game.points[1 - side]
    assert final >= par if mine else final <= par


def test_a_horizon_with_play_outs_is_reproducible_and_exact_where_it_reaches_the_end():
    game = endgame("original", 7, 3)
    solver = solver_for(game.t)
    exact = solver.move_values(game)
    # a horizon past the last trick never stops early, so its play-outs are never asked
    assert solver.move_values(game, horizon=5, rollouts=4, seed=9) == exact
    early = endgame("original", 7, 9)
    once = solver.move_values(early, horizon=1, rollouts=3, seed=11)
    assert solver.move_values(early, horizon=1, rollouts=3, seed=11) == once
    assert [a for a, _ in once] == early.legal_actions() and all(isinstance(v, int) for _, v in once)


def test_greedy_play_outs_follow_the_automatons_rule_and_draw_no_numbers():
    # every seat plays the cheapest card that takes (kernel.core.automaton_pick), so in a ruleset without
    # castling the values cannot depend on the generator's seed
    early = endgame("original", 5, 9)
    solver = solver_for(early.t)
    one = solver.move_values(early, horizon=1, rollouts=1, seed=1, playout="greedy")
    assert solver.move_values(early, horizon=1, rollouts=1, seed=2, playout="greedy") == one
    assert one != solver.move_values(early, horizon=1, rollouts=1, seed=1)


@pytest.mark.parametrize("ruleset", ["original", "reconstruction", "ai-reconstruction", "whist", "schafkopf",
                                     "dreiwendsch", "officers-schafkopf"])
def test_keys_by_chains_give_the_values_of_keys_by_cards(ruleset):
    # the table keys a chain's cards by the order of their holders (a chain of pawns, or of Schafkopf's trumps,
    # with an entry's bounds moved out by the points between the cards that stand for each other): every value is
    # the one found when every card is keyed by itself, position after position with the table kept between them
    t = tables_for(ruleset)
    by_chains, by_cards = Solver(t, table_bits=18), Solver(t, table_bits=18, by_chains=False)
    for seed in range(6):
        game = endgame(ruleset, seed, 5)
        while game.phase != PLAY:
            game.apply(game.legal_actions()[0])
        assert by_chains.value(game) == by_cards.value(game)


def test_the_solver_runs_as_plain_python_with_numba_switched_off():
    # NUMBA_DISABLE_JIT=1 makes every compiled function its plain source, the way to step through the search in a
    # debugger: the search must import and agree there with every line enumerated
    import os
    import subprocess
    import sys
    script = ("import sys; sys.path.insert(0, 'tests'); from test_solver import brute, endgame, Solver;"
              "g = endgame('original', 11, 2); side = g.t.party_of[g.decider()];"
              "print(Solver(g.t, table_bits=10).value(g), brute(g.clone(), side))")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    solved, enumerated = out.stdout.split()
    assert solved == enumerated


def test_a_budget_bounds_the_positions_of_the_whole_question():
    # the budget counts every search of a question (the value's narrowing and the line), not each search alone
    game = endgame("original", 3, 6)
    total = Solver(game.t).par(game).nodes
    for budget in (total // 3, total - 1):
        solver = Solver(game.t)
        with pytest.raises(SearchLimit):
            solver.par(game, budget=budget)
        assert solver.nodes <= budget + 1          # the search that stops counts the position it stops at
    assert Solver(game.t).par(game, budget=total).nodes == total


def test_a_search_past_its_budget_says_what_it_had_proved():
    # the range it stopped at holds the value every line enumerated gives; a larger budget asks the same questions
    # further, so the ranges nest; a budget one short of the whole question misses only the line
    game = endgame("original", 3, 3)
    side = game.t.party_of[game.decider()]
    truth = brute(game.clone(), side)
    total = Solver(game.t).par(game).nodes
    ranges = []
    for budget in (total // 8, total // 4, total // 2, total - 1):
        with pytest.raises(SearchLimit) as stopped:
            Solver(game.t).par(game, budget=budget)
        low, high = stopped.value.low, stopped.value.high
        assert low <= truth <= high
        assert stopped.value.party == game.t.party_names[side]
        ranges.append((low, high))
    assert all(a <= c and d <= b for (a, b), (c, d) in zip(ranges, ranges[1:]))
    assert ranges[0][0] < ranges[0][1] and ranges[-1] == (truth, truth)
    assert f"final value, {truth:+d}, but not yet a line" in str(stopped.value)


def test_progress_hears_the_value_narrowed_to_par_then_the_line():
    game = endgame("original", 5, 5)
    heard = []
    par = Solver(game.t).par(game, progress=lambda low, high, nodes: heard.append((low, high, nodes)))
    lows, highs, nodes = zip(*heard)
    assert list(lows) == sorted(lows) and list(highs) == sorted(highs, reverse=True)
    assert list(nodes) == sorted(nodes) and nodes[-1] == par.nodes
    assert heard[-1][:2] == (par.value, par.value)
    # after the value is known, one report for every action of the line
    assert sum(1 for low, high, _ in heard if low == high == par.value) >= len(par.line)


@settings(max_examples=200, deadline=None)
@given(lo=st.one_of(st.just(-(1 << 40)), st.integers(-(1 << 31) + 2, (1 << 31) - 2)),
       hi=st.one_of(st.just(1 << 40), st.integers(-(1 << 31) + 2, (1 << 31) - 2)),
       move=st.integers(-1, (1 << 23) - 1), asked=st.integers(0, 1 << 38))
def test_a_table_entry_gives_back_the_bounds_and_the_move_it_was_given(lo, hi, move, asked):
    # an entry keeps the future's bounds (an unbounded side as +-2**40 in the search) and the best move (a pass
    # is -1) with the tricks left and the question's number, two to a 64-bit word
    from schachett_rules.search import alphabeta as ab
    word = ab._bounds(lo, hi)
    assert -(1 << 63) <= word < 1 << 63                        # it fits the table's int64 column
    assert (ab._low(word), ab._high(word)) == (lo, hi)
    packed = ab._move_asked(move, asked)
    assert -(1 << 63) <= packed < 1 << 63
    assert (ab._move(packed), ab._asked(packed)) == (move, asked)


def test_a_stored_solitaire_survey_is_keyed_by_the_code_that_solved_it(monkeypatch):
    # a survey is the solver's verdict on each deal: one stored before the solver or a rule changed must not be
    # served after it
    from schachett_rules.studies import solitaire
    before = solitaire.survey_key("solitaire", 10, 0, 1000, 5)
    assert solitaire.survey_key("solitaire", 10, 0, 1000, 5) == before
    assert solitaire.survey_key("solitaire", 11, 0, 1000, 5) != before
    monkeypatch.setattr(solitaire, "code_version", lambda: "0.0+another")
    assert solitaire.survey_key("solitaire", 10, 0, 1000, 5) != before
