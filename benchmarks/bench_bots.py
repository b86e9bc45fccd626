"""How much stronger each player is: heuristic against random, Monte-Carlo against heuristic.

Each pairing is played with the bots in both parties' places on the same deals
(seed), so that the first leader's advantage cancels out. Prints the stronger
bot's share of decided games with a 95% interval.

    python benchmarks/bench_bots.py [GAMES_PER_SIDE] [MC_SAMPLES]
"""

import sys
import time

from schachett_rules.simulation.parallel import default_workers
from schachett_rules.simulation.simulate import Spec, run
from schachett_rules.simulation.stats import wilson


def duel(strong: str, weak: str, games: int, samples: int, ruleset: str = "original") -> str:
    start = time.perf_counter()
    won = decided = 0
    for bots, strong_party in (((strong, weak), 0), ((weak, strong), 1)):
        s = run(Spec(ruleset=ruleset, bots=bots, games=games, seed=2026, samples=samples), workers=default_workers())
        won += s.wins[strong_party]
        decided += s.wins[0] + s.wins[1]
    lo, hi = wilson(won, decided)
    took = time.perf_counter() - start
    return (f"{strong:>9} against {weak:<9}: wins {won} of {decided} decided games = {100 * won / decided:.1f}% "
            f"[{100 * lo:.1f}, {100 * hi:.1f}]  ({took:.0f} s)")


if __name__ == "__main__":
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    samples = int(sys.argv[2]) if len(sys.argv) > 2 else 24
    print(f"{games} games with each bot in each party's place, original rules, Monte-Carlo with {samples} deals")
    print(duel("heuristic", "random", games, samples))
    print(duel("mc", "heuristic", games, samples))
    print(duel("mc", "random", games, samples))
