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


# the kinds of run whose compiled code this process has loaded by playing a game of it (:func:`map_chunks`)
_WARMED: set = set()


def _play(args):
    play_chunk, spec, index = args
    return index, play_chunk(spec, index)


def warm_here(play_chunk: Callable, warm: tuple) -> bool:
    """Play ``play_chunk(small_spec, 0)`` in this process for ``warm = (kind, small_spec)``, once per kind;
    whether it played (:func:`map_chunks`).

    >>> warm_here(lambda spec, index: print("played", spec), (("example", "kind"), "one game"))
    played one game
    True
    >>> warm_here(lambda spec, index: print("played", spec), (("example", "kind"), "one game"))
    False
    """
    if warm[0] in _WARMED:
        return False
    _WARMED.add(warm[0])
    play_chunk(warm[1], 0)
    return True


def map_chunks(play_chunk: Callable, spec, count: int, workers: int = 1, backend: str = "local",
               address: str | None = None, warm: tuple | None = None) -> Iterator[tuple[int, object]]:
    """Yield ``(index, play_chunk(spec, index))`` for every chunk, in chunk order.

    ``play_chunk`` must be a module-level function, so that worker processes can find it by name.

    ``warm`` is ``(kind, small_spec)``: before workers first fork from this process for a run of that kind,
    ``play_chunk(small_spec, 0)`` (a game or two) is played here and its result dropped. numba loads compiled
    code from its cache into the process that first calls it; loaded here, every worker forked after it starts
    with the code in memory, where each would otherwise load it afresh (about 0.7 s of CPU a worker, for runs of
    a few seconds: the site's build starts some 130 such runs).
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
    if warm is not None and ctx.get_start_method() == "fork":
        warm_here(play_chunk, warm)
    pool = ctx.Pool(min(workers, count))
    try:
        yield from pool.imap(_play, jobs)
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()
