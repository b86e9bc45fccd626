"""How far skill can carry a party: a player who sees every hand, against a bot, on the same deals in both seatings.

    python benchmarks/bench_ceiling.py [--ruleset original] [--against mc] [--deals 400] [--exact 8]
                                       [--horizon 1] [--seed 11] [--workers 2] [--fair N]

No fair player can beat a bot by more than one who knows where every card lies, so this yardstick bounds what
the strong players (which see only their seat's observation) can reach. The open-hands player asks the exact
solver (:mod:`schachett_rules.search.exact`) about the true deal: from ``--exact`` tricks before the end it
plays a card of the best value to the last card; before that it looks ``--horizon`` tricks ahead with best play
by every hand and values the positions there by one greedy play-out (the sampling player's look ahead, on the
one deal that is true). Its decisions other than cards (castling) are the heuristic player's. The other party
is ``--against`` throughout. Prints the open-hands party's share of decided games with its 95% interval, judged
as :mod:`schachett_rules.simulation.ladder` judges a duel.

This is a benchmark, not a player: it reads the state's hidden cards, which no bot is given. With ``--fair N``
the same party is played instead by the sampling player (:class:`~schachett_rules.players.sampling.SamplingBot`,
N deals a decision, which sees only its seat's observation) with the same ``--exact`` and ``--horizon``: on the
same deals, the difference between the two rows is what not knowing the cards costs at that depth.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import time

from schachett_rules.kernel.compiler import tables_for
from schachett_rules.kernel.state import State
from schachett_rules.kernel.streams import GameStream
from schachett_rules.players import make_bot
from schachett_rules.players.bots import chooser, play_action
from schachett_rules.players.sampling import SamplingBot
from schachett_rules.simulation.ladder import ahead, holders, standings
from schachett_rules.simulation.stats import wilson


def deal_verdicts(job: tuple) -> list:
    """Both games of one deal: the open-hands party first holding the first party, then the other; each game's
    verdict (0: the open-hands party ahead, 1: the other, None: a tie)."""
    ruleset, against, seed, deal, exact, horizon, fair = job
    from schachett_rules.search.exact import Solver
    t = tables_for(ruleset)
    solver = Solver(t, table_bits=20)
    player = SamplingBot(t, samples=fair, horizon=horizon, exact_from=exact) if fair else None
    rng = random.Random(f"{seed}:{deal}")
    out = []
    for game in (0, 1):
        stream = GameStream(seed, deal)
        state = State.deal(t, deal % t.n_seats, stream)
        holder = holders(t, game)
        others = chooser([make_bot(against if h else "heuristic", t) for h in holder], stream)

        def choose(seat: int, st: State, holder=holder, others=others):
            if seat < 0 or holder[seat] or st.phase_name != "play" or st.observation(seat).decision != "card":
                return others(seat, st)
            if player is not None:
                return play_action(st, player.play(st.observation(seat), rng), by=seat)
            ahead_by = None if t.n_tricks - st.done <= exact else horizon
            values = solver.move_values(st, horizon=ahead_by, rollouts=0 if ahead_by is None else 1,
                                        playout="greedy")
            return max(values, key=lambda av: av[1])[0]
        state.advance(choose)
        out.append(ahead(standings(t, state.result()), holder))
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ruleset", default="original")
    p.add_argument("--against", default="mc", help="the bot of the other party (a name as the ladder takes it)")
    p.add_argument("--deals", type=int, default=400, help="deals, each played in both seatings")
    p.add_argument("--exact", type=int, default=8, help="tricks before the end from which it solves to the end")
    p.add_argument("--horizon", type=int, default=1, help="tricks it looks ahead before that")
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--fair", type=int, default=0, metavar="N",
                   help="play the party by the sampling player with N deals a decision instead of open hands")
    a = p.parse_args()
    start = time.perf_counter()
    jobs = [(a.ruleset, a.against, a.seed, deal, a.exact, a.horizon, a.fair) for deal in range(a.deals)]
    with multiprocessing.Pool(a.workers) as pool:
        verdicts = [v for pair in pool.map(deal_verdicts, jobs, chunksize=1) for v in pair]
    won, lost = verdicts.count(0), verdicts.count(1)
    low, high = wilson(won, won + lost)
    who = f"the sampling player ({a.fair} deals)" if a.fair else "open hands"
    print(f"{who} (exact from {a.exact} tricks left, {a.horizon} ahead before) against {a.against}, "
          f"{a.ruleset}, {2 * a.deals} games: {won} of {won + lost} decided = {100 * won / (won + lost):.1f}% "
          f"[{100 * low:.1f}, {100 * high:.1f}] ({time.perf_counter() - start:.0f} s, {a.workers} workers)")


if __name__ == "__main__":
    main()
