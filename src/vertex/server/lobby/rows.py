"""The lobby's rows in the store: one per listed table, with its latest summary.

They let any process (and this one after a restart) show the list without loading the
tables, count an address's listed open tables and find a table for "Play now" under the
shared lock, whichever process wrote last. A row that left the list (`gone`) stays gone.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Column, Float, Index, Integer, String, Table, Text, func, select, update
from sqlalchemy.engine import Connection

from vertex.server.lobby.index import FINISHED_KEPT
from vertex.server.lobby.summary import FINISHED, LIVE, OPEN
from vertex.server.storage.schema import metadata
from vertex.server.storage.store import Store

GONE = "gone"
#: Rated Play now: the rating points apart a waiting player accepts at once, and how many
#: more each second they wait (after a minute ±700: anyone, nearly).
NEAR = 100
WIDEN = 10

lobby_t = Table(
    "vertex_lobby",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("creator", String(64), nullable=False),
    Column("status", String(16), nullable=False),
    Column("quick", Integer, nullable=False),  # "Play now" may seat people here
    Column("free_seats", Integer, nullable=False),
    Column("summary", Text, nullable=False),
    Column("listed_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    # rated Play now (play.py): the pool, and the waiting player's rating
    Column("pool", String(64), nullable=True),
    Column("rating", Integer, nullable=True),
    Index("ix_vertex_lobby_status", "status", "game", "listed_at"),
    Index("ix_vertex_lobby_creator", "creator", "status"),
)


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class LobbyRows:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def insert(self, entry: dict[str, Any], creator: str, now: float) -> None:
        def run(conn: Connection) -> None:
            conn.execute(
                lobby_t.insert().values(
                    table_id=entry["id"],
                    game=entry["game"],
                    creator=creator,
                    status=entry["section"],
                    quick=int(bool(entry.get("quick"))),
                    free_seats=entry["free_seats"],
                    summary=_dumps(entry),
                    listed_at=entry["listed_at"],
                    updated_at=now,
                )
            )

        await self.store.write(run)

    async def save(self, entries: list[dict[str, Any]], now: float) -> None:
        """The latest summaries of tables still listed (a row that left stays gone)."""

        def run(conn: Connection) -> None:
            for entry in entries:
                status = entry["section"] or GONE
                conn.execute(
                    update(lobby_t)
                    .where(lobby_t.c.table_id == entry["id"], lobby_t.c.status != GONE)
                    .values(
                        status=status,
                        free_seats=entry["free_seats"],
                        summary=_dumps(entry),
                        updated_at=now,
                    )
                )

        await self.store.write(run)

    async def leave(self, tid: str, now: float) -> bool:
        """Take a table off the list; False if it was off already."""

        def run(conn: Connection) -> bool:
            done = conn.execute(
                update(lobby_t)
                .where(lobby_t.c.table_id == tid, lobby_t.c.status != GONE)
                .values(status=GONE, updated_at=now)
            )
            return bool(done.rowcount)

        return await self.store.write(run)

    async def load(self) -> list[dict[str, Any]]:
        """Every listed open or live table, and the latest finished ones."""

        def run(conn: Connection) -> list[dict[str, Any]]:
            rows = list(
                conn.execute(select(lobby_t.c.summary).where(lobby_t.c.status.in_([OPEN, LIVE])))
            )
            rows += conn.execute(
                select(lobby_t.c.summary)
                .where(lobby_t.c.status == FINISHED)
                .order_by(lobby_t.c.updated_at.desc())
                .limit(FINISHED_KEPT)
            )
            return [json.loads(r.summary) for r in rows]

        return await self.store.read(run)

    async def count_open(self, creator: str) -> int:
        def run(conn: Connection) -> int:
            q = select(func.count()).where(lobby_t.c.creator == creator, lobby_t.c.status == OPEN)
            return int(conn.execute(q).scalar_one())

        return await self.store.read(run)

    async def waiting_for_one(self, game: str, most: int = 20) -> list[str]:
        """Open tables "Play now" may seat someone at (one free seat left), oldest first."""

        def run(conn: Connection) -> list[str]:
            q = (
                select(lobby_t.c.table_id)
                .where(
                    lobby_t.c.status == OPEN,
                    lobby_t.c.game == game,
                    lobby_t.c.quick == 1,
                    lobby_t.c.free_seats == 1,
                    lobby_t.c.pool.is_(None),  # rated ones: rated_waiting
                )
                .order_by(lobby_t.c.listed_at)
                .limit(most)
            )
            return [r.table_id for r in conn.execute(q)]

        return await self.store.read(run)

    async def rated(self, tid: str, pool: str, rating: int) -> None:
        """A rated Play now table's pool and its waiting player's rating."""

        def run(conn: Connection) -> None:
            conn.execute(
                update(lobby_t).where(lobby_t.c.table_id == tid).values(pool=pool, rating=rating)
            )

        await self.store.write(run)

    async def rated_waiting(
        self, game: str, pool: str, rating: int, creator: str, now: float, most: int = 20
    ) -> list[str]:
        """Rated Play now tables of `pool` (a pool of `game`: the status index's range)
        someone of `rating` may sit at, nearest rating first: one query. The range each
        table accepts widens the longer its player has waited (`NEAR` points, and `WIDEN`
        more a second). Never a table opened from the same address (one's own second key
        is no opponent)."""

        def run(conn: Connection) -> list[str]:
            c = lobby_t.c
            apart = func.abs(c.rating - rating)
            q = (
                select(c.table_id)
                .where(
                    c.status == OPEN,
                    c.game == game,
                    c.pool == pool,
                    c.quick == 1,
                    c.free_seats >= 1,
                    c.creator != creator,
                    apart <= NEAR + WIDEN * (now - c.listed_at),
                )
                .order_by(apart, c.listed_at)
                .limit(most)
            )
            return [r.table_id for r in conn.execute(q)]

        return await self.store.read(run)

    async def open_ids(self) -> list[str]:
        def run(conn: Connection) -> list[str]:
            q = select(lobby_t.c.table_id).where(lobby_t.c.status == OPEN)
            return [r.table_id for r in conn.execute(q)]

        return await self.store.read(run)
