"""Each table's latest events' messages, as they were sent, for sockets that come back with
`since` — kept as compressed bytes, bounded by count (`RECENT`), in bytes per table, and in
bytes for the process.

A message carries the whole new state: on a GYØ 30 board ~290 kB of JSON and ~2 MB as
Python objects, so a table's 32 latest messages held as dicts were ~42-64 MB (issue 24).
Once a message has gone out it is packed (`Sent.pack`): its full form and, when a socket
took deltas, its patch form, each zlib-compressed — as the JSON text the broadcast made when
a socket took that form, else marshalled (a sixth of `json.dumps`'s time): ~40 kB and
~10 kB on GYØ 30. A form under `SMALL` bytes is kept as it is, not compressed: on a 3x3
board zlib took ~25 µs a move (~4 % of a move flat out) to save ~2.5 kB. A socket that
comes back with `since` gets them decoded; what is dropped is the oldest, and one asking
for more than what is kept gets a snapshot.
"""

from __future__ import annotations

import json
import marshal
import zlib
from collections import deque
from collections.abc import Iterable
from typing import Any, Generic, Protocol, TypeVar

from vertex.server.table.deltas import Patch, diff

#: Messages a table keeps, at most.
RECENT = 32
#: zlib's fastest level: ~1.7 ms and 6.6x on a GYØ 30 state (bench/bench_recent.py).
LEVEL = 1
#: A packed form shorter than this (bytes of JSON or marshal) is kept uncompressed.
SMALL = 4096


def dumps(msg: dict[str, Any]) -> str:
    return json.dumps(msg, separators=(",", ":"))


def _packed(text: str | None, msg: dict[str, Any]) -> bytes:
    """The form's bytes after a tag: `j`/`m` compressed JSON/marshal, `J`/`M` as they are."""
    raw, tag = (text.encode(), b"j") if text is not None else (marshal.dumps(msg), b"m")
    if len(raw) < SMALL:
        return tag.upper() + raw
    return tag + zlib.compress(raw, LEVEL)


def _unpacked(data: bytes) -> dict[str, Any]:
    tag = data[:1]
    raw = data[1:] if tag.isupper() else zlib.decompress(data[1:])
    out: dict[str, Any] = json.loads(raw) if tag in b"jJ" else marshal.loads(raw)
    return out


#: Fields every event message carries that a socket taking deltas keeps from the message
#: before when its patch form leaves them out, unchanged (the page: js/table/model.js
#: `applyEvent` folds each only when present).
KEPT = ("requests", "rematch", "analysis", "clock_plies")


class Sent:
    """An event's message as sent, the seats sealed when it was made, and (on demand) its
    state as a patch on the state sent before (deltas.py; None: send the full state).

    Fresh, it holds the message's dict (what the broadcast reads); packed, only compressed
    JSON, decoded again when a socket catches up (rare: a reconnect)."""

    __slots__ = (
        "_base",
        "_full",
        "_msg",
        "_packed",
        "_patch",
        "_same",
        "_texts",
        "sealed",
        "size",
        "v",
    )

    def __init__(
        self,
        msg: dict[str, Any],
        sealed: frozenset[int],
        base: dict[str, Any] | None,
        same: tuple[str, ...] = (),
    ) -> None:
        self._msg: dict[str, Any] | None = msg
        #: fields left out of the patch form: as in the message before (KEPT)
        self._same = same
        self.v: int = msg["v"]
        self.sealed = sealed
        self._base = base  # the state sent before, when a patch on it can be trusted
        self._patch: Patch | bool | None = False  # False: not worked out yet
        self._texts: dict[bool, str] = {}  # the JSON made so far: full (False), deltas (True)
        self._full = b""  # packed: the full message
        self._packed: bytes | None = None  # packed: the deltas form (None: the full one)
        self.size = 0  # bytes held once packed, as recent.py counts them

    @property
    def msg(self) -> dict[str, Any]:
        if self._msg is not None:
            return self._msg
        return _unpacked(self._full)

    @property
    def patch(self) -> Patch | None:
        if self._patch is False:
            base, self._base = self._base, None
            self._patch = None if base is None else diff(base, self.msg["state"])
        assert self._patch is not True
        return self._patch

    def for_deltas(self) -> dict[str, Any]:
        """The message for a socket that takes deltas."""
        if self._msg is None:  # packed
            if self._packed is None:
                return self.msg
            return _unpacked(self._packed)
        if "state" not in self._msg or self.patch is None:
            return self._msg
        out = {k: v for k, v in self._msg.items() if k != "state" and k not in self._same}
        out["patch"] = self.patch
        return out

    def text(self, deltas: bool) -> str:
        """The message's JSON as it is (every seat's move shown: for viewers nothing is
        hidden from), made once: the broadcast's text is what `pack` compresses."""
        made = self._texts.get(deltas)
        if made is None:
            made = self._texts[deltas] = dumps(self.for_deltas() if deltas else self.msg)
        return made

    def pack(self) -> int:
        """Keep only compressed bytes (the dicts go); the bytes now held."""
        if self._msg is None:
            return self.size
        self._full = _packed(self._texts.get(False), self._msg)
        # the patch form only when a socket took it (the diff is worked out for it): a
        # socket catching up with deltas gets the full form of the others
        if "state" in self._msg and self._patch is not False and self.patch is not None:
            self._packed = _packed(self._texts.get(True), self.for_deltas())
        self._msg, self._base, self._patch, self._texts = None, None, None, {}
        self.size = len(self._full) + len(self._packed or b"")
        return self.size


class Message(Protocol):
    """A kept message (Sent): its version, and `pack`, which gives the bytes it holds."""

    v: int

    def pack(self) -> int: ...


M = TypeVar("M", bound=Message)


class RecentEvents(Generic[M]):
    def __init__(self, per_table: int, total: int, most: int = RECENT) -> None:
        self.per_table = per_table
        self.budget = total
        self.most = most
        self._kept: dict[str, deque[tuple[M, int]]] = {}
        self._bytes: dict[str, int] = {}
        self.total = 0  # bytes held, all tables

    def of(self, tid: str) -> Iterable[M]:
        return (m for m, _ in self._kept.get(tid, ()))

    def bytes_of(self, tid: str) -> int:
        return self._bytes.get(tid, 0)

    def reset(self, tid: str, sents: Iterable[M] = ()) -> None:
        self.forget(tid)
        self._kept[tid] = deque()
        self._bytes[tid] = 0
        for sent in sents:
            self.add(tid, sent)

    def forget(self, tid: str) -> None:
        self.total -= self._bytes.pop(tid, 0)
        self._kept.pop(tid, None)

    def add(self, tid: str, sent: M) -> None:
        """Keep `sent` (packed now: add it once it has gone out)."""
        kept = self._kept.setdefault(tid, deque())
        size = sent.pack()
        kept.append((sent, size))
        self._bytes[tid] = self._bytes.get(tid, 0) + size
        self.total += size
        while len(kept) > self.most or (self._bytes[tid] > self.per_table and len(kept) > 1):
            self._drop_oldest(tid)
        while self.total > self.budget:
            biggest = max(self._bytes, key=lambda t: self._bytes[t])
            if not self._kept[biggest]:
                break
            self._drop_oldest(biggest)

    def _drop_oldest(self, tid: str) -> None:
        _gone, size = self._kept[tid].popleft()
        self._bytes[tid] -= size
        self.total -= size
