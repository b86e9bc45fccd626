"""Playing the chunks of a run: in this process, on all local cores, or on a Dask cluster.

Chunks are independent and their statistics are merged in chunk order, so the
result does not depend on how many workers play them or in what order they
finish. Ctrl-C stops the work; the chunks already finished are kept.
"""

from __future__ import annotations

import multiprocessing as mp
import threading
from typing import Callable, Iterator

from ..errors import UsageError
from .cores import default_workers  # noqa: F401  (part of this module's interface)


def _play(args):
    play_chunk, spec, index = args
    return index, play_chunk(spec, index)


def map_chunks(play_chunk: Callable, spec, count: int, workers: int = 1, backend: str = "local",
               address: str | None = None) -> Iterator[tuple[int, object]]:
    """Yield ``(index, play_chunk(spec, index))`` for every chunk, in chunk order.

    ``play_chunk`` must be a module-level function, so that worker processes can find it by name.
    """
    jobs = [(play_chunk, spec, i) for i in range(count)]
    if backend == "dask":
        from .distributed import map_on_dask
        yield from map_on_dask(_play, jobs, address, workers)
        return
    if backend != "local":
        raise UsageError(f"unknown backend {backend!r}; the backends are local and dask")
    if workers <= 1 or count <= 1:
        for job in jobs:
            yield _play(job)
        return
    # Forking copies this process with the ruleset already compiled, so workers start at once; but a
    # fork while another thread runs could copy a lock that thread holds. Then a fork server (started
    # once, with the package imported) makes clean processes instead. (The progress bar starts its
    # thread only after the pool exists.)
    methods = mp.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        ctx = mp.get_context("fork")
    elif "forkserver" in methods:
        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload(["schachett_rules.simulation.simulate", "schachett_rules.playouts.batch",
                                    "schachett_rules.playouts.compiled", "schachett_rules.players.bots"])
    else:  # pragma: no cover - not on Linux
        ctx = mp.get_context("spawn")
    pool = ctx.Pool(min(workers, count))
    try:
        yield from pool.imap(_play, jobs)
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()
