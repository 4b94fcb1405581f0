"""The Dots-and-Boxes family: one engine, three games (RULES.md §1).

This `__init__` only lists the games (`GAMES`) with their options: the engine loads when a
game is created."""

from vertex.core.info import GameInfo, lazy_exports
from vertex.games.dots.options import BoxesOptions, FiguresOptions, TrianglesOptions

#: The family's exact solver (perfect play: the analysis, `vertex solve`).
SOLVER = "vertex.ai.dots.solver:Solver"

BOXES = GameInfo(
    id="dots-and-boxes",
    name="Dots and Boxes",
    summary=(
        "Take turns drawing a line between neighbouring dots. Draw the fourth side of a box to "
        "claim it and move again. When every line is drawn, the most boxes wins."
    ),
    options=BoxesOptions,
    game="vertex.games.dots.boxes:DotsAndBoxes",
    solver=SOLVER,
    rating_pools=(
        ("dots-and-boxes-3x3", (("rows", 3), ("cols", 3))),
        ("dots-and-boxes-5x5", (("rows", 5), ("cols", 5))),
    ),
)
TRIANGLES = GameInfo(
    id="dots-and-triangles",
    name="Dots and Triangles",
    summary=(
        "Dots and Boxes on a triangular lattice: draw lines between neighbouring dots; draw the "
        "third side of a small triangle to claim it and move again. Most triangles wins."
    ),
    options=TrianglesOptions,
    game="vertex.games.dots.triangles:DotsAndTriangles",
    solver=SOLVER,
    rating_pools=(("dots-and-triangles-6", (("size", 6),)),),
)
FIGURES = GameInfo(
    id="figures",
    name="Figures",
    summary=(
        "The Russian cells game for 2–6 players. Each player gets a figure by lot; the cross "
        "moves first. Every new line must touch a line already drawn. Close a cell to put "
        "your figure in it and move again; most cells wins."
    ),
    options=FiguresOptions,
    game="vertex.games.dots.figures:Figures",
    symbols_by_lot=True,
    solver=SOLVER,
    rating_pools=tuple(
        (f"figures-6x6-{n}", (("rows", 6), ("cols", 6), ("players", n))) for n in (2, 3, 4)
    ),
)
GAMES = (BOXES, TRIANGLES, FIGURES)

__getattr__ = lazy_exports(__name__, {"DotsGame": "engine", "DotsState": "engine"})

__all__ = ["BOXES", "FIGURES", "GAMES", "TRIANGLES"]
