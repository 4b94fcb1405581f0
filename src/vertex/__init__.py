"""Vertex: pen-and-paper and pyramid games. The public API (DESIGN.md §2)."""

from vertex.core import (
    Game,
    IllegalMove,
    NotationError,
    OptionsError,
    Record,
    RecordError,
    State,
    VertexError,
    create_game,
    list_games,
    replay,
)

__all__ = [
    "Game",
    "IllegalMove",
    "NotationError",
    "OptionsError",
    "Record",
    "RecordError",
    "State",
    "VertexError",
    "create_game",
    "list_games",
    "replay",
]
