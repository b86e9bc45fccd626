"""Duels and a ladder of bots: every pair plays the same deals in both seatings.

A duel of bots A and B plays each deal twice: once with A in every seat of the first party and B in the
other's, once the other way round; the deal and the random numbers of each game are those of game ``i`` of
the seed (:class:`~schachett_rules.kernel.streams.GameStream`), so luck of the cards falls on both alike.
The measure is A's share of the decided games (equal points are left out), with its Wilson 95% interval.
A ladder plays every pair and rates the bots on the Elo scale (a Bradley-Terry fit of all the duels; the
first bot named is rated 0). Duels run in chunks of deals through the run backends (local cores or Dask)
and are kept in the simulation cache.

>>> r = duel(DuelSpec(ruleset="original", a="heuristic", b="random", games=4, seed=1))
>>> r.games, r.a_wins + r.b_wins + r.draws
(4, 4)
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import asdict, dataclass

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .. import __version__
from ..kernel.state import State
from ..kernel.streams import GameStream
from ..players import bot_problem, make_bot
from ..players.bots import chooser
from .parallel import map_chunks
from .simulate import cache_dir, tables_of
from .stats import wilson

DEALS_PER_CHUNK = 2


class DuelSpec(BaseModel):
    """Everything that decides a duel's result (and so its cache key)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    ruleset: str
    options: dict[str, str] = {}
    a: str
    b: str
    games: int = Field(ge=1)          # games in all: half the deals with A first, each deal in both seatings
    seed: int = 0

    @field_validator("a", "b")
    @classmethod
    def _known(cls, value):
        problem = bot_problem(value)
        if problem:
            raise ValueError(problem)
        return value

    @property
    def deals(self) -> int:
        """Deals played, each in both seatings."""
        return (self.games + 1) // 2


@dataclass(frozen=True)
class DuelResult:
    """A duel's count: A's and B's wins (in each seating too), equal games, A's share of decided games."""

    a: str
    b: str
    games: int
    a_wins: int
    b_wins: int
    draws: int
    a_wins_first: int          # A's wins while A played the first party
    b_wins_first: int          # B's wins while B played the first party

    @property
    def decided(self) -> int:
        return self.a_wins + self.b_wins

    @property
    def a_share(self) -> float:
        return self.a_wins / self.decided if self.decided else 0.5

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.a_wins, self.decided)

    def as_json(self) -> dict:
        """The duel as JSON: ``a_share``, ``low`` and ``high`` (A's share of decided games and its interval)."""
        low, high = self.interval
        return {"a": self.a, "b": self.b, "a_share": self.a_share, "low": low, "high": high, "games": self.games,
                "decided": self.decided, "a_wins": self.a_wins, "b_wins": self.b_wins, "draws": self.draws}


def play_duel_chunk(spec: DuelSpec, index: int) -> tuple[int, ...]:
    """Chunk ``index`` of a duel: (A wins, B wins, draws, A's wins as first party, B's as first party)."""
    t = tables_of_duel(spec)
    bot_a, bot_b = make_bot(spec.a, t), make_bot(spec.b, t)     # each its own, even when the names agree
    a_wins = b_wins = draws = a_first = b_first = 0
    for deal in range(index * DEALS_PER_CHUNK, min(spec.deals, (index + 1) * DEALS_PER_CHUNK)):
        for game, (first, second) in enumerate(((bot_a, bot_b), (bot_b, bot_a))):
            if 2 * deal + game >= spec.games:
                break
            stream = GameStream(spec.seed, deal)
            state = State.deal(t, deal % t.n_seats, stream)
            state.advance(chooser([first if t.party_of[s] == 0 else second for s in range(t.n_seats)], stream))
            winner = state.result().winner
            if winner is None:
                draws += 1
            elif winner == game:                 # A plays the first party in game 0, the second in game 1
                a_wins += 1
                a_first += winner == 0
            else:
                b_wins += 1
                b_first += winner == 0
    return a_wins, b_wins, draws, a_first, b_first


def tables_of_duel(spec: DuelSpec):
    """The duel's ruleset, compiled once per process."""
    from .simulate import Spec
    return tables_of(Spec(ruleset=spec.ruleset, options=spec.options, games=1))


