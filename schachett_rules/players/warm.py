"""Readying the strong players: their compiled code made (or read from numba's cache) before anyone waits for it.

The sampling player's search and the play-outs every strong player runs are compiled by numba on their first
call. From its cache that takes a second; after an install, or a change to the sources they are built from
(:mod:`schachett_rules.playouts.numba_cache`), it takes a couple of minutes on one core, and a person at an
online table would wait that long for a bot's first card. One game with every kind of strong player at the
table compiles all of it: the code is the same for every ruleset, so the one game serves them all.

>>> seconds = warm_up()
>>> seconds >= 0
True
"""

from __future__ import annotations

import random
import time

from ..kernel.compiler import tables_for
from . import make_bot
from .bots import play_game

# a strength small enough to be quick once compiled, with every path of each player's compiled code still run:
# the sampling player solves to the end from the last tricks and plays out before them
PLAYERS = ("dd:2", "mc:2", "ismcts:20", "heuristic")


def warm_up(ruleset: str = "original") -> float:
    """Play one game of ``ruleset`` with every kind of strong player seated; the seconds it took."""
    start = time.perf_counter()
    t = tables_for(ruleset)
    bots = [make_bot(PLAYERS[seat % len(PLAYERS)], t) for seat in range(t.n_seats)]
    play_game(t, 0, bots, random.Random(0))
    return time.perf_counter() - start
