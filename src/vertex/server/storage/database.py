"""The database as the store's queries use it: the engine and the threads they run on.

SQLAlchemy Core with a sync engine driven from a few threads, so the event loop never waits
on the database. SQLite: one thread does everything (one writer at a time is all SQLite
allows); PostgreSQL: a writer plus readers.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from vertex.server.storage import upgrades
from vertex.server.storage.schema import make_engine

T = TypeVar("T")

#: Seconds a read may take before its caller gives up on it (the database is away).
READ_S = 3.0


class Database:
    """The engine, its writer thread and its readers."""

    def __init__(self, url: str, durable: bool = False) -> None:
        self.url = url
        self.sqlite = url.startswith("sqlite")
        self.engine = make_engine(url, durable)
        self.writer = ThreadPoolExecutor(1, thread_name_prefix="vertex-store-w")
        self.reader = (
            self.writer if self.sqlite else ThreadPoolExecutor(3, thread_name_prefix="vertex-r")
        )

    async def run(self, pool: ThreadPoolExecutor, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)

    async def reading(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` on a reader's thread; TimeoutError (a 503 to a client) when it has
        not answered in `READ_S` (the query goes on in its thread; the driver's own
        deadlines end it). Writes have no such deadline here: a write given up while it may
        still commit would be an answer that lies. (SQLite is a file here: no link to lose,
        and its one thread serves the writes too.)"""
        if self.sqlite:
            return await self.run(self.reader, fn, *args)
        async with asyncio.timeout(READ_S):
            return await self.run(self.reader, fn, *args)

    async def writing(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` on the writer's thread."""
        return await self.run(self.writer, fn, *args)

    def prepare_schema(self) -> None:
        """The schema at the head on an empty database; SchemaError on one that needs
        `vertex db upgrade` (upgrades.py)."""
        upgrades.prepare(self.engine, self.url)

    def shutdown(self) -> None:
        self.writer.shutdown(wait=True)
        if self.reader is not self.writer:
            self.reader.shutdown(wait=True)
        self.engine.dispose()
