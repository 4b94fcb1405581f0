"""What each process says of a table, in Redis, for as long as it lives to say it.

One hash per table (`<prefix><table id>`), one field per process: `"<expiry>:<value>"`, the
expiry (a Unix time) renewed whenever the process writes. Readers take the other processes'
values whose expiry has not passed, so a process that dies drops out within `ttl_s`; the
hash itself expires a while after its last write. presence.py keeps the seats connected
to each process this way, watching.py the spectators.
"""

from __future__ import annotations

import time
from typing import Any

from vertex.server.site.bus import redis_client


class ProcessFields:
    def __init__(self, url: str, me: str, ttl_s: float, prefix: str) -> None:
        self.me = me
        self.prefix = prefix
        self.ttl_s = ttl_s
        self.redis: Any = redis_client(url)

    async def write(self, values: dict[str, str | None]) -> None:
        """This process's value per table, its expiry renewed (None: take ours away)."""
        if not values:
            return
        expiry = time.time() + self.ttl_s
        async with self.redis.pipeline(transaction=False) as pipe:
            for tid, value in values.items():
                key = self.prefix + tid
                if value is None:
                    pipe.hdel(key, self.me)
                else:
                    pipe.hset(key, self.me, f"{expiry:.3f}:{value}")
                    pipe.expire(key, int(self.ttl_s * 4) + 1)
            await pipe.execute()

    async def read(self, tids: list[str]) -> dict[str, list[str]]:
        """The other live processes' values, per table."""
        got = await self.read_by_worker(tids)
        return {tid: list(values.values()) for tid, values in got.items()}

    async def read_by_worker(self, tids: list[str]) -> dict[str, dict[str, str]]:
        """The other live processes' values, per table, by process (its worker id)."""
        if not tids:
            return {}
        async with self.redis.pipeline(transaction=False) as pipe:
            for tid in tids:
                pipe.hgetall(self.prefix + tid)
            got = await pipe.execute()
        now = time.time()
        return {tid: self._live(fields, now) for tid, fields in zip(tids, got, strict=True)}

    async def read_one(self, tid: str) -> list[str]:
        return list(self._live(await self.redis.hgetall(self.prefix + tid), time.time()).values())

    def _live(self, fields: dict[bytes, bytes], now: float) -> dict[str, str]:
        out: dict[str, str] = {}
        for worker, field in fields.items():
            name = worker.decode()
            if name == self.me:
                continue
            expiry, _, value = field.decode().partition(":")
            if float(expiry) >= now:
                out[name] = value
        return out

    async def close(self) -> None:
        await self.redis.aclose()
