"""Computer seats: choose a move away from the event loop.

Worker processes (default) or threads ask `vertex.ai.player(game, level)` for a move. A
process gets the record, so nothing but JSON crosses the boundary, and plays on from the
state it kept from the table's last move (worker_states.py): a table goes back to the worker
that had it whenever that one is free. There is a worker per core (`Settings.ai_workers`),
shared fairly between the addresses that opened the tables (fair.py): one address's many
tables cannot hold every worker.

A think's budget is fixed when it starts, not when it is asked for (`think_budget`): it
shrinks with the thinks queued behind it, so a long queue is served within about one budget
and every reply keeps to its clock under load (the computers then play weaker, not late),
and it is at most half the time the seat's clock has left at that moment.

Between thinks a worker process may think on the other side's time (`vertex.ai.ponder`,
`Settings.ai_ponder`): its next think stops that first. The workers count their pondering
threads in one shared array, so a think that looks for a spare core does not count them.

A worker process that dies (killed for its memory, say) is replaced: the think it was on
is asked again of a fresh one when the clock leaves time for its start, and the next
thinks go to the fresh one. Otherwise every later move of that worker's tables would be
the random move the caller plays when a think fails. A worker stuck far past its think's
budget (OVERRUN_S) is killed and replaced the same way, and that think fails (the caller
plays its fallback move): otherwise the tables behind it would wait for ever.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import time
from concurrent.futures import BrokenExecutor, Executor
from typing import Any

from vertex.core import Rng, State
from vertex.server.compute.fair import FairShare
from vertex.server.compute.pools import Slots, kill_pool, make_pool, stop_pool
from vertex.server.compute.worker_states import state_of
from vertex.server.metrics import THINK_BUDGET_SECONDS, WORKERS_REPLACED

log = logging.getLogger("vertex.server")


def choose(state: State, seat: int, level: int, budget_s: float) -> str:
    """The computer player's move (an import error in the players is loud, never random play)."""
    from vertex.ai import player

    return player(state.game, level).choose(state, seat, budget_s)


def random_move(state: State, seat: int) -> str:
    rng = Rng.from_seed(state.seed, "fallback", seat, len(state.history))
    return state.sample_move(seat, rng)[0]


def _choose_from_record(record_json: str, seat: int, level: int, budget_s: float) -> str:
    from vertex.ai import ponder

    ponder.stop()  # whatever game this think is for, it has the worker to itself
    # the worker keeps its states between moves: only the new moves are played
    return choose(state_of(record_json), seat, level, budget_s)


def _ready() -> None:
    import vertex.ai  # noqa: F401  (loaded before the first move is asked for)


def _worker_ponders(pondering: Any, slot: int) -> None:
    """A worker process's start: it thinks on the other side's time, counting its threads
    in `pondering[slot]` (an array shared by the server's workers), when that is given."""
    if pondering is not None:
        from vertex.ai import ponder

        ponder.share(pondering, slot)
        ponder.allow(True)


#: The least a computer thinks, however long the queue or short its clock (a move still
#: costs a worker its overheads, a few milliseconds, beside it).
LEAST_THINK_S = 0.01


def think_budget(
    budget_s: float, workers: int, waiting: int, deadline: float | None, now: float
) -> float:
    """The budget of a think starting `now` with `waiting` thinks queued behind it.

    `budget_s × workers / (workers + waiting)`: the thinks waiting then start within about
    one budget, whatever their number (with 100 tables on two workers at 0.5 s a think, the
    last of a full queue would otherwise wait 25 s, past a 10 s clock). With a clock
    (`deadline`, wall time), at most half of what is left of it."""
    share = budget_s * max(1, workers) / (max(1, workers) + max(0, waiting))
    if deadline is not None:
        share = min(share, (deadline - now) / 2)
    return max(LEAST_THINK_S, min(budget_s, share))


#: Tables whose last worker is remembered (to send them back to it).
TABLES_KEPT = 1_000
#: What a fresh worker process takes to start and import the players, at most: a think
#: whose worker died is asked again of a fresh one only when its clock leaves this much.
RESTART_S = 10.0
#: How long past its budget a think may run before its worker is taken for stuck (killed
#: and replaced): far beyond a busy machine's lateness, with a fresh worker's start in it.
OVERRUN_S = 30.0
#: How long the server's stop waits for a think in progress before its worker is killed.
CLOSE_WAIT_S = 5.0


