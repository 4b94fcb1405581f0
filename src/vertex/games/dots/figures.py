"""`figures` (RULES.md §1.3): the Russian cells game — figures by lot, a rim, the touch rule."""

from __future__ import annotations

from functools import cached_property
from typing import Literal

from pydantic import Field

from vertex.core.options import GameOptions
from vertex.core.registry import register
from vertex.core.rng import Rng
from vertex.games.dots.engine import DotsGame
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


class FiguresOptions(GameOptions):
    rows: int = Field(default=8, ge=2, le=20, description="rows of cells")
    cols: int = Field(default=8, ge=2, le=20, description="columns of cells")
    players: int = Field(default=2, ge=2, le=6)
    shape: Literal["rectangle", "rhombus"] = Field(default="rectangle")


@register
class Figures(DotsGame[FiguresOptions]):
    id = "figures"
    example = ({"rows": 5, "cols": 5, "shape": "rhombus", "players": 3}, 20)
    name = "Figures"
    summary = (
        "The Russian cells game for 2–6 players. Each player gets a figure by lot; the cross "
        "moves first. Every new line must touch a line already drawn. Close a cell to put "
        "your figure in it and move again; most cells wins."
    )
    Options = FiguresOptions
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
