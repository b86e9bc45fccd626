"""Our random play-outs beside OpenSpiel's Hearts: python benchmarks/bench_openspiel.py [--games N].

Both games deal 52 cards to four players and play 13 tricks, so random full
games per second compare fairly; Hearts adds 12 passed cards before the play.
Everything runs in this one process, on one core:

* ours, one game at a time: :func:`schachett_rules.simulation.bench.playouts_per_second`;
* ours, the numpy batch (10,000 games at a time, random numbers included):
  :func:`schachett_rules.simulation.bench.batch_per_second`;
* OpenSpiel's ``hearts`` (C++), a full game per ``pyspiel.evaluate_bots`` call
  with a uniform random bot in every seat, chance outcomes sampled from the seed.

OpenSpiel is not a dependency of this project and this script installs nothing:
``pip install open-spiel`` to add its column. Each figure is the median of
``--repeat`` timed runs (after a short warm-up), with the slowest and fastest.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):   # numpy on one core
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import platform  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

from schachett_rules.simulation.bench import batch_per_second, playouts_per_second  # noqa: E402


def measure(rate, repeat: int) -> tuple[float, float, float]:
    """Median, lowest and highest of ``repeat`` calls of ``rate()`` (games per second)."""
    rates = [rate() for _ in range(repeat)]
    return statistics.median(rates), min(rates), max(rates)


def hearts_per_second(games: int, seed: int = 1) -> float:
    """OpenSpiel Hearts, uniform random bots in all four seats: full games per second."""
    import pyspiel
    game = pyspiel.load_game("hearts")
    bots = [pyspiel.make_uniform_random_bot(player, seed + player) for player in range(game.num_players())]
    start = time.perf_counter()
    for i in range(games):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed * 1_000_003 + i)
    return games / (time.perf_counter() - start)


def cpu_name() -> str:
    """The processor's model name (from /proc/cpuinfo on Linux)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown cpu"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default="original")
    ap.add_argument("--games", type=int, default=20000, help="games per run, one at a time (ours)")
    ap.add_argument("--batch-games", type=int, default=100000, help="games per run, numpy batch (ours)")
    ap.add_argument("--hearts-games", type=int, default=20000, help="games per run, OpenSpiel Hearts")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs of each (the median is reported)")
    args = ap.parse_args()

    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count()
    print(f"machine: {platform.platform()}, {cpu_name()}")
    print(f"python {platform.python_version()} ({platform.python_implementation()}), "
          f"{os.cpu_count()} CPUs ({cores} usable); every figure from this one process on one core")

    try:
        import pyspiel
        spiel = getattr(pyspiel, "__version__", None)
        if spiel is None:
            from importlib.metadata import version
            spiel = version("open-spiel")
    except ImportError:
        pyspiel = None

    # warm-up: compile the tables, build the batch plan, load the game
    playouts_per_second(args.ruleset, 200)
    batch_per_second(args.ruleset, 2000, chunk=1000)
    if pyspiel is not None:
        hearts_per_second(200)

    rows = [("Schachett, fast play-out path (one game at a time)",
             measure(lambda: playouts_per_second(args.ruleset, args.games), args.repeat), args.games),
            ("Schachett, numpy batch (10,000 games at a time)",
             measure(lambda: batch_per_second(args.ruleset, args.batch_games), args.repeat), args.batch_games)]
    if pyspiel is not None:
        rows.append((f"OpenSpiel {spiel} hearts, uniform random bots",
                     measure(lambda: hearts_per_second(args.hearts_games), args.repeat), args.hearts_games))

    print()
    print(f"random full games per second ({args.ruleset}; median of {args.repeat} runs, [slowest, fastest])")
    for label, (median, low, high), games in rows:
        print(f"  {label:<52} {median:>11,.0f}   [{low:,.0f}, {high:,.0f}]   {games:,} games a run")
    if pyspiel is None:
        print("  OpenSpiel hearts: not measured, pyspiel is not installed (pip install open-spiel; "
              "it is not a dependency of this project)")
        return
    hearts = rows[2][1][0]
    print()
    print("ratios (median against median)")
    print(f"  fast play-out path / OpenSpiel hearts  {rows[0][1][0] / hearts:6.2f} x")
    print(f"  numpy batch / OpenSpiel hearts         {rows[1][1][0] / hearts:6.2f} x")
    print(f"  numpy batch / fast play-out path       {rows[1][1][0] / rows[0][1][0]:6.2f} x")


if __name__ == "__main__":
    main()
