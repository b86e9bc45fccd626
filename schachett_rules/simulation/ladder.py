"""Duels and a ladder of bots: every pair plays the same deals in both seatings.

A duel of bots A and B plays each deal twice. The ruleset's parties go to A and B in turn, A, B, A, B ... (with
two parties A holds the first, B the second; in Hearts, each player alone, A holds seats 0 and 2, B seats 1 and
3), and the second game of the deal swaps them, so each bot holds every party equally often. The deal and the
random numbers of both games are those of game ``i`` of the seed
(:class:`~schachett_rules.kernel.streams.GameStream`), so luck of the cards falls on both alike.

A game is decided for A when A's best seat is ahead of B's best seat (:func:`ahead`): with two parties, when
A's party wins the game (the kernel's winner; equal points decide nothing); with more, when the best standing
among A's seats (its party's game points, the fewest the best in Hearts, or its points where no game points are
counted) beats the best among B's: the table's winner sits in one of A's seats. A tie for the best between a
seat of A and a seat of B decides nothing. The best seat is chosen over A's mean place against B's because it
asks of every game what the two-party duel asks, who won it, so a share means the same in Whist and in Hearts
and a two-party duel keeps its meaning; a mean place would also count how a bot's losing seats lose (third
place rather than fourth), which a game of Hearts does not reward. Where the parties form in the play
(Schafkopf's call), the winning party's seats decide: a party of both bots' seats decides nothing.

The measure is A's share of the decided games, with its Wilson 95% interval.
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

from ..kernel.state import State
from ..kernel.streams import GameStream
from ..players import bot_kind, bot_problem, make_bot
from ..players.bots import chooser
from ..players.worth import by_game_points, measures
from .fingerprint import code_version
from .parallel import map_chunks
from .simulate import cache_dir, cache_write, tables_of
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


TWO_PARTIES = "decided games: A's party beats B's"
MANY_PARTIES = "decided games: A's best seat ahead of B's best seat"


def compared(t) -> str:
    """What decides a game of the duel in ruleset ``t``, as the reports name it.

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> compared(tables_for("hearts"))
    "decided games: A's best seat ahead of B's best seat, the fewest game points the best"
    """
    if len(t.parties) == 2:
        return TWO_PARTIES
    if by_game_points(t):
        return f"{MANY_PARTIES}, the {'fewest' if t.game_points.lowest_wins else 'most'} game points the best"
    return f"{MANY_PARTIES}, the most points the best"


def holders(t, game: int) -> list[int]:
    """The bot in each seat in game ``game`` (0 or 1) of a deal: 0 for A, 1 for B; parties in turn, A first in
    game 0, B first in game 1.

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> holders(tables_for("hearts"), 0), holders(tables_for("hearts"), 1)
    ([0, 1, 0, 1], [1, 0, 1, 0])
    """
    return [(t.party_of[s] + game) % 2 for s in range(t.n_seats)]


def standings(t, result) -> list:
    """How well each seat did in a finished game, the higher the better: with two parties 1 for the winner's
    seats and 0 for the others; with more, its party's game points (negated where the fewest win), or its
    points where the ruleset counts no game points.

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> from types import SimpleNamespace as R
    >>> standings(tables_for("hearts"), R(parties=((0,), (1,), (2,), (3,)), game_points=(20, 0, 6, 0), totals=()))
    [-20, 0, -6, 0]
    """
    parties = result.parties or tuple(t.parties)
    party = {s: p for p, seats in enumerate(parties) for s in seats}
    if len(parties) == 2:
        return [int(result.winner is not None and party[s] == result.winner) for s in range(t.n_seats)]
    measure = measures(t, result.totals, result.game_points)
    return [measure[party[s]] for s in range(t.n_seats)]


def ahead(standing, holder) -> int | None:
    """Whose best seat is ahead in a game: 0 (A), 1 (B) or None (a tie for the best: not decided).

    >>> ahead([-20, 0, -6, 0], [0, 1, 0, 1])     # Hearts: A's seats took 20 and 6, B's none: B
    1
    >>> ahead([-3, -10, 0, -13], [0, 1, 0, 1])   # A's seat 2 took none: A, however A's seat 0 did
    0
    >>> ahead([0, 0, -13, -13], [0, 1, 0, 1]) is None
    True
    """
    best = [max(x for x, h in zip(standing, holder) if h == bot) for bot in (0, 1)]
    return None if best[0] == best[1] else int(best[1] > best[0])


def tally(verdicts) -> tuple[int, ...]:
    """(A wins, B wins, draws, A's wins as first party, B's as first party) of ``(game, verdict)`` pairs, game 0
    of a deal the one where A holds the first party and verdict that of :func:`ahead`.

    >>> tally([(0, 0), (1, 1), (0, None), (1, 0)])
    (2, 1, 1, 1, 1)
    """
    counts = [0] * 5
    for game, verdict in verdicts:
        if verdict is None:
            counts[2] += 1
        else:
            counts[verdict] += 1
            counts[3 + verdict] += game == verdict    # A first in game 0, B first in game 1
    return tuple(counts)


@dataclass(frozen=True)
class DuelResult:
    """A duel's count: A's and B's wins (in each seating too), equal games, A's share of decided games."""

    a: str
    b: str
    games: int
    a_wins: int
    b_wins: int
    draws: int
    a_wins_first: int          # A's wins while A held the first party
    b_wins_first: int          # B's wins while B held the first party
    compared: str = TWO_PARTIES   # what decides a game (:func:`compared`)

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
        return {"a": self.a, "b": self.b, "compared": self.compared, "a_share": self.a_share, "low": low, "high": high, "games": self.games,
                "decided": self.decided, "a_wins": self.a_wins, "b_wins": self.b_wins, "draws": self.draws}


def play_duel_chunk(spec: DuelSpec, index: int) -> tuple[int, ...]:
    """Chunk ``index`` of a duel: (A wins, B wins, draws, A's wins as first party, B's as first party)."""
    t = tables_of_duel(spec)
    bots = make_bot(spec.a, t), make_bot(spec.b, t)     # each its own, even when the names agree
    verdicts = []
    for deal in range(index * DEALS_PER_CHUNK, min(spec.deals, (index + 1) * DEALS_PER_CHUNK)):
        for game in (0, 1):
            if 2 * deal + game >= spec.games:
                break
            stream = GameStream(spec.seed, deal)
            state = State.deal(t, deal % t.n_seats, stream)
            holder = holders(t, game)
            state.advance(chooser([bots[h] for h in holder], stream))
            verdicts.append((game, ahead(standings(t, state.result()), holder)))
    return tally(verdicts)


def tables_of_duel(spec: DuelSpec):
    """The duel's ruleset, compiled once per process."""
    from .simulate import Spec
    return tables_of(Spec(ruleset=spec.ruleset, options=spec.options, games=1))


