"""`dots-and-boxes` (RULES.md §1.1)."""

from __future__ import annotations

from functools import cached_property
from typing import TypeVar

from pydantic import Field

from vertex.core.options import GameOptions
from vertex.core.registry import register
from vertex.games.dots.engine import DotsGame
from vertex.lattice.board import LineBoard
from vertex.lattice.square import square_board


class FamilyOptions(GameOptions):
    misere: bool = Field(default=False, description="fewest cells wins")
    border: bool = Field(default=False, description="the outline is drawn before play")
    extra_turn: bool = Field(default=True, description="completing a cell gives another move")
    players: int = Field(default=2, ge=2, le=6)


F = TypeVar("F", bound=FamilyOptions)


class FamilyGame(DotsGame[F]):
    """Dots and Boxes / Dots and Triangles: seats, misère and extra turn come from options."""

    @property
    def seats(self) -> int:
        return self.options.players

    @property
    def misere(self) -> bool:  # type: ignore[override]
        return self.options.misere

    @property
    def extra_turn(self) -> bool:  # type: ignore[override]
        return self.options.extra_turn


class BoxesOptions(FamilyOptions):
    rows: int = Field(default=3, ge=1, le=12, description="rows of boxes")
    cols: int = Field(default=3, ge=1, le=12, description="columns of boxes")


@register
class DotsAndBoxes(FamilyGame[BoxesOptions]):
    id = "dots-and-boxes"
    example = ({"rows": 3, "cols": 3}, 12)
    name = "Dots and Boxes"
    summary = (
        "Take turns drawing a line between neighbouring dots. Draw the fourth side of a box to "
        "claim it and move again. When every line is drawn, the most boxes wins."
    )
    Options = BoxesOptions

    @cached_property
    def board(self) -> LineBoard:
        return square_board(self.options.rows, self.options.cols)

    @cached_property
    def predrawn(self) -> int:
        return self.board.rim if self.options.border else 0
