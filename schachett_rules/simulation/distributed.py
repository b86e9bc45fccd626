"""Playing the chunks of a run on a Dask cluster.

A run is a list of independent chunks, each a plain function call that returns
exact statistics; all we need from a cluster is "call this function on these
arguments somewhere and give me back the results". Dask's ``distributed``
scheduler does exactly that with ordinary functions and futures, and little
else is asked of it:

* Dask and its scheduler are pure Python and install from PyPI with pip
  (``pip install 'schachett_rules[cluster]'``). Ray would serve too, but it is a
  large compiled wheel for each platform and Python version and brings its own
  runtime (daemons on every node, a shared-memory object store), which is more
  than a list of independent function calls needs;
* it is small to use: ``client.map`` sends the chunks, ``as_completed`` brings
  the results back, ``cancel`` stops the rest;
* ``LocalCluster`` starts a scheduler and worker processes on this machine, so
  the tests play a real cluster and a laptop can use every core;
* the same code runs on many machines: start ``dask scheduler`` on one,
  ``dask worker tcp://HOST:8786`` on each of the others, and pass the
  scheduler's address (``schachett simulate --backend dask --scheduler tcp://HOST:8786``).

Each worker must have the same version of this package installed (the function
is sent by name, and each chunk loads and compiles its ruleset on the worker),
and any rule file named by path must exist there at the same path.

Results come back in job order even though chunks finish in any order: the ones
that finish early wait in a buffer until those before them are in, so a
progress bar moves as soon as the chunks in front are done, and the merged
statistics are exactly those of a local run.
"""

from __future__ import annotations

import logging
from typing import Callable, Iterable, Iterator

from .cores import default_workers
from ..errors import SchachettError

CONNECT_TIMEOUT = 10.0   # seconds to reach a scheduler (less, when Dask's own setting is less)

INSTALL_HINT = "pip install 'schachett_rules[cluster]'"


def _connect_timeout() -> float:
    """Seconds to wait for a scheduler: Dask's ``distributed.comm.timeouts.connect``, at most 10."""
    import dask
    from dask.utils import parse_timedelta
    return min(CONNECT_TIMEOUT, parse_timedelta(dask.config.get("distributed.comm.timeouts.connect"), "s"))


def _connect(address: str):
    """A client of the scheduler at ``address``, or a SchachettError that names it."""
    from distributed import Client
    from distributed.comm import resolve_address

    class _Client(Client):
        # Dask cleans up a client that fails to connect only on OSError; after any other failure
        # (say, an HTTP server on that port answers) the half-started client would hang for twice
        # the timeout when collected, so it is closed here whatever went wrong.
        async def _start(self, *args, **kwargs):
            try:
                await super()._start(*args, **kwargs)
            except Exception:
                await self._close()
                raise

    timeout = _connect_timeout()
    try:
        resolve_address(address)   # a malformed address or an unknown host fails at once
        client = _Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as e:
        raise SchachettError(f"cannot reach the Dask scheduler at {address}: {e} "
                             f"(is `dask scheduler` running there?)") from e
    except Exception as e:
        raise SchachettError(f"something answers at {address}, but not a Dask scheduler "
                             f"({type(e).__name__}: {e}); the scheduler's own port is 8786 by default, "
                             f"its dashboard's 8787") from e
    try:
        client.wait_for_workers(1, timeout=timeout)
    except (TimeoutError, OSError) as e:
        client.close()
        raise SchachettError(f"the Dask scheduler at {address} has no workers (waited {timeout:g} s); "
                             f"start some with `dask worker {address}`") from e
    return client


def map_on_dask(fn: Callable, jobs: Iterable, address: str | None = None,
                workers: int | None = None) -> Iterator:
    """Yield ``fn(job)`` for every job, in job order, computed on a Dask cluster.

    With ``address`` (like ``"tcp://127.0.0.1:8786"``) the jobs go to that
    scheduler's workers; without it a cluster of ``workers`` processes (one per
    core by default, one thread each) is started here and closed afterwards.
    Ctrl-C, an error or closing the generator cancels the jobs not yet done.
    """
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError as e:
        raise SchachettError(f"the dask backend needs Dask's distributed scheduler, which is not installed: "
                             f"{INSTALL_HINT}") from e
    jobs = list(jobs)
    if not jobs:
        return
    cluster = client = None
    futures: list = []
    try:
        if address is None:
            cluster = LocalCluster(n_workers=workers or default_workers(), threads_per_worker=1, processes=True,
                                   dashboard_address="127.0.0.1:0", silence_logs=logging.ERROR)
            client = Client(cluster, set_as_default=False)
        else:
            client = _connect(address)
        futures = client.map(fn, jobs, pure=False)
        position = {f.key: i for i, f in enumerate(futures)}
        waiting: dict[int, object] = {}
        following = 0
        for future in as_completed(futures, loop=client.loop):
            waiting[position[future.key]] = future.result()   # re-raises a chunk's error here
            while following in waiting:
                yield waiting.pop(following)
                futures[following] = None   # let the cluster forget a result once it is ours
                following += 1
    except BaseException:   # Ctrl-C, an error, or the caller closing the generator
        pending = [f for f in futures if f is not None and not f.done()]
        if client is not None and pending:
            try:
                client.cancel(pending)
            except Exception:  # pragma: no cover - the cluster is going away anyway
                pass
        raise
    finally:
        futures = []
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
