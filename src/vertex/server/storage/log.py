"""The tables' event log: reading a table's events, appending one (through the group
commit's writer, group_commit.py) and the logged version of many tables at once."""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlalchemy import func, select

from vertex.server.storage.database import Database
from vertex.server.storage.group_commit import GroupCommit
from vertex.server.storage.schema import events_t
from vertex.server.table.events import StoredEvent


class Log:
    def __init__(self, db: Database) -> None:
        self.db = db
        self._writer = GroupCommit(db.engine, db.writer, db.sqlite)

    def start(self) -> None:
        self._writer.start()

    async def stop(self) -> None:
        await self._writer.stop()

    async def events(self, table_id: str, since: int = 0) -> list[StoredEvent]:
        return await self.db.reading(self._select_events, table_id, since)

    def _select_events(self, table_id: str, since: int) -> list[StoredEvent]:
        q = (
            select(events_t)
            .where(events_t.c.table_id == table_id, events_t.c.seq > since)
            .order_by(events_t.c.seq)
        )
        with self.db.engine.connect() as conn:
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
        return await self._writer.append(table_id, ev, status, fence)

    async def versions(self, ids: Sequence[str]) -> dict[str, int]:
        """The logged version (last seq) of each of these tables (absent: no event yet)."""
        out: dict[str, int] = {}
        ids = list(ids)
        for i in range(0, len(ids), 500):
            out.update(await self.db.reading(self._select_versions, ids[i : i + 500]))
        return out

    def _select_versions(self, ids: list[str]) -> dict[str, int]:
        q = (
            select(events_t.c.table_id, func.max(events_t.c.seq))
            .where(events_t.c.table_id.in_(ids))
            .group_by(events_t.c.table_id)
        )
        with self.db.engine.connect() as conn:
            return {r[0]: int(r[1]) for r in conn.execute(q)}
