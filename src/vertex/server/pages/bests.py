"""`GET /api/verticality/board`: "How tall can you build?" — the page's bests board; and
`GET /api/verticality/bests`: the personal-best lists it is made from.

The best solo towers built at this site (each name's best, from the personal-best list the
store keeps), with a link to each one's replay, beside the computer players' best towers per
level as measured by `bench/bench_verticality.py` (`vertex.games.verticality.records`).

Bounded and cached: the list is at most `BOARD_SIZE` rows whatever is asked, and one answer is
kept for `CACHE_S` seconds in the process (every page load of the rules page asks), so a burst
of visitors costs one query. A process that just recorded a best may show it up to `CACHE_S`
late; the `Cache-Control` header lets browsers and proxies keep it as long.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, Field

from vertex.games.verticality.records import COMPUTER_BESTS, MEASURED_WITH, SUPPLY_LEVELS
from vertex.server.text import check_text

#: Rows on the board, at most.
BOARD_SIZE = 20
#: Seconds an answer is reused (in the process and by browsers).
CACHE_S = 10.0

router = APIRouter()


class BoardTower(BaseModel):
    name: str = Field(description="the player's display name")
    levels: int = Field(description="levels completed")
    height_mm: float = Field(description="height of the tower's last good placement (mm)")
    table: str = Field(description="the table the tower was built at")
    at: float = Field(description="when the game ended (seconds since 1970, UTC)")
    replay: str = Field(description="the page that replays this tower's game")


class Best(BaseModel):
    name: str = Field(description="the player's display name")
    levels: int = Field(description="levels completed")
    height_mm: float = Field(description="height of the tower's last good placement (mm)")
    table: str = Field(description="the table the result was built at")
    at: float = Field(description="when the game ended (seconds since 1970, UTC)")


class Bests(BaseModel):
    name: str | None = Field(description="whose results these are; null for the top list")
    bests: list[Best] = Field(description="best first: levels, then height, then the earlier")


class ComputerBest(BaseModel):
    level: int = Field(description="computer level, 1-5")
    best: int = Field(description="the most levels it built, over the measured towers")
    mean: float = Field(description="mean levels it built")
    towers: int = Field(description="towers measured (solo, one table seed each)")
    tremor_mm: float = Field(description="the hand tremor they were built with (mm)")


class Board(BaseModel):
    towers: list[BoardTower] = Field(
        description=f"at most {BOARD_SIZE}, best first: levels, then height, then the earlier; "
        "one row per name (its best)"
    )
    computer: list[ComputerBest] = Field(description="the computer players, level 1 to 5")
    measured_with: str = Field(
        description="the bench command the computer players were measured with"
    )
    supply_levels: int = Field(description="the most levels the pyramid supply allows")


class _Cache:
    def __init__(self) -> None:
        self.board: Board | None = None
        self.at = -1e18
        self.lock = asyncio.Lock()


@router.get("/api/verticality/board")
async def board(request: Request, response: Response) -> Board:
    """The bests board: the best solo Verticality towers at this site (each name's best, best
    first, with a link to the replay) and the computer players' best per level. Cached for
    `CACHE_S` seconds."""
    cache: _Cache = _cache_of(request)
    response.headers["Cache-Control"] = f"public, max-age={int(CACHE_S)}"
    async with cache.lock:
        now = time.monotonic()
        if cache.board is None or now - cache.at >= CACHE_S:
            cache.board = await _build(request.app.state.hub)
            cache.at = now
        return cache.board


#: One cache per app (tests run several apps in one process).
_caches: weakref.WeakKeyDictionary[Any, _Cache] = weakref.WeakKeyDictionary()


def _cache_of(request: Request) -> _Cache:
    cache = _caches.get(request.app)
    if cache is None:
        cache = _caches[request.app] = _Cache()
    return cache


async def _build(hub: Any) -> Board:
    rows = await hub.store.bests.ranked(None, BOARD_SIZE)
    towers = [
        BoardTower(
            name=r.name,
            levels=r.levels,
            height_mm=r.height_mm,
            table=r.table_id,
            at=r.at,
            replay=f"/tables/{r.table_id}#replay",
        )
        for r in rows
    ]
    computer = [ComputerBest(**row) for row in COMPUTER_BESTS]
    return Board(
        towers=towers, computer=computer, measured_with=MEASURED_WITH, supply_levels=SUPPLY_LEVELS
    )


@router.get("/api/verticality/bests")
async def bests(
    request: Request,
    name: Annotated[
        str | None,
        Query(max_length=400, description="a display name: that player's results"),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=100, description="at most this many")] = 20,
) -> Bests:
    """Solo Verticality personal bests: with `name`, that player's results; without, the
    top list (each name's best). Best first: levels completed, then height."""
    hub = request.app.state.hub
    if name is not None:
        name = check_text(name, hub.limits.name_chars, "name")
    rows = await hub.store.bests.ranked(name, limit)
    listed = [
        Best(name=r.name, levels=r.levels, height_mm=r.height_mm, table=r.table_id, at=r.at)
        for r in rows
    ]
    return Bests(name=name, bests=listed)
