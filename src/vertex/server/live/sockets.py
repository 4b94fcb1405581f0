"""The sockets of this process, per table: events out to them, and presence for everyone.

Each event goes to every local socket of its table (one text per seat: sealed moves are per
viewer). Presence (which seats are connected) is the union over all processes
(presence.py): a change here is published and announced over the bus, and each process
pushes a `presence` message to its sockets when what they would see changes, including
when another process dies and its seats expire.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from vertex.server.live.conn import Conn, text_frame
from vertex.server.metrics import SOCKETS_CLOSED, SOCKETS_OPENED
from vertex.server.site.bus import LocalBus, RedisBus
from vertex.server.site.faults import log_failure
from vertex.server.site.presence import LocalPresence, RedisPresence
from vertex.server.storage.recent import Sent
from vertex.server.table import views
from vertex.server.table.table import Table
from vertex.server.tasks import stop_task

log = logging.getLogger("vertex.server")


def dumps(msg: dict[str, Any]) -> str:
    return json.dumps(msg, separators=(",", ":"))


#: Sockets that see an event alike unless a seat's own sealed move is in it: (seat or None
#: for a spectator, whether it takes deltas).
Group = tuple[int | None, bool]


#: Sockets a table has here from which a broadcast's CPU time is measured. The thread's CPU
#: clock is a system call, not a vDSO read: on a loaded virtual machine it cost more than
#: the rest of a two-socket broadcast (~7 % of a move in bench_load.py); beside a fan-out
#: to this many sockets it is lost in the writes.
CPU_TIMED = 64


class Fanout(NamedTuple):
    """One event's broadcast: the sockets it went to, and the seconds it took from making
    the first text to the last socket's write, in wall time and in this thread's CPU time
    (which does not depend on what else the machine runs; None: not measured, a table with
    fewer than `CPU_TIMED` sockets here)."""

    sockets: int
    wall_s: float
    cpu_s: float | None


class Sockets:
    def __init__(
        self,
        presence: LocalPresence | RedisPresence,
        bus: LocalBus | RedisBus,
        beat_s: float,
        shared: bool,
    ) -> None:
        self.presence = presence
        self.shared = shared  # other processes have sockets too: publish, and heartbeat
        self.bus = bus
        self.beat_s = beat_s
        self.conns: dict[str, set[Conn]] = {}
        #: per table, its sockets by group (seats first: they are sent to first)
        self.groups: dict[str, dict[Group, set[Conn]]] = {}
        self.sizes: dict[str, int] = {}  # seats per table with sockets here
        #: per table, its seats' sockets here (seat -> how many): who is connected, without
        #: a walk over every spectator's socket at each connect
        self.seated: dict[str, dict[int, int]] = {}
        self.shown: dict[str, list[bool]] = {}  # the presence these sockets last heard
        self._task: asyncio.Task[None] | None = None
        #: Set by the hub: per seat, the seconds before an absent player may be handed over
        #: (absence.py), given who is here; sent with each presence message.
        self.absence: Callable[[str, list[bool]], list[float | None]] = lambda _t, here: [
            None for _ in here
        ]

    async def start(self) -> None:
        if self.shared:
            self._task = asyncio.create_task(self._beat(), name="vertex-presence")

    async def close(self) -> None:
        await stop_task(self._task)
        for tid in list(self.conns):
            with contextlib.suppress(Exception):
                await self.presence.publish(tid, ())

    def count(self) -> int:
        return sum(len(c) for c in self.conns.values())

    def has(self, tid: str) -> bool:
        return bool(self.conns.get(tid))

    # ---- events -----------------------------------------------------------------------------
    def tell(self, tid: str, msg: dict[str, Any]) -> None:
        """A message for every socket of the table here that is in no log (a review's
        progress)."""
        text = dumps(msg)
        for conn in self.conns.get(tid, ()):
            conn.send(text)

    def let_go_player(self, pid: str, text: str) -> int:
        """Send `text` to every socket here a player's key opened, then let them go (their
        key stopped); how many. Rare: a walk over every socket."""
        gone = [c for conns in self.conns.values() for c in conns if c.player == pid]
        for conn in gone:
            conn.send(text)
            conn.close()
        return len(gone)

    def broadcast(self, table: Table, sent: Sent) -> Fanout:
        """One message per kind of viewer, not per socket: its text and its WebSocket frame
        are made once per class (who may see which sealed move, deltas or not) and the same
        bytes go to every socket of the class. The sockets are kept by group (`Group`), so
        the class is worked out once a group, not once a socket; the seats' groups go first
        (a player waits on the move, a spectator watches it)."""
        began = time.perf_counter()
        timed = len(self.conns.get(table.id, ())) >= CPU_TIMED
        cpu = time.thread_time() if timed else 0.0
        sealed = sent.sealed
        frames: dict[Group, tuple[str, bytes]] = {}
        groups = self.groups.get(table.id, {})
        n = 0
        for (seat, deltas), conns in groups.items():
            # a seat sees its own sealed move; every other viewer sees the same
            key = (seat if sealed and seat in sealed else None, deltas)
            made = frames.get(key)
            if made is None:
                if not sealed - {key[0]}:  # nothing hidden: the text recent.py keeps
                    text = sent.text(deltas)
                else:
                    msg = sent.for_deltas() if deltas else sent.msg
                    text = dumps(views.for_viewer(msg, key[0], sealed))
                made = frames[key] = (text, text_frame(text))
            text, frame = made
            for conn in conns:
                conn.send_frame(text, frame)
            n += len(conns)
        wall = time.perf_counter() - began
        return Fanout(n, wall, time.thread_time() - cpu if timed else None)

    # ---- presence ---------------------------------------------------------------------------
    def local_seats(self, tid: str) -> frozenset[int]:
        return frozenset(self.seated.get(tid, ()))

    async def connected(self, tid: str, n: int) -> list[bool]:
        """Which of the table's `n` seats have a socket open on any process."""
        seats = self.local_seats(tid) | await self.presence.remote(tid)
        return [s in seats for s in range(n)]

    def add(self, conn: Conn, n: int, before: list[bool]) -> None:
        tid = conn.table_id
        conns = self.conns.setdefault(tid, set())
        if conn in conns:
            return
        conns.add(conn)
        SOCKETS_OPENED.inc()
        groups = self.groups.setdefault(tid, {})
        if conn.seat is not None and (conn.seat, conn.deltas) not in groups:
            # seats before spectators; then in the order they came
            groups = self.groups[tid] = {
                (conn.seat, conn.deltas): set(),
                **groups,
            }
        groups.setdefault((conn.seat, conn.deltas), set()).add(conn)
        if conn.seat is not None:
            seated = self.seated.setdefault(tid, {})
            seated[conn.seat] = seated.get(conn.seat, 0) + 1
        self.sizes[tid] = n
        self.shown.setdefault(tid, before)

    def remove(self, conn: Conn) -> bool:
        """Forget a socket; True if its seat is no longer connected here."""
        tid = conn.table_id
        conns = self.conns.get(tid)
        if conns is None or conn not in conns:
            return False
        conns.discard(conn)
        SOCKETS_CLOSED.inc()
        groups = self.groups[tid]
        group = groups[conn.seat, conn.deltas]
        group.discard(conn)
        if not group:
            del groups[conn.seat, conn.deltas]
        gone = False  # the last socket of its seat here
        seated = self.seated.get(tid, {})
        if conn.seat is not None and conn.seat in seated:
            seated[conn.seat] -= 1
            if not seated[conn.seat]:
                del seated[conn.seat]
                gone = True
            if not seated:
                del self.seated[tid]
        if not conns:
            del self.conns[tid]
            del self.groups[tid]
            self.sizes.pop(tid, None)
            self.shown.pop(tid, None)
        return gone

    async def changed(self, tid: str, n: int) -> None:
        """Our seats at `tid` changed: tell the other processes, and our sockets."""
        if self.shared:
            try:
                await self.presence.publish(tid, self.local_seats(tid))
                await self.bus.publish(tid, {"presence": True})
            except Exception:  # Redis is away: the heartbeat publishes it when it is back
                log.warning("presence for table %s not published", tid)
        await self.refresh(tid, n)

    async def refresh(self, tid: str, n: int | None = None) -> None:
        """Push presence to our sockets at `tid` if what they would see changed."""
        n = self.sizes.get(tid) if n is None else n
        if n is None or not self.conns.get(tid):
            return
        self._push(tid, await self.connected(tid, n))

    def _push(self, tid: str, now: list[bool]) -> None:
        if self.shown.get(tid) == now or not self.conns.get(tid):
            return
        self.shown[tid] = now
        text = dumps({"t": "presence", "connected": now, "hand_over_in": self.absence(tid, now)})
        for conn in self.conns.get(tid, ()):
            conn.send(text)

    async def _beat(self) -> None:
        """Renew our presence, and notice others' that expired (a process that died)."""
        while True:
            await asyncio.sleep(self.beat_s)
            try:
                held = {tid: self.local_seats(tid) for tid in self.conns}
                await self.presence.refresh({t: s for t, s in held.items() if s})
                remote = await self.presence.remote_many(list(held))
                for tid, seats in remote.items():
                    n = self.sizes.get(tid)
                    if n is not None:
                        union = self.local_seats(tid) | seats
                        self._push(tid, [s in union for s in range(n)])
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log_failure(log, exc, "presence heartbeat failed")
