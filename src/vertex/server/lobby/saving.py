"""The lobby's summaries saved in batches: each listed table's latest summary waits here and
one write saves whatever has gathered (a burst of moves makes one write).

`flush` saves at once: before a Play now lock is let go, the next holder (on any process)
reads the rows.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from vertex.server.lobby.rows import LobbyRows
from vertex.server.site.faults import log_failure
from vertex.server.tasks import stop_task

log = logging.getLogger("vertex.server")


class Saving:
    def __init__(self, rows: LobbyRows) -> None:
        self.rows = rows
        self._dirty: dict[str, dict[str, Any]] = {}
        self._saving = asyncio.Lock()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="vertex-lobby-save")

    async def stop(self) -> None:
        await stop_task(self._task)
        with contextlib.suppress(Exception):
            await self.flush()

    def later(self, entry: dict[str, Any]) -> None:
        """Save this table's summary with the next batch (it replaces one waiting)."""
        self._dirty[entry["id"]] = entry
        self._wake.set()

    def drop(self, tid: str) -> None:
        """The table left the list: its waiting summary is not saved."""
        self._dirty.pop(tid, None)

    async def flush(self) -> None:
        """Save the summaries not saved yet."""
        async with self._saving:
            batch, self._dirty = self._dirty, {}
            if batch:
                await self.rows.save(list(batch.values()), time.time())

    async def _loop(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            await asyncio.sleep(0.05)  # a burst of moves makes one write
            try:
                await self.flush()
            except Exception as exc:
                log_failure(log, exc, "lobby rows not saved")
