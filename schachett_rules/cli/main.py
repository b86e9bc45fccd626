"""The ``schachett`` command line.

Exit codes: 0 when all is well, 1 for bad input (a rule file, a record, a
manual file) or a file that could not be written, 2 for bad usage (an unknown
command, option or argument, or an output path that cannot be used). Bad
input is reported as one paragraph naming the file, line and column or the
trick and seat, and the clause; never as a traceback. Every file a command
writes goes through :mod:`.output`.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import click

from ..language import ir
from ..errors import RecordError, SchachettError, UsageError
from . import output
from .deck import deck
from .sheets import rules, scoresheet

GRADES = [g.value for g in ir.Grade]
# Bounds on counts: past these a run would take days or keep more records in memory than a machine holds.
MAX_GAMES = 10**9           # simulate, sweep, compare: games are streamed in chunks, so only time bounds them
MAX_CYCLES = 1000           # session: every game's record is kept for the session file (24,000 games)
MAX_DEALS = 10**9


def _fail(err: SchachettError) -> None:
    click.echo(f"error: {err.message}", err=True)
    sys.exit(2 if isinstance(err, UsageError) else 1)


class _Group(click.Group):
    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except SchachettError as err:
            _fail(err)


def _options(ref: str, items: tuple[str, ...]) -> dict[str, str]:
    """Validate ``--option`` values against the ruleset (bad ones are usage errors)."""
    from ..rules.loader import load, parse_option_args
    try:
        opts = parse_option_args(items)
    except SchachettError as err:
        raise UsageError(err.message) from None
    if opts:
        base = load(ref)
        for key, value in opts.items():
            try:
                chosen = base.find_lacuna(key)
            except SchachettError as err:
                raise UsageError(f"--option {key}={value}: {err.message}") from None
            if chosen.lacuna.option(value) is None:
                raise UsageError(f"--option {key}={value}: lacuna {chosen.lacuna.name} has no option {value!r}; its "
                                 f"options are {', '.join(o.name for o in chosen.lacuna.options)}")
    return opts


option_flag = click.option("--option", "-o", "option_items", multiple=True, metavar="LACUNA=OPTION",
                           help="Play another reading of a lacuna, named by its name or section (repeatable).")


def _remember_force(ctx: click.Context, _param, value: bool) -> None:
    ctx.meta["force"] = value


def _forced() -> bool:
    """Whether the command was given --force (kept on the context, so that no command's signature carries it)."""
    return click.get_current_context().meta.get("force", False)


def force_flag(help: str = "Replace files that already exist."):
    """The --force flag of every command that writes."""
    return click.option("--force", "-f", is_flag=True, expose_value=False, callback=_remember_force, help=help)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="schachett_rules")
def main() -> None:
    """Schachett (c. 1888): rule files, an engine that plays them, and tools around both."""


@main.command()
@click.argument("ruleset")
@option_flag
def check(ruleset: str, option_items: tuple[str, ...]) -> None:
    """Parse, check and compile a rule file, and every reading of its lacunae.

    RULESET is a ruleset name (original) or a path to a .schachett file.
    """
    from ..kernel.compiler import compile_ruleset
    from ..rules.loader import load
    opts = _options(ruleset, option_items)
    r = load(ruleset, opts)
    t = compile_ruleset(r)
    for chosen in r.lacunae:
        for o in chosen.lacuna.options:
            if o.name != chosen.option:
                compile_ruleset(load(ruleset, {**opts, chosen.lacuna.name: o.name}))
    grades = Counter(e.clause.basis.grade.value for e in r.clauses)
    click.echo(f"{r.file}: ruleset {r.name} is sound" + (f" (extends {' → '.join(r.chain[:-1])})" if len(r.chain) > 1 else ""))
    click.echo(f"  {len(r.clauses)} clauses: " + ", ".join(f"{grades[g]} {g}" for g in GRADES if grades[g]))
    click.echo(f"  deck of {t.n_cards} cards, {t.n_seats} seats, {t.n_tricks} tricks")
    if r.lacunae:
        click.echo(f"  {len(r.lacunae)} lacunae (every reading compiles):")
        width = max(len(c.lacuna.name) for c in r.lacunae)
        for c in r.lacunae:
            opt = c.lacuna.option(c.option)
            others = [o.name for o in c.lacuna.options if o.name != c.option]
            by = "" if c.chosen_by == r.name else f", chosen by {c.chosen_by}"
            click.echo(f"    {c.lacuna.name:<{width}}  {c.lacuna.basis.section:<6} plays {c.option} "
                       f"[{opt.basis.grade.value}{by}]" + (f"; also {', '.join(others)}" if others else ""))


