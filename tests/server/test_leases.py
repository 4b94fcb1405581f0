"""Table ownership over Redis: one owner per table, renewed while it lives, taken over
when it stops renewing. Skipped (with the reason) when Redis is not reachable."""

from __future__ import annotations

import asyncio
import secrets

import pytest

from vertex.server.leases import LEASES, LocalLeases, RedisLeases

from ..eventually import eventually_async
from .test_scaleout import REDIS, _reachable

pytestmark = pytest.mark.skipif(bool(_reachable()), reason=_reachable() or "")


def test_one_owner_a_table_and_a_take_over_when_it_dies() -> None:
    async def go() -> None:
        tid = "test-" + secrets.token_hex(6)
        gained: list[str] = []
        lost: list[str] = []

        async def on_gained(t: str) -> None:
            gained.append(t)

        a, b = RedisLeases(REDIS, "a-" + tid, 0.6), RedisLeases(REDIS, "b-" + tid, 0.6)
        await a.start(on_gained, lost.append)
        await b.start(on_gained, lost.append)
        try:
            assert await a.acquire(tid) and a.owns(tid)
            assert not await b.acquire(tid) and not b.owns(tid)
            # a renews: still a's once its first lease would have run out (a renewal made
            # after that moment pushed the expiry a whole ttl past the first one)
            first = await a.redis.zscore(LEASES, tid)

            async def renewed_past_the_first_lease() -> bool:
                score = await a.redis.zscore(LEASES, tid)
                return score is not None and score >= first + a.ttl_ms

            await eventually_async(renewed_past_the_first_lease, what="a renewal")
            assert a.owns(tid) and not b.owns(tid) and tid not in gained
            assert a._task is not None
            await a.stop_renewing()  # a dies: no more renewals, nothing released
            await eventually_async(lambda: b.owns(tid), what="b taking the table over")
            assert tid in gained  # b took it over, within seconds
            await a._renew_all()  # a, were it to wake, learns at its next renewal it lost it
            assert not a.owns(tid) and tid in lost
            assert not await a.acquire(tid)  # and cannot have it back while b lives
            await b.release(tid, final=True)  # the game ended: nobody needs to own it
            assert await b.redis.zscore(LEASES, tid) is None
        finally:
            a.owned &= {tid}  # (other tables' stale leases it picked up: handed on)
            await a.close()
            await b.close()

    asyncio.run(go())


def test_one_process_owns_every_table_it_is_asked_to() -> None:
    async def go() -> None:
        leases = LocalLeases()
        assert await leases.acquire("t") and leases.owns("t")
        await leases.release("t")
        assert not leases.owns("t")

    asyncio.run(go())
