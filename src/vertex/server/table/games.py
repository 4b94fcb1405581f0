"""The game a client asks for, built with its options, or the error it can read."""

from __future__ import annotations

from typing import Any

from vertex.core import Game, OptionsError, create_game, game_ids
from vertex.server.errors import ApiError, bad_options


def checked_game(game_id: str, options: dict[str, Any]) -> Game[Any]:
    """The game with these options, or the ApiError a client can read (naming the option,
    the problem and its params)."""
    if game_id not in game_ids():
        known = ", ".join(game_ids())
        raise ApiError(
            "unknown-game",
            f"there is no game {game_id[:64]!r} (games: {known})",
            422,
            params={"games": list(game_ids())},
        )
    try:
        return create_game(game_id, **options)
    except OptionsError as exc:
        raise bad_options(exc) from None
