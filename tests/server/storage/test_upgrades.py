"""The schema's migrations (storage/upgrades.py): a new database is created at the head, the
head is exactly the tables the code declares, every schema shipped before migrations
upgrades with its rows, and a server refuses a database that needs `vertex db upgrade` —
on SQLite and on PostgreSQL (skipped where it cannot be reached)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine, create_engine, inspect, select, text

import vertex.server.app  # noqa: F401  (every module's tables on the metadata)
from tests.server.pg import another_database, drop_database
from tests.server.storage.shipped import RELEASES, build
from vertex.server.parts import parts_for
from vertex.server.settings import Settings
from vertex.server.storage import upgrades
from vertex.server.storage.schema import make_engine, metadata
from vertex.server.storage.store import Store


def _pg_unreachable() -> str | None:
    try:
        import psycopg

        from tests.server.pg import PG

        psycopg.connect(PG.replace("+psycopg", ""), connect_timeout=2).close()
    except Exception as exc:
        return f"PostgreSQL is not reachable: {exc}"
    return None


needs_pg = pytest.mark.skipif(bool(_pg_unreachable()), reason=_pg_unreachable() or "")


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=needs_pg)])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database of either kind."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'v.db'}"
        return
    made = another_database()
    try:
        yield made
    finally:
        drop_database(made)


def _differences(engine: Engine) -> list[Any]:
    with engine.connect() as conn:
        return list(compare_metadata(MigrationContext.configure(conn), metadata))


def _rows(engine: Engine, names: tuple[str, ...]) -> dict[str, list[dict[str, Any]]]:
    """The rows of these tables, in the columns any release shipped (later migrations'
    new columns are checked to be empty)."""
    out: dict[str, list[dict[str, Any]]] = {}
    with engine.connect() as conn:
        for n in names:
            rows = [dict(r._mapping) for r in conn.execute(select(metadata.tables[n]))]
            for row in rows:
                for added in ADDED.get(n, ()):
                    assert row.pop(added) is None
            out[n] = rows
    return out


#: Columns later migrations added to tables that shipped before migrations.
ADDED = {"vertex_lobby": ("pool", "rating")}


def test_a_new_database_gets_the_head_which_is_the_code_s_schema(url: str) -> None:
    engine = make_engine(url)
    try:
        upgrades.prepare(engine, url)
        with engine.connect() as conn:
            assert upgrades.look(conn).kind == "current"
        # a migration forgotten for a changed table fails here
        assert _differences(engine) == []
        upgrades.prepare(engine, url)  # again: nothing to do
    finally:
        engine.dispose()


@pytest.mark.parametrize("release", list(RELEASES))
def test_a_schema_shipped_before_migrations_upgrades_with_its_rows(
    release: str, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    rows = build(url, release)
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            assert upgrades.look(conn).kind == "shipped"
        with pytest.raises(upgrades.SchemaError, match="vertex db upgrade --database sqlite"):
            upgrades.prepare(engine, url)
        found, head = upgrades.upgrade(engine, url)
        assert (found.kind, head) == ("shipped", upgrades.head())
        assert _differences(engine) == []
        assert _rows(engine, RELEASES[release]) == rows
        assert upgrades.upgrade(engine, url)[0].kind == "current"
    finally:
        engine.dispose()


@needs_pg
def test_today_s_shipped_schema_upgrades_on_postgresql() -> None:
    url = another_database()
    try:
        rows = build(url)
        engine = make_engine(url)
        try:
            assert upgrades.upgrade(engine, url)[0].kind == "shipped"
            assert _differences(engine) == []
            assert _rows(engine, RELEASES["84387df"]) == rows
            with engine.begin() as conn:  # the spectators' serial goes on after the rows
                conn.execute(
                    text(
                        "INSERT INTO vertex_spectator_lines (table_id, text, at) "
                        "VALUES ('t', 'x', 1.0)"
                    )
                )
        finally:
            engine.dispose()
    finally:
        drop_database(url)


def test_a_store_refuses_a_database_that_needs_an_upgrade(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    build(url)
    store = Store(url)

    async def start() -> None:
        try:
            await store.start()
        finally:
            await store.close()

    with pytest.raises(upgrades.SchemaError, match="before schema migrations: run `vertex db"):
        asyncio.run(start())


def test_a_database_of_a_newer_vertex_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'v.db'}"
    engine = make_engine(url)
    try:
        upgrades.prepare(engine, url)
        with engine.begin() as conn:
            conn.execute(text("UPDATE alembic_version SET version_num = 'ffff9999'"))
        for step in (upgrades.prepare, upgrades.upgrade):
            with pytest.raises(upgrades.SchemaError, match="ffff9999, which this Vertex does"):
                step(engine, url)
    finally:
        engine.dispose()


def test_an_upgrade_leaves_tables_it_does_not_recognise_alone(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'v.db'}"
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE vertex_tables (id TEXT PRIMARY KEY, other TEXT)"))
    with pytest.raises(upgrades.SchemaError, match="not those any Vertex shipped"):
        upgrades.upgrade(engine, url)
    with engine.connect() as conn:
        assert upgrades.look(conn) == upgrades.Found(None, frozenset({"vertex_tables"}))
    engine.dispose()


def test_processes_starting_at_once_do_not_race(url: str) -> None:
    engines = [make_engine(url) for _ in range(4)]
    errors: list[BaseException] = []
    gate = threading.Barrier(len(engines))

    def start(engine: Engine) -> None:
        gate.wait()
        try:
            upgrades.prepare(engine, url)
        except BaseException as exc:
            errors.append(exc)

    try:
        threads = [threading.Thread(target=start, args=(e,)) for e in engines]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        assert errors == []
        with engines[0].connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM alembic_version")).scalar_one() == 1
        assert _differences(engines[0]) == []
    finally:
        for e in engines:
            e.dispose()


@pytest.mark.parametrize(("durable", "level"), [(False, 1), (True, 2)])
def test_durable_syncs_every_commit(tmp_path: Path, durable: bool, level: int) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'v.db'}", durable)
    with engine.connect() as conn:  # 1 NORMAL, 2 FULL
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar_one() == level
    engine.dispose()


def test_durable_reaches_the_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERTEX_DURABLE", "1")  # what `vertex serve --durable` sets
    monkeypatch.delenv("VERTEX_REDIS_URL", raising=False)
    settings = Settings.from_env(f"sqlite:///{tmp_path / 'v.db'}")
    store = parts_for(settings).store
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar_one() == 2
    store.engine.dispose()


def test_a_step_that_fails_leaves_nothing_half_done(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    migrate = upgrades._migrate

    def fails_at_the_end(conn: Any) -> None:
        migrate(conn)
        raise RuntimeError("the last migration failed")

    monkeypatch.setattr(upgrades, "_migrate", fails_at_the_end)
    engine = make_engine(url)
    try:
        with pytest.raises(RuntimeError):
            upgrades.prepare(engine, url)
        with engine.connect() as conn:  # DDL too was rolled back, on SQLite as well
            assert upgrades.look(conn).kind == "empty"
            assert "vertex_tables" not in inspect(conn).get_table_names()
    finally:
        engine.dispose()
