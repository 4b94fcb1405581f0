"""The review's claim row (storage/reviews.py): one claimant at a time; a claim whose
heartbeat stopped is taken over, and its old holder then finds it is no longer its own."""

from __future__ import annotations

import asyncio
from pathlib import Path

import vertex.server.app  # noqa: F401  (every module's tables on the metadata)
from vertex.server.storage import reviews
from vertex.server.storage.store import Store


def test_one_claim_a_stale_one_taken_over_and_done_kept(tmp_path: Path) -> None:
    async def run() -> None:
        store = Store(f"sqlite:///{tmp_path / 'v.db'}")
        await store.start()
        try:
            assert await reviews.claim(store, "t1", 24, "a", 24, 100.0, 30.0)
            assert not await reviews.claim(store, "t1", 24, "b", 24, 110.0, 30.0)  # a beats
            assert await reviews.beat(store, "t1", 24, "a", "running", 5, 120.0)
            assert not await reviews.claim(store, "t1", 24, "b", 24, 149.0, 30.0)
            # a stopped beating 30 s ago: b takes over from the start
            assert await reviews.claim(store, "t1", 24, "b", 24, 151.0, 30.0)
            row = await reviews.read(store, "t1", 24)
            assert row is not None and (row.owner, row.done, row.status) == ("b", 0, "queued")
            assert not await reviews.beat(store, "t1", 24, "a", "running", 6, 152.0)
            assert not await reviews.finish(store, "t1", 24, "a", {"x": 1}, 152.0)
            assert await reviews.finish(store, "t1", 24, "b", {"moves": []}, 160.0)
            done = await reviews.read(store, "t1", 24)
            assert done is not None and done.status == "done" and done.done == 24
            assert done.data == {"moves": []}
            # done is done: no take-over, however old
            assert not await reviews.claim(store, "t1", 24, "c", 24, 9999.0, 30.0)
            # another length of the same table's game is another review
            assert await reviews.claim(store, "t1", 10, "c", 10, 9999.0, 30.0)
            await reviews.drop(store, "t1", 10, "c")
            assert await reviews.read(store, "t1", 10) is None
        finally:
            await store.close()

    asyncio.run(run())