def _key(spec: DuelSpec) -> str:
    """The cache's name for a duel: its spec, its ruleset and the code that plays it (a bot's default strength
    is code, not a field of the spec)."""
    from .simulate import Spec, spec_key
    ruleset = spec_key(Spec(ruleset=spec.ruleset, options=spec.options, games=1))
    blob = json.dumps({"duel": spec.model_dump(mode="json"), "ruleset": ruleset, "version": code_version(),
                       "chunk": DEALS_PER_CHUNK, "judged": "best seat"}, sort_keys=True)
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
    kind = ("duel",) + tuple(sorted({bot_kind(spec.a), bot_kind(spec.b)}))
    for index, part in map_chunks(play_duel_chunk, spec, chunks, workers, backend, address,
                                  warm=(kind, spec.model_copy(update={"games": 2}))):
        totals = [x + y for x, y in zip(totals, part)]
        if progress is not None:
            progress(min(2 * DEALS_PER_CHUNK, spec.games - 2 * DEALS_PER_CHUNK * index))
    result = DuelResult(spec.a, spec.b, spec.games, *totals, compared=compared(tables_of_duel(spec)))
    if use_cache:
        cache_write(path, json.dumps(asdict(result)))
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
    lines = [f"Ladder of {ruleset}, seed {seed}: each pair on the same deals in both seatings",
             f"{results[0].compared if results else TWO_PARTIES}", "",
             "pair (A vs B)             games  decided  A's share of decided games (95% interval)"]
    for r in results:
        low, high = r.interval
        share = f"{100 * r.a_share:5.1f}% [{100 * low:.1f}, {100 * high:.1f}]" if r.decided else "  none decided"
        lines.append(f"  {r.a + ' vs ' + r.b:<24}{r.games:>6} {r.decided:>8}  {share}")
    lines += ["", f"rating (Elo, {bots[0]} = 0)"]
    for name in sorted(bots, key=lambda x: -rating[x]):
        lines.append(f"  {name:<12}{rating[name]:+7.0f}")
    return "\n".join(lines)
