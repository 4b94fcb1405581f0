"""Spectators' viewers as counted: one table's addresses (`TableCount`) and how processes
tell each other theirs through Redis (`RedisCounts`; `LocalCounts` alone). watching.py
explains the count and runs it.
"""

from __future__ import annotations

import hashlib

from vertex.server.site.process_fields import ProcessFields

WATCHING = "vertex:viewers:"
#: Addresses one process lists for one table (12 characters each); past it, only a number.
LISTED = 500

#: What another process says of a table: its addresses' digests (None: past `LISTED`, only
#: their number), and their number.
Field = tuple[frozenset[str] | None, int]


def viewer_key(address: str) -> str:
    """A spectator's address as the count keeps it (and publishes it): a short digest."""
    return hashlib.blake2b(address.encode(errors="replace"), digest_size=6).hexdigest()


def encode(keys: dict[str, int]) -> str:
    if len(keys) > LISTED:
        return str(len(keys))
    return f"{len(keys)}|{','.join(keys)}"


def decode(value: str) -> Field:
    n, bar, listed = value.partition("|")
    if not bar:
        return None, int(n)
    keys = frozenset(listed.split(",")) if listed else frozenset()
    return keys, len(keys)


class LocalCounts:
    """One process: nobody else has spectators."""

    async def publish(self, fields: dict[str, str | None]) -> None:
        return None

    async def remote(self, tids: list[str]) -> dict[str, dict[str, Field]]:
        return {}

    async def close(self) -> None:
        return None


class RedisCounts:
    def __init__(self, url: str, me: str, ttl_s: float, site: str = "vertex") -> None:
        self.fields = ProcessFields(url, me, ttl_s, WATCHING.replace("vertex:", site + ":", 1))

    async def publish(self, fields: dict[str, str | None]) -> None:
        """This process's spectators per table (`encode`; None: none here any more)."""
        await self.fields.write(fields)

    async def remote(self, tids: list[str]) -> dict[str, dict[str, Field]]:
        """The other live processes' spectators, per table, by process."""
        got = await self.fields.read_by_worker(tids)
        return {tid: {w: decode(v) for w, v in values.items()} for tid, values in got.items()}

    async def close(self) -> None:
        await self.fields.close()


class TableCount:
    """One table's spectators as this process knows them: its own (address key -> sockets)
    and the other processes' as last read. Joining and leaving cost O(1)."""

    def __init__(self) -> None:
        self.mine: dict[str, int] = {}
        self.others: set[str] = set()  # the other processes' listed addresses
        self.unlisted = 0  # and the number of those past `LISTED`
        self.earlier: set[str] = set()  # listed by a process before this one
        self.both = 0  # of `mine`, how many are in `others`
        self.early = 0  # of `mine`, how many are in `earlier`

    def add(self, key: str) -> bool:
        """One more socket of `key`; whether it is a new address here."""
        n = self.mine.get(key, 0)
        self.mine[key] = n + 1
        if n:
            return False
        self.both += key in self.others
        self.early += key in self.earlier
        return True

    def remove(self, key: str) -> bool:
        """One socket of `key` less; whether its address left."""
        n = self.mine.get(key, 0)
        if n > 1:
            self.mine[key] = n - 1
            return False
        if not n:
            return False
        del self.mine[key]
        self.both -= key in self.others
        self.early -= key in self.earlier
        return True

    def heard(self, fields: dict[str, Field], me: str) -> None:
        """The other processes' fields, as just read."""
        self.others, self.earlier, self.unlisted = set(), set(), 0
        for worker, (keys, n) in fields.items():
            if keys is None:
                self.unlisted += n
                continue
            self.others |= keys
            if worker < me:
                self.earlier |= keys
        self.both = sum(1 for k in self.mine if k in self.others)
        self.early = sum(1 for k in self.mine if k in self.earlier)

    def total(self) -> int:
        return len(self.mine) + len(self.others) - self.both + self.unlisted

    def share(self) -> int:
        """What this process tells the lobby: its addresses no earlier process holds."""
        return len(self.mine) - self.early

    def empty(self) -> bool:
        return not self.mine and not self.others and not self.unlisted
