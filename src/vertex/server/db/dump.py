"""`vertex db export`: the database as JSON lines, streamed (constant memory).

A backup is a header line `{"vertex": "backup", "format": 1, "schema": REVISION, "tables":
[...], "left_out": [...]}`, then one line a row, `{"table": NAME, "row": {COLUMN: VALUE}}`,
table after table in `tables.EXPORTED`'s order and each by its primary key (byte order on
either database, so one database's backup and another's holding the same rows are the same
file), and an end line `{"end": true, "rows": {NAME: COUNT}}` that tells a whole backup from
a cut one. Values are JSON's own: strings, integers, floats (written to round-trip exactly)
and null. All of it is read in one snapshot: a site may keep playing meanwhile.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from sqlalchemy import String, select
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.sql.elements import ColumnElement

from vertex.server.db.tables import EXPORTED, LEFT_OUT
from vertex.server.storage import upgrades

FORMAT = 1
#: Rows fetched from the database at a time (a server-side cursor on PostgreSQL).
BATCH = 500


def line(value: dict[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n"


def header(schema: str) -> dict[str, Any]:
    return {
        "vertex": "backup",
        "format": FORMAT,
        "schema": schema,
        "tables": [t.name for t in EXPORTED],
        "left_out": sorted(t.name for t in LEFT_OUT),
    }


def _snapshot(conn: Connection) -> None:
    """Every table read as of one moment."""
    if conn.dialect.name == "sqlite":
        # pysqlite begins no transaction for a SELECT; WAL gives this one a fixed view
        conn.exec_driver_sql("BEGIN")
    elif conn.dialect.name == "postgresql":
        conn.exec_driver_sql("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")


def _key(conn: Connection, column: Any) -> ColumnElement[Any]:
    # byte (code point) order for strings on PostgreSQL too, whatever its collation
    if conn.dialect.name == "postgresql" and isinstance(column.type, String):
        out: ColumnElement[Any] = column.collate("C")
        return out
    return column  # type: ignore[no-any-return]


def export_lines(engine: Engine, url: str) -> Iterator[str]:
    """The backup's lines, read as they are written (never a whole table in memory)."""
    with engine.connect() as conn:
        _snapshot(conn)
        found = upgrades.look(conn)
        if found.kind != "current":
            if found.kind == "empty":
                raise upgrades.SchemaError("the database holds no Vertex tables: nothing to export")
            raise upgrades.SchemaError(upgrades.refusal(url, found))
        yield line(header(upgrades.head()))
        counts: dict[str, int] = {}
        streaming = conn.execution_options(stream_results=True, yield_per=BATCH)
        for table in EXPORTED:
            q = select(table).order_by(*(_key(conn, c) for c in table.primary_key.columns))
            n = 0
            for row in streaming.execute(q):
                yield line({"table": table.name, "row": dict(row._mapping)})
                n += 1
            counts[table.name] = n
        yield line({"end": True, "rows": counts})
