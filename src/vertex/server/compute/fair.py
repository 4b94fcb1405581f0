"""Fair shares of a few workers: a queue per key (a client address), round-robin between keys.

Computer seats (ai_runner.py) and analyses (analysis.py) each run on a small pool of workers.
Whoever asks takes a turn here first: `slots` turns run at once (one per worker, so nothing
waits inside the pool, where the order would be first come first served), at most `per_key`
of them for one key, and when a turn ends the next one goes to the key, of those with work
waiting, that was served longest ago. Within a key turns are first come, first served; a table asks
for one computer move at a time, so one address's tables take turns among themselves too.

One address with twenty busy tables then holds at most `per_key` workers, and another
address's turn starts as soon as a worker is free (at once, when `per_key` < `slots`).

Each process schedules its own pool: its workers are its own, and a site-wide count in
Redis would cost two round trips per computer move for what the per-process cap already
gives (in every process, some worker is never held by one address).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from vertex.server.metrics import QUEUE_WAIT_SECONDS, QUEUE_WAITING

#: Keys whose last turn is remembered (a key forgotten counts as served long ago).
SERVED_KEPT = 10_000


class Full(Exception):
    """The key already has as many turns waiting as it may (`most_waiting`)."""


class FairShare:
    def __init__(
        self, slots: int, per_key: int, most_waiting: int | None = None, pool: str = "computer"
    ) -> None:
        # the metrics' label: turns waiting and how long (metrics.py)
        self._waiting = QUEUE_WAITING.labels(pool)
        self._waited = QUEUE_WAIT_SECONDS.labels(pool)
        self.slots = max(1, slots)
        self.per_key = max(1, min(per_key, self.slots))
        self.most_waiting = most_waiting  # per key; None: no limit
        self.running: dict[str, int] = {}
        self.busy = 0
        self.queues: dict[str, deque[asyncio.Future[int]]] = {}  # keys with turns waiting
        #: When each key last had a turn (a count), oldest first; bounded.
        self.served: OrderedDict[str, int] = OrderedDict()
        self._turns = 0

    def waiting(self, key: str | None = None) -> int:
        if key is not None:
            return len(self.queues.get(key, ()))
        return sum(len(q) for q in self.queues.values())

    @asynccontextmanager
    async def turn(self, key: str) -> AsyncIterator[int]:
        """Wait for `key`'s turn, hold it for the block; it gives the turns still waiting
        when this one was granted (the ones granted with it are not counted). Raises Full
        (at once) when the key has `most_waiting` turns waiting already."""
        start = time.perf_counter()
        behind = await self._take(key)
        self._waited.observe(time.perf_counter() - start)
        try:
            yield behind
        finally:
            self._give_back(key)

    async def _take(self, key: str) -> int:
        if key not in self.queues and self._free(key):
            self._start(key)
            return self.waiting()
        queue = self.queues.get(key)
        if queue is not None and self.most_waiting is not None and len(queue) >= self.most_waiting:
            raise Full(key)
        fut: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        if queue is None:
            queue = self.queues[key] = deque()
        queue.append(fut)
        self._waiting.inc()
        try:
            return await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():
                self._give_back(key)  # granted just as the waiter was cancelled
            else:
                self._drop(key, fut)
            raise

    def _free(self, key: str) -> bool:
        return self.busy < self.slots and self.running.get(key, 0) < self.per_key

    def _start(self, key: str) -> None:
        self.busy += 1
        self.running[key] = self.running.get(key, 0) + 1
        self._turns += 1
        self.served[key] = self._turns
        self.served.move_to_end(key)
        if len(self.served) > SERVED_KEPT:
            self.served.popitem(last=False)

    def _give_back(self, key: str) -> None:
        self.busy -= 1
        left = self.running[key] - 1
        if left:
            self.running[key] = left
        else:
            del self.running[key]
        self._next()

    def _drop(self, key: str, fut: asyncio.Future[int]) -> None:
        queue = self.queues.get(key)
        if queue is None:
            return
        with contextlib.suppress(ValueError):  # handed its turn meanwhile
            queue.remove(fut)
            self._waiting.dec()
        if not queue:
            del self.queues[key]

    def _next(self) -> None:
        """Hand free workers to the keys in turn: of the keys with work waiting and under
        their cap, the one served longest ago."""
        while self.busy < self.slots:
            ready = [k for k in self.queues if self.running.get(k, 0) < self.per_key]
            if not ready:
                return
            key = min(ready, key=lambda k: self.served.get(k, 0))
            queue = self.queues[key]
            fut = queue.popleft()
            self._waiting.dec()
            if not queue:
                del self.queues[key]
            if fut.cancelled():
                continue
            self._start(key)
            fut.set_result(self.waiting())
