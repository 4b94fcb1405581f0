"""Chat at a table: a seat's line, checked (text.py) by the command, logged as an event."""

from __future__ import annotations

from vertex.server.table.events import StoredEvent
from vertex.server.table.table import Table


def line(t: Table, seat: int, text: str, now: float) -> StoredEvent:
    return t.event("chat", now, seat=seat, name=t.seats[seat].name, text=text)
