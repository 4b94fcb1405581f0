"""What the lobby shares between processes: its change channel and its locks.

One process: callbacks in memory and asyncio locks. Several: a Redis pub/sub channel (every
process applies every change to its own list), heard by the site's one listener
(site/listener.py: it reconnects after a dropped or hung link, and after each (re)subscribe
the lobby reloads its list from its rows, so a process that was cut off from Redis does not
stay deaf), and locks that are Redis keys set with NX and an expiry (a process that dies
mid-lock frees it within seconds). The names start with a
prefix (settings), so test runs that share one Redis do not hear each other.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from vertex.server.errors import ApiError
from vertex.server.site.bus import redis_client
from vertex.server.site.listener import Listener, Subscribed

log = logging.getLogger("vertex.server")

Handler = Callable[[dict[str, Any]], Awaitable[None]]

#: How long a lock may be held before it frees itself (a process died holding it), and how
#: long a caller waits for one.
LOCK_S = 10.0
WAIT_S = 15.0

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def _busy() -> ApiError:
    return ApiError("busy", "the lobby is busy; try again", 503)


class LocalShared:
    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    async def start(self, handler: Handler, on_subscribed: Subscribed | None = None) -> None:
        return None

    async def publish(self, msg: dict[str, Any]) -> None:
        return None  # this process applied it already

    @contextlib.asynccontextmanager
    async def lock(self, name: str) -> AsyncIterator[None]:
        lock, users = self._locks.get(name, (asyncio.Lock(), 0))
        self._locks[name] = (lock, users + 1)
        try:
            async with asyncio.timeout(WAIT_S):
                await lock.acquire()
        except TimeoutError:
            self._done(name)
            raise _busy() from None
        try:
            yield
        finally:
            lock.release()
            self._done(name)

    def _done(self, name: str) -> None:
        # keyed by client input (an address): a lock nobody waits for is forgotten
        lock, users = self._locks[name]
        if users <= 1:
            del self._locks[name]
        else:
            self._locks[name] = (lock, users - 1)

    async def close(self) -> None:
        return None


class RedisShared:
    def __init__(self, url: str, prefix: str, origin: str) -> None:
        self.channel = prefix + "lobby"
        self.locks = prefix + "lobby-lock:"
        self.origin = origin
        self.redis: Any = redis_client(url)
        self._release = self.redis.register_script(_RELEASE)
        self.listener = Listener(self.redis, self.channel, "lobby", origin)

    async def start(self, handler: Handler, on_subscribed: Subscribed | None = None) -> None:
        async def heard(msg: dict[str, Any]) -> None:
            if msg.pop("origin", None) != self.origin:
                await handler(msg)

        self.listener.start(heard, on_subscribed)

    async def publish(self, msg: dict[str, Any]) -> None:
        text = json.dumps({**msg, "origin": self.origin}, separators=(",", ":"))
        await self.redis.publish(self.channel, text)

    @contextlib.asynccontextmanager
    async def lock(self, name: str) -> AsyncIterator[None]:
        key = self.locks + hashlib.blake2b(name.encode(), digest_size=16).hexdigest()
        mine = secrets.token_hex(8)
        loop = asyncio.get_running_loop()
        until = loop.time() + WAIT_S
        while not await self.redis.set(key, mine, nx=True, px=int(LOCK_S * 1000)):
            if loop.time() > until:
                raise _busy()
            await asyncio.sleep(0.01)
        try:
            yield
        finally:
            await self._release(keys=[key], args=[mine])

    async def close(self) -> None:
        await self.listener.close()
        await self.redis.aclose()
