"""Ending a game by agreement: every person at the table agrees to stop where it stands.

Each function checks a request and returns the event that carries it out, or raises ApiError.
"""

from __future__ import annotations

from vertex.server.errors import ApiError
from vertex.server.table.events import StoredEvent
from vertex.server.table.table import Table


def request(t: Table, seat: int, now: float) -> StoredEvent:
    t.check_open()
    if not t.game.can_end_by_agreement:
        raise ApiError(
            "not-allowed",
            f"{t.game.name} cannot be ended by agreement",
            409,
            params={"why": "no-agreement"},
        )
    if not t.started:
        raise ApiError("not-started", "the game has not started", 409)
    if seat in t.end_accepts:
        raise ApiError("already-asked", "you agreed to end already", 409)
    if set(t.humans()) <= t.end_accepts | {seat}:
        return t.event("end", now, seat=seat)
    return t.event("end-request", now, seat=seat)


def accept(t: Table, seat: int, now: float) -> StoredEvent:
    if not t.end_accepts:
        raise ApiError("nothing-to-accept", "nobody asked to end the game", 409)
    return request(t, seat, now)
