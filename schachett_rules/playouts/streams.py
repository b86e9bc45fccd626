"""Whole blocks of the games' random numbers at once, for the batch (the scheme itself: :mod:`schachett_rules.kernel.streams`).

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

from ..kernel.streams import GOLDEN, M1, M2, SCALE, GameStream, run_key  # noqa: F401  (the one seeding scheme)

_G = np.uint64(GOLDEN)
_M1, _M2 = np.uint64(M1), np.uint64(M2)


def block_uniforms(seed: int, games: np.ndarray, draws: int) -> np.ndarray:
    """The first ``draws`` numbers of each of ``games``, as a (games, draws) array.

    Large blocks are filled by a compiled loop, a game's numbers side by side
    (as the batch reads them); small ones by numpy, as the transpose of a
    draw-major block.
    """
    base = np.uint64(run_key(seed))
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
