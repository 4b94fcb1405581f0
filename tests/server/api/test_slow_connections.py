"""A connection that sends its request slowly is closed in seconds, tested with a raw socket
against a real `vertex serve` (uvicorn's own handling is what is under test)."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.serve import ServeProcess
from vertex.server.settings import Settings

HEAD_S = 1.0
BODY_S = 1.0


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServeProcess]:
    p = ServeProcess(
        tmp_path / "serve.log",
        env={
            "VERTEX_DATABASE_URL": "sqlite:///" + str(tmp_path / "v.db"),
            "VERTEX_HEAD_TIMEOUT_S": str(HEAD_S),
            "VERTEX_BODY_TIMEOUT_S": str(BODY_S),
        },
    )
    p.start()
    try:
        yield p
    finally:
        p.stop()


def read_all(sock: socket.socket, limit_s: float) -> tuple[bytes, float]:
    """Everything the server sends until it closes the connection, and when it closed it
    (seconds from now); fails if it is still open after `limit_s`."""
    sock.settimeout(limit_s)
    start = time.monotonic()
    data = b""
    while True:
        chunk = sock.recv(65536)  # a socket.timeout here fails the test: it was held
        if not chunk:
            return data, time.monotonic() - start
        data += chunk


def test_the_defaults_are_seconds_not_minutes() -> None:
    assert Settings().head_timeout_s <= 15 and Settings().body_timeout_s <= 15


def test_unfinished_headers_are_closed_in_seconds(server: ServeProcess) -> None:
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        data, took = read_all(sock, limit_s=HEAD_S + 10)
    assert data == b"" and took < HEAD_S + 5


def test_a_trickled_head_is_closed_too(server: ServeProcess) -> None:
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        start = time.monotonic()
        sock.settimeout(HEAD_S + 10)
        closed = False
        for byte in b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 200:
            try:
                sock.sendall(bytes([byte]))
            except OSError:
                closed = True
                break
            time.sleep(0.05)  # a byte every 50 ms: each resets no clock
            if time.monotonic() - start > HEAD_S + 5:
                break
        if not closed:
            data, _ = read_all(sock, limit_s=HEAD_S + 10)
            assert data == b""
    assert time.monotonic() - start < HEAD_S + 5


def test_a_slow_body_is_answered_408_and_closed(server: ServeProcess) -> None:
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n" + b'{"game": '
        )
        data, took = read_all(sock, limit_s=BODY_S + 10)
    assert data.startswith(b"HTTP/1.1 408"), data[:200]
    assert b'"slow-request"' in data and took < BODY_S + 5


def test_a_keep_alive_connection_still_serves_requests(server: ServeProcess) -> None:
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.settimeout(10)
        for _ in range(3):
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            assert read_response(sock).startswith(b"HTTP/1.1 200")


def read_response(sock: socket.socket) -> bytes:
    """One whole response (its head and its Content-Length of body)."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, body = data.split(b"\r\n\r\n", 1)
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(body) < length:
        body += sock.recv(65536)
    return head + b"\r\n\r\n" + body
