"""`figures` (RULES.md §1.3): the Russian cells game — figures by lot, a rim, the touch rule."""

from __future__ import annotations

from functools import cached_property

from vertex.core.capabilities import Diagram
from vertex.core.rng import Rng
from vertex.games.dots import FIGURES as INFO
from vertex.games.dots.engine import DotsGame
from vertex.games.dots.options import FiguresOptions
from vertex.lattice.board import LineBoard
from vertex.lattice.square import square_board

#: The figures in list order: the cross always moves first, then the others in this order.
FIGURES = ("cross", "nought", "plus", "triangle", "square", "diamond")
FIGURE_SYMBOLS = {
    "cross": "✕",
    "nought": "○",
    "plus": "＋",
    "triangle": "△",
    "square": "□",
    "diamond": "◇",
}


class Figures(DotsGame[FiguresOptions]):
    info = INFO
    unit = "figure"
    example = ({"rows": 5, "cols": 5, "shape": "rhombus", "players": 3}, 20)
    random_play_cases = (
        {"rows": 4, "cols": 5, "players": 3},
        {"rows": 6, "cols": 6, "shape": "rhombus", "players": 6},
    )
    diagrams = (
        Diagram("rim", {"rows": 4, "cols": 4}),
        # Lines grown from the rim: every new line shares a dot with one already drawn.
        Diagram("touch", {"rows": 4, "cols": 4}, ("b1-b2", "b2-c2", "a3-b3", "c2-c3")),
        # Three players on a 5×5 rhombus (13 cells), part played: cells show figures.
        Diagram(
            "rhombus",
            {"rows": 5, "cols": 5, "shape": "rhombus", "players": 3},
            ("c2-d2", "c2-c3", "d2-d3", "c3-d3", "b3-c3", "b3-b4", "b4-c4", "c3-c4"),
        ),
    )
    touch_rule = True

    @property
    def seats(self) -> int:
        return self.options.players

    @cached_property
    def board(self) -> LineBoard:
        return square_board(self.options.rows, self.options.cols, self.options.shape)

    @cached_property
    def predrawn(self) -> int:
        return self.board.rim

    def figures(self, seed: int) -> tuple[str, ...]:
        """The figure of each seat, drawn by lot from the table's seed."""
        in_play = FIGURES[: self.seats]
        shuffled, _ = Rng.from_seed(seed, "figures").shuffled(in_play)
        return tuple(shuffled)

    def turn_order(self, seed: int) -> tuple[int, ...]:
        figures = self.figures(seed)
        return tuple(sorted(range(self.seats), key=lambda s: FIGURES.index(figures[s])))

    def seat_symbols(self, seed: int) -> tuple[str, ...]:
        return tuple(FIGURE_SYMBOLS[f] for f in self.figures(seed))
