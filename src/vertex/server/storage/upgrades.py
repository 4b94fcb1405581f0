"""The schema's version: which migration (migrations/, Alembic) a database is at, bringing it
to the head (`vertex db upgrade`) and the check `vertex serve` makes before it starts.

A database is one of: empty (none of our tables: a newcomer's first `vertex serve` creates
the schema at the head and stamps it), shipped before migrations (our tables, no version:
`vertex db upgrade` checks their columns, lets the baseline add the tables that release
did not have yet, and stamps it), behind (an older revision), current, or of a newer Vertex
(a revision these migrations do not know). `vertex serve` runs only on a current one (or an
empty one it creates) and otherwise refuses with the command to run.

Each step is one transaction (DDL included) that holds a lock — PostgreSQL's advisory lock,
SQLite's write lock — so a failed step leaves nothing half done and processes starting at
once do not race: one creates the schema, the others wait for it and find it current.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError

from vertex.server.storage.schema import shown_url

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: pg_advisory_xact_lock's key for schema changes ("vertex" and 1, as one bigint).
LOCK_KEY = 0x7665727465780001

#: The tables (and their columns) Vertex created before it had migrations, frozen: how a
#: database of those releases is recognised.
SHIPPED: dict[str, frozenset[str]] = {
    "vertex_tables": frozenset(
        {"id", "game", "spec", "status", "creator", "created_at", "updated_at"}
    ),
    "vertex_events": frozenset({"table_id", "seq", "kind", "data", "at"}),
    "vertex_bests": frozenset({"table_id", "name", "levels", "height_mm", "at"}),
    "vertex_lobby": frozenset(
        {
            "table_id",
            "game",
            "creator",
            "status",
            "quick",
            "free_seats",
            "summary",
            "listed_at",
            "updated_at",
        }
    ),
    "vertex_fences": frozenset({"table_id", "epoch"}),
    "vertex_spectator_lines": frozenset({"id", "table_id", "name", "text", "at"}),
}


class SchemaError(Exception):
    """The database's schema is not one this Vertex runs on; the message says what to do."""


@functools.cache
def _script() -> ScriptDirectory:
    return ScriptDirectory.from_config(_config())


def _config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def head() -> str:
    found = _script().get_current_head()
    assert found is not None
    return found


@dataclass(frozen=True)
class Found:
    """What a database holds: its revision (None: no version stamped) and which of the
    tables shipped before migrations it has."""

    revision: str | None
    shipped: frozenset[str]

    @property
    def kind(self) -> str:
        if self.revision is None:
            return "shipped" if self.shipped else "empty"
        if self.revision == head():
            return "current"
        try:
            known = _script().get_revision(self.revision) is not None
        except Exception:  # alembic: not a revision of ours
            known = False
        return "behind" if known else "newer"


def look(conn: Connection) -> Found:
    revision = MigrationContext.configure(conn).get_current_revision()
    names = set(inspect(conn).get_table_names())
    return Found(revision, frozenset(names & set(SHIPPED)))


@contextmanager
def _locked(engine: Engine) -> Iterator[Connection]:
    """One transaction, DDL included, that other processes wait for: on PostgreSQL under
    the schema lock, on SQLite holding the write lock from its start (pysqlite would leave
    DDL outside any transaction)."""
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": LOCK_KEY})
        elif conn.dialect.name == "sqlite":
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        yield conn


#: Alembic keeps the running migration's context in module globals: one at a time here.
_alembic = threading.Lock()


def _migrate(conn: Connection) -> None:
    cfg = _config()
    cfg.attributes["connection"] = conn
    with _alembic:
        command.upgrade(cfg, "head")


def refusal(url: str, found: Found) -> str:
    """Why a server cannot start on this database, and what to run."""
    run = f"run `vertex db upgrade --database {shown_url(url)}` first"
    if found.kind == "shipped":
        return (
            f"the database {shown_url(url)} has the schema of a Vertex from before schema "
            f"migrations: {run}"
        )
    if found.kind == "empty":  # another process was to create it, and did not
        return f"the database {shown_url(url)} has no schema yet: start again"
    if found.kind == "behind":
        return (
            f"the database {shown_url(url)} is at schema revision {found.revision}, this "
            f"Vertex needs {head()}: {run}"
        )
    return (
        f"the database {shown_url(url)} is at schema revision {found.revision}, which this "
        "Vertex does not know (a newer Vertex wrote it): run that version or a later one"
    )


def prepare(engine: Engine, url: str) -> None:
    """Before a server starts: an empty database gets the schema at the head; a current one
    passes; any other raises SchemaError."""
    try:
        with _locked(engine) as conn:
            found = look(conn)
            if found.kind == "empty":
                _migrate(conn)
                return
    except SQLAlchemyError:
        if engine.dialect.name != "sqlite":
            raise
        found = _after_another(engine)
    if found.kind != "current":
        raise SchemaError(refusal(url, found))


def _after_another(engine: Engine) -> Found:
    """SQLite: another process on the same new file held the write lock past the busy
    timeout (5 s) while it created the schema. It is done within seconds more; what it left
    is what we find."""
    deadline = time.monotonic() + 5.0
    while True:
        time.sleep(0.2)
        try:
            with engine.connect() as conn:
                found = look(conn)
        except SQLAlchemyError:
            if time.monotonic() > deadline:
                raise
            continue
        if found.kind == "current" or time.monotonic() > deadline:
            return found


def upgrade(engine: Engine, url: str) -> tuple[Found, str]:
    """`vertex db upgrade`: the database brought to the head; (what it was, the head)."""
    with _locked(engine) as conn:
        found = look(conn)
        if found.kind == "newer":
            raise SchemaError(refusal(url, found))
        if found.kind == "shipped":
            _check_shipped(conn, found)
        if found.kind != "current":
            _migrate(conn)
        return found, head()


def failure(url: str, exc: SQLAlchemyError) -> str:
    """A database error in a line (no traceback, no password)."""
    detail = str(getattr(exc, "orig", None) or exc).strip().splitlines()
    return (
        f"cannot use the database {shown_url(url)}: {detail[0] if detail else type(exc).__name__}"
    )


def _check_shipped(conn: Connection, found: Found) -> None:
    inspector = inspect(conn)
    for name in sorted(found.shipped):
        columns = {c["name"] for c in inspector.get_columns(name)}
        if columns != SHIPPED[name]:
            raise SchemaError(
                f"table {name} has the columns {', '.join(sorted(columns))}, not those any "
                "Vertex shipped: is this a Vertex database? Nothing was changed."
            )
