"""The spectators' count is coalesced: many sockets joining cost each one at most its own
greeting and one update a tick, never one message per connect; and it counts addresses, not
sockets, on one process and across processes (watching.py)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from vertex.server.live.viewers import (
    LISTED,
    LocalCounts,
    TableCount,
    decode,
    encode,
    viewer_key,
)
from vertex.server.live.watching import Watching


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
    w.joined(player, "10.9.9.9")  # type: ignore[arg-type]
    conns = [FakeConn("t") for _ in range(1000)]
    for n, conn in enumerate(conns):
        sockets.add(conn)
        w.joined(conn, f"10.0.{n // 256}.{n % 256}")  # type: ignore[arg-type]
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


def test_sockets_of_one_address_count_once_and_leaving_counts_down() -> None:
    w, sockets, lobby = _watching()
    player = FakeConn("t", seat=0)
    sockets.add(player)
    w.joined(player, "10.0.0.1")  # type: ignore[arg-type]  (a player is not a spectator)
    asyncio.run(w.tick())
    tabs = [FakeConn("t") for _ in range(10)]
    for conn in tabs:
        sockets.add(conn)
        w.joined(conn, "10.0.0.1")  # type: ignore[arg-type]
    assert w.local("t") == 1 and all(c.heard == [1] for c in tabs)
    asyncio.run(w.tick())
    assert player.heard == [0, 1] and lobby == [("t", 1)]  # told once, not ten times
    other = FakeConn("t")
    sockets.add(other)
    w.joined(other, "10.0.0.2")  # type: ignore[arg-type]
    asyncio.run(w.tick())
    assert player.heard == [0, 1, 2] and other.heard == [2] and lobby[-1] == ("t", 2)
    for conn in tabs[:9]:  # the address still has a socket: nothing changes, nothing sent
        sockets.remove(conn)
        w.left(conn)  # type: ignore[arg-type]
    asyncio.run(w.tick())
    assert player.heard == [0, 1, 2] and lobby[-1] == ("t", 2)
    for conn in (tabs[9], other):
        sockets.remove(conn)
        w.left(conn)  # type: ignore[arg-type]
    asyncio.run(w.tick())
    assert player.heard == [0, 1, 2, 0] and lobby == [("t", 1), ("t", 2), ("t", 0)]


def test_other_processes_addresses_count_once_and_the_lobbys_shares_add_up() -> None:
    """Process "b" holds addresses x, y; process "a" (before it) holds x, process "c" (after
    it) holds y and z: the site has 3 watching; b's share is what no earlier process holds."""
    x, y, z = (viewer_key(f"10.0.0.{i}") for i in (1, 2, 3))
    count = TableCount()
    count.add(x)
    count.add(y)
    count.add(x)  # a second socket of x
    count.heard({"a": decode(encode({x: 1})), "c": decode(encode({y: 1, z: 1}))}, "b")
    assert count.total() == 3 and count.share() == 1  # y (x is a's)
    count.remove(x)
    assert count.total() == 3 and count.share() == 1  # x has a socket here still
    count.remove(x)
    assert count.total() == 3 and count.share() == 1  # and x still watches on a
    count.remove(y)
    assert count.total() == 3 and count.share() == 0  # y still watches on c
    count.heard({"c": decode(str(LISTED + 1))}, "b")  # past LISTED: a number, added
    assert count.total() == LISTED + 1 and count.share() == 0
    assert decode(encode({})) == (frozenset(), 0)
    assert len(encode({viewer_key(str(i)): 1 for i in range(LISTED)})) < 7 * 1024  # bounded
