"""What the commands share: the ``--option`` and ``--force`` flags.

A lacuna's reading named with ``--option`` is checked against the ruleset before any work is
done, and a bad one is a usage error (exit code 2), as a mistake in any other argument is.
"""

from __future__ import annotations

import click

from ..errors import SchachettError, UsageError
from ..rules.loader import load, parse_option_args


def options_of(ref: str, items: tuple[str, ...]) -> dict[str, str]:
    """Validate ``--option`` values against the ruleset (bad ones are usage errors)."""
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


def forced() -> bool:
    """Whether the command was given --force (kept on the context, so that no command's signature carries it)."""
    return click.get_current_context().meta.get("force", False)


def force_flag(help: str = "Replace files that already exist."):
    """The --force flag of every command that writes."""
    return click.option("--force", "-f", is_flag=True, expose_value=False, callback=_remember_force, help=help)
