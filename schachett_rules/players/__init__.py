"""Players: bots that choose from what their seat may see, and the loop that seats them at a table.

A bot is named by its kind, and a strong one may carry its strength after a colon: ``mc:48`` samples 48 deals
a decision, ``dd:20`` solves 20, ``ismcts:3000`` runs 3000 iterations of its tree search.
"""

from __future__ import annotations

from ..kernel.tables import Tables
from .bots import HeuristicBot, RandomBot
from .ismcts import TreeSearchBot
from .montecarlo import MonteCarloBot
from .sampling import SamplingBot

BOTS = {"random": RandomBot, "heuristic": HeuristicBot, "mc": MonteCarloBot, "dd": SamplingBot,
        "ismcts": TreeSearchBot}
BOT_NAMES = tuple(BOTS)
# the setting a strength after the colon sets, for the bots that have one
STRENGTH = {"mc": "samples", "dd": "samples", "ismcts": "iterations"}
MAX_STRENGTH = 10**6


def bot_kind(name: str) -> str:
    """The kind of a bot named with or without its strength.

    >>> bot_kind("dd:12"), bot_kind("heuristic")
    ('dd', 'heuristic')
    """
    return name.partition(":")[0]


def bot_problem(name: str) -> str | None:
    """What is wrong with a bot's name (an unknown kind, a strength it cannot take), or None.

    >>> bot_problem("dd:12"), bot_problem("random:3")
    (None, "bot 'random' has no strength to set; the bots with one are mc, dd, ismcts")
    >>> bot_problem("dd:x")
    "bot 'dd:x': the strength after the colon is a whole number from 1 to 1000000"
    """
    kind, colon, strength = name.partition(":")
    if kind not in BOTS:
        return f"unknown bot {kind!r}; the bots are {', '.join(BOT_NAMES)}"
    if not colon:
        return None
    if kind not in STRENGTH:
        return f"bot {kind!r} has no strength to set; the bots with one are {', '.join(STRENGTH)}"
    if not strength.isdigit() or not 1 <= int(strength) <= MAX_STRENGTH:
        return f"bot {name!r}: the strength after the colon is a whole number from 1 to {MAX_STRENGTH}"
    return None


def make_bot(name: str, t: Tables, **options):
    """A bot by name: random, heuristic, mc, dd or ismcts, with a strength after a colon (``dd:20``).

    ``options`` go to the Monte-Carlo player (its ``samples``); a strength in the name comes before them.

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> make_bot("heuristic", tables_for("original")).name, make_bot("mc:6", tables_for("original")).samples
    ('heuristic', 6)
    """
    problem = bot_problem(name)
    if problem:
        raise KeyError(problem)
    kind, _, strength = name.partition(":")
    settings = dict(options) if kind == "mc" else {}
    if strength:
        settings[STRENGTH[kind]] = int(strength)
    return BOTS[kind](t, **settings)
