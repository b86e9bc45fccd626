"""Load (parse, resolve) + check + compile time per ruleset in variants/: median of warm runs, in ms.

Two columns: with every rule file of the chain parsed anew in each run, and with
unchanged files taken from the parse cache (as a second load in one process does).

    PYTHONPATH=. python benchmarks/compile_speed.py [--runs 21]
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


def _median(name: str, runs: int, cold: bool) -> float:
    times = []
    for _ in range(runs):
        if cold:
            _clear()
        start = time.perf_counter()
        compile_ruleset(load(name))
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=21)
    args = ap.parse_args()
    print(f"{'ruleset':<20} {'parsed anew':>12} {'parse cached':>13}")
    for name in paths.known_rulesets():
        compile_ruleset(load(name))  # warm: parser tables, manual, imports
        cold = _median(name, args.runs, cold=True)
        warm = _median(name, args.runs, cold=False)
        print(f"{name:<20} {cold:9.1f} ms {warm:10.1f} ms")


if __name__ == "__main__":
    main()