@main.command()
@click.argument("ruleset")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "ir", "rules"]), default="text",
              show_default=True, help="text: prose by section; json: the resolved ruleset; ir: the file's IR; "
                                      "rules: the file printed back as rule text.")
@option_flag
def show(ruleset: str, fmt: str, option_items: tuple[str, ...]) -> None:
    """Show a ruleset as readable prose, grouped by manual section, or as data."""
    from ..rules.check import check as run_check, raise_for
    from ..rules.loader import load, locate, read_file
    from ..language.printer import format_ruleset
    from ..rules.prose import render_ruleset
    if fmt in ("ir", "rules"):
        rs = read_file(locate(ruleset))
        click.echo(rs.model_dump_json(indent=2) if fmt == "ir" else format_ruleset(rs), nl=fmt == "ir")
        return
    r = load(ruleset, _options(ruleset, option_items))
    raise_for(run_check(r))
    if fmt == "json":
        click.echo(r.model_dump_json(indent=2))
    else:
        click.echo(render_ruleset(r))


def _replay_session(path: Path, as_json: bool) -> None:
    from ..kernel.compiler import compile_ruleset
    from ..rules.loader import load
    from ..engine.session import format_ledger, ledger, read_session
    session = read_session(path)
    t = compile_ruleset(load(session.ruleset, session.options, chosen_by="the session's options", near=path.parent))
    try:
        lines = ledger(t, session, near=path.parent)
    except RecordError as err:
        raise RecordError(f"{path}: {err.message}") from None
    if as_json:
        click.echo(json.dumps({"ruleset": session.ruleset, "games": len(session.games),
                               "ledger": [x.model_dump() for x in lines]}, indent=2))
    else:
        click.echo(f"{len(session.games)} games of {session.ruleset}, replayed\n")
        click.echo(format_ledger(lines, t.settlement.unit))


@main.command()
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
    from ..kernel.compiler import compile_ruleset
    from ..rules.loader import load
    from ..simulation.progress import bar
    from ..engine.session import check_players, default_players, format_ledger, ledger, play_session
    opts = _options(ruleset, option_items)
    if json_out:
        output.check_file(json_out, "--json", _forced())
    r = load(ruleset, opts)
    t = compile_ruleset(r)
    clause = r.clause("session")
    if clause is None:
        raise UsageError(f"ruleset {r.name} has no session clause, so it has no rounds or cycles to play")
    names = [p.strip() for p in players.split(",")] if players else default_players(clause, t)
    try:
        check_players(clause, names, t)
    except SchachettError as err:
        raise UsageError(f"--players: {err.message}") from None
    total = cycles * clause.rounds_per_cycle * clause.games_per_round
    with bar(total, f"session of {r.name}", disable=quiet) as advance:
        record = play_session(t, r.name, opts, clause, names, cycles, seed, advance)
    lines = ledger(t, record, near=Path(r.file).parent)   # a ruleset of one's own is found beside its file
    click.echo(f"{total} games of {r.name} ({cycles} cycle{'s' if cycles > 1 else ''} of "
               f"{clause.rounds_per_cycle} rounds of {clause.games_per_round}), seed {seed}\n")
    click.echo(format_ledger(lines, t.settlement.unit))
    if json_out:
        output.write_file(json_out, record.model_dump_json(indent=1), "--json")
        click.echo(f"wrote {json_out}", err=True)


