"""Load (parse, resolve) + check + compile time per ruleset in variants/: median of warm runs, in ms.

Two columns: with every rule file of the chain parsed anew in each run, and with
unchanged files taken from the parse cache (as a second load in one process does).
``--cpu`` measures the process's CPU time instead of the wall clock, which a busy
machine disturbs less.

    PYTHONPATH=. python benchmarks/compile_speed.py [--runs 21] [--cpu]
"""

import argparse
import statistics
import time

from schachett_rules import paths
from schachett_rules.kernel.compiler import compile_ruleset
from schachett_rules.language import syntax
from schachett_rules.rules.loader import load


def _clear() -> None:
    cached = getattr(syntax, "_parse", None)
    if cached is not None and hasattr(cached, "cache_clear"):
        cached.cache_clear()


def _median(name: str, runs: int, cold: bool, clock) -> float:
    times = []
    for _ in range(runs):
        if cold:
            _clear()
        start = clock()
        compile_ruleset(load(name))
        times.append((clock() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--cpu", action="store_true", help="CPU time of the process instead of the wall clock")
    args = ap.parse_args()
    clock = time.process_time if args.cpu else time.perf_counter
    print(f"{'ruleset':<20} {'parsed anew':>12} {'parse cached':>13}")
    for name in paths.known_rulesets():
        compile_ruleset(load(name))  # warm: parser tables, manual, imports
        cold = _median(name, args.runs, True, clock)
        warm = _median(name, args.runs, False, clock)
        print(f"{name:<20} {cold:9.1f} ms {warm:10.1f} ms")


if __name__ == "__main__":
    main()
