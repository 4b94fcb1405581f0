"""A player sitting down with a key: what the seat event keeps of them, and their row in
the players' seats (their "Your tables" on every device)."""

from __future__ import annotations

import hashlib
import time
from typing import Any

from vertex.server.players.identity import Me
from vertex.server.storage.beside import seat_turns
from vertex.server.storage.players import SeatRow
from vertex.server.storage.store import Store
from vertex.server.table import ratings
from vertex.server.table.pools import pool_of
from vertex.server.table.spec import TableSpec
from vertex.server.table.table import Table


def address_hash(address: str) -> str:
    """An address as a seat event keeps it: enough to tell two seats taken from one address
    apart from two that were not (finished.py), never the address itself."""
    return hashlib.blake2b(address.encode(), digest_size=12, person=b"vertex-seat").hexdigest()


async def seat_facts(store: Store, table: Table, me: Me, address: str) -> dict[str, Any]:
    """What `Table.take_seat` takes of a player: id, the address's hash and, at a rated
    table, their rating in its pool now."""
    out: dict[str, Any] = {"id": me.id, "address": address_hash(address)}
    pool = pool_of(table.game.id, table.game.options_dict())
    if table.rated and pool is not None:
        row = await store.players.rating(me.id, pool.id)
        mu, sigma = (row.mu, row.sigma) if row is not None else (ratings.MU, ratings.SIGMA)
        out["rating"] = ratings.shown(mu, sigma)
    return out


async def seated(store: Store, table: Table, seat: int, me: Me, v: int) -> None:
    """The player's row for the seat taken at version `v`."""
    pool = pool_of(table.game.id, table.game.options_dict())
    status, due = seat_turns(table)
    row = SeatRow(table.id, seat, table.game.id, pool.id if pool else None, status, seat in due)
    await store.players.seated(row, me.id, v - 1, time.time())


async def rematch_players(store: Store, spec: TableSpec) -> tuple[TableSpec, set[str]]:
    """A rematch's spec with its players as they are now, and the ids of those forgotten
    since (their seats show a former player). A rated rematch stays rated only while every
    seat's player is still there; each seat then shows their rating in the pool now."""
    ids = [s.player for s in spec.seats if s.player is not None]
    if not ids:
        return spec, set()
    names = await store.players.names(ids)
    gone = {pid for pid in ids if names.get(pid) is None}
    pool = pool_of(spec.game, spec.options)
    everyone = all(s.player is not None for s in spec.seats)
    if not spec.rated or pool is None or gone or not everyone:
        seats = [s.model_copy(update={"address": None, "rating": None}) for s in spec.seats]
        return spec.model_copy(update={"rated": False, "seats": seats}), gone
    seats = []
    for s in spec.seats:
        row = await store.players.rating(s.player or "", pool.id)
        mu, sigma = (row.mu, row.sigma) if row is not None else (ratings.MU, ratings.SIGMA)
        seats.append(s.model_copy(update={"rating": ratings.shown(mu, sigma)}))
    return spec.model_copy(update={"seats": seats}), gone


async def rematch_seated(store: Store, table: Table, gone: set[str]) -> None:
    """A rematch's player seats as their rows (their "Your tables" on every device); the
    seats of players forgotten since show a former player."""
    pool = pool_of(table.game.id, table.game.options_dict())
    status, due = seat_turns(table)
    v, now = table.v, time.time()
    for n, seat in enumerate(table.seats):
        if seat.player is None:
            continue
        if seat.player in gone:
            seat.former = True
            continue
        row = SeatRow(table.id, n, table.game.id, pool.id if pool else None, status, n in due)
        await store.players.seated(row, seat.player, v, now)
