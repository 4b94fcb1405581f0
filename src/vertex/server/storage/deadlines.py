"""Slow tables' deadlines (days a move): the next moment each one's clock runs out.

A slow table leaves memory while nobody is connected (upkeep.py) and sits in no timer
meanwhile: its deadline is here, and each process's sweeper asks for the due ones with one
query on the deadline's index. Written by the process that wrote the table's event (the
repository, after the event), as of that event's version: a write for an older version than
the row's is ignored, so two processes writing one after the other cannot leave an old
deadline behind. Before a table starts, the end of its wait for players (a sweep then
looks at it and writes NULL, and the ordinary idle expiry may end it); NULL: no clock
running and nothing to wait for (over, or its wait for players done).
"""

from __future__ import annotations

from sqlalchemy import select

from vertex.server.storage.database import Database
from vertex.server.storage.schema import deadlines_t

#: Due tables one sweep takes up at most (the rest wait for the next round).
DUE_MOST = 100


class Deadlines:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def set(self, table_id: str, v: int, deadline: float | None) -> None:
        """The table's next deadline as of its version `v` (None: no clock running)."""
        await self.db.writing(self._upsert, table_id, v, deadline)

    def _upsert(self, table_id: str, v: int, deadline: float | None) -> None:
        mark = "?" if self.db.engine.dialect.paramstyle == "qmark" else "%s"
        sql = (
            f"INSERT INTO vertex_deadlines (table_id, v, deadline) VALUES ({mark}, {mark}, "
            f"{mark}) ON CONFLICT (table_id) DO UPDATE SET v = excluded.v, "
            "deadline = excluded.deadline WHERE vertex_deadlines.v <= excluded.v"
        )
        with self.db.engine.begin() as conn:
            conn.exec_driver_sql(sql, (table_id, v, deadline))

    async def due(self, now: float, most: int = DUE_MOST) -> list[str]:
        """The tables whose deadline has come, earliest first."""
        return await self.db.reading(self._select_due, now, most)

    def _select_due(self, now: float, most: int) -> list[str]:
        q = (
            select(deadlines_t.c.table_id)
            .where(deadlines_t.c.deadline <= now)
            .order_by(deadlines_t.c.deadline)
            .limit(most)
        )
        with self.db.engine.connect() as conn:
            return [r.table_id for r in conn.execute(q)]

    async def get(self, table_id: str) -> tuple[int, float | None] | None:
        """(version, deadline) as stored, or None (tests; `vertex db` tools)."""
        return await self.db.reading(self._select, table_id)

    def _select(self, table_id: str) -> tuple[int, float | None] | None:
        q = select(deadlines_t.c.v, deadlines_t.c.deadline).where(
            deadlines_t.c.table_id == table_id
        )
        with self.db.engine.connect() as conn:
            r = conn.execute(q).first()
        return None if r is None else (int(r.v), r.deadline)
