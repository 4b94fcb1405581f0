"""Analysis: what would perfect play do in a position of a table's game?

For two-player Dots-family games (Dots and Boxes, Dots and Triangles, Figures) the exact
solver (`vertex.ai.Solver`, the compiled core on boards up to 128 lines) settles whole 3×3
games and 4×4 games once a dozen lines are drawn within the time limit: the value for the
player to move and every best move. When it cannot finish in time the level-5 computer
player's choice is given instead, marked as an estimate. Other games get a clear refusal.

The work never runs on the event loop: in a worker process (the server's default, like the
computer seats) or a thread (`Settings.ai_executor = "thread"`, in-process tests), from the
pool builder shared with the computer seats (`pools.py`). The solver stops itself at its
deadline, and when the client who asked leaves (a cancel flag the solver polls); a worker
that overruns anyway is abandoned (a process is killed). Each table keeps its own solver, and
so its transposition table, in the worker (a few tables, a fixed number of bytes each), so
stepping through a game asks little after the first answer. Each client address may ask for
a few analyses a minute (bounded memory), and has one running at a time: the workers (one per
core) serve the addresses in turn (fair.py), so one address within its rate cannot keep
others waiting behind its queue.

A live game: the server cannot tell a seated player from a spectator (the same player in a
private window, with no token), so while a game runs its analysis is closed to everyone (403
`analysis-closed`, every ply: a replay of a live game included), unless the table's creator
chose "analysis allowed" (a practice table, `TableSpec.analysis`). Once the game is over it
is open to all. The rule is `analysable.gate`, which the table view carries too.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import Executor
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Path, Request
from pydantic import BaseModel, Field

from vertex.core import Game, State, replay
from vertex.server.analysable import gate, refusal
from vertex.server.errors import ApiError
from vertex.server.fair import FairShare, Full
from vertex.server.hub import Hub
from vertex.server.messages import StrictBody
from vertex.server.pools import kill_pool, make_pool
from vertex.server.quotas import LocalQuotas, RedisQuotas
from vertex.server.replay import check_ply, position, shown
from vertex.server.settings import Settings

#: Share of the time limit the exact solver may use; the estimate gets the rest.
SOLVER_SHARE = 0.7
#: Beyond the time limit, how long the server waits for a worker before abandoning it
#: (a fresh worker process first has to start and import the engines).
GRACE_S = 3.0
START_GRACE_S = 20.0
#: Requests allowed to wait for a worker, all addresses together (each address may have
#: `Settings.analysis_waiting` of them); more are told the server is busy.
MAX_WAITING = 32
#: Exact answers kept (they never change), all tables together.
RESULT_CACHE = 256
#: Tables whose solver a worker keeps between requests (stepping through a game reuses it).
SOLVERS_KEPT = 4
#: Bytes of each kept solver's transposition table (the compiled core's fixed size).
SOLVER_TABLE_BYTES = 64 << 20
#: Entries of the Python solver's table (boards too big for the core) before it is cleared.
SOLVER_TABLE_LIMIT = 2_000_000
#: How often the server looks whether the client who asked is still there.
WATCH_S = 0.2

TableId = Annotated[str, Path(max_length=64, description="the table id from its link")]


class AnalysisIn(StrictBody):
    ply: int | None = Field(
        default=None,
        description="the position after this many moves; default: the current one",
    )


class Analysis(BaseModel):
    table: str = Field(description="the table id")
    ply: int = Field(description="the position analysed: after this many moves")
    plies: int = Field(description="moves in the table's game so far")
    seat: int = Field(description="the seat to move in that position")
    exact: bool = Field(description="true: solved exactly (value and best are proven)")
    value: str | None = Field(
        description="exact only: the final cell difference, the seat to move's cells minus "
        "the other's (cells already claimed included), when both play perfectly; signed, "
        "e.g. '+2', '-3', '0'. In misère the seat to move aims for a low value."
    )
    outcome: Literal["win", "loss", "draw"] | None = Field(
        description="exact only: what that value means for the seat to move"
    )
    margin: int | None = Field(description="exact only: by how many cells (|value|)")
    best: list[str] = Field(description="exact only: every move that keeps the value, sorted")
    estimate: str | None = Field(
        description="not exact: the level-5 computer player's move, an estimate, not proven"
    )
    seconds: float = Field(description="time the analysis took")


# ---- the work (in a worker process or thread) ------------------------------------------------
_solvers: OrderedDict[tuple[str, Any], Any] = OrderedDict()
_solvers_lock = threading.Lock()
#: Set by the server when the client who asked has left (a process's Event, or a thread's):
#: each worker thread has its own (threads of several workers share this module).
_local = threading.local()


def _init_worker(cancel: Any) -> None:
    _local.cancel = cancel


def _cancelled() -> bool:
    cancel = getattr(_local, "cancel", None)
    return cancel is not None and bool(cancel.is_set())


def _take_solver(table: str, game: Game[Any]) -> Any:
    from vertex.ai import Solver
    from vertex.ai.dots.solver import PySolver

    with _solvers_lock:
        solver = _solvers.pop((table, game.key()), None)
    if solver is None or (isinstance(solver, PySolver) and solver.stored > SOLVER_TABLE_LIMIT):
        solver = Solver(game, table_bytes=SOLVER_TABLE_BYTES)  # type: ignore[arg-type]
    return solver


def _give_back(table: str, game: Game[Any], solver: Any) -> None:
    # Taken out while in use, so an abandoned thread and a new request never share one.
    with _solvers_lock:
        _solvers[(table, game.key())] = solver
        while len(_solvers) > SOLVERS_KEPT:
            _solvers.popitem(last=False)


def analyse_state(state: State, limit_s: float, table: str = "") -> dict[str, Any]:
    """Solve `state` exactly within `limit_s`·SOLVER_SHARE, else the level-5 player's move.

    A search cut off at its deadline (or because the client left) leaves only finished
    entries in the solver's table, so the table is kept for the next request at `table`.
    """
    from vertex.ai import SolveTimeout, player

    start = time.monotonic()
    solver = _take_solver(table, state.game)
    try:
        sol = solver.solve(state, deadline=start + limit_s * SOLVER_SHARE, stop=_cancelled)
    except SolveTimeout:
        pass
    else:
        return {"exact": True, "value": sol.value, "best": list(sol.best_moves), "estimate": None}
    finally:
        _give_back(table, state.game, solver)
    if _cancelled():
        return {"exact": False, "value": None, "best": [], "estimate": None, "cancelled": True}
    left = max(0.02, limit_s - (time.monotonic() - start))
    seat = state.to_move[0]
    move = player(state.game, 5, seed=state.seed).choose(state, seat, left * 0.9)
    return {"exact": False, "value": None, "best": [], "estimate": move}


def analyse_record(record_json: str, limit_s: float, table: str = "") -> dict[str, Any]:
    """The same, in a worker process: only JSON crosses the boundary."""
    return analyse_state(replay(record_json), limit_s, table)


# ---- the server side ---------------------------------------------------------------------------
def check_analysable(game: Game[Any]) -> None:
    """A clear refusal for games the solver does not cover (the rule: `analysable.py`)."""
    reason = refusal(game)
    if reason is not None:
        raise ApiError("not-analysable", reason, 422)


class Worker:
    """One analysis worker: its pool of one (a process or a thread) and its cancel flag."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.pool: Executor | None = None
        self.cancel: Any = None
        self.fresh = True  # a new process: it has to start and import the engines first

    def executor(self) -> Executor:
        if self.pool is None:
            self.fresh = True
            if self.kind == "process":
                self.cancel = multiprocessing.get_context("spawn").Event()
            else:
                self.cancel = threading.Event()
            self.pool = make_pool(
                self.kind, name="vertex-analysis", initializer=_init_worker, initargs=(self.cancel,)
            )
        return self.pool

    def abandon(self) -> None:
        """Drop a worker that overran: a process is killed; a thread (which cannot be) is
        told to stop, and a new one serves the next request."""
        pool, self.pool = self.pool, None
        if self.cancel is not None:
            self.cancel.set()
        if pool is not None:
            kill_pool(pool)

    def close(self) -> None:
        pool, self.pool = self.pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