@main.command()
@click.argument("a")
@click.argument("b")
@click.option("--format", "fmt", type=click.Choice(["text", "md", "json"]), default="text", show_default=True)
@click.option("--all", "show_all", is_flag=True, help="List the clauses that agree too.")
def diff(a: str, b: str, fmt: str, show_all: bool) -> None:
    """Line up two rulesets clause by clause: same, changed, only in one."""
    from ..rules.check import check as run_check, raise_for
    from ..rules.diff import diff_rulesets, format_json, format_markdown, format_text
    from ..rules.loader import load
    ra, rb = load(a), load(b)
    raise_for(run_check(ra))
    raise_for(run_check(rb))
    d = diff_rulesets(ra, rb)
    click.echo({"text": lambda: format_text(d, show_all), "md": lambda: format_markdown(d, show_all),
                "json": lambda: format_json(d)}[fmt](), nl=fmt == "json")


@main.command()
@click.argument("ruleset")
@click.option("--deals", "-n", type=click.IntRange(min=1, max=MAX_DEALS), default=100000, show_default=True)
@click.option("--seed", "-s", type=int, default=0, show_default=True)
@option_flag
def kings(ruleset: str, deals: int, seed: int, option_items: tuple[str, ...]) -> None:
    """How often the deal gives one party both Kings: exactly, and by dealing."""
    from ..studies.kings import format_comparison
    from ..kernel.compiler import compile_ruleset
    from ..rules.loader import load
    t = compile_ruleset(load(ruleset, _options(ruleset, option_items)))
    if len(t.parties) != 2:
        raise UsageError(f"ruleset {t.name} has {len(t.parties)} parties; this count is for two")
    click.echo(format_comparison(t, deals, seed))


@main.command()
@click.option("--reading", "-r", "readings", multiple=True, metavar="LACUNA=OPTION[,OPTION…]",
              help="Sweep these readings instead of the default ones (repeatable).")
