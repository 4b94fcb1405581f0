"""What a command handler may use of the site: the narrow port it is given, not the hub.

commands.py depends on this protocol only; the hub hands it an implementation (hub.py
`TablesPort`), so handlers cannot reach for the store, the sockets or the limits directly.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Protocol

from vertex.server.events import StoredEvent
from vertex.server.spec import TableSpec
from vertex.server.table import Table


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
