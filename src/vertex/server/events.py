"""Table events: the kinds a table's log holds, and one fold function per kind.

A command (table.py) checks a request and returns the event that carries it out; `fold`
applies an event to a table. The same fold rebuilds a table from its log, keeps the copies
on other processes in step, and is the only place a table changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vertex.server.table import Table


@dataclass(frozen=True)
class StoredEvent:
    """One entry of a table's log. `seq` is the table version after the event."""

    seq: int
    kind: str
    data: dict[str, Any]
    at: float


class Kind(StrEnum):
    SEAT = "seat"
    MOVE = "move"
    RESIGN = "resign"
    TIMEOUT = "timeout"
    UNDO_REQUEST = "undo-request"
    UNDO_ACCEPT = "undo-accept"
    UNDO = "undo"
    END_REQUEST = "end-request"
    END = "end"
    HAND_OVER = "hand-over"
    REMATCH = "rematch"
    EXPIRED = "expired"
    CHAT = "chat"


#: Events that change the game or the result: their messages carry the new state.
STATE_KINDS = frozenset(
    {Kind.MOVE, Kind.UNDO, Kind.END, Kind.RESIGN, Kind.TIMEOUT, Kind.EXPIRED, Kind.HAND_OVER}
)
#: Events that change the seats: their messages carry the seats.
SEAT_KINDS = frozenset({Kind.SEAT, Kind.HAND_OVER})


def _seat(t: Table, ev: StoredEvent) -> None:
    seat = t.seats[ev.data["seat"]]
    seat.name, seat.token = ev.data["name"], ev.data["_token"]
    t.check_start(ev.at)


def _move(t: Table, ev: StoredEvent) -> None:
    t.apply_move(ev)


def _lost(t: Table, ev: StoredEvent) -> None:  # resign, timeout
    t.finish(ev.kind, ev.at, loser=ev.data["seat"])


def _undo_request(t: Table, ev: StoredEvent) -> None:
    t.undo_request = (ev.data["seat"], ev.data["ply"])
    t.undo_accepts = set()


def _undo_accept(t: Table, ev: StoredEvent) -> None:
    t.undo_accepts.add(ev.data["seat"])


def _undo(t: Table, ev: StoredEvent) -> None:
    t.go_back(ev.data["ply"], ev.at)


def _end_request(t: Table, ev: StoredEvent) -> None:
    t.end_accepts.add(ev.data["seat"])


def _end(t: Table, ev: StoredEvent) -> None:
    t.end_accepts = set()
    t.state = t.state.end_by_agreement()
    t.times.append(ev.at)
    t.clock_step(ev.at, None)
    t.finish("agreed", ev.at)


def _hand_over(t: Table, ev: StoredEvent) -> None:
    n = ev.data["seat"]
    seat = t.seats[n]
    seat.kind, seat.level, seat.token = "ai", ev.data["level"], None
    t.aims.pop(n, None)
    t.check_start(ev.at)


def _rematch(t: Table, ev: StoredEvent) -> None:
    t.rematch = ev.data["table"]


def _expired(t: Table, ev: StoredEvent) -> None:
    t.result = {"reason": "expired", "winners": []}
    t.due_since = {}


def _chat(t: Table, ev: StoredEvent) -> None:
    d = ev.data
    t.chat_lines.append({"seat": d["seat"], "name": d["name"], "text": d["text"], "at": ev.at})


FOLDS: dict[Kind, Callable[[Table, StoredEvent], None]] = {
    Kind.SEAT: _seat,
    Kind.MOVE: _move,
    Kind.RESIGN: _lost,
    Kind.TIMEOUT: _lost,
    Kind.UNDO_REQUEST: _undo_request,
    Kind.UNDO_ACCEPT: _undo_accept,
    Kind.UNDO: _undo,
    Kind.END_REQUEST: _end_request,
    Kind.END: _end,
    Kind.HAND_OVER: _hand_over,
    Kind.REMATCH: _rematch,
    Kind.EXPIRED: _expired,
    Kind.CHAT: _chat,
}
assert set(FOLDS) == set(Kind), "every event kind has its fold"


def fold(table: Table, ev: StoredEvent) -> None:
    """Apply one event (the next version) to the table."""
    if ev.seq != table.v + 1:
        raise ValueError(f"table {table.id}: event {ev.seq} after version {table.v}")
    try:
        kind = Kind(ev.kind)
    except ValueError:
        raise ValueError(f"table {table.id}: unknown event kind {ev.kind!r}") from None
    table.v = ev.seq
    table.last_at = ev.at
    FOLDS[kind](table, ev)
