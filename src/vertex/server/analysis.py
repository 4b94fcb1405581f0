"""Analysis: what would perfect play do in a position of a table's game?

For two-player Dots-family games (Dots and Boxes, Dots and Triangles, Figures) the exact
solver (`vertex.ai.Solver`) settles small positions — 2×2 and 2×3 boxes, strips, late
positions of 3×3 — in well under a second: the value for the player to move and every best
move. When it cannot finish within the time limit the level-5 computer player's choice is
given instead, marked as an estimate. Other games get a clear refusal.

The work never runs on the event loop: in a worker process (the server's default, like the
computer seats) or a thread (`Settings.ai_executor = "thread"`, in-process tests). The solver
stops itself at its deadline; a worker that overruns anyway is abandoned (a process is
killed). Each client address may ask for a few analyses a minute (bounded memory).

Players at a live table: the server cannot tell a seated player from a spectator who sends no
token. So the page never offers analysis to a seated player while their game runs, and sends
the seat token it holds with each request; a request with a token that holds a seat at a
table whose game is not over is refused (403 `playing`). A player who opens a second browser
without their token is not stopped: this is a courtesy, like looking away from the board.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Path, Request
from pydantic import BaseModel, ConfigDict, Field

from vertex.core import Game, State, replay
from vertex.server.analysable import refusal
from vertex.server.errors import ApiError
from vertex.server.hub import Hub
from vertex.server.quotas import LocalQuotas, RedisQuotas
from vertex.server.replay import check_ply, position, shown
from vertex.server.settings import Settings

#: Share of the time limit the exact solver may use; the estimate gets the rest.
SOLVER_SHARE = 0.7
#: Beyond the time limit, how long the server waits for a worker before abandoning it
#: (a fresh worker process first has to start and import the engines).
GRACE_S = 3.0
START_GRACE_S = 20.0
#: Requests allowed to wait for the worker; more are told the server is busy.
MAX_WAITING = 4
#: Exact answers kept (they never change), all tables together.
RESULT_CACHE = 256
#: Solver tables a worker keeps between requests (stepping through one game reuses them).
SOLVERS_KEPT = 4
SOLVER_TABLE_LIMIT = 2_000_000

TableId = Annotated[str, Path(max_length=64, description="the table id from its link")]


class AnalysisIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    ply: int | None = Field(
        default=None, description="the position after this many moves; default: the current one"
    )
    token: str | None = Field(
        default=None,
        max_length=200,
        description="the seat token this browser holds at the table, if any: a seated "
        "player gets no analysis while the game runs",
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
_solvers: OrderedDict[tuple[str, str], Any] = OrderedDict()
_solvers_lock = threading.Lock()


def _take_solver(game: Game[Any]) -> Any:
    from vertex.ai import Solver

    with _solvers_lock:
        solver = _solvers.pop(game.key(), None)
    if solver is None or len(solver.tt) > SOLVER_TABLE_LIMIT:
        solver = Solver(game)  # type: ignore[arg-type]
    return solver


def _give_back(game: Game[Any], solver: Any) -> None:
    # Taken out while in use, so an abandoned thread and a new request never share one.
    with _solvers_lock:
        _solvers[game.key()] = solver
        while len(_solvers) > SOLVERS_KEPT:
            _solvers.popitem(last=False)


def analyse_state(state: State, limit_s: float) -> dict[str, Any]:
    """Solve `state` exactly within `limit_s`·SOLVER_SHARE, else the level-5 player's move.

    A search cut off at its deadline leaves only finished entries in the solver's table,
    so the table is kept for the next request on the same game.
    """
    from vertex.ai import SolveTimeout, player

    start = time.monotonic()
    solver = _take_solver(state.game)
    try:
        sol = solver.solve(state, deadline=start + limit_s * SOLVER_SHARE)
    except SolveTimeout:
        pass
    else:
        return {"exact": True, "value": sol.value, "best": list(sol.best_moves), "estimate": None}
    finally:
        _give_back(state.game, solver)
    left = max(0.02, limit_s - (time.monotonic() - start))
    seat = state.to_move[0]
    move = player(state.game, 5, seed=state.seed).choose(state, seat, left * 0.9)
    return {"exact": False, "value": None, "best": [], "estimate": move}


def analyse_record(record_json: str, limit_s: float) -> dict[str, Any]:
    """The same, in a worker process: only JSON crosses the boundary."""
    return analyse_state(replay(record_json), limit_s)


# ---- the server side ---------------------------------------------------------------------------
def check_analysable(game: Game[Any]) -> None:
    """A clear refusal for games the solver does not cover (the rule: `analysable.py`)."""
    reason = refusal(game)
    if reason is not None:
        raise ApiError("not-analysable", reason, 422)


class Analyst:
    """Runs analyses away from the event loop, one at a time, within the time limit."""

    def __init__(self, settings: Settings, quotas: LocalQuotas | RedisQuotas) -> None:
        self.kind = settings.ai_executor
        self.limit_s = settings.analysis_time_s
        self.quotas = quotas  # shared by every process of the site
        self.burst = settings.analysis_burst
        self.per_minute = settings.analysis_per_minute
        self._pool: Executor | None = None
        self._fresh = True
        self._running = asyncio.Semaphore(1)
        self._waiting = 0
        self._results: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()

    async def check_rate(self, client: str) -> None:
        if not await self.quotas.take_rate("analysis", client, self.per_minute / 60, self.burst):
            raise ApiError(
                "rate-limited",
                f"too many analyses: at most {self.per_minute:g} a minute from one address "
                "(wait a little and ask again)",
                429,
            )

    async def analyse(self, state: State) -> dict[str, Any]:
        key = (state.game.key(), state.seed, state.history)
        cached = self._results.get(key)
        if cached is not None:
            self._results.move_to_end(key)
            return {**cached, "seconds": 0.0}
        if self._waiting >= MAX_WAITING:
            raise ApiError("busy", "the analysis worker is busy; try again in a moment", 503)
        self._waiting += 1
        try:
            await self._running.acquire()
        finally:
            self._waiting -= 1
        try:
            start = time.monotonic()
            out = await self._run(state)
            out["seconds"] = round(time.monotonic() - start, 3)
        finally:
            self._running.release()
        if out["exact"]:
            self._results[key] = out
            while len(self._results) > RESULT_CACHE:
                self._results.popitem(last=False)
        return out

    async def _run(self, state: State) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        pool = self._executor()
        grace = GRACE_S + (START_GRACE_S if self._fresh and self.kind == "process" else 0.0)
        self._fresh = False
        if self.kind == "process":
            rec = state.record().to_json()
            work = loop.run_in_executor(pool, analyse_record, rec, self.limit_s)
        else:
            work = loop.run_in_executor(pool, analyse_state, state, self.limit_s)
        try:
            return await asyncio.wait_for(work, timeout=self.limit_s + grace)
        except TimeoutError:
            self._abandon()
            raise ApiError(
                "analysis-timeout", "the analysis overran its time limit and was stopped", 503
            ) from None

    def _executor(self) -> Executor:
        if self._pool is None:
            self._fresh = True
            if self.kind == "process":
                ctx = multiprocessing.get_context("spawn")
                self._pool = ProcessPoolExecutor(max_workers=1, mp_context=ctx)
            else:
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="vertex-analysis")
        return self._pool

    def _abandon(self) -> None:
        """Drop a worker that overran: a process is killed; a thread (which cannot be) is
        left to hit the solver's own deadline, and a new one serves the next request."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if isinstance(pool, ProcessPoolExecutor):
            for proc in list(getattr(pool, "_processes", {}).values()):
                with contextlib.suppress(Exception):
                    proc.kill()
        pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


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
        games get 422 `not-analysable`. Errors: 404 `no-such-table` / `no-such-ply`, 409
        `position-over` (nothing left to play), 403 `playing` (the `token` holds a seat at
        this table and the game is still on: no help for players during their game — the
        page does not offer it to them either), 429 `rate-limited` (a few analyses a minute
        per client address), 503 `busy` / `analysis-timeout`. Nothing at the table changes.
        """
        table = await hub.get(table_id)
        current, plies = shown(table)
        ply = check_ply(plies, body.ply)
        seated = body.token is not None and table.seat_of(body.token) is not None
        if seated and not table.is_over:
            raise ApiError(
                "playing",
                "no analysis for a player while their game runs; it opens when the game is over",
                403,
            )
        check_analysable(table.game)
        state = await position(hub, table.id, current, ply)
        if state.is_over:
            raise ApiError(
                "position-over",
                f"the game is over at ply {ply}: nothing is left to play there",
                409,
            )
        await analyst.check_rate(request.client.host if request.client else "unknown")
        out = await analyst.analyse(state)
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
