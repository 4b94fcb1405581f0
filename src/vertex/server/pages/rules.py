"""The rules pages' pictures: `GET /api/rules/{game}/diagrams`.

Each picture is a position played with the real engine from a fixed list of moves, so a
rules page draws exactly what a table would show (a completed box, a chain, the Figures touch
rule, a scored Vert3x triangle, a Juxtapose winning line…) and stays true when an engine
changes: a move list that no longer plays fails the tests instead of showing a wrong board.
Each game declares its pictures (`Game.diagrams`, next to its rules); a game without any
(Verticality, a 3-D world) draws its own. Read-only, seeded, built once per game.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from fastapi import FastAPI

from vertex.core import create_game, game_class, game_ids
from vertex.core.capabilities import Diagram
from vertex.server.errors import ApiError


def play(game_id: str, diagram: Diagram) -> dict[str, Any]:
    """The position of `diagram` as a table view's state (`state.to_dict()`)."""
    state = create_game(game_id, **diagram.options).initial_state(seed=1)
    for move in diagram.moves:
        state = state.play(move, seat=state.to_move[0])
    view: dict[str, Any] = state.to_dict()
    return view


@cache
def diagrams(game_id: str) -> list[dict[str, Any]]:
    """Every picture of a game's rules page: `[{id, options, moves, state}]`."""
    return [
        {"id": d.id, "options": d.options, "moves": list(d.moves), "state": play(game_id, d)}
        for d in game_class(game_id).diagrams
    ]


def add_rules_routes(app: FastAPI) -> None:
    @app.get("/api/rules/{game_id}/diagrams")
    async def rules_diagrams(game_id: str) -> list[dict[str, Any]]:
        """The positions a game's rules page draws, each `{id, options, moves, state}`: the
        state played with the real engine from the fixed `moves`."""
        if game_id not in game_ids():
            known = ", ".join(game_ids())
            raise ApiError("unknown-game", f"there is no game {game_id!r} (games: {known})", 404)
        return diagrams(game_id)
