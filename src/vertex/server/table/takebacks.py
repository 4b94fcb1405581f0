"""Take-backs: a seat asks to take its last move back; the other people at the table agree.

Each function checks a request against the table and returns the event that carries it out
(events.py folds it), or raises ApiError.
"""

from __future__ import annotations

from vertex.server.errors import ApiError
from vertex.server.table.events import StoredEvent
from vertex.server.table.table import Table


def request(t: Table, seat: int, now: float) -> StoredEvent:
    t.check_open()
    if not t.undo_allowed:
        raise ApiError("no-undo", "this table was set up without take-backs (undo)", 409)
    ply = last_move_ply(t, seat)
    if ply is None:
        raise ApiError(
            "nothing-to-undo",
            f"seat {seat} has no move to take back",
            409,
            params={"seat": seat},
        )
    others = [h for h in t.humans() if h != seat]
    if not others:
        return t.event("undo", now, seat=seat, ply=ply)
    return t.event("undo-request", now, seat=seat, ply=ply)


def accept(t: Table, seat: int, now: float) -> StoredEvent:
    t.check_open()
    if t.undo_request is None:
        raise ApiError("nothing-to-accept", "nobody asked to take a move back", 409)
    asker, ply = t.undo_request
    if seat == asker:
        raise ApiError(
            "not-allowed",
            "the other players accept your take-back, not you",
            409,
            params={"why": "own-undo"},
        )
    needed = {h for h in t.humans() if h != asker}
    if needed <= t.undo_accepts | {seat}:
        return t.event("undo", now, seat=asker, ply=ply)
    return t.event("undo-accept", now, seat=seat)


def decline(t: Table, seat: int, now: float) -> StoredEvent:
    """One of the others says no: the request is withdrawn, and the asker is told (the
    event names who declined)."""
    t.check_open()
    if t.undo_request is None:
        raise ApiError("nothing-to-accept", "nobody asked to take a move back", 409)
    if seat == t.undo_request[0]:
        raise ApiError(
            "not-allowed",
            "the other players decline your take-back, not you",
            409,
            params={"why": "own-undo"},
        )
    return t.event("undo-decline", now, seat=seat, asker=t.undo_request[0])


def undoable(t: Table) -> list[int]:
    """The seats with a move of theirs to take back now (the page offers "take back" only
    to them)."""
    if not t.undo_allowed or not t.started or t.is_over:
        return []
    return [s for s in t.humans() if last_move_ply(t, s) is not None]


def last_move_ply(t: Table, seat: int) -> int | None:
    for i in range(len(t.state.history) - 1, -1, -1):
        if t.state.history[i][0] == seat:
            return i
    return None
