"""Waiting for something another thread, process or task does: `eventually(check)` asks
`check()` until it gives a truthy value and returns that value, or fails the test with a
clear message after `timeout` seconds; `eventually(fetch, until=ok)` returns the first
`fetch()` for which `ok(value)` holds. Every polling loop in the tests goes through here, so
none can spin for ever when a regression means the awaited thing never happens.

The deadlines are generous (the machines that run the suite are small and shared): they
exist to turn a hang into a failure, not to measure speed.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

#: Seconds to wait by default: far beyond any healthy wait, short beside a CI run.
TIMEOUT = 30.0


def _fail(what: str, timeout: float, last: object) -> AssertionError:
    return AssertionError(f"{what} did not happen within {timeout:g} s (last seen: {last!r})")


def eventually(
    check: Callable[[], T],
    until: Callable[[T], object] = bool,
    timeout: float = TIMEOUT,
    interval: float = 0.01,
    what: str = "",
) -> T:
    """`check()`'s first value that `until` accepts (by default: a truthy one), asked every
    `interval` s; AssertionError at the deadline."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if until(value):
            return value
        if time.monotonic() >= deadline:
            raise _fail(what or getattr(check, "__name__", "the awaited condition"), timeout, value)
        time.sleep(interval)


async def eventually_async(
    check: Callable[[], T | Awaitable[T]],
    timeout: float = TIMEOUT,
    interval: float = 0.01,
    what: str = "",
) -> T:
    """`eventually` for the event loop: `check` may be a coroutine function; waits with
    `asyncio.sleep`, so the tasks it waits for run meanwhile."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if isinstance(value, Awaitable):
            value = await value
        if value:
            return value  # type: ignore[return-value]
        if time.monotonic() >= deadline:
            raise _fail(what or getattr(check, "__name__", "the awaited condition"), timeout, value)
        await asyncio.sleep(interval)


__all__ = ["TIMEOUT", "eventually", "eventually_async"]
