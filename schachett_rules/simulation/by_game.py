"""Each game's own figures, kept in game order, so that two runs on the same deals can be compared deal by deal.

Game ``i`` of a run is dealt from the stream ``(seed, i)`` whatever the readings or the players
(:mod:`.simulate`), so two runs of one seed play the same deals. Most of what separates two games is the deal:
who holds the Kings, the officers, the high pawns. Comparing the two runs game by game, on the difference each
deal shows between them, leaves the deal's luck out of the comparison (a *paired* test), and a difference
between two readings shows in far fewer games than when each run's totals are compared as if they had been
dealt apart.

Every measure a comparison tests is a ratio of two sums over the games, ``sum(x) / sum(y)`` (``y`` is 1 a game
for a share of games or a mean per game; the decided games for a share of them; the Kings for a share of
Kings), and its two runs' difference is tested by the usual linearisation of a ratio (the delta method), which
for ``y = 1`` is the paired t-test on the differences, taken as normal (:func:`.stats.paired_ratio`).

>>> runs = ByGame(), ByGame()
>>> for won in (1, 1, 1, 0): runs[0].add({"win": won})
>>> for won in (0, 0, 1, 0): runs[1].add({"win": won})
>>> runs[0].merge(runs[1]); len(runs[0]), runs[0].column("win").tolist()
(8, [1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0])
"""

from __future__ import annotations

import base64
import zlib

import numpy as np


class ByGame:
    """Named columns of one number a game, in the order the games were played; merged by appending."""

    def __init__(self, columns: dict[str, list] | None = None):
        self._columns: dict[str, list] = columns or {}
        self._games = max((len(v) for v in self._columns.values()), default=0)

    def __len__(self) -> int:
        return self._games

    def __eq__(self, other) -> bool:
        return isinstance(other, ByGame) and len(self) == len(other) and all(
            np.array_equal(self.column(name), other.column(name)) for name in set(self._columns) | set(other._columns))

    def names(self) -> list[str]:
        """The columns kept, in the order they first came."""
        return list(self._columns)

    def add(self, row: dict[str, float]) -> None:
        """One more game's figures; a column this game does not name counts 0 for it."""
        self.extend({name: [value] for name, value in row.items()}, 1)

    def extend(self, columns: dict[str, object], games: int | None = None) -> None:
        """Several games' figures at once, one sequence a column (``games``: how many, where no column says)."""
        games = len(next(iter(columns.values()))) if games is None else games
        for name, values in columns.items():
            values = values.tolist() if isinstance(values, np.ndarray) else list(values)
            if len(values) != games:
                raise ValueError(f"column {name} has {len(values)} games where {games} were added")
            self._columns.setdefault(name, [0] * self._games).extend(values)
        self._games += games
        for values in self._columns.values():
            if len(values) < self._games:
                values.extend([0] * (self._games - len(values)))

    def merge(self, other: "ByGame") -> None:
        """Append the games of another run's part (the parts are merged in the order they were played)."""
        if len(other):
            self.extend(other._columns, len(other))

    def column(self, name: str) -> np.ndarray:
        """A column as floats, one a game (zeros where no game named it)."""
        return np.asarray(self._columns.get(name, [0] * self._games), dtype=np.float64)

    # --- storing -------------------------------------------------------------------------------------
    def encode(self) -> dict[str, str]:
        """The columns as JSON-ready text: each one packed (32-bit integers where every value is whole, else
        64-bit floats), compressed and in base64, so that 20,000 games take kilobytes in the simulation cache."""
        out = {}
        for name, values in self._columns.items():
            array = np.asarray(values, dtype=np.float64)
            whole = bool(np.all(array == np.round(array))) and (not len(array) or float(np.abs(array).max()) < 2**31)
            raw = (array.astype("<i4") if whole else array.astype("<f8")).tobytes()
            out[name] = ("i:" if whole else "f:") + base64.b64encode(zlib.compress(raw, 6)).decode("ascii")
        return out

    @classmethod
    def decode(cls, data: dict[str, str]) -> "ByGame":
        """The columns :meth:`encode` packed."""
        columns = {}
        for name, text in data.items():
            kind, packed = text.split(":", 1)
            array = np.frombuffer(zlib.decompress(base64.b64decode(packed)), dtype="<i4" if kind == "i" else "<f8")
            columns[name] = array.tolist()
        return cls(columns)
