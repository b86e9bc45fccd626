"""Measure the engine: python benchmarks/bench_engine.py [GAMES]."""

import sys

from schachett_rules.simulation.bench import run_all

if __name__ == "__main__":
    print(run_all(int(sys.argv[1]) if len(sys.argv) > 1 else 20000))
