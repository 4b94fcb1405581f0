"""The players' seats at open and playing tables (their "Your tables" on every device):
written when a player sits and as the turns change, dropped when the table ends or the
player is forgotten (players.py). Each read is one indexed query.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.engine import Connection

from vertex.server.storage.database import Database
from vertex.server.storage.schema import deadlines_t, player_seats_t


@dataclass(frozen=True)
class SeatRow:
    table_id: str
    seat: int
    game: str
    pool: str | None
    status: str
    my_turn: bool
    #: A slow table (days a move): its next deadline is kept (deadlines.py), and while it
    #: plays, `deadline` is when the days of the seat to move run out.
    slow: bool = False
    deadline: float | None = None


class PlayerSeats:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def seated(self, row: SeatRow, pid: str, v: int, now: float) -> None:
        """A player took a seat (at version `v` + 1: the turns written for that version,
        before or after this, still apply)."""

        def run(conn: Connection) -> None:
            conn.execute(
                player_seats_t.insert().values(
                    table_id=row.table_id,
                    seat=row.seat,
                    player_id=pid,
                    game=row.game,
                    pool=row.pool,
                    status=row.status,
                    my_turn=int(row.my_turn),
                    v=v,
                    updated_at=now,
                )
            )

        await self.db.writing(self._tx, run)

    async def turns(self, tid: str, v: int, status: str, due: set[int], now: float) -> None:
        """Whose turn it is at a table (after version `v`); an older version's late write
        changes nothing."""

        def run(conn: Connection) -> None:
            c = player_seats_t.c
            for mine in (True, False):
                which = c.seat.in_(sorted(due)) if mine else c.seat.not_in(sorted(due))
                conn.execute(
                    update(player_seats_t)
                    .where(c.table_id == tid, c.v < v, which)
                    .values(status=status, my_turn=int(mine), v=v, updated_at=now)
                )

        await self.db.writing(self._tx, run)

    async def table_over(self, tid: str) -> None:
        def run(conn: Connection) -> None:
            conn.execute(delete(player_seats_t).where(player_seats_t.c.table_id == tid))

        await self.db.writing(self._tx, run)

    async def seats_of(self, pid: str) -> list[SeatRow]:
        """The player's seats, newest first, each with its table's slow deadline: one query
        (a slow table has a deadline row from its opening on: deadlines.py)."""

        def run(conn: Connection) -> list[SeatRow]:
            c, d = player_seats_t.c, deadlines_t.c
            q = (
                select(player_seats_t, d.table_id.label("slow_id"), d.deadline)
                .select_from(player_seats_t.outerjoin(deadlines_t, d.table_id == c.table_id))
                .where(c.player_id == pid)
                .order_by(c.updated_at.desc())
            )
            return [
                SeatRow(
                    r.table_id,
                    r.seat,
                    r.game,
                    r.pool,
                    r.status,
                    bool(r.my_turn),
                    slow=r.slow_id is not None,
                    deadline=r.deadline
                    if r.slow_id is not None and r.status == "playing"
                    else None,
                )
                for r in conn.execute(q.limit(200))
            ]

        return await self.db.reading(self._conn, run)

    # ---- running queries ------------------------------------------------------------------------
    def _tx(self, fn: Any) -> Any:
        with self.db.engine.begin() as conn:
            return fn(conn)

    def _conn(self, fn: Any) -> Any:
        with self.db.engine.connect() as conn:
            return fn(conn)
