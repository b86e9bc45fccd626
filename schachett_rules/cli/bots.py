"""The ``--bots`` flag: the bots named for the seats, checked against the bots there are."""

from __future__ import annotations

from ..errors import UsageError
from ..simulation.simulate import BOT_NAMES


def bot_names(value: str) -> tuple[str, ...]:
    """The bots named in a ``--bots`` value (comma-separated); an unknown or missing one is a usage error.

    >>> bot_names("random, mc")
    ('random', 'mc')
    """
    names = tuple(x.strip() for x in value.split(",") if x.strip())
    for name in names:
        if name not in BOT_NAMES:
            raise UsageError(f"--bots {value}: unknown bot {name!r}; the bots are {', '.join(BOT_NAMES)}")
    if not names:
        raise UsageError("--bots needs at least one bot")
    return names
