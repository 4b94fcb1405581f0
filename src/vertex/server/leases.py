"""Table ownership: which process runs a table's computer seats and clocks.

One process (the default) owns every table it holds. Several processes share Redis: a
table's owner holds a lease (`SET NX PX`), renews it while it lives, and gives it up when
the game ends or the process stops. Every lease is also listed in a sorted set by expiry, so
the others find a dead owner's tables and take them over within a few seconds, whether or
not they hold a copy of the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from vertex.server.bus import redis_client
from vertex.server.tasks import stop_task

log = logging.getLogger("vertex.server")

Gained = Callable[[str], Awaitable[None]]
Lost = Callable[[str], None]

LEASE = "vertex:lease:"
LEASES = "vertex:leases"  # table id -> when its lease runs out (ms since 1970)

# KEYS: lease key, leases zset. ARGV: me, ttl ms, table id. 1 if the lease is (now) ours.
_ACQUIRE = """
local now = redis.call('TIME')
local until_ms = now[1] * 1000 + math.floor(now[2] / 1000) + tonumber(ARGV[2])
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) or
   redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  redis.call('ZADD', KEYS[2], until_ms, ARGV[3])
  return 1
end
return 0
"""
# KEYS: leases zset, then lease keys. ARGV: me, ttl ms, then table ids. The ids kept.
_RENEW = """
local now = redis.call('TIME')
local until_ms = now[1] * 1000 + math.floor(now[2] / 1000) + tonumber(ARGV[2])
local kept = {}
for i = 2, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[1] then
    redis.call('PEXPIRE', KEYS[i], ARGV[2])
    redis.call('ZADD', KEYS[1], until_ms, ARGV[i + 1])
    table.insert(kept, ARGV[i + 1])
  end
end
return kept
"""
# KEYS: lease key, leases zset. ARGV: me, table id, "final" (the table needs no owner now).
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  if ARGV[3] == '1' then redis.call('ZREM', KEYS[2], ARGV[2])
  else redis.call('ZADD', KEYS[2], 0, ARGV[2]) end
  return 1
end
if ARGV[3] == '1' and redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('ZREM', KEYS[2], ARGV[2])
end
return 0
"""


class LocalLeases:
    """One process: it owns every table that asks."""

    def __init__(self) -> None:
        self.owned: set[str] = set()

    async def start(self, gained: Gained, lost: Lost) -> None:
        return None

    def owns(self, tid: str) -> bool:
        return tid in self.owned

    async def acquire(self, tid: str) -> bool:
        self.owned.add(tid)
        return True

    async def release(self, tid: str, final: bool = True) -> None:
        self.owned.discard(tid)

    async def close(self) -> None:
        self.owned.clear()


class RedisLeases:
    def __init__(self, url: str, me: str, ttl_s: float) -> None:
        self.me = me
        self.ttl_ms = max(300, int(ttl_s * 1000))
        self.redis: Any = redis_client(url)
        self.owned: set[str] = set()
        self._acquire = self.redis.register_script(_ACQUIRE)
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        self._task: asyncio.Task[None] | None = None
        self._gained: Gained | None = None
        self._lost: Lost | None = None

    async def start(self, gained: Gained, lost: Lost) -> None:
        self._gained, self._lost = gained, lost
        self._task = asyncio.create_task(self._loop(), name="vertex-leases")

    def owns(self, tid: str) -> bool:
        return tid in self.owned

    async def acquire(self, tid: str) -> bool:
        if tid in self.owned:
            return True
        got = await self._acquire(keys=[LEASE + tid, LEASES], args=[self.me, self.ttl_ms, tid])
        if got:
            self.owned.add(tid)
            log.info('{"event":"owner","table":"%s","worker":"%s"}', tid, self.me)
        return bool(got)

    async def release(self, tid: str, final: bool = True) -> None:
        self.owned.discard(tid)
        await self._release(keys=[LEASE + tid, LEASES], args=[self.me, tid, "1" if final else "0"])

    async def _loop(self) -> None:
        every = self.ttl_ms / 3000
        while True:
            await asyncio.sleep(every)
            try:
                await self._renew_all()
                await self._take_over()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("lease renewal failed")

    async def _renew_all(self) -> None:
        mine = sorted(self.owned)
        if not mine:
            return
        keys = [LEASES, *(LEASE + t for t in mine)]
        kept = {
            k.decode() for k in await self._renew(keys=keys, args=[self.me, self.ttl_ms, *mine])
        }
        for tid in mine:
            if tid not in kept and tid in self.owned:  # another process has it now
                self.owned.discard(tid)
                if self._lost is not None:
                    self._lost(tid)

    async def _take_over(self) -> None:
        """Tables whose owner stopped renewing: take them (one process wins each)."""
        now_ms = int(time.time() * 1000)
        due = await self.redis.zrangebyscore(LEASES, "-inf", now_ms, start=0, num=100)
        for raw in due:
            tid = raw.decode()
            if tid in self.owned or not await self.acquire(tid):
                continue
            log.info('{"event":"take-over","table":"%s","worker":"%s"}', tid, self.me)
            if self._gained is not None:
                try:
                    await self._gained(tid)
                except Exception:
                    log.exception("table %s could not be taken over", tid)
                    await self.release(tid, final=True)

    async def stop_renewing(self) -> None:
        """Renew nothing more (a clean stop; in tests, a process that dies)."""
        await stop_task(self._task)
        self._task = None

    async def close(self) -> None:
        await self.stop_renewing()
        for tid in sorted(self.owned):  # hand them on at once rather than on expiry
            with contextlib.suppress(Exception):
                await self.release(tid, final=False)
        await self.redis.aclose()
