"""The rules pages' pictures: `GET /api/rules/{game}/diagrams`.

Each picture is a position played with the real engine from a fixed list of moves, so a
rules page draws exactly what a table would show (a completed box, a chain, the Figures touch
rule, a scored Vert3x triangle, a Juxtapose winning line…) and stays true when an engine
changes: a move list that no longer plays fails the tests instead of showing a wrong board.
Read-only, seeded, built once per game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from fastapi import FastAPI

from vertex.core import create_game, game_ids
from vertex.server.errors import ApiError


@dataclass(frozen=True)
class Diagram:
    """A position for a rules page: the game's options and the moves that lead to it, each
    played by the seat to move (so extra turns need no bookkeeping here)."""

    id: str
    options: dict[str, Any] = field(default_factory=dict)
    moves: tuple[str, ...] = ()


DIAGRAMS: dict[str, tuple[Diagram, ...]] = {
    "dots-and-boxes": (
        # The second player draws the fourth side of the top-left box: it is theirs.
        Diagram("box", {"rows": 2, "cols": 2}, ("a1-b1", "a1-a2", "b1-b2", "a2-b2")),
        # Three boxes in a row with two sides each: whoever opens the chain gives it away.
        Diagram(
            "chain",
            {"rows": 1, "cols": 3},
            ("a1-b1", "b1-c1", "c1-d1", "a2-b2", "b2-c2", "c2-d2"),
        ),
        Diagram("border", {"rows": 2, "cols": 3, "border": True}),
    ),
    "dots-and-triangles": (
        # The first player closes the top triangle with its third side.
        Diagram("triangle", {"size": 2}, ("a1-a2", "a1-b2", "a2-b2")),
        # a2-b2 is the third side of two triangles at once: both go to the first player.
        Diagram("double", {"size": 2}, ("a1-a2", "a1-b2", "a2-b3", "b2-b3", "a2-b2")),
        # The closed strip of the literature (border on): 3n-2 lines left to play.
        Diagram("strip", {"shape": "strip", "length": 4, "border": True}),
    ),
    "figures": (
        Diagram("rim", {"rows": 4, "cols": 4}),
        # Lines grown from the rim: every new line shares a dot with one already drawn.
        Diagram("touch", {"rows": 4, "cols": 4}, ("b1-b2", "b2-c2", "a3-b3", "c2-c3")),
        # Three players on a 5×5 rhombus (13 cells), part played: cells show figures.
        Diagram(
            "rhombus",
            {"rows": 5, "cols": 5, "shape": "rhombus", "players": 3},
            ("c2-d2", "c2-c3", "d2-d3", "c3-d3", "b3-c3", "b3-b4", "b4-c4", "c3-c4"),
        ),
    ),
    "vert3x": (
        # Classic: the first player (from start dot a1) closes a small triangle: 3 lines
        # (3 points) and its outline (3 more); the second player has 2 lines from e5.
        Diagram(
            "classic",
            {"rules": "classic", "radius": 2},
            ("a1-b1", "d5-e5", "b1-b2", "d4-d5", "a1-b2"),
        ),
        # Trianguliche: a 1× triangle (1 point) for the second player and a 2× triangle
        # (2 points) for the first; their dots are closed to the other player.
        Diagram(
            "trianguliche",
            {"rules": "trianguliche"},
            ("a1-b1", "d4-e4", "b1-c1", "e4-e5", "a1-b2", "d4-e5", "b2-c1"),
        ),
        # GYØ, the rulebook's worked example: D (second player) owns the middle unit of a
        # triangle with legs 2; T (first player) completes the big one and scores 3.
        Diagram(
            "gyo",
            {"rules": "gyo", "size": 4},
            (
                "a1-b1",
                "b1-b2",
                "b1-c1",
                "a2-b2",
                "b2-c1",
                "a2-b1",
                "a3-b2",
                "d3-d4",
                "a2-a3",
                "d2-d3",
                "a1-a2",
            ),
        ),
    ),
    "juxtapose": (
        # Four small pyramids in the top row: the first player wins with B1@d1.
        Diagram("size-line", {}, ("R1@a1", "G2@b2", "Y1@b1", "R3@c3", "G1@c1", "P2@a3", "B1@d1")),
        # The three reds on a diagonal: the first player wins with R3@c3.
        Diagram("colour-line", {}, ("R1@a1", "Y2@d1", "R2@b2", "G3@a4", "R3@c3")),
        # After the 15th drop: b4 is empty, and G1 (dropped last) may not slide into it.
        Diagram(
            "slide",
            {},
            (
                "B1@d4",
                "Y2@b2",
                "G2@a3",
                "P2@c2",
                "R1@c3",
                "P3@a4",
                "G3@c4",
                "Y3@a2",
                "B3@b1",
                "R2@d2",
                "Y1@a1",
                "R3@d3",
                "B2@d1",
                "P1@c1",
                "G1@b3",
            ),
        ),
    ),
    # Verticality is a 3-D world: its rules page draws its own pictures.
    "verticality": (),
}


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
        for d in DIAGRAMS.get(game_id, ())
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
