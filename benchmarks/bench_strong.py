"""Speed of the exact solver and of the strong players, for original and reconstruction.

    python benchmarks/bench_strong.py [DEALS] [GAMES]

For each ruleset: the solver's positions per second and the median and 90th percentile time to solve a deal
from 5, 7 and 9 tricks before its end (DEALS deals each, played there at random; a whole 13-trick deal is
tried with a budget and reported as solved or not); each bot's time per decision over GAMES games against
the heuristic player (the median, the 90th percentile and the slowest); and strong games (dd in every seat) per
second on one core. One process, one core.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

import numpy as np

from schachett_rules.kernel.compiler import tables_for
from schachett_rules.kernel.state import State
from schachett_rules.kernel.streams import GameStream
from schachett_rules.players import make_bot
from schachett_rules.players.bots import chooser
from schachett_rules.search.exact import Solver

BOTS = ("random", "heuristic", "mc", "dd", "ismcts")
FULL_BUDGET = 30_000_000


def at_trick(t, seed: int, left: int) -> State:
    """Deal ``seed`` played at random until ``left`` tricks remain (a card due)."""
    rng = random.Random(seed)
    game = State.deal(t, seed % t.n_seats, GameStream(seed, 0))
    while game.done < t.n_tricks - left or game.phase_name != "play":
        rule = game.rule_action()
        game.push(rule if rule is not None else rng.choice(game.legal_actions()))
    return game


def percentile(xs: list[float], q: float) -> float:
    """The ``q``-quantile of some figures, between the two nearest of them in order (numpy's default), so that it
    never falls below the median for q above one half: of two figures, the 90th percentile lies nine tenths of the
    way from the lower to the higher.

    >>> percentile([1.0, 2.0], 0.9), percentile([3.0, 1.0, 2.0], 0.5), percentile([5.0], 0.9)
    (1.9, 2.0, 5.0)
    """
    return float(np.percentile(xs, q * 100))


def quantiles(xs: list[float]) -> str:
    """The median and the 90th percentile of some times (seconds), in milliseconds."""
    return f"median {statistics.median(xs) * 1000:8.1f} ms, p90 {percentile(xs, 0.9) * 1000:8.1f} ms"


def bench_solver(name: str, deals: int) -> list[str]:
    t = tables_for(name)
    lines = [f"  solver, {name}"]
    for left in (5, 7, 9):
        times, nodes = [], 0
        solver = Solver(t, table_bits=21)
        for seed in range(deals):
            game = at_trick(t, seed, left)
            solver.clear()
            before = solver.nodes
            start = time.perf_counter()
            solver.value(game)
            times.append(time.perf_counter() - start)
            nodes += solver.nodes - before
        lines.append(f"    {left:>2} tricks left: {quantiles(times)}; {nodes / sum(times):,.0f} positions/s")
    solver = Solver(t, table_bits=22)
    game = State.deal(t, 0, GameStream(0, 0))
    while game.phase != 2:
        game.push(game.legal_actions()[-1])
    start = time.perf_counter()
    value = solver.value(game, budget=FULL_BUDGET)
    spent = time.perf_counter() - start
    lines.append(f"    a whole deal (seed 0): " + (f"solved in {spent:.1f} s" if value is not None else
                                                 f"not solved within {FULL_BUDGET:,} positions ({spent:.0f} s)"))
    return lines


def bench_bots(name: str, games: int) -> list[str]:
    t = tables_for(name)
    lines = [f"  time per decision, {name} ({games} games against the heuristic player, each bot in each party)"]
    for bot_name in BOTS:
        times = []
        for g in range(games):
            bot, other = make_bot(bot_name, t), make_bot("heuristic", t)
            stream = GameStream(g, 0)
            state = State.deal(t, g % t.n_seats, stream)
            seats = [bot if t.party_of[s] == g % 2 else other for s in range(t.n_seats)]
            inner = chooser(seats, stream)

            def choose(seat, st, inner=inner, seats=seats, bot=bot):
                start = time.perf_counter()
                action = inner(seat, st)
                if seats[seat] is bot:
                    times.append(time.perf_counter() - start)
                return action
            state.advance(choose)
        lines.append(f"    {bot_name:<10} {quantiles(times)}, slowest {max(times) * 1000:7.1f} ms")
    start = time.perf_counter()
    strong = max(1, games // 2)
    for g in range(strong):
        stream = GameStream(g, 1)
        state = State.deal(t, g % t.n_seats, stream)
        state.advance(chooser([make_bot("dd", t) for _ in range(t.n_seats)], stream))
    lines.append(f"    strong games (dd in every seat): {strong / (time.perf_counter() - start):.2f} per second")
    return lines


def main() -> None:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    for name in ("original", "reconstruction"):
        for line in bench_solver(name, deals) + bench_bots(name, games):
            print(line, flush=True)


if __name__ == "__main__":
    main()
