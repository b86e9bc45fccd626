"""Exact, mergeable statistics of many games.

Every figure is kept as integer counts and sums (money as exact fractions), so
two halves of a run merged give exactly what one run gives, whatever the number
of workers and whatever order they finish in. Means, spreads and intervals are
worked out only when the report is written.

>>> a, b = Tally(), Tally()
>>> for x in (1, 2, 3): a.add(x)
>>> b.add(4)
>>> a.merge(b); a.mean, round(a.sd, 3)
(2.5, 1.291)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from .by_game import ByGame


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


def normal_p(z: float) -> float:
    """Two-sided p-value of a standard normal statistic.

    >>> round(normal_p(1.96), 3)
    0.05
    """
    return math.erfc(abs(z) / math.sqrt(2))


@dataclass
class Tally:
    """Count, sum, sum of squares, least and greatest of a stream of exact numbers."""

    n: int = 0
    total: Fraction = Fraction(0)
    squares: Fraction = Fraction(0)
    low: Fraction | None = None
    high: Fraction | None = None

    def add(self, x, count: int = 1) -> None:
        """Add ``x`` (``count`` times)."""
        if count <= 0:
            return
        x = Fraction(x)
        self.n += count
        self.total += x * count
        self.squares += x * x * count
        self.low = x if self.low is None else min(self.low, x)
        self.high = x if self.high is None else max(self.high, x)

    def add_sums(self, n: int, total, squares, low, high) -> None:
        """Add a block of observations given by their count, sum, sum of squares and extremes."""
        if n == 0:
            return
        self.n += n
        self.total += Fraction(total)
        self.squares += Fraction(squares)
        self.low = Fraction(low) if self.low is None else min(self.low, Fraction(low))
        self.high = Fraction(high) if self.high is None else max(self.high, Fraction(high))

    def merge(self, other: "Tally") -> None:
        """Add another tally's observations."""
        if other.n:
            self.add_sums(other.n, other.total, other.squares, other.low, other.high)

    @property
    def mean(self) -> float:
        """The mean (0 when empty)."""
        return float(self.total / self.n) if self.n else 0.0

    @property
    def sd(self) -> float:
        """The sample standard deviation."""
        if self.n < 2:
            return 0.0
        var = (self.squares - self.total * self.total / self.n) / (self.n - 1)
        return math.sqrt(max(float(var), 0.0))

    def ci(self) -> tuple[float, float]:
        """A normal 95% interval for the mean."""
        half = 1.96 * self.sd / math.sqrt(self.n) if self.n > 1 else 0.0
        return (self.mean - half, self.mean + half)

    def as_json(self) -> dict:
        """Mean, spread, interval and range, as plain numbers."""
        lo, hi = self.ci()
        return {"n": self.n, "mean": self.mean, "sd": self.sd, "ci95": [lo, hi],
                "min": float(self.low) if self.low is not None else None,
                "max": float(self.high) if self.high is not None else None}


def welch(a: Tally, b: Tally) -> tuple[float, float]:
    """Difference of means (a − b) and the two-sided p-value of Welch's test (normal approximation)."""
    if a.n < 2 or b.n < 2:
        return (a.mean - b.mean, 1.0)
    se = math.sqrt(a.sd ** 2 / a.n + b.sd ** 2 / b.n)
    diff = a.mean - b.mean
    return (diff, normal_p(diff / se) if se > 0 else (1.0 if diff == 0 else 0.0))


def two_proportions(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float]:
    """Difference of two proportions and the two-sided p-value of the pooled z-test."""
    if not n1 or not n2:
        return (0.0, 1.0)
    p1, p2 = k1 / n1, k2 / n2
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    return (p1 - p2, normal_p((p1 - p2) / se) if se > 0 else (1.0 if p1 == p2 else 0.0))


