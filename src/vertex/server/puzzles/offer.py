"""What the puzzles page can choose (issue 35): the games with puzzles, each game's boards
(pools) and themes, as the shipped set has them, and a choice checked (coded refusals)."""

from __future__ import annotations

from typing import Any

from vertex.core.registry import create_game
from vertex.puzzles.model import Puzzle, pool_name
from vertex.server.errors import ApiError

#: Every theme (RULES.md §5), in the order a choice lists them; a game's are those its
#: shipped puzzles have.
THEMES = (
    "chain-control",
    "all-but-two",
    "double-dealing",
    "sacrifice",
    "loops",
    "endgame",
    "opening-safe",
    "win-in-1",
    "win-in-2",
    "win-in-3",
    "defence",
)


def games(by_game: dict[str, list[Puzzle]]) -> list[dict[str, Any]]:
    """The games with puzzles (those of the shipped set), each with its themes, its options'
    defaults and its boards (`pools: [{pool, options, themes}]`, the board's full options,
    in the order the set has them)."""
    out = []
    for game, every in by_game.items():
        pools: dict[str, list[Puzzle]] = {}
        for p in every:
            pools.setdefault(pool_name(p.game, p.options), []).append(p)
        out.append(
            {
                "game": game,
                "themes": _themes(every),
                "defaults": create_game(game).options_dict(),
                "pools": [
                    {
                        "pool": pool,
                        "options": create_game(game, **ps[0].options).options_dict(),
                        "themes": _themes(ps),
                    }
                    for pool, ps in pools.items()
                ],
            }
        )
    return out


def _themes(every: list[Puzzle]) -> list[str]:
    return [t for t in THEMES if any(t in p.themes for p in every)]


def scope(by_game: dict[str, list[Puzzle]], game: str, pool: str | None, theme: str | None) -> str:
    """The choice's scope (picks.py): the pool asked for, or the game (any board)."""
    if game not in by_game:
        raise ApiError("puzzle-game", "no puzzles for this game", 422, params={"game": game[:64]})
    if theme is not None and theme not in THEMES:
        raise ApiError("puzzle-theme", "no such theme", 422, params={"theme": theme[:64]})
    if pool is not None and pool not in {pool_name(game, p.options) for p in by_game[game]}:
        raise ApiError("puzzle-pool", "no puzzles for this board", 422, params={"pool": pool[:64]})
    return game if pool is None else pool
