"""Presence: which seats have a socket open, on any process.

Each process knows its own sockets (sockets.py). With several processes each one also
publishes, per table, the seats connected to it (process_fields.py: a field per process in
a Redis hash, stamped with an expiry it renews while it lives), and reads the others' fields
back. A process that dies stops renewing, so its seats drop out within a few seconds.
"""

from __future__ import annotations

from collections.abc import Iterable

from vertex.server.site.process_fields import ProcessFields

PRESENCE = "vertex:presence:"


class LocalPresence:
    """One process: nobody else has sockets."""

    async def publish(self, tid: str, seats: Iterable[int]) -> None:
        return None

    async def refresh(self, held: dict[str, frozenset[int]]) -> None:
        return None

    async def remote(self, tid: str) -> set[int]:
        return set()

    async def remote_many(self, tids: list[str]) -> dict[str, set[int]]:
        return {t: set() for t in tids}

    async def close(self) -> None:
        return None


class RedisPresence:
    def __init__(self, url: str, me: str, ttl_s: float, site: str = "vertex") -> None:
        self.fields = ProcessFields(url, me, ttl_s, PRESENCE.replace("vertex:", site + ":", 1))

    async def publish(self, tid: str, seats: Iterable[int]) -> None:
        seats = list(seats)
        await self.fields.write({tid: _seats(seats) if seats else None})

    async def refresh(self, held: dict[str, frozenset[int]]) -> None:
        """Renew this process's fields for every table it has seats at."""
        await self.fields.write({tid: _seats(seats) for tid, seats in held.items()})

    async def remote(self, tid: str) -> set[int]:
        """Seats connected at the other live processes."""
        try:
            values = await self.fields.read_one(tid)
        except Exception:  # Redis is away: the seats here are all we know of now
            return set()
        return _union(values)

    async def remote_many(self, tids: list[str]) -> dict[str, set[int]]:
        return {tid: _union(v) for tid, v in (await self.fields.read(tids)).items()}

    async def close(self) -> None:
        await self.fields.close()


def _seats(seats: Iterable[int]) -> str:
    return ",".join(str(s) for s in sorted(seats))


def _union(values: list[str]) -> set[int]:
    return {int(s) for seats in values if seats for s in seats.split(",")}
