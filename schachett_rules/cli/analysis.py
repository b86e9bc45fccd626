"""The commands of strong play: ``solve`` (the par of open hands and its best line), ``duel`` (two bots on the
same deals in both seatings) and ``ladder`` (every pair of some bots, and a rating for each)."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import click

from ..errors import UsageError
from ..kernel.actions import BEFORE_PLAY
from ..kernel.compiler import compile_ruleset
from ..kernel.state import State
from ..kernel.streams import GameStream
from ..rules.loader import load
from ..simulation.parallel import default_workers
from ..simulation.progress import bar, status
from ..players import bot_problem
from .bots import bot_names
from .common import option_flag, options_of

MAX_GAMES = 10**7


def _record_position(path: Path, after: int | None, option_items: tuple[str, ...]):
    from ..engine.replay import read_record, state_of
    record = read_record(path)
    opts = dict(record.options)
    opts.update(options_of(record.ruleset, option_items))
    r = load(record.ruleset, opts, chosen_by="the record's options", near=path.parent)
    t = compile_ruleset(r)
    n = len(record.actions) if after is None else after
    if n > len(record.actions):
        raise UsageError(f"--after {after}: {path} has {len(record.actions)} actions (cards, castles, penalties), "
                         f"so the game can be solved after 0 to {len(record.actions)} of them")
    state = state_of(record, t, str(path), upto=n)
    if state.phase in BEFORE_PLAY:
        first = next((k for k in range(n + 1, len(record.actions) + 1)
                      if state_of(record, t, str(path), upto=k).phase not in BEFORE_PLAY), None)
        start = (f"its first card follows action {first}, so give --after {first} or more" if first is not None
                 else f"it ends before its first card ({len(record.actions)} actions)")
        raise UsageError(f"--after {n}: {path} is then still before play ({state.phase_name}: "
                         f"{t.seat_name(state.before_play_seat())} to decide); the exact solver searches the play of "
                         f"the cards, and {start}")
    return r.name, t, state, f"{path} after {n} of its {len(record.actions)} actions"


def _to_first_card(t, state: State, seed: int) -> str:
    """Walk a fresh deal through its decisions before play (passes, bids, calls, cards laid away), each made by
    the heuristic player as the strong players make theirs, and say what was decided."""
    from ..players.bots import HeuristicBot, chooser
    from .decisions import told
    choose = chooser([HeuristicBot(t) for _ in range(t.n_seats)], random.Random(seed))
    seen = len(state.log)
    state.advance(lambda seat, game: choose(seat, game) if game.phase in BEFORE_PLAY else None)
    every = set(range(t.n_seats))
    said: list[str] = []
    passes: dict[tuple[int, int], list[str]] = {}     # a hand's cards passed on, named together
    for rec in state.log[seen:]:
        if rec.action == "give" and not rec.back:
            if (rec.seat, rec.to) not in passes:
                said.append("")
                passes[rec.seat, rec.to] = []
            passes[rec.seat, rec.to].append(rec.card)
            said[-1] = f"{t.seat_name(rec.seat)} passes {', '.join(passes[rec.seat, rec.to])} to {t.seat_name(rec.to)}"
            continue
        line = told(t, rec, every, t.seat_name)
        if line:
            said.append(line.strip())
    return "; ".join(said)


@click.command()
@click.argument("target")
@click.option("--after", type=click.IntRange(min=0), default=None,
              help="A record: solve after its first N actions (default: after all of them, or where it stopped).")
@click.option("--deal", "seed", type=int, default=None, help="A ruleset: solve the fresh deal of this seed.")
@click.option("--dealer", type=click.IntRange(min=0), default=None, help="The dealer's seat (default: seed mod seats).")
@click.option("--budget", type=click.IntRange(min=1000), default=None,
              help="Positions the search may visit in all before it stops and says what it has proved (default 3 "
                   "billion, ten to twenty minutes; most whole deals of four hands take half a minute to two minutes "
                   "and 256 MB, some far more).")
@click.option("--table-mb", type=click.IntRange(min=2), default=None,
              help="Megabytes the table of positions may take (default: by the position, 256 for a whole deal of "
                   "four hands); a smaller table gives the same answer more slowly.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the par, the line and its tricks as JSON (past the budget: the range proved, "
                   "\"solved\": false).")
@option_flag
def solve(target: str, after: int | None, seed: int | None, dealer: int | None, budget: int | None,
          table_mb: int | None, as_json: bool, option_items: tuple[str, ...]) -> None:
    """The best result each party can force with every hand open, and a line that achieves it.

    TARGET is a game record (JSON) or a ruleset: `schachett solve game.json --after 36` solves the record from
    its 37th action on; `schachett solve original --deal 3` solves the deal of seed 3.
    """
    from ..search.exact import SearchLimit, Solver
    from ..search.report import DEFAULT_BUDGET, analyse, format_analysis, table_bits_for, unfinished
    path = Path(target)
    if path.suffix == ".json" or path.is_file():
        if seed is not None or dealer is not None:
            raise UsageError(f"--deal and --dealer choose a fresh deal of a ruleset; {target} is a record, whose "
                             f"deal is its own")
        name, t, state, where = _record_position(path, after, option_items)
    else:
        if after is not None:
            raise UsageError(f"--after counts the actions of a record; {target} is a ruleset, whose fresh deal "
                             f"(--deal SEED) is solved from its first card; to solve a game from a later point, give "
                             f"its record (schachett sample {target} --seed SEED --out FILE writes one)")
        opts = options_of(target, option_items)
        r = load(target, opts)
        t = compile_ruleset(r)
        seed = 0 if seed is None else seed
        d = seed % t.n_seats if dealer is None else dealer
        if d >= t.n_seats:
            raise UsageError(f"--dealer {d}: ruleset {r.name} has seats 0 to {t.n_seats - 1}")
        state = State.deal(t, d, GameStream(seed, 0))
        name, where = r.name, f"the deal of seed {seed} (dealer {t.seat_name(d)})"
        if state.phase in BEFORE_PLAY:
            where += f", from its first card, the heuristic player deciding before play: {_to_first_card(t, state, seed)}"
    if state.over:
        raise UsageError(f"{where}: the game is over, so nothing is left to solve; give --after with fewer actions")
    solver = Solver(t, table_bits=table_bits_for(state, table_mb))
    party = state.t.party_names[solver.side_of(state)]
    with status(f"Solving {where}:") as show:
        def progress(low: int, high: int, nodes: int) -> None:
            show(f"{party}'s value lies between {low:+d} and {high:+d} ({nodes:,} positions)" if low < high else
                 f"{party}'s value is {low:+d}; finding a line that makes it ({nodes:,} positions)")
        start = time.perf_counter()
        try:
            rep = analyse(state, name, where, budget or DEFAULT_BUDGET, solver=solver, progress=progress)
        except SearchLimit as limit:
            # what was proved is a result too: as JSON on standard output, beside the error and its exit code
            if as_json:
                partial = unfinished(state, name, where, limit, time.perf_counter() - start, solver)
                click.echo(json.dumps(partial, indent=2, ensure_ascii=False))
            raise
    click.echo(json.dumps(rep, indent=2, ensure_ascii=False) if as_json else format_analysis(rep, state.t))


def _games_flags(fn):
    for flag in reversed([
            click.option("--games", "-n", type=click.IntRange(min=1, max=MAX_GAMES), default=100, show_default=True,
                         help="Games a pair plays: half the deals with each bot in the first party."),
            click.option("--seed", "-s", type=int, default=0, show_default=True),
            click.option("--workers", "-w", type=click.IntRange(min=1), default=None,
                         help="Processes to use (default: every core)."),
            click.option("--backend", type=click.Choice(["local", "dask"]), default="local", show_default=True),
            click.option("--scheduler", default=None, help="The Dask scheduler's address."),
            click.option("--no-cache", is_flag=True, help="Play again even if this duel is in the cache."),
            click.option("--quiet", "-q", is_flag=True, help="No progress bar."),
            click.option("--json", "as_json", is_flag=True, help="Print the result as JSON."),
            option_flag]):
        fn = flag(fn)
    return fn


def _two_bots(ruleset: str, opts: dict) -> None:
    t = compile_ruleset(load(ruleset, opts))
    if t.automaton is not None:
        raise UsageError(f"ruleset {t.name} has an automaton in the other party's seats, so two bots cannot play "
                         f"each other; `schachett solitaire` measures its deals")


@click.command()
@click.argument("a")
@click.argument("b")
@click.argument("ruleset")
@_games_flags
def duel(a: str, b: str, ruleset: str, games: int, seed: int, workers: int | None, backend: str,
         scheduler: str | None, no_cache: bool, quiet: bool, as_json: bool, option_items: tuple[str, ...]) -> None:
    """Two bots on the same deals in both seatings: A's share of the decided games, with its 95% interval."""
    from ..simulation.ladder import DuelSpec, duel as run_duel
    for name in (a, b):
        problem = bot_problem(name)
        if problem:
            raise UsageError(f"{name}: {problem}")
    opts = options_of(ruleset, option_items)
    _two_bots(ruleset, opts)
    spec = DuelSpec(ruleset=ruleset, options=opts, a=a, b=b, games=games, seed=seed)
    with bar(games, f"{a} against {b}", disable=quiet) as advance:
        result = run_duel(spec, workers or default_workers(), advance, backend, scheduler, not no_cache)
    if as_json:
        click.echo(json.dumps(result.as_json(), indent=2))
        return
    low, high = result.interval
    share = (f"{a} wins {100 * result.a_share:.1f}% [{100 * low:.1f}, {100 * high:.1f}] of the {result.decided} "
             f"decided games, {result.draws} not decided" if result.decided else
             f"no game was decided ({result.draws} not decided)")
    click.echo(f"{a} against {b} in {ruleset}, {result.games} games on {spec.deals} deals (seed {seed}): {share}\n"
               f"({result.compared}; A {a}, B {b})")


