"""Vert3x (RULES.md §2): one engine, three rule sets — classic, Trianguliche and GYØ.

This `__init__` only lists the game (`GAMES`) with its options: the engine loads when a game
is created."""

from vertex.core.info import GameInfo, lazy_exports
from vertex.games.vert3x.options import Vert3xOptions

VERT3X = GameInfo(
    id="vert3x",
    name="Vert3x",
    summary=(
        "Draw lines in your colour between neighbouring dots and score for triangles whose "
        "three sides are all yours. Three rule sets: classic (triangular lattice, points for "
        "lines and outlines), Trianguliche (windows, blocked dots, powers of two) and GYØ "
        "(square grid with diagonals, points per unit not held by others)."
    ),
    options=Vert3xOptions,
    game="vertex.games.vert3x.game:Vert3x",
    can_end_by_agreement=True,
    version_words=True,  # web/js/boards/vert3x/vert3x-version.js
    rating_pools=(
        ("vert3x-trianguliche-3x3", (("rules", "trianguliche"), ("width", 3), ("height", 3))),
    ),
)
GAMES = (VERT3X,)

__getattr__ = lazy_exports(__name__, {"Vert3x": "game", "Vert3xState": "engine"})

__all__ = ["GAMES", "VERT3X", "Vert3xOptions"]
