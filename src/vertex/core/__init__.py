"""The game contract: Game/State, options, errors, records, the seeded random source."""

from vertex.core.errors import IllegalMove, NotationError, OptionsError, RecordError, VertexError
from vertex.core.game import AGREED_END, Game, State
from vertex.core.info import GameInfo
from vertex.core.options import GameOptions
from vertex.core.record import Record, RecordedMove, replay
from vertex.core.registry import (
    catalogue,
    create_game,
    game_class,
    game_ids,
    game_info,
    list_games,
    register,
)
from vertex.core.rng import Rng

__all__ = [
    "AGREED_END",
    "Game",
    "GameInfo",
    "GameOptions",
    "IllegalMove",
    "NotationError",
    "OptionsError",
    "Record",
    "RecordError",
    "RecordedMove",
    "Rng",
    "State",
    "VertexError",
    "catalogue",
    "create_game",
    "game_class",
    "game_ids",
    "game_info",
    "list_games",
    "register",
    "replay",
]