@click.option("--budget", type=click.IntRange(min=100), default=None, help="Search budget per scenario (nodes).")
@click.option("--seed", "-s", type=int, default=0, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def example12(readings: tuple[str, ...], budget: int | None, seed: int, as_json: bool) -> None:
    """Can §12's example totals, 190 against 68, arise in a game at all? For each combination of readings."""
    from ..studies import example12 as ex
    sweep = None
    if readings:
        sweep = {}
        for item in readings:
            name, sep, values = item.partition("=")
            if not sep or not values:
                raise UsageError(f"--reading {item!r}: write LACUNA=OPTION[,OPTION…], e.g. --reading remaining=each-hand,all-hands")
            sweep[name.strip()] = [v.strip() for v in values.split(",") if v.strip()]
        for name, values in sweep.items():
            _options("original", tuple(f"{name}={v}" for v in values))
    kwargs = {"seed": seed}
    if budget is not None:
        kwargs["budget"] = budget
    rep = ex.report(sweep, **kwargs)
    click.echo(rep.json_text() if as_json else rep.as_text())


@main.group()
def solitaire() -> None:
    """The solitaire: how many deals can be won, and deals of a chosen difficulty."""


@solitaire.command("survey")
@click.argument("ruleset", default="solitaire")
@click.option("--deals", "-n", type=click.IntRange(min=1), default=100, show_default=True)
@click.option("--first-seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--budget", type=click.IntRange(min=100), default=50000, show_default=True,
              help="Positions the search may visit per deal before it gives up.")
def solitaire_survey(ruleset: str, deals: int, first_seed: int, budget: int) -> None:
    """Search many deals for a winning line and sort them by difficulty."""
    from ..kernel.compiler import compile_ruleset
    from ..rules.loader import load
    from ..studies.solitaire import format_survey, survey
    t = compile_ruleset(load(ruleset))
    click.echo(format_survey(survey(t, deals, first_seed, budget), deals))


@solitaire.command("deals")
@click.argument("ruleset", default="solitaire")
@click.option("--difficulty", "level", type=click.Choice(["easy", "medium", "hard"]), default="medium",
              show_default=True)
@click.option("--count", type=click.IntRange(min=1, max=100), default=5, show_default=True)
@click.option("--first-seed", type=click.IntRange(min=0), default=0, show_default=True)
def solitaire_deals(ruleset: str, level: str, count: int, first_seed: int) -> None:
    """Seeds of deals of a chosen difficulty, to play with `schachett play solitaire --seed S`."""
    from ..kernel.compiler import compile_ruleset
    from ..rules.loader import load
    from ..studies.solitaire import difficulty
    t = compile_ruleset(load(ruleset))
    found, seed = [], first_seed
    while len(found) < count and seed < first_seed + 5000:
        label, verdict, rate = difficulty(t, seed, tries=60)
        if label == level:
            found.append(seed)
            click.echo(f"seed {seed}: {level} — random play wins {100 * rate:.0f}% of the time; a winning line "
                       f"leads by {verdict.margin} points" if verdict.margin is not None else
                       f"seed {seed}: {level} — random play wins {100 * rate:.0f}% of the time")
        seed += 1
    if len(found) < count:
        raise SchachettError(f"only {len(found)} {level} deals among seeds {first_seed}..{seed - 1}")


@main.group()
def site() -> None:
    """Build or serve the annotated rulebook site (MkDocs)."""


@site.command("build")
@click.option("--dir", "site_dir", type=click.Path(path_type=Path), default=None,
              help="Where to write the site (default: site/ in the project): a new or empty folder, or an earlier "
                   "build.")
@force_flag("Build into a folder that holds other files too: the site's files are added, replacing files of the "
            "same names; nothing is deleted.")
def site_build(site_dir: Path | None) -> None:
    """Generate every page and build the site with `mkdocs build --strict`.

    The site is built in a folder beside the target and put in place when it is complete; the
    target must be new, empty or an earlier build (each build leaves a marker file in it).
    """
    import subprocess

    from ..paths import home
    target = (site_dir or home() / "site").resolve()
    how = output.check_site(target, "--dir", _forced())

    def build(staged: Path) -> bool:
        return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(staged)],
                              cwd=home(), env=_quiet_mkdocs()).returncode == 0

    if not output.build_site(target, how, build, "--dir"):
        raise SchachettError(f"the site did not build, and {target} is as it was: see the messages above "
                             f"(mkdocs build --strict)")
    click.echo(f"the site is in {target}; open {target / 'index.html'} or run `schachett site serve`")


@site.command("serve")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
def site_serve(port: int) -> None:
    """Serve the site on localhost, rebuilding it when a source changes."""
    import subprocess

    from ..paths import home
    subprocess.run([sys.executable, "-m", "mkdocs", "serve", "--strict", "--dev-addr", f"127.0.0.1:{port}"], cwd=home(),
                   env=_quiet_mkdocs())


def _quiet_mkdocs() -> dict:
    import os
    # The theme and a plugin print banners about MkDocs' future on every build; they are not about this site.
    return dict(os.environ, NO_MKDOCS_2_WARNING="1", DISABLE_MKDOCS_2_WARNING="true")


@main.command()
def schema() -> None:
    """Print the JSON Schema of the rule files' IR."""
    click.echo(json.dumps(ir.json_schema(), indent=2))


