"""Background loops stop even when one cancellation is swallowed (as redis-py may do)."""

from __future__ import annotations

import asyncio

from vertex.server.tasks import stop_task


def test_a_loop_that_outlives_one_cancellation_is_stopped() -> None:
    async def go() -> list[str]:
        seen: list[str] = []
        running = asyncio.Event()

        async def stubborn() -> None:
            while True:
                try:
                    running.set()
                    await asyncio.Event().wait()  # works until cancelled
                except asyncio.CancelledError:
                    if seen:  # the second time: it gives in
                        raise
                    seen.append("swallowed")  # a library turned it into an error; loop on

        task = asyncio.create_task(stubborn())
        await running.wait()
        await stop_task(task)
        assert task.done() and task.cancelled()
        await stop_task(None)  # nothing to stop
        return seen

    assert asyncio.run(go()) == ["swallowed"]
