"""The lobby's spectator counts, summed over the processes.

Each process counts its share of the spectators per table (live/watching.py tells it: the
addresses watching there that no process before it holds too, so the shares add up to the
site's count of addresses) and sends each change over the lobby's bus (`{"watch": table,
"worker", "n"}`); the others keep a count per process and show the sum. Two things would
leave a count wrong for ever: a message the bus lost, and a process that died (it never
says its spectators left). So each sweep every process also sends its whole list
(`{"watching": {table: n}, "worker"}`), which replaces what the others had of it, and a
process not heard from in `SILENT_SWEEPS` sweeps loses its counts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from vertex.server.lobby.index import LobbyIndex

if TYPE_CHECKING:
    from vertex.server.compute.autoplay import Autoplay
    from vertex.server.lobby.shared import LocalShared, RedisShared

#: Sweeps a process may miss before the others drop its spectator counts (it died).
SILENT_SWEEPS = 3

Changes = dict[str | None, dict[str, Any]]


class Hub(Protocol):
    worker: str
    scaled: bool
    autoplay: Autoplay


class Watchers:
    def __init__(
        self,
        index: LobbyIndex,
        shared: LocalShared | RedisShared,
        hub: Hub,
        send: Callable[[Changes], None],
        filters: Callable[[], list[str | None]],
    ) -> None:
        self.index = index
        self.shared = shared
        self.hub = hub
        self.send = send
        self.filters = filters
        self.sweeps = 0  # other processes' counts are dated by this process's sweeps

    def local(self, tid: str, n: int) -> None:
        """This process's share of listed table `tid`'s spectators is `n` now."""
        if self.index.get(tid) is None:
            return
        worker = self.hub.worker
        self.send(self.index.set_watching(tid, worker, n, self.filters()))
        self.hub.autoplay.spawn(self.shared.publish({"watch": tid, "worker": worker, "n": n}))

    def heard(self, msg: dict[str, Any]) -> None:
        """Another process's change (`watch`) or whole list (`watching`)."""
        worker = str(msg["worker"])
        self.index.heard[worker] = self.sweeps
        if "watch" in msg:
            self._set(str(msg["watch"]), worker, int(msg["n"]))
            return
        counts: dict[str, int] = msg["watching"]
        for tid in set(self.index.counts_of(worker)) | set(counts):
            if self.index.get(tid) is not None or tid in self.index.watch:
                self._set(tid, worker, int(counts.get(tid, 0)))

    async def sweep(self) -> None:
        """Send this process's whole list; drop the counts of processes gone silent."""
        self.sweeps += 1
        me = self.hub.worker
        if self.hub.scaled:
            await self.shared.publish({"watching": self.index.counts_of(me), "worker": me})
        for worker in self.index.silent(self.sweeps, SILENT_SWEEPS, me):
            for tid in self.index.counts_of(worker):
                self._set(tid, worker, 0)

    def _set(self, tid: str, worker: str, n: int) -> None:
        self.send(self.index.set_watching(tid, worker, n, self.filters()))
