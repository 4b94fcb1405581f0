"""The hub: tables in memory, one owner (a lock) per table, sockets, computer seats, clocks.

Every change to a table goes through `submit`: under the table's lock it checks the command
against the table, appends the event to the store, and only then applies it and sends it to
the sockets. After a crash the log is the truth, and `start` rebuilds every unfinished table.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
import time
from collections.abc import Callable, Coroutine
from dataclasses import asdict
from typing import Any, TypeVar

from vertex.core import Game, OptionsError, create_game, game_ids
from vertex.server.ai_runner import Thinker, random_move
from vertex.server.bus import LocalBus, RedisBus
from vertex.server.conn import Conn
from vertex.server.errors import ApiError, not_found
from vertex.server.protocol import check_text
from vertex.server.settings import Settings
from vertex.server.store import OPEN, Store, StoredEvent, TableRow
from vertex.server.table import Table, rebuild

log = logging.getLogger("vertex.server")
_A = TypeVar("_A")
_R = TypeVar("_R")

_ID = re.compile(r"^[A-Za-z0-9_-]{8,40}$")
#: Computer seats that replace a timed-out player think this long.
TIMEOUT_BUDGET_S = 0.05


class _Duplicate(Exception):
    """A move whose client id was applied already: answer with its version again."""

    def __init__(self, v: int) -> None:
        self.v = v


def dumps(msg: dict[str, Any]) -> str:
    return json.dumps(msg, separators=(",", ":"))


class Hub:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.limits = settings.limits
        self.store = Store(settings.database_url)
        self.worker = secrets.token_hex(6)
        self.bus: LocalBus | RedisBus = (
            RedisBus(settings.redis_url, self.worker) if settings.redis_url else LocalBus()
        )
        self.scaled = settings.redis_url is not None
        self.thinker = Thinker(settings.ai_executor)
        self.tables: dict[str, Table] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.conns: dict[str, set[Conn]] = {}
        self._thinking: set[tuple[str, int]] = set()
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._sweeper: asyncio.Task[None] | None = None

    # ---- lifecycle --------------------------------------------------------------------------
    async def start(self) -> None:
        await self.store.start()
        await self.bus.start(self._on_bus)
        restored = 0
        for tid in await self.store.open_tables():
            try:
                async with self.lock(tid):
                    table = await self._get_locked(tid)
            except Exception:
                log.exception("table %s could not be restored", tid)
                continue
            restored += 1
            self._after(table)
        log.info(dumps({"event": "start", "worker": self.worker, "restored": restored}))
        self._sweeper = asyncio.create_task(self._sweep_loop(), name="vertex-sweeper")

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        for handle in self._timers.values():
            handle.cancel()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
        await self.bus.close()
        self.thinker.close()
        await self.store.close()

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

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
            return await self._get_locked(tid)

    async def _get_locked(self, tid: str) -> Table:
        table = self.tables.get(tid)
        if table is not None:
            return table
        row = await self.store.table(tid) if _ID.match(tid) else None
        if row is None:
            self.locks.pop(tid, None)
            raise not_found(tid)
        events = await self.store.events(tid)
        # replaying a log can mean re-running physics: off the event loop
        table = await asyncio.to_thread(rebuild, tid, row.spec, row.created_at, events)
        if table.status != row.status:  # the process died between the event and the status
            await self._status_changed(table)
        self.tables[tid] = table
        return table

    # ---- creating tables --------------------------------------------------------------------
    async def create(
        self,
        game_id: str,
        options: dict[str, Any],
        seats: list[dict[str, Any]] | None,
        settings: dict[str, Any],
        creator: str,
    ) -> Table:
        now = time.time()
        made = await self.store.count_created(creator, now - 3600)
        if made >= self.limits.tables_per_hour:
            raise ApiError(
                "too-many-tables",
                f"at most {self.limits.tables_per_hour} new tables an hour from one address",
                429,
            )
        game = checked_game(game_id, options)
        if seats is None:
            seats = [{"kind": "human"} for _ in range(game.seats)]
        if len(seats) != game.seats:
            raise ApiError(
                "bad-seats",
                f"{game.name} with these options has {game.seats} seats, not {len(seats)}",
                422,
            )
        spec = {
            "game": game_id,
            "options": game.options_dict(),
            "seed": secrets.randbits(32),
            "seats": seats,
            **settings,
        }
        return await self._open_table(spec, creator, now)

    async def _open_table(self, spec: dict[str, Any], creator: str, now: float) -> Table:
        tid = secrets.token_urlsafe(12)  # 96 random bits: a link nobody can guess
        table = Table(tid, spec, now)
        await self.store.create_table(TableRow(tid, spec["game"], spec, OPEN, creator, now, now))
        self.tables[tid] = table
        log.info(dumps({"event": "table", "table": tid, "game": spec["game"], "v": 0}))
        self._after(table)
        return table

    # ---- changing tables --------------------------------------------------------------------
    async def submit(self, tid: str, make: Callable[[Table], StoredEvent]) -> StoredEvent:
        """Check, store, apply and broadcast one event, as the table's only writer.

        Shielded: a client that goes away mid-command cannot leave the store and the table
        out of step.
        """
        return await asyncio.shield(self._submit(tid, make))

    async def _submit(self, tid: str, make: Callable[[Table], StoredEvent]) -> StoredEvent:
        async with self.lock(tid):
            return await self._submit_locked(await self._get_locked(tid), make)

    async def _submit_locked(
        self, table: Table, make: Callable[[Table], StoredEvent]
    ) -> StoredEvent:
        tid = table.id
        for _attempt in range(5):
            try:
                ev = await self._off_loop(table, make, table)
            except ApiError:
                # With several workers our copy may lag the log: a refusal is only final
                # once we have read everything the other workers wrote.
                if not self.scaled or not await self._catch_up(table):
                    raise
                continue
            if await self.store.append(tid, ev):
                break
            # Another worker wrote this version first: learn what it wrote, then re-check.
            await self._catch_up(table)
        else:
            raise ApiError("busy", "the table is busy; try again", 409)
        await self._applied(table, ev, own=True)
        return ev

    async def _applied(self, table: Table, ev: StoredEvent, own: bool) -> None:
        before = table.status
        await self._off_loop(table, table.apply, ev)
        msg = table.message(ev)
        texts: dict[int | None, str] = {}  # one text per seat: sealed moves are per viewer
        for conn in self.conns.get(table.id, ()):
            text = texts.get(conn.seat)
            if text is None:
                text = texts[conn.seat] = dumps(table.for_viewer(msg, conn.seat))
            conn.send(text)
        line = {"event": ev.kind, "table": table.id, "v": ev.seq}
        line.update({k: v for k, v in ev.data.items() if k in ("seat", "move", "level", "ply")})
        log.info(dumps(line))
        if own:
            if self.scaled:
                payload = {"seq": ev.seq, "kind": ev.kind, "data": ev.data, "at": ev.at}
                self._spawn(self.bus.publish(table.id, payload))
            self._after(table)
        if table.status != before:
            await self._status_changed(table)

    @staticmethod
    async def _off_loop(table: Table, fn: Callable[[_A], _R], arg: _A) -> _R:
        """Run a table step in a thread when the game's moves are slow (physics), so one
        table's simulation never stalls the others; the table's lock is held throughout."""
        if table.game.slow_play:
            return await asyncio.to_thread(fn, arg)
        return fn(arg)

    async def _status_changed(self, table: Table) -> None:
        # The result before the status: a table marked over has its solo best kept already.
        best = table.solo_best()
        if best is not None:
            await self.store.add_best(best)
        await self.store.set_status(table.id, table.status)

    async def _catch_up(self, table: Table) -> bool:
        """Apply what other workers logged since our copy's version; False if nothing."""
        events = await self.store.events(table.id, table.v)
        for ev in events:
            await self._applied(table, ev, own=False)
        return bool(events)

    async def _on_bus(self, tid: str, event: dict[str, Any]) -> None:
        """Another worker wrote an event (or took an aim): bring our copy (if we hold one)
        up to date."""
        if tid not in self.tables:
            return
        async with self.lock(tid):
            table = self.tables.get(tid)
            if table is not None and "aim" in event:
                aim = event["aim"]
                table.hold_aim(aim["seat"], (aim["tag"][0], aim["tag"][1]), aim["move"])
                return
            if table is None or event["seq"] <= table.v:
                return
            if event["seq"] == table.v + 1:
                await self._applied(table, StoredEvent(**event), own=False)
            else:
                await self._catch_up(table)

    # ---- commands from seats ----------------------------------------------------------------
    async def take_seat(self, tid: str, n: int, name: str) -> tuple[str, int]:
        name = check_text(name, self.limits.name_chars, "name")
        token = secrets.token_urlsafe(24)  # 192 random bits
        ev = await self.submit(tid, lambda t: t.take_seat(n, name, token, time.time()))
        return token, ev.seq

    async def command(self, tid: str, seat: int, token: str, msg: dict[str, Any]) -> dict[str, Any]:
        """Carry out a seat's message (socket or HTTP); the reply for the sender."""
        t = msg["t"]
        cid = msg.get("id")
        now = time.time()

        def checked(t_: Table) -> Table:
            if t_.seats[seat].token != token:
                raise ApiError("bad-token", "this seat token is no longer valid", 403)
            return t_

        make: Callable[[Table], StoredEvent]
        if t == "move":

            def make(tb: Table) -> StoredEvent:
                checked(tb)
                if cid is not None and (seat, str(cid)) in tb.cids:
                    raise _Duplicate(tb.cids[(seat, str(cid))])
                return tb.move(seat, msg["move"], now, v=msg.get("v"), cid=cid)

        elif t == "resign":
            make = lambda tb: checked(tb).resign(seat, now)  # noqa: E731
        elif t == "undo-request":
            make = lambda tb: checked(tb).undo_request_cmd(seat, now)  # noqa: E731
        elif t == "undo-accept":
            make = lambda tb: checked(tb).undo_accept(seat, now)  # noqa: E731
        elif t == "end-request":
            make = lambda tb: checked(tb).end_request(seat, now)  # noqa: E731
        elif t == "end-accept":
            make = lambda tb: checked(tb).end_accept(seat, now)  # noqa: E731
        elif t == "chat":
            text = check_text(msg["text"], self.limits.chat_chars, "chat")
            make = lambda tb: checked(tb).chat(seat, text, now)  # noqa: E731
        elif t == "hand-over":
            target = seat if msg.get("seat") is None else int(msg["seat"])
            level = int(msg.get("level") or 2)

            def make(tb: Table) -> StoredEvent:
                checked(tb)
                if not 0 <= target < len(tb.seats):
                    raise ApiError("no-such-seat", f"this table has no seat {target}")
                if target != seat and self.connected(tb.id)[target]:
                    raise ApiError(
                        "not-allowed", f"seat {target}'s player is here; only they can leave", 409
                    )
                return tb.hand_over(target, level, now)

        elif t == "rematch":
            return await self._rematch(tid, seat, token, cid)
        elif t == "aim":
            return await self._aim(tid, seat, token, msg["move"], cid)
        else:
            raise ApiError("bad-message", f"'{t}' is not a table action")
        try:
            ev = await self.submit(tid, make)
        except _Duplicate as dup:
            return _ack(cid, dup.v, duplicate=True)
        return _ack(cid, ev.seq)

    async def _aim(self, tid: str, seat: int, token: str, move: str, cid: Any) -> dict[str, Any]:
        """Keep where a seat aims now, for its step clock. Not an event and never broadcast
        (it would give the aim away): only the sender hears the ack. Other workers hold the
        table's clock too, so they are told over the bus, which no client hears."""
        async with self.lock(tid):
            table = await self._get_locked(tid)
            if table.seats[seat].token != token:
                raise ApiError("bad-token", "this seat token is no longer valid", 403)
            try:
                aim = table.aim_check(seat, move)
            except ApiError:
                if not self.scaled or not await self._catch_up(table):
                    raise
                aim = table.aim_check(seat, move)
            tag = table.aim_tag(seat)
            table.hold_aim(seat, tag, aim)
            if self.scaled:
                payload = {"aim": {"seat": seat, "tag": list(tag), "move": aim}}
                self._spawn(self.bus.publish(tid, payload))
            return {**_ack(cid, table.v), "aim": aim}

    async def _rematch(self, tid: str, seat: int, token: str, cid: Any) -> dict[str, Any]:
        # One lock around both steps, so two players asking at once get one rematch.
        async with self.lock(tid):
            table = await self._get_locked(tid)
            if table.seats[seat].token != token:
                raise ApiError("bad-token", "this seat token is no longer valid", 403)
            if self.scaled:
                await self._catch_up(table)
            if table.rematch is not None:
                return {**_ack(cid, table.v), "table": table.rematch}
            table.rematch_cmd("", time.time())  # checks the game is over
            row = await self.store.table(tid)
            spec = table.rematch_spec(secrets.randbits(32))
            new = await self._open_table(spec, row.creator if row else "", time.time())
            ev = await asyncio.shield(
                self._submit_locked(table, lambda t: t.rematch_cmd(new.id, time.time()))
            )
        return {**_ack(cid, ev.seq), "table": new.id}

    # ---- computer seats and clocks ----------------------------------------------------------
    def _after(self, table: Table) -> None:
        """After an event: start the computer seats now due, and the clock's next timeout."""
        for seat in table.due():
            if table.seats[seat].kind == "ai" and (table.id, seat) not in self._thinking:
                self._thinking.add((table.id, seat))
                self._spawn(self._computer_move(table.id, seat))
        self._set_timer(table)

    async def _computer_move(self, tid: str, seat: int) -> None:
        # The seat stays marked as thinking until its move is in (or dropped): otherwise an
        # event that lands while the move is being stored starts a second think for the same
        # seat on the old position, whose move then misses (a simultaneous step moves on).
        try:
            await self._think_and_move(tid, seat)
        finally:
            self._thinking.discard((tid, seat))
        # the seat may be due again (an extra turn, or its move was dropped): think again
        if tid in self.tables:
            self._after(self.tables[tid])

    async def _think_and_move(self, tid: str, seat: int) -> None:
        """One computer move for `seat` (dropped if the position moved on meanwhile)."""
        table = self.tables.get(tid)
        if table is None:
            return
        state, epoch = table.state, table.epoch
        level = table.seats[seat].level or 1
        budget = self.settings.ai_budget_s
        deadline = table.deadline(seat)
        if deadline is not None:
            budget = max(0.01, min(budget, (deadline - time.time()) / 2))
        try:
            move = await self.thinker.choose(state, seat, level, budget)
        except Exception:
            log.exception("computer player failed at table %s; playing a random move", tid)
            move = random_move(state, seat)

        def make(t: Table) -> StoredEvent:
            if t.epoch != epoch or seat not in t.due() or t.seats[seat].kind != "ai":
                raise ApiError("stale", "the position changed while the computer thought", 409)
            if t.state is not state:
                # others moved meanwhile (a simultaneous step): the move must still fit now
                try:
                    return t.move(seat, move, time.time())
                except ApiError as exc:
                    raise ApiError("stale", f"the position changed: {exc.message}", 409) from None
            try:
                return t.move(seat, move, time.time())
            except ApiError as exc:
                # the player's own mistake on the very position it was given: never stall
                # the table on it
                log.error(
                    "computer player chose an illegal move %r at table %s: %s; playing a "
                    "random move",
                    move,
                    tid,
                    exc.message,
                )
                return t.move(seat, random_move(state, seat), time.time())

        try:
            await self.submit(tid, make)
        except ApiError as exc:
            log.info(dumps({"event": "computer-move-dropped", "table": tid, "why": exc.code}))

    def _set_timer(self, table: Table) -> None:
        handle = self._timers.pop(table.id, None)
        if handle is not None:
            handle.cancel()
        if table.clock is None or table.is_over:
            return
        deadlines = [(d, s) for s in table.due() if (d := table.deadline(s)) is not None]
        if not deadlines:
            return
        when, seat = min(deadlines)
        loop = asyncio.get_running_loop()
        delay = max(0.0, when - time.time()) + 0.001
        self._timers[table.id] = loop.call_later(
            delay, lambda: self._spawn(self._timeout(table.id, seat, table.v))
        )

    async def _timeout(self, tid: str, seat: int, v: int) -> None:
        table = self.tables.get(tid)
        if table is None or table.v != v:
            return
        try:
            if table.on_timeout == "lose":
                await self.submit(tid, lambda t: t.timeout(seat, time.time()))
                return
            held = table.held_aim(seat)
            if held is not None and await self._timeout_move(tid, seat, v, held, aimed=True):
                return  # the piece dropped where the player last aimed it
            state = table.state
            aiming = state.aiming()
            try:
                if aiming is not None:  # the game's own rule for a piece not placed
                    move = await asyncio.to_thread(aiming.default_aim, seat)
                else:
                    move = await self.thinker.choose(state, seat, 1, TIMEOUT_BUDGET_S)
            except Exception:
                move = random_move(state, seat)

            await self._timeout_move(tid, seat, v, move)
        except ApiError as exc:
            log.info(dumps({"event": "timeout-dropped", "table": tid, "why": exc.code}))

    async def _timeout_move(
        self, tid: str, seat: int, v: int, move: str, aimed: bool = False
    ) -> bool:
        """Play `move` for a seat whose clock ran out. False if the game refused it (an aim
        that no longer fits); other refusals (the seat moved in time) are raised."""

        def make(t: Table) -> StoredEvent:
            if t.v != v:
                raise ApiError("stale", "the seat moved in time", 409)
            t.timeout(seat, time.time())  # checks the clock really ran out
            return t.move(seat, move, time.time(), auto=True, aimed=aimed)

        try:
            await self.submit(tid, make)
        except ApiError as exc:
            if aimed and exc.code == "illegal-move":
                return False
            raise
        return True

    # ---- sockets ----------------------------------------------------------------------------
    async def attach(self, conn: Conn, since: int | None) -> None:
        """Send a new socket the snapshot (or the events after `since`) and then every event."""
        tid = conn.table_id
        async with self.lock(tid):
            table = await self._get_locked(tid)
            if since is None or since > table.v:
                snap = {"t": "snapshot", "v": table.v, "seat": conn.seat}
                snap["table"] = table.view(time.time(), self.connected(tid), conn.seat)
                conn.send(dumps(snap))
            else:
                conn.send(dumps({"t": "resume", "since": since, "v": table.v, "seat": conn.seat}))
                for msg in await self._messages_since(table, since, conn.seat):
                    conn.send(dumps(msg))
            was = self.connected(tid)
            self.conns.setdefault(tid, set()).add(conn)
            if was != self.connected(tid):
                self._presence(tid)

    def detach(self, conn: Conn) -> None:
        conn.close()
        tid = conn.table_id
        was = self.connected(tid)
        conns = self.conns.get(tid)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.conns[tid]
        if was != self.connected(tid):
            self._presence(tid)

    def connected(self, tid: str) -> list[bool]:
        table = self.tables.get(tid)
        n = len(table.seats) if table else 0
        out = [False] * n
        for conn in self.conns.get(tid, ()):
            if conn.seat is not None and conn.seat < n:
                out[conn.seat] = True
        return out

    def _presence(self, tid: str) -> None:
        text = dumps({"t": "presence", "connected": self.connected(tid)})
        for conn in self.conns.get(tid, ()):
            conn.send(text)

    async def _messages_since(
        self, table: Table, since: int, viewer: int | None
    ) -> list[dict[str, Any]]:
        replica = Table(table.id, table.spec, table.created_at)
        out = []
        for ev in await self.store.events(table.id):
            if ev.seq > table.v:
                break
            replica.apply(ev)
            if ev.seq > since:
                out.append(replica.for_viewer(replica.message(ev), viewer))
        return out

    # ---- housekeeping -----------------------------------------------------------------------
    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sweep_interval_s)
            try:
                await self.sweep(time.time())
            except Exception:
                log.exception("sweep failed")

    async def sweep(self, now: float) -> None:
        """Expire idle unfinished tables; let finished, unwatched ones leave memory."""
        for tid, table in list(self.tables.items()):
            idle = now - table.last_at
            if not table.is_over and idle > self.limits.idle_expiry_s:
                with contextlib.suppress(ApiError):
                    await self.submit(tid, lambda t: t.expire(time.time()))
            elif (
                table.is_over
                and idle > self.settings.unload_after_s
                and not self.conns.get(tid)
                and not self.lock(tid).locked()
            ):
                del self.tables[tid]
                self.locks.pop(tid, None)

    def health(self) -> dict[str, Any]:
        return {
            "ok": True,
            "worker": self.worker,
            "tables": len(self.tables),
            "sockets": sum(len(c) for c in self.conns.values()),
            "database": self.store.engine.dialect.name,
            "bus": "redis" if isinstance(self.bus, RedisBus) else "local",
            "limits": asdict(self.limits),
        }


def checked_game(game_id: str, options: dict[str, Any]) -> Game[Any]:
    """The game with these options, or the ApiError a client can read (naming the option)."""
    if game_id not in game_ids():
        known = ", ".join(game_ids())
        raise ApiError("unknown-game", f"there is no game {game_id!r} (games: {known})", 422)
    try:
        return create_game(game_id, **options)
    except OptionsError as exc:
        raise ApiError("bad-options", str(exc), 422, option=exc.option) from None


def _ack(cid: Any, v: int, duplicate: bool = False) -> dict[str, Any]:
    msg: dict[str, Any] = {"t": "ack", "v": v}
    if cid is not None:
        msg["id"] = cid
    if duplicate:
        msg["duplicate"] = True
    return msg
