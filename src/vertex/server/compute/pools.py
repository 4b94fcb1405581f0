"""The worker pools that keep thinking off the event loop (computer seats and analysis).

One builder for both: a spawned process (the server's default: a fresh interpreter, so a
search that overruns can be killed) or threads (`Settings.ai_executor = "thread"`, for
in-process tests and small set-ups).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any


def make_pool(
    kind: str,
    *,
    name: str,
    threads: int = 1,
    initializer: Callable[..., None] | None = None,
    initargs: tuple[Any, ...] = (),
) -> Executor:
    """One worker process (`kind == "process"`) or `threads` threads named `name`.

    A worker process ends when the server does, even when the server is killed (`kill -9`
    runs no clean-up): it watches its parent."""
    if kind == "process":
        ctx = multiprocessing.get_context("spawn")
        return ProcessPoolExecutor(
            max_workers=1,
            mp_context=ctx,
            initializer=_start_worker,
            initargs=(os.getpid(), initializer, initargs),
        )
    return ThreadPoolExecutor(
        max_workers=threads, thread_name_prefix=name, initializer=initializer, initargs=initargs
    )


#: How often a worker process checks that the server that started it still lives.
PARENT_CHECK_S = 0.5


def _start_worker(
    parent: int, initializer: Callable[..., None] | None, initargs: tuple[Any, ...]
) -> None:
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    if initializer is not None:
        initializer(*initargs)


def _watch_parent(parent: int) -> None:
    # An orphan is adopted by another process (its parent id changes): end at once, whatever
    # the worker is in the middle of.
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_S)
    os._exit(0)


def kill_pool(pool: Executor) -> None:
    """Drop a pool at once: its processes are killed (threads cannot be; they finish alone)."""
    if isinstance(pool, ProcessPoolExecutor):
        for proc in list(getattr(pool, "_processes", {}).values()):
            with contextlib.suppress(Exception):
                proc.kill()
    pool.shutdown(wait=False, cancel_futures=True)


def stop_pool(pool: Executor, wait_s: float) -> None:
    """Stop a pool: the work it is on is waited for up to `wait_s` seconds, then its
    processes are killed (a search stuck in a loop would hold the server's stop for ever);
    a pool of threads is waited for (threads cannot be killed)."""
    if not isinstance(pool, ProcessPoolExecutor):
        pool.shutdown(wait=True, cancel_futures=True)
        return
    procs = list(getattr(pool, "_processes", {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    until = time.monotonic() + wait_s
    for proc in procs:
        proc.join(max(0.0, until - time.monotonic()))
        if proc.is_alive():
            with contextlib.suppress(Exception):
                proc.kill()
                proc.join(1.0)


class Slots:
    """Which worker a table's next job goes to: a free one, the table's last if it is free
    (that worker keeps the table's search state warm). Remembers the last `keep` tables."""

    def __init__(self, workers: int, keep: int) -> None:
        self.idle = list(range(workers))
        self._last: OrderedDict[str, int] = OrderedDict()  # table -> its last worker
        self._keep = keep

    def take(self, table: str) -> int:
        """A free worker's index (the callers never ask for more than there are)."""
        last = self._last.get(table)
        i = last if last is not None and last in self.idle else self.idle[-1]
        self.idle.remove(i)
        self._last[table] = i
        self._last.move_to_end(table)
        while len(self._last) > self._keep:
            self._last.popitem(last=False)
        return i

    def give_back(self, i: int) -> None:
        self.idle.append(i)
