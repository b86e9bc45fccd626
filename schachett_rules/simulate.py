"""Simulating many random games and summarising what happens.

Game ``i`` of a run with seed ``s`` is dealt by seat ``i mod n`` and played
from its own random stream seeded with ``(s, i)``: a run gives the same games
however it is split up, and the same seed gives the same report.

>>> from schachett_rules.compiler import tables_for
>>> stats = simulate(tables_for("original"), games=200, seed=7)
>>> stats.games, sum(stats.wins) + stats.draws
(200, 200)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

from .compiler import Tables
from .playout import random_game
from .scoring import settle


def game_rng(seed: int, index: int) -> random.Random:
    """The random stream of game ``index`` in a run seeded with ``seed``."""
    return random.Random((seed << 32) ^ index)


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson 95% interval for a proportion.

    >>> [round(x, 3) for x in wilson(50, 100)]
    [0.404, 0.596]
    """
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


class Running:
    """Mean and spread of a stream of numbers (Welford)."""

    __slots__ = ("n", "mean", "m2", "low", "high")

    def __init__(self) -> None:
        self.n, self.mean, self.m2 = 0, 0.0, 0.0
        self.low, self.high = math.inf, -math.inf

    def add(self, x: float) -> None:
        """Add one observation."""
        self.n += 1
        d = x - self.mean
        self.mean += d / self.n
        self.m2 += d * (x - self.mean)
        self.low, self.high = min(self.low, x), max(self.high, x)

    @property
    def sd(self) -> float:
        """The sample standard deviation."""
        return math.sqrt(self.m2 / (self.n - 1)) if self.n > 1 else 0.0

    def ci(self) -> tuple[float, float]:
        """A normal 95% interval for the mean."""
        half = 1.96 * self.sd / math.sqrt(self.n) if self.n > 1 else 0.0
        return (self.mean - half, self.mean + half)


@dataclass
class Stats:
    """What a run of games showed."""

    ruleset: str
    options: dict
    games: int
    seed: int
    n_tricks: int
    n_parties: int
    wins: list[int]
    draws: int = 0
    points: list[Running] = field(default_factory=list)
    difference: Running = field(default_factory=Running)
    money: Running = field(default_factory=Running)
    seat_money: list[Running] = field(default_factory=list)
    leader_party_wins: int = 0
    events: dict = field(default_factory=dict)           # name -> [count by trick]
    first_events: dict = field(default_factory=dict)     # name -> count as first King
    same_trick: int = 0
    games_with_events: dict = field(default_factory=dict)  # number of events -> games

    def as_json(self) -> dict:
        """The whole result as JSON-ready data."""
        def run(r: Running) -> dict:
            lo, hi = r.ci()
            return {"mean": r.mean, "sd": r.sd, "min": r.low, "max": r.high, "ci95": [lo, hi]}
        return {
            "ruleset": self.ruleset, "options": self.options, "games": self.games, "seed": self.seed,
            "wins": self.wins, "draws": self.draws,
            "win_rate_ci95": [list(wilson(w, self.games)) for w in self.wins],
            "points": [run(p) for p in self.points], "difference": run(self.difference),
            "money_per_winner": run(self.money), "seat_money": [run(s) for s in self.seat_money],
            "leader_party_wins": self.leader_party_wins,
            "king_events": {name: {"games": sum(c), "first": self.first_events.get(name, 0), "by_trick": c}
                            for name, c in self.events.items()},
            "both_kings_same_trick": self.same_trick,
            "events_per_game": {str(k): v for k, v in sorted(self.games_with_events.items())},
        }


