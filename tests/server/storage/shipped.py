"""The fixture: a database as Vertex made it before schema migrations.

Before migrations the code created its tables with `metadata.create_all` at every start;
the definitions below are a frozen copy of those of commit 84387df (storage/schema.py,
lobby/rows.py, live/spectators.py), created the same way. The rows (shipped_rows.json) were
written by that commit's server: a listed two-player table, its seats and a move, its lobby
row; a solo best, a fence and two spectator lines added by hand. Older releases had fewer
of the tables (`RELEASES`): the first had tables and events only.
"""

from __future__ import annotations

import json
from pathlib import Path
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
)

ROWS_FILE = Path(__file__).with_name("shipped_rows.json")

_m = MetaData()
Table(
    "vertex_tables",
    _m,
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
Table(
    "vertex_events",
    _m,
    Column("table_id", String(40), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(32), nullable=False),
    Column("data", Text, nullable=False),
    Column("at", Float, nullable=False),
)
Table(
    "vertex_bests",
    _m,
    Column("table_id", String(40), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("levels", Integer, nullable=False),
    Column("height_mm", Float, nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_vertex_bests_name", "name", "levels", "height_mm"),
    Index("ix_vertex_bests_rank", "levels", "height_mm"),
)
Table(
    "vertex_fences",
    _m,
    Column("table_id", String(40), primary_key=True),
    Column("epoch", BigInteger, nullable=False),
)
Table(
    "vertex_lobby",
    _m,
    Column("table_id", String(40), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("creator", String(64), nullable=False),
    Column("status", String(16), nullable=False),
    Column("quick", Integer, nullable=False),
    Column("free_seats", Integer, nullable=False),
    Column("summary", Text, nullable=False),
    Column("listed_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Index("ix_vertex_lobby_status", "status", "game", "listed_at"),
    Index("ix_vertex_lobby_creator", "creator", "status"),
)
Table(
    "vertex_spectator_lines",
    _m,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(40), nullable=False),
    Column("name", String(200), nullable=True),
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_vertex_spectator_lines_table", "table_id", "id"),
)

#: The tables of each release before migrations, by the commit that added the last one.
RELEASES: dict[str, tuple[str, ...]] = {
    "dc9ad75": ("vertex_tables", "vertex_events"),
    "8cfc3b9": ("vertex_tables", "vertex_events", "vertex_bests"),
    "c3d9617": ("vertex_tables", "vertex_events", "vertex_bests", "vertex_lobby"),
    "3c5a031": ("vertex_tables", "vertex_events", "vertex_bests", "vertex_lobby", "vertex_fences"),
    "84387df": tuple(_m.tables),
}


def fixture() -> dict[str, Any]:
    out: dict[str, Any] = json.loads(ROWS_FILE.read_text())
    return out


def build(url: str, release: str = "84387df") -> dict[str, list[dict[str, Any]]]:
    """That release's tables (create_all, as it did) with the fixture's rows; the rows."""
    names = RELEASES[release]
    rows = {n: r for n, r in fixture()["rows"].items() if n in names}
    engine = create_engine(url)
    try:
        _m.create_all(engine, tables=[_m.tables[n] for n in names])
        with engine.begin() as conn:
            for name, table_rows in rows.items():
                conn.execute(_m.tables[name].insert(), table_rows)
            if engine.dialect.name == "postgresql" and "vertex_spectator_lines" in rows:
                # as if its lines had been written one by one: the serial goes on after them
                conn.exec_driver_sql(
                    "SELECT setval(pg_get_serial_sequence('vertex_spectator_lines', 'id'), "
                    "(SELECT max(id) FROM vertex_spectator_lines))"
                )
    finally:
        engine.dispose()
    return rows
