"""Players: bots that choose from what their seat may see, and the loop that seats them at a table."""

from __future__ import annotations

from ..kernel.tables import Tables
from .bots import HeuristicBot, RandomBot
from .montecarlo import MonteCarloBot

BOTS = {"random": RandomBot, "heuristic": HeuristicBot, "mc": MonteCarloBot}


def make_bot(name: str, t: Tables, **options):
    """A bot by name: random, heuristic or mc (``options`` go to the Monte-Carlo player).

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> make_bot("heuristic", tables_for("original")).name
    'heuristic'
    """
    if name not in BOTS:
        raise KeyError(name)
    return BOTS[name](t, **options) if name == "mc" else BOTS[name](t)
