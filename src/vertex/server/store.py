"""The store: every table and its event log, in SQLite (default) or PostgreSQL (the tables
and the engine: schema.py; what a row reads as: records.py).

SQLAlchemy Core with a sync engine driven from a few threads, so the event loop never waits
on the database. Appends go through one writer that commits whatever has queued up in a
single transaction (group commit, group_commit.py): many tables' moves share one fsync.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy import func, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection
from sqlalchemy.exc import SQLAlchemyError

from vertex.server.events import StoredEvent
from vertex.server.group_commit import GroupCommit
from vertex.server.records import OPEN, BestRow, TableRow
from vertex.server.schema import bests_t, events_t, make_engine, metadata, stored_json, tables_t
from vertex.server.spec import TableSpec

T = TypeVar("T")


class Store:
    """Every query the server makes, each twice: an async door for the event loop and its
    body, run on the store's threads. That pairing (not a mix of jobs) is why the class
    counts over 30 methods (17 queries); the one piece with state of its own, the log's
    group-commit writer, is group_commit.py."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.sqlite = url.startswith("sqlite")
        self.engine = make_engine(url)
        # SQLite: one thread does everything (one writer at a time is all SQLite allows).
        # PostgreSQL: a writer plus readers.
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="vertex-store-w")
        self._reader = (
            self._writer if self.sqlite else ThreadPoolExecutor(3, thread_name_prefix="vertex-r")
        )
        self._log = GroupCommit(self.engine, self._writer, self.sqlite)

    # ---- lifecycle --------------------------------------------------------------------------
    async def start(self) -> None:
        await self._run(self._writer, self._create_schema)
        self._log.start()

    def _create_schema(self) -> None:
        try:
            metadata.create_all(self.engine)
        except SQLAlchemyError:
            # Several workers starting at once may race to create the schema; one wins.
            time.sleep(0.2)
            metadata.create_all(self.engine)

    async def close(self) -> None:
        await self._log.stop()
        self._writer.shutdown(wait=True)
        if self._reader is not self._writer:
            self._reader.shutdown(wait=True)
        self.engine.dispose()

    async def _run(self, pool: ThreadPoolExecutor, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)

    async def write(self, fn: Callable[[Connection], T]) -> T:
        """Run `fn` in one transaction on the writer's thread (other modules' tables: the
        lobby's rows)."""
        return await self._run(self._writer, self._in_transaction, fn)

    async def read(self, fn: Callable[[Connection], T]) -> T:
        return await self._run(self._reader, self._in_connection, fn)

    def _in_transaction(self, fn: Callable[[Connection], T]) -> T:
        with self.engine.begin() as conn:
            return fn(conn)

    def _in_connection(self, fn: Callable[[Connection], T]) -> T:
        with self.engine.connect() as conn:
            return fn(conn)

    # ---- tables -----------------------------------------------------------------------------
    async def create_table(self, row: TableRow) -> None:
        await self._run(self._writer, self._insert_table, row)

    def _insert_table(self, row: TableRow) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                tables_t.insert().values(
                    id=row.id,
                    game=row.game,
                    spec=stored_json(row.spec.stored()),
                    status=row.status,
                    creator=row.creator,
                    created_at=row.created_at,
                    updated_at=row.updated_at,
                )
            )

    async def table(self, table_id: str) -> TableRow | None:
        return await self._run(self._reader, self._select_table, table_id)

    def _select_table(self, table_id: str) -> TableRow | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).first()
        if r is None:
            return None
        return TableRow(
            r.id,
            r.game,
            TableSpec.load(json.loads(r.spec)),
            r.status,
            r.creator,
            r.created_at,
            r.updated_at,
        )

    async def open_tables(self) -> list[str]:
        return await self._run(self._reader, self._select_open)

    def _select_open(self) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(tables_t.c.id).where(tables_t.c.status == OPEN))
            return [r.id for r in rows]

    async def set_status(self, table_id: str, status: str) -> None:
        await self._run(self._writer, self._set_status, table_id, status)

    def _set_status(self, table_id: str, status: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(status=status))

    async def count_created(self, creator: str, since: float) -> int:
        return await self._run(self._reader, self._count_created, creator, since)

    def _count_created(self, creator: str, since: float) -> int:
        q = select(func.count()).where(tables_t.c.creator == creator, tables_t.c.created_at > since)
        with self.engine.connect() as conn:
            return int(conn.execute(q).scalar_one())

    async def idle_open(self, before: float, most: int = 500) -> list[str]:
        """Open tables with no event (nor creation) since `before`: the ones to expire."""
        return await self._run(self._reader, self._select_idle, before, most)

    def _select_idle(self, before: float, most: int) -> list[str]:
        last = (
            select(func.max(events_t.c.at))
            .where(events_t.c.table_id == tables_t.c.id)
            .scalar_subquery()
        )
        q = (
            select(tables_t.c.id)
            .where(
                tables_t.c.status == OPEN,
                tables_t.c.created_at < before,
                func.coalesce(last, tables_t.c.created_at) < before,
            )
            .limit(most)
        )
        with self.engine.connect() as conn:
            return [r.id for r in conn.execute(q)]

    async def ended_open(self, kinds: Sequence[str]) -> list[str]:
        """Open tables whose last event ended the game (of one of these kinds, or marked
        `_over`): a process died between the event and the table's status."""
        return await self._run(self._reader, self._select_ended, list(kinds))

    def _select_ended(self, kinds: list[str]) -> list[str]:
        e = events_t.alias("e")
        last = select(func.max(events_t.c.seq)).where(events_t.c.table_id == e.c.table_id)
        q = (
            select(e.c.table_id)
            .join(tables_t, tables_t.c.id == e.c.table_id)
            .where(
                tables_t.c.status == OPEN,
                e.c.seq == last.scalar_subquery(),
                e.c.kind.in_(kinds) | e.c.data.contains('"_over":true'),
            )
        )
        with self.engine.connect() as conn:
            return [r.table_id for r in conn.execute(q)]

    # ---- solo results -----------------------------------------------------------------------
    async def add_best(self, row: BestRow) -> None:
        """Keep a solo result; a table's result is kept once, however often it is reported."""
        await self._run(self._writer, self._insert_best, row)

    def _insert_best(self, row: BestRow) -> None:
        values = {
            "table_id": row.table_id,
            "name": row.name,
            "levels": row.levels,
            "height_mm": row.height_mm,
            "at": row.at,
        }
        dialect_insert = sqlite_insert if self.sqlite else pg_insert
        stmt = dialect_insert(bests_t).values(**values).on_conflict_do_nothing()
        with self.engine.begin() as conn:
            conn.execute(stmt)  # a result reported again (a restart, another worker) is kept once

    async def bests(self, name: str | None, limit: int) -> list[BestRow]:
        """`name`'s results, best first (levels, then height, then the earlier); with no name,
        the top list: each name's best result, best first."""
        return await self._run(self._reader, self._select_bests, name, limit)

    def _select_bests(self, name: str | None, limit: int) -> list[BestRow]:
        c = bests_t.c
        rank = (c.levels.desc(), c.height_mm.desc(), c.at, c.table_id)
        if name is not None:
            q = select(bests_t).where(c.name == name).order_by(*rank).limit(limit)
        else:
            place = func.row_number().over(partition_by=c.name, order_by=rank).label("place")
            ranked = select(bests_t, place).subquery()
            r = ranked.c
            q = (
                select(r.name, r.levels, r.height_mm, r.table_id, r.at)
                .where(r.place == 1)
                .order_by(r.levels.desc(), r.height_mm.desc(), r.at, r.table_id)
                .limit(limit)
            )
        with self.engine.connect() as conn:
            return [
                BestRow(row.name, row.levels, row.height_mm, row.table_id, row.at)
                for row in conn.execute(q)
            ]

    # ---- the log ----------------------------------------------------------------------------
    async def events(self, table_id: str, since: int = 0) -> list[StoredEvent]:
        return await self._run(self._reader, self._select_events, table_id, since)

    def _select_events(self, table_id: str, since: int) -> list[StoredEvent]:
        q = (
            select(events_t)
            .where(events_t.c.table_id == table_id, events_t.c.seq > since)
            .order_by(events_t.c.seq)
        )
        with self.engine.connect() as conn:
            return [StoredEvent(r.seq, r.kind, json.loads(r.data), r.at) for r in conn.execute(q)]

    async def append(
        self,
        table_id: str,
        ev: StoredEvent,
        status: str | None = None,
        fence: int | None = None,
    ) -> bool:
        """Write one event; False when its seq is taken already (another writer won).

        `status` also updates the table's status in the same transaction. `fence`: the
        writer's lease epoch (a write only the table's owner makes); raises `Fenced` when a
        later owner has written already.
        """
        return await self._log.append(table_id, ev, status, fence)

    async def versions(self, ids: Sequence[str]) -> dict[str, int]:
        """The logged version (last seq) of each of these tables (absent: no event yet)."""
        out: dict[str, int] = {}
        ids = list(ids)
        for i in range(0, len(ids), 500):
            out.update(await self._run(self._reader, self._select_versions, ids[i : i + 500]))
        return out

    def _select_versions(self, ids: list[str]) -> dict[str, int]:
        q = (
            select(events_t.c.table_id, func.max(events_t.c.seq))
            .where(events_t.c.table_id.in_(ids))
            .group_by(events_t.c.table_id)
        )
        with self.engine.connect() as conn:
            return {r[0]: int(r[1]) for r in conn.execute(q)}

    async def ping(self) -> None:
        """One round trip to the database (raises when it is unreachable)."""
        await self._run(self._reader, self._ping)

    def _ping(self) -> None:
        with self.engine.connect() as conn:
            conn.exec_driver_sql("SELECT 1")
