"""Where the game server keeps its tables: any SQLAlchemy database, the schema made by Alembic migrations.

Nothing about a table lives only in a process's memory: its ruleset and readings, who plays each
place (a person with a key, or a bot), and for every game its seating, dealer, deal and the
actions in order. Any process can rebuild any game from these rows (``engine.replay.state_of``),
so several server processes may share one PostgreSQL database, and a restart loses nothing.

The ``version`` of a table counts its changes; a process that keeps a game's state in memory
checks the version on every request and rebuilds the state when another process has moved on.

>>> db = Store.open("sqlite://")       # an in-memory database, migrated to the newest schema
>>> db.url_shown
'sqlite://'
>>> sorted(db.engine.dialect.get_table_names(db.engine.connect()))
['actions', 'alembic_version', 'games', 'places', 'tables']
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import (JSON, Boolean, Column, Integer, MetaData, String, Table, create_engine, event,
                        make_url)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, OperationalError
from sqlalchemy.pool import StaticPool

from ..errors import SchachettError

DEFAULT_FILE = "schachett-server.sqlite"
MIGRATIONS = Path(__file__).resolve().parent / "migrations"

metadata = MetaData()

tables = Table(
    "tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("ruleset", String(64), nullable=False),
    Column("options", JSON, nullable=False),          # lacuna -> option, as a record's options
    Column("players", JSON, nullable=False),          # the players' names, in lot order (A, B, C ...)
    Column("seed", String(40), nullable=False),       # the deals' seed (decimal text: wider than a 64-bit int)
    Column("version", Integer, nullable=False),       # +1 on every change
    Column("created", String(40), nullable=False),
)

places = Table(
    "places", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("place", Integer, primary_key=True),       # the player's index in ``tables.players``
    Column("kind", String(16), nullable=False),       # "person" or "bot"
    Column("bot", String(32), nullable=False),        # the bot that plays: always for a bot, while away for a person
    Column("key_hash", String(64), nullable=True),    # SHA-256 of the person's key, hex; the key itself is never kept
    Column("away", Boolean, nullable=False),
)

games = Table(
    "games", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("number", Integer, primary_key=True),      # 1, 2, 3 ... in the session
    Column("round", Integer, nullable=False),
    Column("dealer", Integer, nullable=False),
    Column("seating", JSON, nullable=False),          # the player (or "dummy") on each seat
    Column("hands", JSON, nullable=False),            # the deal, card names by seat
    Column("deal", JSON, nullable=True),              # the rest of the deal: {"game", "stock", "turned"}
    Column("over", Boolean, nullable=False),
    Column("result", JSON, nullable=True),            # the finished game's net money by seat, for the ledger
)

actions = Table(
    "actions", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("number", Integer, primary_key=True),      # the game
    Column("idx", Integer, primary_key=True),         # the action's place in the game, from 0
    Column("action", JSON, nullable=False),           # a record's action: "w7", {"castle": ...}, {"pass": ...}
)


class StoreError(SchachettError):
    """The database named cannot be used."""


def _sqlite_setup(engine: Engine) -> None:
    """SQLite: wait for a lock instead of failing, and begin every transaction as a writer.

    ``BEGIN IMMEDIATE`` takes the write lock at the start, so two processes acting on one table
    queue up rather than both reading the old version (PostgreSQL gets ``SELECT … FOR UPDATE``).
    """
    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn, _record):
        dbapi_conn.isolation_level = None       # the driver's own BEGIN would be a deferred one
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA busy_timeout = 10000")
        if engine.url.database not in (None, "", ":memory:"):
            cur.execute("PRAGMA journal_mode = WAL")   # readers do not wait for the writer
        cur.execute("PRAGMA synchronous = NORMAL")
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn):
        conn.exec_driver_sql("BEGIN IMMEDIATE")


class Store:
    """An open database: its engine, migrated to the newest schema."""

    def __init__(self, engine: Engine, url_shown: str):
        self.engine, self.url_shown = engine, url_shown
        self.locks_rows = engine.dialect.name != "sqlite"   # SELECT … FOR UPDATE where the database has it

    @classmethod
    def open(cls, url: str | None = None, migrate: bool = True) -> "Store":
        """Open ``url`` (any SQLAlchemy URL; default: an SQLite file in the working folder) and migrate it."""
        url = url or f"sqlite:///{DEFAULT_FILE}"
        try:
            parsed = make_url(url)
        except ArgumentError:
            raise StoreError(f"--db {url!r} is not a database URL; write one as SQLAlchemy does, e.g. "
                             f"sqlite:///games.sqlite or postgresql+psycopg://user:password@host/dbname") from None
        shown = parsed.render_as_string(hide_password=True)
        if parsed.get_backend_name() == "postgresql" and parsed.drivername == "postgresql":
            parsed = parsed.set(drivername="postgresql+psycopg")     # psycopg 3, the driver the extra installs
        kw: dict = {}
        if parsed.get_backend_name() == "sqlite" and parsed.database in (None, "", ":memory:"):
            kw = {"poolclass": StaticPool, "connect_args": {"check_same_thread": False}}  # one shared in-memory db
        elif parsed.get_backend_name() == "postgresql":
            kw = {"pool_size": 10, "max_overflow": 20, "pool_pre_ping": True}
        try:
            engine = create_engine(parsed, **kw)
        except NoSuchModuleError:
            raise StoreError(f"--db {shown}: SQLAlchemy has no dialect {parsed.drivername!r}") from None
        except ModuleNotFoundError as err:
            raise StoreError(f"--db {shown}: the database driver {err.name!r} is not installed; for PostgreSQL "
                             f"install the project's postgres extra (pip install 'schachett_rules[postgres]')") from None
        if engine.dialect.name == "sqlite":
            _sqlite_setup(engine)
        store = cls(engine, shown)
        if migrate:
            store.migrate()
        return store

    def migrate(self) -> None:
        """Bring the schema to the newest migration (Alembic); a database that cannot be reached is one paragraph."""
        from alembic import command
        from alembic.config import Config
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        try:
            with self.engine.begin() as conn:
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "head")
        except OperationalError as err:
            first = str(err.orig).strip().splitlines()[0] if err.orig else str(err)
            raise StoreError(f"--db {self.url_shown}: the database cannot be opened: {first}") from None
