"""Rated attempts across processes (PostgreSQL): one player's attempt twice at once is stored
once; two players' first attempts at a new puzzle at once both count, and the puzzle's rating
row is made once."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from sqlalchemy import func, select

from tests.server.pg import another_database, drop_database
from tests.server.storage.test_upgrades import needs_pg
from vertex.puzzles.shipped import shipped
from vertex.server.puzzles.rows import puzzle_attempts_t, puzzle_ratings_t
from vertex.server.puzzles.service import Puzzles
from vertex.server.storage.store import Store


def _together(calls: list[Any]) -> list[Any]:
    out: list[Any] = [None] * len(calls)
    barrier = threading.Barrier(len(calls))

    def run(i: int) -> None:
        barrier.wait()
        out[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return out


@needs_pg
def test_attempts_at_once_on_two_processes() -> None:
    url = another_database()
    stores = [Store(url), Store(url)]  # two processes' engines
    try:
        asyncio.run(stores[0].start())
        services = [Puzzles(s) for s in stores]
        p, q = shipped()[0], shipped()[1]

        def rate(i: int, player: str, puzzle: Any) -> Any:
            for _ in range(3):  # as Puzzles._rate: a lost race on a new rating row, again
                try:
                    return services[i]._rate_once(puzzle, player, True)
                except Exception as exc:  # IntegrityError, wrapped or not
                    if "IntegrityError" not in type(exc).__name__ + repr(exc):
                        raise
            raise AssertionError("three lost races")

        same = _together([lambda: rate(0, "ann", p), lambda: rate(1, "ann", p)])
        assert sorted(r["rated"] for r in same) == [False, True]
        both = _together([lambda: rate(0, "ann", q), lambda: rate(1, "bob", q)])
        assert [r["rated"] for r in both] == [True, True]
        with stores[0].engine.connect() as conn:
            n = conn.execute(select(func.count()).select_from(puzzle_attempts_t)).scalar_one()
            row = conn.execute(
                select(puzzle_ratings_t).where(puzzle_ratings_t.c.puzzle_id == q.id)
            ).one()
        assert n == 3 and row.attempts == 2
    finally:
        for s in stores:
            s.db.shutdown()
        drop_database(url)
