"""A table socket's send buffer is bounded in bytes: a client that cannot keep up is sent
"resync" and let go, whatever the number of messages."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.server.conftest import make_settings
from vertex.server import Limits, create_app
from vertex.server.live.conn import RESYNC, Conn
from vertex.server.lobby.conns import LobbyConn
from vertex.server.site.rates import TokenBucket


class Stalled:
    """A client that reads the first message, then nothing."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.release = asyncio.Event()

    async def send_text(self, data: str) -> None:
        self.sent.append(data)
        if len(self.sent) > 1:
            await self.release.wait()


def test_a_stalled_client_is_let_go_by_bytes_not_messages() -> None:
    async def run() -> tuple[Conn, Stalled, int]:
        ws = Stalled()
        conn = Conn(ws, "t", None, None, TokenBucket(1, 1), buffer_bytes=10_000)
        pump = asyncio.create_task(conn.pump())
        sent = 0
        for _ in range(50):  # 50 messages of 1 kB: fewer than any message count limit
            conn.send("x" * 1000)
            sent += 1
            await asyncio.sleep(0)
            if conn.closed:
                break
        assert conn.done.is_set()
        ws.release.set()
        await asyncio.wait_for(pump, timeout=5)
        return conn, ws, sent

    conn, ws, sent = asyncio.run(run())
    assert conn.resynced and sent <= 12  # 10 kB: the eleventh or so message is too many
    # what was queued was dropped; the client is told to resync, and nothing after
    assert ws.sent[-1] == RESYNC and len(ws.sent) <= 3
    assert conn.buffered() == 0


def test_a_client_that_keeps_up_is_never_let_go() -> None:
    class Reader:
        async def send_text(self, data: str) -> None:
            await asyncio.sleep(0)

    async def run() -> Conn:
        conn = Conn(Reader(), "t", None, None, TokenBucket(1, 1), buffer_bytes=10_000)
        pump = asyncio.create_task(conn.pump())
        for _ in range(500):  # 5 MB in all, never more than a few kB waiting
            conn.send("x" * 1000)
            await asyncio.sleep(0)
            await asyncio.sleep(0)
        conn.close()
        await asyncio.wait_for(pump, timeout=5)
        return conn

    assert not asyncio.run(run()).resynced


def test_a_stalled_lobby_reader_is_let_go_by_bytes_too() -> None:
    async def run() -> tuple[LobbyConn, Stalled, int]:
        ws = Stalled()
        conn = LobbyConn(ws, None, TokenBucket(1, 1), buffer_bytes=10_000)
        pump = asyncio.create_task(conn.pump())
        sent = 0
        for _ in range(50):
            conn.send("x" * 1000)
            sent += 1
            await asyncio.sleep(0)
            if conn.closed:
                break
        assert conn.done.is_set()
        ws.release.set()
        await asyncio.wait_for(pump, timeout=5)
        return conn, ws, sent

    conn, ws, sent = asyncio.run(run())
    assert conn.resynced and sent <= 12
    assert ws.sent[-1] == RESYNC and len(ws.sent) <= 3 and conn.buffered() == 0


def test_the_lobby_socket_takes_the_send_limit_and_says_try_again(tmp_path: Path) -> None:
    # a limit below the size of the lobby's first message: that one is already too much
    settings = make_settings(tmp_path, limits=Limits(send_buffer_bytes=20))
    with TestClient(create_app(settings)) as client, client.websocket_connect("/ws/lobby") as ws:
        assert ws.receive_json() == {"t": "resync"}
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1013  # the page reconnects and gets a fresh list