class Thinker:
    def __init__(self, kind: str, workers: int, per_address: int, *, ponder: bool = False) -> None:
        self.kind = kind
        self.workers = workers
        # worker processes only: a thread would ponder inside the server's own process
        self._pondering: Any = None  # a slot per worker
        if ponder and kind == "process":
            # no lock: each slot has one writer (a killed worker could leave a lock held)
            ctx = multiprocessing.get_context("spawn")
            self._pondering = ctx.Array("i", workers, lock=False)
        self.share = FairShare(workers, per_address)
        # one pool of one worker each: a table is sent back to the worker that kept its state
        self._pools: list[Executor | None] = [None] * workers
        self._slots = Slots(workers, TABLES_KEPT)  # a table's next think: its last worker

    def pondering(self) -> int:
        """Threads the workers run on the other side's time now (0 when they never do)."""
        return 0 if self._pondering is None else max(0, sum(self._pondering[:]))

    def _executor(self, i: int) -> Executor:
        pool = self._pools[i]
        if pool is None:
            pool = self._pools[i] = make_pool(
                self.kind,
                name=f"vertex-ai-{i}",
                initializer=_worker_ponders,
                initargs=(self._pondering, i),
            )
        return pool

    def _replace(self, i: int, pool: Executor) -> None:
        """Drop worker `i`, which died or was killed, and start a fresh one. Its pondering
        threads died with it."""
        if self._pools[i] is pool:
            self._pools[i] = None
        pool.shutdown(wait=False, cancel_futures=True)
        if self._pondering is not None:
            self._pondering[i] = 0
        WORKERS_REPLACED.labels("computer").inc()
        if self.kind == "process":
            # started now, not at its next think: a fresh interpreter takes seconds to start
            with contextlib.suppress(RuntimeError):  # shutting down
                self._executor(i).submit(_ready)

    def warm(self, i: int = 0) -> None:
        """Start the worker processes now (a fresh interpreter takes seconds to start, which
        a computer's reply should not wait for): one after the other, so they do not all
        compete for the machine at the server's start."""
        if self.kind != "process" or i >= self.workers:
            return
        try:
            started = self._executor(i).submit(_ready)
        except RuntimeError:  # shutting down
            return
        started.add_done_callback(lambda _f: self.warm(i + 1))

    async def choose(
        self,
        state: State,
        seat: int,
        level: int,
        budget_s: float,
        address: str = "",
        table: str = "",
        deadline: float | None = None,
    ) -> str:
        """The move, once `address` (who opened the table) has its turn at a worker: thought
        about for `think_budget` (`budget_s` at most; `deadline` the seat's clock, wall
        time)."""
        args: tuple[Any, ...]
        async with self.share.turn(address) as behind:
            budget_s = think_budget(budget_s, self.workers, behind, deadline, time.time())
            THINK_BUDGET_SECONDS.labels(state.game.id).observe(budget_s)
            i = self._slots.take(table)  # one is free: turns never outnumber workers
            try:
                if self.kind == "process":
                    args = (state.record().to_json(), seat, level, budget_s)
                    return await self._run(i, _choose_from_record, args, budget_s, deadline)
                args = (state, seat, level, budget_s)
                return await self._run(i, choose, args, budget_s, deadline)
            finally:
                self._slots.give_back(i)

    async def _run(
        self, i: int, fn: Any, args: tuple[Any, ...], budget_s: float, deadline: float | None
    ) -> str:
        """`fn(*args)` on worker `i`; if the worker is dead, on a fresh one (once, and only
        when the clock leaves time for a fresh worker's start)."""
        try:
            return await self._once(i, fn, args, budget_s)
        except BrokenExecutor:
            if deadline is not None and deadline - time.time() < RESTART_S:
                raise
        return await self._once(i, fn, args, budget_s)

    async def _once(self, i: int, fn: Any, args: tuple[Any, ...], budget_s: float) -> str:
        pool = self._executor(i)
        work = asyncio.get_running_loop().run_in_executor(pool, fn, *args)
        try:
            move: str = await asyncio.wait_for(work, budget_s + OVERRUN_S)
        except BrokenExecutor:
            # one JSON line, as the server's other events (an operator counts these)
            log.warning(json.dumps({"event": "worker-died", "pool": "computer", "worker": i}))
            self._replace(i, pool)
            raise
        except TimeoutError:
            log.warning(json.dumps({"event": "worker-stuck", "pool": "computer", "worker": i}))
            kill_pool(pool)  # a thread cannot be killed: it is left to finish alone
            self._replace(i, pool)
            raise
        return move

    def close(self) -> None:
        """Stop the workers: a think in progress has CLOSE_WAIT_S to end, then its worker is
        killed."""
        for i, pool in enumerate(self._pools):
            if pool is not None:
                stop_pool(pool, CLOSE_WAIT_S)
                self._pools[i] = None