@click.command()
@click.argument("ruleset")
@click.option("--bots", "-b", default="random,heuristic,mc", show_default=True,
              help="The bots to rank, comma-separated (a strength after a colon: dd:20).")
@_games_flags
def ladder(ruleset: str, bots: str, games: int, seed: int, workers: int | None, backend: str, scheduler: str | None,
           no_cache: bool, quiet: bool, as_json: bool, option_items: tuple[str, ...]) -> None:
    """Every pair of some bots on the same deals in both seatings: each pair's share and a rating per bot."""
    from ..simulation.ladder import format_ladder, ladder as run_ladder
    names = list(dict.fromkeys(bot_names(bots)))
    if len(names) < 2:
        raise UsageError(f"--bots {bots}: a ladder needs two bots or more")
    opts = options_of(ruleset, option_items)
    _two_bots(ruleset, opts)
    pairs = len(names) * (len(names) - 1) // 2
    with bar(games * pairs, f"ladder of {len(names)} bots", disable=quiet) as advance:
        results, rating = run_ladder(ruleset, names, games, seed, opts, workers or default_workers(), advance,
                                     backend, scheduler, not no_cache)
    if as_json:
        click.echo(json.dumps({"ruleset": ruleset, "seed": seed, "duels": [r.as_json() for r in results],
                               "ratings": rating}, indent=2))
    else:
        click.echo(format_ladder(ruleset, names, results, rating, seed))