class Analyst:
    """Runs analyses away from the event loop within the time limit, on a worker per core,
    fairly between client addresses (fair.py): one analysis at a time per address, a few
    waiting, the addresses in turn."""

    def __init__(self, settings: Settings, quotas: LocalQuotas | RedisQuotas) -> None:
        self.kind = settings.ai_executor
        self.limit_s = settings.analysis_time_s
        self.quotas = quotas  # shared by every process of the site
        self.burst = settings.analysis_burst
        self.per_minute = settings.analysis_per_minute
        slots = settings.analysts()
        self.workers = [Worker(self.kind) for _ in range(slots)]
        self._idle = list(range(slots))
        self._last: OrderedDict[str, int] = OrderedDict()  # table -> the worker that had it
        self.share = FairShare(slots, 1, settings.analysis_waiting)
        self._results: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()

    async def check_rate(self, client: str) -> None:
        if not await self.quotas.take_rate("analysis", client, self.per_minute / 60, self.burst):
            raise ApiError(
                "rate-limited",
                f"too many analyses: at most {self.per_minute:g} a minute from one address "
                "(wait a little and ask again)",
                429,
            )

    async def analyse(
        self,
        state: State,
        table: str = "",
        gone: Callable[[], Awaitable[bool]] | None = None,
        client: str = "",
    ) -> dict[str, Any]:
        """The analysis of `state` at `table`, in `client`'s turn; `gone()` says the client
        left (the work is then cancelled, and ClientGone raised)."""
        key = (state.game.key(), state.seed, state.history)
        cached = self._results.get(key)
        if cached is not None:
            self._results.move_to_end(key)
            return {**cached, "seconds": 0.0}
        if self.share.waiting() >= MAX_WAITING:
            raise _busy()
        try:
            async with self.share.turn(client):
                if gone is not None and await gone():
                    raise ClientGone
                worker = self._take(table)
                try:
                    start = time.monotonic()
                    out = await self._run(worker, state, table, gone)
                    out["seconds"] = round(time.monotonic() - start, 3)
                finally:
                    self._idle.append(self.workers.index(worker))
        except Full:
            raise _busy() from None
        if out["exact"]:
            self._results[key] = out
            while len(self._results) > RESULT_CACHE:
                self._results.popitem(last=False)
        return out

    def _take(self, table: str) -> Worker:
        """A free worker (one is: turns never outnumber workers), the table's last one if it
        is free (it keeps that table's solver)."""
        last = self._last.get(table)
        i = last if last is not None and last in self._idle else self._idle[-1]
        self._idle.remove(i)
        self._last[table] = i
        self._last.move_to_end(table)
        while len(self._last) > RESULT_CACHE:
            self._last.popitem(last=False)
        return self.workers[i]

    async def _run(
        self,
        worker: Worker,
        state: State,
        table: str,
        gone: Callable[[], Awaitable[bool]] | None,
    ) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        pool = worker.executor()
        grace = GRACE_S + (START_GRACE_S if worker.fresh and self.kind == "process" else 0.0)
        worker.fresh = False
        worker.cancel.clear()
        if self.kind == "process":
            rec = state.record().to_json()
            work = loop.run_in_executor(pool, analyse_record, rec, self.limit_s, table)
        else:
            work = loop.run_in_executor(pool, analyse_state, state, self.limit_s, table)
        until = loop.time() + self.limit_s + grace
        while True:
            try:
                out: dict[str, Any] = await asyncio.wait_for(asyncio.shield(work), WATCH_S)
            except TimeoutError:
                if gone is not None and not worker.cancel.is_set() and await gone():
                    await self._stop(worker, work)
                    raise ClientGone from None
                if loop.time() > until:
                    worker.abandon()
                    raise ApiError(
                        "analysis-timeout",
                        "the analysis overran its time limit and was stopped",
                        503,
                    ) from None
                continue
            if out.get("cancelled"):
                raise ClientGone
            return out

    async def _stop(self, worker: Worker, work: asyncio.Future[Any]) -> None:
        """Cancel the work and wait the moment it takes to stop (the next question must not
        clear the flag under it); a worker that does not stop is abandoned."""
        worker.cancel.set()
        try:
            await asyncio.wait_for(work, GRACE_S)
        except Exception:
            worker.abandon()

    def close(self) -> None:
        for worker in self.workers:
            worker.close()


