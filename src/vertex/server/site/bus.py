"""The event bus: tells other worker processes that a table has a new event.

One process needs no bus (its sockets hear events directly). Several workers share Redis
pub/sub: a worker publishes each event it wrote; the others fold it into their copy of the
table and pass it to their sockets.

The bus is only a fast path: the log is the truth. Its listener (listener.py, as every
listener of the site) reconnects with backoff whenever its connection drops or goes silent,
and after every (re)subscribe the hub checks the tables it holds against the log
(`on_subscribed`), as it also does every few seconds; an event whose publishing failed is
caught up that way by the others.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from vertex.server.site.listener import BACKOFF_S, Listener

log = logging.getLogger("vertex.server")

Handler = Callable[[str, dict[str, Any]], Awaitable[None]]
Subscribed = Callable[[], Awaitable[None]]
CHANNEL = "vertex:events"
#: Redis connections one process uses at most for commands; more callers wait their turn
#: (a burst of sockets connecting must not fail for want of a connection).
REDIS_CONNECTIONS = 32
#: A Redis command that has not answered in this long has failed (a hung connection must not
#: hold a caller, or a lease renewal, for minutes).
REDIS_TIMEOUT_S = 2.0
#: Tries of one publish before it is left to the others' reconciliation.
PUBLISH_TRIES = 3


def redis_client(url: str) -> Any:
    """An asyncio Redis client whose pool makes callers wait rather than fail.

    Every call is bounded by the socket timeouts, never by cancelling it: a Redis call
    cancelled midway (`asyncio.wait_for`) can keep its connection from the pool, and after a
    long outage the pool had none left. No retries inside: each caller has its own.
    """
    import redis.asyncio as aioredis
    from redis.asyncio.retry import Retry
    from redis.backoff import NoBackoff

    pool = aioredis.BlockingConnectionPool.from_url(
        url,
        max_connections=REDIS_CONNECTIONS,
        timeout=REDIS_TIMEOUT_S * 2,
        socket_timeout=REDIS_TIMEOUT_S,
        socket_connect_timeout=REDIS_TIMEOUT_S,
        retry=Retry(NoBackoff(), 0),
    )
    return aioredis.Redis(connection_pool=pool)


class LocalBus:
    """One process: nothing to carry."""

    connected = True

    async def start(self, handler: Handler, on_subscribed: Subscribed | None = None) -> None:
        return None

    async def publish(self, table_id: str, event: dict[str, Any]) -> bool:
        return True

    async def close(self) -> None:
        return None


class RedisBus:
    def __init__(self, url: str, origin: str, site: str = "vertex") -> None:
        self.origin = origin
        self.channel = f"{site}:events"
        self.redis = redis_client(url)
        self.listener = Listener(self.redis, self.channel, "bus", origin)
        self.publish_failures = 0

    @property
    def connected(self) -> bool:
        """Subscribed and hearing the channel now."""
        return self.listener.connected

    @property
    def subscribes(self) -> int:
        """(Re)subscriptions since the start."""
        return self.listener.subscribes

    async def start(self, handler: Handler, on_subscribed: Subscribed | None = None) -> None:
        async def heard(msg: dict[str, Any]) -> None:
            if msg.get("origin") != self.origin:
                await handler(msg["table"], msg["event"])

        self.listener.start(heard, on_subscribed)

    async def publish(self, table_id: str, event: dict[str, Any]) -> bool:
        """Publish with a few tries; False if Redis would not take it (the others catch the
        event up from the log when they next reconcile)."""
        msg = json.dumps(
            {"origin": self.origin, "table": table_id, "event": event}, separators=(",", ":")
        )
        wait = BACKOFF_S[0]
        for attempt in range(PUBLISH_TRIES):
            try:
                await self.redis.publish(self.channel, msg)
                return True
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if attempt == PUBLISH_TRIES - 1:
                    self.publish_failures += 1
                    log.warning(
                        json.dumps({"event": "publish-failed", "table": table_id, "why": repr(exc)})
                    )
                    return False
                await asyncio.sleep(wait)
                wait *= 4
        return False

    async def close(self) -> None:
        await self.listener.close()
        await self.redis.aclose()
