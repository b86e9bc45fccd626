"""Our random play-outs beside OpenSpiel's Hearts and Euchre: python benchmarks/bench_openspiel.py [--json] [--ruleset R].

Our own Hearts (variants/family/hearts.schachett) plays the same game as
OpenSpiel's: 52 cards, three passed by each player (left, right, across, none in
turn from game to game), the two of clubs leading, hearts not led until broken,
13 tricks; so the two figures compare directly. The four-player Schachett
rulesets deal 52 cards and play 13 tricks too; the others play more or fewer
cards and castle, and are measured against the same Hearts figure.

Our Euchre (variants/family/euchre.schachett) is OpenSpiel's ``euchre`` with
its defaults (``stick_the_dealer=True``, ``allow_lone_defender=False``): 24
cards, five to a hand, the top card of the four left over turned up, a round
to order it up (the dealer takes it and discards one) and a round to name
another suit, the dealer made to name one when all pass, the maker's partner
sitting out a lone hand, the bowers, one hand scored 1, 2 for a march, 4 for a
lone march, 2 to the defenders for a euchre. The games differ only in how a
decision is cut up: OpenSpiel asks "order up?" and then "alone?" as two
decisions (so its uniform random bot goes alone in half of the hands it
makes), ours offers "up" and "up alone" in one list beside the pass; OpenSpiel
deals card by card as chance nodes, ours shuffles with 23 numbers. So the
euchre row is compared with OpenSpiel's euchre as well as with its Hearts.

Everything runs in this one process, on one core:

* ours, one game at a time, for every ruleset in variants/ and every family
  ruleset the compiled state plays:
  :func:`schachett_rules.simulation.bench.playouts_per_second`;
* ours, the compiled batch (10,000 games at a time, random numbers included):
  :func:`schachett_rules.simulation.bench.batch_per_second`;
* the time to parse, check and compile each ruleset (median, warm):
  :func:`schachett_rules.simulation.bench.compile_milliseconds`;
* OpenSpiel's ``hearts`` and ``euchre`` (C++), a full game per
  ``pyspiel.evaluate_bots`` call with a uniform random bot in every seat,
  chance outcomes sampled from the seed.

OpenSpiel is not a dependency of this project and this script installs nothing:
``pip install open-spiel`` to add its column. Each figure is the median of
``--repeat`` timed runs (after a short warm-up), with the slowest and fastest.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):   # numpy on one core
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

from schachett_rules.simulation.bench import batch_per_second, compile_milliseconds, playouts_per_second  # noqa: E402


def measure(rate, repeat: int) -> tuple[float, float, float]:
    """Median, lowest and highest of ``repeat`` calls of ``rate()`` (games per second)."""
    rates = [rate() for _ in range(repeat)]
    return statistics.median(rates), min(rates), max(rates)


def spiel_per_second(name: str, games: int, seed: int = 1) -> float:
    """An OpenSpiel game (``hearts``, ``euchre``) with its defaults, uniform random bots in all four seats: full
    games per second."""
    import pyspiel
    game = pyspiel.load_game(name)
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


def rulesets() -> list[str]:
    """Every ruleset in variants/, in name order, then the family's rulesets the compiled state plays."""
    from schachett_rules import paths
    from schachett_rules.kernel.compiler import tables_for
    from schachett_rules.playouts.batch import supported
    family = sorted(p.stem for p in paths.family_dir().glob("*.schachett"))
    return (sorted(p.stem for p in paths.variants_dir().glob("*.schachett")) +
            [name for name in family if supported(tables_for(name)) is None])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", action="append", help="a ruleset to measure (repeat it); default: every one in variants/")
    ap.add_argument("--games", type=int, default=5000, help="games per run, one at a time (ours)")
    ap.add_argument("--batch-games", type=int, default=50000, help="games per run, batch (ours)")
    ap.add_argument("--hearts-games", type=int, default=10000, help="games per run, OpenSpiel Hearts and Euchre")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs of each (the median is reported)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    names = args.ruleset or rulesets()

    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count()
    machine = {"platform": platform.platform(), "cpu": cpu_name(), "python": platform.python_version(),
               "cpus": os.cpu_count(), "usable": cores}

    try:
        import pyspiel
        spiel = getattr(pyspiel, "__version__", None)
        if spiel is None:
            from importlib.metadata import version
            spiel = version("open-spiel")
    except ImportError:
        pyspiel = spiel = None

    hearts = euchre = None
    if pyspiel is not None:
        spiel_per_second("hearts", 200)   # warm-up: load the games
        spiel_per_second("euchre", 200)
        hearts = measure(lambda: spiel_per_second("hearts", args.hearts_games), args.repeat)
        euchre = measure(lambda: spiel_per_second("euchre", args.hearts_games), args.repeat)
    figures = {}
    for name in names:
        # warm-up: compile the tables, build the plan, load the compiled loop
        playouts_per_second(name, 200)
        batch_per_second(name, 2000, chunk=1000)
        one = measure(lambda: playouts_per_second(name, args.games), args.repeat)
        batch = measure(lambda: batch_per_second(name, args.batch_games), args.repeat)
        compile_ms = compile_milliseconds(name, repeat=10)[0]
        figures[name] = {"one_game": one, "batch": batch, "compile_ms": compile_ms}

    if args.json:
        out = {"machine": machine, "repeat": args.repeat, "open_spiel": spiel,
               "hearts": None if hearts is None else {"median": hearts[0], "low": hearts[1], "high": hearts[2]},
               "euchre": None if euchre is None else {"median": euchre[0], "low": euchre[1], "high": euchre[2]},
               "rulesets": {name: {"one_game": {"median": f["one_game"][0], "low": f["one_game"][1],
                                                "high": f["one_game"][2]},
                                   "batch": {"median": f["batch"][0], "low": f["batch"][1], "high": f["batch"][2]},
                                   "compile_ms": f["compile_ms"],
                                   "one_game_vs_hearts": None if hearts is None else f["one_game"][0] / hearts[0],
                                   "batch_vs_hearts": None if hearts is None else f["batch"][0] / hearts[0],
                                   **({"one_game_vs_euchre": f["one_game"][0] / euchre[0],
                                       "batch_vs_euchre": f["batch"][0] / euchre[0]}
                                      if euchre is not None and name == "euchre" else {})}
                            for name, f in figures.items()}}
        print(json.dumps(out, indent=2))
        return

    print(f"machine: {machine['platform']}, {machine['cpu']}")
    print(f"python {machine['python']} ({platform.python_implementation()}), {machine['cpus']} CPUs "
          f"({cores} usable); every figure from this one process on one core")
    print()
    print(f"random full games per second (median of {args.repeat} runs; one game at a time: {args.games:,} games a run, "
          f"batch: {args.batch_games:,})")
    if hearts is not None:
        print(f"  OpenSpiel {spiel} hearts, uniform random bots: {hearts[0]:,.0f}   [{hearts[1]:,.0f}, {hearts[2]:,.0f}]")
        print(f"  OpenSpiel {spiel} euchre, uniform random bots: {euchre[0]:,.0f}   [{euchre[1]:,.0f}, {euchre[2]:,.0f}]")
    else:
        print("  OpenSpiel hearts: not measured, pyspiel is not installed (pip install open-spiel; "
              "it is not a dependency of this project)")
    head = f"  {'ruleset':<18} {'one game':>10} {'batch':>11} {'compile ms':>11}"
    if hearts is not None:
        head += f" {'one/hearts':>11} {'batch/hearts':>13}"
    print(head)
    for name, f in figures.items():
        line = f"  {name:<18} {f['one_game'][0]:>10,.0f} {f['batch'][0]:>11,.0f} {f['compile_ms']:>11.1f}"
        if hearts is not None:
            line += f" {f['one_game'][0] / hearts[0]:>10.2f}x {f['batch'][0] / hearts[0]:>12.2f}x"
        print(line)
    if euchre is not None and "euchre" in figures:
        f = figures["euchre"]
        print(f"  euchre beside OpenSpiel's euchre: {f['one_game'][0] / euchre[0]:.2f}x one game at a time, "
              f"{f['batch'][0] / euchre[0]:.2f}x in the batch")


if __name__ == "__main__":
    main()
