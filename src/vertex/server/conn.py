"""One socket: who it is, its outbound queue and its message allowance."""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class Sender(Protocol):
    async def send_text(self, data: str) -> None: ...


class TokenBucket:
    """`rate` messages a second on average, bursts up to `burst`."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class SeatRates:
    """A TokenBucket per seat token, for commands sent over HTTP (sockets have their own).

    Bounded: when it holds too many tokens it forgets the ones that have refilled, which
    cannot be over their limit anyway.
    """

    def __init__(self, rate: float, burst: int, most: int = 10_000) -> None:
        self.rate, self.burst, self.most = rate, burst, most
        self.buckets: dict[str, TokenBucket] = {}

    def take(self, key: str) -> bool:
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= self.most:
                self._forget_full()
            bucket = self.buckets[key] = TokenBucket(self.rate, self.burst)
        return bucket.take()

    def _forget_full(self) -> None:
        now = time.monotonic()
        for key, b in list(self.buckets.items()):
            if b.tokens + (now - b.at) * b.rate >= b.burst:
                del self.buckets[key]
        if len(self.buckets) >= self.most:  # everyone is busy: start afresh, stay bounded
            self.buckets.clear()


#: A socket that falls this far behind is closed rather than buffered without end.
MAX_BACKLOG = 2_000


class Conn:
    """A connected client. Messages go out through a queue so one slow reader never holds
    up a broadcast to everyone else at the table."""

    def __init__(
        self,
        ws: Sender,
        table_id: str,
        seat: int | None,
        token: str | None,
        bucket: TokenBucket,
        deltas: bool = False,
    ) -> None:
        self.ws = ws
        self.deltas = deltas  # events carry a state patch (deltas.py) rather than the state
        self.table_id = table_id
        self.seat = seat
        self.token = token  # sha256 of the seat token, to notice a seat handed over
        self.bucket = bucket
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= MAX_BACKLOG:
            self.close()
            return
        self.queue.put_nowait(text)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)

    async def pump(self) -> None:
        """Write queued messages until closed (run as a task beside the reader)."""
        while True:
            text = await self.queue.get()
            if text is None:
                return
            await self.ws.send_text(text)
