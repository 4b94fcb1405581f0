"""The hub: one process's part of the site, put together from parts with one job each.

- repository.py: tables, loaded on first use; the write path (store, then apply, then tell);
  catch-up from the messages as sent;
- commands.py: the one command table for the socket and HTTP;
- autoplay.py: computer seats and clocks, for the tables this process owns (leases.py);
- sockets.py + presence.py: this process's sockets, and who is connected anywhere;
- quotas.py: limits that hold across processes;
- upkeep.py: catching tables up to their log, sweeping idle tables, `/healthz`;
- ports.py: the narrow port command handlers get instead of the hub.

parts.py makes the parts: in-process versions of the bus, leases, presence and quotas for
one process, or Redis ones (and the store in PostgreSQL) for several that behave as one
site. The hub only wires what it is given.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from typing import Any

from vertex.core import Game
from vertex.server import commands, views
from vertex.server.autoplay import Autoplay
from vertex.server.conn import Conn
from vertex.server.errors import ApiError
from vertex.server.events import Kind, StoredEvent
from vertex.server.games import checked_game
from vertex.server.lobby import Lobby
from vertex.server.messages import Command
from vertex.server.parts import Parts
from vertex.server.ports import TablesPort
from vertex.server.repository import Repository, Sent
from vertex.server.settings import Settings
from vertex.server.sockets import Sockets, dumps
from vertex.server.spec import SeatSpec, TableSpec
from vertex.server.table import Table
from vertex.server.text import check_text
from vertex.server.upkeep import Upkeep

log = logging.getLogger("vertex.server")

__all__ = ["Hub", "checked_game", "dumps"]


class Hub:
    """Wires the parts it is given (parts.py) into one process's part of the site."""

    def __init__(self, settings: Settings, parts: Parts) -> None:
        self.settings = settings
        self.limits = settings.limits
        self.parts = parts
        self.store = parts.store
        self.worker = parts.worker
        self.scaled = parts.shared
        self.bus = parts.bus
        self.leases = parts.leases
        self.quotas = parts.quotas
        self.repo = Repository(self.store, self.bus, self.scaled)
        self.repo.listener = self._on_event
        self.repo.on_load = self._on_load
        self.sockets = Sockets(parts.presence, self.bus, settings.presence_s / 3, parts.shared)
        self.autoplay = Autoplay(self.repo, self.leases, settings, self.worker)
        self.port = TablesPort(
            self.repo, self.sockets, self.store, self.open_table, self.limits.chat_chars
        )
        self.lobby = Lobby(self)
        self._creating = asyncio.Lock()
        self.upkeep = Upkeep(settings, parts, self.repo, self.sockets, self.autoplay, self.lobby)

    @property
    def tables(self) -> dict[str, Table]:
        """The tables this process holds now (loaded on first use)."""
        return self.repo.tables

    # ---- lifecycle --------------------------------------------------------------------------
    async def start(self) -> None:
        """Start serving. No table is loaded here: each loads when first asked for, and the
        tables that need an owner are found through their leases (leases.py)."""
        await self.store.start()
        await self.bus.start(self._on_bus, self.reconcile)
        await self.leases.start(self.autoplay.gained, self.autoplay.lost)
        await self.sockets.start()
        await self.lobby.start()
        await self.upkeep.repair()
        self.autoplay.thinker.warm()
        log.info(dumps({"event": "start", "worker": self.worker, "scaled": self.scaled}))
        self.upkeep.start()

    async def stop(self) -> None:
        await self.upkeep.stop()
        await self.lobby.stop()
        await self.autoplay.close()
        await self.leases.close()  # hands our tables on at once
        await self.sockets.close()
        await self.repo.close()
        await self.bus.close()
        await self.parts.presence.close()
        await self.quotas.close()
        await self.store.close()

    # ---- finding and opening tables ---------------------------------------------------------
    async def get(self, tid: str) -> Table:
        return await self.repo.get(tid)

    def _on_load(self, table: Table) -> None:
        self.autoplay.spawn(self.autoplay.claim(table))

    async def view(self, tid: str, viewer: int | None = None) -> dict[str, Any]:
        table = await self.repo.get(tid)
        return views.view(table, time.time(), await self.connected(tid), viewer)

    async def connected(self, tid: str) -> list[bool]:
        table = self.repo.tables.get(tid)
        n = len(table.seats) if table else 0
        return await self.sockets.connected(tid, n)

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
        per_hour = self.limits.tables_per_hour
        refused = ApiError(
            "too-many-tables",
            f"at most {per_hour} new tables an hour from one address",
            429,
            params={"limit": per_hour},
        )
        async with self._creating:
            # the log counts across restarts; the shared window is exact across processes
            if await self.store.count_created(creator, now - 3600) >= per_hour:
                raise refused
            if not await self.quotas.take_window("tables", creator, per_hour, 3600.0):
                raise refused
            spec = TableSpec(
                game=game.id,
                options=game.options_dict(),
                seed=secrets.randbits(32),
                seats=seats,
                **settings,
                listed=listed,
            )
            if not listed:
                return await self.open_table(spec, creator, now, game)
            async with self.lobby.listing(creator):
                table = await self.open_table(spec, creator, now, game)
                await self.lobby.created(table, creator)
                return table

    async def open_table(
        self, spec: TableSpec, creator: str, now: float, game: Game[Any] | None = None
    ) -> Table:
        tid = secrets.token_urlsafe(12)  # 96 random bits: a link nobody can guess
        table = await self.repo.open(tid, spec, creator, now, game)
        log.info(dumps({"event": "table", "table": tid, "game": spec.game, "v": 0}))
        await self.autoplay.claim(table)
        return table

    # ---- commands ---------------------------------------------------------------------------
    async def take_seat(self, tid: str, n: int, name: str) -> tuple[str, int]:
        name = check_text(name, self.limits.name_chars, "name")
        token = secrets.token_urlsafe(24)  # 192 random bits
        ev = await self.repo.submit(tid, lambda t: t.take_seat(n, name, token, time.time()))
        return token, ev.seq

    async def command(self, tid: str, seat: int, token: str, msg: Command) -> dict[str, Any]:
        """Carry out a seat's command (socket or HTTP); the reply for the sender."""
        return await commands.run(self.port, tid, seat, token, msg)

    async def take_rate(self, token_hash: str) -> bool:
        """One HTTP command of a seat against its allowance (shared by every process)."""
        lim = self.limits
        return await self.quotas.take_rate(
            "seat", token_hash, lim.messages_per_second, lim.message_burst
        )

    async def _on_event(
        self,
        table: Table,
        ev: StoredEvent,
        sent: Sent,
        own: bool,
    ) -> None:
        self.sockets.broadcast(table, sent)
        await self.lobby.changed(table, own)
        line = {"event": ev.kind, "table": table.id, "v": ev.seq}
        line.update({k: v for k, v in ev.data.items() if k in ("seat", "move", "level", "ply")})
        log.info(dumps(line))
        if own and ev.kind == Kind.HAND_OVER:  # a computer seat now: it needs an owner
            await self.autoplay.claim(table)
        else:
            self.autoplay.after(table)

    async def _on_bus(self, tid: str, event: dict[str, Any]) -> None:
        if "presence" in event:
            await self.sockets.refresh(tid)
        else:
            await self.repo.on_bus(tid, event)

    # ---- sockets ----------------------------------------------------------------------------
    async def attach(self, conn: Conn, since: int | None) -> None:
        """Send a new socket the snapshot (or the events after `since`) and then every event."""
        tid = conn.table_id
        async with self.repo.lock(tid):
            table = await self.repo.get_locked(tid)
            if since is not None and since > table.v and self.scaled:
                # the client saw more than our copy holds (another process wrote it): read
                # the log, which is the truth
                await self.repo.catch_up(table)
            n = len(table.seats)
            before = await self.sockets.connected(tid, n)
            missed = None
            if since is not None:
                missed = self.repo.since(table, since, conn.seat, conn.deltas)
            if missed is None or since is None or since > table.v:
                snap = {"t": "snapshot", "v": table.v, "seat": conn.seat}
                snap["table"] = views.view(table, time.time(), before, conn.seat)
                conn.send(dumps(snap))
            else:
                conn.send(dumps({"t": "resume", "since": since, "v": table.v, "seat": conn.seat}))
                for msg in missed:
                    conn.send(dumps(msg))
            self.sockets.add(conn, n, before)
        await self.sockets.changed(tid, n)
        if conn.seat is None:
            self.lobby.watchers(tid, self._spectators(tid))

    def detach(self, conn: Conn) -> None:
        conn.close()
        n = self.sockets.sizes.get(conn.table_id)
        if self.sockets.remove(conn) and n is not None:
            self.autoplay.spawn(self.sockets.changed(conn.table_id, n))
        if conn.seat is None:
            self.lobby.watchers(conn.table_id, self._spectators(conn.table_id))

    def _spectators(self, tid: str) -> int:
        return sum(c.seat is None for c in self.sockets.conns.get(tid, ()))

    # ---- housekeeping (upkeep.py) ------------------------------------------------------
    async def reconcile(self) -> None:
        await self.upkeep.reconcile()

    async def sweep(self, now: float) -> None:
        await self.upkeep.sweep(now)

    async def health(self) -> dict[str, Any]:
        return await self.upkeep.health()
