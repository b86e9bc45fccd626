"""Random numbers by game number: the one seeding scheme of every game, however a run is split.

Game ``i`` of a run seeded ``s`` draws from a SplitMix64 sequence whose start
is mixed from ``(s, i)``; its ``j``-th number depends on ``s``, ``i`` and ``j``
only. The one-game paths (the state's random player, the bots, the terminal, a
session) draw them one by one from a :class:`GameStream`; the batch computes
whole blocks of the same numbers at once
(:func:`schachett_rules.playouts.streams.block_uniforms`). So random players
play the same deals and the same games on either path, in any chunk, on any
worker, and a sweep compares its readings on the same deals.

>>> a, b = GameStream(7, 3), GameStream(7, 3)
>>> [a.random() for _ in range(3)] == [b.random() for _ in range(3)]
True
"""

from __future__ import annotations

from .core import shuffle

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
M1, M2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
SCALE = 2.0 ** -53


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * M1) & MASK
    z = ((z ^ (z >> 27)) * M2) & MASK
    return z ^ (z >> 31)


def run_key(seed: int) -> int:
    """The key of a run seeded ``seed``, which every game's sequence starts from."""
    return _mix((seed * GOLDEN + 0x632BE59BD9B4E019) & MASK)


def game_key(seed: int, index: int) -> int:
    """The start of game ``index``'s sequence in a run seeded ``seed``."""
    return _mix((run_key(seed) + index * GOLDEN) & MASK)


class GameStream:
    """One game's numbers, drawn one at a time (the methods the engine and the bots use)."""

    __slots__ = ("state",)

    def __init__(self, seed: int, index: int):
        self.state = game_key(seed, index)

    def random(self) -> float:
        """The next number in [0, 1)."""
        self.state = (self.state + GOLDEN) & MASK
        return (_mix(self.state) >> 11) * SCALE

    def shuffle(self, items: list) -> None:
        """Shuffle a list in place: the deal's Fisher-Yates (:func:`~.core.shuffle`), one number per swap."""
        shuffle(items, [self.random() for _ in range(len(items) - 1)], 0)
