"""Spectators: how many watch a table, over every process, told to its sockets.

A spectator is a socket without a seat token, and the count counts viewers, not sockets:
the sockets of one client address at a table count once (its tabs, a reloading page, or
3,000 idle sockets of a script: issue 37), on one process and across processes. So a
household or a classroom behind one address counts once too; behind a proxy the address is
the one `VERTEX_TRUSTED_PROXIES` reads (site/addresses.py), and a proxy that is not trusted
makes every spectator one address. (The page's `?viewer=` id is no longer read: an address
bounds what a client can make the count say, an id of its own choosing would not.)

The count is coalesced: a socket coming or going only marks its table, and one loop at most
every `tick_s` works out the tables marked and sends `{"t": "watching", "n": …}` to their
sockets where the number changed; a newcomer hears the number as known at once. 1,000
spectators connecting cost each socket at most one message a second, never one per connect,
and a socket whose address is counted already changes nothing and sends nothing to the
others.

With several processes each one keeps, per table, the addresses of its spectators in a
Redis hash (one field per process, stamped with an expiry it renews each tick:
process_fields.py, as for seats) as short digests, and reads the others' back each tick: the
count is the size of the union. The field is bounded: past `LISTED` addresses at one table a
process gives only its number, which is added (an address on two such processes may then
count twice; never a socket more than once per process). A process that dies drops out
within `ttl_s`.

The lobby (lobby/watchers.py) sums one number per process, so each process tells it its
share: its addresses that no process before it (in the order of their worker ids) holds
too. The shares add up to the site's count.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from vertex.server.live.conn import Conn
from vertex.server.live.sockets import Sockets, dumps
from vertex.server.live.viewers import LocalCounts, RedisCounts, TableCount, encode, viewer_key
from vertex.server.tasks import stop_task

log = logging.getLogger("vertex.server")

#: Seconds between two updates of one table's count (and reads of the other processes').
TICK_S = 1.0


class Watching:
    def __init__(
        self,
        sockets: Sockets,
        counts: LocalCounts | RedisCounts,
        tick_s: float,
        lobby: Callable[[str, int], None],
        me: str = "",
    ) -> None:
        self.sockets = sockets
        self.counts = counts
        self.shared = isinstance(counts, RedisCounts)
        self.me = me  # this process's worker id (the order of the lobby's shares)
        self.tick_s = tick_s
        self.lobby = lobby  # this process's share changed: the lobby's entry hears it
        self.tables: dict[str, TableCount] = {}  # tables with spectators here, or watched
        self.keys: dict[Conn, str] = {}
        self.shown: dict[str, int] = {}  # what this table's sockets heard last
        self.told: dict[str, int] = {}  # the lobby's share of this process, as told
        self.published: set[str] = set()  # tables whose field of ours others may read
        self.newcomers: dict[str, dict[Conn, int]] = {}  # told a number before the tick
        self.dirty: set[str] = set()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="vertex-watching")

    async def stop(self) -> None:
        await stop_task(self._task)
        with contextlib.suppress(Exception):
            await self.counts.publish(dict.fromkeys(self.published))
        await self.counts.close()

    def local(self, tid: str) -> int:
        """The addresses watching the table on this process."""
        count = self.tables.get(tid)
        return len(count.mine) if count else 0

    def total(self, tid: str) -> int:
        count = self.tables.get(tid)
        return count.total() if count else 0

    # ---- sockets come and go ----------------------------------------------------------------
    def joined(self, conn: Conn, address: str) -> None:
        """A socket attached (after its snapshot): it hears the number as known now."""
        tid = conn.table_id
        if conn.seat is None:
            key = self.keys[conn] = viewer_key(address)
            count = self.tables.get(tid)
            if count is None:
                count = self.tables[tid] = TableCount()
            if count.add(key):
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
        count = self.tables.get(tid)
        if key is None or count is None:
            return
        if count.remove(key):
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
        """Publish our spectators, read the others', tell the lobby and the sockets what
        changed."""
        dirty, self.dirty = self.dirty, set()
        if self.shared:
            held = {t: encode(c.mine) for t, c in self.tables.items() if c.mine}
            gone = [t for t in self.published if t not in held]
            watched = [t for t in self.sockets.conns if self.sockets.conns[t]]
            try:
                # every tick: renews our fields' expiry
                await self.counts.publish({**held, **dict.fromkeys(gone)})
                got = await self.counts.remote(watched)
            except Exception:
                self.dirty |= dirty  # tried again next tick
                raise
            self.published = set(held)
            for tid in watched:
                fields = got.get(tid, {})
                count = self.tables.get(tid)
                if count is None and fields:
                    count = self.tables[tid] = TableCount()
                if count is not None:
                    count.heard(fields, self.me)
            dirty |= set(watched)
        for tid in dirty:
            self._tell_lobby(tid)
            self._push(tid)

    def _tell_lobby(self, tid: str) -> None:
        count = self.tables.get(tid)
        n = count.share() if count else 0
        if n == self.told.get(tid, 0):
            return
        if n:
            self.told[tid] = n
        else:
            self.told.pop(tid, None)
        self.lobby(tid, n)

    def _push(self, tid: str) -> None:
        conns = self.sockets.conns.get(tid)
        waiting = self.newcomers.pop(tid, {})
        count = self.tables.get(tid)
        if count is not None and not count.mine and (not conns or count.empty()):
            del self.tables[tid]  # (bounded: only tables with sockets here)
        if not conns:
            self.shown.pop(tid, None)
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
