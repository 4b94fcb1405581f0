"""The game registry: the catalogue of every game, read from the game packages' metadata.

Every package under `vertex.games` lists its games in its `__init__` (`GAMES`, a tuple of
`GameInfo`), which imports nothing but the options; a game's rules module is imported only
when that game is created. Adding a game is adding a package, with no list to keep in step.
`register` adds a game defined elsewhere (a plugin, a test).
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any, TypeVar

from vertex.core.errors import OptionsError
from vertex.core.game import Game
from vertex.core.info import GameInfo, load
from vertex.core.options import validate_options

G = TypeVar("G", bound=type[Game[Any]])

#: The package whose subpackages are the games.
GAMES_PACKAGE = "vertex.games"

_catalogue: dict[str, GameInfo] | None = None
_classes: dict[str, type[Game[Any]]] = {}


def import_submodules(package: str) -> None:
    """Import every module directly under `package`, so each can register itself (the text
    boards do): adding one is adding a module, with no list to keep in step."""
    pkg = importlib.import_module(package)
    for info in pkgutil.iter_modules(pkg.__path__, pkg.__name__ + "."):
        importlib.import_module(info.name)


def _scan() -> dict[str, GameInfo]:
    """Every game package's `GAMES`, by id; only the packages' light `__init__`s load."""
    found: dict[str, GameInfo] = {}
    root = importlib.import_module(GAMES_PACKAGE)
    for mod in pkgutil.iter_modules(root.__path__, root.__name__ + "."):
        if not mod.ispkg:
            raise RuntimeError(
                f"{mod.name} is a module: a game is a package under {GAMES_PACKAGE} whose "
                "__init__ lists its GameInfo in GAMES"
            )
        games = vars(importlib.import_module(mod.name)).get("GAMES")
        if not isinstance(games, tuple) or not all(isinstance(g, GameInfo) for g in games):
            raise RuntimeError(f"{mod.name} must list its games as GAMES: tuple[GameInfo, ...]")
        for info in games:
            if info.id in found:
                raise RuntimeError(f"two games listed as {info.id!r}")
            found[info.id] = info
    return found


def catalogue() -> dict[str, GameInfo]:
    """Every game's metadata by id (scanned once)."""
    global _catalogue
    if _catalogue is None:
        _catalogue = _scan()
    return _catalogue


def register(cls: G) -> G:
    """Class decorator for a game defined outside `vertex.games` (it needs its `info`)."""
    info = cls.info
    known = catalogue().get(info.id)
    if (known is not None and known is not info) or _classes.get(info.id, cls) is not cls:
        raise RuntimeError(f"two games registered as {info.id!r}")
    catalogue()[info.id] = info
    _classes[info.id] = cls
    return cls


def game_info(game_id: str) -> GameInfo:
    """The metadata of a game, without loading its rules; OptionsError for an unknown id."""
    games = catalogue()
    if not isinstance(game_id, str) or game_id not in games:
        raise OptionsError(f"unknown game {game_id!r} (games: {', '.join(sorted(games))})")
    return games[game_id]


def game_class(game_id: str) -> type[Game[Any]]:
    """The game class (imports the game's rules, and only that game's)."""
    info = game_info(game_id)
    cls = _classes.get(game_id)
    if cls is None:
        cls = load(info.game)
        if (
            not (isinstance(cls, type) and issubclass(cls, Game))
            or cls.__dict__.get("info") is not info
        ):
            raise RuntimeError(f"{info.game} is not the game class of {game_id!r} (its info)")
        _classes[game_id] = cls
    return cls


def game_ids() -> list[str]:
    return sorted(catalogue())


def list_games() -> list[dict[str, Any]]:
    """Every game: id, name, rule summary, capabilities, options JSON Schema and defaults —
    from the metadata alone, so no game's rules are loaded."""
    return [game_info(gid).describe() for gid in game_ids()]


def create_game(game_id: str, **options: Any) -> Game[Any]:
    info = game_info(game_id)
    values = validate_options(info.options, game_id, options)  # before loading the rules
    return game_class(game_id)(values)
