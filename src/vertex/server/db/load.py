"""`vertex db import`: a backup (dump.py) into an empty database, in one transaction.

Every line is checked before its row is written (its table, its columns, each value's type,
length and nullness), rows go in batches (constant memory), and the backup must end with
its end line and counts: a cut, mixed or malformed file changes nothing. The target must be
empty (no row in any table) and at the head of the migrations — a brand-new database is
given the schema first, as `vertex serve` would.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from sqlalchemy import BigInteger, Float, Integer, String, Table, Text, func, select, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from vertex.server.db.dump import BATCH, FORMAT
from vertex.server.db.tables import EXPORTED, LEFT_OUT
from vertex.server.storage import upgrades


class ImportRefused(Exception):
    """The backup or the target will not do; nothing was written. The message says why."""


def _check_value(table: Table, name: str, value: Any) -> Any:
    column = table.c[name]
    where = f"{table.name}.{name}"
    if value is None:
        if not column.nullable:
            raise ImportRefused(f"{where} is null; it may not be")
        return None
    kind = column.type
    if isinstance(kind, (String, Text)):
        if not isinstance(value, str):
            raise ImportRefused(f"{where} must be a string")
        if kind.length is not None and len(value) > kind.length:
            raise ImportRefused(f"{where} is longer than {kind.length} characters")
        return value
    if isinstance(kind, (Integer, BigInteger)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ImportRefused(f"{where} must be a whole number")
        if not -(2**63) <= value < 2**63:
            raise ImportRefused(f"{where} is out of range")
        return value
    if isinstance(kind, Float):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ImportRefused(f"{where} must be a number")
        return float(value)
    raise ImportRefused(f"{where}: a column of a type this import does not know")


def _row(line: dict[str, Any], tables: dict[str, Table]) -> tuple[Table, dict[str, Any]]:
    name, row = line.get("table"), line.get("row")
    if set(line) != {"table", "row"} or not isinstance(row, dict):
        raise ImportRefused('not a row: {"table": NAME, "row": {...}} expected')
    table = tables.get(name) if isinstance(name, str) else None
    if table is None:
        raise ImportRefused(f"{name!r} is not a table a backup holds")
    if set(row) != set(table.c.keys()):
        raise ImportRefused(f"a {table.name} row must have the columns {sorted(table.c.keys())}")
    return table, {k: _check_value(table, k, v) for k, v in row.items()}


def _header(first: dict[str, Any]) -> None:
    if first.get("vertex") != "backup" or first.get("format") != FORMAT:
        raise ImportRefused("not a Vertex backup (its first line is no backup header)")
    if first.get("schema") != upgrades.head():
        raise ImportRefused(
            f"this backup is of schema revision {first.get('schema')!r}, this Vertex is at "
            f"{upgrades.head()}: import it with the Vertex that wrote it, then run "
            "`vertex db upgrade`"
        )


def _lock_empty(conn: Connection) -> None:
    """The write lock on every table, and none of them may hold a row."""
    every = [*EXPORTED, *LEFT_OUT]
    if conn.dialect.name == "sqlite":
        conn.exec_driver_sql("BEGIN IMMEDIATE")  # the write lock now, not at the first insert
    elif conn.dialect.name == "postgresql":
        conn.exec_driver_sql(f"LOCK TABLE {', '.join(t.name for t in every)} IN EXCLUSIVE MODE")
    for table in every:
        if conn.execute(select(func.count()).select_from(table)).scalar_one():
            raise ImportRefused(
                f"the database is not empty ({table.name} has rows): import only into an "
                "empty database"
            )


def _serials(conn: Connection) -> None:
    """PostgreSQL: each serial goes on after the ids the backup brought."""
    if conn.dialect.name != "postgresql":
        return  # SQLite's integer keys go on from the largest
    for table in EXPORTED:
        for column in table.primary_key.columns:
            if column.autoincrement is True:
                conn.execute(
                    text(
                        f"SELECT setval(pg_get_serial_sequence('{table.name}', '{column.name}'), "
                        f"coalesce((SELECT max({column.name}) FROM {table.name}), 0) + 1, false)"
                    )
                )


def _insert(conn: Connection, table: Table | None, rows: list[dict[str, Any]], last: int) -> None:
    assert table is not None
    try:
        conn.execute(table.insert(), rows)
    except IntegrityError:
        first = last - len(rows) + 1
        raise ImportRefused(
            f"lines {first}-{last}: a {table.name} row repeats another's key"
        ) from None


def import_lines(engine: Engine, url: str, lines: Iterable[str]) -> dict[str, int]:
    """The backup's rows written (one transaction); the rows a table. ImportRefused (with
    the line's number) or SchemaError: nothing was written."""
    upgrades.prepare(engine, url)
    tables = {t.name: t for t in EXPORTED}
    counts = {name: 0 for name in tables}
    with engine.begin() as conn:
        _lock_empty(conn)
        batch: list[dict[str, Any]] = []
        batch_table: Table | None = None
        end: dict[str, Any] | None = None
        number = 0
        for number, raw in enumerate(lines, 1):
            try:
                if end is not None:
                    raise ImportRefused("a line after the end line")
                try:
                    parsed = json.loads(raw)
                except ValueError:
                    raise ImportRefused("not JSON") from None
                if not isinstance(parsed, dict):
                    raise ImportRefused("not a JSON object")
                if number == 1:
                    _header(parsed)
                    continue
                if parsed.get("end") is True:
                    end = parsed
                    continue
                table, row = _row(parsed, tables)
            except ImportRefused as exc:
                raise ImportRefused(f"line {number}: {exc}") from None
            if batch and (table is not batch_table or len(batch) >= BATCH):
                _insert(conn, batch_table, batch, number - 1)
                batch = []
            batch_table = table
            batch.append(row)
            counts[table.name] += 1
        if batch:
            _insert(conn, batch_table, batch, number)
        if number == 0:
            raise ImportRefused("the file is empty")
        if end is None:
            raise ImportRefused(f"no end line after line {number}: the backup was cut short")
        if end.get("rows") != counts:
            raise ImportRefused(
                f"the end line counts {end.get('rows')}, the file holds {counts}: a damaged backup"
            )
        _serials(conn)
    return counts
