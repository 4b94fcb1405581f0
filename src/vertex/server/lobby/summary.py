"""A table as the lobby shows it: a short summary built from the table, no token in it.

The same summary goes to `GET /api/lobby`, to `/ws/lobby` and into the lobby's row in the
store (so another process, or this one after a restart, shows it without loading the table).
"""

from __future__ import annotations

from typing import Any

from vertex.core import create_game
from vertex.server.table import turns
from vertex.server.table.pools import RATED_CLOCK, pool_of
from vertex.server.table.spec import TableSpec
from vertex.server.table.table import Table

OPEN, LIVE, FINISHED = "open", "live", "finished"
SECTIONS = (OPEN, LIVE, FINISHED)


def section_of(table: Table) -> str | None:
    """Where a listed table belongs; None: in no section (it expired, or was cancelled
    before the first move: no game to show)."""
    if table.result is not None:
        return None if table.result.get("reason") in ("expired", "cancelled") else FINISHED
    return LIVE if table.started else OPEN


def summary(table: Table) -> dict[str, Any]:
    seats = []
    for seat in table.seats:
        seats.append(
            {"name": seat.name, "kind": seat.kind, "level": seat.level, "free": not seat.taken}
        )
    result = None
    if table.result is not None:
        result = {"winners": table.result.get("winners"), "reason": table.result.get("reason")}
    return {
        "id": table.id,
        "game": table.game.id,
        "options": table.game.options_dict(),
        "seats": seats,
        "free_seats": sum(1 for s in table.seats if not s.taken),
        "clock": table.clock if table.spec.clock is not None else None,
        "undo": table.undo_allowed,
        "analysis": table.analysis_allowed,
        "section": section_of(table),
        "listed_at": table.created_at,
        "started_at": table.started_at,
        "finished_at": table.last_at if table.result is not None else None,
        "scores": list(table.state.scores) if table.started else None,
        "to_move": list(turns.due(table)),
        "result": result,
        "v": table.v,
    }


def quick(spec: TableSpec) -> bool:
    """Can "Play now" seat someone here: the game's default options, people in every seat,
    no clock (the default), no take-backs and no analysis during play; or rated Play now's:
    a pool's options with its clock (`RATED_CLOCK`)."""
    if spec.rated:
        clock = None if spec.clock is None else spec.clock.as_dict()
        return clock == RATED_CLOCK and pool_of(spec.game, spec.options) is not None
    if spec.clock is not None or spec.undo or spec.analysis:
        return False
    if any(s.kind != "human" for s in spec.seats):
        return False
    return bool(spec.options == create_game(spec.game).options_dict())
