"""How long the sampling tests sample: in full in the whole suite, a quarter as long in the fast lane.

The fast lane (``python3 tasks.py test -m "not slow"``, the loop of editing and checking) runs every test that is
not marked slow, and those that try a property on many examples or compare many games try a quarter as many
(never fewer than a floor), so that each is still tried on every path it covers. The whole suite, which CI runs,
tries them all in full. ``conftest.pytest_configure`` sets :data:`FAST` before any test module is imported.
"""

from __future__ import annotations

FAST = False


def many(n: int, floor: int = 8) -> int:
    """How many examples or games to try where the whole suite tries ``n``: ``n`` itself, or in the fast lane a
    quarter of it, at least ``floor`` (and never more than ``n``).

    >>> many(6)             # below the floor: as many in either lane
    6
    """
    return max(min(n, floor), n // 4) if FAST else n
