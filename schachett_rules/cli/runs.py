"""The commands that play many games and measure them: ``simulate``, ``sweep``, ``compare``, ``session``
and ``bench``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..engine import session as sessions
from ..errors import SchachettError, UsageError
from ..kernel.compiler import compile_ruleset
from ..rules.loader import load
from ..simulation import simulate as simulation
from ..simulation.bench import run_all
from ..simulation.parallel import default_workers
from ..simulation.plots import FIGURES, FORMATS, plot_stats
from ..simulation.progress import bar
from ..simulation.sweep import combinations, compare_rulesets, format_comparison, format_sweep, sweep as run_sweep
from . import output
from .bots import bot_names
from .common import force_flag, forced, option_flag, options_of

# Bounds on counts: past these a run would take days or keep more records in memory than a machine holds.
MAX_GAMES = 10**9           # simulate, sweep, compare: games are streamed in chunks, so only time bounds them
MAX_CYCLES = 1000           # session: every game's record is kept for the session file (24,000 games)


def _spec(ruleset, opts, bots, games, seed, samples):
    spec = simulation.Spec(ruleset=ruleset, options=opts, bots=bot_names(bots), games=games, seed=seed,
                           samples=samples)
    try:
        spec.seat_bots(simulation.tables_of(spec))
    except ValueError as err:
        raise UsageError(f"--bots {bots}: {err}") from None
    return spec


run_flags = [
    click.option("--games", "-n", type=click.IntRange(min=1, max=MAX_GAMES), default=10000, show_default=True),
    click.option("--seed", "-s", type=int, default=0, show_default=True),
    click.option("--bots", "-b", default="random", show_default=True,
                 help="random, heuristic, mc, dd, ismcts (a strength after a colon: dd:20): one for every seat, one per "
                      "party, or one per seat (comma-separated)."),
    click.option("--samples", type=click.IntRange(min=1), default=24, show_default=True,
                 help="Deals the Monte-Carlo player samples for each decision."),
    click.option("--workers", "-w", type=click.IntRange(min=1), default=None,
                 help="Processes to use (default: every core)."),
    click.option("--no-cache", is_flag=True, help="Play again even if this run is in the cache."),
    click.option("--quiet", "-q", is_flag=True, help="No progress bar."),
]


def with_run_flags(fn):
    """The flags of every command that plays a run: games, seed, bots, samples, workers, cache, quiet."""
    for flag in reversed(run_flags):
        fn = flag(fn)
    return fn


@click.command()
@click.argument("ruleset")
@with_run_flags
@click.option("--backend", type=click.Choice(["local", "dask"]), default="local", show_default=True,
              help="local: this machine's cores; dask: a Dask cluster (see --scheduler).")
@click.option("--scheduler", default=None, help="The Dask scheduler's address; without it a local cluster is started.")
@click.option("--json", "json_out", type=click.Path(path_type=Path),
              help="Also write the full result as JSON to this file.")
@click.option("--plot", "plot_dir", type=click.Path(path_type=Path),
              help="Write plots (SVG and PNG) into this folder.")
@force_flag()
@option_flag
def simulate(ruleset: str, games: int, seed: int, bots: str, samples: int, workers: int | None, no_cache: bool,
             quiet: bool, backend: str, scheduler: str | None, json_out: Path | None, plot_dir: Path | None,
             option_items: tuple[str, ...]) -> None:
    """Play many games with bots and report results, King events, advantages and the course of play."""
    spec = _spec(ruleset, options_of(ruleset, option_items), bots, games, seed, samples)
    if json_out:
        output.check_file(json_out, "--json", forced())
    if plot_dir:
        output.check_folder(plot_dir, "--plot", [f"{f}.{ext}" for f in FIGURES for ext in FORMATS], forced())
    with bar(games, f"simulating {ruleset}", disable=quiet) as advance:
        stats, cached = simulation.cached_run(spec, workers or default_workers(), advance, backend, scheduler,
                                              not no_cache)
    if stats.stopped:
        click.echo(f"stopped after {stats.games} of {games} games (Ctrl-C); the games played so far:", err=True)
    elif cached:
        click.echo("(from the cache: the same ruleset, options, bots, games and seed)", err=True)
    click.echo(simulation.format_stats(stats, spec))
    if json_out:
        output.write_file(json_out, json.dumps(simulation.stats_json(stats), indent=2), "--json")
        click.echo(f"wrote {json_out}", err=True)
    if plot_dir:
        files = output.write_drawn(plot_dir, lambda scratch: plot_stats(stats, scratch, t=simulation.tables_of(spec)),
                                   "--plot")
        click.echo(f"wrote {len(files)} plot files into {plot_dir}", err=True)
    if stats.stopped:
        sys.exit(130)


@click.command()
@click.argument("ruleset")
@click.option("--lacuna", "-l", "lacunae", multiple=True, required=True,
              help="A lacuna to sweep, by name or section (repeatable: every combination is played).")
@with_run_flags
def sweep(ruleset: str, lacunae: tuple[str, ...], games: int, seed: int, bots: str, samples: int,
          workers: int | None, no_cache: bool, quiet: bool) -> None:
    """Play every reading (and combination) of some lacunae on the same deals and rank their effects."""
    _spec(ruleset, {}, bots, games, seed, samples)
    names, combos, _ = combinations(ruleset, list(lacunae))
    with bar(games * len(combos), f"sweeping {', '.join(names)}", disable=quiet) as advance:
        names, rows, alpha = run_sweep(ruleset, list(lacunae), games, seed, bot_names(bots),
                                       workers or default_workers(), advance, not no_cache, samples=samples)
    click.echo(format_sweep(ruleset, names, rows, alpha, games))


@click.command()
@click.argument("rulesets", nargs=-1, required=True)
@with_run_flags
def compare(rulesets: tuple[str, ...], games: int, seed: int, bots: str, samples: int, workers: int | None,
            no_cache: bool, quiet: bool) -> None:
    """The same measurements for several rulesets, side by side."""
    for ref in rulesets:
        _spec(ref, {}, bots, games, seed, samples)
    with bar(games * len(rulesets), "comparing", disable=quiet) as advance:
        results = compare_rulesets(list(rulesets), games, seed, bot_names(bots), workers or default_workers(),
                                   advance, not no_cache, samples)
    click.echo(format_comparison(results))


@click.command()
@click.argument("ruleset")
@click.option("--cycles", "-c", type=click.IntRange(min=1, max=MAX_CYCLES), default=1, show_default=True)
@click.option("--seed", "-s", type=int, default=0, show_default=True)
@click.option("--players", "-p", default=None, help="Names of the players in lot order, comma-separated "
                                                   "(default A, B, C … one per player the session wants).")
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the session (every game's record) as JSON to this file.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@force_flag()
@option_flag
def session(ruleset: str, cycles: int, seed: int, players: str | None, json_out: Path | None, quiet: bool,
            option_items: tuple[str, ...]) -> None:
    """Play whole cycles of games with random players and keep each player's ledger."""
    opts = options_of(ruleset, option_items)
    if json_out:
        output.check_file(json_out, "--json", forced())
    r = load(ruleset, opts)
    t = compile_ruleset(r)
    clause = r.clause("session")
    if clause is None and sessions.target_of(t) is not None:
        _session_to_target(r, t, opts, seed, players, json_out, quiet)
        return
    if clause is None:
        raise UsageError(f"ruleset {r.name} has no session clause, so it has no rounds or cycles to play, and its "
                         f"games are played to no target")
    names = [p.strip() for p in players.split(",")] if players else sessions.default_players(clause, t)
    try:
        sessions.check_players(clause, names, t)
    except SchachettError as err:
        raise UsageError(f"--players: {err.message}") from None
    total = cycles * clause.rounds_per_cycle * clause.games_per_round
    with bar(total, f"session of {r.name}", disable=quiet) as advance:
        record = sessions.play_session(t, r.name, opts, clause, names, cycles, seed, advance)
    lines = sessions.ledger(t, record, near=Path(r.file).parent)   # a ruleset of one's own is found beside its file
    click.echo(f"{total} games of {r.name} ({cycles} cycle{'s' if cycles > 1 else ''} of "
               f"{clause.rounds_per_cycle} rounds of {clause.games_per_round}), seed {seed}\n")
    click.echo(sessions.format_ledger(lines, t.money_unit))
    if json_out:
        output.write_file(json_out, record.model_dump_json(indent=1), "--json")
        click.echo(f"wrote {json_out}", err=True)


