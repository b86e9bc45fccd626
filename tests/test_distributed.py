"""The Dask backend: a run on a cluster gives exactly the statistics of a local run."""

from __future__ import annotations

import gc
import socket
import sys
import threading
import time

import pytest

from schachett_rules.simulation import simulate
from schachett_rules.errors import SchachettError
from schachett_rules.simulation.simulate import Spec

distributed = pytest.importorskip("distributed")
dask = pytest.importorskip("dask")

from schachett_rules.simulation.distributed import map_on_dask  # noqa: E402

pytestmark = pytest.mark.slow   # every test here starts a Dask cluster or waits on a scheduler


@pytest.fixture(scope="module")
def cluster():
    """A scheduler and two worker processes on this machine, for the whole module."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0",
                                  silence_logs=40) as c:
        yield c


def same_as_local(spec: Spec, address: str) -> None:
    on_dask = simulate.run(spec, backend="dask", address=address)
    assert on_dask.games == spec.games
    for workers in (1, 2):
        local = simulate.run(spec, workers=workers)
        assert simulate.stats_json(on_dask) == simulate.stats_json(local)
        assert on_dask == local   # every exact count and sum, not only the report


@pytest.mark.parametrize("chunk", [0, 1500])   # the batch's own chunks; many small ones that finish out of order
def test_random_games_as_locally(cluster, chunk):
    same_as_local(Spec(ruleset="original", games=24000, seed=11, chunk=chunk), cluster.scheduler_address)


def test_bots_as_locally(cluster):
    # the engine with a thinking bot: one chunk's games seed by seed
    same_as_local(Spec(ruleset="original", games=60, seed=3, bots=("heuristic", "random"), chunk=15),
                  cluster.scheduler_address)


def test_without_an_address_a_local_cluster_is_started_and_closed():
    spec = Spec(ruleset="original", games=3000, seed=5, chunk=1000)
    assert simulate.stats_json(simulate.run(spec, backend="dask")) == simulate.stats_json(simulate.run(spec))


def test_progress_moves_in_chunk_order(cluster):
    seen = []
    simulate.run(Spec(ruleset="original", games=5000, seed=2, chunk=1000), progress=seen.append, backend="dask",
                 address=cluster.scheduler_address)
    assert seen == [1000] * 5


def test_results_come_in_job_order(cluster):
    def slow_first(i):  # a nested function travels by value, so the workers need not import this module
        import time
        time.sleep(0.05 * (6 - i))
        return i * i
    assert list(map_on_dask(slow_first, range(7), cluster.scheduler_address)) == [i * i for i in range(7)]


def test_an_error_in_a_job_reaches_the_caller(cluster):
    def fails_on_three(i):
        if i == 3:
            raise ValueError("chunk three")
        return i
    results = map_on_dask(fails_on_three, range(5), cluster.scheduler_address)
    with pytest.raises(ValueError, match="chunk three"):
        list(results)


def test_stopping_early_cancels_the_rest(cluster):
    def slow(i):
        import time
        time.sleep(0 if i == 0 else 1.5)
        return i
    results = map_on_dask(slow, range(6), cluster.scheduler_address)
    assert next(results) == 0
    results.close()   # what a Ctrl-C in the caller's loop does too
    deadline = time.monotonic() + 5
    while cluster.scheduler.tasks and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not cluster.scheduler.tasks


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_unreachable_scheduler_is_named():
    address = f"tcp://127.0.0.1:{free_port()}"
    start = time.monotonic()
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        with pytest.raises(SchachettError, match=f"cannot reach the Dask scheduler at {address}"):
            simulate.run(Spec(ruleset="original", games=100, seed=1), backend="dask", address=address)
    assert time.monotonic() - start < 10


def test_without_dask_the_error_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)   # makes `import distributed` fail
    with pytest.raises(SchachettError, match=r"pip install 'schachett_rules\[cluster\]'"):
        list(map_on_dask(abs, [1], None))


@pytest.fixture
def http_port():
    """A port where something that is not a Dask scheduler answers (like a dashboard's)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()

    def answer():
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                conn.sendall(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n")

    threading.Thread(target=answer, daemon=True).start()
    yield server.getsockname()[1]
    server.close()


def test_something_else_at_the_address_is_named(http_port):
    address = f"tcp://127.0.0.1:{http_port}"
    start = time.monotonic()
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        with pytest.raises(SchachettError, match=f"at {address}"):
            list(map_on_dask(abs, [1], address))
        gc.collect()   # a half-started Dask client used to hang here for twice the timeout
    assert time.monotonic() - start < 5


def test_a_scheduler_without_workers_is_named():
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address="127.0.0.1:0", silence_logs=40) as empty:
        with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
            with pytest.raises(SchachettError, match=f"{empty.scheduler_address} has no workers"):
                list(map_on_dask(abs, [1], empty.scheduler_address))
