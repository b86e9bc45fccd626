"""Cards as bits of 64-bit mask words, and the decorators every compiled function of the play-outs is made with.

A hand, a trick's cards or a rule's cards are a few 64-bit words (card ``c`` is bit ``c % 64`` of word
``c // 64``); these helpers count, find, test and flip cards in them.
"""

from __future__ import annotations

import types

import numpy as np
from numba import njit

from .numba_cache import use_folder

use_folder()          # before the first function is made: numba's cache must know its folder (see .numba_cache)

_jit = njit(cache=True, nogil=True)
# Everything the loop calls is inlined into it: a call that passes arrays costs two atomic reference counts
# per array, which, card after card, cost more than the game itself.
_inline = njit(cache=True, nogil=True, inline="always")
_bare = njit(cache=True, nogil=True, _nrt=False)   # allocates nothing, so it counts no references either
# The random player's loop inlines each step once (one call of the settling, one of the castling decision):
# every copy of an inlined step is compiled again, and a copy per call site made the first compile take a
# minute of CPU.


def _same_source(func, **callees):
    """``func`` compiled from its own source, its calls to other leaf rules bound to their compiled versions."""
    scope = dict(func.__globals__, **callees)
    clone = types.FunctionType(func.__code__, scope, func.__name__, func.__defaults__, func.__closure__)
    clone.__qualname__, clone.__module__, clone.__doc__ = func.__qualname__, func.__module__, func.__doc__
    return _inline(clone)


def private_copies(scope: dict, suffix: str) -> dict:
    """The compiled functions a module defines (``scope``: its globals), copied into dispatchers of their own that
    call one another, each cached under its own name (``suffix`` added).

    numba compiles a function once for each signature and links that code into every caller compiled after it: a
    phase before play first compiled for a call from Python (a step of the compiled state walked by a test or a
    search) and only then for the random player's loop gave the loop code that ran at a third of its speed (the
    batch of Euchre: 150,000 games a second against 420,000). The loop therefore calls copies of its own, compiled
    for it alone, whatever ran first in this checkout."""
    own = dict(scope)
    copies = {}
    for key, value in scope.items():
        py_func = getattr(value, "py_func", None)
        if py_func is None or py_func.__module__ != scope["__name__"]:
            continue
        clone = types.FunctionType(py_func.__code__, own, py_func.__name__, py_func.__defaults__,
                                   py_func.__closure__)
        clone.__qualname__, clone.__module__ = py_func.__qualname__ + suffix, py_func.__module__
        clone.__doc__ = py_func.__doc__
        copies[key] = (_inline if value.targetoptions.get("inline") == "always" else _jit)(clone)
    own.update(copies)
    return copies


_U1 = np.uint64(1)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


# --- bits of mask words ----------------------------------------------------------------------------

@_inline
def popcount(x):
    """The number of set bits of a 64-bit word."""
    x = x - ((x >> _U1) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return np.int64((x * _H01) >> np.uint64(56))


@_inline
def count_cards(words) -> int:
    """The number of cards in a mask of words."""
    total = 0
    for w in range(len(words)):
        total += popcount(words[w])
    return total


@_inline
def kth_card(words, k):
    """The k-th lowest card (from 0) of a mask of words."""
    for w in range(len(words)):
        m = words[w]
        c = popcount(m)
        if k < c:
            while k > 0:
                m &= m - _U1
                k -= 1
            low = m & (~m + _U1)
            return w * 64 + popcount(low - _U1)
        k -= c
    return -1


@_inline
def has_card(words, card) -> bool:
    """Whether a mask of words holds ``card``."""
    return (words[card >> 6] >> np.uint64(card & 63)) & _U1 == _U1


@_inline
def toggle(words, card):
    """Add or take away ``card`` in a mask of words."""
    words[card >> 6] ^= _U1 << np.uint64(card & 63)


@_inline
def copy_row(dst, src):
    """``src`` into ``dst``, element by element (one-dimensional, of one length)."""
    for i in range(len(src)):
        dst[i] = src[i]


@_inline
def copy_rows(dst, src, rows):
    """The first ``rows`` rows of ``src`` into ``dst``, element by element (two-dimensional, rows of one length).

    A slice assigned an array is copied through a temporary (numba cannot rule out that the two overlap), which
    needs the allocator; the loops that count no references (``_bare``) copy with this instead."""
    for i in range(rows):
        for j in range(src.shape[1]):
            dst[i, j] = src[i, j]
