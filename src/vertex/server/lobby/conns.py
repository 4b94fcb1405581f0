"""The lobby sockets of this process: who shows which filter, and who follows which table.

A lobby socket shows the list for one filter (every game, or one game) and may follow a
few tables by id ("Your tables": the browser names the tables it holds seats at; the id is
the table's link, so following one shows nothing its holder could not see anyway).
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from vertex.server.conn import RESYNC, SEND_BUFFER_BYTES, TokenBucket

#: Tables one socket may follow.
FOLLOW_MOST = 50


class Sender(Protocol):
    async def send_text(self, data: str) -> None: ...


class LobbyConn:
    """A lobby socket. What waits to be sent to it is bounded in bytes, as for a table
    socket (conn.py): a reader further behind is sent `resync` and let go (the page
    reconnects and gets a fresh list)."""

    def __init__(
        self,
        ws: Sender,
        game: str | None,
        bucket: TokenBucket,
        buffer_bytes: int = SEND_BUFFER_BYTES,
    ) -> None:
        self.ws = ws
        self.game = game
        self.bucket = bucket
        self.buffer_bytes = buffer_bytes
        self.follows: set[str] = set()
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        #: Set when the connection is to end (closed, or let go for being too slow).
        self.done = asyncio.Event()
        self.resynced = False
        self._queued_bytes = 0  # of the texts queued (JSON text is ASCII)

    def buffered(self) -> int:
        return self._queued_bytes

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self._queued_bytes + len(text) > self.buffer_bytes:
            self.resync()
            return
        self._queued_bytes += len(text)
        self.queue.put_nowait(text)

    def resync(self) -> None:
        """Drop what waits (that frees the memory), say `resync` and end the connection."""
        if self.closed:
            return
        self.resynced = True
        while not self.queue.empty():
            self.queue.get_nowait()
        self._queued_bytes = 0
        self.queue.put_nowait(RESYNC)
        self.close()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.done.set()
            self.queue.put_nowait(None)

    async def pump(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                return
            try:
                await self.ws.send_text(text)
            finally:
                self._queued_bytes = max(0, self._queued_bytes - len(text))


class LobbyConns:
    def __init__(self) -> None:
        self.by_filter: dict[str | None, set[LobbyConn]] = {}
        self.followers: dict[str, set[LobbyConn]] = {}

    def __len__(self) -> int:
        return sum(len(c) for c in self.by_filter.values())

    def add(self, conn: LobbyConn) -> None:
        self.by_filter.setdefault(conn.game, set()).add(conn)

    def remove(self, conn: LobbyConn) -> None:
        conns = self.by_filter.get(conn.game)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.by_filter[conn.game]
        self.unfollow(conn, set(conn.follows))

    def follow(self, conn: LobbyConn, tids: set[str]) -> None:
        for tid in tids:
            conn.follows.add(tid)
            self.followers.setdefault(tid, set()).add(conn)

    def unfollow(self, conn: LobbyConn, tids: set[str]) -> None:
        for tid in tids:
            conn.follows.discard(tid)
            followers = self.followers.get(tid)
            if followers is not None:
                followers.discard(conn)
                if not followers:
                    del self.followers[tid]

    def filters(self) -> list[str | None]:
        return list(self.by_filter)

    def send(self, game: str | None, text: str) -> None:
        for conn in self.by_filter.get(game, ()):
            conn.send(text)

    def send_followers(self, tid: str, text: str) -> None:
        for conn in self.followers.get(tid, ()):
            conn.send(text)

    def close(self) -> None:
        for conns in self.by_filter.values():
            for conn in conns:
                conn.close()

    def counts(self) -> dict[str, Any]:
        return {"sockets": len(self), "followed": len(self.followers)}
