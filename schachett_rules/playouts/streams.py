"""Random numbers by game number: the same game gets the same numbers however a run is split.

Game ``i`` of a run seeded ``s`` draws from a SplitMix64 sequence whose start
is mixed from ``(s, i)``; its ``j``-th number depends on ``s``, ``i`` and ``j``
only. The batch computes whole blocks of these numbers at once, the
one-game paths draw them one by one: both see the same numbers, so random
players play the same deals and the same games on either path, in any chunk,
on any worker, and a sweep compares its readings on the same deals.

>>> a = GameStream(7, 3)
>>> first = [a.random() for _ in range(3)]
>>> import numpy as np
>>> block = block_uniforms(7, np.array([3]), 3)
>>> [round(x, 12) for x in first] == [round(x, 12) for x in block[0]]
True
"""

from __future__ import annotations

import numpy as np

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
M1, M2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
SCALE = 2.0 ** -53


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * M1) & MASK
    z = ((z ^ (z >> 27)) * M2) & MASK
    return z ^ (z >> 31)


def game_key(seed: int, index: int) -> int:
    """The start of game ``index``'s sequence in a run seeded ``seed``."""
    return _mix((_mix((seed * GOLDEN + 0x632BE59BD9B4E019) & MASK) + index * GOLDEN) & MASK)


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
        """Shuffle a list in place (Fisher-Yates, one number per swap)."""
        for i in range(len(items) - 1, 0, -1):
            j = int(self.random() * (i + 1))
            items[i], items[j] = items[j], items[i]


_G = np.uint64(GOLDEN)
_M1, _M2 = np.uint64(M1), np.uint64(M2)


def block_uniforms(seed: int, games: np.ndarray, draws: int) -> np.ndarray:
    """The first ``draws`` numbers of each of ``games``, as a (games, draws) array.

    Large blocks are filled by a compiled loop, a game's numbers side by side
    (as the batch reads them); small ones by numpy, as the transpose of a
    draw-major block.
    """
    base = np.uint64(_mix((seed * GOLDEN + 0x632BE59BD9B4E019) & MASK))
    games = np.asarray(games, dtype=np.uint64)
    if len(games) * draws >= 4096:
        from .compiled import fill_uniforms   # numba, loaded only for blocks worth compiling for
        block = np.empty((len(games), draws), dtype=np.float64)
        fill_uniforms(base, games, block)
        return block
    with np.errstate(over="ignore"):
        keys = _mix_array(base + np.asarray(games, dtype=np.uint64) * _G)
        steps = (np.arange(1, draws + 1, dtype=np.uint64) * _G)[:, None]
        z = _mix_array(keys[None, :] + steps)
        z >>= np.uint64(11)
    out = z.astype(np.float64)
    out *= SCALE
    return out.T


def _mix_array(z: np.ndarray) -> np.ndarray:
    """The SplitMix64 finaliser over an array, in place (wrapping uint64 arithmetic)."""
    tmp = z >> np.uint64(30)
    z ^= tmp
    z *= _M1
    np.right_shift(z, np.uint64(27), out=tmp)
    z ^= tmp
    z *= _M2
    np.right_shift(z, np.uint64(31), out=tmp)
    z ^= tmp
    return z
