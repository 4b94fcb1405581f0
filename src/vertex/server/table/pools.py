"""Rating pools (RULES.md §5): the exact options a rated table plays with. Each game names
its own (`GameInfo.rating_pools`); here they are one list.

A pool is a game with given options; its full options are what the game makes of them
(defaults filled in), so a table is in a pool only when its options are exactly those.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from vertex.core import create_game
from vertex.core.registry import catalogue


@dataclass(frozen=True)
class Pool:
    id: str  # one URL path segment
    game: str
    given: tuple[tuple[str, Any], ...]  # the options RULES.md names

    @functools.cached_property
    def options(self) -> dict[str, Any]:
        """The table's options in this pool: the given ones, the game's defaults for the rest."""
        return create_game(self.game, **dict(self.given)).options_dict()

    def public(self) -> dict[str, Any]:
        return {"id": self.id, "options": self.options}


#: Every game's pools, as the games declare them (`GameInfo.rating_pools`).
POOLS: tuple[Pool, ...] = tuple(
    Pool(pool_id, info.id, given)
    for info in catalogue().values()
    for pool_id, given in info.rating_pools
)
BY_ID: dict[str, Pool] = {p.id: p for p in POOLS}

#: A rated table's clock when none is asked for (and Play now's): whoever leaves loses on
#: time (a rated table's `on_timeout` is `lose`).
RATED_CLOCK: dict[str, float] = {"total": 600.0, "increment": 5.0}


def pool_of(game: str, options: dict[str, Any]) -> Pool | None:
    """The pool a table of `game` with these (full) options plays in, or None: unrated."""
    for pool in POOLS:
        if pool.game == game and pool.options == options:
            return pool
    return None


def pools_of(game: str) -> list[dict[str, Any]]:
    """A game's pools as `/api/games` lists them."""
    return [p.public() for p in POOLS if p.game == game]
