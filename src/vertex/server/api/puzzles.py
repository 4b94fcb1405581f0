"""The puzzles' routes (DESIGN.md §5b).

- `GET /api/puzzles/games` → `{games: [{game, themes, pools: [{pool, options, themes}]}]}`.
- `GET /api/puzzles/next?game=GAME[&pool=POOL][&theme=T][&after=ID]` (`pool` one of the
  game's boards, e.g. `dots-and-boxes-4x4`: 422 `puzzle-pool` otherwise; without it, any
  board of the game) and `GET /api/puzzles/daily?game=[&pool=]`
  and `GET /api/puzzles/{id}`: a puzzle, `{id, game, options, moves, to_move, goal, rating,
  themes, turns, hint, url, state}` (`state` is the position as a table's view: the page
  draws it and offers its `legal_moves`), with `player_rating` for a player with a key.
- `POST /api/puzzles/{id}/attempt {moves}`: `moves` is the line from the puzzle's position
  so far, the player's moves with the computer's replies (from earlier answers) between
  them. → `{solved, status: playing|solved|failed, done, reply, state, failed_at?,
  solution?, rating?, rating_change?, rated?}`. While `playing`, `reply` holds the
  computer's answer, to be added to the line before the player's next move; a finished
  attempt by a player with a key rates player and puzzle once (a replay stores nothing).
- `GET /api/lessons/{game}` → `{game, steps: [{step, puzzle}]}`: the rules page's lesson.
- `POST /api/puzzles/{id}/give-up` → `{solution, rating?}` (a failed attempt for a player).
- `POST /api/puzzles/{id}/positions {moves}` → `{states}`: the positions along a line.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import FastAPI, Path, Query, Request

from vertex.server.errors import ApiError
from vertex.server.hub import Hub
from vertex.server.players.identity import Me
from vertex.server.puzzles.offer import games
from vertex.server.site.addresses import address_of

PuzzleId = Annotated[str, Path(max_length=64, description="a puzzle's id")]
GameQ = Annotated[str, Query(max_length=64, description="a game id")]
ThemeQ = Annotated[str | None, Query(max_length=64, description="a theme (RULES §5)")]


def add_puzzle_routes(app: FastAPI, hub: Hub) -> None:
    async def who(request: Request) -> Me | None:
        address = address_of(request.scope, hub.settings.trusted_proxies)
        return await hub.identity.me(request.headers.get("authorization"), address)

    @app.get("/api/puzzles/games")
    async def puzzle_games() -> dict[str, Any]:
        """The games with puzzles, each with its themes (in the order a choice lists them)
        and its boards (`pools`: the pool's name, its options, its themes)."""
        return {"games": games(hub.puzzles.by_game)}

    @app.get("/api/puzzles/next")
    async def next_puzzle(
        request: Request,
        game: GameQ,
        theme: ThemeQ = None,
        after: Annotated[str | None, Query(max_length=64)] = None,
        pool: Annotated[str | None, Query(max_length=64, description="a board")] = None,
    ) -> dict[str, Any]:
        """A puzzle of the game or one of its boards (and theme): for a player, one not
        tried yet near their rating; `after` (the one just played) is not given again at
        once."""
        me = await who(request)
        puzzle = await hub.puzzles.next(game, theme or None, me, after, pool or None)
        return await hub.puzzles.view(puzzle, me)

    @app.get("/api/puzzles/daily")
    async def daily_puzzle(
        request: Request,
        game: GameQ,
        pool: Annotated[str | None, Query(max_length=64, description="a board")] = None,
    ) -> dict[str, Any]:
        """The day's puzzle for the game, or one of its boards (the same for everyone, UTC
        days)."""
        me = await who(request)
        return await hub.puzzles.view(await hub.puzzles.daily(game, pool or None), me)

    @app.get("/api/lessons/{game}")
    async def lessons(
        game: Annotated[str, Path(max_length=64)], request: Request
    ) -> dict[str, Any]:
        """The rules page's lesson: `{game, steps: [{step, puzzle}]}`, each puzzle as
        `GET /api/puzzles/{id}` gives it (attempts go to the same routes)."""
        me = await who(request)
        return await hub.puzzles.lesson(game, me)

    @app.get("/api/puzzles/{puzzle_id}")
    async def one_puzzle(puzzle_id: PuzzleId, request: Request) -> dict[str, Any]:
        me = await who(request)
        return await hub.puzzles.view(await hub.puzzles.get(puzzle_id), me)

    @app.post("/api/puzzles/{puzzle_id}/attempt")
    async def attempt(puzzle_id: PuzzleId, request: Request) -> dict[str, Any]:
        """Judge the line so far (see the module notes)."""
        address = address_of(request.scope, hub.settings.trusted_proxies)
        me = await who(request)
        await hub.allowances.puzzle_attempt(address)
        try:
            body = json.loads(await request.body())
        except ValueError as exc:
            raise ApiError(
                "puzzle-line", "send JSON {moves: [...]}", 422, params={"limit": 64}
            ) from exc
        return await hub.puzzles.attempt(puzzle_id, body, me)

    @app.post("/api/puzzles/{puzzle_id}/give-up")
    async def give_up(puzzle_id: PuzzleId, request: Request) -> dict[str, Any]:
        """`{solution, rating?}`: the solution; for a player with a key, a failed attempt
        unless one is stored already."""
        me = await who(request)
        return await hub.puzzles.give_up(puzzle_id, me)

    @app.post("/api/puzzles/{puzzle_id}/positions")
    async def positions(puzzle_id: PuzzleId, request: Request) -> dict[str, Any]:
        """`{moves}` → `{states}`: the position after each move of a line from the puzzle's
        position (to show the solution step by step; nothing is judged or stored)."""
        address = address_of(request.scope, hub.settings.trusted_proxies)
        await hub.allowances.puzzle_attempt(address)
        try:
            body = json.loads(await request.body())
        except ValueError as exc:
            raise ApiError(
                "puzzle-line", "send JSON {moves: [...]}", 422, params={"limit": 64}
            ) from exc
        return await hub.puzzles.positions(puzzle_id, body)
