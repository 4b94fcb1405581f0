"""The event bus: tells other worker processes that a table has a new event.

One process needs no bus (its sockets hear events directly). Several workers share Redis
pub/sub: a worker publishes each event it wrote; the others fold it into their copy of the
table and pass it to their sockets.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from vertex.server.tasks import stop_task

log = logging.getLogger("vertex.server")

Handler = Callable[[str, dict[str, Any]], Awaitable[None]]
CHANNEL = "vertex:events"
#: Redis connections one process uses at most for commands; more callers wait their turn
#: (a burst of sockets connecting must not fail for want of a connection).
REDIS_CONNECTIONS = 32


def redis_client(url: str) -> Any:
    """An asyncio Redis client whose pool makes callers wait rather than fail."""
    import redis.asyncio as aioredis

    pool = aioredis.BlockingConnectionPool.from_url(
        url, max_connections=REDIS_CONNECTIONS, timeout=30
    )
    return aioredis.Redis(connection_pool=pool)


class LocalBus:
    """One process: nothing to carry."""

    async def start(self, handler: Handler) -> None:
        return None

    async def publish(self, table_id: str, event: dict[str, Any]) -> None:
        return None

    async def close(self) -> None:
        return None


class RedisBus:
    def __init__(self, url: str, origin: str) -> None:
        self.origin = origin
        self.redis = redis_client(url)
        self._task: asyncio.Task[None] | None = None

    async def start(self, handler: Handler) -> None:
        pubsub = self.redis.pubsub()
        await pubsub.subscribe(CHANNEL)
        self._task = asyncio.create_task(self._listen(pubsub, handler), name="vertex-bus")

    async def _listen(self, pubsub: Any, handler: Handler) -> None:
        async for item in pubsub.listen():
            if item.get("type") != "message":
                continue
            try:
                msg = json.loads(item["data"])
                if msg.get("origin") == self.origin:
                    continue
                await handler(msg["table"], msg["event"])
            except Exception:
                log.exception("bus message dropped")

    async def publish(self, table_id: str, event: dict[str, Any]) -> None:
        msg = {"origin": self.origin, "table": table_id, "event": event}
        await self.redis.publish(CHANNEL, json.dumps(msg, separators=(",", ":")))

    async def close(self) -> None:
        await stop_task(self._task)
        await self.redis.aclose()
