"""`juxtapose` — Juxtapose, a Looney Pyramids game on a 4×4 board (RULES.md §3).

This `__init__` only lists the game (`GAMES`) with its options; the rules are in `game`, and
its names (`JuxtaposeState`, `MOVE_NAMES`, …) load from there when first asked for."""

from typing import Any

from vertex.core.info import GameInfo
from vertex.games.juxtapose.options import JuxtaposeOptions

JUXTAPOSE = GameInfo(
    id="juxtapose",
    name="Juxtapose",
    summary=(
        "Drop pyramids from one shared stash on a 4×4 board, then swap neighbours or slide into "
        "the empty square. Win at once by lining up four of one size, or the three of one colour."
    ),
    options=JuxtaposeOptions,
    game="vertex.games.juxtapose.game:Juxtapose",
    sudden_win=True,  # a line wins at once
    scored=False,  # won by a line or drawn: no points
    rating_pools=(("juxtapose-2", (("players", 2),)),),
    review_search="vertex.ai.juxtapose_exact:judge",
)
GAMES = (JUXTAPOSE,)


def __getattr__(name: str) -> Any:
    # every public name of the rules module, loaded on first use
    import importlib

    namespace = vars(importlib.import_module(f"{__name__}.game"))
    if name.startswith("__") or name not in namespace:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return namespace[name]


__all__ = ["GAMES", "JUXTAPOSE", "JuxtaposeOptions"]
