"""The analyses' workers: a pool of one (a process or a thread) per core, each with its cancel
flag, shared fairly between client addresses (fair.py), with the exact answers cached.

A worker that overruns its time limit is abandoned (a process is killed); one whose client
left is told to stop (its cancel flag, which the solver polls: solving.py) and waited for a
moment. Each client address has one analysis running at a time and a few waiting; the
workers serve the addresses in turn, so one address within its rate cannot keep others
waiting behind its queue.

A worker process that dies (killed for its memory, say) is dropped and the question it was
on asked again of a fresh one; if that one dies too, the client is told to ask again later
(503 busy: the question itself may be what kills them).
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import BrokenExecutor, Executor
from typing import Any

from vertex.core import Game, State
from vertex.server.compute import solving
from vertex.server.compute.fair import FairShare, Full
from vertex.server.compute.pools import Slots, kill_pool, make_pool
from vertex.server.errors import ApiError
from vertex.server.metrics import WORKERS_REPLACED
from vertex.server.settings import Settings
from vertex.server.site.quotas import LocalQuotas, RedisQuotas

log = logging.getLogger("vertex.server")

#: Beyond the time limit, how long the server waits for a worker before abandoning it
#: (a fresh worker process first has to start and import the engines).
GRACE_S = 3.0
START_GRACE_S = 20.0
#: Requests allowed to wait for a worker, all addresses together (each address may have
#: `Settings.analysis_waiting` of them); more are told the server is busy.
MAX_WAITING = 32
#: Exact answers kept (they never change), all tables together.
RESULT_CACHE = 256
#: How often the server looks whether the client who asked is still there.
WATCH_S = 0.2


class Worker:
    """One analysis worker: its pool of one (a process or a thread) and its cancel flag."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.pool: Executor | None = None
        self.cancel: Any = None
        self.fresh = True  # a new process: it has to start and import the engines first

    def executor(self) -> Executor:
        if self.pool is None:
            self.fresh = True
            if self.kind == "process":
                self.cancel = multiprocessing.get_context("spawn").Event()
            else:
                self.cancel = threading.Event()
            self.pool = make_pool(
                self.kind,
                name="vertex-analysis",
                initializer=solving.init_worker,
                initargs=(self.cancel,),
            )
        return self.pool

    def abandon(self) -> None:
        """Drop a worker that overran: a process is killed; a thread (which cannot be) is
        told to stop, and a new one serves the next request."""
        pool, self.pool = self.pool, None
        if self.cancel is not None:
            self.cancel.set()
        if pool is not None:
            kill_pool(pool)

    def died(self) -> None:
        """Drop a worker process found dead: the next question starts a fresh one."""
        log.warning(json.dumps({"event": "worker-died", "pool": "analysis"}))
        WORKERS_REPLACED.labels("analysis").inc()
        self.abandon()

    def close(self) -> None:
        pool, self.pool = self.pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


