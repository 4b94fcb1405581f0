"""The spectators' chat: lines written by people watching a table, apart from its game.

Like lichess's spectator room, it is not the table's chat and not part of its record: no
table event, no version, no replay. Spectators (sockets without a seat) write in it; every
socket of the table hears each line (a player's page keeps them behind a closed panel).

Each table keeps its last `KEPT` lines in the store (one row per line, older ones deleted as
new ones come), so they survive a restart and any process can show them. A process holds a
table's lines in memory while it has sockets there, adds its own lines and those the others
announce on the bus (`{"spectator_chat": line}`), and forgets them when its last socket at
the table goes (and after the bus reconnects: a line announced meanwhile is read back).

A line is `{n, name, text, at}`: `n` orders the lines (the store's row id), `name` is the
spectator's display name (checked like a player's) or None, which the page words as
"Spectator" in its language.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Mapping
from typing import Any

from sqlalchemy import Column, Float, Index, Integer, String, Text, delete, select
from sqlalchemy import Table as SqlTable
from sqlalchemy.engine import Connection

from vertex.server.errors import ApiError
from vertex.server.live.conn import Conn
from vertex.server.live.sockets import Sockets, dumps
from vertex.server.site.allowances import Allowances
from vertex.server.site.bus import LocalBus, RedisBus
from vertex.server.storage.schema import metadata
from vertex.server.storage.store import Store
from vertex.server.table.messages import SpectatorLine
from vertex.server.table.table import Table
from vertex.server.text import check_text

#: Lines a table keeps (in the store and in memory), and sends a socket that joins.
KEPT = 100

spectator_lines_t = SqlTable(
    "vertex_spectator_lines",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(40), nullable=False),
    Column("name", String(200), nullable=True),
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_vertex_spectator_lines_table", "table_id", "id"),
)

Line = dict[str, Any]


def _line(row: Any) -> Line:
    return {"n": int(row.id), "name": row.name, "text": row.text, "at": float(row.at)}


class SpectatorChat:
    def __init__(
        self,
        store: Store,
        sockets: Sockets,
        bus: LocalBus | RedisBus,
        allowances: Allowances,
        tables: Mapping[str, Table],
    ) -> None:
        self.store = store
        self.sockets = sockets
        self.bus = bus
        self.allowances = allowances
        self.tables = tables  # the tables this process holds (an ack names the version)
        self.lines: dict[str, deque[Line]] = {}  # tables with sockets here
        self._loading: dict[str, asyncio.Task[deque[Line]]] = {}
        self._early: dict[str, list[Line]] = {}  # heard while the store was being read

    async def joined(self, conn: Conn) -> None:
        """A socket attached: it gets the table's lines so far (`replace`: the whole list),
        if there are any (lines are never taken back: a page that saw none has them all)."""
        lines = await self._held(conn.table_id)
        if lines:
            conn.send(dumps({"t": "spectator-chat", "replace": True, "lines": list(lines)}))

    def left(self, tid: str) -> None:
        if not self.sockets.has(tid):
            self.lines.pop(tid, None)

    def forget_all(self) -> None:
        """Read every table's lines again when next needed (the bus was away)."""
        self.lines.clear()

    async def write(self, conn: Conn, msg: SpectatorLine, address: str) -> dict[str, Any]:
        """A spectator's line from their socket, checked and within the allowances; the
        reply (an ack)."""
        if conn.seat is not None:
            raise ApiError(
                "spectators-only",
                "the spectators' chat is for spectators; players write in the table's chat",
                403,
            )
        lim = self.allowances.limits
        text = check_text(msg.text, lim.chat_chars, "chat")
        name = None
        if msg.name is not None and msg.name.strip():
            name = check_text(msg.name, lim.name_chars, "name")
        tid = conn.table_id
        await self.allowances.spectator_line(address, tid)
        line = await self.say(tid, name, text, time.time())
        table = self.tables.get(tid)
        reply: dict[str, Any] = {"t": "ack", "v": table.v if table else 0, "n": line["n"]}
        if msg.id is not None:
            reply["id"] = msg.id
        return reply

    async def say(self, tid: str, name: str | None, text: str, now: float) -> Line:
        """Store a checked line, tell this process's sockets and the other processes."""

        def run(conn: Connection) -> int:
            t = spectator_lines_t
            done = conn.execute(t.insert().values(table_id=tid, name=name, text=text, at=now))
            key = done.inserted_primary_key
            assert key is not None
            n = int(key[0])
            cutoff = (
                select(t.c.id)
                .where(t.c.table_id == tid)
                .order_by(t.c.id.desc())
                .offset(KEPT)
                .limit(1)
                .scalar_subquery()
            )
            conn.execute(delete(t).where(t.c.table_id == tid, t.c.id <= cutoff))
            return n

        line = {"n": await self.store.write(run), "name": name, "text": text, "at": now}
        self.heard(tid, line)
        await self.bus.publish(tid, {"spectator_chat": line})
        return line

    def heard(self, tid: str, line: Line) -> None:
        """A new line (ours, or another process's): keep it and send it to our sockets."""
        held = self.lines.get(tid)
        if held is not None:
            self._keep(tid, held, [line])
        elif tid in self._loading:
            self._early.setdefault(tid, []).append(line)
        text = dumps({"t": "spectator-chat", "lines": [line]})
        for conn in self.sockets.conns.get(tid, ()):
            conn.send(text)

    def _keep(self, tid: str, held: deque[Line], lines: list[Line]) -> deque[Line]:
        """Add lines not held yet, in their order (one may come late over the bus)."""
        known = {x["n"] for x in held}
        new = [x for x in lines if x["n"] not in known]
        if not new:
            return held
        merged = deque(sorted([*held, *new], key=lambda x: x["n"]), maxlen=KEPT)
        self.lines[tid] = merged
        return merged

    async def stored(self, tid: str) -> list[Line]:
        """The table's lines as the store has them, oldest first."""

        def run(conn: Connection) -> list[Line]:
            t = spectator_lines_t
            q = select(t).where(t.c.table_id == tid).order_by(t.c.id.desc()).limit(KEPT)
            return [_line(r) for r in reversed(list(conn.execute(q)))]

        return await self.store.read(run)

    async def _held(self, tid: str) -> deque[Line]:
        held = self.lines.get(tid)
        if held is not None:
            return held
        task = self._loading.get(tid)
        if task is None:  # one read for a crowd joining at once
            task = self._loading[tid] = asyncio.ensure_future(self._load(tid))
            task.add_done_callback(lambda _t: self._loading.pop(tid, None))
        return await asyncio.shield(task)

    async def _load(self, tid: str) -> deque[Line]:
        try:
            lines = deque(await self.stored(tid), maxlen=KEPT)
        finally:
            early = self._early.pop(tid, [])
        if not self.sockets.has(tid):  # nobody here to keep them for
            known = {x["n"] for x in lines}
            extra = [x for x in early if x["n"] not in known]
            return deque(sorted([*lines, *extra], key=lambda x: x["n"]), maxlen=KEPT)
        # lines heard while we read: not in the read, or in it already
        return self._keep(tid, self.lines.setdefault(tid, lines), early)
