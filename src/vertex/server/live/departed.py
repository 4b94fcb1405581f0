"""A player whose key stopped (replaced, or the player forgotten), on every process at once.

Every request checks its key in the store, so an old key is refused everywhere already;
what a process holds of the player is let go here: the sockets their key opened (sent
`bad-key`, then closed: a page that still has the player's key, a new one, comes back with
it) and, once forgotten, their name at the tables it holds (a former player's seat; those
tables' sockets are told `{"t": "former", "seats": [N…]}`).
The process that changed the key does this itself and tells the others over the bus
(site/bus.py), as a message of no table.
"""

from __future__ import annotations

from typing import Any

from vertex.server.errors import ApiError
from vertex.server.live.protocol import error
from vertex.server.live.sockets import Sockets, dumps
from vertex.server.site.bus import LocalBus, RedisBus
from vertex.server.table.table import Table

Bus = LocalBus | RedisBus

#: The bus's "table" for these messages (no table's id is empty), and the event's key.
CHANNEL = ""
KEY = "player_gone"


def _refusal() -> str:
    # (players/identity.py's `bad-key`: live does not import players)
    return dumps(error(ApiError("bad-key", "that player key is not (or no longer) valid", 401)))


async def gone(
    tables: dict[str, Table], sockets: Sockets, bus: Bus, pid: str, forgotten: bool
) -> None:
    """Let the player go here, and tell the other processes."""
    let_go(tables, sockets, pid, forgotten)
    await bus.publish(CHANNEL, {KEY: {"id": pid, "forgotten": forgotten}})


def heard(tables: dict[str, Table], sockets: Sockets, event: dict[str, Any]) -> None:
    """Another process let a player go: so does this one."""
    msg = event[KEY]
    let_go(tables, sockets, str(msg["id"]), bool(msg.get("forgotten")))


def let_go(tables: dict[str, Table], sockets: Sockets, pid: str, forgotten: bool) -> int:
    """Let the player go here: how many of their key's sockets were."""
    if forgotten:
        for table in list(tables.values()):
            seats = [n for n, s in enumerate(table.seats) if s.player == pid]
            for n in seats:
                table.seats[n].former = True
            if seats:  # the pages there show it at once (no log event says so)
                sockets.tell(table.id, {"t": "former", "seats": seats})
    return sockets.let_go_player(pid, _refusal())
