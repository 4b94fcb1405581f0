"""The log's writer: one task that commits whatever appends have queued up in a single
transaction (group commit), so many tables' moves share one fsync.

The log's primary key `(table_id, seq)` decides races: an append whose seq is taken is
refused, never merged. An owner's writes carry its lease epoch and pass the table's fence
first (leases.py): a write from an owner whose lease was taken over is refused (`Fenced`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from sqlalchemy import update
from sqlalchemy.engine import Connection, Engine

from vertex.server.storage.schema import stored_json, tables_t
from vertex.server.table.events import StoredEvent
from vertex.server.table.records import Fenced
from vertex.server.tasks import stop_task


@dataclass
class _Append:
    table_id: str
    event: StoredEvent
    status: str | None
    done: asyncio.Future[bool | None]
    fence: int | None = None  # the owner's lease epoch, for the owner's own writes


class GroupCommit:
    def __init__(self, engine: Engine, writer: ThreadPoolExecutor, sqlite: bool) -> None:
        self.engine = engine
        self.sqlite = sqlite
        self._writer = writer  # the store's writer thread (PostgreSQL)
        self._queue: asyncio.Queue[_Append] | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._queue = asyncio.Queue()
        self._task = asyncio.create_task(self._loop(), name="vertex-store-writer")

    async def stop(self) -> None:
        await stop_task(self._task)
        self._task = None

    async def append(
        self, table_id: str, ev: StoredEvent, status: str | None, fence: int | None
    ) -> bool:
        assert self._queue is not None, "Store.start() first"
        done: asyncio.Future[bool | None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Append(table_id, ev, status, done, fence))
        ok = await done
        if ok is None:
            raise Fenced(table_id)
        return ok

    async def _loop(self) -> None:
        assert self._queue is not None
        loop = asyncio.get_running_loop()
        while True:
            batch = [await self._queue.get()]
            while not self._queue.empty() and len(batch) < 200:
                batch.append(self._queue.get_nowait())
            try:
                if self.sqlite:
                    # In this process, on the loop: a WAL commit is a write to the page cache
                    # (well under a millisecond), and a thread hop here costs far more, as the
                    # writer thread and the loop hand the GIL back and forth under load.
                    results = self._write(batch)
                else:
                    results = await loop.run_in_executor(self._writer, self._write, batch)
            except Exception as exc:  # the database is down: every waiter hears it
                for item in batch:
                    if not item.done.done():
                        item.done.set_exception(exc)
                continue
            for item, ok in zip(batch, results, strict=True):
                if not item.done.done():
                    item.done.set_result(ok)

    def _write(self, batch: Sequence[_Append]) -> list[bool | None]:
        # One multi-row INSERT for the whole batch, written as plain SQL: this thread holds
        # the GIL while it builds statements, and the event loop waits for the GIL meanwhile.
        # RETURNING names the rows that went in; a row whose (table_id, seq) is taken is
        # skipped and its writer told so.
        mark = "?" if self.engine.dialect.paramstyle == "qmark" else "%s"
        with self.engine.begin() as conn:
            # an owner's writes first pass the fence (in this transaction, so a later owner's
            # write waits for it or it for the later one)
            fenced = {id(i) for i in batch if i.fence is not None and not _fence(conn, i)}
            going = [item for item in batch if id(item) not in fenced]
            written: set[tuple[str, int]] = set()
            if going:
                values = ",".join([f"({mark},{mark},{mark},{mark},{mark})"] * len(going))
                params: list[Any] = []
                for item in going:
                    ev = item.event
                    params += [item.table_id, ev.seq, ev.kind, stored_json(ev.data), ev.at]
                sql = (
                    "INSERT INTO vertex_events (table_id, seq, kind, data, at) VALUES "
                    + values
                    + " ON CONFLICT (table_id, seq) DO NOTHING RETURNING table_id, seq"
                )
                written = {(r[0], r[1]) for r in conn.exec_driver_sql(sql, tuple(params))}
            for item in going:
                if item.status is not None and (item.table_id, item.event.seq) in written:
                    _touch(conn, item.table_id, item.event.at, item.status)
        return [
            None if id(item) in fenced else (item.table_id, item.event.seq) in written
            for item in batch
        ]


def _fence(conn: Connection, item: _Append) -> bool:
    """Raise the table's fence to the write's lease epoch; False if it is higher already."""
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    sql = (
        f"INSERT INTO vertex_fences (table_id, epoch) VALUES ({mark}, {mark}) "
        "ON CONFLICT (table_id) DO UPDATE SET epoch = excluded.epoch "
        "WHERE vertex_fences.epoch <= excluded.epoch RETURNING table_id"
    )
    return conn.exec_driver_sql(sql, (item.table_id, item.fence)).first() is not None


def _touch(conn: Connection, table_id: str, at: float, status: str | None) -> None:
    values: dict[str, Any] = {"updated_at": at}
    if status is not None:
        values["status"] = status
    conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(**values))
