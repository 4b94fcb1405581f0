"""The worker pools that keep thinking off the event loop (computer seats and analysis).

One builder for both: a spawned process (the server's default: a fresh interpreter, so a
search that overruns can be killed) or threads (`Settings.ai_executor = "thread"`, for
in-process tests and small set-ups).
"""

from __future__ import annotations

import contextlib
import multiprocessing
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
    """One worker process (`kind == "process"`) or `threads` threads named `name`."""
    if kind == "process":
        ctx = multiprocessing.get_context("spawn")
        return ProcessPoolExecutor(
            max_workers=1, mp_context=ctx, initializer=initializer, initargs=initargs
        )
    return ThreadPoolExecutor(
        max_workers=threads, thread_name_prefix=name, initializer=initializer, initargs=initargs
    )


def kill_pool(pool: Executor) -> None:
    """Drop a pool at once: its processes are killed (threads cannot be; they finish alone)."""
    if isinstance(pool, ProcessPoolExecutor):
        for proc in list(getattr(pool, "_processes", {}).values()):
            with contextlib.suppress(Exception):
                proc.kill()
    pool.shutdown(wait=False, cancel_futures=True)
