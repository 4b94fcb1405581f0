"""Table ownership: which process runs a table's computer seats and clocks.

One process (the default) owns every table it holds. Several processes share Redis: a
table's owner holds a lease (`SET NX PX`), renews it while it lives, and gives it up when
the game ends or the process stops. Every lease is also listed in a sorted set by expiry, so
the others find a dead owner's tables and take them over within a few seconds, whether or
not they hold a copy of the table.

Fencing: an owner that cannot renew (Redis unreachable or hung) stops acting as owner before
its lease can have run out (`owns` is false from then on, by its own clock), and every lease
taken carries an epoch, higher than any before it for that table, that the owner's writes
carry into the store (store.py refuses a write with an older epoch than it has seen): an
owner that hung past its lease cannot write over its successor.

An owner that cannot reach the database cannot run its tables either (a computer move or a
timeout is a write): when `store_up` says the database has been away for a while
(upkeep.py: 2 s without an answer), it hands its tables on at once and takes none over
until it is back, so another process runs them meanwhile.

Over 300 lines because it keeps both kinds of one contract side by side, as bus.py,
presence.py and quotas.py do: the in-process leases and the Redis ones with their scripts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from vertex.server.metrics import TAKEOVERS
from vertex.server.site.bus import redis_client
from vertex.server.site.faults import log_failure
from vertex.server.tasks import stop_task

log = logging.getLogger("vertex.server")

Gained = Callable[[str], Awaitable[None]]
Lost = Callable[[str], None]

LEASE = "vertex:lease:"
LEASES = "vertex:leases"  # table id -> when its lease runs out (ms since 1970)

# KEYS: lease key, leases zset, epoch key. ARGV: me, ttl ms, table id.
# The new epoch if the lease is newly ours, -1 if it was ours already, 0 if another's. The
# epoch is the time in ms, or one more than the last one if that is later (a clock set back).
_ACQUIRE = """
local now = redis.call('TIME')
local now_ms = now[1] * 1000 + math.floor(now[2] / 1000)
local until_ms = now_ms + tonumber(ARGV[2])
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  redis.call('ZADD', KEYS[2], until_ms, ARGV[3])
  local epoch = math.max(now_ms, tonumber(redis.call('GET', KEYS[3]) or '0') + 1)
  redis.call('SET', KEYS[3], tostring(epoch), 'PX', 2592000000)
  return epoch
end
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  redis.call('ZADD', KEYS[2], until_ms, ARGV[3])
  return -1
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
# KEYS: lease key, leases zset. ARGV: me, table id, when a process is to take the table up
# again (ms since 1970: 0 at once, a table's next deadline for one unloaded idle) or '' for
# never (the table needs no owner now).
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  if ARGV[3] == '' then redis.call('ZREM', KEYS[2], ARGV[2])
  else redis.call('ZADD', KEYS[2], tonumber(ARGV[3]), ARGV[2]) end
  return 1
