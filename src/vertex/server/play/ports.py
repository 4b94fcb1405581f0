"""What a command handler may use of the site: the narrow port it is given, not the hub.

commands.py depends on this protocol only; the hub hands it `TablesPort` (below, made from
the repository, the sockets and the store), so handlers cannot reach for the store, the
sockets or the limits directly.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from vertex.server.live.sockets import Sockets
from vertex.server.storage.repository import Repository
from vertex.server.storage.store import Store
from vertex.server.table.events import StoredEvent
from vertex.server.table.spec import TableSpec
from vertex.server.table.table import Table


class Port(Protocol):
    #: Longest chat line, in characters.
    chat_chars: int

    async def submit(self, tid: str, make: Callable[[Table], StoredEvent]) -> StoredEvent:
        """Check, store, apply and broadcast one event under the table's lock."""

    async def submit_locked(
        self, table: Table, make: Callable[[Table], StoredEvent]
    ) -> StoredEvent:
        """The same, with the table's lock held already."""

    def lock(self, tid: str) -> asyncio.Lock:
        """The table's lock: commands of two steps hold it throughout."""

    async def get(self, tid: str, fresh: bool = False) -> Table:
        """The table, with its lock held; `fresh`: first read what other processes logged."""

    async def open(self, spec: TableSpec, like: str) -> Table:
        """Open a new table (a rematch) for the creator of table `like`, counted against
        their tables-an-hour limit (`too-many-tables`)."""

    async def connected(self, tid: str) -> list[bool]:
        """Which seats have a socket open, on any process."""

    async def absent(self, tid: str) -> tuple[list[bool], list[float | None]]:
        """Who is here, and the seconds before each absent player may be handed over
        (absence.py)."""

    async def share_aim(self, tid: str, aim: dict[str, Any]) -> bool:
        """Tell the other processes a seat's aim (never a client); True if there are any."""

    async def catch_up(self, table: Table) -> bool:
        """Apply what other processes logged since our copy's version; False if nothing."""


class TablesPort:
    """The port the hub gives command handlers (`Port`): its table operations, no more."""

    def __init__(
        self,
        repo: Repository,
        sockets: Sockets,
        store: Store,
        open_rematch: Callable[[TableSpec, str], Awaitable[Table]],
        chat_chars: int,
        absence: Callable[[str, list[bool]], list[float | None]],
    ) -> None:
        self._repo = repo
        self._sockets = sockets
        self._store = store
        self._open_rematch = open_rematch  # within the creator's tables-an-hour limit
        self.chat_chars = chat_chars
        self._absence = absence

    async def submit(self, tid: str, make: Callable[[Table], StoredEvent]) -> StoredEvent:
        return await self._repo.submit(tid, make)

    async def submit_locked(
        self, table: Table, make: Callable[[Table], StoredEvent]
    ) -> StoredEvent:
        return await self._repo.submit_locked(table, make)

    def lock(self, tid: str) -> asyncio.Lock:
        return self._repo.lock(tid)

    async def get(self, tid: str, fresh: bool = False) -> Table:
        table = await self._repo.get_locked(tid)
        if fresh and self._repo.scaled:
            await self._repo.catch_up(table)
        return table

    async def open(self, spec: TableSpec, like: str) -> Table:
        row = await self._store.tables.get(like)
        return await self._open_rematch(spec, row.creator if row else "")

    async def connected(self, tid: str) -> list[bool]:
        table = await self._repo.get(tid)
        return await self._sockets.connected(tid, len(table.seats))

    async def absent(self, tid: str) -> tuple[list[bool], list[float | None]]:
        here = await self.connected(tid)
        return here, self._absence(tid, here)

    async def share_aim(self, tid: str, aim: dict[str, Any]) -> bool:
        if not self._repo.scaled:
            return False
        self._repo.spawn(self._repo.bus.publish(tid, {"aim": aim}))
        return True

    async def catch_up(self, table: Table) -> bool:
        return self._repo.scaled and await self._repo.catch_up(table)
