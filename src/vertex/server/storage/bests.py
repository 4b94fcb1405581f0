"""Solo results (Verticality's towers): kept once a table, and ranked."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from vertex.server.storage.database import Database
from vertex.server.storage.schema import bests_t
from vertex.server.table.records import BestRow


class Bests:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def add(self, row: BestRow) -> None:
        """Keep a solo result; a table's result is kept once, however often it is reported."""
        await self.db.writing(self._insert, row)

    def _insert(self, row: BestRow) -> None:
        values = {
            "table_id": row.table_id,
            "name": row.name,
            "levels": row.levels,
            "height_mm": row.height_mm,
            "at": row.at,
        }
        dialect_insert = sqlite_insert if self.db.sqlite else pg_insert
        stmt = dialect_insert(bests_t).values(**values).on_conflict_do_nothing()
        with self.db.engine.begin() as conn:
            conn.execute(stmt)  # a result reported again (a restart, another worker) is kept once

    async def ranked(self, name: str | None, limit: int) -> list[BestRow]:
        """`name`'s results, best first (levels, then height, then the earlier); with no name,
        the top list: each name's best result, best first."""
        return await self.db.reading(self._select, name, limit)

    def _select(self, name: str | None, limit: int) -> list[BestRow]:
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
        with self.db.engine.connect() as conn:
            return [
                BestRow(row.name, row.levels, row.height_mm, row.table_id, row.at)
                for row in conn.execute(q)
            ]