end
if ARGV[3] == '' and redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('ZREM', KEYS[2], ARGV[2])
end
return 0
"""

#: A table that could not be taken up (its log unreadable for a moment) is tried again
#: this much later, rather than left without an owner.
RETRY_S = 5.0


class LocalLeases:
    """One process: it owns every table that asks. A table let go with a time to wake at
    (an idle table's next clock deadline) is taken up again then, as another process would
    take it up from Redis."""

    def __init__(self) -> None:
        self.owned: set[str] = set()
        self._gained: Gained | None = None
        self._wakes: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self, gained: Gained, lost: Lost) -> None:
        self._gained = gained

    def owns(self, tid: str) -> bool:
        return tid in self.owned

    def epoch(self, tid: str) -> int | None:
        return None  # nobody else can own it: no fence

    def forfeit(self, tid: str) -> None:
        self.owned.discard(tid)

    def waking(self, tid: str) -> bool:
        """Whether the table was let go with a time to be taken up again at."""
        return tid in self._wakes

    async def acquire(self, tid: str) -> bool:
        self._unwake(tid)
        self.owned.add(tid)
        return True

    async def release(self, tid: str, final: bool = True, wake: float | None = None) -> None:
        """Let the table go; `wake` (time.time()): take it up again then (not final)."""
        self.owned.discard(tid)
        self._unwake(tid)
        if not final and wake is not None:
            loop = asyncio.get_running_loop()
            delay = max(0.0, wake - time.time())
            self._wakes[tid] = loop.call_later(delay, self._wake, tid)

    def _unwake(self, tid: str) -> None:
        handle = self._wakes.pop(tid, None)
        if handle is not None:
            handle.cancel()

    def _wake(self, tid: str) -> None:
        self._wakes.pop(tid, None)
        task = asyncio.create_task(self._take_up(tid))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _take_up(self, tid: str) -> None:
        if tid in self.owned or self._gained is None:
            return
        self.owned.add(tid)
        try:
            await self._gained(tid)
        except Exception as exc:
            log_failure(log, exc, "table %s could not be taken up", tid)
            await self.release(tid, final=False, wake=time.time() + RETRY_S)

    async def close(self) -> None:
        for tid in list(self._wakes):
            self._unwake(tid)
        for task in list(self._tasks):
            task.cancel()
        self.owned.clear()


#: The share of a lease's time an owner acts on it after the renewal (or acquisition) began
#: (its clock and Redis's may run at slightly different speeds; the rest is the margin).
TRUSTED = 0.75


class RedisLeases:
    def __init__(self, url: str, me: str, ttl_s: float, site: str = "vertex") -> None:
        self.me = me
        self.ttl_ms = max(300, int(ttl_s * 1000))
        self.redis: Any = redis_client(url)
        self.lease = LEASE.replace("vertex:", site + ":", 1)
        self.leases = LEASES.replace("vertex:", site + ":", 1)
        self.fence = f"{site}:lease-epoch:"
        self.owned: set[str] = set()
        self._epochs: dict[str, int] = {}
        self._until: dict[str, float] = {}  # monotonic time up to which we may act as owner
        #: Tables someone asked `owns` about while our lease on them had lapsed: they did
        #: not act (a computer's move dropped, a timer not set), so whoever resumes the
        #: lease must run them again (`gained`), or their turn is nobody's.
        self._lapsed: set[str] = set()
        #: Whether the database answers (the hub sets it from upkeep.py): while not, this
        #: process hands its tables on and takes none.
        self.store_up: Callable[[], bool] = lambda: True
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
        """Whether we own the table now and may act for it: a lease we could not renew in
        time is not acted on, though nobody may have taken it yet."""
        if tid not in self.owned:
            return False
        if time.monotonic() < self._until.get(tid, 0.0):
            return True
        self._lapsed.add(tid)
        return False

    def epoch(self, tid: str) -> int | None:
        """The epoch of our lease on `tid`, which our writes as its owner carry."""
        return self._epochs.get(tid)

    def forfeit(self, tid: str) -> None:
        """The store refused our write as owner: a later owner has the table."""
        self._drop(tid)
        if self._lost is not None:
            self._lost(tid)

    def _drop(self, tid: str) -> None:
        self.owned.discard(tid)
        self._epochs.pop(tid, None)
        self._until.pop(tid, None)
        self._lapsed.discard(tid)

    async def acquire(self, tid: str) -> bool:
        if self.owns(tid):
            return True
        if not self.store_up():
            return False  # it could not run the table: leave it to a process that can
        began = time.monotonic()
        got = int(
            await self._acquire(
                keys=[self.lease + tid, self.leases, self.fence + tid],
                args=[self.me, self.ttl_ms, tid],
            )
        )
        if got == 0 or (got == -1 and tid not in self._epochs):
            return False
        if got > 0:
            self._epochs[tid] = got
        self.owned.add(tid)
        self._until[tid] = began + self.ttl_ms / 1000 * TRUSTED
        self._lapsed.discard(tid)  # the caller runs it now
        log.info('{"event":"owner","table":"%s","worker":"%s"}', tid, self.me)
        return True

    async def release(self, tid: str, final: bool = True, wake: float | None = None) -> None:
        """Let the table go: for good (`final`: it needs no owner), to be taken up by any
        process at once, or at `wake` (time.time(): an unloaded idle table's deadline)."""
        self._drop(tid)
        when = "" if final else str(0 if wake is None else max(1, int(wake * 1000)))
        await self._release(keys=[self.lease + tid, self.leases], args=[self.me, tid, when])

    async def _loop(self) -> None:
        every = self.ttl_ms / 3000
        while True:
            await asyncio.sleep(every)
            try:
                if not self.store_up():
                    await self._hand_on()
                    continue
                await self._renew_all()
                await self._take_over()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log_failure(log, exc, "lease renewal failed")

    async def _renew_all(self) -> None:
        mine = sorted(self.owned)
        if not mine:
            return
        keys = [self.leases, *(self.lease + t for t in mine)]
        began = time.monotonic()
        for tid in mine:
            self.owns(tid)  # (notes the ones lapsed already)
        kept = {
            k.decode() for k in await self._renew(keys=keys, args=[self.me, self.ttl_ms, *mine])
        }
        for tid in mine:
            if tid not in self.owned:
                continue
            if tid not in kept:  # another process has it now, or it ran out
                self._drop(tid)
                if self._lost is not None:
                    self._lost(tid)
                continue
            self._until[tid] = began + self.ttl_ms / 1000 * TRUSTED
            # Lapsed before or *during* the renewal (Redis slow to answer, the loop busy):
            # whoever asked then did not act, and nobody took the table: go on with it.
            if tid in self._lapsed and self._gained is not None:
                self._lapsed.discard(tid)
                try:
                    await self._gained(tid)
                except Exception as exc:
                    log_failure(log, exc, "table %s could not be resumed", tid)
                    await self._retry_later(tid)

    async def _hand_on(self) -> None:
        """The database is away: give every table we own to the others, at once."""
        for tid in sorted(self.owned):
            log.warning('{"event":"hand-on","table":"%s","worker":"%s"}', tid, self.me)
            await self.release(tid, final=False)
            if self._lost is not None:
                self._lost(tid)

    async def _retry_later(self, tid: str) -> None:
        """A table we could not take up: let any process (us too) try again shortly, rather
        than own it without running it, or drop it from the sorted set (nobody would)."""
        with contextlib.suppress(Exception):
            await self.release(tid, final=False, wake=time.time() + RETRY_S)

    async def _take_over(self) -> None:
        """Tables whose owner stopped renewing: take them (one process wins each)."""
        now_ms = int(time.time() * 1000)
        due = await self.redis.zrangebyscore(self.leases, "-inf", now_ms, start=0, num=100)
        for raw in due:
            tid = raw.decode()
            if self.owns(tid) or not await self.acquire(tid):
                continue
            log.info('{"event":"take-over","table":"%s","worker":"%s"}', tid, self.me)
            TAKEOVERS.inc()
            if self._gained is not None:
                try:
                    await self._gained(tid)
                except Exception as exc:
                    log_failure(log, exc, "table %s could not be taken over", tid)
                    await self._retry_later(tid)

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
