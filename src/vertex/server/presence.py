"""Presence: which seats have a socket open, on any process.

Each process knows its own sockets (sockets.py). With several processes each one also
publishes, per table, the seats connected to it in a Redis hash (one field per process,
stamped with an expiry it renews while it lives), and reads the others' fields back. A
process that dies stops renewing, so its seats drop out within a few seconds.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from vertex.server.bus import redis_client

PRESENCE = "vertex:presence:"


class LocalPresence:
    """One process: nobody else has sockets."""

    async def publish(self, tid: str, seats: Iterable[int]) -> None:
        return None

    async def refresh(self, held: dict[str, frozenset[int]]) -> None:
        return None

    async def remote(self, tid: str) -> set[int]:
        return set()

    async def remote_many(self, tids: list[str]) -> dict[str, set[int]]:
        return {t: set() for t in tids}

    async def close(self) -> None:
        return None


class RedisPresence:
    def __init__(self, url: str, me: str, ttl_s: float, site: str = "vertex") -> None:
        self.me = me
        self.prefix = PRESENCE.replace("vertex:", site + ":", 1)
        self.ttl_s = ttl_s
        self.redis: Any = redis_client(url)

    def _field(self, seats: Iterable[int]) -> str:
        expiry = time.time() + self.ttl_s
        return f"{expiry:.3f}:" + ",".join(str(s) for s in sorted(seats))

    async def publish(self, tid: str, seats: Iterable[int]) -> None:
        seats = list(seats)
        key = self.prefix + tid
        async with self.redis.pipeline(transaction=False) as pipe:
            if seats:
                pipe.hset(key, self.me, self._field(seats))
                pipe.expire(key, int(self.ttl_s * 4) + 1)
            else:
                pipe.hdel(key, self.me)
            await pipe.execute()

    async def refresh(self, held: dict[str, frozenset[int]]) -> None:
        """Renew this process's fields for every table it has seats at."""
        if not held:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for tid, seats in held.items():
                pipe.hset(self.prefix + tid, self.me, self._field(seats))
                pipe.expire(self.prefix + tid, int(self.ttl_s * 4) + 1)
            await pipe.execute()

    def _live(self, fields: dict[bytes, bytes], now: float) -> set[int]:
        out: set[int] = set()
        for worker, value in fields.items():
            if worker.decode() == self.me:
                continue
            expiry, _, seats = value.decode().partition(":")
            if float(expiry) >= now and seats:
                out.update(int(s) for s in seats.split(","))
        return out

    async def remote(self, tid: str) -> set[int]:
        """Seats connected at the other live processes."""
        try:
            fields = await self.redis.hgetall(self.prefix + tid)
        except Exception:  # Redis is away: the seats here are all we know of now
            return set()
        return self._live(fields, time.time())

    async def remote_many(self, tids: list[str]) -> dict[str, set[int]]:
        if not tids:
            return {}
        async with self.redis.pipeline(transaction=False) as pipe:
            for tid in tids:
                pipe.hgetall(self.prefix + tid)
            got = await pipe.execute()
        now = time.time()
        return {tid: self._live(fields, now) for tid, fields in zip(tids, got, strict=True)}

    async def close(self) -> None:
        await self.redis.aclose()
