"""The table repository: tables loaded on first use, the one write path, and catch-up.

Every change to a table goes through `submit`: under the table's lock it checks the command
against the table, appends the event to the store, and only then applies it and tells the
listener (the sockets, the computer seats and clocks). With several processes the log's key
decides races: an append that loses learns what won from the log and checks again.

Tables load lazily, when first asked for, off the event loop (a log can mean physics to
re-run). Each keeps its latest events' messages as they were sent, so a socket that comes
back with `since` gets them as stored, with no game re-run; one that missed more gets a
snapshot.

Over 300 lines, one concern: the tables this process holds and the one path that changes
them, with what that path keeps (locks, the messages as sent, the state they patch).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from vertex.core import Game
from vertex.server.errors import ApiError, not_found
from vertex.server.metrics import COMMIT_SECONDS, EVENTS, MOVES
from vertex.server.site.bus import LocalBus, RedisBus
from vertex.server.storage.beside import Beside
from vertex.server.storage.recent import KEPT, RECENT, RecentEvents, Sent
from vertex.server.storage.store import Store
from vertex.server.table import finished, turns, views
from vertex.server.table.events import StoredEvent
from vertex.server.table.records import OPEN, Fenced, TableRow
from vertex.server.table.spec import TableSpec
from vertex.server.table.table import Table

log = logging.getLogger("vertex.server")

_A = TypeVar("_A")
_R = TypeVar("_R")

_ID = re.compile(r"^[A-Za-z0-9_-]{8,40}$")
#: The recent events' budgets (recent.py): per table, and for all tables of the process.
RECENT_TABLE_BYTES = 8 << 20
RECENT_BYTES = 128 << 20


Listener = Callable[[Table, StoredEvent, Sent, bool], Awaitable[None]]


class Duplicate(Exception):
    """A move whose client id was applied already: answer with its version again."""

    def __init__(self, v: int) -> None:
        self.v = v


class Repository:
    def __init__(
        self,
        store: Store,
        bus: LocalBus | RedisBus,
        scaled: bool,
        recent: RecentEvents[Sent] | None = None,
    ) -> None:
        self.store = store
        self.beside = Beside(store)
        self.bus = bus
        self.scaled = scaled
        self.tables: dict[str, Table] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.recent: RecentEvents[Sent] = recent or RecentEvents(RECENT_TABLE_BYTES, RECENT_BYTES)
        #: Per table: the last state sent and the seats sealed then (what a patch is on).
        self.base: dict[str, tuple[dict[str, Any], frozenset[int]]] = {}
        #: Per table: the KEPT fields as its last message said them (what a patch form
        #: may leave out); empty after a load, so the first message says them all.
        self.said: dict[str, dict[str, Any]] = {}
        self.listener: Listener | None = None
        self.on_load: Callable[[Table], None] | None = None  # a table came in from its log
        self.loaded_count = 0  # tables loaded from their logs since the start
        #: When each table held came into memory (an idle table just loaded is not idle).
        self.loaded_at: dict[str, float] = {}
        self._tasks: set[asyncio.Task[Any]] = set()

    # ---- finding tables ---------------------------------------------------------------------
    def lock(self, tid: str) -> asyncio.Lock:
        lock = self.locks.get(tid)
        if lock is None:
            lock = self.locks[tid] = asyncio.Lock()
        return lock

    async def get(self, tid: str) -> Table:
        table = self.tables.get(tid)
        if table is not None:
            return table
        async with self.lock(tid):
            return await self.get_locked(tid)

    async def get_locked(self, tid: str) -> Table:
        table = self.tables.get(tid)
        if table is not None:
            return table
        row = await self.store.tables.get(tid) if _ID.match(tid) else None
        if row is None:
            self.locks.pop(tid, None)
            raise not_found(tid)
        events = await self.store.log.events(tid)
        # replaying a log can mean re-running physics: off the event loop
        loaded, recent, base = await asyncio.to_thread(_rebuild, tid, row, events)
        await self.beside.players_loaded(loaded)
        if loaded.status != row.status:  # the process died between the event and the status
            await self.status_changed(loaded)
        elif loaded.is_over and finished.facts(loaded) is not None:
            stored = await self.store.results.of(tid)  # its ratings, as written once
            if stored is not None and loaded.result is not None:
                loaded.result.update(stored.result_fields())
        self.tables[tid] = loaded
        self.loaded_at[tid] = time.time()
        self.recent.reset(tid, recent)
        self.base[tid] = base
        self.said.pop(tid, None)
        self.loaded_count += 1
        if self.on_load is not None:
            self.on_load(loaded)
        return loaded

    def forget(self, tid: str) -> None:
        """Let the table's copy go (it loads again from its log when asked for)."""
        self.tables.pop(tid, None)
        self.loaded_at.pop(tid, None)
        self.drop_lock(tid)
        self.recent.forget(tid)
        self.base.pop(tid, None)
        self.said.pop(tid, None)

    def drop_lock(self, tid: str) -> None:
        """Forget the lock of a table not held here, unless someone holds or awaits it (they
        must load the table under that very lock)."""
        lock = self.locks.get(tid)
        if lock is not None and not lock.locked() and tid not in self.tables:
            del self.locks[tid]

    async def open(
        self, tid: str, spec: TableSpec, creator: str, now: float, game: Game[Any] | None = None
    ) -> Table:
        table = Table(tid, spec, now, game)
        table.creator = creator
        await self.store.tables.create(TableRow(tid, spec.game, spec, OPEN, creator, now, now))
        self.tables[tid] = table
        self.recent.reset(tid)
        self.base[tid] = (table.state.to_dict(), turns.sealed(table))
        if table.slow:
            await self.keep_deadline(table)
        return table

    async def keep_deadline(self, table: Table) -> None:
        await self.beside.keep_deadline(table)

    async def status_changed(self, table: Table) -> None:
        await self.beside.status_changed(table)

    # ---- the write path ---------------------------------------------------------------------
    async def submit(
        self, tid: str, make: Callable[[Table], StoredEvent], fence: int | None = None
    ) -> StoredEvent:
        """Check, store, apply and broadcast one event, as the table's only writer here.

        `fence`: the lease epoch of a write the table's owner makes (leases.py).
        Shielded: a client that goes away mid-command cannot leave the store and the table
        out of step.
        """
        return await asyncio.shield(self._submit(tid, make, fence))

    async def _submit(
        self, tid: str, make: Callable[[Table], StoredEvent], fence: int | None
    ) -> StoredEvent:
        async with self.lock(tid):
            return await self.submit_locked(await self.get_locked(tid), make, fence)

    async def submit_locked(
        self, table: Table, make: Callable[[Table], StoredEvent], fence: int | None = None
    ) -> StoredEvent:
        start = time.perf_counter()
        for _attempt in range(5):
            try:
                ev = await off_loop(table, make, table)
            except ApiError:
                # With several processes our copy may lag the log: a refusal is only final
                # once we have read everything the others wrote.
                if not self.scaled or not await self.catch_up(table):
                    raise
                continue
            try:
                stored = await self.store.log.append(table.id, ev, fence=fence)
            except Fenced:
                raise ApiError("not-owner", "another process runs this table now", 409) from None
            if stored:
                break
            # Another process wrote this version first: learn what it wrote, then re-check.
            await self.catch_up(table)
        else:
            raise ApiError("busy", "the table is busy; try again", 409)
        COMMIT_SECONDS.observe(time.perf_counter() - start)
        EVENTS.labels(ev.kind).inc()
        if ev.kind == "move":
            MOVES.labels(table.spec.game).inc()
        await self.applied(table, ev, own=True)
        if table.slow:  # (the writer of the event writes its deadline: deadlines.py)
            await self.keep_deadline(table)
        return ev

    async def applied(self, table: Table, ev: StoredEvent, own: bool) -> None:
        """Fold a stored event into our copy, keep its message, tell the listener."""
        before = table.status
        await off_loop(table, table.apply, ev)
        if table.status != before:  # first: the end's message carries the ratings
            await self.status_changed(table)
        elif own and any(s.player is not None for s in table.seats):
            self.spawn(self.beside.turns(table, ev))
        sent = _sent(table, ev, self.base.get(table.id), self.said.setdefault(table.id, {}))
        if "state" in sent.msg:
            self.base[table.id] = (sent.msg["state"], sent.sealed)
        if own and self.scaled:
            payload = {"seq": ev.seq, "kind": ev.kind, "data": ev.data, "at": ev.at}
            self.spawn(self.bus.publish(table.id, payload))
        try:
            if self.listener is not None:
                await self.listener(table, ev, sent, own)
        finally:
            self.recent.add(table.id, sent)  # gone out: kept packed (recent.py)

    async def catch_up(self, table: Table) -> bool:
        """Apply what other processes logged since our copy's version; False if nothing."""
        events = await self.store.log.events(table.id, table.v)
        for ev in events:
            await self.applied(table, ev, own=False)
        return bool(events)

    async def reconcile(self) -> int:
        """Bring every table held here up to its log (events the bus did not bring: a
        process that was cut off from Redis, a publish that failed); the sockets and the
        computer seats hear them as usual. The number of tables that were behind."""
        held = {tid: t.v for tid, t in self.tables.items()}
        if not held:
            return 0
        behind = 0
        for tid, logged in (await self.store.log.versions(list(held))).items():
            table = self.tables.get(tid)
            if table is None or logged <= table.v:
                continue
            async with self.lock(tid):
                if self.tables.get(tid) is table and await self.catch_up(table):
                    behind += 1
        return behind

    async def on_bus(self, tid: str, event: dict[str, Any]) -> None:
        """Another process wrote an event (or took an aim): bring our copy (if we hold one)
        up to date."""
        if tid not in self.tables:
            return
        async with self.lock(tid):
            table = self.tables.get(tid)
            if table is not None and "aim" in event:
                aim = event["aim"]
                turns.hold_aim(table, aim["seat"], (aim["tag"][0], aim["tag"][1]), aim["move"])
                return
            if table is None or event["seq"] <= table.v:
                return
            if event["seq"] == table.v + 1:
                await self.applied(table, StoredEvent(**event), own=False)
            else:
                await self.catch_up(table)

    # ---- catch-up ---------------------------------------------------------------------------
    def since(
        self, table: Table, since: int, viewer: int | None, deltas: bool = False
    ) -> list[dict[str, Any]] | None:
        """The messages of the events after `since`, as they were sent (as `viewer` may see
        them), or None when they are older than what the table keeps (send a snapshot)."""
        if since >= table.v:
            return []
        kept = [m for m in self.recent.of(table.id) if m.v > since]
        if not kept or kept[0].v != since + 1 or kept[-1].v != table.v:
            return None
        return [
            views.for_viewer(m.for_deltas() if deltas else m.msg, viewer, m.sealed) for m in kept
        ]

    def spawn(self, coro: Awaitable[Any]) -> None:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task


