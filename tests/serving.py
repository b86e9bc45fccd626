"""The game server as the tests run it: `schachett serve` in a process of its own, on a free port of 127.0.0.1.

A test gets a :class:`Running` server with its address and database, can stop it (as a crash or a
restart would) and start it again on the same database, and can rebuild any table's game from the
database itself (:func:`engine_state`), independently of the server's own code, to check what the
server says against the engine.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
from sqlalchemy import create_engine, select

from schachett_rules.engine.replay import GameRecord, state_of
from schachett_rules.kernel.compiler import tables_for
from schachett_rules.kernel.deal import names_of
from schachett_rules.server import store

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Running:
    """One `schachett serve` process."""

    def __init__(self, db: str, cwd: Path, extra: tuple[str, ...] = ()):
        self.db, self.cwd, self.extra = db, cwd, extra
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None
        self.log = cwd / f"server-{self.port}.log"

    def start(self) -> "Running":
        args = [sys.executable, "-m", "schachett_rules.cli.main", "serve", "--port", str(self.port), "--db", self.db,
                "--rate-per-key", "1000", "--rate-per-address", "5000", *self.extra]
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(args, cwd=self.cwd, stdout=log, stderr=subprocess.STDOUT,
                                         env=dict(os.environ, PYTHONUNBUFFERED="1"))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server stopped at once:\n{self.log.read_text()}")
            try:
                if httpx.get(self.url + "/static/style.css", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError(f"the server did not answer within 60 s:\n{self.log.read_text()}")

    def stop(self, kill: bool = False) -> None:
        """Stop the server: ``kill`` as a crash would (SIGKILL), otherwise as Ctrl-C does."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill() if kill else self.proc.terminate()
            self.proc.wait(15)
        self.proc = None

    def restart(self, kill: bool = True) -> None:
        self.stop(kill)
        self.start()


@contextlib.contextmanager
def serving(tmp_path: Path, db: str | None = None, extra: tuple[str, ...] = ()):
    """A running server on ``db`` (default: an SQLite file in ``tmp_path``), stopped at the end."""
    server = Running(db or f"sqlite:///{tmp_path / 'tables.sqlite'}", tmp_path, extra).start()
    try:
        yield server
    finally:
        server.stop()


_tables = functools.lru_cache(maxsize=64)(tables_for)   # compiled once per ruleset and readings, as a server does


@functools.lru_cache(maxsize=16)
def _engine(db: str):
    return create_engine(db.replace("postgresql://", "postgresql+psycopg://", 1))


def engine_state(db: str, table: str):
    """The current game of a table, rebuilt by the engine from the rows alone; and its tables (compiled rules)."""
    with _engine(db).connect() as conn:
        row = conn.execute(select(store.tables).where(store.tables.c.id == table)).mappings().one()
        game = conn.execute(select(store.games).where(store.games.c.table_id == table)
                            .order_by(store.games.c.number.desc()).limit(1)).mappings().one()
        actions = [a for (a,) in conn.execute(select(store.actions.c.action).where(
            (store.actions.c.table_id == table) & (store.actions.c.number == game["number"]))
            .order_by(store.actions.c.idx))]
    t = _tables(row["ruleset"], tuple(sorted(row["options"].items())))
    record = GameRecord(ruleset=row["ruleset"], options=row["options"], dealer=game["dealer"], hands=game["hands"],
                        actions=actions, **(game["deal"] or {}))
    return state_of(record, t), t


def visible_cards(state, t, seat: int | None) -> set[str]:
    """Every card name the seat's observation shows (a spectator: what every seat's shows), by name."""
    seats = [seat] if seat is not None else [s for s in range(t.n_seats) if t.controller(s) == s]
    each = []
    for s in seats:
        obs = state.observation(s)
        names = {c for cards in obs.hands.values() for c in cards}
        names |= {c for _, c in obs.kings} | {c for _, c in obs.trick} | {c for _, c in obs.shown}
        names |= {c for tr in obs.tricks for _, c in tr.cards}
        names |= {x for c in obs.castles for x in (c.king, c.officer)}
        names |= {x for o in obs.castle_offers for x in (o.king, *o.officers)}   # the officers on offer to a castler
        # before play: the turned card, the cards it passed and received, the card called, the cards it may call
        names |= {c for c in (obs.turned, obs.called) if c} | set(obs.passed) | {c for _, c in obs.received}
        names |= set(obs.discarded)                   # the cards it laid away: its own view alone
        names |= set(obs.options) if obs.decision == "call" else set()
        each.append(names)
    return set.intersection(*each)


def hidden_cards(state, t, seat: int | None) -> set[str]:
    """The names of cards in hands the seat may not see, or laid away by another seat, that it sees nowhere else
    (no copy of them shown)."""
    held = {c for s in range(t.n_seats) for c in names_of(t, state.hands[s])}
    held |= {c for s in range(t.n_seats) if s != seat for c in names_of(t, state.discarded[s])}
    return held - visible_cards(state, t, seat)
