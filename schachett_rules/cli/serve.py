"""``schachett serve``: the game server, where people at different places play any ruleset in a browser."""

from __future__ import annotations

import os
import socket
import threading
from pathlib import Path

import click

from ..errors import UsageError


def _port_free(host: str, port: int) -> None:
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((host, port))
    except OSError as err:
        raise UsageError(f"--host {host} --port {port}: the address cannot be used ({err.strerror}); another server "
                         f"may be running there: choose another --port") from None


def _ready_bots() -> None:
    from ..players.warm import warm_up
    click.echo("Readying the strong bots (a second, or a few minutes the first time after an install)")
    try:
        click.echo(f"The strong bots are ready ({warm_up():.0f} s)")
    except Exception as err:      # noqa: BLE001 - the server serves on; each bot then compiles at its first card
        click.echo(f"The strong bots could not be readied ({type(err).__name__}: {err}); each will be made at its "
                   f"first decision instead", err=True)


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on (0.0.0.0: every one).")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option("--db", "db_url", default=None, metavar="URL",
              help="Any SQLAlchemy database URL (postgresql://user:password@host/name); default: an SQLite file "
                   "schachett-server.sqlite in this folder.")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Server processes sharing the database (use PostgreSQL for more than one).")
@click.option("--rate-per-key", type=click.FloatRange(min=0.1), default=20, show_default=True,
              help="Requests a second one key may make (each process keeps its own count).")
@click.option("--rate-per-address", type=click.FloatRange(min=0.1), default=100, show_default=True,
              help="Requests a second one client address may make.")
@click.option("--access-log", is_flag=True, help="Log every request (paths only: keys never travel in a path).")
def serve(host: str, port: int, db_url: str | None, workers: int, rate_per_key: float, rate_per_address: float,
          access_log: bool) -> None:
    """Start the game server: tables in the browser for people and bots, any ruleset.

    Tables, games and every action are kept in the database, so a restart loses nothing and several
    processes (--workers, or several servers) can share one PostgreSQL database. The strong bots' compiled
    code is made as it starts, while it already serves: a second, or a few minutes the first time after an
    install.
    """
    try:
        import uvicorn
        from ..server.store import Store
    except ModuleNotFoundError as err:
        raise UsageError(f"the game server needs {err.name!r}, which is not installed: install the project again "
                         f"with its dependencies (pip install .), which brings Starlette, uvicorn, SQLAlchemy and "
                         f"Alembic") from None
    store = Store.open(db_url)         # migrated here once, before any worker starts
    where = store.url_shown
    if store.engine.dialect.name == "sqlite" and store.engine.url.database:
        where += f" ({Path(store.engine.url.database).resolve()})"
    _port_free(host, port)
    click.echo(f"Tables are kept in {where}")
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"Schachett game server on http://{shown}:{port}/ ({workers} process{'es' if workers > 1 else ''}; "
               f"Ctrl-C stops it)", err=False)
    # the strong bots' compiled code, made while the server already answers: after an install it takes minutes,
    # which a person's first game against them would otherwise spend waiting for a card
    threading.Thread(target=_ready_bots, name="ready-bots", daemon=True).start()
    os.environ["SCHACHETT_SERVER_DB"] = db_url or ""
    os.environ["SCHACHETT_SERVER_RATES"] = f"{rate_per_key},{rate_per_address}"
    store.engine.dispose()
    uvicorn.run("schachett_rules.server.app:factory", factory=True, host=host, port=port, workers=workers,
                ws_max_size=16 * 1024, access_log=access_log, log_level="warning", lifespan="on",
                ws_ping_interval=20, timeout_graceful_shutdown=3)
