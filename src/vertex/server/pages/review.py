"""Review of a whole game (DESIGN.md §5b): every move judged by perfect play, once per game
for the whole site, stored and shared.

`POST /api/tables/{id}/review` starts (or joins) it; `GET` reads it. The work is the
analysis workers' (compute/reviewer.py drives it a position at a time in the asking
address's fair turn; compute/reviewing.py is a worker's part). The same rule as the
analysis says when: a finished game, or during play at a practice table (`analysable.gate`);
a live game elsewhere is closed to everyone (403 `review-closed`). The games: the Dots
family with two players, and two-player Juxtapose (`analysable.review_refusal`).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import FastAPI, Path, Request
from pydantic import BaseModel, Field

from vertex.server.compute.reviewer import Reviewer
from vertex.server.errors import ApiError
from vertex.server.hub import Hub
from vertex.server.pages.analysis import close_on_shutdown
from vertex.server.pages.replay import shown
from vertex.server.site.addresses import address_of
from vertex.server.storage import reviews
from vertex.server.table.analysable import review_refusal
from vertex.server.table.table import Table

__all__ = ["add_review_routes"]

TableId = Annotated[str, Path(max_length=64, description="the table id from its link")]


class ReviewedMove(BaseModel):
    ply: int = Field(description="the move's index in the game, from 0")
    seat: int = Field(description="the seat that made it")
    move: str
    before: int | str | None = Field(
        description="the mover's value before the move. Dots family: the final cell difference "
        "(their cells minus the other's) under perfect play. Juxtapose: `win-N` (a forced win "
        "in N of the mover's moves), `loss-N` (at the other's N-th), `draw`; null: not known "
        "(an estimate, or beyond the searched depth)"
    )
    after: int | str | None = Field(description="the same, for the mover, after the move")
    exact: bool = Field(description="both values proven: the move is judged (`mark`)")
    best: list[str] = Field(
        description="exact: every move that keeps the value before; else the level-5 "
        "computer's move, an estimate"
    )
    mark: Literal["best", "inaccuracy", "mistake", "blunder"] | None = Field(
        default=None,
        exclude_if=lambda v: v is None,
        description="RULES.md §5; left out where the values are estimates",
    )
    lost: int | None = Field(
        default=None,
        exclude_if=lambda v: v is None,
        description="Dots family, judged moves: the cells the move gave away",
    )


class ReviewedSeat(BaseModel):
    seat: int
    accuracy: float | None = Field(description="% of its judged moves marked best")
    lost: int | None = Field(description="cells given away in all (Dots family)")
    judged: int
    best: int
    inaccuracy: int
    mistake: int
    blunder: int


class Review(BaseModel):
    table: str
    plies: int = Field(description="the moves reviewed (a practice table's game so far)")
    status: Literal["queued", "running", "done"]
    done: int = Field(description="positions judged so far")
    total: int = Field(description="positions to judge")
    unit: Literal["cells", "moves"] | None = Field(
        default=None, description="what `before`/`after` count (done only)"
    )
    misere: bool = False
    exact_from: int | None = Field(
        default=None, description="the first ply from which every move is judged exactly"
    )
    moves: list[ReviewedMove] = Field(default_factory=list)
    seats: list[ReviewedSeat] = Field(default_factory=list)


def _out(row: reviews.ReviewRow) -> Review:
    data: dict[str, Any] = row.data or {}
    return Review(
        table=row.table_id,
        plies=row.plies,
        status=row.status,  # type: ignore[arg-type]
        done=row.done,
        total=row.total,
        unit=data.get("unit"),
        misere=bool(data.get("misere", False)),
        exact_from=data.get("exact_from"),
        moves=[ReviewedMove(**m) for m in data.get("moves", [])],
        seats=[ReviewedSeat(**s) for s in data.get("seats", [])],
    )


def _checked(table: Table) -> int:
    """The moves to review, or the coded refusal."""
    why = review_refusal(table.game)
    if why is not None:
        raise ApiError("not-reviewable", why, 422)
    if not table.is_over and not table.analysis_allowed:
        raise ApiError(
            "review-closed",
            "no review while the game runs at this table (it was set up without analysis "
            "during play); it opens when the game is over",
            403,
        )
    _, plies = shown(table)
    moves = sum(1 for seat, _ in table.state.history[:plies] if seat is not None)
    if moves == 0:
        raise ApiError("no-game", "no move was played at this table: nothing to review", 409)
    return moves


def add_review_routes(app: FastAPI, hub: Hub) -> None:
    """`POST`/`GET /api/tables/{id}/review` (needs the analysis routes' workers first)."""
    reviewer = Reviewer(app.state.analyst, hub.store, hub.settings, hub.worker, hub.tell)
    # a finished review's mistakes become puzzles (issue 35: one move kept the goal)
    reviewer.on_done.append(hub.puzzles.mine_review)
    app.state.reviewer = reviewer
    close_on_shutdown(app, reviewer.close)

    @app.post("/api/tables/{table_id}/review")
    async def start_review(table_id: TableId, request: Request) -> Review:
        """Start (or join) the review of the table's game: every move judged by perfect play
        (the Dots family with two players; two-player Juxtapose by exact search to a depth).
        Runs in the background, once for the whole site; the answer is its state now, then
        `GET` it (the table's sockets hear `{t: "review", status, done, total}` as it goes).
        Errors: 404 `no-such-table`, 422 `not-reviewable`, 403 `review-closed` (a live game
        at a table set up without analysis), 409 `no-game` (no move played), 429
        `rate-limited` (the analyses' rate, per address)."""
        table = await hub.get(table_id)
        plies = _checked(table)
        address = address_of(request.scope, hub.settings.trusted_proxies)
        row = await reviews.read(hub.store, table.id, plies)
        if row is None or row.status != "done":
            await app.state.analyst.check_rate(address)
        row = await reviewer.start(table.id, table.state, plies, address)
        return _out(row)

    @app.get("/api/tables/{table_id}/review")
    async def get_review(table_id: TableId) -> Review:
        """The review of the table's game (as far as it is played): `status` `queued`,
        `running` (`done` of `total` positions judged) or `done` with `moves` and `seats`.
        404 `no-review` when none was started (POST first); other errors as the POST's."""
        table = await hub.get(table_id)
        plies = _checked(table)
        row = await reviews.read(hub.store, table.id, plies)
        if row is None:
            raise ApiError("no-review", "no review of this game yet: start one (POST)", 404)
        return _out(row)
