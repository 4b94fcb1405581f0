"""The game registry: games register themselves; `vertex.games` imports every module in it."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any, TypeVar

from vertex.core.errors import OptionsError
from vertex.core.game import Game
from vertex.core.options import validate_options

G = TypeVar("G", bound=type[Game[Any]])

_GAMES: dict[str, type[Game[Any]]] = {}
_loaded = False


def register(cls: G) -> G:
    """Class decorator: make a game available under its id."""
    if cls.id in _GAMES and _GAMES[cls.id] is not cls:
        raise RuntimeError(f"two games registered as {cls.id!r}")
    _GAMES[cls.id] = cls
    return cls


def import_submodules(package: str) -> None:
    """Import every module directly under `package`, so each can register itself: adding a
    game (or a text board) is adding a module, with no list to keep in step."""
    pkg = importlib.import_module(package)
    for info in pkgutil.iter_modules(pkg.__path__, pkg.__name__ + "."):
        importlib.import_module(info.name)


def _load() -> None:
    global _loaded
    if not _loaded:
        import_submodules("vertex.games")
        _loaded = True


def game_class(game_id: str) -> type[Game[Any]]:
    _load()
    if not isinstance(game_id, str) or game_id not in _GAMES:
        known = ", ".join(sorted(_GAMES))
        raise OptionsError(f"unknown game {game_id!r} (games: {known})")
    return _GAMES[game_id]


def game_ids() -> list[str]:
    _load()
    return sorted(_GAMES)


def list_games() -> list[dict[str, Any]]:
    """Every game: id, name, rule summary, options JSON Schema and defaults."""
    return [game_class(gid).describe() for gid in game_ids()]


def create_game(game_id: str, **options: Any) -> Game[Any]:
    cls = game_class(game_id)
    return cls(validate_options(cls.Options, game_id, options))
