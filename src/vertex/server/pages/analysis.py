"""Analysis: what would perfect play do in a position of a table's game?

For two-player Dots-family games (Dots and Boxes, Dots and Triangles, Figures) the exact
solver (`vertex.ai.Solver`, the compiled core on boards up to 128 lines) settles whole 3×3
games, and 4×4 games nearly always from the eighth line on, within the time limit (longer on
boards of up to 40 lines, `Settings.analysis_exact_time_s`): the value for the
player to move and every best move. When it cannot finish in time the level-5 computer
player's choice is given instead, marked as an estimate. Other games get a clear refusal.

This module is the route and the answer it builds. The work never runs on the event loop:
solving.py is what runs in a worker process (the server's default, like the computer seats)
or a thread (`Settings.ai_executor = "thread"`, in-process tests), from the pool builder
shared with the computer seats (`pools.py`); analyst.py runs the workers: the time limit, the
cancel flag when the client who asked leaves, a worker that overruns abandoned (a process is
killed), the exact answers cached. Each table keeps its own solver, and so its transposition
table, in the worker, so stepping through a game asks little after the first answer. Each
client address may ask for a few analyses a minute (bounded memory), and has one running at
a time: the workers (one per core) serve the addresses in turn (fair.py), so one address
within its rate cannot keep others waiting behind its queue.

A live game: the server cannot tell a seated player from a spectator (the same player in a
private window, with no token), so while a game runs its analysis is closed to everyone (403
`analysis-closed`, every ply: a replay of a live game included), unless the table's creator
chose "analysis allowed" (a practice table, `TableSpec.analysis`). Once the game is over it
is open to all. The rule is `analysable.gate`, which the table view carries too.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Path, Request
from pydantic import BaseModel, Field

from vertex.core import Game
from vertex.server.compute.analyst import Analyst, ClientGone
from vertex.server.errors import ApiError
from vertex.server.hub import Hub
from vertex.server.metrics import ANALYSES, ANALYSIS_SECONDS
from vertex.server.pages.replay import check_ply, position, shown
from vertex.server.site.addresses import address_of
from vertex.server.table.analysable import gate, refusal
from vertex.server.table.messages import StrictBody

__all__ = ["Analysis", "ClientGone", "add_analysis_routes", "check_analysable"]

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


def check_analysable(game: Game[Any]) -> None:
    """A clear refusal for games the solver does not cover (the rule: `analysable.py`)."""
    reason = refusal(game)
    if reason is not None:
        raise ApiError("not-analysable", reason, 422)


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def _outcome(value: int, misere: bool) -> Literal["win", "loss", "draw"]:
    if value == 0:
        return "draw"
    return "win" if (value < 0) == misere else "loss"


def close_on_shutdown(app: FastAPI, close: Callable[[], Awaitable[None] | None]) -> None:
    """`close()` (awaited if it returns an awaitable) when the server stops, after the app's
    own lifespan: a part that holds workers lets them go with the server."""
    inner = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(a: Any) -> AsyncIterator[Any]:
        async with inner(a) as state:
            try:
                yield state
            finally:
                done = close()
                if done is not None:
                    await done

    app.router.lifespan_context = lifespan


def add_analysis_routes(app: FastAPI, hub: Hub) -> None:
    """`POST /api/tables/{id}/analysis`."""
    analyst = Analyst(hub.settings, hub.quotas)
    app.state.analyst = analyst
    close_on_shutdown(app, analyst.close)

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
        opens once the game is over. A table that ended before its first move (cancelled,
        expired) has no game: 409 `no-game`. Errors: 404 `no-such-table` / `no-such-ply`, 409
        `position-over` (nothing left to play), 429 `rate-limited` (a few analyses a
        minute per client address), 503 `busy` / `analysis-timeout`. Nothing at the table
        changes.
        """
        table = await hub.get(table_id)
        current, plies = shown(table)
        ply = check_ply(plies, body.ply)
        check_analysable(table.game)
        played = bool(table.state.history)
        why = gate(table.game, table.is_over, table.analysis_allowed, played)
        if why == "no-game":
            raise ApiError(
                "no-game",
                "the table ended before its first move: there is no game to analyse",
                409,
            )
        if why is not None:
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
        address = address_of(request.scope, hub.settings.trusted_proxies)
        await analyst.check_rate(address)
        start = time.perf_counter()
        try:
            out = await analyst.analyse(state, table.id, request.is_disconnected, address)
        except ClientGone:
            ANALYSES.labels("cancelled").inc()
            raise ApiError("cancelled", "the client left; the analysis was stopped", 499) from None
        except ApiError as exc:  # busy, analysis-timeout
            ANALYSES.labels("timeout" if exc.code == "analysis-timeout" else "busy").inc()
            raise
        ANALYSES.labels("cached" if out["seconds"] == 0.0 else "done").inc()
        ANALYSIS_SECONDS.labels(table.spec.game).observe(time.perf_counter() - start)
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
