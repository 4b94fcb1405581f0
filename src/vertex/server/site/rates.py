"""Message allowances: a token bucket, and one per seat token for commands over HTTP.

A socket holds its own bucket (live/conn.py); a seat's commands over HTTP share one per
token here (site/quotas.py keeps them per process while Redis is away)."""

from __future__ import annotations

import time


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
