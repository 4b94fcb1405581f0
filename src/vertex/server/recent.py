"""Each table's latest events' messages, as they were sent, for sockets that come back with
`since` — bounded by count (`RECENT`), in bytes per table, and in bytes for the process.

A message carries the whole new state: on a GYØ 30 board ~330 kB of JSON (several times that
as Python objects), so 32 of them were ~42 MB for one table (issue 24). Sizes are their JSON
bytes, measured on every `MEASURE_EVERY`-th message of a table (a dump costs as much as a
broadcast) and taken as the last measured size in between: a table's states grow slowly.
What is dropped is the oldest; a socket asking for more than what is kept gets a snapshot.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable
from typing import Any, Generic, Protocol, TypeVar


class Message(Protocol):
    """A kept message (repository.Sent): its dict, and its size once counted here."""

    msg: dict[str, Any]
    size: int


Sent = TypeVar("Sent", bound=Message)

#: Messages a table keeps, at most.
RECENT = 32
MEASURE_EVERY = 16


class RecentEvents(Generic[Sent]):
    def __init__(self, per_table: int, total: int, most: int = RECENT) -> None:
        self.per_table = per_table
        self.budget = total
        self.most = most
        self._kept: dict[str, deque[Sent]] = {}
        self._bytes: dict[str, int] = {}
        self._added: dict[str, int] = {}  # messages added per table (for the sampling)
        self.total = 0  # bytes held, all tables

    def of(self, tid: str) -> Iterable[Sent]:
        return self._kept.get(tid, ())

    def bytes_of(self, tid: str) -> int:
        return self._bytes.get(tid, 0)

    def reset(self, tid: str, sents: Iterable[Sent] = ()) -> None:
        self.forget(tid)
        self._kept[tid] = deque()
        self._bytes[tid] = 0
        for sent in sents:
            self.add(tid, sent)

    def forget(self, tid: str) -> None:
        self.total -= self._bytes.pop(tid, 0)
        self._kept.pop(tid, None)
        self._added.pop(tid, None)

    def add(self, tid: str, sent: Sent) -> None:
        kept = self._kept.setdefault(tid, deque())
        n = self._added.get(tid, 0)
        self._added[tid] = n + 1
        if n % MEASURE_EVERY == 0 or not kept:
            sent.size = len(json.dumps(sent.msg, separators=(",", ":")))
        else:
            sent.size = kept[-1].size
        kept.append(sent)
        self._bytes[tid] = self._bytes.get(tid, 0) + sent.size
        self.total += sent.size
        while len(kept) > self.most or (self._bytes[tid] > self.per_table and len(kept) > 1):
            self._drop_oldest(tid)
        while self.total > self.budget:
            biggest = max(self._bytes, key=lambda t: self._bytes[t])
            if not self._kept[biggest]:
                break
            self._drop_oldest(biggest)

    def _drop_oldest(self, tid: str) -> None:
        gone = self._kept[tid].popleft()
        self._bytes[tid] -= gone.size
        self.total -= gone.size
