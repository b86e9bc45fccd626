"""Telling watchers that a table changed: at once for changes made in this process, by polling for the others'.

A WebSocket that watches a table waits on an :class:`asyncio.Event`. An action taken through this
process wakes the table's watchers as soon as it is stored; a change made by another process
(several servers on one database) is found by asking the database for the versions of the watched
tables, all in one query, a few times a second.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict

from anyio import to_thread


class Hub:
    """The watchers of each table, and the versions last seen of the tables they watch.

    >>> hub = Hub(service=None)
    >>> event = hub.watch("t1")
    >>> hub.changed("t1", 7)
    >>> event.is_set(), hub.seen("t1")
    (True, 7)
    >>> hub.unwatch("t1", event); hub.seen("t1") is None
    True
    """

    def __init__(self, service, poll: float = 0.25):
        self.service, self.poll = service, poll
        self._watchers: dict[str, set[asyncio.Event]] = defaultdict(set)
        self._seen: dict[str, int] = {}

    def watch(self, table_id: str) -> asyncio.Event:
        """An event set whenever the table changes (until :meth:`unwatch`)."""
        event = asyncio.Event()
        self._watchers[table_id].add(event)
        return event

    def unwatch(self, table_id: str, event: asyncio.Event) -> None:
        watchers = self._watchers.get(table_id)
        if watchers is not None:
            watchers.discard(event)
            if not watchers:
                del self._watchers[table_id]
                self._seen.pop(table_id, None)

    def seen(self, table_id: str) -> int | None:
        """The table's version as last told to the hub (None: not known)."""
        return self._seen.get(table_id)

    def changed(self, table_id: str, version: int | None = None) -> None:
        """Wake every watcher of the table (called on the event loop)."""
        if version is not None:
            self._seen[table_id] = version
        for event in self._watchers.get(table_id, ()):
            event.set()

    async def run(self) -> None:
        """Poll the watched tables' versions for changes made by other processes, until cancelled."""
        while True:
            await asyncio.sleep(self.poll)
            watched = list(self._watchers)
            if not watched:
                continue
            try:
                versions = await to_thread.run_sync(self.service.versions, watched)
            except Exception:       # a database hiccup: the next round asks again
                continue
            for table_id, version in versions.items():
                if self._seen.get(table_id) != version:
                    self.changed(table_id, version)