@main.command()
@click.argument("record", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the tricks, events, points and settlement as JSON.")
@option_flag
def replay(record: Path, as_json: bool, option_items: tuple[str, ...]) -> None:
    """Check, play and score a game record (JSON), or every game of a session record."""
    from ..engine.replay import format_report, read_record, replay as run
    from ..engine.session import is_session_file
    if is_session_file(record):
        _replay_session(record, as_json)
        return
    rec = read_record(record)
    # Checked here, as the other commands do, so that a bad --option is a usage error and not
    # reported as the record's own options.
    opts = _options(rec.ruleset, option_items)
    report = run(rec, str(record), opts)
    click.echo(json.dumps(report.as_json(), indent=2, ensure_ascii=False) if as_json else format_report(report))


def _bots(value: str) -> tuple[str, ...]:
    from ..simulation.simulate import BOT_NAMES
    names = tuple(x.strip() for x in value.split(",") if x.strip())
    for name in names:
        if name not in BOT_NAMES:
            raise UsageError(f"--bots {value}: unknown bot {name!r}; the bots are {', '.join(BOT_NAMES)}")
    if not names:
        raise UsageError("--bots needs at least one bot")
    return names


def _spec(ruleset, opts, bots, games, seed, samples):
    from ..simulation.simulate import Spec, tables_of
    spec = Spec(ruleset=ruleset, options=opts, bots=_bots(bots), games=games, seed=seed, samples=samples)
    try:
        spec.seat_bots(tables_of(spec))
    except ValueError as err:
        raise UsageError(f"--bots {bots}: {err}") from None
    return spec


run_flags = [
    click.option("--games", "-n", type=click.IntRange(min=1, max=MAX_GAMES), default=10000, show_default=True),
    click.option("--seed", "-s", type=int, default=0, show_default=True),
    click.option("--bots", "-b", default="random", show_default=True,
                 help="random, heuristic, mc: one for every seat, one per party, or one per seat (comma-separated)."),
    click.option("--samples", type=click.IntRange(min=1), default=24, show_default=True,
                 help="Deals the Monte-Carlo player samples for each decision."),
    click.option("--workers", "-w", type=click.IntRange(min=1), default=None,
                 help="Processes to use (default: every core)."),
    click.option("--no-cache", is_flag=True, help="Play again even if this run is in the cache."),
    click.option("--quiet", "-q", is_flag=True, help="No progress bar."),
]


def with_run_flags(fn):
    for flag in reversed(run_flags):
        fn = flag(fn)
    return fn


@main.command()
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
    from ..simulation.parallel import default_workers
    from ..simulation.progress import bar
    from ..simulation.simulate import cached_run, format_stats, stats_json
    from ..simulation.plots import FIGURES, FORMATS
    spec = _spec(ruleset, _options(ruleset, option_items), bots, games, seed, samples)
    if json_out:
        output.check_file(json_out, "--json", _forced())
    if plot_dir:
        output.check_folder(plot_dir, "--plot", [f"{f}.{ext}" for f in FIGURES for ext in FORMATS], _forced())
    with bar(games, f"simulating {ruleset}", disable=quiet) as advance:
        stats, cached = cached_run(spec, workers or default_workers(), advance, backend, scheduler, not no_cache)
    if stats.stopped:
        click.echo(f"stopped after {stats.games} of {games} games (Ctrl-C); the games played so far:", err=True)
    elif cached:
        click.echo("(from the cache: the same ruleset, options, bots, games and seed)", err=True)
    click.echo(format_stats(stats, spec))
    if json_out:
        output.write_file(json_out, json.dumps(stats_json(stats), indent=2), "--json")
        click.echo(f"wrote {json_out}", err=True)
    if plot_dir:
        from ..simulation.plots import plot_stats
        files = output.write_drawn(plot_dir, lambda scratch: plot_stats(stats, scratch), "--plot")
        click.echo(f"wrote {len(files)} plot files into {plot_dir}", err=True)
    if stats.stopped:
        sys.exit(130)


@main.command()
@click.argument("ruleset")
@click.option("--lacuna", "-l", "lacunae", multiple=True, required=True,
              help="A lacuna to sweep, by name or section (repeatable: every combination is played).")
@with_run_flags
def sweep(ruleset: str, lacunae: tuple[str, ...], games: int, seed: int, bots: str, samples: int,
          workers: int | None, no_cache: bool, quiet: bool) -> None:
    """Play every reading (and combination) of some lacunae on the same deals and rank their effects."""
    from ..simulation.parallel import default_workers
    from ..simulation.progress import bar
    from ..simulation.sweep import combinations, format_sweep, sweep as run_sweep
    _spec(ruleset, {}, bots, games, seed, samples)
    names, combos, _ = combinations(ruleset, list(lacunae))
    with bar(games * len(combos), f"sweeping {', '.join(names)}", disable=quiet) as advance:
        names, rows, alpha = run_sweep(ruleset, list(lacunae), games, seed, _bots(bots), workers or default_workers(),
                                       advance, not no_cache, samples=samples)
    click.echo(format_sweep(ruleset, names, rows, alpha, games))


@main.command()
@click.argument("rulesets", nargs=-1, required=True)
@with_run_flags
def compare(rulesets: tuple[str, ...], games: int, seed: int, bots: str, samples: int, workers: int | None,
            no_cache: bool, quiet: bool) -> None:
    """The same measurements for several rulesets, side by side."""
    from ..simulation.parallel import default_workers
    from ..simulation.progress import bar
    from ..simulation.sweep import compare_rulesets, format_comparison
    for ref in rulesets:
        _spec(ref, {}, bots, games, seed, samples)
    with bar(games * len(rulesets), "comparing", disable=quiet) as advance:
        results = compare_rulesets(list(rulesets), games, seed, _bots(bots), workers or default_workers(), advance,
                                   not no_cache, samples)
    click.echo(format_comparison(results))


@main.command()
@click.argument("ruleset")
@click.option("--seed", "-s", type=int, default=0, show_default=True)
@click.option("--dealer", type=click.IntRange(min=0), default=None, help="The dealer's seat (default: seed mod seats).")
@click.option("--out", "out", type=click.Path(path_type=Path), help="Write the record here.")
@force_flag()
@option_flag
def sample(ruleset: str, seed: int, dealer: int | None, out: Path | None, option_items: tuple[str, ...]) -> None:
    """Play one random legal game and print (or write) its record."""
    from ..kernel.compiler import compile_ruleset
    from ..engine.game import Game
    from ..rules.loader import load
    from ..engine.replay import record_of
    from ..simulation.simulate import game_rng
    opts = _options(ruleset, option_items)
    if out:
        output.check_file(out, "--out", _forced())
    r = load(ruleset, opts)
    t = compile_ruleset(r)
    d = seed % t.n_seats if dealer is None else dealer
    if d >= t.n_seats:
        raise UsageError(f"--dealer {d}: ruleset {r.name} has seats 0 to {t.n_seats - 1}")
    game = Game.deal(t, d, game_rng(seed, 0))
    game.play_randomly(game_rng(seed, 1))
    text = record_of(game, r.name, opts).model_dump_json(indent=1)
    if out:
        output.write_file(out, text + "\n", "--out")
        click.echo(f"wrote {out}", err=True)
    else:
        click.echo(text)


@main.command()
@click.argument("ruleset")
@click.option("--seat", type=int, default=None,
              help="Your seat (default 0; in a solitaire the first seat no automaton plays).")
@click.option("--seed", "-s", type=int, default=None, help="The deal's seed (default: a random one, printed).")
@click.option("--bots", "-b", default="heuristic", show_default=True,
              help="random, heuristic, mc for the other seats: one for all, one per party, or one per seat.")
@click.option("--dealer", type=click.IntRange(min=0), default=None, help="The dealer's seat (default: seed mod seats).")
@click.option("--out", "out", type=click.Path(path_type=Path),
              help="Where to save the game's record (default: schachett-game-SEED.json here).")
@force_flag()
@option_flag
def play(ruleset: str, seat: int | None, seed: int | None, bots: str, dealer: int | None, out: Path | None,
         option_items: tuple[str, ...]) -> None:
    """Play a game yourself at the terminal against bots (plain stdin and stdout; a pipe works too).

    On your turn type a card (w7, sIV) or its number in your hand; ? lists the commands. The game is
    saved as a record that `schachett replay` plays back.
    """
    import random

    from ..players import make_bot
    from ..kernel.compiler import compile_ruleset
    from ..engine.game import Game
    from ..rules.loader import load
    from ..engine.replay import record_of
    from ..simulation.simulate import Spec
    from ..playouts.streams import GameStream
    from .terminal import Abandoned, Table, players_of, render_end, render_start, terminal_writer
    opts = _options(ruleset, option_items)
    r = load(ruleset, opts)
    t = compile_ruleset(r)
    free = [s for s in range(t.n_seats) if t.controller(s) == s and not (t.automaton and s in t.automaton[0])]
    seat = free[0] if seat is None else seat
    if seat not in free:
        why = ("does not exist" if not 0 <= seat < t.n_seats else
               f"is a dummy, played by seat {t.controller(seat)}" if t.controller(seat) != seat else
               "is played by the automaton")
        raise UsageError(f"--seat {seat}: in ruleset {r.name} that seat {why}; you may take seat "
                         f"{', '.join(map(str, free))}")
    try:
        names = Spec(ruleset=r.name, bots=_bots(bots), games=1).seat_bots(t)
    except ValueError as err:
        raise UsageError(f"--bots {bots}: {err}") from None
    seed = random.randrange(10 ** 6) if seed is None else seed
    d = seed % t.n_seats if dealer is None else dealer
    if d >= t.n_seats:
        raise UsageError(f"--dealer {d}: ruleset {r.name} has seats 0 to {t.n_seats - 1}")
    out = output.check_file(out or Path(f"schachett-game-{seed}.json"), "--out", _forced())
    mine = players_of(t, seat)
    stream = GameStream(seed, 0)
    game = Game.deal(t, d, stream)
    write = terminal_writer(sys.stdout.isatty())
    write(render_start(t, r.title or r.name, seed, d, mine, dict(enumerate(names))))
    players = {s: make_bot(names[s], t) for s in range(t.n_seats) if t.controller(s) == s and s not in mine}
    table = Table(game, mine, players, stream, lambda: sys.stdin.readline(), write, echo=not sys.stdin.isatty())
    try:
        result = table.run()
    except Abandoned as err:
        click.echo(err.message, err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        click.echo("\ninterrupted: the game is abandoned, and nothing was saved", err=True)
        sys.exit(130)
    write(render_end(t, result, mine))
    output.write_file(out, record_of(game, r.name, opts).model_dump_json(indent=1) + "\n", "--out")
    write(f"The game is saved in {out} (schachett replay {out} plays it back).")


@main.command()
@click.argument("cite", required=False)
def manual(cite: str | None) -> None:
    """List the manual's sections, or print one (e.g. `schachett manual §3.2`)."""
    from ..rules.manual import load_manual
    m = load_manual()
    if not cite:
        for s in m:
            mark = " (lost)" if s.status == "missing" else ""
            pages = f"p.{s.pages[0]}" + (f"–{s.pages[-1]}" if len(s.pages) > 1 else "") if s.pages else ""
            click.echo(f"{s.cite:<14} {pages:<9} {s.title}{mark}")
        return
    res = m.resolve(cite)
    s = res.section
    text = s.subsection_text(res.subsection.id) if res.subsection else s.text
    click.echo(f"{s.cite} {s.title} (pages {', '.join(map(str, s.pages)) or '–'}; {s.status})\n")
    click.echo(text)
    if s.translator_notes.strip() not in ("", "None."):
        click.echo("\nTranslator's notes:\n" + s.translator_notes)
    if s.editor_notes.strip() not in ("", "None."):
        click.echo("\nEditor's notes:\n" + s.editor_notes)


@main.command()
@click.option("--games", type=click.IntRange(min=100), default=20000, show_default=True)
def bench(games: int) -> None:
    """Measure play-out speed and the time to parse, check and compile a ruleset."""
    from ..simulation.bench import run_all
    click.echo(run_all(games))


main.add_command(deck)
main.add_command(rules)
main.add_command(scoresheet)

if __name__ == "__main__":  # pragma: no cover
    main()
