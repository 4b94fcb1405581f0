"""The database's tables (SQLAlchemy Core) and its engine: SQLite (the default, in this
process) or PostgreSQL (shared by the processes of a site).

Other modules keep tables of their own in the same `metadata` (the lobby's rows, the
spectators' lines). The database gets them from the migrations (migrations/, upgrades.py),
whose head is exactly these tables (tests/server/storage/test_upgrades.py).
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    make_url,
)
from sqlalchemy.engine import Engine
from sqlalchemy.pool import StaticPool

metadata = MetaData()

tables_t = Table(
    "vertex_tables",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("spec", Text, nullable=False),
    Column("status", String(16), nullable=False),
    Column("creator", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Index("ix_vertex_tables_creator", "creator", "created_at"),
    Index("ix_vertex_tables_status", "status"),
)

events_t = Table(
    "vertex_events",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(32), nullable=False),
    Column("data", Text, nullable=False),
    Column("at", Float, nullable=False),
)

#: Solo Verticality results for the personal-best lists: one row per finished table.
bests_t = Table(
    "vertex_bests",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("levels", Integer, nullable=False),
    Column("height_mm", Float, nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_vertex_bests_name", "name", "levels", "height_mm"),
    Index("ix_vertex_bests_rank", "levels", "height_mm"),
)

#: Per table, the highest lease epoch (leases.py) an owner's write carried: a write with an
#: older epoch comes from an owner whose lease was taken over, and is refused.
fences_t = Table(
    "vertex_fences",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("epoch", BigInteger, nullable=False),
)

#: Slow tables (days a move): the next deadline of each, as of its version `v` (NULL: no
#: clock running), for the sweeper that wakes a table nobody holds (deadlines.py).
deadlines_t = Table(
    "vertex_deadlines",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("v", Integer, nullable=False),
    Column("deadline", Float, nullable=True),
    Index("ix_vertex_deadlines_deadline", "deadline"),
)


def stored_json(value: Any) -> str:
    """JSON as the store writes it (specs, event data): compact, keys sorted."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


#: PostgreSQL's deadlines: a connection made, a pooled one handed out, a statement run,
#: bytes sent acknowledged by the other end.
CONNECT_TIMEOUT_S = 2
POOL_TIMEOUT_S = 2.0
STATEMENT_TIMEOUT_MS = 10_000
TCP_USER_TIMEOUT_MS = 3_000


def shown_url(url: str) -> str:
    """The URL as it may be printed or logged: never with its password."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # not a URL at all: show it as given, it holds no password then
        return url


def make_engine(url: str, durable: bool = False, statement_deadline: bool = True) -> Engine:
    """`durable` (SQLite): every commit survives a power cut too (synchronous=FULL).
    `statement_deadline` False (PostgreSQL): no statement timeout, for `vertex db`, whose
    migrations and imports may rightly take longer than a server's queries."""
    if not url.startswith("sqlite"):
        deadline_ms = STATEMENT_TIMEOUT_MS if statement_deadline else 0  # 0: none
        # A stalled or lost link must fail within seconds, not hang a request or a lease's
        # owner for minutes: connect, checkout, statement and TCP deadlines (PostgreSQL's
        # libpq parameters through psycopg).
        return create_engine(
            url,
            pool_size=5,
            max_overflow=5,
            pool_pre_ping=True,
            pool_timeout=POOL_TIMEOUT_S,
            connect_args={
                "connect_timeout": CONNECT_TIMEOUT_S,
                "options": f"-c statement_timeout={deadline_ms}",
                "keepalives": 1,
                "keepalives_idle": 5,
                "keepalives_interval": 2,
                "keepalives_count": 2,
                "tcp_user_timeout": TCP_USER_TIMEOUT_MS,
            },
        )
    memory = url in ("sqlite://", "sqlite:///:memory:")
    kwargs: dict[str, Any] = {"connect_args": {"check_same_thread": False}}
    if memory:
        kwargs["poolclass"] = StaticPool
    engine = create_engine(url, **kwargs)

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn: Any, _record: Any) -> None:
        # WAL keeps readers and the writer apart; NORMAL sync is safe against a killed process
        # (only a power cut or an OS crash can lose the last commits: README, "Backups and
        # upgrades"); FULL syncs the log at every commit.
        cur = dbapi_conn.cursor()
        if not memory:
            cur.execute("PRAGMA journal_mode=WAL")
        cur.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
        cur.execute("PRAGMA busy_timeout=5000")
        cur.close()

    return engine
