"""A table's session: who plays, where each player sits in game N, who deals it, and the ledger so far.

The schedule is the ruleset's own (:mod:`schachett_rules.engine.session`): §13's seat changes
between rounds, or the Kaiser's reigns; a ruleset without a session clause keeps its seating and
passes the deal on by its dealer clause. The ledger is the engine's, replayed from the records of
the finished games.

>>> from schachett_rules.kernel.compiler import tables_for
>>> from schachett_rules.rules.loader import load
>>> plan = Plan(load("three-player"), tables_for("three-player"))
>>> plan.players
['A', 'B', 'C']
>>> [plan.seating(n) for n in (1, 9, 17)]      # A reigns for 8 games, then B, then C
[['A', 'B', 'dummy', 'C'], ['B', 'C', 'dummy', 'A'], ['C', 'A', 'dummy', 'B']]
>>> plan.free_seats(['B', 'C', 'dummy', 'A'])  # the seats a player decides for: the dummy's is the Kaiser's
[0, 1, 3]
"""

from __future__ import annotations

import functools

from ..engine.session import DUMMY, SessionGame, SessionRecord, default_players, ledger, seatings
from ..engine.replay import GameRecord
from ..kernel.automaton import policy_of
from ..kernel.tables import Tables
from ..kernel.compiler import compile_ruleset
from ..rules.loader import Resolved, load

AUTOMATON = "automaton"


class Plan:
    """The session of one ruleset: its players, the seating and round of each game, the ledger."""

    def __init__(self, resolved: Resolved, t: Tables, options: dict[str, str] | None = None):
        self.r, self.t, self.options = resolved, t, dict(options or {})
        self.clause = resolved.clause("session")
        if self.clause is not None:
            self.players = default_players(self.clause, t)
            self.rounds = seatings(self.clause, self.players, t.n_seats)
            self.per_round = self.clause.games_per_round
        else:
            seats = [s for s in range(t.n_seats) if self._plays(s)]
            self.players = [chr(ord("A") + i) for i in range(len(seats))]
            first = [DUMMY if t.controller(s) != s else AUTOMATON for s in range(t.n_seats)]
            for s, p in zip(seats, self.players):
                first[s] = p
            self.rounds, self.per_round = [first], 1

    def _plays(self, seat: int) -> bool:
        return self.t.controller(seat) == seat and not policy_of(self.t, seat)

    def round_of(self, number: int) -> int:
        """The round of game ``number`` (from 1)."""
        return (number - 1) // self.per_round + 1

    def seating(self, number: int) -> list[str]:
        """The player (or ``dummy``, ``automaton``) on each seat in game ``number``."""
        return list(self.rounds[(self.round_of(number) - 1) % len(self.rounds)])

    def dealer(self, number: int) -> int:
        """The seat that deals game ``number`` (the dealer clause)."""
        return self.t.dealer_of(number - 1)

    def free_seats(self, seating: list[str]) -> list[int]:
        """The seats whose decisions a player makes (not a dummy's, not an automaton's)."""
        return [s for s in range(self.t.n_seats) if seating[s] not in (DUMMY, AUTOMATON)]

    @property
    def keeps_ledger(self) -> bool:
        """Whether every seat's money goes to a player (not with an automaton at the table)."""
        return all(p != AUTOMATON for p in self.rounds[0])

    def ledger(self, finished: list[tuple[int, list[str], GameRecord]]) -> list[dict] | None:
        """Each player's games, wins, points and money over the finished games (number, seating, record)."""
        if not self.keeps_ledger:
            return None
        games = [SessionGame(number=n, round=self.round_of(n), seating=seating, record=rec)
                 for n, seating, rec in finished]
        session = SessionRecord(ruleset=self.r.name, options=self.options, players=self.players, games=games)
        return [line.model_dump() for line in ledger(self.t, session)]


@functools.lru_cache(maxsize=256)
def rules_of(ruleset: str, options: tuple[tuple[str, str], ...]) -> tuple[Resolved, Tables, Plan]:
    """A ruleset with readings (sorted pairs): resolved, compiled, and its session plan (kept once loaded)."""
    r = load(ruleset, dict(options), chosen_by="the table's options")
    t = compile_ruleset(r)
    return r, t, Plan(r, t, dict(options))