class Analyst:
    """Runs analyses away from the event loop within the time limit, on a worker per core,
    fairly between client addresses (fair.py): one analysis at a time per address, a few
    waiting, the addresses in turn."""

    def __init__(self, settings: Settings, quotas: LocalQuotas | RedisQuotas) -> None:
        self.kind = settings.ai_executor
        self.limit_s = settings.analysis_time_s
        self.exact_s = settings.analysis_exact_time_s
        self.exact_lines = settings.analysis_exact_lines
        self.quotas = quotas  # shared by every process of the site
        self.burst = settings.analysis_burst
        self.per_minute = settings.analysis_per_minute
        slots = settings.analysts()
        self.workers = [Worker(self.kind) for _ in range(slots)]
        self._slots = Slots(slots, RESULT_CACHE)  # a table's next question: its last worker
        self.share = FairShare(slots, 1, settings.analysis_waiting, pool="analysis")
        self._results: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()

    def limit_for(self, game: Game[Any]) -> float:
        """The time an analysis of `game` may take: longer on boards small enough for the
        solver to settle most positions exactly (`analysis_exact_lines`)."""
        lines = game.move_catalogue()  # a Dots board's moves: its lines
        if game.solver is not None and lines is not None and len(lines) <= self.exact_lines:
            return max(self.limit_s, self.exact_s)
        return self.limit_s

    async def check_rate(self, client: str) -> None:
        if not await self.quotas.take_rate("analysis", client, self.per_minute / 60, self.burst):
            raise ApiError(
                "rate-limited",
                f"too many analyses: at most {self.per_minute:g} a minute from one address "
                "(wait a little and ask again)",
                429,
            )

    async def analyse(
        self,
        state: State,
        table: str = "",
        gone: Callable[[], Awaitable[bool]] | None = None,
        client: str = "",
    ) -> dict[str, Any]:
        """The analysis of `state` at `table`, in `client`'s turn; `gone()` says the client
        left (the work is then cancelled, and ClientGone raised)."""
        key = (state.game.key(), state.seed, state.history)
        cached = self._results.get(key)
        if cached is not None:
            self._results.move_to_end(key)
            return {**cached, "seconds": 0.0}
        if self.share.waiting() >= MAX_WAITING:
            raise _busy()
        try:
            async with self.share.turn(client):
                if gone is not None and await gone():
                    raise ClientGone
                worker = self._take(table)
                try:
                    start = time.monotonic()
                    out = await self._again(worker, lambda: self._run(worker, state, table, gone))
                    out["seconds"] = round(time.monotonic() - start, 3)
                finally:
                    self._slots.give_back(self.workers.index(worker))
        except Full:
            raise _busy() from None
        if out["exact"]:
            self._results[key] = out
            while len(self._results) > RESULT_CACHE:
                self._results.popitem(last=False)
        return out

    async def job(
        self, client: str, table: str, fn: Callable[..., dict[str, Any]], *args: Any, limit_s: float
    ) -> dict[str, Any]:
        """`fn(*args)` (a module-level function of the worker's, JSON in and out) on a worker in
        `client`'s turn, like an analysis: the review (reviewer.py) runs a position at a time
        this way, so it shares the workers fairly with everyone's analyses. Busy (503) when
        the client already has a turn waiting; analysis-timeout when it overruns."""
        try:
            async with self.share.turn(client):
                worker = self._take(table)
                try:
                    return await self._again(worker, lambda: self._call(worker, fn, args, limit_s))
                finally:
                    self._slots.give_back(self.workers.index(worker))
        except Full:
            raise _busy() from None

    async def _call(
        self,
        worker: Worker,
        fn: Callable[..., dict[str, Any]],
        args: tuple[Any, ...],
        limit_s: float,
    ) -> dict[str, Any]:
        work, grace = self._submit(worker, fn, *args)
        try:
            return await asyncio.wait_for(asyncio.shield(work), limit_s + grace)
        except TimeoutError:
            worker.abandon()
            raise _overran() from None

    async def _again(
        self, worker: Worker, attempt: Callable[[], Awaitable[dict[str, Any]]]
    ) -> dict[str, Any]:
        """`attempt()`, and once more on a fresh worker if the worker process was dead or
        died under it (twice: busy, ask again; the work itself may be what kills it)."""
        try:
            return await attempt()
        except BrokenExecutor:
            worker.died()
        try:
            return await attempt()
        except BrokenExecutor:
            worker.died()
            raise _died() from None

    def _submit(self, worker: Worker, fn: Callable[..., Any], *args: Any) -> tuple[Any, float]:
        """`fn(*args)` sent to the worker, and the grace beyond the work's limit (more for a
        process's first work: it starts and imports first)."""
        pool = worker.executor()  # (first: a worker whose executor was abandoned is fresh)
        grace = GRACE_S + (START_GRACE_S if worker.fresh and self.kind == "process" else 0.0)
        worker.fresh = False
        worker.cancel.clear()
        return asyncio.get_running_loop().run_in_executor(pool, fn, *args), grace

    def _take(self, table: str) -> Worker:
        """A free worker (one is: turns never outnumber workers), the table's last one if it
        is free (it keeps that table's solver)."""
        return self.workers[self._slots.take(table)]

    async def _run(
        self,
        worker: Worker,
        state: State,
        table: str,
        gone: Callable[[], Awaitable[bool]] | None,
    ) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        limit = self.limit_for(state.game)
        if self.kind == "process":
            rec = state.record().to_json()
            work, grace = self._submit(worker, solving.analyse_record, rec, limit, table)
        else:
            work, grace = self._submit(worker, solving.analyse_state, state, limit, table)
        until = loop.time() + limit + grace
        while True:
            try:
                out: dict[str, Any] = await asyncio.wait_for(asyncio.shield(work), WATCH_S)
            except TimeoutError:
                if gone is not None and not worker.cancel.is_set() and await gone():
                    await self._stop(worker, work)
                    raise ClientGone from None
                if loop.time() > until:
                    worker.abandon()
                    raise _overran() from None
                continue
            if out.get("cancelled"):
                raise ClientGone
            return out

    async def _stop(self, worker: Worker, work: asyncio.Future[Any]) -> None:
        """Cancel the work and wait the moment it takes to stop (the next question must not
        clear the flag under it); a worker that does not stop is abandoned."""
        worker.cancel.set()
        try:
            await asyncio.wait_for(work, GRACE_S)
        except Exception:
            worker.abandon()

    def close(self) -> None:
        for worker in self.workers:
            worker.close()


def _busy() -> ApiError:
    return ApiError("busy", "the analysis worker is busy; try again in a moment", 503)


class ClientGone(Exception):
    """The client who asked left before the answer: its work was cancelled."""


def _died() -> ApiError:
    return ApiError("busy", "the analysis worker stopped and is starting again; ask again", 503)


def _overran() -> ApiError:
    return ApiError("analysis-timeout", "the analysis overran its time limit and was stopped", 503)
