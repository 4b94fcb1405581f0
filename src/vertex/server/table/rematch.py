"""Rematch: once a game is over, the same game and options at a new table, seats rotated.

`decide` checks the request and returns the event that links the new table; `spec` is the
new table's set-up.
"""

from __future__ import annotations

from vertex.server.errors import ApiError
from vertex.server.table.events import StoredEvent
from vertex.server.table.spec import SeatSpec, TableSpec
from vertex.server.table.table import Table


def decide(t: Table, new_id: str, now: float) -> StoredEvent:
    if t.result is None:
        raise ApiError("not-over", "a rematch starts once the game is over", 409)
    if t.rematch is not None:
        raise ApiError(
            "rematched",
            f"the rematch is at table {t.rematch}",
            409,
            params={"table": t.rematch},
        )
    return t.event("rematch", now, table=new_id)


def spec(t: Table, seed: int) -> TableSpec:
    """Same game and options, seats rotated so another player moves first.

    Players keep their seat tokens: each follows the table link with the token they have,
    and a player's seat stays theirs (their "Your tables" and history list the rematch).
    A rated table's rematch is rated when every seat is still a player's (a forgotten one
    makes it unrated: players/seats.py checks that and sets the ratings): the same pool and
    clock, and each seat keeps the address hash it was taken from, so the anti-farming rules
    (finished.py, the store's daily limit) judge it as they judged the first.
    """
    n = len(t.seats)
    order = [t.seats[(i + 1) % n] for i in range(n)]
    rated = t.rated and all(s.player is not None and not s.former for s in order)
    seats = [
        SeatSpec(
            kind=s.kind,
            level=s.level,
            name=s.name,
            token=s.token,
            player=s.player,
            address=s.address if rated else None,
        )
        for s in order
    ]
    update = {"seed": seed, "rematch_of": t.id, "seats": seats, "rated": rated}
    return t.spec.model_copy(update=update)
