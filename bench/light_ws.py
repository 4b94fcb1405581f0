"""A light WebSocket reader for benchmarks: many spectator sockets in one process, cheaply.

What it does, exactly: an HTTP/1.1 upgrade by hand (`Sec-WebSocket-Key` checked against the
server's `Sec-WebSocket-Accept`), then an `asyncio.Protocol` that splits the incoming bytes
into WebSocket frames (RFC 6455 §5.2: opcode, 7/16/64-bit length; a server's frames are not
masked) and, for each whole text frame, reads the event version from its first bytes when
it begins `{"t":"event","v":` — no JSON decode of any frame. It answers pings (a masked
pong), and counts a close frame or a dropped connection as the socket's end. A frame's
arrival time is `time.time()` when the chunk that completed it came in.

Not a client for anything but the benchmarks (no extensions, no sending beyond pongs).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import selectors
import socket
import time
from collections.abc import Callable

EVENT = b'{"t":"event","v":'
GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class Reader(asyncio.Protocol):
    """One socket. `on_event(v, at)` for each event frame; `on_end()` once when it ends."""

    def __init__(self, on_event: Callable[[int, float], None], on_end: Callable[[], None]) -> None:
        self.on_event = on_event
        self.on_end = on_end
        self.buf = bytearray()
        self.upgraded: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.key = base64.b64encode(os.urandom(16))
        self.transport: asyncio.Transport | None = None
        self.frames = 0  # whole text frames read (the snapshot is the first)
        self.ended = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.buf += data
        if not self.upgraded.done():
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(self.buf[:end]).lower()
            del self.buf[: end + 4]
            accept = base64.b64encode(hashlib.sha1(self.key + GUID).digest()).lower()
            if not head.startswith(b"http/1.1 101") or accept not in head:
                self.upgraded.set_exception(OSError(f"no upgrade: {head[:80]!r}"))
                return
            self.upgraded.set_result(None)
        at = time.time()
        buf = self.buf
        while len(buf) >= 2:
            op, n, i = buf[0] & 0x0F, buf[1] & 0x7F, 2
            if n == 126:
                if len(buf) < 4:
                    return
                n, i = int.from_bytes(buf[2:4], "big"), 4
            elif n == 127:
                if len(buf) < 10:
                    return
                n, i = int.from_bytes(buf[2:10], "big"), 10
            if len(buf) < i + n:
                return
            if op == 1:  # text (the server sends each message as one frame)
                self.frames += 1
                if buf[i : i + len(EVENT)] == EVENT:
                    j = buf.index(b",", i + len(EVENT), i + len(EVENT) + 24)
                    self.on_event(int(buf[i + len(EVENT) : j]), at)
            elif op == 9:  # ping: pong with the same payload
                self._send(0x8A, bytes(buf[i : i + n]))
            elif op == 8:  # close
                self._end()
            del buf[: i + n]

    def _send(self, head: int, payload: bytes) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        mask = os.urandom(4)
        body = bytes(b ^ mask[k % 4] for k, b in enumerate(payload))
        self.transport.write(bytes((head, 0x80 | len(payload))) + mask + body)

    def _end(self) -> None:
        if not self.ended:
            self.ended = True
            self.on_end()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.upgraded.done():
            self.upgraded.set_exception(exc or OSError("closed before the upgrade"))
        self._end()

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self._send(0x88, b"\x03\xe8")  # 1000, normal closure
            self.transport.close()


async def connect(
    host: str,
    port: int,
    path: str,
    on_event: Callable[[int, float], None],
    on_end: Callable[[], None],
) -> Reader:
    """A Reader on `ws://host:port/path`, upgraded."""
    loop = asyncio.get_running_loop()
    _, reader = await loop.create_connection(lambda: Reader(on_event, on_end), host, port)
    assert reader.transport is not None
    reader.transport.write(
        f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {reader.key.decode()}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    await reader.upgraded
    return reader


def read_raw(
    readers: list[Reader],
    on_event: Callable[[int, float], None],
    on_end: Callable[[], None],
    stopped: Callable[[], bool],
) -> None:
    """Read upgraded `readers` with one blocking epoll loop in this thread, without asyncio's
    per-socket callbacks (a benchmark's clients share the box with the server: the less CPU
    they take a frame, the less of the arrival times is theirs). Each socket's fd is
    duplicated and its transport paused; frames are split as `Reader.data_received` does,
    pings answered, a close or a drop counted once by `on_end`. Returns when `stopped()`
    (looked at every 0.2 s)."""
    sel = selectors.EpollSelector()
    bufs: dict[int, bytearray] = {}
    socks: dict[int, socket.socket] = {}
    for r in readers:
        assert r.transport is not None
        r.transport.pause_reading()
        fd = os.dup(r.transport.get_extra_info("socket").fileno())
        sock = socket.socket(fileno=fd)
        sock.setblocking(False)
        socks[fd] = sock
        bufs[fd] = bytearray(r.buf)  # what came after the snapshot, if anything
        sel.register(fd, selectors.EVENT_READ)
    chunk = bytearray(1 << 16)
    view = memoryview(chunk)
    while not stopped():
        for key, _ in sel.select(0.2):
            fd = key.fd
            sock = socks[fd]
            try:
                n = sock.recv_into(chunk)
            except (BlockingIOError, InterruptedError):
                continue
            except OSError:
                n = 0
            if not n:
                sel.unregister(fd)
                on_end()
                continue
            at = time.time()
            buf = bufs[fd]
            buf += view[:n]
            while len(buf) >= 2:
                op, size, i = buf[0] & 0x0F, buf[1] & 0x7F, 2
                if size == 126:
                    if len(buf) < 4:
                        break
                    size, i = int.from_bytes(buf[2:4], "big"), 4
                elif size == 127:
                    if len(buf) < 10:
                        break
                    size, i = int.from_bytes(buf[2:10], "big"), 10
                if len(buf) < i + size:
                    break
                if op == 1 and buf[i : i + len(EVENT)] == EVENT:
                    j = buf.index(b",", i + len(EVENT), i + len(EVENT) + 24)
                    on_event(int(buf[i + len(EVENT) : j]), at)
                elif op == 9:  # ping: a masked pong with the same payload
                    mask = os.urandom(4)
                    body = bytes(b ^ mask[k % 4] for k, b in enumerate(buf[i : i + size]))
                    sock.send(bytes((0x8A, 0x80 | size)) + mask + body)
                elif op == 8:
                    sel.unregister(fd)
                    on_end()
                    buf.clear()
                    break
                del buf[: i + size]
    for sock in socks.values():
        sock.close()
    sel.close()
