"""Benchmarks: play-out speed and the time to parse, check and compile a ruleset.

Speed is measured here and printed, never asserted in a test. Run it with
``schachett bench`` or ``python benchmarks/bench_engine.py``.
"""

from __future__ import annotations

import platform
import statistics
import time

from ..kernel.compiler import compile_ruleset, tables_for
from ..kernel.state import State
from ..rules.loader import load
from ..playouts.single import random_game
from ..kernel.streams import GameStream


def playouts_per_second(ref: str, games: int) -> float:
    """Random full games per second through the fast play-out path, one core (game ``i`` numbered ``i`` in its
    session, so that a passing clause turns its direction from game to game)."""
    t = tables_for(ref)
    start = time.perf_counter()
    for i in range(games):
        random_game(t, i % t.n_seats, GameStream(1, i), game=i)
    return games / (time.perf_counter() - start)


def recorded_per_second(ref: str, games: int) -> float:
    """Random full games per second through the recorded engine (a frozen record per card)."""
    t = tables_for(ref)
    start = time.perf_counter()
    for i in range(games):
        rng = GameStream(1, i)
        g = State.deal(t, i % t.n_seats, rng)
        g.play_randomly(rng)
        g.result()
    return games / (time.perf_counter() - start)


def batch_per_second(ref: str, games: int, chunk: int = 10000) -> float:
    """Random full games per second through the compiled batch, one core, uniform numbers included (the games
    numbered as :func:`playouts_per_second` numbers them)."""
    import numpy as np

    from ..playouts.batch import draws_per_game, random_batch
    from ..playouts.streams import block_uniforms
    t = tables_for(ref)
    random_batch(t, np.arange(100) % t.n_seats, block_uniforms(2, np.arange(100), draws_per_game(t)))  # warm up
    start = time.perf_counter()
    done = 0
    while done < games:
        size = min(chunk, games - done)
        numbers = np.arange(done, done + size)
        random_batch(t, numbers % t.n_seats, block_uniforms(1, numbers, draws_per_game(t)), numbers)
        done += size
    return games / (time.perf_counter() - start)


def state_pairs_per_second(ref: str, games: int = 200, verified: bool = False) -> float:
    """Actions applied and undone per second on the kernel's State (Python): a random walk down each game, then
    back up. ``verified``: through :meth:`State.apply` (checked, with its record) rather than :meth:`State.push`."""
    import random

    from ..kernel.state import State
    t = tables_for(ref)
    rng = random.Random(1)
    pairs, start = 0, time.perf_counter()
    for i in range(games):
        state = State.deal(t, i % t.n_seats, GameStream(1, i))
        depth = 0
        while not state.over:
            actions = state.legal_actions()
            action = actions[int(rng.random() * len(actions))]
            state.apply(action) if verified else state.push(action)
            depth += 1
        for _ in range(depth):
            state.undo()
        pairs += depth
    return pairs / (time.perf_counter() - start)


def compiled_pairs_per_second(ref: str, steps: int = 2_000_000) -> float:
    """Actions applied and undone per second on the compiled state (:func:`~..playouts.compiled.walk_randomly`)."""
    import numpy as np

    from ..kernel.state import State
    from ..playouts.walk import CompiledState
    t = tables_for(ref)
    walk = CompiledState(State.deal(t, 3 % t.n_seats, GameStream(2, 0)))
    u = np.random.default_rng(3).random(4096)
    walk.walk(u, 1000)                                     # warm up (and compile, the first time)
    start = time.perf_counter()
    done = walk.walk(u, steps)
    return done / (time.perf_counter() - start)


def speed_up(ref: str, games: int, bots: tuple[str, ...] = ("random",), workers: int = 2) -> tuple[float, float, float]:
    """Games per second of a whole simulation (statistics included) on one core and on ``workers``, and the ratio."""
    from .simulate import Spec, run
    run(Spec(ruleset=ref, games=min(games, 2000), seed=99, bots=bots))  # warm the caches of this process
    rates = []
    for w in (1, workers):
        start = time.perf_counter()
        run(Spec(ruleset=ref, games=games, seed=5, bots=bots), workers=w)
        rates.append(games / (time.perf_counter() - start))
    return rates[0], rates[1], rates[1] / rates[0]


def compile_milliseconds(ref: str, repeat: int = 30) -> tuple[float, float]:
    """Median and best time, in ms, to parse, check and compile a ruleset (after the first, warm-up run)."""
    compile_ruleset(load(ref))
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        compile_ruleset(load(ref))
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), min(times)


def run_all(games: int = 20000, ref: str = "original") -> str:
    """All measurements as a short report."""
    fast = playouts_per_second(ref, games)
    recorded = recorded_per_second(ref, max(100, games // 10))
    batch = batch_per_second(ref, max(games, 50000))
    median, best = compile_milliseconds(ref)
    pushed, applied = state_pairs_per_second(ref), state_pairs_per_second(ref, verified=True)
    compiled = compiled_pairs_per_second(ref)
    one, two, ratio = speed_up(ref, max(games * 20, 400000))
    h_one, h_two, h_ratio = speed_up(ref, 1200, ("heuristic", "random"))
    return "\n".join([
        f"machine: {platform.machine()}, Python {platform.python_version()}, one core",
        f"fast play-outs ({ref}):   {fast:10,.0f} random games/s   (target ≥ 15,000)",
        f"recorded engine ({ref}):  {recorded:10,.0f} random games/s   (a frozen record per card and trick)",
        f"compiled batch ({ref}):   {batch:10,.0f} random games/s   (target ≥ 175,000)",
        f"parse + check + compile:  {median:8.1f} ms median, {best:.1f} ms best   (target ≤ 30 ms)",
        f"state, apply + undo:      {pushed:10,.0f} pairs/s pushed, {applied:,.0f} verified with records, "
        f"{compiled:,.0f} compiled",
        f"simulate, random bots:    {one:10,.0f} games/s on 1 core, {two:,.0f} on 2: speed-up {ratio:.2f}",
        f"simulate, heuristic bots: {h_one:10,.0f} games/s on 1 core, {h_two:,.0f} on 2: speed-up {h_ratio:.2f}",
    ])
