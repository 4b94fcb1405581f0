"""One Redis channel heard for good: the one way every listener of the site (the table bus,
the lobby) subscribes, notices a dropped or hung link, reconnects and catches up.

Redis pub/sub forgets: what is published while a listener is away is lost to it. So a
listener (re)subscribes with backoff whenever its connection drops or goes silent (it pings
when it has heard nothing for `PING_S`, gives up on the link after `SILENT_S`), and after
every (re)subscribe calls its owner's `on_subscribed`, which reloads from the database what
the channel may have carried meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from vertex.server.tasks import stop_task

log = logging.getLogger("vertex.server")

Handler = Callable[[dict[str, Any]], Awaitable[None]]
Subscribed = Callable[[], Awaitable[None]]

#: The listener pings when it has heard nothing for this long, and reconnects when it has
#: heard nothing for `SILENT_S` (a connection that hangs without closing).
PING_S = 1.0
SILENT_S = 3.0
#: Reconnection waits: from the first to the longest, doubling.
BACKOFF_S = (0.05, 2.0)


class Listener:
    """Hears `channel` on `redis` and hands each message (decoded JSON) to `handler`."""

    def __init__(self, redis: Any, channel: str, name: str, origin: str) -> None:
        self.redis = redis
        self.channel = channel
        self.name = name  # in the logs and the task's name: "bus", "lobby"
        self.origin = origin  # this process (for the logs)
        self.connected = False  # subscribed and hearing the channel now
        self.subscribes = 0  # (re)subscriptions since the start
        self._task: asyncio.Task[None] | None = None

    def start(self, handler: Handler, on_subscribed: Subscribed | None = None) -> None:
        self._task = asyncio.create_task(
            self._run(handler, on_subscribed), name=f"vertex-{self.name}-listener"
        )

    async def close(self) -> None:
        await stop_task(self._task)
        self._task = None

    async def _run(self, handler: Handler, on_subscribed: Subscribed | None) -> None:
        wait = BACKOFF_S[0]
        while True:
            pubsub = self.redis.pubsub()
            try:
                await pubsub.subscribe(self.channel)
                self.connected = True
                self.subscribes += 1
                wait = BACKOFF_S[0]
                if self.subscribes > 1:
                    log.info(self._said(f"{self.name}-resubscribed"))
                if on_subscribed is not None:
                    # what was published while we were away is in the database: catch up
                    await on_subscribed()
                await self._listen(pubsub, handler)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self.connected:
                    log.warning(self._said(f"{self.name}-lost", why=repr(exc)))
            finally:
                self.connected = False
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
            await asyncio.sleep(wait)
            wait = min(wait * 2, BACKOFF_S[1])

    async def _listen(self, pubsub: Any, handler: Handler) -> None:
        heard = time.monotonic()
        pinged = heard
        while True:
            item = await pubsub.get_message(timeout=PING_S / 2)
            now = time.monotonic()
            if item is None:
                if now - heard > SILENT_S:
                    raise ConnectionError(f"the {self.name} channel went silent")
                if now - max(heard, pinged) > PING_S:
                    pinged = now
                    await pubsub.ping()
                continue
            heard = now
            if item.get("type") != "message":
                continue  # a pong or a subscription's confirmation: the line is alive
            try:
                await handler(json.loads(item["data"]))
            except Exception:
                log.exception(f"{self.name} message dropped")

    def _said(self, event: str, **more: str) -> str:
        return json.dumps({"event": event, "worker": self.origin, **more})
