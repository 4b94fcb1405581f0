"""A spectator that never reads, on a large table (GYØ 30: ~330 kB a move), costs the
server a bounded amount of memory: once what waits for it passes its send buffer it is sent
"resync" and let go; coming back with `since` it catches up. Against a real `vertex serve`,
with a raw socket that reads nothing (a test client library would read into its own memory)."""

from __future__ import annotations

import base64
import json
import os
import random
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.eventually import eventually
from tests.server.serve import ServeProcess
from vertex.core import create_game

MOVES = 500
BUFFER = 1 << 20
#: What the server may grow by while the spectator does not read: the table itself (its
#: log, its recent events) is most of it. Without a send buffer in bytes it grew ~300 kB a
#: move (issue 24: +458 MB over 1,400 moves), 150 MB over these 500.
BUDGET_MB = 60


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServeProcess]:
    p = ServeProcess(
        tmp_path / "serve.log",
        env={
            "VERTEX_DATABASE_URL": "sqlite:///" + str(tmp_path / "v.db"),
            "VERTEX_SEND_BUFFER_BYTES": str(BUFFER),
            "VERTEX_MESSAGES_PER_SECOND": "10000",
        },
    )
    p.start()
    try:
        yield p
    finally:
        p.stop()


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def never_reading_socket(port: int, path: str) -> socket.socket:
    """A WebSocket opened by hand that then reads nothing: its receive window fills and
    the server's writes back up."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    head = (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
    )
    sock.sendall(head.encode() + b"\r\n")
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += sock.recv(1)  # only the handshake's head, byte by byte
    assert answer.startswith(b"HTTP/1.1 101"), answer
    return sock


def frames(data: bytes) -> list[dict[str, Any]]:
    """The whole text frames in `data` (unmasked server frames), parsed."""
    out = []
    i = 0
    while i + 2 <= len(data):
        op, n = data[i] & 0x0F, data[i + 1] & 0x7F
        i += 2
        if n == 126:
            n, i = int.from_bytes(data[i : i + 2], "big"), i + 2
        elif n == 127:
            n, i = int.from_bytes(data[i : i + 8], "big"), i + 8
        if i + n > len(data):
            break
        if op == 1:
            out.append(json.loads(data[i : i + n]))
        i += n
    return out


def test_a_never_reading_spectator_is_let_go_and_catches_up(server: ServeProcess) -> None:
    assert server.proc is not None
    http = httpx.Client(base_url=server.url, timeout=30)
    options = {"rules": "gyo", "size": 30}
    r = http.post("/api/tables", json={"game": "vert3x", "options": options})
    tid = r.json()["id"]
    tokens = [
        http.post(f"/api/tables/{tid}/seats/{s}", json={"name": f"p{s}"}).json()["token"]
        for s in (0, 1)
    ]
    v = http.get(f"/api/tables/{tid}").json()["version"]
    spectator = never_reading_socket(server.port, f"/ws/tables/{tid}")
    before = rss_mb(server.proc.pid)
    peak = before
    # GYØ has no chance: the same moves on a local copy tell the legal ones
    state = create_game("vert3x", **options).initial_state(seed=1)
    rng = random.Random(7)
    for _ in range(MOVES):
        seat = state.to_move[0]
        move = rng.choice(state.legal_moves())
        r = http.post(
            f"/api/tables/{tid}/moves", json={"token": tokens[seat], "move": move, "version": v}
        )
        assert r.status_code == 200, r.text
        v = r.json()["version"]
        state = state.play(move, seat=seat)
        peak = max(peak, rss_mb(server.proc.pid))
    grown = peak - before
    print(f"server RSS {before:.0f} MB -> peak {peak:.0f} MB (+{grown:.0f} MB) over {MOVES} moves")
    assert grown < BUDGET_MB

    # the spectator was let go: reading now, it finds what was sent, "resync", then the end
    spectator.settimeout(10)
    data = b""
    start = time.monotonic()
    while True:
        try:
            chunk = spectator.recv(1 << 20)
        except (ConnectionResetError, TimeoutError):
            break
        if not chunk:
            break
        data += chunk
    spectator.close()
    assert time.monotonic() - start < 10
    got = frames(data)
    seen = [m["v"] for m in got if m.get("t") in ("snapshot", "event")]
    assert seen and max(seen) < v  # it fell behind ...
    # ... and was told so, unless the cut came first (a client that reads nothing for the
    # grace seconds after its resync is cut whatever its transport holds)
    assert all(m["t"] in ("snapshot", "event", "presence", "watching", "resync") for m in got)

    # coming back with `since` it catches up to the table's version
    with connect(f"{server.ws}/ws/tables/{tid}?since={max(seen)}", max_size=None) as ws:
        last = max(seen)

        def caught_up() -> bool:
            nonlocal last
            msg = json.loads(ws.recv(timeout=10))
            if msg["t"] in ("snapshot", "event"):
                last = msg["v"]
            return last == v

        eventually(caught_up, timeout=60, interval=0, what="the spectator catching up")
    assert httpx.get(server.url + "/healthz").json()["ok"]
