"""Upkeep: what one process does beside serving moves: catching its tables up to their
log, expiring idle tables and letting idle ones leave memory (with their lease, when they
have computer seats or clocks: they are taken up again when touched or shortly before their
next deadline, autoplay.py; slow tables, days a move, when a sweep finds their deadline
due in the store), repairing tables whose end outran their status, and what
`/healthz` says. The hub (hub.py) starts and stops it; it is
given the parts it looks after and knows nothing of the hub.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable
from dataclasses import asdict
from typing import Any

from vertex.server import metrics
from vertex.server.compute.autoplay import Autoplay
from vertex.server.errors import ApiError
from vertex.server.live.sockets import Sockets, dumps
from vertex.server.lobby import Lobby
from vertex.server.parts import Parts
from vertex.server.settings import Settings
from vertex.server.site.bus import RedisBus
from vertex.server.site.faults import log_failure
from vertex.server.storage.repository import Repository
from vertex.server.table import clocks
from vertex.server.table.events import Kind
from vertex.server.tasks import stop_task

log = logging.getLogger("vertex.server")


class Upkeep:
    """The background rounds of one process and its health."""

    def __init__(
        self,
        settings: Settings,
        parts: Parts,
        repo: Repository,
        sockets: Sockets,
        autoplay: Autoplay,
        lobby: Lobby,
    ) -> None:
        self.settings = settings
        self.limits = settings.limits
        self.parts = parts
        self.store = parts.store
        self.bus = parts.bus
        self.leases = parts.leases
        self.worker = parts.worker
        self.scaled = parts.shared
        self.repo = repo
        self.sockets = sockets
        self.autoplay = autoplay
        self.lobby = lobby
        self.reconciled = 0  # tables found behind their log and caught up (not by the bus)
        self.sweeps = 0  # sweeps done (tests wait for a few)
        self._redis_seen = time.monotonic()  # when Redis last answered a ping
        self._database_seen = time.monotonic()  # when the database last answered one
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        metrics.watch(self.gauges)
        self._tasks.append(asyncio.create_task(self._sweep_loop(), name="vertex-sweeper"))
        if self.scaled:
            self._tasks.append(asyncio.create_task(self._reconcile_loop(), name="vertex-reconcile"))
            self._tasks.append(asyncio.create_task(self._redis_watch(), name="vertex-redis-watch"))
            watch = self._database_watch()
            self._tasks.append(asyncio.create_task(watch, name="vertex-database-watch"))

    async def stop(self) -> None:
        metrics.watch(None)
        for task in self._tasks:
            await stop_task(task)
        self._tasks = []

    async def repair(self) -> None:
        """Load the few open tables whose log says their game ended (the process died
        between the event and the status): loading sets the status and keeps the result."""
        kinds = [Kind.RESIGN, Kind.TIMEOUT, Kind.END, Kind.EXPIRED]
        for tid in await self.store.tables.ended_open(kinds):
            try:
                await self.repo.get(tid)
            except Exception as exc:
                log_failure(log, exc, "table %s could not be repaired", tid)

    async def reconcile(self) -> None:
        """Catch every table held here up to its log (after a (re)subscribe; periodically)."""
        try:
            behind = await self.repo.reconcile()
        except Exception as exc:  # the database is away too: the next round tries again
            log_failure(log, exc, "reconciliation failed")
            return
        if behind:
            self.reconciled += behind
            log.info(dumps({"event": "reconciled", "tables": behind, "worker": self.worker}))

    async def _reconcile_loop(self) -> None:
        while True:
            await asyncio.sleep(self.settings.reconcile_s)
            await self.reconcile()

    async def _redis_watch(self) -> None:
        """Ping Redis a few times a second, for `/healthz` (which must answer at once)."""
        assert isinstance(self.bus, RedisBus)
        while True:
            try:
                await self.bus.redis.ping()
                self._redis_seen = time.monotonic()
            except asyncio.CancelledError:
                raise
            except Exception:
                pass
            await asyncio.sleep(REDIS_SILENT_S / 4)

    async def _database_watch(self) -> None:
        """Ping the database twice a second (several processes: leases.py hands the tables
        on while it is away). One ping at a time: a hung link holds one thread, not all."""
        pending: asyncio.Future[None] | None = None
        while True:
            if pending is None or pending.done():
                pending = asyncio.ensure_future(self.store.ping())
                pending.add_done_callback(lambda f: f.cancelled() or f.exception())
            try:
                await asyncio.wait_for(asyncio.shield(pending), PROBE_S)
                self._database_seen = time.monotonic()
            except asyncio.CancelledError:
                raise
            except Exception:
                pass
            await asyncio.sleep(DATABASE_PING_S)

    def database_up(self) -> bool:
        """Whether the database answered lately (always, for one process on its own)."""
        return not self.scaled or time.monotonic() - self._database_seen < DATABASE_SILENT_S

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sweep_interval_s)
            try:
                await self.sweep(time.time())
            except Exception as exc:
                log_failure(log, exc, "sweep failed")
            self.sweeps += 1

    async def sweep(self, now: float) -> None:
        """Expire idle unfinished tables (held or not); let idle tables nobody here watches
        leave memory (they load again on demand), the ones we run with their lease."""
        for tid in await self.store.tables.idle_open(now - self.limits.idle_expiry_s):
            with contextlib.suppress(ApiError):
                await self.repo.submit(tid, lambda t: t.expire(time.time()))
        await self.wake_due(now)
        await self.lobby.sweep(now)
        for tid, table in list(self.repo.tables.items()):
            if not self._idle(tid, now) or self.repo.lock(tid).locked():
                continue
            if not self.leases.owns(tid):
                self.repo.forget(tid)  # (another process runs it, or nobody needs to)
                continue
            if not self.autoplay.may_unload(table, now):
                continue
            try:
                async with self.repo.lock(tid):
                    # nothing may change it meanwhile: a move waits, then loads it again
                    if self.repo.tables.get(tid) is not table or not self._idle(tid, now):
                        continue
                    if table.slow:  # (its deadline, again: a write may have failed)
                        await self.repo.keep_deadline(table)
                    await self.autoplay.unload(table)
                    self.repo.forget(tid)
            finally:
                self.repo.drop_lock(tid)

    async def wake_due(self, now: float) -> None:
        """Slow tables whose deadline has come (deadlines.py: one indexed query): the one
        process that gets a table's lease takes it up from its log, and its clock's timeout
        makes the seat lose (autoplay.py). The log decides the rest: a timeout is one event
        at one version, fenced by the lease's epoch, so it is written once whoever tries."""
        try:
            due = await self.store.deadlines.due(now)
        except Exception as exc:  # the database is away: the next round asks again
            log_failure(log, exc, "slow tables' deadlines not read")
            return
        for tid in due:
            try:
                table = self.repo.tables.get(tid)
                if table is None or not self.leases.owns(tid):
                    if not await self.leases.acquire(tid):
                        continue  # another process runs it (and its timer)
                    await self.autoplay.gained(tid)
                    table = self.repo.tables.get(tid)
                else:
                    self.autoplay.after(table)  # held and run here: its timer, set again
                if table is not None:
                    deadline = clocks.next_deadline(table)
                    if deadline is None or deadline > now:
                        # the row was behind the log (a write that failed, or a clock taken
                        # back): the table says when, not the row
                        await self.repo.keep_deadline(table)
            except Exception as exc:
                log_failure(log, exc, "table %s could not be woken for its deadline", tid)

    def _idle(self, tid: str, now: float) -> bool:
        """Idle: no event for `unload_after_s` (`slow_unload_after_s` for a slow table; nor
        loaded that recently), no socket here, nobody following it in the lobby."""
        table = self.repo.tables.get(tid)
        if table is None:
            return False
        after = self.settings.slow_unload_after_s if table.slow else self.settings.unload_after_s
        return (
            now - max(table.last_at, self.repo.loaded_at.get(tid, 0.0)) > after
            and not self.sockets.has(tid)
            and not self.lobby.follows(tid)
        )

    def redis_up(self) -> bool:
        """Whether Redis answers now (always, for one process on its own)."""
        return not self.scaled or (
            self.bus.connected and time.monotonic() - self._redis_seen < REDIS_SILENT_S
        )

    def gauges(self) -> dict[str, tuple[str, float]]:
        """The process's gauges for a scrape (metrics.py; read from the scrape's thread: a
        count caught mid-change is read again)."""
        for _ in range(3):
            try:
                sockets = self.sockets.count()
                break
            except RuntimeError:  # the dict changed size under the iteration
                continue
        else:
            sockets = -1
        return {
            "vertex_tables_held": ("Tables in this process's memory", len(self.repo.tables)),
            "vertex_tables_owned": (
                "Tables whose lease this process holds",
                len(self.leases.owned),
            ),
            "vertex_sockets_open": ("Table sockets open on this process", sockets),
            "vertex_redis_up": ("Redis answers (1 without Redis)", float(self.redis_up())),
            "vertex_database_up": (
                "The database answered lately (1 for one process on its own)",
                float(self.database_up()),
            ),
            "vertex_computer_pondering_threads": (
                "Threads this process's computer workers run on their opponents' time, at "
                "idle priority (level 5 of the Dots family, between its thinks)",
                self.autoplay.thinker.pondering(),
            ),
        }

    async def health(self) -> dict[str, Any]:
        """What `/healthz` says: `degraded` while Redis (several processes) or the database
        does not answer."""
        database = await _probe(self.store.ping())
        redis = self.redis_up()
        status = "ok" if database and redis else "degraded"
        return {
            "ok": status == "ok",
            "status": status,
            "database_up": database,
            "redis_up": redis if self.scaled else None,
            "reconciled": self.reconciled,
            "worker": self.worker,
            "tables": len(self.repo.tables),
            "loaded": self.repo.loaded_count,
            "owned": len(self.leases.owned),
            "thinks": self.autoplay.thinks,
            "sockets": self.sockets.count(),
            "database": self.store.engine.dialect.name,
            "bus": self.parts.bus_name,
            "limits": asdict(self.limits),
            "lobby": self.lobby.health(),
        }


#: A health probe that takes longer than this has failed.
PROBE_S = 1.0


#: Redis counts as away when no ping has been answered for this long.
REDIS_SILENT_S = 1.5
#: The database is pinged this often (several processes), and counts as away (its tables
#: handed on) when no ping has been answered for this long.
DATABASE_PING_S = 0.5
DATABASE_SILENT_S = 2.0


async def _probe(call: Awaitable[Any]) -> bool:
    # (for the database only: its calls run in threads, which a timeout here leaves alone)
    try:
        await asyncio.wait_for(call, PROBE_S)
    except Exception:
        return False
    return True
