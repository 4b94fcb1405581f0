"""Reviews of whole games (DESIGN.md §5b): one row per game reviewed, shared by the site.

The row is also the claim that makes a review run once across every process: the first to
insert it (the key is the table and the number of moves reviewed) computes, and the others
read its progress and then its result. The one computing beats `heartbeat` as it goes; a
claim whose heartbeat stopped (its process died) may be taken over by another (`claim`).
A practice table reviewed during play gets one row per length of game asked about.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, Float, Integer, String, Table, Text, and_, delete, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from vertex.server.storage.schema import metadata, stored_json
from vertex.server.storage.store import Store

reviews_t = Table(
    "vertex_reviews",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("plies", Integer, primary_key=True),
    Column("status", String(16), nullable=False),  # queued, running, done
    Column("owner", String(64), nullable=False),  # the process computing it
    Column("heartbeat", Float, nullable=False),
    Column("done", Integer, nullable=False),
    Column("total", Integer, nullable=False),
    Column("data", Text, nullable=True),  # the review (JSON), once done
    Column("created_at", Float, nullable=False),
)


@dataclass(frozen=True)
class ReviewRow:
    table_id: str
    plies: int
    status: str
    owner: str
    heartbeat: float
    done: int
    total: int
    data: dict[str, Any] | None


def _key(tid: str, plies: int) -> Any:
    t = reviews_t.c
    return and_(t.table_id == tid, t.plies == plies)


def _row(r: Any) -> ReviewRow:
    data = json.loads(r.data) if r.data else None
    return ReviewRow(r.table_id, r.plies, r.status, r.owner, r.heartbeat, r.done, r.total, data)


async def read(store: Store, tid: str, plies: int) -> ReviewRow | None:
    def run(conn: Connection) -> ReviewRow | None:
        r = conn.execute(select(reviews_t).where(_key(tid, plies))).first()
        return None if r is None else _row(r)

    return await store.read(run)


async def claim(
    store: Store, tid: str, plies: int, me: str, total: int, now: float, stale_s: float
) -> bool:
    """Whether `me` now computes this review: a new row, or a stale claim taken over."""

    def run(conn: Connection) -> bool:
        try:
            with conn.begin_nested():
                conn.execute(
                    reviews_t.insert().values(
                        table_id=tid,
                        plies=plies,
                        status="queued",
                        owner=me,
                        heartbeat=now,
                        done=0,
                        total=total,
                        data=None,
                        created_at=now,
                    )
                )
            return True
        except IntegrityError:
            pass
        took = conn.execute(
            update(reviews_t)
            .where(
                _key(tid, plies),
                reviews_t.c.status != "done",
                reviews_t.c.heartbeat < now - stale_s,
            )
            .values(owner=me, heartbeat=now, status="queued", done=0, total=total)
        )
        return bool(took.rowcount)

    return await store.write(run)


async def beat(
    store: Store, tid: str, plies: int, me: str, status: str, done: int, now: float
) -> bool:
    """Progress of the claim `me` holds; False: it is no longer ours (taken over)."""

    def run(conn: Connection) -> bool:
        done_now = conn.execute(
            update(reviews_t)
            .where(_key(tid, plies), reviews_t.c.owner == me, reviews_t.c.status != "done")
            .values(status=status, done=done, heartbeat=now)
        )
        return bool(done_now.rowcount)

    return await store.write(run)


async def finish(
    store: Store, tid: str, plies: int, me: str, data: dict[str, Any], now: float
) -> bool:
    def run(conn: Connection) -> bool:
        done_now = conn.execute(
            update(reviews_t)
            .where(_key(tid, plies), reviews_t.c.owner == me, reviews_t.c.status != "done")
            .values(status="done", done=reviews_t.c.total, heartbeat=now, data=stored_json(data))
        )
        return bool(done_now.rowcount)

    return await store.write(run)


async def drop(store: Store, tid: str, plies: int, me: str) -> None:
    """Give a failed claim up, so the next one who asks starts it again."""

    def run(conn: Connection) -> None:
        t = reviews_t.c
        conn.execute(delete(reviews_t).where(_key(tid, plies), t.owner == me, t.status != "done"))

    await store.write(run)
