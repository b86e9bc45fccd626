"""The game state's speed: python benchmarks/bench_state.py [--json] [--ruleset R ...].

Actions applied and undone per second, for each ruleset asked (default: original and reconstruction):

* the kernel's State in Python, through ``push`` (what a search uses) and through ``apply`` (verified, with the
  action's frozen record): a random walk down a freshly dealt game to its end, then every action undone;
* the compiled state (playouts/compiled.py), walked the same way inside the compiled code
  (``walk_randomly``), which is what a compiled search pays per node.

Each figure is the median of ``--repeat`` runs on one core.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402

from schachett_rules.simulation.bench import compiled_pairs_per_second, state_pairs_per_second  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", action="append", help="a ruleset (repeatable; default original, reconstruction)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for ref in args.ruleset or ["original", "reconstruction"]:
        pushed = statistics.median(state_pairs_per_second(ref) for _ in range(args.repeat))
        applied = statistics.median(state_pairs_per_second(ref, 100, verified=True) for _ in range(args.repeat))
        compiled = statistics.median(compiled_pairs_per_second(ref) for _ in range(args.repeat))
        rows.append({"ruleset": ref, "push_undo": pushed, "apply_undo": applied, "compiled": compiled})
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print("| ruleset | Python, push + undo | Python, apply (verified, recorded) + undo | compiled, apply + undo |")
    print("|---|---|---|---|")
    for r in rows:
        print(f"| {r['ruleset']} | {r['push_undo']:,.0f} /s | {r['apply_undo']:,.0f} /s | {r['compiled']:,.0f} /s |")


if __name__ == "__main__":
    main()
