"""What a seat or a spectator may send, and how often: the allowances drawn on the site's
shared quotas (quotas.py).

A seat's commands (over all its sockets and HTTP, on every process), a seat's chat lines
(each is a permanent log row shown to everyone), and the spectators' chat per address and
per table — where the table's allowance is not everyone's to lose: a few addresses that
use it up cannot silence the others, whose first line a minute at a table always passes it
(their own allowance still holds). While Redis is away they are drawn on this process's
own quotas instead: a Redis outage must not stop play, the limits then hold per process.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from vertex.server.errors import ApiError
from vertex.server.settings import Limits
from vertex.server.site.faults import unavailable
from vertex.server.site.quotas import LocalQuotas, RedisQuotas


class Allowances:
    def __init__(
        self,
        limits: Limits,
        quotas: LocalQuotas | RedisQuotas,
        redis_up: Callable[[], bool],
    ) -> None:
        self.limits = limits
        self.quotas = quotas  # the site's (read at each call: tests swap its methods)
        self._redis_up = redis_up
        self._own = LocalQuotas()  # for the allowances while Redis is away

    async def command(self, token_hash: str) -> bool:
        """One command of a seat against its allowance: HTTP and every socket of the seat,
        on every process, draw on the same one."""
        lim = self.limits
        return await self._rate("seat", token_hash, lim.messages_per_second, lim.message_burst)

    async def chat(self, token_hash: str) -> None:
        """One chat line of a seat, or `rate-limited`."""
        per_minute = self.limits.chat_per_minute
        await self._per_minute(
            "chat",
            token_hash,
            per_minute,
            self.limits.chat_burst,
            f"too many chat lines: at most {per_minute:g} a minute",
            {"per_minute": per_minute},
        )

    async def spectator_line(self, address: str, tid: str) -> None:
        """One line in a table's spectators' chat, or `rate-limited`: one address over all
        its sockets and processes, and everyone at one table."""
        lim = self.limits
        rate = lim.spectator_chat_per_minute
        await self._per_minute(
            "spectator-chat",
            address,
            rate,
            lim.spectator_chat_burst,
            f"too many spectators' chat lines: at most {rate:g} a minute",
            {"why": "spectator-chat", "per_minute": rate},
        )
        rate = lim.table_spectator_chat_per_minute
        if await self._rate("spectator-chat-fresh", f"{tid}:{address}", 1 / 60, 1):
            # this address has not written here for a minute: the table's allowance, which
            # others may have used up, does not stop it (it still counts there)
            await self._rate("spectator-chat-table", tid, rate / 60, lim.table_spectator_chat_burst)
            return
        await self._per_minute(
            "spectator-chat-table",
            tid,
            rate,
            lim.table_spectator_chat_burst,
            f"this table's spectators' chat takes at most {rate:g} lines a minute",
            {"why": "spectator-chat-table", "per_minute": rate},
        )

    async def puzzle_attempt(self, address: str) -> None:
        """Attempts at puzzles from one address: each asks the solver, so they are counted
        across the site's processes (Limits.puzzle_moves_per_minute)."""
        per_minute = self.limits.puzzle_moves_per_minute
        await self._per_minute(
            "puzzle-attempt",
            address,
            per_minute,
            self.limits.puzzle_moves_burst,
            f"at most {per_minute:g} puzzle moves a minute from one address",
            {"per_minute": per_minute},
        )

    async def claim(self, address: str) -> None:
        """One name claimed from `address`, or 429 `too-many-names`."""
        per_hour = self.limits.names_per_hour
        if not await self._window("names", address, per_hour):
            raise ApiError(
                "too-many-names",
                f"at most {per_hour} names an hour from one address",
                429,
                params={"limit": per_hour},
            )

    async def key_attempts_left(self, address: str) -> None:
        """Before a key is looked up: 429 `too-many-key-attempts` once `address` failed too
        often this hour (then not even a right key is tried: guessing stops)."""
        per_hour = self.limits.key_failures_per_hour
        if await self._counted("key-failures", address) >= per_hour:
            raise self._too_many_keys()

    async def key_failed(self, address: str) -> None:
        if not await self._window("key-failures", address, self.limits.key_failures_per_hour):
            raise self._too_many_keys()

    def _too_many_keys(self) -> ApiError:
        per_hour = self.limits.key_failures_per_hour
        return ApiError(
            "too-many-key-attempts",
            f"at most {per_hour} wrong player keys an hour from one address",
            429,
            params={"limit": per_hour},
        )

    async def _window(self, name: str, key: str, limit: int) -> bool:
        if self._redis_up():
            try:
                return await self.quotas.take_window(name, key, limit, 3600.0)
            except Exception as exc:
                if unavailable(exc) is None:
                    raise
        return await self._own.take_window(name, key, limit, 3600.0)

    async def _counted(self, name: str, key: str) -> int:
        if self._redis_up():
            try:
                return await self.quotas.count_window(name, key, 3600.0)
            except Exception as exc:
                if unavailable(exc) is None:
                    raise
        return await self._own.count_window(name, key, 3600.0)

    async def _per_minute(
        self, name: str, key: str, per_minute: float, burst: int, why: str, params: dict[str, Any]
    ) -> None:
        if not await self._rate(name, key, per_minute / 60, burst):
            raise ApiError("rate-limited", why, 429, params=params)

    async def _rate(self, name: str, key: str, rate: float, burst: int) -> bool:
        """An allowance from the site's shared quotas; while Redis is away, from this
        process's own."""
        if self._redis_up():
            try:
                return await self.quotas.take_rate(name, key, rate, burst)
            except Exception as exc:
                if unavailable(exc) is None:
                    raise
        return await self._own.take_rate(name, key, rate, burst)