def _busy() -> ApiError:
    return ApiError("busy", "the analysis worker is busy; try again in a moment", 503)


class ClientGone(Exception):
    """The client who asked left before the answer: its work was cancelled."""


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def _outcome(value: int, misere: bool) -> Literal["win", "loss", "draw"]:
    if value == 0:
        return "draw"
    return "win" if (value < 0) == misere else "loss"


def add_analysis_routes(app: FastAPI, hub: Hub) -> None:
    """`POST /api/tables/{id}/analysis`."""
    analyst = Analyst(hub.settings, hub.quotas)
    app.state.analyst = analyst
    inner = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(a: Any) -> AsyncIterator[Any]:
        # The app's own lifespan, then the analysis worker is shut down with the server.
        async with inner(a) as state:
            try:
                yield state
            finally:
                analyst.close()

    app.router.lifespan_context = lifespan

    @app.post("/api/tables/{table_id}/analysis")
    async def analysis(table_id: TableId, body: AnalysisIn, request: Request) -> Analysis:
        """What would perfect play do? The position after `ply` moves of the table's game
        (default: the current one), for the seat to move.

        - `exact: true`: the solver settled it. `value` is the final cell difference for the
          seat to move (their cells minus the other's at the end, cells already claimed
          included) when both play perfectly, e.g. `"+2"`; `outcome` (`win`, `loss`, `draw`)
          and `margin` say the same in words (in misère the seat to move wants a low value);
          `best` lists every move that keeps that value.
        - `exact: false`: the solver could not finish within the time limit (a few seconds);
          `estimate` is the level-5 computer player's move — an estimate, not proven.

        Two-player Dots-family games only (Dots and Boxes, Dots and Triangles, Figures); other
        games get 422 `not-analysable`. While the game runs, only a table set up with
        `analysis: true` (a practice table) answers; any other gets 403 `analysis-closed`
        for every ply, whoever asks (a player in a private window is a spectator too): it
        opens once the game is over. Errors: 404 `no-such-table` / `no-such-ply`, 409
        `position-over` (nothing left to play), 429 `rate-limited` (a few analyses a
        minute per client address), 503 `busy` / `analysis-timeout`. Nothing at the table
        changes.
        """
        table = await hub.get(table_id)
        current, plies = shown(table)
        ply = check_ply(plies, body.ply)
        check_analysable(table.game)
        if gate(table.game, table.is_over, table.analysis_allowed) is not None:
            raise ApiError(
                "analysis-closed",
                "no analysis while the game runs at this table (it was set up without "
                "analysis during play); it opens when the game is over",
                403,
            )
        state = await position(hub, table.id, current, ply)
        if state.is_over:
            raise ApiError(
                "position-over",
                f"the game is over at ply {ply}: nothing is left to play there",
                409,
            )
        address = request.client.host if request.client else "unknown"
        await analyst.check_rate(address)
        try:
            out = await analyst.analyse(state, table.id, request.is_disconnected, address)
        except ClientGone:
            raise ApiError("cancelled", "the client left; the analysis was stopped", 499) from None
        exact, value = out["exact"], out["value"]
        misere = table.game.lowest_score_wins
        return Analysis(
            table=table.id,
            ply=ply,
            plies=plies,
            seat=state.to_move[0],
            exact=exact,
            value=_signed(value) if exact else None,
            outcome=_outcome(value, misere) if exact else None,
            margin=abs(value) if exact else None,
            best=out["best"],
            estimate=out["estimate"],
            seconds=out["seconds"],
        )
