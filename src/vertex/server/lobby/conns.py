"""The lobby sockets of this process: who shows which filter, and who follows which table.

A lobby socket shows the list for one filter (every game, or one game) and may follow a
few tables by id ("Your tables": the browser names the tables it holds seats at; the id is
the table's link, so following one shows nothing its holder could not see anyway).
"""

from __future__ import annotations

from typing import Any

from vertex.server.live.conn import RESYNC, SEND_BUFFER_BYTES, Outbox, Sender
from vertex.server.site.rates import TokenBucket

#: Tables one socket may follow.
FOLLOW_MOST = 50


class LobbyConn(Outbox):
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
        super().__init__(ws, buffer_bytes)
        self.game = game
        self.bucket = bucket
        self.follows: set[str] = set()

    def buffered(self) -> int:
        return self._queued_bytes

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self._queued_bytes + len(text) > self.buffer_bytes:
            self.resync()
            return
        self._enqueue(text)

    def resync(self) -> None:
        """Drop what waits (that frees the memory), say `resync` and end the connection."""
        if self.closed:
            return
        self.resynced = True
        self._drop_queued()
        self._enqueue(RESYNC, counted=False)
        self.close()


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
