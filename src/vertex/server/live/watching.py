"""Spectators: how many watch a table, summed over every process, told to its sockets.

A spectator is a socket without a seat token. Several tabs of one browser count once here:
the page sends a random `viewer` id it keeps (`?viewer=…`); sockets with the same id at one
table on one process are one spectator (an id only merges sockets, so a client cannot make
itself count more than the sockets it opens). Tabs of one browser on two processes count
twice: rare, and never more than the sockets.

The count is coalesced: a socket coming or going only marks its table, and one loop at most
every `tick_s` works out the tables marked and sends `{"t": "watching", "n": …}` to their
sockets where the number changed; a newcomer hears the number as known at once. 1,000
spectators connecting cost each socket at most one message a second, never one per connect.

With several processes each one keeps its count per table in a Redis hash (one field per
process, stamped with an expiry it renews each tick: process_fields.py, as for seats) and reads
the others' back each tick; a process that dies drops out within `ttl_s`. The lobby's entries
(lobby/place.py `watchers`) hear this process's count from the same loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Callable

from vertex.server.live.conn import Conn
from vertex.server.live.sockets import Sockets, dumps
from vertex.server.site.process_fields import ProcessFields
from vertex.server.tasks import stop_task

log = logging.getLogger("vertex.server")

WATCHING = "vertex:watching:"
#: What a page's viewer id may look like (anything else counts as its own socket).
VIEWER = re.compile(r"^[A-Za-z0-9_-]{8,40}$")
#: Seconds between two updates of one table's count (and reads of the other processes').
TICK_S = 1.0


class LocalCounts:
    """One process: nobody else has spectators."""

    async def publish(self, counts: dict[str, int]) -> None:
        return None

    async def remote(self, tids: list[str]) -> dict[str, int]:
        return {}

    async def close(self) -> None:
        return None


class RedisCounts:
    def __init__(self, url: str, me: str, ttl_s: float, site: str = "vertex") -> None:
        self.fields = ProcessFields(url, me, ttl_s, WATCHING.replace("vertex:", site + ":", 1))

    async def publish(self, counts: dict[str, int]) -> None:
        """This process's spectators per table (0: none here any more)."""
        await self.fields.write({tid: str(n) if n else None for tid, n in counts.items()})

    async def remote(self, tids: list[str]) -> dict[str, int]:
        """The other live processes' spectators, per table."""
        got = await self.fields.read(tids)
        return {tid: sum(int(n) for n in values) for tid, values in got.items()}

    async def close(self) -> None:
        await self.fields.close()


class Watching:
    def __init__(
        self,
        sockets: Sockets,
        counts: LocalCounts | RedisCounts,
        tick_s: float,
        lobby: Callable[[str, int], None],
    ) -> None:
        self.sockets = sockets
        self.counts = counts
        self.shared = isinstance(counts, RedisCounts)
        self.tick_s = tick_s
        self.lobby = lobby  # this process's count changed: the lobby's entry hears it
        self.viewers: dict[str, dict[str, int]] = {}  # table -> viewer key -> sockets
        self.keys: dict[Conn, str] = {}
        self.remote: dict[str, int] = {}  # other processes' spectators, as last read
        self.shown: dict[str, int] = {}  # what this table's sockets heard last
        self.published: dict[str, int] = {}  # this process's count as others know it
        self.newcomers: dict[str, dict[Conn, int]] = {}  # told a number before the tick
        self.dirty: set[str] = set()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="vertex-watching")

    async def stop(self) -> None:
        await stop_task(self._task)
        with contextlib.suppress(Exception):
            await self.counts.publish({tid: 0 for tid in self.published})
        await self.counts.close()

    def local(self, tid: str) -> int:
        return len(self.viewers.get(tid, ()))

    def total(self, tid: str) -> int:
        return self.local(tid) + self.remote.get(tid, 0)

    # ---- sockets come and go ----------------------------------------------------------------
    def joined(self, conn: Conn, viewer: str | None) -> None:
        """A socket attached (after its snapshot): it hears the number as known now."""
        tid = conn.table_id
        if conn.seat is None:
            key = viewer if viewer is not None and VIEWER.match(viewer) else f"socket:{id(conn)}"
            self.keys[conn] = key
            mine = self.viewers.setdefault(tid, {})
            mine[key] = mine.get(key, 0) + 1
            self._mark(tid)
        n = self.total(tid)
        conn.send(dumps({"t": "watching", "n": n}))
        if n != self.shown.get(tid):
            self.newcomers.setdefault(tid, {})[conn] = n
            self._mark(tid)

    def left(self, conn: Conn) -> None:
        tid = conn.table_id
        waiting = self.newcomers.get(tid)
        if waiting is not None:
            waiting.pop(conn, None)
        key = self.keys.pop(conn, None)
        if key is None:
            return
        mine = self.viewers.get(tid, {})
        if mine.get(key, 0) <= 1:
            mine.pop(key, None)
            if not mine:
                self.viewers.pop(tid, None)
        else:
            mine[key] -= 1
        self._mark(tid)

    def _mark(self, tid: str) -> None:
        self.dirty.add(tid)
        self._wake.set()

    # ---- the loop ---------------------------------------------------------------------------
    async def _loop(self) -> None:
        while True:
            if not self.shared:  # (others' counts change without us: read them each tick)
                await self._wake.wait()
            self._wake.clear()
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis is away: the next tick tries again
                log.warning("spectator counts not updated: %r", exc)
            await asyncio.sleep(self.tick_s)  # at most one update a table each tick

    async def tick(self) -> None:
        """Publish our changed counts, read the others', tell the sockets what changed."""
        dirty, self.dirty = self.dirty, set()
        changed = {t: self.local(t) for t in dirty if self.local(t) != self.published.get(t, 0)}
        for tid, n in changed.items():
            self.lobby(tid, n)
        if self.shared:
            held = {t: self.local(t) for t in self.viewers}
            watched = [t for t in self.sockets.conns if self.sockets.conns[t]]
            try:
                await self.counts.publish({**held, **changed})  # renews our fields' expiry
                got = await self.counts.remote(watched)
            except Exception:
                self.dirty |= dirty  # tried again next tick
                raise
            self.remote = {t: n for t, n in got.items() if n}
            dirty |= set(watched)
        for tid, n in changed.items():
            if n:
                self.published[tid] = n
            else:
                self.published.pop(tid, None)
        for tid in dirty:
            self._push(tid)

    def _push(self, tid: str) -> None:
        conns = self.sockets.conns.get(tid)
        waiting = self.newcomers.pop(tid, {})
        if not conns:
            self.shown.pop(tid, None)
            self.remote.pop(tid, None)
            return
        n = self.total(tid)
        text = dumps({"t": "watching", "n": n})
        if n != self.shown.get(tid):
            self.shown[tid] = n
            for conn in conns:
                if waiting.get(conn) != n:  # (a newcomer greeted with n has it)
                    conn.send(text)
            return
        for conn, told in waiting.items():  # the rest heard n already
            if told != n and conn in conns:
                conn.send(text)
