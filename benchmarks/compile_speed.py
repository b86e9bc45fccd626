"""Parse + check + compile time per ruleset in variants/ (median of warm runs, in ms).

    PYTHONPATH=. python benchmarks/compile_speed.py [--runs 15]
"""

import argparse
import statistics
import time

from schachett_rules import paths
from schachett_rules.kernel.compiler import compile_ruleset
from schachett_rules.rules.loader import load


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()
    for name in paths.known_rulesets():
        compile_ruleset(load(name))  # warm: parser tables, manual, imports
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            compile_ruleset(load(name))
            times.append((time.perf_counter() - start) * 1000)
        print(f"{name:<20} {statistics.median(times):7.1f} ms  (min {min(times):.1f})")


if __name__ == "__main__":
    main()
