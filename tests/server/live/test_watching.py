"""The spectators' count is coalesced: many sockets joining cost each one at most its own
greeting and one update a tick, never one message per connect (watching.py)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from vertex.server.live.watching import LocalCounts, Watching


class FakeConn:
    def __init__(self, tid: str, seat: int | None = None) -> None:
        self.table_id, self.seat = tid, seat
        self.heard: list[int] = []

    def send(self, text: str) -> None:
        msg = json.loads(text)
        assert msg["t"] == "watching"
        self.heard.append(msg["n"])


class FakeSockets:
    def __init__(self) -> None:
        self.conns: dict[str, set[Any]] = {}

    def add(self, conn: FakeConn) -> None:
        self.conns.setdefault(conn.table_id, set()).add(conn)

    def remove(self, conn: FakeConn) -> None:
        self.conns[conn.table_id].discard(conn)


def _watching() -> tuple[Watching, FakeSockets, list[tuple[str, int]]]:
    sockets = FakeSockets()
    lobby: list[tuple[str, int]] = []
    w = Watching(sockets, LocalCounts(), 1.0, lambda tid, n: lobby.append((tid, n)))  # type: ignore[arg-type]
    return w, sockets, lobby


def test_a_thousand_spectators_joining_cost_two_messages_each_at_most() -> None:
    w, sockets, lobby = _watching()
    player = FakeConn("t", seat=0)
    sockets.add(player)
    w.joined(player, None)  # type: ignore[arg-type]
    conns = [FakeConn("t") for _ in range(1000)]
    for n, conn in enumerate(conns):
        sockets.add(conn)
        w.joined(conn, f"browser-{n:04d}")  # type: ignore[arg-type]
    assert conns[0].heard == [1] and conns[-1].heard == [1000]  # each greeted with the count
    asyncio.run(w.tick())  # one tick: one update to everyone
    assert player.heard == [0, 1000]
    assert all(c.heard[-1] == 1000 and len(c.heard) <= 2 for c in conns)
    assert conns[-1].heard == [1000]  # it knew the number already: nothing more
    total = sum(len(c.heard) for c in conns) + len(player.heard)
    assert total <= 2 * 1001  # not 1000²/2
    assert lobby == [("t", 1000)]  # the lobby heard once, too
    asyncio.run(w.tick())  # nothing changed: nothing sent
    assert sum(len(c.heard) for c in conns) + len(player.heard) == total


def test_tabs_of_one_browser_count_once_and_leaving_counts_down() -> None:
    w, sockets, lobby = _watching()
    a, b, c = FakeConn("t"), FakeConn("t"), FakeConn("t")
    for conn, viewer in ((a, "browser-one"), (b, "browser-one"), (c, "bad id!")):
        sockets.add(conn)
        w.joined(conn, viewer)  # type: ignore[arg-type]
    assert w.local("t") == 2  # one browser's two tabs, and a socket of its own
    asyncio.run(w.tick())
    for conn in (a, b):
        sockets.remove(conn)
        w.left(conn)  # type: ignore[arg-type]
    asyncio.run(w.tick())
    assert c.heard[-1] == 1 and lobby == [("t", 2), ("t", 1)]
