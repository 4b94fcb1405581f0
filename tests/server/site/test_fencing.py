"""Lease fencing: a stale owner's write is refused by the store, an owner that cannot renew
stops acting in time, lease epochs only go up, and each site's names are its own."""

from __future__ import annotations

import asyncio
import secrets
import time

import pytest
from fastapi.testclient import TestClient

from tests.eventually import eventually_async
from tests.server.site.test_scaleout import REDIS, _reachable
from tests.server.table.test_table import SPEC
from vertex.server import Settings, create_app
from vertex.server.errors import ApiError
from vertex.server.site.faults import unavailable
from vertex.server.site.leases import TRUSTED, RedisLeases
from vertex.server.storage.store import Store
from vertex.server.table.events import StoredEvent
from vertex.server.table.records import Fenced, TableRow
from vertex.server.table.spec import TableSpec

redis_needed = pytest.mark.skipif(bool(_reachable()), reason=_reachable() or "")


def test_the_store_refuses_a_write_from_an_owner_older_than_one_it_has_seen() -> None:
    async def go() -> None:
        store = Store("sqlite://")
        await store.start()
        try:
            await store.tables.create(TableRow("t1", "g", TableSpec.load(SPEC), "open", "me", 0, 0))
            assert await store.log.append("t1", StoredEvent(1, "move", {}, 1.0), fence=100)
            assert await store.log.append(
                "t1", StoredEvent(2, "move", {}, 2.0), fence=200
            )  # new owner
            with pytest.raises(Fenced):  # the old owner wakes up and writes: refused
                await store.log.append("t1", StoredEvent(3, "move", {"old": True}, 3.0), fence=100)
            assert await store.log.append("t1", StoredEvent(3, "move", {}, 3.0))  # a player's move
            assert await store.log.append("t1", StoredEvent(4, "move", {}, 4.0), fence=200)
            logged = await store.log.events("t1")
            assert [e.seq for e in logged] == [1, 2, 3, 4]
            assert all("old" not in e.data for e in logged)
            assert await store.log.versions(["t1", "nothing"]) == {"t1": 4}
        finally:
            await store.close()

    asyncio.run(go())


@redis_needed
def test_epochs_go_up_and_an_owner_that_cannot_renew_stops_acting() -> None:
    async def go() -> None:
        site = "t" + secrets.token_hex(5)
        tid = "fence-" + secrets.token_hex(6)
        key = f"{site}:lease:{tid}"
        a = RedisLeases(REDIS, "a", 3.0, site)
        b = RedisLeases(REDIS, "b", 3.0, site)
        try:
            began = time.monotonic()
            assert await a.acquire(tid)
            left_ms = await a.redis.pttl(key)  # how long Redis keeps it a's
            read = time.monotonic()
            first = a.epoch(tid)
            assert first is not None and a.owns(tid)
            assert not await b.acquire(tid)  # a's: nobody else's
            # a renews nothing (its loop never started): it stops acting at a share of the
            # lease counted from before it asked, so before Redis can let the lease go and
            # anyone else act — whatever the load (no wall time is measured here)
            assert began <= a._until[tid] - 3.0 * TRUSTED <= read
            assert left_ms > 0 and a._until[tid] < read + left_ms / 1000
            await eventually_async(lambda: not a.owns(tid), what="a stopping acting")
            await eventually_async(lambda: b.acquire(tid), what="b taking the lease")
            second = b.epoch(tid)
            assert second is not None and second > first
            assert await a.redis.exists(f"vertex:lease:{tid}") == 0  # the site's own names
            assert await a.redis.exists(key) == 1
        finally:
            for leases in (a, b):
                await leases.release(tid)
                await leases.redis.delete(f"{site}:lease-epoch:{tid}")
                await leases.close()

    asyncio.run(go())


def test_outages_answer_503_with_a_code_and_other_failures_do_not() -> None:
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    for exc in (RedisConnectionError("down"), RedisTimeoutError("slow")):
        away = unavailable(exc)
        assert isinstance(away, ApiError) and away.status == 503
        assert away.code == "unavailable"
    assert unavailable(ValueError("a bug")) is None


def test_a_request_during_an_outage_gets_503_not_500(tmp_path: object) -> None:
    from redis.exceptions import ConnectionError as RedisConnectionError

    app = create_app(Settings(database_url="sqlite://", ai_executor="thread"))
    hub = app.state.hub

    async def down(*_a: object, **_k: object) -> bool:
        raise RedisConnectionError("Redis is away")

    with TestClient(app, raise_server_exceptions=False) as client:
        hub.quotas.take_window = down  # what creating a table needs from Redis
        r = client.post("/api/tables", json={"game": "dots-and-boxes"})
        assert r.status_code == 503, r.text
        assert r.json()["error"]["code"] == "unavailable"
        health = client.get("/healthz").json()
        assert health["status"] == "ok" and client.get("/readyz").status_code == 200