def paired_ratio(xa: np.ndarray, ya: np.ndarray | None, xb: np.ndarray, yb: np.ndarray | None) -> tuple[float, float]:
    """The difference ``sum(xa)/sum(ya) − sum(xb)/sum(yb)`` of two runs on the same deals, and its two-sided p-value
    from the games' paired differences (``y`` None: one a game).

    Party 0 wins three of four deals under one reading and one of the same four under the other; the deals differ
    by 1, 1, 0 and 0 (mean 0.5, standard deviation 0.577, standard error 0.289, z = 1.73):

    >>> diff, p = paired_ratio(np.array([1., 1., 1., 0.]), None, np.array([0., 0., 1., 0.]), None)
    >>> diff, round(p, 3)
    (0.5, 0.083)
    >>> x = np.array([3.0, 5.0, 7.0]); paired_ratio(x + 1, None, x, None)     # one more in every deal: certain
    (1.0, 0.0)
    """
    n = len(xa)
    ya = np.ones(n) if ya is None else ya
    yb = np.ones(n) if yb is None else yb
    if n < 2 or ya.sum() == 0 or yb.sum() == 0:
        return (0.0, 1.0)
    ra, rb = xa.sum() / ya.sum(), xb.sum() / yb.sum()
    # each game's share of the difference between the two ratios, linearised about them
    z = (xa - ra * ya) / ya.mean() - (xb - rb * yb) / yb.mean()
    diff = float(ra - rb)
    se = float(z.std(ddof=1)) / math.sqrt(n)
    if se == 0:
        return (diff, 1.0 if diff == 0 else 0.0)
    return (diff, normal_p(diff / se))


