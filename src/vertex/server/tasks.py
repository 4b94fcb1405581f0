"""Stopping the server's background loops (lease renewal, the bus, presence, sweeping)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

log = logging.getLogger("vertex.server")


async def stop_task(task: asyncio.Task[Any] | None, tries: int = 20) -> None:
    """Cancel `task` and wait until it has ended, cancelling again while it runs on.

    One cancellation is not always enough: a library may swallow it in the middle of a call
    (redis-py can turn it into a connection error, which a loop's `except Exception` then
    outlives), and a loop that keeps running would hang the shutdown waiting for it.
    """
    if task is None:
        return
    for _ in range(tries):
        if task.done():
            break
        task.cancel()
        await asyncio.wait({task}, timeout=0.5)
    if not task.done():
        log.warning("task %s did not stop", task.get_name())
        return
    with contextlib.suppress(asyncio.CancelledError, Exception):
        task.result()