async def off_loop(table: Table, fn: Callable[[_A], _R], arg: _A) -> _R:
    """Run a table step in a thread when the game's moves are slow (physics), so one table's
    simulation never stalls the others; the table's lock is held throughout."""
    if table.game.slow_play:
        return await asyncio.to_thread(fn, arg)
    return fn(arg)


def _sent(
    table: Table,
    ev: StoredEvent,
    base: tuple[dict[str, Any], frozenset[int]] | None,
    said: dict[str, Any] | None = None,
) -> Sent:
    """An applied event's message, with its state as a patch when one can be trusted: the
    state before and after had nothing sealed (a hidden move would make the clients' bases
    differ). `said`: the KEPT fields as the table's messages last said them (None: not
    known), updated here; the patch form leaves out those that did not change, as the
    patch leaves out the state that did not."""
    msg = views.message(table, ev)
    sealed = turns.sealed(table)
    trusted = "state" in msg and base is not None and not base[1] and not sealed
    same: tuple[str, ...] = ()
    if said is not None:
        if trusted:
            same = tuple(k for k in KEPT if k in msg and k in said and said[k] == msg[k])
        said.update((k, msg[k]) for k in KEPT if k in msg)
    return Sent(msg, sealed, base[0] if trusted and base is not None else None, same)


def _rebuild(
    tid: str, row: TableRow, events: list[StoredEvent]
) -> tuple[Table, deque[Sent], tuple[dict[str, Any], frozenset[int]]]:
    """A table from its log, with its latest events' messages (in a thread)."""
    table = Table(tid, row.spec, row.created_at)
    table.creator = row.creator
    recent: deque[Sent] = deque(maxlen=RECENT)
    base: tuple[dict[str, Any], frozenset[int]] | None = None
    said: dict[str, Any] = {}  # from the first message kept on
    first_kept = len(events) - RECENT
    for i, ev in enumerate(events):
        table.apply(ev)
        if i >= first_kept:
            sent = _sent(table, ev, base, said)
            if "state" in sent.msg:
                base = (sent.msg["state"], sent.sealed)
            sent.pack()  # here, in the thread: only its bytes are kept
            recent.append(sent)
    if base is None:
        base = (table.state.to_dict(), turns.sealed(table))
    return table, recent, base
