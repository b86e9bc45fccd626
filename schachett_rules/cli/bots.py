"""The ``--bots`` flag: the bots named for the seats, checked against the bots there are."""

from __future__ import annotations

from ..errors import UsageError
from ..players import bot_problem


def bot_names(value: str) -> tuple[str, ...]:
    """The bots named in a ``--bots`` value (comma-separated); an unknown or missing one is a usage error.

    >>> bot_names("random, mc")
    ('random', 'mc')
    """
    names = tuple(x.strip() for x in value.split(",") if x.strip())
    for name in names:
        problem = bot_problem(name)
        if problem:
            raise UsageError(f"--bots {value}: {problem}")
    if not names:
        raise UsageError("--bots needs at least one bot")
    return names