@click.command()
@click.option("--games", type=click.IntRange(min=100), default=20000, show_default=True)
def bench(games: int) -> None:
    """Measure play-out speed and the time to parse, check and compile a ruleset."""
    click.echo(run_all(games))


def _session_to_target(r, t, opts: dict[str, str], seed: int, players: str | None, json_out: Path | None,
                       quiet: bool) -> None:
    """A session of games played until a player reaches the target of game points."""
    names = [p.strip() for p in players.split(",")] if players else list("ABCDEFGHIJ"[:t.n_seats])
    if len(names) != t.n_seats or len(set(names)) != len(names):
        raise UsageError(f"--players: this session needs {t.n_seats} players with different names, not "
                         f"{', '.join(names)}")
    target, lowest = sessions.target_of(t)
    # a game lasts a fraction of a second and nobody knows in advance how many there will be: no bar
    record = sessions.play_to_target(t, r.name, opts, names, seed)
    lines = sessions.ledger(t, record, near=Path(r.file).parent)
    won = sessions.session_winners(t, lines)
    click.echo(f"{len(record.games)} games of {r.name}, played until a player had {target} game points, seed "
               f"{seed}\n")
    click.echo(sessions.format_ledger(lines, t.money_unit, game_points=True))
    click.echo(f"\n{' and '.join(won)} win{'s' if len(won) == 1 else ''} the session"
               + (" with the fewest game points." if lowest else "."))
    if json_out:
        output.write_file(json_out, record.model_dump_json(indent=1), "--json")
        click.echo(f"wrote {json_out}", err=True)