def _key(spec: DuelSpec) -> str:
    from .simulate import Spec, spec_key
    ruleset = spec_key(Spec(ruleset=spec.ruleset, options=spec.options, games=1))
    blob = json.dumps({"duel": spec.model_dump(mode="json"), "ruleset": ruleset, "version": __version__,
                       "chunk": DEALS_PER_CHUNK}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:24]


def duel(spec: DuelSpec, workers: int = 1, progress=None, backend: str = "local", address: str | None = None,
         use_cache: bool = True) -> DuelResult:
    """Play (or take from the cache) a duel; the same for any number of workers."""
    path = cache_dir() / f"duel-{_key(spec)}.json"
    if use_cache and path.is_file():
        try:
            return DuelResult(**json.loads(path.read_text(encoding="utf-8")))
        except (ValueError, TypeError):
            pass   # a damaged entry is played again
    totals = [0] * 5
    chunks = (spec.deals + DEALS_PER_CHUNK - 1) // DEALS_PER_CHUNK
    for index, part in map_chunks(play_duel_chunk, spec, chunks, workers, backend, address):
        totals = [x + y for x, y in zip(totals, part)]
        if progress is not None:
            progress(min(2 * DEALS_PER_CHUNK, spec.games - 2 * DEALS_PER_CHUNK * index))
    result = DuelResult(spec.a, spec.b, spec.games, *totals)
    if use_cache:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(asdict(result)), encoding="utf-8")
        tmp.replace(path)
    return result


def ratings(bots: list[str], results: list[DuelResult], rounds: int = 200) -> dict[str, float]:
    """Elo ratings from the duels' decided games (a Bradley-Terry fit by minorisation; the first bot at 0).

    Half a win is added both ways to every pair, so that a bot that never lost keeps a finite rating.

    >>> r = ratings(["a", "b"], [DuelResult("a", "b", 100, 76, 24, 0, 38, 12)])
    >>> round(r["b"])        # 400 log10(76.5 / 24.5) = 197.8: b 198 points below a
    -198
    """
    wins = {(x, y): 0.5 for x in bots for y in bots if x != y}
    for r in results:
        wins[r.a, r.b] += r.a_wins
        wins[r.b, r.a] += r.b_wins
    strength = dict.fromkeys(bots, 1.0)
    for _ in range(rounds):
        new = {}
        for x in bots:
            won = sum(wins[x, y] for y in bots if y != x)
            denom = sum((wins[x, y] + wins[y, x]) / (strength[x] + strength[y]) for y in bots if y != x)
            new[x] = won / denom if denom else strength[x]
        strength = new
    anchor = strength[bots[0]]
    return {x: 400 * math.log10(strength[x] / anchor) for x in bots}


def ladder(ruleset: str, bots: list[str], games: int, seed: int = 0, options: dict | None = None,
           workers: int = 1, progress=None, backend: str = "local", address: str | None = None,
           use_cache: bool = True) -> tuple[list[DuelResult], dict[str, float]]:
    """Every pair of ``bots`` in a duel of ``games`` games; the duels and the ratings."""
    results = [duel(DuelSpec(ruleset=ruleset, options=options or {}, a=a, b=b, games=games, seed=seed), workers,
                    progress, backend, address, use_cache)
               for i, a in enumerate(bots) for b in bots[i + 1:]]
    return results, ratings(bots, results)


def format_ladder(ruleset: str, bots: list[str], results: list[DuelResult], rating: dict[str, float],
                  seed: int) -> str:
    """A ladder as text: each pair's share with its interval, then the ratings, best first."""
    lines = [f"Ladder of {ruleset}, seed {seed}: each pair on the same deals in both seatings", "",
             "pair                      games  decided  first's share of decided games (95% interval)"]
    for r in results:
        low, high = r.interval
        lines.append(f"  {r.a + ' vs ' + r.b:<24}{r.games:>6} {r.decided:>8}  "
                     f"{100 * r.a_share:5.1f}% [{100 * low:.1f}, {100 * high:.1f}]")
    lines += ["", f"rating (Elo, {bots[0]} = 0)"]
    for name in sorted(bots, key=lambda x: -rating[x]):
        lines.append(f"  {name:<12}{rating[name]:+7.0f}")
    return "\n".join(lines)
