"""The commands of the studies: ``kings`` (how the deal shares the Kings), ``example12`` (can §12's example
arise?) and ``solitaire`` (which deals can be won, and how hard they are)."""

from __future__ import annotations

import click

from ..errors import SchachettError, UsageError
from ..kernel.compiler import compile_ruleset
from ..rules.loader import load
from ..studies import example12 as ex
from ..studies.kings import format_comparison
from ..studies.solitaire import difficulty, format_survey, survey
from .common import option_flag, options_of

MAX_DEALS = 10**9   # past this the dealing would take days


@click.command()
@click.argument("ruleset")
@click.option("--deals", "-n", type=click.IntRange(min=1, max=MAX_DEALS), default=100000, show_default=True)
@click.option("--seed", "-s", type=int, default=0, show_default=True)
@option_flag
def kings(ruleset: str, deals: int, seed: int, option_items: tuple[str, ...]) -> None:
    """How often the deal gives one party both Kings: exactly, and by dealing."""
    t = compile_ruleset(load(ruleset, options_of(ruleset, option_items)))
    if len(t.parties) != 2:
        raise UsageError(f"ruleset {t.name} has {len(t.parties)} parties; this count is for two")
    click.echo(format_comparison(t, deals, seed))


@click.command()
@click.option("--reading", "-r", "readings", multiple=True, metavar="LACUNA=OPTION[,OPTION…]",
              help="Sweep these readings instead of the default ones (repeatable).")
@click.option("--budget", type=click.IntRange(min=100), default=None, help="Search budget per scenario (nodes).")
@click.option("--seed", "-s", type=int, default=0, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def example12(readings: tuple[str, ...], budget: int | None, seed: int, as_json: bool) -> None:
    """Can the totals of §12's worked example arise in a game at all? For each combination of readings."""
    sweep = None
    if readings:
        sweep = {}
        for item in readings:
            name, sep, values = item.partition("=")
            if not sep or not values:
                raise UsageError(f"--reading {item!r}: write LACUNA=OPTION[,OPTION…], "
                                 f"e.g. --reading remaining=each-hand,all-hands")
            sweep[name.strip()] = [v.strip() for v in values.split(",") if v.strip()]
        for name, values in sweep.items():
            options_of("original", tuple(f"{name}={v}" for v in values))
    kwargs = {"seed": seed}
    if budget is not None:
        kwargs["budget"] = budget
    rep = ex.report(sweep, **kwargs)
    click.echo(rep.json_text() if as_json else rep.as_text())


@click.group()
def solitaire() -> None:
    """The solitaire: how many deals can be won, and deals of a chosen difficulty."""


@solitaire.command("survey")
@click.argument("ruleset", default="solitaire")
@click.option("--deals", "-n", type=click.IntRange(min=1), default=100, show_default=True)
@click.option("--first-seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--budget", type=click.IntRange(min=100), default=50_000_000, show_default=True,
              help="Positions the search may visit per deal before it gives up.")
def solitaire_survey(ruleset: str, deals: int, first_seed: int, budget: int) -> None:
    """Search many deals for a winning line and sort them by difficulty."""
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
