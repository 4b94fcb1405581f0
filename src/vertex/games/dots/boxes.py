"""`dots-and-boxes` (RULES.md §1.1)."""

from __future__ import annotations

from functools import cached_property
from typing import TypeVar

from vertex.core.capabilities import Diagram
from vertex.games.dots import BOXES
from vertex.games.dots.engine import DotsGame
from vertex.games.dots.options import BoxesOptions, FamilyOptions
from vertex.lattice.board import LineBoard
from vertex.lattice.square import square_board

F = TypeVar("F", bound=FamilyOptions)


class FamilyGame(DotsGame[F]):
    """Dots and Boxes / Dots and Triangles: seats, misère and extra turn come from options."""

    @property
    def seats(self) -> int:
        return self.options.players

    @property
    def misere(self) -> bool:
        return self.options.misere

    @property
    def extra_turn(self) -> bool:
        return self.options.extra_turn


class DotsAndBoxes(FamilyGame[BoxesOptions]):
    info = BOXES
    unit = "box"
    example = ({"rows": 3, "cols": 3}, 12)
    random_play_cases = (
        {},
        {"rows": 2, "cols": 4, "players": 3, "misere": True},
        {"rows": 1, "cols": 1},
        {"border": True, "extra_turn": False},
    )
    diagrams = (
        # The second player draws the fourth side of the top-left box: it is theirs.
        Diagram("box", {"rows": 2, "cols": 2}, ("a1-b1", "a1-a2", "b1-b2", "a2-b2")),
        # Three boxes in a row with two sides each: whoever opens the chain gives it away.
        Diagram(
            "chain",
            {"rows": 1, "cols": 3},
            ("a1-b1", "b1-c1", "c1-d1", "a2-b2", "b2-c2", "c2-d2"),
        ),
        Diagram("border", {"rows": 2, "cols": 3, "border": True}),
    )

    @cached_property
    def board(self) -> LineBoard:
        return square_board(self.options.rows, self.options.cols)

    @cached_property
    def predrawn(self) -> int:
        return self.board.rim if self.options.border else 0
