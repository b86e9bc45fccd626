"""The game server's storage, on SQLite always and on PostgreSQL when one is given.

`.ci/run` starts a PostgreSQL server and names it in SCHACHETT_TEST_POSTGRES
(postgresql://user@host:port/db); without it the PostgreSQL cases are skipped and say why.
Two services on one database stand for two server processes: each rebuilds a table from the rows
when the other has moved it on.
"""

from __future__ import annotations

import os
import threading
import uuid

import pytest
from sqlalchemy import create_engine, inspect, text

from schachett_rules.server.requests import RequestError
from schachett_rules.server.service import Service
from schachett_rules.server.store import DEFAULT_FILE, Store, StoreError
from schachett_rules.paths import home
from tests.serving import engine_state

POSTGRES = os.environ.get("SCHACHETT_TEST_POSTGRES")


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.skipif(
    not POSTGRES, reason="no PostgreSQL server named in SCHACHETT_TEST_POSTGRES (.ci/run starts one)"))])
def db_url(request, tmp_path):
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'tables.sqlite'}"
        return
    name = "schachett_test_" + uuid.uuid4().hex[:10]     # a database of its own for each test
    admin = create_engine(POSTGRES.replace("postgresql://", "postgresql+psycopg://", 1), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    base = POSTGRES.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
        admin.dispose()


def first_person(service: Service, seats=("person", "bot:heuristic", "bot:heuristic", "bot:heuristic")):
    table, places = service.create({"ruleset": "original", "seats": list(seats)})
    return table, places[0]["key"]


def test_the_schema_is_made_by_the_migrations_once(db_url):
    store = Store.open(db_url)
    with store.engine.connect() as conn:
        # 0001 the tables, 0002 a game's deal beyond the hands (the family's stock, turned card, game number)
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0002"
        assert "deal" in {c["name"] for c in inspect(conn).get_columns("games")}
    Store.open(db_url)               # a second start finds the schema at its newest and changes nothing
    with store.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM alembic_version")).scalar() == 1


def test_a_second_process_answers_a_table_the_first_one_moved_on(db_url):
    one, two = Service(Store.open(db_url)), Service(Store.open(db_url))
    table, key = first_person(one)
    v = two.view(table, key)
    after = one.act(table, key, {"card": v["legal"][0]})
    seen = two.view(table, key)           # two's copy is older: it rebuilds from the rows
    assert seen == after and seen["version"] == v["version"] + 1
    moved = two.act(table, key, {"card": seen["legal"][0]})
    assert one.view(table, key) == moved
    state, _ = engine_state(db_url, table)
    assert sum(1 for h in state.history() if h[0] == "play" and h[2] == 0) == 2     # two cards of South's


def test_two_processes_acting_at_once_make_one_change(db_url):
    one, two = Service(Store.open(db_url)), Service(Store.open(db_url))
    table, key = first_person(one)
    v = one.view(table, key)
    card = v["legal"][0]
    results, barrier = [], threading.Barrier(2)

    def play(service):
        barrier.wait()
        try:
            results.append(service.act(table, key, {"card": card})["version"])
        except RequestError as err:
            results.append(err.status)

    threads = [threading.Thread(target=play, args=(s,)) for s in (one, two)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(30)
    # one is played; the other finds the card gone from the hand (422) or it is not its decision (409)
    assert len(results) == 2 and v["version"] + 1 in results and (set(results) - {v["version"] + 1}) <= {409, 422}
    assert one.version(table) == v["version"] + 1
    state, _ = engine_state(db_url, table)
    assert sum(1 for h in state.history() if h[0] == "play" and h[2] == 0) == 1


def test_a_restarted_service_rebuilds_every_table_where_it_was(db_url):
    first = Service(Store.open(db_url))
    tables = [first_person(first) for _ in range(3)]
    for table, key in tables[:2]:
        v = first.view(table, key)
        first.act(table, key, {"card": v["legal"][0]})
    views = [first.view(t, k) for t, k in tables]
    again = Service(Store.open(db_url))      # a new process: nothing in memory
    assert [again.view(t, k) for t, k in tables] == views


def test_the_default_database_is_a_file_in_the_working_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    store = Store.open()
    assert store.url_shown == f"sqlite:///{DEFAULT_FILE}" and (tmp_path / DEFAULT_FILE).is_file()


@pytest.mark.parametrize("url, words", [
    ("not a url at all", "is not a database URL"),
    ("nosuchdb://x/y", "has no dialect"),
    ("postgresql://nobody:secret@127.0.0.1:1/none", "cannot be opened"),
    ("sqlite:////no/such/folder/x.sqlite", "cannot be opened"),
])
def test_a_database_that_cannot_be_used_is_one_paragraph(url, words):
    with pytest.raises(StoreError) as err:
        Store.open(url)
    assert words in err.value.message and "\n" not in err.value.message
    assert "secret" not in err.value.message          # a password is never shown


FAST = ("three-player", "solitaire", "eight-players")   # a dummy, an automaton, two decks; the others in the slow lane


@pytest.mark.parametrize("ruleset", [pytest.param(n, marks=() if n in FAST else pytest.mark.slow)
                                     for n in sorted(p.stem for p in (home() / "variants").glob("*.schachett"))])
def test_every_ruleset_plays_to_its_end_at_a_table(ruleset, tmp_path):
    service = Service(Store.open(f"sqlite:///{tmp_path / 'tables.sqlite'}"))
    plan = service.rules(ruleset, {})[2]
    table, places = service.create({"ruleset": ruleset, "seats": ["person"] + ["bot:random"] * (len(plan.players) - 1)})
    key = places[0]["key"]
    v = service.view(table, key)
    for _ in range(500):
        if v["over"]:
            break
        assert v["turn"]["yours"], v["turn"]
        state, _ = engine_state(f"sqlite:///{tmp_path / 'tables.sqlite'}", table)
        assert set(v["legal"]) == set(state.observation(v["seat"]).legal)
        if v["decision"] == "castle":
            action = {"pass": True}
        elif v["decision"] in ("give", "bid", "call", "discard", "answer"):     # a decision before play
            action = {"decide": v["choices"][0]}
        else:
            action = {"card": v["legal"][0]}
        v = service.act(table, key, action)
    assert v["over"] and v["result"]["totals"] is not None
    record = service.record(table)
    assert len(record["hands"]) == len(v["seats"])
