"""The tables' rows: a table's game, spec, status and creator, and the questions the
server asks of them all (open ones, idle ones, ones whose end outran their status, how
many an address opened)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlalchemy import exists, func, select, update

from vertex.server.storage.database import Database
from vertex.server.storage.schema import deadlines_t, events_t, stored_json, tables_t
from vertex.server.table.records import OPEN, TableRow
from vertex.server.table.spec import TableSpec


class TableRows:
    """Each query twice: an async door for the event loop and its body, run on the
    database's threads."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def create(self, row: TableRow) -> None:
        await self.db.writing(self._insert, row)

    def _insert(self, row: TableRow) -> None:
        with self.db.engine.begin() as conn:
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

    async def get(self, table_id: str) -> TableRow | None:
        return await self.db.reading(self._select, table_id)

    def _select(self, table_id: str) -> TableRow | None:
        with self.db.engine.connect() as conn:
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

    async def open_ids(self) -> list[str]:
        return await self.db.reading(self._select_open)

    def _select_open(self) -> list[str]:
        with self.db.engine.connect() as conn:
            rows = conn.execute(select(tables_t.c.id).where(tables_t.c.status == OPEN))
            return [r.id for r in rows]

    async def set_status(self, table_id: str, status: str) -> None:
        await self.db.writing(self._set_status, table_id, status)

    def _set_status(self, table_id: str, status: str) -> None:
        with self.db.engine.begin() as conn:
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(status=status))

    async def count_created(self, creator: str, since: float) -> int:
        return await self.db.reading(self._count_created, creator, since)

    def _count_created(self, creator: str, since: float) -> int:
        q = select(func.count()).where(tables_t.c.creator == creator, tables_t.c.created_at > since)
        with self.db.engine.connect() as conn:
            return int(conn.execute(q).scalar_one())

    async def idle_open(self, before: float, most: int = 500) -> list[str]:
        """Open tables with no event (nor creation) since `before`: the ones to expire (not
        a slow table whose clock runs: days between moves are its pace)."""
        return await self.db.reading(self._select_idle, before, most)

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
                # a slow table waits days for a move (or for its players): its clock ends
                # it, not a pause (deadlines.py)
                ~exists().where(
                    deadlines_t.c.table_id == tables_t.c.id, deadlines_t.c.deadline.is_not(None)
                ),
            )
            .limit(most)
        )
        with self.db.engine.connect() as conn:
            return [r.id for r in conn.execute(q)]

    async def ended_open(self, kinds: Sequence[str]) -> list[str]:
        """Open tables whose last event ended the game (of one of these kinds, or marked
        `_over`): a process died between the event and the table's status."""
        return await self.db.reading(self._select_ended, list(kinds))

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
        with self.db.engine.connect() as conn:
            return [r.table_id for r in conn.execute(q)]
