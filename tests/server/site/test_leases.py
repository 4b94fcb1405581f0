"""Table ownership over Redis: one owner per table, renewed while it lives, taken over
when it stops renewing. Skipped (with the reason) when Redis is not reachable."""

from __future__ import annotations

import asyncio
import secrets
import time

import pytest

from tests.eventually import eventually_async
from tests.server.site.test_scaleout import REDIS, _reachable
from vertex.server.site.leases import LEASES, LocalLeases, RedisLeases

pytestmark = pytest.mark.skipif(bool(_reachable()), reason=_reachable() or "")


def test_one_owner_a_table_and_a_take_over_when_it_dies() -> None:
    async def go() -> None:
        tid = "test-" + secrets.token_hex(6)
        gained: list[str] = []
        lost: list[str] = []

        async def on_gained(t: str) -> None:
            gained.append(t)

        # 3 s leases, renewed every second: a loaded box (the loop late by a second or two)
        # does not make a lose its lease while it renews
        a, b = RedisLeases(REDIS, "a-" + tid, 3.0), RedisLeases(REDIS, "b-" + tid, 3.0)
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


def test_a_lease_that_lapses_during_its_renewal_is_run_again() -> None:
    """Redis slow to answer a renewal (a loaded box): meanwhile the lease has run past the
    share its owner trusts, and the computer's move is dropped; the renewal then succeeds.
    Whoever was told "not yours" must be run again, or the table's turn is nobody's."""

    async def go() -> None:
        site = "t" + secrets.token_hex(5)
        tid = "lapse-" + secrets.token_hex(6)
        gained: list[str] = []

        async def on_gained(t: str) -> None:
            gained.append(t)

        a = RedisLeases(REDIS, "a", 3.0, site)
        a._gained, a._lost = on_gained, lambda _t: None  # (no renewal loop: by hand here)
        try:
            assert await a.acquire(tid) and a.owns(tid)
            renew = a._renew

            async def slow_renew(**kwargs: object) -> object:
                a._until[tid] = 0.0  # the renewal outlasts the trusted share of the lease
                assert not a.owns(tid)  # the computer asks: not ours now; its move is dropped
                return await renew(**kwargs)

            a._renew = slow_renew
            await a._renew_all()
            assert a.owns(tid) and gained == [tid]  # renewed, and run again
            a._renew = renew
            await a._renew_all()
            assert gained == [tid]  # (once)
        finally:
            await a.release(tid)
            await a.redis.delete(f"{site}:lease-epoch:{tid}")
            await a.close()

    asyncio.run(go())


def test_a_table_that_could_not_be_taken_over_is_tried_again_not_dropped() -> None:
    async def go() -> None:
        site = "t" + secrets.token_hex(5)
        tid = "retry-" + secrets.token_hex(6)

        tried: list[str] = []

        async def failing(t: str) -> None:
            tried.append(t)
            raise RuntimeError("the log could not be read just now")

        a, b = RedisLeases(REDIS, "a", 0.6, site), RedisLeases(REDIS, "b", 0.6, site)
        b._gained, b._lost = failing, lambda _t: None
        try:
            assert await a.acquire(tid)  # a never renews: its lease runs out
            await eventually_async(lambda: not a.owns(tid), what="a's lease lapsing")

            async def taken_and_failed() -> bool:
                await b._take_over()
                return bool(tried)

            await eventually_async(taken_and_failed, what="b taking it and failing")
            # not dropped from the sorted set: due again a few seconds later, for anyone
            assert await b.redis.exists(f"{site}:lease:{tid}") == 0
            score = await b.redis.zscore(f"{site}:leases", tid)
            assert score is not None and score > time.time() * 1000
            assert not b.owns(tid)
        finally:
            for leases in (a, b):
                await leases.release(tid)
            await a.redis.delete(f"{site}:lease-epoch:{tid}")
            for leases in (a, b):
                await leases.close()

    asyncio.run(go())
