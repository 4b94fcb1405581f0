"""A TCP proxy that fails the way networks do: between a server process and Redis.

`drop(s)` cuts every connection and refuses new ones for `s` seconds; `pause(s)` keeps the
connections open but carries no byte either way for `s` seconds (a hung link), then lets
what was held through. It runs its own event loop in a thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time


class FaultyProxy:
    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._refuse_until = 0.0
        self._flowing = asyncio.Event()
        self.port = 0

    # ---- control (from the test's thread) -----------------------------------------------------
    def start(self) -> None:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(10)

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self._stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)

    def drop(self, seconds: float) -> None:
        """Cut every connection now and refuse new ones for `seconds` (returns at once)."""
        asyncio.run_coroutine_threadsafe(self._drop(seconds), self.loop).result(10)

    def pause(self, seconds: float) -> None:
        """Hold every byte for `seconds`, connections open (returns at once)."""
        self.loop.call_soon_threadsafe(self._pause, seconds)

    # ---- the proxy ----------------------------------------------------------------------------
    async def _start(self) -> None:
        self._flowing.set()
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        sock: socket.socket = self._server.sockets[0]
        self.port = sock.getsockname()[1]

    async def _stop(self) -> None:
        if self._server is not None:
            self._server.close()
        for w in list(self._writers):
            w.close()

    async def _drop(self, seconds: float) -> None:
        self._refuse_until = time.monotonic() + seconds
        for w in list(self._writers):
            with contextlib.suppress(Exception):
                w.transport.abort()
        self._writers.clear()

    def _pause(self, seconds: float) -> None:
        self._flowing.clear()
        self.loop.call_later(seconds, self._flowing.set)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if time.monotonic() < self._refuse_until:
            writer.transport.abort()
            return
        try:
            up_r, up_w = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        self._writers.update((writer, up_w))
        await asyncio.gather(
            self._pipe(reader, up_w, writer), self._pipe(up_r, writer, up_w), return_exceptions=True
        )

    async def _pipe(
        self, src: asyncio.StreamReader, dst: asyncio.StreamWriter, other: asyncio.StreamWriter
    ) -> None:
        try:
            while True:
                data = await src.read(65536)
                if not data:
                    break
                await self._flowing.wait()
                dst.write(data)
                await dst.drain()
        except Exception:
            pass
        finally:
            for w in (dst, other):
                self._writers.discard(w)
                with contextlib.suppress(Exception):
                    w.transport.abort()
