"""The hub: one process's part of the site, put together from parts with one job each.

- repository.py: tables, loaded on first use; the write path (store, then apply, then tell);
  catch-up from the messages as sent;
- commands.py: the one command table for the socket and HTTP;
- autoplay.py: computer seats and clocks, for the tables this process owns (leases.py);
- sockets.py + presence.py: this process's sockets, and who is connected anywhere;
- quotas.py: limits that hold across processes; allowances.py: what a seat or a spectator
  may send, drawn on them;
- new_tables.py: opening tables (new ones and rematches) within their creator's limits;
- spectators.py + watching.py: the spectators' chat and count;
- upkeep.py: catching tables up to their log, sweeping idle tables, `/healthz`;
- ports.py: the narrow port command handlers get instead of the hub.

parts.py makes the parts: in-process versions of the bus, leases, presence and quotas for
one process, or Redis ones (and the store in PostgreSQL) for several that behave as one
site. The hub only wires what it is given.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

from vertex.server.compute.autoplay import Autoplay, needs_owner
from vertex.server.live import departed
from vertex.server.live.conn import Conn
from vertex.server.live.slots import Slots
from vertex.server.live.sockets import Sockets, dumps
from vertex.server.live.spectators import SpectatorChat
from vertex.server.live.viewers import LocalCounts, RedisCounts
from vertex.server.live.watching import TICK_S, Watching
from vertex.server.lobby import Lobby
from vertex.server.parts import Parts
from vertex.server.play import commands
from vertex.server.play.new_tables import NewTables
from vertex.server.play.ports import TablesPort
from vertex.server.players import seats as player_seats
from vertex.server.players.identity import Identity, Me
from vertex.server.puzzles.service import Puzzles
from vertex.server.settings import Settings
from vertex.server.site.allowances import Allowances
from vertex.server.site.faults import unavailable
from vertex.server.site.leases import RedisLeases
from vertex.server.storage.recent import Sent
from vertex.server.storage.repository import Repository
from vertex.server.table import absence, views
from vertex.server.table.events import StoredEvent
from vertex.server.table.games import checked_game
from vertex.server.table.messages import Chat, Command
from vertex.server.table.table import Table
from vertex.server.text import check_text
from vertex.server.upkeep import Upkeep

log = logging.getLogger("vertex.server")

__all__ = ["Hub", "checked_game", "dumps"]


class Hub:
    """Wires the parts it is given (parts.py) into one process's part of the site."""

    def __init__(self, settings: Settings, parts: Parts) -> None:
        self.settings = settings
        self.limits = settings.limits
        self.slots = Slots(self.limits.sockets_per_address)  # sockets per address, here
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
        self.sockets.absence = self.absence
        #: The time the hand-over grace is measured in (tests move it: absence.py).
        self.clock: Callable[[], float] = time.time
        self.autoplay = Autoplay(self.repo, self.leases, settings, self.worker)
        self.lobby = Lobby(self)
        # spectators: their count (coalesced, across processes) and their own chat
        counts: LocalCounts | RedisCounts = LocalCounts()
        if parts.shared and settings.redis_url is not None:
            url, ttl = settings.redis_url, settings.presence_s
            counts = RedisCounts(url, self.worker, ttl, settings.site)
        self.watching = Watching(self.sockets, counts, TICK_S, self.lobby.watchers, self.worker)
        self.upkeep = Upkeep(settings, parts, self.repo, self.sockets, self.autoplay, self.lobby)
        self.allowances = Allowances(self.limits, self.quotas, self.upkeep.redis_up)
        self.identity = Identity(self.store, self.allowances)
        self.puzzles = Puzzles(self.store)
        if isinstance(self.leases, RedisLeases):
            self.leases.store_up = self.upkeep.database_up
        self.spectators = SpectatorChat(
            self.store, self.sockets, self.bus, self.allowances, self.repo.tables
        )
        self.states = views.StateTexts()  # the state's JSON, once a state, for snapshots
        self.new_tables = NewTables(
            self.limits, self.store, self.quotas, self.repo, self.autoplay, self.lobby
        )
        self.port = TablesPort(
            self.repo,
            self.sockets,
            self.store,
            self.new_tables.rematch,
            self.limits.chat_chars,
            self.absence,
        )

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
        await self.watching.start()
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
        await self.watching.stop()
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
        self.autoplay.spawn(self.autoplay.claim_soon(table))

    async def view(self, tid: str, viewer: int | None = None) -> dict[str, Any]:
        table = await self.repo.get(tid)
        here = await self.connected(tid)
        return views.view(table, time.time(), here, viewer, self.absence(tid, here))

    def absence(self, tid: str, here: list[bool]) -> list[float | None]:
        """Per seat, the seconds before its absent player may be handed over (absence.py)."""
        table = self.repo.tables.get(tid)
        if table is None:
            return [None for _ in here]
        return absence.left(table, here, self.clock(), self.settings.hand_over_grace_s)

    async def connected(self, tid: str) -> list[bool]:
        table = self.repo.tables.get(tid)
        n = len(table.seats) if table else 0
        return await self.sockets.connected(tid, n)

    # ---- commands ---------------------------------------------------------------------------
    async def take_seat(
        self, tid: str, n: int, name: str, me: Me | None = None, address: str = ""
    ) -> tuple[str, int]:
        """Seat `n` for a guest named `name`, or for the player `me` under their name."""
        token = secrets.token_urlsafe(24)  # 192 random bits
        if me is None:
            name = check_text(name, self.limits.name_chars, "name")
            ev = await self.repo.submit(tid, lambda t: t.take_seat(n, name, token, time.time()))
            return token, ev.seq
        table = await self.repo.get(tid)
        facts = await player_seats.seat_facts(self.store, table, me, address)
        ev = await self.repo.submit(
            tid, lambda t: t.take_seat(n, me.name, token, time.time(), facts)
        )
        await player_seats.seated(self.store, table, n, me, ev.seq)
        return token, ev.seq

    async def command(self, tid: str, seat: int, token: str, msg: Command) -> dict[str, Any]:
        """Carry out a seat's command (socket or HTTP); the reply for the sender."""
        if isinstance(msg, Chat):
            await self.allowances.chat(token)
        return await commands.run(self.port, tid, seat, token, msg)

    async def _on_event(
        self,
        table: Table,
        ev: StoredEvent,
        sent: Sent,
        own: bool,
    ) -> None:
        fanout = self.sockets.broadcast(table, sent)
        await self.lobby.changed(table, own)
        line: dict[str, Any] = {"event": ev.kind, "table": table.id, "v": ev.seq}
        if fanout.sockets:  # to how many sockets, in how long (bench_spectators.py)
            line["sockets"] = fanout.sockets
            line["fanout_us"] = round(fanout.wall_s * 1e6)
            if fanout.cpu_s is not None:
                line["fanout_cpu_us"] = round(fanout.cpu_s * 1e6)
        line.update({k: v for k, v in ev.data.items() if k in ("seat", "move", "level", "ply")})
        log.info(dumps(line))
        if own and needs_owner(table) and not self.leases.owns(table.id):
            # a computer seat now (a hand-over), or a table let go idle elsewhere and moved
            # on here: its computer seats and clock need an owner, or their turn is nobody's
            self.autoplay.spawn(self.autoplay.claim_soon(table))
        else:
            self.autoplay.after(table)

    async def _on_bus(self, tid: str, event: dict[str, Any]) -> None:
        if departed.KEY in event:  # a player's key stopped (api/players.py)
            departed.heard(self.tables, self.sockets, event)
        elif "spectator_chat" in event:
            self.spectators.heard(tid, event["spectator_chat"])
        elif "presence" in event:
            await self.sockets.refresh(tid)
        elif "tell" in event:
            self.sockets.tell(tid, event["tell"])
        else:
            await self.repo.on_bus(tid, event)

    # ---- sockets ----------------------------------------------------------------------------
    async def tell(self, tid: str, msg: dict[str, Any]) -> None:
        """A message for every socket of the table, in every process, not in its log (a
        review's progress: pages/review.py)."""
        self.sockets.tell(tid, msg)
        await self.bus.publish(tid, {"tell": msg})

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
            away = self.absence(tid, before)
            missed = None
            if since is not None:
                missed = self.repo.since(table, since, conn.seat, conn.deltas)
            if missed is None or since is None or since > table.v:
                now = time.time()
                conn.send(views.snapshot_text(table, now, before, conn.seat, away, self.states))
            else:
                conn.send(dumps({"t": "resume", "since": since, "v": table.v, "seat": conn.seat}))
                for msg in missed:
                    conn.send(dumps(msg))
                # who is here now: a page that read the view and then resumed would miss
                # a player who left in between (no event says so)
                here = {"t": "presence", "connected": before, "hand_over_in": away}
                conn.send(dumps(here))
            self.sockets.add(conn, n, before)
        await self.sockets.changed(tid, n)

    async def joined(self, conn: Conn, address: str) -> None:
        """After `attach`: what the socket hears of spectators (watching.py, spectators.py);
        `address`: its client's (a spectator's sockets from one address count once)."""
        self.watching.joined(conn, address)
        try:
            await self.spectators.joined(conn)
        except Exception as exc:  # the store is away: play goes on, the old lines wait
            if unavailable(exc) is None:
                raise
            log.warning("spectators' lines for table %s not read", conn.table_id)

    def detach(self, conn: Conn) -> None:
        conn.close()
        n = self.sockets.sizes.get(conn.table_id)
        if self.sockets.remove(conn) and n is not None:
            self.autoplay.spawn(self.sockets.changed(conn.table_id, n))
        if not self.sockets.has(conn.table_id):
            self.states.forget(conn.table_id)
        self.watching.left(conn)
        self.spectators.left(conn.table_id)

    # ---- housekeeping (upkeep.py) ------------------------------------------------------
    async def reconcile(self) -> None:
        self.spectators.forget_all()  # the bus was away: lines may have been missed
        await self.upkeep.reconcile()

    async def sweep(self, now: float) -> None:
        await self.upkeep.sweep(now)

    async def health(self) -> dict[str, Any]:
        return await self.upkeep.health()
