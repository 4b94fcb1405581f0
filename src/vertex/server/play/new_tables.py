"""Opening tables: a new one from the form or Play now, and a rematch's.

Each counts against its creator's tables-an-hour limit (in the store's log, which counts
across restarts, and in the site's shared window, exact across processes); one table is made
at a time in a process, so two requests at once cannot both pass the count. A listed table
is made inside the lobby's `listing` (its own limit of waiting tables an address may have).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from typing import Any, Protocol

from vertex.core import Game
from vertex.server.compute.autoplay import Autoplay
from vertex.server.errors import ApiError
from vertex.server.live.sockets import dumps
from vertex.server.players import seats as player_seats
from vertex.server.settings import Limits
from vertex.server.site.quotas import LocalQuotas, RedisQuotas
from vertex.server.storage.repository import Repository
from vertex.server.storage.store import Store
from vertex.server.table.pools import RATED_CLOCK, pool_of
from vertex.server.table.spec import SeatSpec, TableSpec
from vertex.server.table.table import Table

log = logging.getLogger("vertex.server")


def not_ratable(reason: str, message: str) -> ApiError:
    return ApiError("not-ratable", message, 422, params={"reason": reason})


def rated_setup(
    game: Game[Any], seats: list[SeatSpec] | None, settings: dict[str, Any]
) -> tuple[list[SeatSpec] | None, dict[str, Any]]:
    """A rated table's seats and settings, or 422 `not-ratable` (`reason`: `not-a-pool`,
    `computer-seat`). Its clock decides an abandoned game: the one who left loses
    (`on_timeout: lose`; with no clock asked for, `RATED_CLOCK`); no take-backs."""
    if pool_of(game.id, game.options_dict()) is None:
        raise not_ratable("not-a-pool", "rated tables play a rating pool's exact options")
    if seats is not None and any(s.kind != "human" for s in seats):
        raise not_ratable("computer-seat", "every seat of a rated table is a person's")
    clock = settings.get("clock") or dict(RATED_CLOCK)
    out = {**settings, "clock": clock, "on_timeout": "lose", "undo": False, "analysis": False}
    out["rated"] = True
    return seats, out


class Listing(Protocol):
    """What opening a listed table needs of the lobby (lobby/place.py)."""

    def listing(self, creator: str) -> contextlib.AbstractAsyncContextManager[None]: ...

    async def created(self, table: Table, creator: str) -> None: ...


class NewTables:
    def __init__(
        self,
        limits: Limits,
        store: Store,
        quotas: LocalQuotas | RedisQuotas,
        repo: Repository,
        autoplay: Autoplay,
        lobby: Listing,
    ) -> None:
        self.limits = limits
        self.store = store
        self.quotas = quotas  # the site's (read at each call: tests swap its methods)
        self.repo = repo
        self.autoplay = autoplay
        self.lobby = lobby
        self._creating = asyncio.Lock()

    async def create(
        self,
        game: Game[Any],
        seats: list[SeatSpec] | None,
        settings: dict[str, Any],
        creator: str,
        listed: bool = False,
    ) -> Table:
        """Open a table for `game` (built and its options checked once, by checked_game);
        `listed`: shown in the lobby (lobby/), else only its link finds it."""
        if seats is None:
            seats = [SeatSpec(kind="human") for _ in range(game.seats)]
        if len(seats) != game.seats:
            raise ApiError(
                "bad-seats",
                f"{game.name} with these options has {game.seats} seats, not {len(seats)}",
                422,
                params={"seats": game.seats, "got": len(seats)},
            )
        now = time.time()
        async with self._creating:
            await self._count(creator, now)
            spec = TableSpec(
                game=game.id,
                options=game.options_dict(),
                seed=secrets.randbits(32),
                seats=seats,
                **settings,
                listed=listed,
            )
            if not listed:
                return await self._open(spec, creator, now, game)
            async with self.lobby.listing(creator):
                table = await self._open(spec, creator, now, game)
                await self.lobby.created(table, creator)
                return table

    async def rematch(self, spec: TableSpec, creator: str) -> Table:
        """A rematch's table: a new table of the first one's creator, within their limit
        (resign and rematch again and again must not make tables past it). Its players'
        seats are theirs at once (players/seats.py): rated again where the first was."""
        now = time.time()
        spec, gone = await player_seats.rematch_players(self.store, spec)
        async with self._creating:
            await self._count(creator, now)
            table = await self._open(spec, creator, now)
        await player_seats.rematch_seated(self.store, table, gone)
        return table

    async def _count(self, creator: str, now: float) -> None:
        """One more table for `creator` this hour, or `too-many-tables` (hold `_creating`)."""
        per_hour = self.limits.tables_per_hour
        refused = ApiError(
            "too-many-tables",
            f"at most {per_hour} new tables an hour from one address",
            429,
            params={"limit": per_hour},
        )
        # the log counts across restarts; the shared window is exact across processes
        if await self.store.tables.count_created(creator, now - 3600) >= per_hour:
            raise refused
        if not await self.quotas.take_window("tables", creator, per_hour, 3600.0):
            raise refused

    async def _open(
        self, spec: TableSpec, creator: str, now: float, game: Game[Any] | None = None
    ) -> Table:
        tid = secrets.token_urlsafe(12)  # 96 random bits: a link nobody can guess
        table = await self.repo.open(tid, spec, creator, now, game)
        log.info(dumps({"event": "table", "table": tid, "game": spec.game, "v": 0}))
        await self.autoplay.claim(table)
        return table
