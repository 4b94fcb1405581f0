"""A move's frame goes straight to uvicorn's transport only when the socket's `send` leads
back to uvicorn's protocol: through the wrappers Starlette and middleware put around it (a
wrapper in between once sent every spectator's message through a task of its own)."""

from __future__ import annotations

from typing import Any

from websockets.protocol import State

from vertex.server.live.conn import _direct


class Connection:  # websockets' sans-I/O connection, as far as conn.py reads it
    _state = State.OPEN


class WebSocketsSansIOProtocol:  # the name of uvicorn's protocol class, as conn.py checks
    def __init__(self) -> None:
        self.transport = object()
        self.conn = Connection()
        self.close_sent = False

    async def asgi_send(self, message: dict[str, Any]) -> None:
        pass


class Socket:
    def __init__(self, send: Any) -> None:
        self._send = send


def wrapped(send: Any) -> Any:
    async def sender(message: dict[str, Any]) -> None:  # as Starlette's exception handling
        await send(message)

    return sender


def test_the_protocol_is_found_through_the_wrappers() -> None:
    proto = WebSocketsSansIOProtocol()
    assert _direct(Socket(proto.asgi_send)) is proto
    assert _direct(Socket(wrapped(proto.asgi_send))) is proto
    assert _direct(Socket(wrapped(wrapped(wrapped(proto.asgi_send))))) is proto


def test_other_senders_take_the_asgi_path() -> None:
    async def plain(message: dict[str, Any]) -> None:
        pass

    assert _direct(Socket(plain)) is None
    assert _direct(Socket(wrapped(plain))) is None
    assert _direct(object()) is None
    deep = WebSocketsSansIOProtocol().asgi_send
    for _ in range(20):  # further than any real chain: not followed for ever
        deep = wrapped(deep)
    assert _direct(Socket(deep)) is None
