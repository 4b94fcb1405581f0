"""Limits that hold for the whole site: rates (token buckets) and counts per window.

One process keeps them in memory; several share them in Redis, where each check-and-take
is one atomic script (the time is Redis's own, so the processes' clocks do not matter).
Keys are hashed here: what a limit is keyed by (a seat token's hash, an address) never
appears in Redis as such.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections import deque
from typing import Any

from vertex.server.site.bus import redis_client
from vertex.server.site.rates import SeatRates

QUOTA = "vertex:quota:"

_BUCKET = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local v = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(v[1]) or burst
local at = tonumber(v[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
local ok = 0
if tokens >= 1 then tokens = tokens - 1; ok = 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return ok
"""

_WINDOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local limit, window = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= limit then return 0 end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], math.ceil(window * 1000))
return 1
"""

_COUNT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
return redis.call('ZCOUNT', KEYS[1], '(' .. tostring(now - tonumber(ARGV[1])), '+inf')
"""


def _key(name: str, key: str, prefix: str = QUOTA) -> str:
    return prefix + name + ":" + hashlib.blake2b(key.encode(), digest_size=16).hexdigest()


class LocalQuotas:
    """One process: buckets and windows in memory (bounded)."""

    def __init__(self) -> None:
        self._rates: dict[tuple[float, int], SeatRates] = {}
        self._windows: dict[str, deque[float]] = {}

    async def take_rate(self, name: str, key: str, rate: float, burst: int) -> bool:
        rates = self._rates.get((rate, burst))
        if rates is None:
            rates = self._rates[(rate, burst)] = SeatRates(rate, burst)
        return rates.take(name + ":" + key)

    async def take_window(self, name: str, key: str, limit: int, window_s: float) -> bool:
        now = time.time()
        k = name + ":" + key
        times = self._windows.get(k)
        if times is None:
            if len(self._windows) >= 10_000:
                self._forget(now, window_s)
            times = self._windows[k] = deque()
        while times and times[0] <= now - window_s:
            times.popleft()
        if len(times) >= limit:
            return False
        times.append(now)
        return True

    async def count_window(self, name: str, key: str, window_s: float) -> int:
        """How many a window holds now (taking nothing)."""
        now = time.time()
        times = self._windows.get(name + ":" + key)
        return 0 if times is None else sum(1 for t in times if t > now - window_s)

    def _forget(self, now: float, window_s: float) -> None:
        for k, times in list(self._windows.items()):
            if not times or times[-1] <= now - window_s:
                del self._windows[k]

    async def close(self) -> None:
        return None


class RedisQuotas:
    def __init__(self, url: str, site: str = "vertex") -> None:
        self.prefix = QUOTA.replace("vertex:", site + ":", 1)
        self.redis: Any = redis_client(url)
        self._bucket = self.redis.register_script(_BUCKET)
        self._window = self.redis.register_script(_WINDOW)
        self._count = self.redis.register_script(_COUNT)

    async def take_rate(self, name: str, key: str, rate: float, burst: int) -> bool:
        return bool(await self._bucket(keys=[_key(name, key, self.prefix)], args=[rate, burst]))

    async def take_window(self, name: str, key: str, limit: int, window_s: float) -> bool:
        member = secrets.token_hex(8)
        return bool(
            await self._window(keys=[_key(name, key, self.prefix)], args=[limit, window_s, member])
        )

    async def count_window(self, name: str, key: str, window_s: float) -> int:
        return int(await self._count(keys=[_key(name, key, self.prefix)], args=[window_s]))

    async def close(self) -> None:
        await self.redis.aclose()
