"""One event's broadcast (sockets.py): one text per kind of viewer, the seats' sockets
written before the spectators', every socket once, and the fan-out's count and times."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any, cast

from vertex.server.live.conn import Conn
from vertex.server.live.sockets import Sockets
from vertex.server.site.bus import LocalBus
from vertex.server.site.presence import LocalPresence
from vertex.server.site.rates import TokenBucket
from vertex.server.storage.recent import Sent
from vertex.server.table.table import Table


class FakeSocket:
    async def send_text(self, data: str) -> None:
        return None


def queued(conn: Conn) -> list[dict[str, Any]]:
    out = []
    while not conn.queue.empty():
        text = conn.queue.get_nowait()
        assert text is not None
        out.append(json.loads(text))
    return out


def event(sealed: frozenset[int]) -> Sent:
    state = {"to_move": [1], "last_move": {"seat": 0, "move": "aim 3"}}
    msg = {"t": "event", "v": 7, "kind": "move", "seat": 0, "move": "aim 3", "state": state}
    return Sent(msg, sealed, None)


def test_each_socket_gets_the_event_once_seats_first(monkeypatch: Any) -> None:
    sockets = Sockets(LocalPresence(), LocalBus(), 1.0, False)
    order: list[int | None] = []
    plain = Conn.send_frame

    def send_frame(self: Conn, text: str, frame: bytes) -> None:
        order.append(self.seat)
        plain(self, text, frame)

    monkeypatch.setattr(Conn, "send_frame", send_frame)
    watchers = [Conn(FakeSocket(), "t", None, None, TokenBucket(9, 9), True) for _ in range(5)]
    seats = [Conn(FakeSocket(), "t", s, None, TokenBucket(9, 9), s == 1) for s in (0, 1, 0)]
    for c in watchers[:3] + seats + watchers[3:]:  # seats come in among the spectators
        sockets.add(c, 2, [False, False])
    table = cast(Table, SimpleNamespace(id="t"))

    fan = sockets.broadcast(table, event(frozenset({0})))  # seat 0's move is sealed
    # the CPU clock is a system call: read only for a large fan-out (sockets.CPU_TIMED)
    assert fan.sockets == 8 and fan.wall_s >= 0 and fan.cpu_s is None
    assert sorted(order[:3], key=str) == [0, 0, 1] and order[3:] == [None] * 5
    for c in seats:
        (got,) = queued(c)
        assert got["move"] == ("aim 3" if c.seat == 0 else None)  # only its own seat sees it
        assert got["state"]["last_move"]["move"] == got["move"]
    for c in watchers:
        (got,) = queued(c)
        assert got["move"] is None and got["state"]["last_move"]["move"] is None

    order.clear()
    fan = sockets.broadcast(table, event(frozenset()))  # nothing sealed: all see it
    assert fan.sockets == 8 and len(order) == 8
    assert all(queued(c)[0]["move"] == "aim 3" for c in seats + watchers)


def test_sockets_that_leave_are_no_longer_written() -> None:
    sockets = Sockets(LocalPresence(), LocalBus(), 1.0, False)
    seat = Conn(FakeSocket(), "t", 0, None, TokenBucket(9, 9))
    watcher = Conn(FakeSocket(), "t", None, None, TokenBucket(9, 9))
    for c in (seat, watcher):
        sockets.add(c, 2, [False, False])
    table = cast(Table, SimpleNamespace(id="t"))
    sockets.remove(seat)
    assert sockets.broadcast(table, event(frozenset())).sockets == 1
    assert queued(seat) == [] and len(queued(watcher)) == 1
    sockets.remove(watcher)
    assert sockets.broadcast(table, event(frozenset())).sockets == 0
    assert sockets.groups == {} and sockets.conns == {}


def test_a_large_fan_out_has_its_cpu_time_measured(monkeypatch: Any) -> None:
    monkeypatch.setattr("vertex.server.live.sockets.CPU_TIMED", 3)
    sockets = Sockets(LocalPresence(), LocalBus(), 1.0, False)
    conns = [Conn(FakeSocket(), "t", None, None, TokenBucket(9, 9)) for _ in range(3)]
    for c in conns:
        sockets.add(c, 2, [False, False])
    table = cast(Table, SimpleNamespace(id="t"))
    fan = sockets.broadcast(table, event(frozenset()))
    assert fan.sockets == 3 and fan.cpu_s is not None and fan.cpu_s >= 0
    sockets.remove(conns[0])
    assert sockets.broadcast(table, event(frozenset())).cpu_s is None
