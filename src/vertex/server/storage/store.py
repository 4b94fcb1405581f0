"""The store: every table and its event log, in SQLite (default) or PostgreSQL (the tables
and the engine: schema.py; what a row reads as: table/records.py).

Its queries are grouped by what they ask about, each group a class of its own on the same
database (database.py: the engine and its threads): the tables' rows (`store.tables`,
rows.py), the event log (`store.log`, log.py: appends go through one writer that commits
whatever has queued up in a single transaction, group_commit.py, so many tables' moves
share one fsync), solo results (`store.bests`, bests.py), slow tables' deadlines
(`store.deadlines`, deadlines.py), the players (`store.players`, players.py) and the finished
tables' records, written once (`store.results`, results.py). Other modules' own tables (the
lobby's rows, spectator chat) run their queries through `read` and `write`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from sqlalchemy.engine import Connection

from vertex.server.storage.bests import Bests
from vertex.server.storage.database import Database
from vertex.server.storage.deadlines import Deadlines
from vertex.server.storage.log import Log
from vertex.server.storage.players import Players
from vertex.server.storage.results import Results
from vertex.server.storage.rows import TableRows

T = TypeVar("T")


class Store:
    """The database's lifecycle and its query groups."""

    def __init__(self, url: str, durable: bool = False) -> None:
        self.db = Database(url, durable)
        self.url = url
        self.sqlite = self.db.sqlite
        self.engine = self.db.engine
        self.tables = TableRows(self.db)
        self.log = Log(self.db)
        self.bests = Bests(self.db)
        self.players = Players(self.db)
        self.results = Results(self.db)
        self.deadlines = Deadlines(self.db)

    async def start(self) -> None:
        await self.db.writing(self.db.prepare_schema)
        self.log.start()

    async def close(self) -> None:
        await self.log.stop()
        self.db.shutdown()

    async def write(self, fn: Callable[[Connection], T]) -> T:
        """Run `fn` in one transaction on the writer's thread (other modules' tables: the
        lobby's rows)."""
        return await self.db.writing(self._in_transaction, fn)

    async def read(self, fn: Callable[[Connection], T]) -> T:
        return await self.db.reading(self._in_connection, fn)

    def _in_transaction(self, fn: Callable[[Connection], T]) -> T:
        with self.engine.begin() as conn:
            return fn(conn)

    def _in_connection(self, fn: Callable[[Connection], T]) -> T:
        with self.engine.connect() as conn:
            return fn(conn)

    async def ping(self) -> None:
        """One round trip to the database (raises when it is unreachable)."""
        await self.db.reading(self._ping)

    def _ping(self) -> None:
        with self.engine.connect() as conn:
            conn.exec_driver_sql("SELECT 1")
