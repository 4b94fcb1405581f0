"""The store: every table and its event log, in SQLite (default) or PostgreSQL.

SQLAlchemy Core with a sync engine driven from a few threads, so the event loop never waits
on the database. Appends go through one writer that commits whatever has queued up in a
single transaction (group commit): many tables' moves share one fsync. The log's primary key
`(table_id, seq)` decides races: an append whose seq is taken is refused, never merged.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

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
    func,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import StaticPool

from vertex.server.events import StoredEvent
from vertex.server.spec import TableSpec
from vertex.server.tasks import stop_task

T = TypeVar("T")

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

OPEN, OVER, EXPIRED = "open", "over", "expired"


class Fenced(Exception):
    """An owner's write whose lease epoch is older than one the store has seen."""


@dataclass(frozen=True)
class TableRow:
    id: str
    game: str
    spec: TableSpec
    status: str
    creator: str
    created_at: float
    updated_at: float


@dataclass(frozen=True)
class BestRow:
    """One solo result: who, how high (levels completed, then millimetres), where, when."""

    name: str
    levels: int
    height_mm: float
    table_id: str
    at: float


@dataclass
class _Append:
    table_id: str
    event: StoredEvent
    status: str | None
    done: asyncio.Future[bool | None]
    fence: int | None = None  # the owner's lease epoch, for the owner's own writes


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


class Store:
    """Every query the server makes, each twice: an async door for the event loop and its
    body, run on the store's threads. That pairing (not a mix of jobs) is why the class
    counts over 30 methods; the group-commit writer (`append`, `_write_loop`) is the one
    piece with state of its own."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.sqlite = url.startswith("sqlite")
        self.engine = _make_engine(url)
        # SQLite: one thread does everything (one writer at a time is all SQLite allows).
        # PostgreSQL: a writer plus readers.
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="vertex-store-w")
        self._reader = (
            self._writer if self.sqlite else ThreadPoolExecutor(3, thread_name_prefix="vertex-r")
        )
        self._queue: asyncio.Queue[_Append] | None = None
        self._task: asyncio.Task[None] | None = None

    # ---- lifecycle --------------------------------------------------------------------------
    async def start(self) -> None:
        await self._run(self._writer, self._create_schema)
        self._queue = asyncio.Queue()
        self._task = asyncio.create_task(self._write_loop(), name="vertex-store-writer")

    def _create_schema(self) -> None:
        try:
            metadata.create_all(self.engine)
        except SQLAlchemyError:
            # Several workers starting at once may race to create the schema; one wins.
            time.sleep(0.2)
            metadata.create_all(self.engine)

    async def close(self) -> None:
        await stop_task(self._task)
        self._task = None
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
                    spec=_dumps(row.spec.stored()),
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
        assert self._queue is not None, "Store.start() first"
        done: asyncio.Future[bool | None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Append(table_id, ev, status, done, fence))
        ok = await done
        if ok is None:
            raise Fenced(table_id)
        return ok

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

    async def _write_loop(self) -> None:
        assert self._queue is not None
        while True:
            batch = [await self._queue.get()]
            while not self._queue.empty() and len(batch) < 200:
                batch.append(self._queue.get_nowait())
            try:
                if self.sqlite:
                    # In this process, on the loop: a WAL commit is a write to the page cache
                    # (well under a millisecond), and a thread hop here costs far more, as the
                    # writer thread and the loop hand the GIL back and forth under load.
                    results = self._write_batch(batch)
                else:
                    results = await self._run(self._writer, self._write_batch, batch)
            except Exception as exc:  # the database is down: every waiter hears it
                for item in batch:
                    if not item.done.done():
                        item.done.set_exception(exc)
                continue
            for item, ok in zip(batch, results, strict=True):
                if not item.done.done():
                    item.done.set_result(ok)

    def _write_batch(self, batch: Sequence[_Append]) -> list[bool | None]:
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
                    params += [item.table_id, ev.seq, ev.kind, _dumps(ev.data), ev.at]
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


def _make_engine(url: str) -> Engine:
    if not url.startswith("sqlite"):
        return create_engine(url, pool_size=5, max_overflow=5, pool_pre_ping=True)
    memory = url in ("sqlite://", "sqlite:///:memory:")
    kwargs: dict[str, Any] = {"connect_args": {"check_same_thread": False}}
    if memory:
        kwargs["poolclass"] = StaticPool
    engine = create_engine(url, **kwargs)

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn: Any, _record: Any) -> None:
        # WAL keeps readers and the writer apart; NORMAL sync is safe against a killed process
        # (only a power cut can lose the last commits).
        cur = dbapi_conn.cursor()
        if not memory:
            cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA busy_timeout=5000")
        cur.close()

    return engine
