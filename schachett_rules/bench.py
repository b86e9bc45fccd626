"""Benchmarks: play-out speed and the time to parse, check and compile a ruleset.

Speed is measured here and printed, never asserted in a test. Run it with
``schachett bench`` or ``python benchmarks/bench_engine.py``.
"""

from __future__ import annotations

import platform
import statistics
import time

from .compiler import compile_ruleset, tables_for
from .engine import Game
from .loader import load
from .playout import random_game
from .simulate import game_rng


def playouts_per_second(ref: str, games: int) -> float:
    """Random full games per second through the fast play-out path, one core."""
    t = tables_for(ref)
    start = time.perf_counter()
    for i in range(games):
        random_game(t, i % t.n_seats, game_rng(1, i))
    return games / (time.perf_counter() - start)


def recorded_per_second(ref: str, games: int) -> float:
    """Random full games per second through the recorded engine (a frozen record per card)."""
    t = tables_for(ref)
    start = time.perf_counter()
    for i in range(games):
        rng = game_rng(1, i)
        g = Game.deal(t, i % t.n_seats, rng)
        g.play_randomly(rng)
        g.result()
    return games / (time.perf_counter() - start)


def batch_per_second(ref: str, games: int, chunk: int = 10000) -> float:
    """Random full games per second through the numpy batch, one core, uniform numbers included."""
    import numpy as np

    from .batch import draws_per_game, random_batch
    from .streams import block_uniforms
    t = tables_for(ref)
    start = time.perf_counter()
    done = 0
    while done < games:
        size = min(chunk, games - done)
        numbers = np.arange(done, done + size)
        random_batch(t, numbers % t.n_seats, block_uniforms(1, numbers, draws_per_game(t)))
        done += size
    return games / (time.perf_counter() - start)


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
    return "\n".join([
        f"machine: {platform.machine()}, Python {platform.python_version()}, one core",
        f"fast play-outs ({ref}):   {fast:10,.0f} random games/s   (target ≥ 15,000)",
        f"recorded engine ({ref}):  {recorded:10,.0f} random games/s   (a frozen record per card and trick)",
        f"numpy batch ({ref}):      {batch:10,.0f} random games/s   (target ≥ 175,000)",
        f"parse + check + compile:  {median:8.1f} ms median, {best:.1f} ms best   (target ≤ 30 ms)",
    ])
