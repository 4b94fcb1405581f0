"""The HTTP server's protocol: uvicorn's h11 protocol with a deadline for a request's head.

uvicorn times out an idle keep-alive connection, but not one that is sending its request
line and headers: a client that sends half a header and stops (or trickles a byte at a time)
holds the connection, and its memory, for as long as it likes. Here the whole head must
arrive within `head_timeout_s` of the connection opening, or of the previous response being
sent; else the connection is closed. (A body has its own deadline: api/guards.py BodyLimit.)
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from vertex.server.settings import Settings


class TimedH11Protocol(H11Protocol):
    #: Read from the environment (VERTEX_HEAD_TIMEOUT_S) once per process: uvicorn makes the
    #: protocol itself, in each worker process.
    head_timeout_s: float | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_timer: asyncio.TimerHandle | None = None
        cls = type(self)
        if cls.head_timeout_s is None:
            cls.head_timeout_s = Settings.from_env().head_timeout_s

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:  # the head arrived (or the upgrade did)
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request's head has its own deadline

    def _arm(self) -> None:
        self._disarm()
        assert self.head_timeout_s is not None
        self._head_timer = self.loop.call_later(self.head_timeout_s, self._too_slow)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _too_slow(self) -> None:
        self._head_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()
