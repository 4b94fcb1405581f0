"""What a player does in the lobby to sit down or leave it: Play now, and unlisting.

Both hold the game's Play now lock (one per game, on every process: two players at once
meet at one table) and save the lobby's rows before letting it go (the next holder, on any
process, reads them).
"""

from __future__ import annotations

import time
from typing import Any

from vertex.server.errors import ApiError
from vertex.server.lobby.place import Lobby
from vertex.server.play.new_tables import rated_setup
from vertex.server.players.identity import Me
from vertex.server.table import ratings
from vertex.server.table.games import checked_game
from vertex.server.table.pools import Pool


async def play_now(lobby: Lobby, game: str, name: str, creator: str) -> dict[str, Any]:
    """Sit at the oldest listed table of `game` waiting for one more player, or open one
    and wait there."""
    hub = lobby.hub
    made = checked_game(game, {})
    async with lobby.shared.lock("play-now:" + game):
        for tid in await lobby.rows.waiting_for_one(game):
            try:
                table = await hub.get(tid)
                if hub.scaled:
                    await hub.repo.catch_up(table)  # another process may have written
                free = [n for n, s in enumerate(table.seats) if not s.taken]
                if len(free) != 1 or table.is_over:
                    continue
                token, _v = await hub.take_seat(tid, free[0], name)
            except ApiError:
                continue
            await lobby.saving.flush()
            return {"id": tid, "seat": free[0], "token": token, "waiting": False}
        settings = {"undo": False, "clock": None, "on_timeout": "computer", "analysis": False}
        table = await hub.new_tables.create(made, None, settings, creator, listed=True)
        token, _v = await hub.take_seat(table.id, 0, name)
        await lobby.saving.flush()
        return {"id": table.id, "seat": 0, "token": token, "waiting": True}


async def play_rated(lobby: Lobby, pool: Pool, me: Me, creator: str) -> dict[str, Any]:
    """Rated Play now in the pool the player chose (any of the game's): sit at the waiting
    table of `pool` whose player's rating is nearest to ours (within the range their wait
    has widened to: rows.rated_waiting), or open one and wait there."""
    hub = lobby.hub
    held = await hub.store.players.rating(me.id, pool.id)
    rating = round(held.mu if held is not None else ratings.MU)
    async with lobby.shared.lock("play-now:" + pool.id):
        now = time.time()
        for tid in await lobby.rows.rated_waiting(pool.game, pool.id, rating, creator, now):
            try:
                table = await hub.get(tid)
                if hub.scaled:
                    await hub.repo.catch_up(table)
                free = [n for n, s in enumerate(table.seats) if not s.taken]
                if not free or table.is_over or any(s.player == me.id for s in table.seats):
                    continue
                token, _v = await hub.take_seat(tid, free[0], "", me, creator)
            except ApiError:
                continue
            await lobby.saving.flush()
            return {"id": tid, "seat": free[0], "token": token, "waiting": False}
        made = checked_game(pool.game, dict(pool.given))
        settings = {"undo": False, "clock": None, "on_timeout": "lose", "analysis": False}
        seats, settings = rated_setup(made, None, settings)
        table = await hub.new_tables.create(made, seats, settings, creator, listed=True)
        token, _v = await hub.take_seat(table.id, 0, "", me, creator)
        await lobby.rows.rated(table.id, pool.id, rating)
        await lobby.saving.flush()
        return {"id": table.id, "seat": 0, "token": token, "waiting": True}


async def unlist(lobby: Lobby, tid: str, token: str) -> dict[str, Any]:
    """A seat holder takes the table off the list (Play now's "cancel" too)."""
    hub = lobby.hub
    table = await hub.get(tid)
    if table.seat_of(token) is None:
        raise ApiError("bad-token", "that seat token does not hold a seat at this table", 403)
    async with lobby.shared.lock("play-now:" + table.game.id):
        if hub.scaled:
            await hub.repo.catch_up(table)
        await lobby.leave(tid, time.time())
        return {"id": tid, "listed": False, "started": table.started}
