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
from collections.abc import Callable
from typing import Any

from vertex.core import Game
from vertex.server import absence, commands, views
from vertex.server.autoplay import Autoplay, needs_owner
from vertex.server.conn import Conn
from vertex.server.errors import ApiError
from vertex.server.events import StoredEvent
from vertex.server.faults import unavailable
from vertex.server.games import checked_game
from vertex.server.lobby import Lobby
from vertex.server.messages import Chat, Command, SpectatorLine
from vertex.server.parts import Parts
from vertex.server.ports import TablesPort
from vertex.server.quotas import LocalQuotas
from vertex.server.recent import Sent
from vertex.server.repository import Repository
from vertex.server.settings import Settings
from vertex.server.sockets import Sockets, dumps
from vertex.server.spec import SeatSpec, TableSpec
from vertex.server.spectators import SpectatorChat
from vertex.server.table import Table
from vertex.server.text import check_text
from vertex.server.upkeep import Upkeep
from vertex.server.watching import TICK_S, LocalCounts, RedisCounts, Watching

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
        self._own_quotas = LocalQuotas()  # for seats' allowances while Redis is away
        self.repo = Repository(self.store, self.bus, self.scaled)
        self.repo.listener = self._on_event
        self.repo.on_load = self._on_load
        self.sockets = Sockets(parts.presence, self.bus, settings.presence_s / 3, parts.shared)
        self.sockets.absence = self.absence
        #: The time the hand-over grace is measured in (tests move it: absence.py).
        self.clock: Callable[[], float] = time.time
        self.autoplay = Autoplay(self.repo, self.leases, settings, self.worker)
        self.port = TablesPort(
            self.repo,
            self.sockets,
            self.store,
            self.open_rematch,
            self.limits.chat_chars,
            self.absence,
        )
        self.lobby = Lobby(self)
        # spectators: their count (coalesced, across processes) and their own chat
        counts: LocalCounts | RedisCounts = LocalCounts()
        if parts.shared and settings.redis_url is not None:
            url, ttl = settings.redis_url, settings.presence_s
            counts = RedisCounts(url, self.worker, ttl, settings.site)
        self.watching = Watching(self.sockets, counts, TICK_S, self.lobby.watchers)
        self.spectators = SpectatorChat(self.store, self.sockets, self.bus)
        self.states = views.StateTexts()  # the state's JSON, once a state, for snapshots
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
            await self._count_new_table(creator, now)
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

    async def _count_new_table(self, creator: str, now: float) -> None:
        """One more table for `creator` this hour, or `too-many-tables` (hold `_creating`)."""
        per_hour = self.limits.tables_per_hour
        refused = ApiError(
            "too-many-tables",
            f"at most {per_hour} new tables an hour from one address",
            429,
            params={"limit": per_hour},
        )
        # the log counts across restarts; the shared window is exact across processes
        if await self.store.count_created(creator, now - 3600) >= per_hour:
            raise refused
        if not await self.quotas.take_window("tables", creator, per_hour, 3600.0):
            raise refused

    async def open_rematch(self, spec: TableSpec, creator: str) -> Table:
        """A rematch's table: a new table of the first one's creator, within their limit
        (resign and rematch again and again must not make tables past it)."""
        now = time.time()
        async with self._creating:
            await self._count_new_table(creator, now)
            return await self.open_table(spec, creator, now)

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
        if isinstance(msg, Chat):
            await self._chat_allowance(token)
        return await commands.run(self.port, tid, seat, token, msg)

    async def _chat_allowance(self, token_hash: str) -> None:
        """One chat line of a seat against its allowance, over all its sockets and HTTP, on
        every process (each line is a permanent log row shown to everyone)."""
        lim = self.limits
        if not await self._seat_rate("chat", token_hash, lim.chat_per_minute / 60, lim.chat_burst):
            raise ApiError(
                "rate-limited",
                f"too many chat lines: at most {lim.chat_per_minute:g} a minute",
                429,
                params={"per_minute": lim.chat_per_minute},
            )

    async def spectator_line(self, conn: Conn, msg: SpectatorLine, address: str) -> dict[str, Any]:
        """A spectator's line in the spectators' chat (spectators.py); the reply (an ack)."""
        if conn.seat is not None:
            raise ApiError(
                "spectators-only",
                "the spectators' chat is for spectators; players write in the table's chat",
                403,
            )
        lim = self.limits
        text = check_text(msg.text, lim.chat_chars, "chat")
        name = None
        if msg.name is not None and msg.name.strip():
            name = check_text(msg.name, lim.name_chars, "name")
        tid = conn.table_id
        # one address over all its sockets and processes, and everyone at one table
        rate, burst = lim.spectator_chat_per_minute, lim.spectator_chat_burst
        if not await self._seat_rate("spectator-chat", address, rate / 60, burst):
            raise ApiError(
                "rate-limited",
                f"too many spectators' chat lines: at most {rate:g} a minute",
                429,
                params={"why": "spectator-chat", "per_minute": rate},
            )
        rate = lim.table_spectator_chat_per_minute
        burst = lim.table_spectator_chat_burst
        if not await self._seat_rate("spectator-chat-table", tid, rate / 60, burst):
            raise ApiError(
                "rate-limited",
                f"this table's spectators' chat takes at most {rate:g} lines a minute",
                429,
                params={"why": "spectator-chat-table", "per_minute": rate},
            )
        line = await self.spectators.say(tid, name, text, time.time())
        table = self.repo.tables.get(tid)
        reply: dict[str, Any] = {"t": "ack", "v": table.v if table else 0, "n": line["n"]}
        if msg.id is not None:
            reply["id"] = msg.id
        return reply

    async def take_rate(self, token_hash: str) -> bool:
        """One command of a seat against its allowance: HTTP and every socket of the seat,
        on every process, draw on the same one."""
        lim = self.limits
        return await self._seat_rate("seat", token_hash, lim.messages_per_second, lim.message_burst)

    async def _seat_rate(self, name: str, key: str, rate: float, burst: int) -> bool:
        """A seat's allowance from the site's shared quotas; while Redis is away, from this
        process's own (a Redis outage must not stop play: the limit then holds per process)."""
        if self.upkeep.redis_up():
            try:
                return await self.quotas.take_rate(name, key, rate, burst)
            except Exception as exc:
                if unavailable(exc) is None:
                    raise
        return await self._own_quotas.take_rate(name, key, rate, burst)

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
        if "spectator_chat" in event:
            self.spectators.heard(tid, event["spectator_chat"])
        elif "presence" in event:
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

    async def joined(self, conn: Conn, viewer: str | None) -> None:
        """After `attach`: what the socket hears of spectators (watching.py, spectators.py)."""
        self.watching.joined(conn, viewer)
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