def simulate(t: Tables, games: int, seed: int, progress: Callable[[int], None] | None = None,
             options: dict | None = None) -> Stats:
    """Play ``games`` random games and gather the statistics."""
    n_parties = len(t.parties)
    stats = Stats(ruleset=t.name, options=dict(options or {}), games=0, seed=seed, n_tricks=t.n_tricks,
                  n_parties=n_parties, wins=[0] * n_parties, points=[Running() for _ in range(n_parties)],
                  seat_money=[Running() for _ in range(t.n_seats)])
    for e in t.events:
        stats.events[e.name] = [0] * t.n_tricks
        stats.first_events[e.name] = 0
    first_lead = t.first_lead
    for i in range(games):
        dealer = i % t.n_seats
        out = random_game(t, dealer, game_rng(seed, i))
        stats.games += 1
        totals = out.totals
        winner, money = settle(t, totals)
        if winner is None:
            stats.draws += 1
        else:
            stats.wins[winner] += 1
            stats.money.add(float(money[t.parties[winner][0]]))
            leader = (dealer + first_lead[1]) % t.n_seats if first_lead[0] == "dealer" else first_lead[1]
            if t.party_of[leader] == winner:
                stats.leader_party_wins += 1
        for p in range(n_parties):
            stats.points[p].add(totals[p])
        if n_parties == 2:
            stats.difference.add(totals[0] - totals[1])
        for s in range(t.n_seats):
            stats.seat_money[s].add(float(money[s]) if isinstance(money[s], Fraction) else money[s])
        tricks = []
        for ev, trick, owner, first, pts, parties in out.events:
            stats.events[ev.name][trick] += 1
            if first:
                stats.first_events[ev.name] += 1
            tricks.append(trick)
        if len(tricks) != len(set(tricks)):
            stats.same_trick += 1
        stats.games_with_events[len(tricks)] = stats.games_with_events.get(len(tricks), 0) + 1
        if progress is not None:
            progress(1)
    return stats


def format_stats(s: Stats) -> str:
    """The report as plain text (the same for the same run)."""
    n = s.games
    lines = [f"{n} random games of {s.ruleset}, seed {s.seed}"
             + (f", options {', '.join(f'{k}={v}' for k, v in s.options.items())}" if s.options else ""), ""]
    lines.append("Party results (95% interval)")
    for p, w in enumerate(s.wins):
        lo, hi = wilson(w, n)
        pts = s.points[p]
        plo, phi = pts.ci()
        lines.append(f"  party {p}: wins {w:>7} = {100 * w / n:5.1f}%  [{100 * lo:5.1f}, {100 * hi:5.1f}]   "
                     f"points mean {pts.mean:7.1f} [{plo:.1f}, {phi:.1f}]  sd {pts.sd:6.1f}  range {pts.low:g}..{pts.high:g}")
    lines.append(f"  equal points: {s.draws} = {100 * s.draws / n:.1f}%")
    lo, hi = wilson(s.leader_party_wins, n - s.draws)
    lines.append(f"  the party that leads first wins {100 * s.leader_party_wins / max(1, n - s.draws):.1f}% "
                 f"of decided games [{100 * lo:.1f}, {100 * hi:.1f}]")
    if s.n_parties == 2:
        d = s.difference
        lines.append(f"  difference (party 0 − party 1): mean {d.mean:.1f}, sd {d.sd:.1f}")
    lines.append(f"  money per winning player: mean {s.money.mean:.2f}, sd {s.money.sd:.2f}, max {s.money.high:g}")
    lines.append("  mean money by seat: " + ", ".join(f"seat {i} {r.mean:+.2f}" for i, r in enumerate(s.seat_money)))
    lines.append("")
    lines.append("King events")
    header = "  event        per game  first   " + " ".join(f"{t + 1:>5}" for t in range(s.n_tricks))
    lines.append(header)
    lines.append("  " + " " * 33 + "(share of games, by trick, %)")
    for name, by_trick in s.events.items():
        total = sum(by_trick)
        lines.append(f"  {name:<12} {total / n:8.3f}  {s.first_events[name] / n:5.3f}   "
                     + " ".join(f"{100 * c / n:5.1f}" for c in by_trick))
    lines.append(f"  both Kings fall in the same trick in {100 * s.same_trick / n:.1f}% of games")
    lines.append("  King events per game: " + ", ".join(f"{k}: {100 * v / n:.1f}%"
                                                        for k, v in sorted(s.games_with_events.items())))
    return "\n".join(lines)
