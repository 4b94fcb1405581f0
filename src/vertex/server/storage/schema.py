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


# ---- players (DESIGN.md §5a): identity, seats, history, ratings ----------------------------

#: A player: a name (its folded key and its look-alike skeleton unique too: names.py) and
#: the sha256 of its key. Forgetting clears the name, its keys and the key hash: the row
#: stays so that finished games can say "former player".
players_t = Table(
    "vertex_players",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(120), nullable=True),
    Column("name_key", String(200), nullable=True),
    Column("skeleton", String(200), nullable=True),
    Column("key_hash", String(64), nullable=True),
    Column("since", Float, nullable=False),
    Column("forgotten", Float, nullable=True),
    # finished games with a result, all pools and unrated ones (results.py keeps them)
    Column("games", Integer, nullable=False, server_default="0"),
    Column("wins", Integer, nullable=False, server_default="0"),
    Column("draws", Integer, nullable=False, server_default="0"),
    Column("losses", Integer, nullable=False, server_default="0"),
    Index("ix_vertex_players_name_key", "name_key", unique=True),
    Index("ix_vertex_players_skeleton", "skeleton", unique=True),
    Index("ix_vertex_players_key_hash", "key_hash", unique=True),
)

#: The seats players hold at open and playing tables (their "Your tables" on any device),
#: with whose turn it is; `v` is the table version they say, so a late write of an older
#: version changes nothing. A table's rows go when it ends (its history is below).
player_seats_t = Table(
    "vertex_player_seats",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", String(32), nullable=False),
    Column("game", String(64), nullable=False),
    Column("pool", String(64), nullable=True),
    Column("status", String(16), nullable=False),
    Column("my_turn", Integer, nullable=False),
    Column("v", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
    Index("ix_vertex_player_seats_player", "player_id", "status"),
)

#: Each player's finished games, newest first by (ended_at, table_id): a profile's pages
#: are a range of one of these indexes whatever the number of games.
player_games_t = Table(
    "vertex_player_games",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("table_id", String(40), primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("game", String(64), nullable=False),
    Column("pool", String(64), nullable=True),
    Column("rated", Integer, nullable=False),
    Column("ended_at", Float, nullable=False),
    Column("result", String(8), nullable=False),
    Column("before", Integer, nullable=True),
    Column("after", Integer, nullable=True),
    Column("summary", Text, nullable=False),  # options, scores, opponents (JSON)
    Index("ix_vertex_player_games_recent", "player_id", "ended_at", "table_id"),
    Index("ix_vertex_player_games_game", "player_id", "game", "ended_at", "table_id"),
)

#: A player's rating in a pool (display scale: ratings.py) and its counts.
ratings_t = Table(
    "vertex_ratings",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("pool", String(64), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("draws", Integer, nullable=False),
    Column("losses", Integer, nullable=False),
    Column("last_at", Float, nullable=False),
    # the leaderboard: one pool's range, best first, filtered on the index itself
    Index("ix_vertex_ratings_board", "pool", "mu", "last_at", "games"),
)

#: One row per finished table with player seats, written once (its key decides): the
#: rating changes of a rated one, or why it was not rated.
results_t = Table(
    "vertex_results",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("ended_at", Float, nullable=False),
    Column("rated", Integer, nullable=False),
    Column("ratings", Text, nullable=True),  # [{seat, before, after}] (JSON)
    Column("unrated", String(32), nullable=True),  # a rated table's reason it did not count
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
