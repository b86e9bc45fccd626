"""Speed of the exact solver: positions per second and the time to solve a deal from k tricks before its end.

    python benchmarks/bench_solver.py [--deals N] [--left 6,8,10] [--full-deals D] [--full-budget B] [--probes]
                                      [--rulesets a,b] [--family] [--family-rulesets a,b] [--bots GAMES]

For each ruleset (default original and reconstruction): for each k of ``--left``, N deals played there at random
(the same deals on every run), each solved exactly with a fresh table: the median and 90th percentile time and
the positions per second. Then D whole 13-trick deals (seeds 0 to D-1, each from a fresh table of the size
``schachett solve`` takes for a whole deal): each one's value, time and positions, and their median and 90th
percentile time (with ``--full-budget``, a deal past that many positions is reported unsolved; with ``--probes``,
the range of a whole deal's value proved after each question its search asked, "at least B?", and the positions
the question took: where a deal's time goes). ``--family``: the
strong players' time per decision in Hearts, Whist, Euchre, Schachett for five and Officers' Schafkopf (six
positions each; ``--family-rulesets`` names others, and ``--rulesets ""`` leaves the solver's own figures out).
``--bots GAMES``: each bot's time per decision in GAMES games against the heuristic player, and strong games (dd
in every seat) per second (``bench_strong.bench_bots``). One process, one core; compare runs by their ratios.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from schachett_rules.kernel.compiler import tables_for
from schachett_rules.kernel.state import State
from schachett_rules.kernel.streams import GameStream
from schachett_rules.search.exact import Solver
from schachett_rules.search.report import table_bits_for

# the deal played to a given trick and the median / 90th percentile line are the strong players' bench's
from bench_strong import at_trick, percentile, quantiles  # noqa: E402  (a script beside this one in benchmarks/)


def bench(name: str, deals: int, lefts: list[int], full_deals: int, full_budget: int, bits: int,
          probes: bool = False) -> None:
    t = tables_for(name)
    print(f"solver, {name}", flush=True)
    solver = Solver(t, table_bits=bits)
    solver.value(at_trick(t, 99, 3))                   # compiled and warm
    for left in lefts:
        times, nodes = [], 0
        for seed in range(deals):
            game = at_trick(t, seed, left)
            solver.clear()
            before = solver.nodes
            start = time.process_time()
            solver.value(game)
            times.append(time.process_time() - start)
            nodes += solver.nodes - before
        print(f"  {left:>2} tricks left: {quantiles(times)}; {nodes / max(sum(times), 1e-9):,.0f} positions/s, "
              f"{nodes / deals:,.0f} positions a deal", flush=True)
    if not full_deals:
        return
    # whole deals: a fresh table of the size `schachett solve` takes for them (report.table_bits_for)
    whole = Solver(t, table_bits=table_bits_for(at_trick(t, 0, t.n_tricks)))
    times, counts = [], []
    for seed in range(full_deals):
        game = at_trick(t, seed, t.n_tricks)
        whole.clear()
        before = whole.nodes
        start = time.process_time()
        value = whole.value(game, budget=full_budget, progress=_probe_printer() if probes else None)
        spent = time.process_time() - start
        times.append(spent)
        counts.append(whole.nodes - before)
        print(f"  a whole deal (seed {seed}): " + (f"value {value}, solved in {spent:.1f} s ({counts[-1]:,} positions)"
                                                  if value is not None else
                                                  f"not solved within {full_budget:,} positions ({spent:.0f} s)"),
              flush=True)
    print(f"  whole deals: median {statistics.median(times):.1f} s, p90 {percentile(times, 0.9):.1f} s, "
          f"slowest {max(times):.1f} s; {sum(counts) / sum(times):,.0f} positions/s, "
          f"{statistics.median(counts):,.0f} positions a deal (median)", flush=True)


def _probe_printer():
    """A progress callback (:meth:`Solver.value`'s) that prints the range of the value proved after each null-window
    question of a whole deal's search and the positions that question took: where the deal's time goes."""
    spent = [0]

    def heard(low: int, high: int, nodes: int) -> None:
        print(f"    question {len(spent):>2}: value in [{low:+d}, {high:+d}], {nodes - spent[-1]:>13,} positions",
              flush=True)
        spent.append(nodes)
    return heard


def family(rulesets: list[str]) -> None:
    from schachett_rules.players import make_bot
    for ruleset in rulesets:
        t = tables_for(ruleset)
        for name in ("mc", "dd", "ismcts"):
            bot = make_bot(name, t)
            times = []
            for seed in range(7):
                rng = random.Random(seed)
                game = State.deal(t, seed % t.n_seats, GameStream(seed, 0), game=seed % 4)
                while game.phase_name != "play" or game.done < min(seed + 1, t.n_tricks - 1):
                    game.push(rng.choice(game.legal_actions()))
                obs = game.observation(game.decider())
                start = time.process_time()
                bot.play(obs, random.Random(seed))
                times.append(time.process_time() - start)
            print(f"{ruleset:<18} {name:<7} per decision: {quantiles(times[1:])}", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=12)
    p.add_argument("--left", default="6,8,10")
    p.add_argument("--full-deals", type=int, default=3, help="whole deals solved (seeds 0, 1, ...); 0: none")
    p.add_argument("--full-budget", type=int, default=0, help="positions a whole deal may take (0: no limit)")
    p.add_argument("--rulesets", default="original,reconstruction")
    p.add_argument("--bits", type=int, default=22)
    p.add_argument("--family", action="store_true")
    p.add_argument("--family-rulesets", default="hearts,whist,euchre,five-players,officers-schafkopf")
    p.add_argument("--bots", type=int, default=0)
    p.add_argument("--probes", action="store_true",
                   help="print what each question of a whole deal's search proved and cost")
    a = p.parse_args()
    for name in filter(None, a.rulesets.split(",")):
        bench(name, a.deals, [int(x) for x in a.left.split(",")], a.full_deals, a.full_budget, a.bits, a.probes)
        if a.bots:
            from bench_strong import bench_bots
            for line in bench_bots(name, a.bots):
                print(line, flush=True)
    if a.family:
        family(a.family_rulesets.split(","))


if __name__ == "__main__":
    main()
