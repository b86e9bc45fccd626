"""Rate limits: a token bucket per key and one per client address, in each server process.

A bucket holds up to ``burst`` requests and refills at ``rate`` a second; a request that finds it
empty is refused with 429 and changes nothing. Keys are bucketed by their hash, so the limiter
never holds a key. With several processes each keeps its own buckets: the limit then applies per
process, which still stops one client from flooding the server.

>>> bucket = Limiter(rate=1, burst=2)
>>> [bucket.allow("a", now=0.0) for _ in range(3)], bucket.allow("a", now=1.0), bucket.allow("b", now=1.0)
([True, True, False], True, True)
"""

from __future__ import annotations

import threading
import time


class Limiter:
    """Token buckets by name: ``burst`` at once, then ``rate`` a second."""

    MAX_NAMES = 100_000      # buckets kept before the full ones are forgotten (a full bucket is a fresh one)

    def __init__(self, rate: float, burst: float):
        self.rate, self.burst = rate, burst
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def allow(self, name: str, now: float | None = None) -> bool:
        """Whether ``name`` may make a request now (and count it if so)."""
        now = time.monotonic() if now is None else now
        with self._lock:
            tokens, then = self._buckets.get(name, (self.burst, now))
            tokens = min(self.burst, tokens + (now - then) * self.rate)
            if len(self._buckets) >= self.MAX_NAMES:
                self._forget(now)
            if tokens < 1:
                self._buckets[name] = (tokens, now)
                return False
            self._buckets[name] = (tokens - 1, now)
            return True

    def _forget(self, now: float) -> None:
        full = [n for n, (tokens, then) in self._buckets.items() if tokens + (now - then) * self.rate >= self.burst]
        for n in full:
            del self._buckets[n]


class Limits:
    """The server's two limiters: per key (an action or a view asked with a key) and per address (every request)."""

    def __init__(self, per_key: float = 20, per_address: float = 100):
        self.key = Limiter(per_key, per_key * 3)
        self.address = Limiter(per_address, per_address * 3)

    def allow(self, address: str, key_hash: str | None) -> str | None:
        """None if the request may go on, else why not in words."""
        if not self.address.allow(address):
            return f"too many requests from this address: at most {self.address.rate:g} a second; wait a moment"
        if key_hash is not None and not self.key.allow(key_hash):
            return f"too many requests with this key: at most {self.key.rate:g} a second; wait a moment"
        return None