@dataclass
class Stats:
    """Everything measured over a run of games; ``merge`` adds another run's."""

    ruleset: str
    n_parties: int
    n_seats: int
    n_tricks: int
    event_names: tuple[str, ...]
    games: int = 0
    wins: list[int] = field(default_factory=list)
    draws: int = 0
    points: list[Tally] = field(default_factory=list)
    difference: Tally = field(default_factory=Tally)
    money_per_winner: Tally = field(default_factory=Tally)
    seat_money: list[Tally] = field(default_factory=list)       # by seat number
    position_money: list[Tally] = field(default_factory=list)   # by place after the dealer (0 = dealer)
    leader_party_wins: int = 0
    events_by_trick: dict[str, list[int]] = field(default_factory=dict)
    first_events: dict[str, int] = field(default_factory=dict)
    events_per_game: dict[int, int] = field(default_factory=dict)
    same_trick: int = 0
    castles: int = 0
    games_with_castling: int = 0
    lead_changes: Tally = field(default_factory=Tally)
    decided_at: list[int] = field(default_factory=list)         # index t: decided from trick t+1 on
    length: Tally = field(default_factory=Tally)
    points_hist: list[dict[int, int]] = field(default_factory=list)   # per party: bin (of 10 points) -> games
    difference_hist: dict[int, int] = field(default_factory=dict)
    stopped: bool = False                                       # interrupted before the last chunk
    kings_turned: int = 0        # decided games the card points alone would have given the other party
    # the family's games: contracts bid and made, games thrown in, game points by seat and by place
    contracts: dict[str, list[int]] = field(default_factory=dict)   # contract -> [games, won by the declaring side]
    thrown_in: int = 0
    seat_game_points: list[Tally] = field(default_factory=list)
    position_game_points: list[Tally] = field(default_factory=list)
    loser_led: int = 0           # decided games whose loser was ahead after some trick (drama)
    seed: int | None = None      # the run's seed: runs of one seed and as many games played the same deals
    by_game: ByGame = field(default_factory=ByGame)     # each game's figures, for comparisons deal by deal

    BIN = 10

    @classmethod
    def empty(cls, ruleset: str, n_parties: int, n_seats: int, n_tricks: int, event_names) -> "Stats":
        """A fresh set of statistics for a ruleset's shape."""
        names = tuple(event_names)
        return cls(ruleset=ruleset, n_parties=n_parties, n_seats=n_seats, n_tricks=n_tricks, event_names=names,
                   wins=[0] * n_parties, points=[Tally() for _ in range(n_parties)],
                   seat_money=[Tally() for _ in range(n_seats)], position_money=[Tally() for _ in range(n_seats)],
                   events_by_trick={e: [0] * n_tricks for e in names}, first_events={e: 0 for e in names},
                   decided_at=[0] * n_tricks, points_hist=[{} for _ in range(n_parties)],
                   seat_game_points=[Tally() for _ in range(n_seats)],
                   position_game_points=[Tally() for _ in range(n_seats)])

    def add_hist(self, party: int | None, values) -> None:
        """Count values into 10-point bins (party None: the difference histogram)."""
        target = self.difference_hist if party is None else self.points_hist[party]
        import numpy as np
        bins, counts = np.unique(np.floor_divide(np.asarray(values, dtype=np.int64), self.BIN), return_counts=True)
        for b, c in zip(bins.tolist(), counts.tolist()):
            target[b] = target.get(b, 0) + c

    def merge(self, other: "Stats") -> None:
        """Add another run's statistics (same ruleset shape)."""
        shape = (self.n_parties, self.n_seats, self.n_tricks, self.event_names)
        if shape != (other.n_parties, other.n_seats, other.n_tricks, other.event_names):
            raise ValueError(f"cannot merge statistics of {other.ruleset} into {self.ruleset}: the games differ in shape")
        self.games += other.games
        self.wins = [a + b for a, b in zip(self.wins, other.wins)]
        self.draws += other.draws
        for mine, theirs in zip(self.points, other.points):
            mine.merge(theirs)
        self.difference.merge(other.difference)
        self.money_per_winner.merge(other.money_per_winner)
        for group, others in ((self.seat_money, other.seat_money), (self.position_money, other.position_money),
                              (self.seat_game_points, other.seat_game_points),
                              (self.position_game_points, other.position_game_points)):
            for mine, theirs in zip(group, others):
                mine.merge(theirs)
        self.leader_party_wins += other.leader_party_wins
        for name in self.event_names:
            self.events_by_trick[name] = [a + b for a, b in zip(self.events_by_trick[name], other.events_by_trick[name])]
            self.first_events[name] += other.first_events[name]
        for k, v in other.events_per_game.items():
            self.events_per_game[k] = self.events_per_game.get(k, 0) + v
        self.same_trick += other.same_trick
        self.castles += other.castles
        self.games_with_castling += other.games_with_castling
        self.lead_changes.merge(other.lead_changes)
        self.decided_at = [a + b for a, b in zip(self.decided_at, other.decided_at)]
        self.length.merge(other.length)
        for mine, theirs in zip(self.points_hist + [self.difference_hist], other.points_hist + [other.difference_hist]):
            for k, v in theirs.items():
                mine[k] = mine.get(k, 0) + v
        self.stopped = self.stopped or other.stopped
        self.kings_turned += other.kings_turned
        self.thrown_in += other.thrown_in
        for name, (games, won) in other.contracts.items():
            mine = self.contracts.setdefault(name, [0, 0])
            mine[0] += games
            mine[1] += won
        self.loser_led += other.loser_led
        self.by_game.merge(other.by_game)

    # --- storing -------------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """Everything, exactly, as JSON-ready data (fractions as strings)."""
        def tally(x: Tally) -> list:
            return [x.n, str(x.total), str(x.squares), None if x.low is None else str(x.low),
                    None if x.high is None else str(x.high)]
        out = {}
        for name, value in self.__dict__.items():
            if isinstance(value, Tally):
                out[name] = tally(value)
            elif isinstance(value, list) and value and isinstance(value[0], Tally):
                out[name] = [tally(v) for v in value]
            elif isinstance(value, ByGame):
                out[name] = value.encode()
            elif name in ("points_hist",):
                out[name] = [{str(k): v for k, v in h.items()} for h in value]
            elif isinstance(value, dict) and name in ("difference_hist", "events_per_game"):
                out[name] = {str(k): v for k, v in value.items()}
            else:
                out[name] = value
        return out

    @classmethod
    def from_dict(cls, data: dict) -> "Stats":
        """The statistics :meth:`to_dict` stored."""
        def tally(x: list) -> Tally:
            n, total, squares, low, high = x
            return Tally(n=n, total=Fraction(total), squares=Fraction(squares),
                         low=None if low is None else Fraction(low), high=None if high is None else Fraction(high))
        kw = dict(data)
        for name in ("difference", "money_per_winner", "lead_changes", "length"):
            kw[name] = tally(kw[name])
        for name in ("points", "seat_money", "position_money", "seat_game_points", "position_game_points"):
            kw[name] = [tally(x) for x in kw.get(name, [])]
        kw["points_hist"] = [{int(k): v for k, v in h.items()} for h in kw["points_hist"]]
        kw["difference_hist"] = {int(k): v for k, v in kw["difference_hist"].items()}
        kw["events_per_game"] = {int(k): v for k, v in kw["events_per_game"].items()}
        kw["event_names"] = tuple(kw["event_names"])
        kw["by_game"] = ByGame.decode(kw.get("by_game", {}))
        return cls(**kw)
