"""Hostile inputs by the thousand: python benchmarks/fuzz.py [--count N] [--seed S] [--kind KIND ...].

Generates mutated rule files, ``extends`` chains, game records, session files, command-line flags and
typed ``play`` input (tests/fuzzing.py), runs each through the ``schachett`` command line in this
process, and prints, by kind of input: how many were tried, and how many gave a traceback, an exit
code other than 0/1/2, an error that names no place, a silent acceptance of an input wrong by
construction, or a change to a file of the project. ``--show N`` prints the first N problems.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("SCHACHETT_QUIET", "1")

from tests.fuzzing import GENERATORS, cases, run_case, sandbox, snapshot  # noqa: E402

PROBLEM_KINDS = ("traceback", "exit code", "nowhere", "accepted", "changed project files", "hang")


def main() -> int:
    """Run the cases and print the table; exit 1 if any case had a problem."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kind", action="append", choices=sorted(GENERATORS))
    ap.add_argument("--show", type=int, default=10)
    ap.add_argument("--limit", type=int, default=20, help="seconds a case may run before it counts as a hang")
    ap.add_argument("--check-files-every", type=int, default=1, help="fingerprint the project every N cases")
    args = ap.parse_args()
    kinds = tuple(args.kind or GENERATORS)
    tried, bad = Counter(), {k: Counter() for k in kinds}
    exits = {k: Counter() for k in kinds}
    shown = 0
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        sandbox(folder)          # the cases see a copy of variants/, manual/ and docs/ as the project
        before = snapshot()
        for i, case in enumerate(cases(args.seed, args.count, folder, kinds)):
            check_files = (i + 1) % args.check_files_every == 0
            verdict = run_case(case, before if check_files else None, args.limit)
            tried[case.kind] += 1
            exits[case.kind][verdict.exit_code] += 1
            for p in verdict.problems:
                key = next((k for k in PROBLEM_KINDS if k in p), p)
                bad[case.kind][key] += 1
                if shown < args.show:
                    shown += 1
                    print(f"[{case.kind}] {' '.join(case.args)[:160]} ({case.note}): {p}", file=sys.stderr)
            if check_files:
                if any("changed project files" in p for p in verdict.problems):
                    sandbox(folder)          # start the next cases from an intact copy
                before = snapshot()
    seconds = time.perf_counter() - start
    print(f"{sum(tried.values())} inputs in {seconds:.0f} s (seed {args.seed})\n")
    head = (f"{'kind':<9}{'tried':>7}{'exit 0':>8}{'exit 1':>8}{'exit 2':>8}"
            + "".join(f"{k.split()[0]:>11}" for k in PROBLEM_KINDS))
    print(head)
    for k in kinds:
        print(f"{k:<9}{tried[k]:>7}" + "".join(f"{exits[k][c]:>8}" for c in (0, 1, 2))
              + "".join(f"{bad[k][p]:>11}" for p in PROBLEM_KINDS))
    total = sum(sum(c.values()) for c in bad.values())
    print(f"\n{total} problems")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
