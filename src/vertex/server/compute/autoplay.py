"""Computer seats and clocks, run for the tables this process owns (leases.py).

After each event of an owned table: start the computer seats now due (one think per seat
and position) and set the clock's next timeout. Other processes only serve the table; when
its owner dies, the one that takes the lease over starts here again from the log.

A computer seat thinks on exactly one process, its first move included (issue 37, finding
11; tests/server/site/test_one_thinker.py counts `vertex_computer_thinks` on each). A process
that serves a player of a table it does not own loads the table for that player (its log
replayed off the loop, in repository.py: for GYØ 30×30 the board's geometry, ~0.05-0.08 s of
CPU once) and builds the socket's snapshot; `claim` then finds the lease taken and `after`
does nothing here. That first load is the CPU such a process spends when the table's first
computer move is thought elsewhere, not a second thinker. Every process starts its own
worker processes at start (`Thinker.warm`): any of them may come to own a table.

Over 300 lines, one concern: the owner's side of a table (its lease claimed and given up,
the computer seats, the clock's timeouts, an idle table let go until its next deadline).
The parts share the timers and the seats thinking; apart, each would reach into the
others' state.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Coroutine
from typing import Any

from vertex.server.compute.ai_runner import Thinker, random_move
from vertex.server.errors import ApiError
from vertex.server.metrics import THINK_SECONDS, THINKS
from vertex.server.settings import Settings
from vertex.server.site.faults import log_failure
from vertex.server.site.leases import LocalLeases, RedisLeases
from vertex.server.storage.repository import Repository
from vertex.server.table import clocks, turns
from vertex.server.table.events import StoredEvent
from vertex.server.table.table import Table

log = logging.getLogger("vertex.server")

#: Computer seats that replace a timed-out player think this long.
TIMEOUT_BUDGET_S = 0.05
#: A computer move or a timeout that failed for want of the store or Redis is tried again
#: this much later (nothing else would start it again).
RETRY_S = 1.0
#: Tries of a claim that Redis did not answer (1 + 2 + 4 + ... seconds apart).
CLAIM_TRIES = 6
#: An idle table let go from memory is taken up again this long before its next clock
#: deadline (loading it and setting its timer take a moment; Redis's take-over scan runs
#: every third of a lease); one whose deadline is nearer than twice this stays.
WAKE_AHEAD_S = 2.0


def _line(**fields: Any) -> None:
    log.info(json.dumps(fields, separators=(",", ":")))


def needs_owner(table: Table) -> bool:
    """Whether the table has work only its owner does: computer seats or a clock."""
    if table.is_over:
        return False
    return table.clock is not None or any(s.kind == "ai" for s in table.seats)


class Autoplay:
    def __init__(
        self,
        repo: Repository,
        leases: LocalLeases | RedisLeases,
        settings: Settings,
        worker: str,
    ) -> None:
        self.repo = repo
        self.leases = leases
        self.settings = settings
        self.worker = worker
        self.thinker = Thinker(
            settings.ai_executor, *settings.thinkers(), ponder=settings.ai_ponder
        )
        self.thinks = 0  # computer players asked for a move (each logged as a "think" line)
        self._thinking: set[tuple[str, int]] = set()
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[Any]] = set()

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        for handle in self._timers.values():
            handle.cancel()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
        self.thinker.close()

    # ---- ownership --------------------------------------------------------------------------
    async def claim(self, table: Table) -> None:
        """Take the table's lease if it needs an owner and nobody holds it; run it if ours."""
        if needs_owner(table) and not self.leases.owns(table.id):
            await self.leases.acquire(table.id)
        self.after(table)

    async def claim_soon(self, table: Table) -> None:
        """`claim`, in the background, tried again a few times while Redis does not answer
        (a table loaded, or moved on, here with nobody running it: its turn must not be
        nobody's for want of one round trip)."""
        for attempt in range(CLAIM_TRIES):
            try:
                await self.claim(table)
                return
            except Exception as exc:
                log_failure(log, exc, "table %s could not be claimed", table.id)
            await asyncio.sleep(RETRY_S * 2**attempt)
            if self.repo.tables.get(table.id) is not table or self.leases.owns(table.id):
                return

    async def gained(self, tid: str) -> None:
        """We took over a table whose owner stopped (leases.py): run it from its log."""
        try:
            table = await self.repo.get(tid)
        except ApiError:
            await self.leases.release(tid, final=True)
            return
        async with self.repo.lock(tid):
            await self.repo.catch_up(table)
        if not needs_owner(table):
            await self.leases.release(tid, final=True)
            return
        self.after(table)

    # ---- idle tables leaving memory (upkeep.py) ---------------------------------------------
    def may_unload(self, table: Table, now: float) -> bool:
        """Whether the table can do without its copy here for now: no computer seat of it
        thinking or due (it moves first), and its next clock deadline (if a clock runs) not
        about to come."""
        if any(tid == table.id for tid, _ in self._thinking):
            return False
        if any(table.seats[s].kind == "ai" for s in turns.due(table)):
            return False
        deadline = self.next_deadline(table)
        return deadline is None or deadline - now > 2 * WAKE_AHEAD_S

    @staticmethod
    def next_deadline(table: Table) -> float | None:
        return clocks.next_deadline(table)

    async def unload(self, table: Table) -> None:
        """Let the table go (the caller forgets its copy): its lease is released, to be
        taken up by any process shortly before its next deadline, or, with no clock
        running, when anything touches it again (a socket, a move: loading claims it)."""
        self.lost(table.id)
        deadline = self.next_deadline(table)
        if deadline is None or table.slow:
            # a slow table's deadline is in the store (days away, in no timer meanwhile):
            # whichever process's sweep finds it due takes the table up (upkeep.py)
            await self.leases.release(table.id, final=True)
        else:
            await self.leases.release(table.id, final=False, wake=deadline - WAKE_AHEAD_S)
        _line(event="unload", table=table.id, worker=self.worker, wake=deadline)

    def lost(self, tid: str) -> None:
        handle = self._timers.pop(tid, None)
        if handle is not None:
            handle.cancel()

    # ---- after each event -------------------------------------------------------------------
    def after(self, table: Table) -> None:
        """Start the computer seats now due, and the clock's next timeout (owner only)."""
        if not self.leases.owns(table.id):
            self.lost(table.id)
            return
        if not needs_owner(table):
            self.lost(table.id)
            self.spawn(self.leases.release(table.id, final=True))
            return
        for seat in turns.due(table):
            if table.seats[seat].kind == "ai" and (table.id, seat) not in self._thinking:
                self._thinking.add((table.id, seat))
                self.spawn(self._computer_move(table.id, seat))
        self._set_timer(table)

    async def _computer_move(self, tid: str, seat: int) -> None:
        # The seat stays marked as thinking until its move is in (or dropped): otherwise an
        # event that lands while the move is being stored starts a second think for the same
        # seat on the old position, whose move then misses (a simultaneous step moves on).
        failed = False
        try:
            await self._think_and_move(tid, seat)
        except Exception as exc:
            # the store or Redis failed for a moment (a loaded box): the move is not in, and
            # no event will come to start the seat again — try again shortly, never stall
            log_failure(log, exc, "computer move at table %s failed; trying again", tid)
            failed = True
        finally:
            self._thinking.discard((tid, seat))
        if failed:
            await asyncio.sleep(RETRY_S)
        # the seat may be due again (an extra turn, or its move was dropped): think again
        table = self.repo.tables.get(tid)
        if table is not None:
            self.after(table)

    async def _think_and_move(self, tid: str, seat: int) -> None:
        """One computer move for `seat` (dropped if the position moved on meanwhile)."""
        table = self.repo.tables.get(tid)
        if table is None or not self.leases.owns(tid):
            return
        state, epoch, v = table.state, table.epoch, table.v
        level = table.seats[seat].level or 1
        deadline = clocks.deadline(table, seat)  # the budget is fixed when the think starts
        self.thinks += 1
        THINKS.labels(table.spec.game).inc()
        _line(event="think", table=tid, seat=seat, v=v, worker=self.worker)
        start = time.perf_counter()
        try:
            move = await self.thinker.choose(
                state,
                seat,
                level,
                self.settings.think_budget(level),
                table.creator,
                tid,
                deadline=deadline,
            )
            THINK_SECONDS.labels(table.spec.game).observe(time.perf_counter() - start)
        except Exception as exc:
            log_failure(log, exc, "computer player failed at table %s; playing a random move", tid)
            move = random_move(state, seat)
        if not self.leases.owns(tid):  # another process took the table over meanwhile
            return

        def make(t: Table) -> StoredEvent:
            if t.epoch != epoch or seat not in turns.due(t) or t.seats[seat].kind != "ai":
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
            await self.repo.submit(tid, make, fence=self.leases.epoch(tid))
        except ApiError as exc:
            self._refused(tid, exc)
            _line(event="computer-move-dropped", table=tid, why=exc.code)

    def _refused(self, tid: str, exc: ApiError) -> None:
        if exc.code == "not-owner":  # the store saw a later owner's write: it is theirs
            self.leases.forfeit(tid)

    # ---- clocks -----------------------------------------------------------------------------
    def _set_timer(self, table: Table) -> None:
        handle = self._timers.pop(table.id, None)
        if handle is not None:
            handle.cancel()
        if table.clock is None or table.is_over:
            return
        deadlines = [
            (d, s) for s in turns.due(table) if (d := clocks.deadline(table, s)) is not None
        ]
        if not deadlines:
            return
        when, seat = min(deadlines)
        loop = asyncio.get_running_loop()
        delay = max(0.0, when - time.time()) + 0.001
        tid, v = table.id, table.v
        self._timers[tid] = loop.call_later(delay, lambda: self.spawn(self.timeout(tid, seat, v)))

    async def timeout(self, tid: str, seat: int, v: int) -> None:
        table = self.repo.tables.get(tid)
        if table is None or table.v != v or not self.leases.owns(tid):
            return
        try:
            if table.on_timeout == "lose":
                await self.repo.submit(
                    tid, lambda t: t.timeout(seat, time.time()), fence=self.leases.epoch(tid)
                )
                return
            held = turns.held_aim(table, seat)
            if held is not None and await self._timeout_move(tid, seat, v, held, aimed=True):
                return  # the piece dropped where the player last aimed it
            state = table.state
            aiming = state.aiming()
            try:
                if aiming is not None:  # the game's own rule for a piece not placed
                    move = await asyncio.to_thread(aiming.default_aim, seat)
                else:
                    move = await self.thinker.choose(
                        state, seat, 1, TIMEOUT_BUDGET_S, table.creator, tid
                    )
            except Exception:
                move = random_move(state, seat)

            await self._timeout_move(tid, seat, v, move)
        except ApiError as exc:
            self._refused(tid, exc)
            _line(event="timeout-dropped", table=tid, why=exc.code)
        except Exception as exc:
            log_failure(log, exc, "timeout at table %s failed; trying again", tid)
            await asyncio.sleep(RETRY_S)
            again = self.repo.tables.get(tid)
            if again is not None:
                self.after(again)  # (sets the timer again: the deadline has passed)

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
            await self.repo.submit(tid, make, fence=self.leases.epoch(tid))
        except ApiError as exc:
            if aimed and exc.code == "illegal-move":
                return False
            raise
        return True
